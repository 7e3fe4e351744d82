#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int cli_errinfo(const char *path, const struct citcat_errinfo *e)
{
	const char *msg = e->msg[0] ? e->msg : citcat_errstr(e->code);
	if (e->offset != UINT64_MAX)
		fprintf(stderr, "citcat: %s: offset %llu: %s\n", path, (unsigned long long)e->offset, msg);
	else
		fprintf(stderr, "citcat: %s: %s\n", path, msg);
	return EXIT_USAGE;
}

int cli_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("citcat: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return EXIT_USAGE;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "citcat %s: ", cmd);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\nTry 'citcat %s --help'.\n", cmd);
	va_end(ap);
	return EXIT_USAGE;
}

int cli_parse_u64(const char *s, uint64_t *out)
{
	if (!s || !*s || *s == '-')
		return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int cli_parse_size(const char *s, uint64_t *out)
{
	if (!s || !*s || !isdigit((unsigned char)*s))
		return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno)
		return -1;
	unsigned shift = 0;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	}
	if (*end == 'i' || *end == 'B')
		end += (*end == 'i' && end[1] == 'B') ? 2 : 1;
	if (*end || (shift && v > (UINT64_MAX >> shift)))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

int cli_is_help(const char *a) { return strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0; }

long cli_read_head(const char *path, uint8_t *buf, size_t n)
{
	if (strcmp(path, "-") == 0)
		return 0;
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	size_t k = fread(buf, 1, n, f);
	fclose(f);
	return (long)k;
}

int cli_has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && strcmp(s + a - b, suf) == 0;
}

static volatile sig_atomic_t got_signal;

static void on_signal(int sig) { got_signal = sig; }

void cli_catch_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int cli_interrupted(void) { return got_signal != 0; }

double cli_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void cli_progress_init(struct cli_progress *p, const char *what)
{
	p->enabled = isatty(2) && !getenv("CITCAT_NO_PROGRESS");
	p->start = p->last = cli_now();
	p->what = what;
}

void cli_progress_update(struct cli_progress *p, uint64_t done, uint64_t total, const char *unit)
{
	if (!p->enabled)
		return;
	double t = cli_now();
	if (t - p->last < 0.2 && p->last != p->start) /* the first call shows at once */
		return;
	p->last = t;
	double rate = done / (t - p->start + 1e-9);
	if (total) {
		/* the total up front, and an estimate of the time left once a rate is known */
		char eta[32] = "ETA ?";
		if (done && done <= total) {
			double s = (double)(total - done) / rate;
			if (s < 360000.0)
				snprintf(eta, sizeof eta, "ETA %dh%02dm%02ds", (int)(s / 3600), (int)(s / 60) % 60, (int)s % 60);
			else
				snprintf(eta, sizeof eta, "ETA %.0f days", s / 86400.0);
		}
		fprintf(stderr, "\r%s: %llu / %llu %s (%.0f%%, %.1f M%s/s, %s)   ", p->what, (unsigned long long)done,
			(unsigned long long)total, unit, 100.0 * (double)done / (double)total, rate / 1e6, unit, eta);
	} else
		fprintf(stderr, "\r%s: %llu %s (%.1f M%s/s)   ", p->what, (unsigned long long)done, unit, rate / 1e6, unit);
}

void cli_progress_done(struct cli_progress *p)
{
	if (p->enabled && p->last != p->start)
		fputs("\r\033[K", stderr);
}
