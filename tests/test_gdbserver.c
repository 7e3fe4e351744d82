/* The GDB remote protocol layer of citcat gdb (replay/gdbserver.c,
 * replay/GDB.md), byte for byte, on a real run (crc32: long enough to be
 * interrupted): the server runs on a thread over a socketpair and this
 * program is its client.
 *
 * Checked: framing (acks, checksums, a bad checksum asked again), the
 * features, the target description read in pieces, packets that are too
 * long, malformed or unknown (an error or the empty reply, never a crash
 * or a wait), memory reads (the device window, memory the recording does
 * not hold, a length capped to a packet), writes refused with the reason,
 * breakpoints kept by the stub, reverse motion to the start, no-ack mode,
 * Ctrl-C (0x03) during a long continue, a client that goes away in the
 * middle of a run (the server returns, no hang), detach.
 *
 * Usage: test_gdbserver RUN.cat */
#include <citcat/citcat.h>

#include "check.h"

#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct conn {
	int fd;
};

static long srv_read(void *ctx, void *buf, size_t n, int timeout_ms)
{
	struct conn *c = ctx;
	struct pollfd p = {c->fd, POLLIN, 0};
	int r = poll(&p, 1, timeout_ms);
	if (r < 0)
		return -1;
	if (r == 0)
		return 0;
	ssize_t k = read(c->fd, buf, n);
	return k > 0 ? (long)k : -1;
}

static int srv_write(void *ctx, const void *buf, size_t n)
{
	struct conn *c = ctx;
	const char *p = buf;
	while (n) {
		ssize_t k = send(c->fd, p, n, MSG_NOSIGNAL);
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

static char last_log[512];
static void srv_log(void *ctx, const char *line)
{
	(void)ctx;
	snprintf(last_log, sizeof last_log, "%s", line);
}

struct server {
	struct citcat_cursor *cur;
	struct conn conn;
	struct citcat_gdbserver_io io;
	int rc;
	volatile int done;
	pthread_t th;
};

static void *serve(void *arg)
{
	struct server *s = arg;
	struct citcat_gdbserver_config cfg;
	citcat_gdbserver_config_default(&cfg);
	s->rc = citcat_gdbserver_serve(s->cur, &cfg, &s->io, NULL);
	close(s->conn.fd);
	s->done = 1;
	return NULL;
}

static int cfd; /* the client's end */
static int noack;

static int start(struct server *s, struct citcat_cursor *cur)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return -1;
	memset(s, 0, sizeof *s);
	s->cur = cur;
	s->conn.fd = sv[0];
	s->io = (struct citcat_gdbserver_io){&s->conn, srv_read, srv_write, srv_log};
	cfd = sv[1];
	noack = 0;
	return pthread_create(&s->th, NULL, serve, s);
}

/* waits up to SECONDS for the server to return */
static int finished(struct server *s, int seconds)
{
	for (int i = 0; i < seconds * 100 && !s->done; i++)
		usleep(10000);
	if (s->done)
		pthread_join(s->th, NULL);
	return s->done;
}

static void send_raw(const char *p, size_t n) { CHECK_EQ(send(cfd, p, n, MSG_NOSIGNAL), (long)n); }

static void send_pkt(const char *payload)
{
	size_t n = strlen(payload);
	char *b = malloc(n + 5);
	unsigned sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += (uint8_t)payload[i];
	snprintf(b, n + 5, "$%s#%02x", payload, sum & 255);
	send_raw(b, n + 4);
	free(b);
}

/* one byte from the server, -1 after 20 s or at its end */
static int getc_srv(void)
{
	struct pollfd p = {cfd, POLLIN, 0};
	if (poll(&p, 1, 20000) <= 0)
		return -1;
	unsigned char c;
	return read(cfd, &c, 1) == 1 ? c : -1;
}

static void expect_ack(void)
{
	if (noack)
		return;
	int c = getc_srv();
	if (c != '+') {
		fprintf(stderr, "expected '+', got %d\n", c);
		check_failures++;
	}
}

/* the next packet's payload into BUF (unescaped as sent), its checksum
 * checked; acked unless in no-ack mode.  Returns its length or -1. */
static long recv_pkt(char *buf, size_t cap)
{
	int c;
	while ((c = getc_srv()) >= 0 && c != '$')
		;
	if (c < 0)
		return -1;
	size_t n = 0;
	unsigned sum = 0;
	while ((c = getc_srv()) >= 0 && c != '#') {
		sum += (unsigned)c;
		if (n + 1 < cap)
			buf[n++] = (char)c;
	}
	buf[n] = 0;
	char h[3] = {(char)getc_srv(), (char)getc_srv(), 0};
	if (strtoul(h, NULL, 16) != (sum & 255)) {
		fprintf(stderr, "bad checksum from the server: %s for '%s'\n", h, buf);
		check_failures++;
	}
	if (!noack)
		send_raw("+", 1);
	return (long)n;
}

static char reply[40000];

static const char *ask(const char *payload)
{
	send_pkt(payload);
	expect_ack();
	if (recv_pkt(reply, sizeof reply) < 0)
		snprintf(reply, sizeof reply, "<none>");
	return reply;
}

#define ASK_EQ(payload, want)                                                                          \
	do {                                                                                           \
		const char *r_ = ask(payload);                                                         \
		if (strcmp(r_, want)) {                                                                \
			fprintf(stderr, "%s:%d: '%s' answered '%.200s', want '%s'\n", __FILE__, __LINE__, \
				payload, r_, want);                                                    \
			check_failures++;                                                      \
		}                                                                                      \
	} while (0)
#define ASK_PREFIX(payload, want)                                                                      \
	do {                                                                                           \
		const char *r_ = ask(payload);                                                         \
		if (strncmp(r_, want, strlen(want))) {                                                 \
			fprintf(stderr, "%s:%d: '%s' answered '%.200s', want '%s...'\n", __FILE__, __LINE__, \
				payload, r_, want);                                                    \
			check_failures++;                                                      \
		}                                                                                      \
	} while (0)

static uint32_t reg_of(const char *g, int i)
{
	uint32_t v = 0;
	for (int b = 3; b >= 0; b--) {
		char h[3] = {g[8 * i + 2 * b], g[8 * i + 2 * b + 1], 0};
		v = v << 8 | (uint32_t)strtoul(h, NULL, 16);
	}
	return v;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_gdbserver RUN.cat\n");
		return 2;
	}
	struct citcat_cursor_config cc;
	citcat_cursor_config_default(&cc);
	cc.cat_path = argv[1];
	struct citcat_cursor *cur;
	if (citcat_cursor_open(&cur, &cc)) {
		fprintf(stderr, "%s\n", citcat_cursor_error(cur)->msg);
		return 2;
	}
	struct citcat_cursor_info info;
	citcat_cursor_info(cur, &info);
	struct server s;

	/* ---- session 1 ---- */
	CHECK_EQ(start(&s, cur), 0);
	const char *r = ask("qSupported:multiprocess+;swbreak+;hwbreak+;qRelocInsn+");
	CHECK(strstr(r, "PacketSize=4000") && strstr(r, "ReverseContinue+") && strstr(r, "ReverseStep+") &&
	      strstr(r, "qXfer:features:read+") && strstr(r, "swbreak+"));
	ASK_EQ("vMustReplyEmpty", "");
	ASK_EQ("?", "T05thread:1;");
	ASK_EQ("qC", "QC1");
	ASK_EQ("qfThreadInfo", "m1");
	ASK_EQ("qsThreadInfo", "l");
	ASK_EQ("qAttached", "1");
	ASK_EQ("Hg0", "OK");
	/* a bad checksum: asked for again, then the good one answered */
	send_raw("$g#00", 5);
	CHECK_EQ(getc_srv(), '-');
	char g[400];
	snprintf(g, sizeof g, "%s", ask("g"));
	CHECK_EQ(strlen(g), 17 * 8); /* r0-r15, cpsr */
	uint32_t pc = reg_of(g, 15);
	/* the target description, in pieces */
	char xml[8192] = "";
	for (int off = 0, guard = 0; guard < 200; guard++) {
		char q[80];
		snprintf(q, sizeof q, "qXfer:features:read:target.xml:%x,40", off);
		r = ask(q);
		if (r[0] != 'm' && r[0] != 'l') {
			CHECK(0);
			break;
		}
		strncat(xml, r + 1, sizeof xml - strlen(xml) - 1);
		off += (int)strlen(r + 1);
		if (r[0] == 'l')
			break;
		CHECK_EQ(strlen(r + 1), 0x40);
	}
	CHECK(strstr(xml, "<feature name=\"org.gnu.gdb.arm.core\">") && strstr(xml, "name=\"cpsr\"") &&
	      strstr(xml, "</target>\n"));
	ASK_EQ("qXfer:features:read:other.xml:0,100", "E00");
	/* too long: refused unread */
	static char big[20002];
	memset(big, 'm', 20000);
	big[20000] = 0;
	send_pkt(big);
	expect_ack();
	recv_pkt(reply, sizeof reply);
	CHECK(!strcmp(reply, "E.packet too long"));
	/* malformed and unknown */
	ASK_EQ("mzz,4", "E01");
	ASK_EQ("m100000000,4", "E01");
	ASK_EQ("m0,", "E01");
	ASK_EQ("p1001", "E01");
	ASK_EQ("p30", "E.no such register");
	ASK_EQ("Z9,0,4", "");
	ASK_EQ("Z0,zz,4", "E01");
	ASK_EQ("Z2,1000,0", "E01");
	ASK_EQ("vCont;x", "E01");
	ASK_EQ("qRcmd,6", "E01");
	ASK_EQ("qUnknownThing", "");
	ASK_EQ("", "");
	ASK_EQ("bx", "");
	ASK_PREFIX("vRun;", "E.");
	/* memory */
	ASK_EQ("m40000000,4", "E05");
	char q[64];
	snprintf(q, sizeof q, "m%x,4", pc);
	r = ask(q);
	CHECK_EQ(strlen(r), 8);
	snprintf(q, sizeof q, "m%x,ffffffff", info.ram_base);
	r = ask(q);
	CHECK(strlen(r) <= 16384 && (strlen(r) % 2) == 0);
	snprintf(q, sizeof q, "m%x,4", info.ram_base + info.ram_size / 2);
	ASK_EQ(q, "E0e"); /* the middle of RAM, which this run's recording does not hold */
	ASK_EQ("m30000000,4", "E0e");
	/* writes refused, with the reason */
	ASK_PREFIX("P0=01000000", "E.citcat replays a recording: history cannot change");
	CHECK(strstr(last_log, "register r0") != NULL);
	ASK_PREFIX("G00000000", "E.");
	ASK_PREFIX("M1000,4:01020304", "E.");
	CHECK(strstr(last_log, "4 bytes at 0x00001000") != NULL);
	ASK_EQ("X1000,0:", "");
	ASK_PREFIX("c1000", "E."); /* a resume elsewhere: a jump */
	/* monitor */
	r = ask("qRcmd,7768656e"); /* when: console output, then OK */
	CHECK(r[0] == 'O');
	while (reply[0] == 'O' && strcmp(reply, "OK"))
		recv_pkt(reply, sizeof reply);
	CHECK(!strcmp(reply, "OK"));
	/* a step, a breakpoint kept by the stub */
	ASK_EQ("s", "T05thread:1;");
	ASK_EQ("vCont?", "vCont;c;C;s;S");
	ASK_EQ("vCont;s:1;c", "T05thread:1;");
	snprintf(q, sizeof q, "Z0,%x,4", pc);
	ASK_EQ(q, "OK");
	ASK_EQ("bc", "T05thread:1;swbreak:;"); /* instant 0, where the PC is that */
	CHECK_EQ(citcat_cursor_now(cur), 0);
	ASK_EQ("bs", "T05thread:1;replaylog:begin;");
	snprintf(q, sizeof q, "z0,%x,4", pc);
	ASK_EQ(q, "OK");
	ASK_EQ(q, "OK"); /* removing what is not there */
	/* no-ack mode */
	ASK_EQ("QStartNoAckMode", "OK");
	noack = 1;
	snprintf(g, sizeof g, "%s", ask("g"));
	CHECK_EQ(strlen(g), 17 * 8);
	/* Ctrl-C during a long continue */
	send_pkt("c");
	usleep(2000);
	send_raw("+\x03", 2); /* a stray acknowledgement before it does not hide it */
	recv_pkt(reply, sizeof reply);
	CHECK(!strcmp(reply, "T02thread:1;"));
	uint64_t at = citcat_cursor_now(cur);
	CHECK(at > 0 && at < info.insns);
	fprintf(stderr, "interrupted at instant %llu of %llu\n", (unsigned long long)at, (unsigned long long)info.insns);
	ASK_EQ("?", "T05thread:1;");
	/* going away in the middle of a run: the server returns */
	ASK_EQ("bs", "T05thread:1;");
	send_pkt("c");
	close(cfd);
	CHECK(finished(&s, 30));
	CHECK_EQ(s.rc, 1);
	CHECK(citcat_cursor_now(cur) < info.insns);

	/* ---- session 2: the cursor goes on; detach ---- */
	CHECK_EQ(start(&s, cur), 0);
	ASK_EQ("?", "T05thread:1;");
	ASK_EQ("D", "OK");
	CHECK(finished(&s, 30));
	CHECK_EQ(s.rc, 0);
	close(cfd);

	/* ---- session 3: garbage, then gone while idle ---- */
	CHECK_EQ(start(&s, cur), 0);
	send_raw("+++---\x03\x03garbage#zz$", 20);
	send_raw("#zz", 3); /* a packet with a checksum that is not hex */
	CHECK_EQ(getc_srv(), '-');
	ASK_EQ("?", "T05thread:1;");
	close(cfd);
	CHECK(finished(&s, 30));
	CHECK_EQ(s.rc, 1);

	citcat_cursor_close(cur);
	CHECK_DONE();
}
