/* citcat gdb: serve a replayed run to GDB (or an IDE speaking GDB's remote
 * protocol), forwards and backwards.  The protocol is the library's
 * (replay/gdbserver.c, replay/GDB.md); this file parses the arguments,
 * opens the run and plumbs standard input/output or a TCP socket. */
#include "cli.h"

#include <citcat/gdbserver.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static const char gdb_help[] =
	"usage: citcat gdb RUN.ims RUN.aes [--elf FW.elf] (--port N | --stdio) [options]\n"
	"       citcat gdb RUN.cat [--elf FW.elf] (--port N | --stdio) [options]\n\n"
	"Serves the replayed run to GDB over its remote serial protocol, forwards and\n"
	"backwards: registers and memory as they were at any instruction, breakpoints,\n"
	"watchpoints exact at the accessing instruction, reverse-step, reverse-next,\n"
	"reverse-finish and reverse-continue (replay/GDB.md; a walkthrough in\n"
	"docs/DEBUGGING.md).  History cannot change: writes to registers and memory are\n"
	"refused.  From a CAT the IMS and AES are extracted first.\n"
	"  --stdio          serve on standard input and output, for\n"
	"                   (gdb) target remote | citcat gdb --stdio RUN.cat\n"
	"  --port N         serve one client on TCP port N of localhost (127.0.0.1;\n"
	"                   0: a free port, named on standard error); --listen ADDR\n"
	"                   to take it on another address\n"
	"  --elf FW.elf     the firmware: offered to GDB as its executable, names\n"
	"                   functions in monitor output, and checked against the run\n"
	"                   (a warning when it is another build); from a CAT that\n"
	"                   records its firmware, that ELF when its build id matches\n"
	"  --budget SIZE    snapshot memory (default 256M, at least 1M; K/M/G suffixes)\n"
	"  --interval N     instructions between snapshots moving forwards (default 1M)\n"
	"Monitor commands: when, goto N, events [FROM [COUNT]], event K, checkpoints.\n"
	"Exit status: 0 when the client detached or went away; 2 on a usage or input\n"
	"error, or a run that does not replay from its start.\n";

struct conn {
	int in, out;
};

static long conn_read(void *ctx, void *buf, size_t n, int timeout_ms)
{
	struct conn *c = ctx;
	for (;;) {
		struct pollfd p = {c->in, POLLIN, 0};
		int r = poll(&p, 1, timeout_ms < 0 ? 250 : timeout_ms);
		if (r < 0 && errno != EINTR)
			return -1;
		if (cli_interrupted())
			return -1;
		if (r <= 0) {
			if (timeout_ms >= 0)
				return 0;
			continue;
		}
		ssize_t k = read(c->in, buf, n);
		if (k < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		return k > 0 ? (long)k : -1;
	}
}

static int conn_write(void *ctx, const void *buf, size_t n)
{
	struct conn *c = ctx;
	const char *p = buf;
	while (n) {
		ssize_t k = write(c->out, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

static void conn_log(void *ctx, const char *line)
{
	(void)ctx;
	/* -q: the session's ordinary end and a resent packet are not worth a
	 * line; warnings, refusals and errors still are */
	if (cli_quiet && (strcmp(line, "the client has gone") == 0 || strstr(line, "asked for it again")))
		return;
	fprintf(stderr, "citcat gdb: %s\n", line);
}

/* The line that reports error CODE of the library (E may be NULL; its
 * message names the file) into BUF. */
static void gdb_reason(char *buf, size_t n, const struct citcat_errinfo *e, int code)
{
	const char *msg = e && e->msg[0] ? e->msg : citcat_errstr(code);
	if (e && e->offset != UINT64_MAX)
		snprintf(buf, n, "citcat gdb: offset %llu: %s", (unsigned long long)e->offset, msg);
	else
		snprintf(buf, n, "citcat gdb: %s", msg);
}

/* Reports error CODE on standard error. */
static int gdb_error(const struct citcat_errinfo *e, int code)
{
	char why[600];
	gdb_reason(why, sizeof why, e, code);
	fprintf(stderr, "%s\n", why);
	return EXIT_USAGE;
}

static int stop_asked(void *ctx)
{
	(void)ctx;
	return cli_interrupted();
}

static int extract_progress(void *ctx, uint64_t done, uint64_t total)
{
	cli_progress_update(ctx, done, total, "bytes");
	return cli_interrupted();
}

/* Listens on ADDR:PORT and takes one client into *FD. */
static int accept_one(const char *addr, uint64_t port, int *fd)
{
	int s = socket(AF_INET, SOCK_STREAM, 0);
	if (s < 0)
		return cli_fail("socket: %s", strerror(errno));
	int one = 1;
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	if (inet_pton(AF_INET, addr, &sa.sin_addr) != 1) {
		close(s);
		return cli_usage_error("gdb", "bad --listen address '%s' (an IPv4 address)", addr);
	}
	if (bind(s, (struct sockaddr *)&sa, sizeof sa) || listen(s, 1)) {
		int e = errno;
		close(s);
		return cli_fail("cannot listen on %s:%llu: %s", addr, (unsigned long long)port, strerror(e));
	}
	socklen_t sl = sizeof sa;
	if (!port && getsockname(s, (struct sockaddr *)&sa, &sl) == 0) /* --port 0: the one the system chose */
		port = ntohs(sa.sin_port);
	fprintf(stderr, "citcat gdb: listening on %s:%llu; in GDB: target remote %s:%llu\n", addr,
		(unsigned long long)port, addr, (unsigned long long)port);
	for (;;) {
		struct pollfd p = {s, POLLIN, 0};
		int r = poll(&p, 1, 250);
		if (cli_interrupted()) {
			close(s);
			return EXIT_OK;
		}
		if (r <= 0)
			continue;
		int c = accept(s, NULL, NULL);
		if (c < 0 && (errno == EINTR || errno == ECONNABORTED))
			continue;
		close(s);
		if (c < 0)
			return cli_fail("accept: %s", strerror(errno));
		setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		*fd = c;
		return -1;
	}
}

int cmd_gdb(int argc, char **argv)
{
	const char *pos[2] = {NULL, NULL}, *elf = NULL, *listen_addr = "127.0.0.1";
	int npos = 0, use_stdio = 0, use_port = 0;
	uint64_t port = 0, budget = 0, interval = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (cli_is_help(a)) {
			fputs(gdb_help, stdout);
			return EXIT_OK;
		} else if (strcmp(a, "--stdio") == 0) {
			use_stdio = 1;
		} else if (strcmp(a, "--port") == 0 && i + 1 < argc) {
			if (cli_parse_u64(argv[++i], &port) || port > 65535)
				return cli_usage_error("gdb", "bad port '%s' (0 to 65535; 0: any free one)", argv[i]);
			use_port = 1;
		} else if (strcmp(a, "--listen") == 0 && i + 1 < argc) {
			listen_addr = argv[++i];
		} else if (strcmp(a, "--elf") == 0 && i + 1 < argc) {
			elf = argv[++i];
		} else if (strcmp(a, "--budget") == 0 && i + 1 < argc) {
			if (cli_parse_size(argv[++i], &budget) || budget < CITCAT_CURSOR_BUDGET_MIN)
				return cli_usage_error("gdb", "bad snapshot budget '%s' (at least 1M)", argv[i]);
		} else if (strcmp(a, "--interval") == 0 && i + 1 < argc) {
			if (cli_parse_count(argv[++i], &interval) || interval == 0)
				return cli_usage_error("gdb", "bad interval '%s'", argv[i]);
		} else if (a[0] == '-' && a[1]) {
			return cli_usage_error("gdb", "unknown or incomplete option '%s'", a);
		} else if (npos < 2) {
			pos[npos++] = a;
		} else {
			return cli_usage_error("gdb", "unexpected argument '%s'", a);
		}
	}
	if (!npos)
		return cli_usage_error("gdb", "give the run: RUN.ims RUN.aes, or RUN.cat");
	if (use_stdio == use_port)
		return cli_usage_error("gdb", "give one of --stdio and --port N");
	if (npos == 1 && strcmp(pos[0], "-") == 0)
		return cli_usage_error("gdb", "the CAT is read twice: give a file, not standard input");
	if (npos == 2 && (strcmp(pos[0], "-") == 0 || strcmp(pos[1], "-") == 0))
		return cli_usage_error("gdb", "the AES is read again moving backwards: give files, not standard input");
	for (int k = 0; k < npos; k++) {
		struct stat st;
		if (stat(pos[k], &st) == 0 && S_ISFIFO(st.st_mode))
			return cli_usage_error("gdb", "%s: the run is read again moving backwards: give a regular file, not a FIFO",
					       pos[k]);
	}
	if (use_stdio && isatty(0))
		fprintf(stderr, "citcat gdb: serving GDB's remote protocol on this terminal; from GDB: target remote | "
				"citcat gdb --stdio ...\n");

	struct citcat_cursor_config cc;
	citcat_cursor_config_default(&cc);
	if (npos == 2) {
		cc.ims_path = pos[0];
		cc.aes_path = pos[1];
	} else {
		cc.cat_path = pos[0];
	}
	if (budget)
		cc.budget = budget;
	if (interval)
		cc.interval = interval;
	struct cli_progress pr;
	cli_progress_init(&pr, "extracting");
	cc.progress = extract_progress;
	cc.progress_ctx = &pr;
	char recorded[1024] = "";
	if (npos == 1) {
		/* without --elf, the firmware the CAT records, build id checked;
		 * with it, the server checks its code against the run */
		if (!elf && cli_recorded_elf(pos[0], recorded, sizeof recorded) == 0 && recorded[0])
			elf = recorded;
	}
	struct citcat_cursor *cur;
	int rc = citcat_cursor_open(&cur, &cc);
	cli_progress_done(&pr);
	struct conn conn = {0, 1};
	if (rc) {
		const struct citcat_errinfo *e = citcat_cursor_error(cur);
		char why[600];
		if (rc == CITCAT_ERR_DIVERGED)
			snprintf(why, sizeof why, "citcat gdb: %s does not replay: %s", pos[0],
				 e && e->msg[0] ? e->msg : citcat_errstr(rc));
		else
			gdb_reason(why, sizeof why, e, rc);
		fprintf(stderr, "%s\n", why);
		citcat_cursor_close(cur);
		if (use_stdio && !isatty(0)) {
			/* GDB at the other end: tell it too, in its first reply (GDB may
			 * drop this process's standard error when it finds it gone
			 * before reading it) */
			signal(SIGPIPE, SIG_IGN);
			struct citcat_gdbserver_io io = {&conn, conn_read, conn_write, NULL};
			citcat_gdbserver_refuse(&io, why);
		}
		return rc == CITCAT_ERR_DIVERGED ? EXIT_CHECK : EXIT_USAGE;
	}
	int sock = -1;
	if (use_port) {
		int r = accept_one(listen_addr, port, &sock);
		if (r >= 0) {
			citcat_cursor_close(cur);
			return r;
		}
		conn.in = conn.out = sock;
	}
	signal(SIGPIPE, SIG_IGN); /* a client gone: write fails with EPIPE */
	struct citcat_gdbserver_io io = {&conn, conn_read, conn_write, conn_log};
	struct citcat_gdbserver_config gc;
	citcat_gdbserver_config_default(&gc);
	gc.elf = elf;
	gc.stop = stop_asked;
	struct citcat_errinfo err = {0};
	rc = citcat_gdbserver_serve(cur, &gc, &io, &err);
	if (sock >= 0)
		close(sock);
	citcat_cursor_close(cur);
	if (rc < 0)
		return gdb_error(&err, rc);
	return EXIT_OK;
}
