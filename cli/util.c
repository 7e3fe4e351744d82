#include "cli.h"
#include <citcat/escape.h>
#include <citcat/io.h>

#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int cli_errinfo(const char *path, const struct citcat_errinfo *e)
{
	const char *msg = e->msg[0] ? e->msg : citcat_errstr(e->code);
	char p[1024], m[1024];
	cli_escape_text(path, p, sizeof p);
	cli_escape_text(msg, m, sizeof m);
	if (e->offset != UINT64_MAX)
		fprintf(stderr, "citcat: %s: offset %llu: %s\n", p, (unsigned long long)e->offset, m);
	else if (strlen(path) > 1 && strncmp(msg, path, strlen(path)) == 0 && msg[strlen(path)] == ':')
		fprintf(stderr, "citcat: %s\n", m); /* the message starts with the file's name already */
	else
		fprintf(stderr, "citcat: %s: %s\n", p, m);
	return EXIT_USAGE;
}

void cli_note(const char *cmd, const char *fmt, ...)
{
	if (cli_quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "citcat %s: ", cmd);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

const char *cli_escape_text(const char *s, char *out, size_t n)
{
	citcat_escape(CITCAT_ESC_TEXT, s, (size_t)-1, out, n);
	return out;
}

/* Escapes S in STYLE onto F (a buffer on the stack, or the heap when S
 * is long). */
static void put_escaped(FILE *f, enum citcat_esc style, const char *s)
{
	char small[512];
	size_t need = citcat_escape(style, s, (size_t)-1, small, sizeof small);
	if (need < sizeof small) {
		fputs(small, f);
		return;
	}
	char *big = malloc(need + 1);
	if (!big)
		return;
	citcat_escape(style, s, (size_t)-1, big, need + 1);
	fputs(big, f);
	free(big);
}

void cli_put_json(FILE *f, const char *s) { put_escaped(f, CITCAT_ESC_JSON, s); }
void cli_put_csv(FILE *f, const char *s) { put_escaped(f, CITCAT_ESC_CSV, s); }

int cli_fail(const char *fmt, ...)
{
	va_list ap;
	char m[2048], e[2048];
	va_start(ap, fmt);
	vsnprintf(m, sizeof m, fmt, ap);
	va_end(ap);
	fprintf(stderr, "citcat: %s\n", cli_escape_text(m, e, sizeof e));
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

/* The number at the start of S: decimal digits, or hex after 0x/0X; no
 * spaces, signs or octal.  Returns the first character after it, or NULL
 * when there is no number or it exceeds 64 bits. */
static const char *parse_number(const char *s, uint64_t *out)
{
	unsigned base = 10;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	uint64_t v = 0;
	const char *p = s;
	for (;; p++) {
		unsigned d;
		if (*p >= '0' && *p <= '9')
			d = (unsigned)(*p - '0');
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = (unsigned)(*p - 'a' + 10);
		else if (base == 16 && *p >= 'A' && *p <= 'F')
			d = (unsigned)(*p - 'A' + 10);
		else
			break;
		if (v > (UINT64_MAX - d) / base)
			return NULL;
		v = v * base + d;
	}
	if (p == s)
		return NULL;
	*out = v;
	return p;
}

int cli_parse_u64(const char *s, uint64_t *out)
{
	uint64_t v;
	const char *end = s ? parse_number(s, &v) : NULL;
	if (!end || *end)
		return -1;
	*out = v;
	return 0;
}

int cli_parse_size(const char *s, uint64_t *out)
{
	uint64_t v;
	const char *end = s ? parse_number(s, &v) : NULL;
	if (!end)
		return -1;
	unsigned shift = 0;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	}
	if (shift && end[0] == 'i' && end[1] == 'B')
		end += 2; /* KiB */
	else if (*end == 'B')
		end++; /* KB, or bytes */
	if (*end || (shift && v > (UINT64_MAX >> shift)))
		return -1;
	*out = v << shift;
	return 0;
}

int cli_parse_count(const char *s, uint64_t *out)
{
	uint64_t v, m = 1;
	const char *end = s ? parse_number(s, &v) : NULL;
	if (!end)
		return -1;
	switch (*end) {
	case 'k': case 'K': m = 1000; end++; break;
	case 'm': case 'M': m = 1000000; end++; break;
	case 'g': case 'G': m = 1000000000; end++; break;
	case 't': case 'T': m = 1000000000000ull; end++; break;
	}
	if (*end || v > UINT64_MAX / m)
		return -1;
	*out = v * m;
	return 0;
}

char **cli_split_long_opts(int argc, char **argv, int *out_argc)
{
	static char **split; /* kept for the life of the process (reachable) */
	int n = argc;
	for (int i = 0; i < argc; i++)
		if (argv[i][0] == '-' && argv[i][1] == '-' && argv[i][2] && strchr(argv[i], '='))
			n++;
	*out_argc = argc;
	if (n == argc)
		return argv;
	char **v = calloc((size_t)n + 1, sizeof *v);
	if (!v)
		return argv; /* the options then read as unknown ones */
	int k = 0;
	for (int i = 0; i < argc; i++) {
		char *eq = argv[i][0] == '-' && argv[i][1] == '-' && argv[i][2] ? strchr(argv[i], '=') : NULL;
		if (!eq) {
			v[k++] = argv[i];
			continue;
		}
		*eq = 0; /* argv's strings are ours to modify */
		v[k++] = argv[i];
		v[k++] = eq + 1;
	}
	free(split);
	split = v;
	*out_argc = k;
	return v;
}

/* Edit distance (insertions, deletions, substitutions, adjacent swaps) of
 * two short words, capped at 9. */
static unsigned edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 30 || lb > 30)
		return 9;
	unsigned d[32][32];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (unsigned)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			unsigned c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < c)
				c = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < c)
				c = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < c)
				c = d[i - 2][j - 2] + 1;
			d[i][j] = c;
		}
	return d[la][lb] < 9 ? d[la][lb] : 9;
}

const char *cli_did_you_mean(const char *word, const char *const *names, size_t n)
{
	const char *best = NULL;
	unsigned bd = 3; /* at most two edits, and fewer than half the word */
	for (size_t i = 0; i < n; i++) {
		unsigned d = edit_distance(word, names[i]);
		if (d < bd && 2 * d < strlen(names[i])) {
			bd = d;
			best = names[i];
		}
	}
	return best;
}

int cli_is_help(const char *a) { return strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0; }

long cli_read_head(const char *path, uint8_t *buf, size_t n)
{
	/* through the input layer, raw (no unwrapping): standard input's
	 * first bytes are read again by the reader that follows
	 * (<citcat/io.h>), a special file is opened only as the rules say */
	struct citcat_input *in;
	struct citcat_errinfo err;
	if (citcat_input_open(&in, path, CITCAT_IN_RAW, &err))
		return -1;
	long k = citcat_input_read(in, buf, n);
	citcat_input_close(in);
	return k;
}

FILE *cli_scratch_open(const char *path, struct citcat_outfile **o)
{
	struct citcat_errinfo err;
	*o = NULL;
	if (citcat_outfile_open(o, path, CITCAT_OUT_PLAIN | CITCAT_OUT_NOSYNC, &err)) {
		cli_errinfo(path, &err);
		return NULL;
	}
	FILE *f = citcat_outfile_stream(*o);
	if (!f) {
		citcat_outfile_abort(*o);
		*o = NULL;
	}
	return f;
}

int cli_scratch_close(FILE *f, struct citcat_outfile *o)
{
	if (!f)
		return 0;
	int bad = fclose(f) != 0;
	struct citcat_errinfo err;
	if (bad) {
		citcat_outfile_abort(o);
		return -1;
	}
	return citcat_outfile_commit(o, &err) ? -1 : 0;
}

long long cli_file_bytes(const char *path)
{
	if (strcmp(path, "-") == 0)
		return (long long)citcat_input_stdin_bytes();
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (long long)st.st_size : -1;
}

int cli_check_distinct(const char *const *in, size_t nin, const char *const *out, size_t nout)
{
	size_t i, j;
	switch (citcat_guard_check(in, nin, out, nout, &i, &j)) {
	case 1: return cli_fail("%s: refusing to write over the input %s (the same file)", out[i], in[j]);
	case 2: return cli_fail("%s and %s are the same file; give each output its own", out[j], out[i]);
	default: return 0;
	}
}

/* The errno of the first failed write to standard output (0: none):
 * stdio's error flag keeps no reason, so standard output's writes go
 * through a stream of ours that remembers it (cli_watch_stdout). */
static int stdout_errno;

static ssize_t stdout_write(void *c, const char *buf, size_t n)
{
	(void)c;
	size_t done = 0;
	while (done < n) {
		ssize_t k = write(1, buf + done, n - done);
		if (k < 0 && errno == EINTR && !citcat_stop_requested())
			continue;
		if (k <= 0) {
			if (!stdout_errno)
				stdout_errno = k < 0 ? errno : EIO;
			errno = stdout_errno;
			return -1;
		}
		done += (size_t)k;
	}
	return (ssize_t)n;
}

void cli_watch_stdout(void)
{
	cookie_io_functions_t io = {NULL, stdout_write, NULL, NULL};
	FILE *f = fopencookie(NULL, "w", io);
	if (!f)
		return; /* stdio's own stream stays: errors then lose their reason */
	setvbuf(f, NULL, isatty(1) ? _IOLBF : _IOFBF, 1u << 16);
	stdout = f;
}

int cli_close_stdout(int status)
{
	int bad = ferror(stdout), e = 0;
	if (fflush(stdout) != 0) {
		bad = 1;
		e = errno;
	}
	if (fclose(stdout) != 0 && !e) {
		bad = 1;
		e = errno;
	}
	if (stdout_errno)
		e = stdout_errno; /* the first failure's reason */
	if (!bad)
		return status;
	fprintf(stderr, "citcat: writing standard output failed: %s\n",
		e == EINTR && citcat_stop_requested() ? "interrupted" : e ? strerror(e) : "write error");
	return status ? status : EXIT_USAGE;
}

int cli_has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && strcmp(s + a - b, suf) == 0;
}


/* The first signal asks for a clean stop at the next boundary (the long
 * loops poll cli_interrupted); a second one, while that stop is under way,
 * forces the exit at once: status 130, temporary outputs removed, nothing
 * renamed into place. */
static void on_signal(int sig)
{
	if (citcat_stop_requested()) {
		static const char msg[] = "\ncitcat: interrupted again: aborted, temporary outputs removed\n";
		citcat_outfile_remove_temps();
		ssize_t n = write(STDERR_FILENO, msg, sizeof msg - 1);
		(void)n;
		_exit(130);
	}
	citcat_stop_request(sig);
}

void cli_catch_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int cli_interrupted(void) { return citcat_stop_requested() != 0; }

double cli_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void cli_progress_init(struct cli_progress *p, const char *what)
{
	p->enabled = isatty(2) && !getenv("CITCAT_NO_PROGRESS");
	p->shown = 0;
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
	p->shown = 1;
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

void cli_progress_clear(struct cli_progress *p)
{
	if (p->shown) {
		fputs("\r\033[K", stderr);
		p->shown = 0;
	}
}

void cli_progress_done(struct cli_progress *p)
{
	if (p->enabled && p->last != p->start)
		fputs("\r\033[K", stderr);
}

size_t cli_default_examples(const char **files, size_t max, int with_long)
{
	static const char *const names[] = {"crc32",   "sha256", "qsort", "matmul",      "strsearch",  "dijkstra",
					    "sched",   "uartline", "counter", "idle", "matmul_long", "sha256_long"};
	static char paths[sizeof names / sizeof *names][512];
	const char *dir = getenv("CITCAT_EXAMPLES_DIR");
	size_t n = 0, last = with_long ? sizeof names / sizeof *names : 10;
	for (size_t k = 0; k < last && n < max; k++) {
		snprintf(paths[k], sizeof paths[k], "%s/%s.elf", dir ? dir : CITCAT_DEFAULT_EXAMPLES_DIR, names[k]);
		if (access(paths[k], R_OK) == 0)
			files[n++] = paths[k];
	}
	return n;
}

long cli_compressed_size(const char *cmd, const char *path)
{
	char buf[1200];
	snprintf(buf, sizeof buf, "%s < '%s' | wc -c", cmd, path);
	FILE *p = popen(buf, "r");
	long n = -1;
	if (p) {
		if (fscanf(p, "%ld", &n) != 1)
			n = -1;
		pclose(p);
	}
	return n;
}
