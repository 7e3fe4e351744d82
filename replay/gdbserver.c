/* GDB's remote serial protocol over a replay cursor (include/citcat/
 * gdbserver.h; the subset, stop reasons and monitor commands: GDB.md).
 *
 * One client, all-stop, one thread.  Everything the client asks is bounded:
 * packets longer than CITCAT_GDBSERVER_PACKET are refused unread, memory
 * reads answer at most what a reply packet holds, numbers beyond 32 bits
 * (addresses) or 64 bits (instants) are malformed.  A malformed or unknown
 * packet gets an error or the empty reply, never a crash or a wait. */
#include "citcat.h"
#include <citcat/symbols.h>

#include <citcat/aes.h>
#include <citcat/cat.h>
#include <citcat/cursor.h>
#include <citcat/gdbserver.h>
#include <citcat/image.h>
#include <citcat/target.h>

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PKT CITCAT_GDBSERVER_PACKET
#define NOSTR "citcat replays a recording: history cannot change"

/* GDB's signal numbers (gdb/signals.def) */
enum { SIG_INT = 2, SIG_ILL = 4, SIG_TRAP = 5, SIG_ABRT = 6, SIG_FPE = 8, SIG_BUS = 10, SIG_SEGV = 11 };

struct point {
	unsigned type; /* 0..4, as in Z */
	uint32_t addr, len;
};

struct srv {
	struct citcat_cursor *cur;
	const struct citcat_gdbserver_io *io;
	struct citcat_gdbserver_config cfg;
	struct citcat_cursor_info info;
	struct citcat_symbols *syms;
	int noack, gone, interrupt, ended, exited, swbreak, hwbreak;
	uint8_t in[4096];
	size_t in_pos, in_len;
	char pkt[PKT + 1];
	size_t plen;
	char *out; /* the reply being built */
	size_t olen;
	char *last; /* the last packet sent (for a retransmission) */
	size_t last_len;
	struct point *pts;
	size_t npts;
	/* the ELF's read-only sections (code, constants), for bytes the
	 * recording does not hold; NULL when none, or when the ELF is not the
	 * run's firmware */
	struct citcat_image *rom;
};

static void logf_(struct srv *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void logf_(struct srv *s, const char *fmt, ...)
{
	if (!s->io->log)
		return;
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	s->io->log(s->io->ctx, line);
}

/* ---- bytes in ---- */

/* The next byte from the client: 0..255, -1 when it has gone, -2 when
 * TIMEOUT_MS passed first. */
static int getb(struct srv *s, int timeout_ms)
{
	if (s->in_pos == s->in_len) {
		if (s->gone)
			return -1;
		long n = s->io->read(s->io->ctx, s->in, sizeof s->in, timeout_ms);
		if (n < 0) {
			s->gone = 1;
			return -1;
		}
		if (n == 0)
			return -2;
		s->in_pos = 0;
		s->in_len = (size_t)n;
	}
	return s->in[s->in_pos++];
}

static int hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* ---- bytes out ---- */

static int put_raw(struct srv *s, const char *p, size_t n)
{
	if (s->gone)
		return -1;
	if (s->io->write(s->io->ctx, p, n)) {
		s->gone = 1;
		return -1;
	}
	return 0;
}

/* Sends DATA (LEN bytes, already escaped where binary) as a packet and,
 * unless in no-ack mode, waits for the client's '+' (a '-' resends, up to
 * three times). */
static void send_packet(struct srv *s, const char *data, size_t len)
{
	char *b = malloc(len + 4);
	if (!b) {
		s->gone = 1;
		return;
	}
	unsigned sum = 0;
	b[0] = '$';
	memcpy(b + 1, data, len);
	for (size_t i = 0; i < len; i++)
		sum += (uint8_t)data[i];
	b[len + 1] = '#';
	static const char hx[] = "0123456789abcdef";
	b[len + 2] = hx[(sum >> 4) & 15];
	b[len + 3] = hx[sum & 15];
	free(s->last);
	s->last = b;
	s->last_len = len + 4;
	for (int tries = 0; tries < 4; tries++) {
		if (put_raw(s, b, len + 4) || s->noack)
			return;
		int c;
		do
			c = getb(s, 5000);
		while (c >= 0 && c != '+' && c != '-' && c != '$');
		if (c == '$') { /* a packet without the ack: take it as one */
			s->in_pos--;
			return;
		}
		if (c != '-')
			return;
	}
}

/* The reply under construction (S->out, at most 2 * PKT + 64 bytes). */
static void reply_reset(struct srv *s) { s->olen = 0; }

static void reply_add(struct srv *s, const char *p, size_t n)
{
	if (s->olen + n > 2 * PKT)
		n = s->olen < 2 * PKT ? 2 * PKT - s->olen : 0;
	memcpy(s->out + s->olen, p, n);
	s->olen += n;
}

static void replyf(struct srv *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void replyf(struct srv *s, const char *fmt, ...)
{
	char buf[600];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n > 0)
		reply_add(s, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

static void reply_hex(struct srv *s, const uint8_t *p, size_t n)
{
	static const char hx[] = "0123456789abcdef";
	for (size_t i = 0; i < n && s->olen + 2 <= 2 * PKT; i++) {
		s->out[s->olen++] = hx[p[i] >> 4];
		s->out[s->olen++] = hx[p[i] & 15];
	}
}

/* A register as GDB reads it: target byte order (little-endian), 8 hex. */
static void reply_reg(struct srv *s, uint32_t v)
{
	uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
	reply_hex(s, b, 4);
}

/* Binary data in a reply (qXfer): '#', '$', '}' and '*' escaped. */
static void reply_bin(struct srv *s, const char *p, size_t n)
{
	for (size_t i = 0; i < n && s->olen + 2 <= 2 * PKT; i++) {
		char c = p[i];
		if (c == '#' || c == '$' || c == '}' || c == '*') {
			s->out[s->olen++] = '}';
			c ^= 0x20;
		}
		s->out[s->olen++] = c;
	}
}

static void reply_send(struct srv *s) { send_packet(s, s->out, s->olen); }

static void send_str(struct srv *s, const char *str) { send_packet(s, str, strlen(str)); }

/* Console output for the client's user (an O packet, hex text), in pieces
 * that fit a packet. */
static void console(struct srv *s, const char *text)
{
	size_t n = strlen(text);
	for (size_t at = 0; at < n && !s->gone;) {
		size_t k = n - at < (PKT - 8) / 2 ? n - at : (PKT - 8) / 2;
		reply_reset(s);
		reply_add(s, "O", 1);
		reply_hex(s, (const uint8_t *)text + at, k);
		reply_send(s);
		at += k;
	}
}

/* ---- parsing ---- */

/* A hex number at *P (advanced), at most MAX: 0, or -1 for none or too big. */
static int parse_hex(const char **p, const char *end, uint64_t max, uint64_t *v)
{
	uint64_t x = 0;
	const char *q = *p;
	int any = 0;
	while (q < end && hexval(*q) >= 0) {
		if (x > (max >> 4))
			return -1;
		x = x << 4 | (uint64_t)hexval(*q++);
		if (x > max)
			return -1;
		any = 1;
	}
	if (!any)
		return -1;
	*p = q;
	*v = x;
	return 0;
}

/* A decimal count (or 0x hex) in monitor arguments. */
static int parse_num(const char **p, uint64_t *v)
{
	const char *q = *p;
	while (*q == ' ')
		q++;
	if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
		q += 2;
		return parse_hex(&q, q + strlen(q), UINT64_MAX, v) ? -1 : (*p = q, 0);
	}
	uint64_t x = 0;
	int any = 0;
	while (*q >= '0' && *q <= '9') {
		if (x > (UINT64_MAX - 9) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*q++ - '0');
		any = 1;
	}
	if (!any)
		return -1;
	*p = q;
	*v = x;
	return 0;
}

/* ---- reading the packets ---- */

/* The next packet into S->pkt (NUL-terminated, S->plen bytes): 1, or 0
 * when the client has gone.  A too long one is answered with an error here
 * and skipped. */
static int read_packet(struct srv *s)
{
	for (;;) {
		int c = getb(s, -1);
		if (c < 0)
			return 0;
		if (c == '-' && s->last && !s->noack) { /* our last reply was garbled */
			put_raw(s, s->last, s->last_len);
			continue;
		}
		if (c != '$')
			continue; /* '+', a stray 0x03 while stopped, noise */
		size_t n = 0;
		int over = 0;
		unsigned sum = 0;
		while ((c = getb(s, 10000)) >= 0 && c != '#') {
			sum += (unsigned)c;
			if (n < PKT)
				s->pkt[n++] = (char)c;
			else
				over = 1;
		}
		if (c < 0) {
			if (c == -2)
				logf_(s, "a packet stopped in the middle for 10 s: dropped");
			if (s->gone)
				return 0;
			continue;
		}
		int h1 = getb(s, 10000), h2 = h1 >= 0 ? getb(s, 10000) : -1;
		if (h1 < 0 || h2 < 0) {
			if (s->gone)
				return 0;
			continue;
		}
		int want = hexval(h1) * 16 + hexval(h2);
		if (!s->noack && (hexval(h1) < 0 || hexval(h2) < 0 || want != (int)(sum & 255))) {
			logf_(s, "a packet with a bad checksum: asked for it again");
			put_raw(s, "-", 1);
			continue;
		}
		if (!s->noack)
			put_raw(s, "+", 1);
		if (over) {
			logf_(s, "a packet longer than %d bytes: refused", PKT);
			send_str(s, "E.packet too long");
			continue;
		}
		s->pkt[n] = 0;
		s->plen = n;
		return 1;
	}
}

/* The cursor's interrupt callback while a motion runs: the client's Ctrl-C
 * (0x03), its going away, or the caller's stop. */
static int poll_interrupt(void *ctx)
{
	struct srv *s = ctx;
	if (s->cfg.stop && s->cfg.stop(s->cfg.stop_ctx)) {
		s->gone = 1;
		return 1;
	}
	for (;;) {
		while (s->in_pos < s->in_len && (s->in[s->in_pos] == '+' || s->in[s->in_pos] == '-'))
			s->in_pos++; /* a late acknowledgement: nothing to do with it now */
		if (s->in_pos < s->in_len) {
			if (s->in[s->in_pos] == 0x03) {
				s->in_pos++;
				s->interrupt = 1;
				return 1;
			}
			/* a packet: it waits for the stop reply, buffered */
			return 0;
		}
		long n = s->io->read(s->io->ctx, s->in, sizeof s->in, 0);
		if (n < 0) {
			s->gone = 1;
			return 1;
		}
		if (n == 0)
			return 0;
		s->in_pos = 0;
		s->in_len = (size_t)n;
	}
}

/* ---- target description ---- */

static const char *const gpr_names[16] = {"r0", "r1", "r2",  "r3",  "r4",  "r5", "r6", "r7",
					  "r8", "r9", "r10", "r11", "r12", "sp", "lr", "pc"};

static size_t target_xml(struct srv *s, char *buf, size_t cap)
{
	size_t n = 0;
#define X(...) n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, __VA_ARGS__)
	X("<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n<target version=\"1.0\">\n");
	X("  <architecture>%s</architecture>\n", s->info.isa == CITCAT_TARGET_CORTEX_M7 ? "armv7e-m" : "arm");
	X("  <feature name=\"org.gnu.gdb.arm.%s\">\n", s->info.isa == CITCAT_TARGET_CORTEX_M7 ? "m-profile" : "core");
	for (int i = 0; i < 16; i++)
		X("    <reg name=\"%s\" bitsize=\"32\" regnum=\"%d\"%s/>\n", gpr_names[i], i,
		  i == 13 ? " type=\"data_ptr\"" : i == 15 ? " type=\"code_ptr\"" : i == 14 ? "" : " type=\"uint32\"");
	if (s->info.isa == CITCAT_TARGET_CORTEX_M7) {
		X("    <reg name=\"xpsr\" bitsize=\"32\" regnum=\"16\"/>\n  </feature>\n");
		X("  <feature name=\"org.gnu.gdb.arm.m-system\">\n");
		X("    <reg name=\"msp\" bitsize=\"32\" regnum=\"17\" type=\"data_ptr\" group=\"system\"/>\n");
		X("    <reg name=\"psp\" bitsize=\"32\" regnum=\"18\" type=\"data_ptr\" group=\"system\"/>\n  </feature>\n");
		X("  <feature name=\"org.citcat.arm.m-masks\">\n");
		X("    <reg name=\"primask\" bitsize=\"32\" regnum=\"19\" group=\"system\"/>\n");
		X("    <reg name=\"basepri\" bitsize=\"32\" regnum=\"20\" group=\"system\"/>\n");
		X("    <reg name=\"faultmask\" bitsize=\"32\" regnum=\"21\" group=\"system\"/>\n");
		X("    <reg name=\"control\" bitsize=\"32\" regnum=\"22\" group=\"system\"/>\n  </feature>\n");
	} else {
		X("    <reg name=\"cpsr\" bitsize=\"32\" regnum=\"16\"/>\n  </feature>\n");
	}
	X("</target>\n");
#undef X
	return n;
}

/* The register file in the remote numbering (target_xml): *N registers. */
static void regs_list(struct srv *s, uint32_t v[23], unsigned *n)
{
	struct citcat_cursor_regs r;
	citcat_cursor_regs(s->cur, &r);
	memcpy(v, r.r, sizeof r.r);
	v[16] = r.cpsr;
	*n = 17;
	if (r.m_profile) {
		v[17] = r.msp;
		v[18] = r.psp;
		v[19] = r.primask;
		v[20] = r.basepri;
		v[21] = r.faultmask;
		v[22] = r.control;
		*n = 23;
	}
}

/* ---- describing places ---- */

static const char *where(struct srv *s, uint32_t pc, char *buf, size_t n)
{
	int k = snprintf(buf, n, "0x%08x", pc);
	if (s->syms && k > 0 && (size_t)k + 2 < n) {
		buf[k] = ' ';
		if (citcat_symbols_describe(s->syms, pc, buf + k + 1, n - (size_t)k - 1) <= 0)
			buf[k] = 0;
	}
	return buf;
}

static uint32_t pc_now(struct srv *s)
{
	struct citcat_cursor_regs r;
	citcat_cursor_regs(s->cur, &r);
	return r.r[15];
}

/* ---- stop replies ---- */

static int fault_signal(const struct srv *s, const struct citcat_cursor_regs *r)
{
	const struct citcat_cursor_info *i = &s->info;
	switch (i->stop_reason) {
	case CITCAT_STOP_LIMIT:
	case CITCAT_STOP_INTERRUPTED:
		return SIG_TRAP;
	case CITCAT_STOP_FAULT:
		break;
	default:
		return 0;
	}
	int m7 = i->isa == CITCAT_TARGET_CORTEX_M7;
	switch (i->fault) {
	case CITCAT_FAULT_READ:
	case CITCAT_FAULT_WRITE:
	case CITCAT_FAULT_FETCH:
	case CITCAT_FAULT_DEV_READ:
	case CITCAT_FAULT_DEV_WRITE:
		return m7 ? SIG_BUS : SIG_SEGV;
	case CITCAT_FAULT_UNDEF:
	case CITCAT_FAULT_THUMB:
		return SIG_ILL;
	case CITCAT_FAULT_SVC:
	case CITCAT_FAULT_BKPT:
		return SIG_TRAP;
	case CITCAT_FAULT_ABORT:
		return SIG_SEGV;
	case CITCAT_FAULT_EXCEPTION: /* the Cortex-M7: an exception that cannot be taken, by number */
		switch (i->fault_addr) {
		case 4:
			return SIG_SEGV; /* MemManage */
		case 5:
			return SIG_BUS; /* BusFault */
		case 6:
			return r->cfsr & (1u << 25) ? SIG_FPE : r->cfsr & (1u << 24) ? SIG_BUS : SIG_ILL; /* UsageFault */
		case 3: /* HardFault: what escalated, from CFSR */
			return r->cfsr & 0xff00u ? SIG_BUS : r->cfsr & 0xffu ? SIG_SEGV : r->cfsr >> 16 ? SIG_ILL : SIG_SEGV;
		default:
			return SIG_TRAP;
		}
	}
	return SIG_SEGV;
}

static void stop_reply(struct srv *s, int sig, const char *extra)
{
	reply_reset(s);
	replyf(s, "T%02xthread:1;%s", sig, extra ? extra : "");
	reply_send(s);
}

/* What the recording's end is, for the console. */
static void end_text(struct srv *s, char *buf, size_t n)
{
	const struct citcat_cursor_info *i = &s->info;
	char w[256];
	switch (i->stop_reason) {
	case CITCAT_STOP_EXIT:
		if (i->have_exit)
			snprintf(buf, n, "citcat: the recording ends here: the firmware exited with status %u (0x%x)\n",
				 i->exit_value, i->exit_value);
		else
			snprintf(buf, n, "citcat: the recording ends here: the firmware exited\n");
		break;
	case CITCAT_STOP_FAULT: {
		struct citcat_cursor_regs r;
		citcat_cursor_regs(s->cur, &r);
		int k = snprintf(buf, n, "citcat: the recording ends here: %s at %s", citcat_fault_kind_name(i->fault),
				 where(s, i->fault == CITCAT_FAULT_EXCEPTION ? r.r[15] : i->fault_pc, w, sizeof w));
		if (i->fault == CITCAT_FAULT_EXCEPTION)
			k += snprintf(buf + k, n - (size_t)k, ", exception %u, CFSR 0x%08x HFSR 0x%08x BFAR 0x%08x MMFAR 0x%08x",
				      i->fault_addr, r.cfsr, r.hfsr, r.bfar, r.mmfar);
		else if (i->fault != CITCAT_FAULT_UNDEF)
			k += snprintf(buf + k, n - (size_t)k, ", address 0x%08x", i->fault_addr);
		snprintf(buf + k, n - (size_t)k, "\n");
		break;
	}
	default:
		snprintf(buf, n, "citcat: the recording ends here: %s\n", citcat_stop_reason_name(i->stop_reason));
	}
}

/* A forward motion that ended at the last instant; MOVED: it got there
 * now (the end's signal), else it was there already (no more history, or
 * the exit). */
static void end_reply(struct srv *s, int moved)
{
	char text[600];
	struct citcat_cursor_regs r;
	citcat_cursor_regs(s->cur, &r);
	int sig = fault_signal(s, &r);
	if (!moved && s->info.stop_reason == CITCAT_STOP_EXIT && s->info.have_exit) {
		reply_reset(s);
		replyf(s, "W%02x", s->info.exit_value & 0xff);
		reply_send(s);
		s->exited = 1;
		return;
	}
	if (moved) {
		end_text(s, text, sizeof text);
		console(s, text);
	}
	if (moved && sig)
		stop_reply(s, sig, NULL);
	else
		stop_reply(s, SIG_TRAP, "replaylog:end;");
}

static void report(struct srv *s, int rc, uint64_t start, const struct citcat_cursor_stop *st)
{
	if (s->gone)
		return;
	if (rc < 0) {
		char text[400];
		snprintf(text, sizeof text, "citcat: the replay failed: %s\n", citcat_cursor_error(s->cur)->msg);
		console(s, text);
		logf_(s, "%.300s", text);
		stop_reply(s, SIG_ABRT, NULL);
		return;
	}
	char buf[64];
	switch (st->reason) {
	case CITCAT_CURSOR_STEP:
	case CITCAT_CURSOR_EVENT:
		stop_reply(s, SIG_TRAP, NULL);
		break;
	case CITCAT_CURSOR_BREAK: {
		int sw = 0, hw = 0;
		for (size_t i = 0; i < s->npts; i++)
			if (s->pts[i].addr == st->addr && s->pts[i].type <= 1)
				*(s->pts[i].type == 0 ? &sw : &hw) = 1;
		stop_reply(s, SIG_TRAP, sw && s->swbreak ? "swbreak:;" : hw && s->hwbreak ? "hwbreak:;" : NULL);
		break;
	}
	case CITCAT_CURSOR_WATCH:
		snprintf(buf, sizeof buf, "%s:%x;",
			 st->watch == CITCAT_CURSOR_WATCH_READ    ? "rwatch"
			 : st->watch == CITCAT_CURSOR_WATCH_WRITE ? "watch"
								  : "awatch",
			 st->addr);
		stop_reply(s, SIG_TRAP, buf);
		break;
	case CITCAT_CURSOR_BEGIN:
		stop_reply(s, SIG_TRAP, "replaylog:begin;");
		break;
	case CITCAT_CURSOR_END:
		end_reply(s, st->insn != start);
		break;
	case CITCAT_CURSOR_INTERRUPTED:
		stop_reply(s, SIG_INT, NULL);
		break;
	case CITCAT_CURSOR_DIVERGED: {
		const struct citcat_divergence *d = citcat_cursor_divergence(s->cur);
		char text[800];
		if (d)
			snprintf(text, sizeof text,
				 "citcat: the history ends here: the replay diverged from the recording at instruction %llu "
				 "(%s): expected %s, found %s\n",
				 (unsigned long long)d->insn_index, d->check, d->expected, d->found);
		else
			snprintf(text, sizeof text, "citcat: the history ends here: %s\n", citcat_cursor_error(s->cur)->msg);
		console(s, text);
		stop_reply(s, SIG_TRAP, "replaylog:end;");
		break;
	}
	default:
		stop_reply(s, SIG_TRAP, NULL);
	}
}

/* Resumes forwards or backwards (BACKWARD), one step (STEP) or until a stop. */
static void motion(struct srv *s, int backward, int step)
{
	if (s->exited) {
		send_str(s, "E.the firmware has exited: no more history (reconnect to debug it again)");
		return;
	}
	struct citcat_cursor_stop st;
	uint64_t start = citcat_cursor_now(s->cur);
	s->interrupt = 0;
	int rc = citcat_cursor_run(s->cur, backward, step ? CITCAT_CURSOR_RUN_STEP : 0, &st);
	if (s->gone)
		return;
	report(s, rc, start, &st);
}

/* ---- packets ---- */

static void refuse(struct srv *s, const char *what)
{
	logf_(s, "refused %s: citcat replays a recording, history cannot change (registers, memory and the PC are "
		 "as the recording made them)",
	      what);
	send_str(s, "E." NOSTR);
}

static void read_memory(struct srv *s, const char *p, const char *end)
{
	uint64_t addr, len;
	if (parse_hex(&p, end, UINT32_MAX, &addr) || p == end || *p++ != ',' || parse_hex(&p, end, UINT64_MAX, &len) ||
	    p != end) {
		send_str(s, "E01");
		return;
	}
	if (len > (PKT - 16) / 2)
		len = (PKT - 16) / 2;
	if (addr + len > (uint64_t)UINT32_MAX + 1)
		len = (uint64_t)UINT32_MAX + 1 - addr;
	uint8_t buf[PKT / 2];
	size_t got = 0;
	int kind = citcat_cursor_read(s->cur, (uint32_t)addr, buf, (size_t)len, &got);
	/* bytes the recording does not hold, in the firmware's read-only
	 * sections: the ELF's (code and constants cannot have changed) */
	while (s->rom && kind == CITCAT_CURSOR_MEM_UNKNOWN && got < len &&
	       citcat_image_read(s->rom, addr + got, buf + got, 1) == 0) {
		size_t more = 0;
		got++;
		if (got < len) {
			kind = citcat_cursor_read(s->cur, (uint32_t)(addr + got), buf + got, (size_t)len - got, &more);
			got += more;
		}
	}
	if (!got && len) {
		/* nothing readable at the start: an error number (GDB 13 takes no
		 * text in an m reply), GDB says it cannot access the memory */
		send_str(s, kind == CITCAT_CURSOR_MEM_DEVICE || kind == CITCAT_CURSOR_MEM_SCS ? "E05"
			    : kind == CITCAT_CURSOR_MEM_UNKNOWN                                 ? "E0e"
												: "E0e");
		return;
	}
	reply_reset(s);
	reply_hex(s, buf, got);
	reply_send(s);
}

static void points(struct srv *s, const char *p, const char *end, int insert)
{
	unsigned type = (unsigned)(p[1] - '0');
	uint64_t addr, kind;
	p += 2;
	if (type > 4 || p == end || *p++ != ',' || parse_hex(&p, end, UINT32_MAX, &addr) || p == end || *p++ != ',' ||
	    parse_hex(&p, end, UINT32_MAX, &kind) || (p != end && *p != ';')) {
		send_str(s, "E01");
		return;
	}
	if (p != end) { /* conditions and commands: not advertised */
		send_str(s, "");
		return;
	}
	int rc;
	if (type <= 1) {
		rc = citcat_cursor_break(s->cur, (uint32_t)addr, insert);
	} else {
		unsigned w = type == 2 ? CITCAT_CURSOR_WATCH_WRITE : type == 3 ? CITCAT_CURSOR_WATCH_READ : CITCAT_CURSOR_WATCH_ACCESS;
		rc = kind ? citcat_cursor_watch(s->cur, (uint32_t)addr, (uint32_t)kind, w, insert) : CITCAT_ERR_INVAL;
	}
	if (rc == CITCAT_ERR_EOF && !insert) { /* GDB may remove what it never set */
		send_str(s, "OK");
		return;
	}
	if (rc) {
		send_str(s, rc == CITCAT_ERR_LIMIT ? "E.too many breakpoints or watchpoints" : "E01");
		return;
	}
	if (insert) {
		struct point *q = realloc(s->pts, (s->npts + 1) * sizeof *q);
		if (q) {
			s->pts = q;
			s->pts[s->npts++] = (struct point){type, (uint32_t)(addr & (type <= 1 ? ~1ull : ~0ull)), (uint32_t)kind};
		}
	} else {
		for (size_t i = 0; i < s->npts; i++)
			if (s->pts[i].type == type && s->pts[i].addr == (uint32_t)(addr & (type <= 1 ? ~1ull : ~0ull))) {
				s->pts[i] = s->pts[--s->npts];
				break;
			}
	}
	send_str(s, "OK");
}

/* qXfer:OBJECT:read:ANNEX:OFFSET,LENGTH over the LEN bytes at DATA. */
static void xfer(struct srv *s, const char *data, size_t len, const char *p, const char *end)
{
	uint64_t off, n;
	if (parse_hex(&p, end, UINT32_MAX, &off) || p == end || *p++ != ',' || parse_hex(&p, end, UINT32_MAX, &n) ||
	    p != end) {
		send_str(s, "E01");
		return;
	}
	if (n > PKT / 2 - 8)
		n = PKT / 2 - 8;
	reply_reset(s);
	if (off >= len) {
		reply_add(s, "l", 1);
	} else {
		size_t k = len - off < n ? len - (size_t)off : (size_t)n;
		reply_add(s, off + k < len ? "m" : "l", 1);
		reply_bin(s, data + off, k);
	}
	reply_send(s);
}

/* ---- monitor commands ---- */

static void mon_event_line(struct srv *s, const struct citcat_cursor_event *e, char *buf, size_t n)
{
	char w[256];
	int k = snprintf(buf, n, "  #%-8llu insn %-10llu %-7s", (unsigned long long)e->index, (unsigned long long)e->insn,
			 citcat_aes_kind_name(e->kind));
	switch (e->kind) {
	case CITCAT_AES_IRQ:
		snprintf(buf + k, n - (size_t)k, " %s %u, interrupted at %s\n",
			 s->info.isa == CITCAT_TARGET_CORTEX_M7 ? "exception" : "line", e->line, where(s, e->pc, w, sizeof w));
		break;
	case CITCAT_AES_DMA:
		snprintf(buf + k, n - (size_t)k, " %u bytes to 0x%08x, before %s\n", e->len, e->addr,
			 where(s, e->pc, w, sizeof w));
		break;
	default:
		snprintf(buf + k, n - (size_t)k, " 0x%08x, %u bytes, value 0x%llx\n", e->addr, e->len,
			 (unsigned long long)e->value);
	}
}

/* Output of a monitor command, gathered and sent as console packets. */
struct mout {
	char *buf;
	size_t len, cap;
};

static void mprintf(struct mout *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void mprintf(struct mout *m, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof line)
		n = sizeof line - 1;
	if (m->len + (size_t)n + 1 > m->cap) {
		size_t cap = m->cap ? m->cap : 4096;
		while (cap < m->len + (size_t)n + 1)
			cap *= 2;
		if (cap > (1u << 22))
			return; /* bounded */
		char *b = realloc(m->buf, cap);
		if (!b)
			return;
		m->buf = b;
		m->cap = cap;
	}
	memcpy(m->buf + m->len, line, (size_t)n + 1);
	m->len += (size_t)n;
}

static void mon_when(struct srv *s, struct mout *m)
{
	struct citcat_cursor_when w;
	citcat_cursor_when(s->cur, &w);
	char pw[256];
	mprintf(m, "instant %llu of %llu (instructions retired), branch count %llu\n", (unsigned long long)w.insn,
		(unsigned long long)s->info.insns, (unsigned long long)w.bcount);
	mprintf(m, "next instruction %s\n", where(s, pc_now(s), pw, sizeof pw));
	mprintf(m, "next event #%llu of %llu\n", (unsigned long long)w.next_event, (unsigned long long)s->info.events);
	if (w.have_cycles)
		mprintf(m, "cycle between %llu and %llu (the CAT's timestamps of the events around this instant)\n",
			(unsigned long long)w.cycle_lo, (unsigned long long)w.cycle_hi);
	else
		mprintf(m, "cycle: not in the IMS and AES (opened from its CAT, citcat gdb gives the cycles of the "
			   "bus events around the instant)\n");
}

static void moved_note(struct mout *m)
{
	mprintf(m, "(GDB still shows the old state: maintenance flush register-cache)\n");
}

static void monitor(struct srv *s, const char *cmd)
{
	struct mout m = {0};
	while (*cmd == ' ')
		cmd++;
	const char *arg = cmd;
	while (*arg && *arg != ' ')
		arg++;
	size_t clen = (size_t)(arg - cmd);
	struct citcat_cursor_stop st;
	int rc = 0;
	char line[600];
	if (clen == 4 && !strncmp(cmd, "when", 4)) {
		mon_when(s, &m);
	} else if (clen == 4 && !strncmp(cmd, "goto", 4)) {
		uint64_t n;
		if (parse_num(&arg, &n) || *arg) {
			mprintf(&m, "usage: monitor goto N (an instant: instructions retired)\n");
		} else if ((rc = citcat_cursor_seek(s->cur, n, &st)) == 0) {
			if (st.reason == CITCAT_CURSOR_END)
				mprintf(&m, "the history ends at instant %llu\n", (unsigned long long)st.insn);
			mon_when(s, &m);
			moved_note(&m);
		}
	} else if (clen == 6 && !strncmp(cmd, "events", 6)) {
		uint64_t from, count = 20;
		struct citcat_cursor_when w;
		citcat_cursor_when(s->cur, &w);
		from = w.next_event;
		const char *a = arg;
		while (*a == ' ')
			a++;
		if (*a && parse_num(&arg, &from))
			mprintf(&m, "usage: monitor events [FROM [COUNT]]\n");
		else if (*arg && (parse_num(&arg, &count) || *arg))
			mprintf(&m, "usage: monitor events [FROM [COUNT]]\n");
		else {
			if (count > 1000)
				count = 1000;
			struct citcat_cursor_event *ev = calloc(count ? count : 1, sizeof *ev);
			size_t got = 0;
			if (!ev)
				rc = CITCAT_ERR_NOMEM;
			else if (!(rc = citcat_cursor_events(s->cur, from, ev, (size_t)count, &got))) {
				mprintf(&m, "events #%llu.. of %llu (the instant: an interrupt's or DMA transfer's is right after it, "
					    "a device access's is the instruction making it); now at instant %llu\n",
					(unsigned long long)from, (unsigned long long)s->info.events,
					(unsigned long long)citcat_cursor_now(s->cur));
				for (size_t i = 0; i < got; i++) {
					mon_event_line(s, &ev[i], line, sizeof line);
					mprintf(&m, "%s", line);
				}
				if (!got)
					mprintf(&m, "  (none)\n");
			}
			free(ev);
		}
	} else if (clen == 5 && !strncmp(cmd, "event", 5)) {
		uint64_t k;
		struct citcat_cursor_event e;
		size_t got = 0;
		if (parse_num(&arg, &k) || *arg)
			mprintf(&m, "usage: monitor event K\n");
		else if (!(rc = citcat_cursor_events(s->cur, k, &e, 1, &got)) && (!got || e.index != k))
			mprintf(&m, "no event #%llu (the run has %llu)\n", (unsigned long long)k,
				(unsigned long long)s->info.events);
		else if (!rc && !(rc = citcat_cursor_seek(s->cur, e.insn, &st))) {
			mon_event_line(s, &e, line, sizeof line);
			mprintf(&m, "%s", line);
			mon_when(s, &m);
			moved_note(&m);
		}
	} else if (clen == 11 && !strncmp(cmd, "checkpoints", 11)) {
		struct citcat_cursor_usage u;
		citcat_cursor_usage(s->cur, &u);
		mprintf(&m, "snapshot budget %llu bytes, %llu used (peak %llu)\n", (unsigned long long)u.budget,
			(unsigned long long)u.used, (unsigned long long)u.peak);
		mprintf(&m, "%llu snapshots kept, instants %llu..%llu (one every %llu instructions moving forwards; %llu "
			    "taken, %llu thinned out)\n",
			(unsigned long long)u.snapshots, (unsigned long long)u.first, (unsigned long long)u.last,
			(unsigned long long)u.interval, (unsigned long long)u.taken, (unsigned long long)u.dropped);
		mprintf(&m, "%llu restores, %llu instructions executed again\n", (unsigned long long)u.restores,
			(unsigned long long)u.replayed);
	} else if (clen == 0 || (clen == 4 && !strncmp(cmd, "help", 4))) {
		mprintf(&m, "citcat monitor commands:\n"
			    "  when                    the instant (instructions retired), branch count, next event\n"
			    "  goto N                  go to instant N\n"
			    "  events [FROM [COUNT]]   the interrupts, DMA transfers and device accesses, with instants\n"
			    "  event K                 go to event K's instant\n"
			    "  checkpoints             the snapshot budget and its use\n");
	} else {
		mprintf(&m, "unknown monitor command '%.*s' (monitor help)\n", (int)(clen < 40 ? clen : 40), cmd);
	}
	if (rc < 0)
		mprintf(&m, "failed: %s\n", citcat_cursor_error(s->cur)->msg);
	if (m.buf)
		console(s, m.buf);
	free(m.buf);
	send_str(s, "OK");
}

/* vCont;ACTION[:TID];...: the action for thread 1 (or all). */
static void vcont(struct srv *s, const char *p, const char *end)
{
	int act = 0;
	while (p < end && *p == ';') {
		p++;
		char a = p < end ? *p++ : 0;
		if (a == 'C' || a == 'S') { /* a signal to deliver: cannot be, it is ignored */
			uint64_t sig;
			if (parse_hex(&p, end, 255, &sig)) {
				send_str(s, "E01");
				return;
			}
			a = (char)(a + ('a' - 'A'));
		}
		int mine = 1;
		if (p < end && *p == ':') {
			p++;
			uint64_t tid;
			if (p < end && *p == '-') {
				p++;
				if (p < end && *p == '1')
					p++;
			} else if (!parse_hex(&p, end, UINT32_MAX, &tid)) {
				mine = tid == 1 || tid == 0;
			} else {
				send_str(s, "E01");
				return;
			}
		}
		if (mine && !act)
			act = a;
	}
	if (p != end || (act != 'c' && act != 's')) {
		send_str(s, act == 't' ? "OK" : "E01");
		return;
	}
	motion(s, 0, act == 's');
}

/* The check of --elf against the run: its code where the run knows the
 * bytes (a warning, as info's for a CAT that records another build). */
static void check_elf(struct srv *s)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		return;
	int fd = open(s->cfg.elf, O_RDONLY);
	if (fd < 0)
		return;
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	Elf_Scn *scn = NULL;
	uint64_t compared = 0, differ = 0;
	uint32_t first = 0;
	if (citcat_image_alloc(&s->rom))
		s->rom = NULL;
	while (e && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS || (sh.sh_flags & SHF_WRITE) ||
		    !(sh.sh_flags & SHF_ALLOC))
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || d->d_size > (64u << 20))
			continue;
		if (s->rom && citcat_image_add(s->rom, sh.sh_addr, d->d_buf, d->d_size)) {
			citcat_image_free(s->rom);
			s->rom = NULL;
		}
		if (!(sh.sh_flags & SHF_EXECINSTR))
			continue; /* the check compares code */
		for (size_t at = 0; at < d->d_size && at < (64u << 20); at += 256) {
			uint8_t buf[256];
			size_t n = d->d_size - at < 256 ? d->d_size - at : 256, got = 0;
			uint32_t a = (uint32_t)(sh.sh_addr + at);
			/* the known bytes at the start of each piece */
			citcat_cursor_read(s->cur, a, buf, n, &got);
			for (size_t i = 0; i < got; i++, compared++)
				if (buf[i] != ((const uint8_t *)d->d_buf)[at + i] && !differ++)
					first = a + (uint32_t)i;
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	if (differ || !compared) {
		citcat_image_free(s->rom);
		s->rom = NULL;
	}
	if (differ)
		logf_(s,
		      "warning: %s is not the firmware of this run: %llu of the %llu code bytes the recording holds "
		      "differ (the first at 0x%08x); another build? GDB's symbols and source lines would lie",
		      s->cfg.elf, (unsigned long long)differ, (unsigned long long)compared, first);
}

/* One packet.  Returns 0 to go on, 1 to end the session (detach, kill). */
static int handle(struct srv *s)
{
	const char *p = s->pkt, *end = s->pkt + s->plen;
	if (!s->plen) {
		send_str(s, "");
		return 0;
	}
	switch (p[0]) {
	case '?':
		stop_reply(s, SIG_TRAP, NULL);
		return 0;
	case 'g': {
		uint32_t v[23];
		unsigned n;
		regs_list(s, v, &n);
		reply_reset(s);
		for (unsigned i = 0; i < n; i++)
			reply_reg(s, v[i]);
		reply_send(s);
		return 0;
	}
	case 'p': {
		uint64_t r;
		p++;
		uint32_t v[23];
		unsigned n;
		if (parse_hex(&p, end, 1000, &r) || p != end) {
			send_str(s, "E01");
			return 0;
		}
		regs_list(s, v, &n);
		if (r >= n) {
			send_str(s, "E.no such register");
			return 0;
		}
		reply_reset(s);
		reply_reg(s, v[r]);
		reply_send(s);
		return 0;
	}
	case 'G':
		refuse(s, "a write of the registers");
		return 0;
	case 'P': {
		uint64_t r;
		const char *q = p + 1;
		char what[64] = "a register write";
		uint32_t v[23];
		unsigned n;
		regs_list(s, v, &n);
		if (!parse_hex(&q, end, 1000, &r) && r < n)
			snprintf(what, sizeof what, "a write of register %s",
				 r < 16 ? gpr_names[r] : r == 16 ? (n > 17 ? "xpsr" : "cpsr") : "a system register");
		refuse(s, what);
		return 0;
	}
	case 'X': /* binary writes: "not supported" (GDB then sends M, refused with the reason) */
		send_str(s, "");
		return 0;
	case 'M': {
		uint64_t a, l;
		const char *q = p + 1;
		char what[64] = "a memory write";
		if (!parse_hex(&q, end, UINT32_MAX, &a) && q < end && *q++ == ',' && !parse_hex(&q, end, UINT32_MAX, &l))
			snprintf(what, sizeof what, "a write of %llu bytes at 0x%08llx", (unsigned long long)l,
				 (unsigned long long)a);
		refuse(s, what);
		return 0;
	}
	case 'm':
		read_memory(s, p + 1, end);
		return 0;
	case 'Z':
	case 'z':
		if (s->plen < 2 || p[1] < '0' || p[1] > '4')
			send_str(s, "");
		else
			points(s, p, end, p[0] == 'Z');
		return 0;
	case 'c':
	case 's':
		if (s->plen > 1) /* resuming elsewhere: a jump */
			refuse(s, "a resume at another address");
		else
			motion(s, 0, p[0] == 's');
		return 0;
	case 'C':
	case 'S': {
		const char *q = p + 1;
		uint64_t sig;
		if (parse_hex(&q, end, 255, &sig) || (q != end && *q != ';'))
			send_str(s, "E01");
		else if (q != end)
			refuse(s, "a resume at another address");
		else
			motion(s, 0, p[0] == 'S');
		return 0;
	}
	case 'b':
		if (s->plen == 2 && (p[1] == 'c' || p[1] == 's'))
			motion(s, 1, p[1] == 's');
		else
			send_str(s, "");
		return 0;
	case 'H':
	case 'T':
		send_str(s, "OK");
		return 0;
	case 'D':
		send_str(s, "OK");
		return 1;
	case 'k':
		return 1;
	case 'q':
		if (!strncmp(p, "qSupported", 10)) {
			s->swbreak = strstr(p, "swbreak+") != NULL;
			s->hwbreak = strstr(p, "hwbreak+") != NULL;
			reply_reset(s);
			replyf(s, "PacketSize=%x;qXfer:features:read+;%sswbreak+;hwbreak+;ReverseStep+;ReverseContinue+;"
				  "QStartNoAckMode+;vContSupported+",
			       PKT, s->cfg.elf ? "qXfer:exec-file:read+;" : "");
			reply_send(s);
		} else if (!strncmp(p, "qXfer:features:read:target.xml:", 31)) {
			static char xml[4096];
			size_t n = target_xml(s, xml, sizeof xml);
			xfer(s, xml, n, p + 31, end);
		} else if (!strncmp(p, "qXfer:features:read:", 20)) {
			send_str(s, "E00");
		} else if (!strncmp(p, "qXfer:exec-file:read:", 21) && s->cfg.elf) {
			const char *q = memchr(p + 21, ':', (size_t)(end - p - 21));
			if (!q)
				send_str(s, "E01");
			else
				xfer(s, s->cfg.elf, strlen(s->cfg.elf), q + 1, end);
		} else if (!strcmp(p, "qC")) {
			send_str(s, "QC1");
		} else if (!strcmp(p, "qfThreadInfo")) {
			send_str(s, "m1");
		} else if (!strcmp(p, "qsThreadInfo")) {
			send_str(s, "l");
		} else if (!strncmp(p, "qAttached", 9)) {
			send_str(s, "1");
		} else if (!strncmp(p, "qSymbol", 7)) {
			send_str(s, "OK");
		} else if (!strncmp(p, "qRcmd,", 6)) {
			char cmd[512];
			size_t n = 0;
			const char *q = p + 6;
			while (q + 1 < end && n + 1 < sizeof cmd && hexval(q[0]) >= 0 && hexval(q[1]) >= 0) {
				cmd[n++] = (char)(hexval(q[0]) * 16 + hexval(q[1]));
				q += 2;
			}
			cmd[n] = 0;
			if (q != end || memchr(cmd, 0, n))
				send_str(s, "E01");
			else
				monitor(s, cmd);
		} else {
			send_str(s, "");
		}
		return 0;
	case 'Q':
		if (!strcmp(p, "QStartNoAckMode")) {
			send_str(s, "OK");
			s->noack = 1;
		} else {
			send_str(s, "");
		}
		return 0;
	case 'v':
		if (!strcmp(p, "vCont?")) {
			send_str(s, "vCont;c;C;s;S");
		} else if (!strncmp(p, "vCont;", 6) || !strcmp(p, "vCont")) {
			vcont(s, p + 5, end);
		} else if (!strncmp(p, "vKill", 5)) {
			send_str(s, "OK");
			return 1;
		} else if (!strncmp(p, "vRun", 4) || !strncmp(p, "vAttach", 7)) {
			send_str(s, "E.citcat gdb serves one recorded run: nothing else to run or attach to");
		} else {
			send_str(s, ""); /* vMustReplyEmpty, vFile, ... */
		}
		return 0;
	default:
		send_str(s, "");
		return 0;
	}
}

void citcat_gdbserver_config_default(struct citcat_gdbserver_config *c)
{
	if (!c)
		return;
	memset(c, 0, sizeof *c);
	c->size = sizeof *c;
}

int citcat_gdbserver_serve(struct citcat_cursor *cur, const struct citcat_gdbserver_config *ucfg,
			   const struct citcat_gdbserver_io *io, struct citcat_errinfo *err)
{
	struct citcat_errinfo dummy;
	err = cc_errinfo_start(err, &dummy);
	if (!cur || !io || !io->read || !io->write)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "bad arguments");
	struct srv *s = calloc(1, sizeof *s);
	if (!s)
		return citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	if (cc_config_from_user(&s->cfg, sizeof s->cfg, ucfg,
				offsetof(struct citcat_gdbserver_config, elf) + sizeof s->cfg.elf) ||
	    citcat_cursor_info(cur, &s->info)) {
		free(s);
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "bad server configuration");
	}
	s->cur = cur;
	s->io = io;
	s->out = malloc(2 * PKT + 64);
	if (!s->out) {
		free(s);
		return citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	}
	if (s->cfg.elf) {
		struct citcat_errinfo e;
		if (citcat_symbols_open(&s->syms, s->cfg.elf, &e))
			logf_(s, "warning: %s: %s: no function names in monitor output", s->cfg.elf, e.msg);
		check_elf(s);
	}
	citcat_cursor_set_interrupt(cur, poll_interrupt, s);
	int rc = 1;
	while (read_packet(s)) {
		if (handle(s)) {
			rc = 0;
			break;
		}
		if (s->gone)
			break;
	}
	if (rc)
		logf_(s, "the client has gone");
	citcat_cursor_set_interrupt(cur, NULL, NULL);
	citcat_symbols_close(s->syms);
	citcat_image_free(s->rom);
	free(s->out);
	free(s->last);
	free(s->pts);
	free(s);
	return rc;
}

int citcat_gdbserver_refuse(const struct citcat_gdbserver_io *io, const char *reason)
{
	if (!io || !io->read || !io->write || !reason)
		return CITCAT_ERR_INVAL;
	struct srv *s = calloc(1, sizeof *s);
	if (!s)
		return CITCAT_ERR_NOMEM;
	s->io = io;
	if (read_packet(s)) { /* GDB's qSupported, or whatever it asks first */
		char msg[512];
		int n = snprintf(msg, sizeof msg, "E.%s", reason);
		if (n < 0)
			n = 0;
		if ((size_t)n >= sizeof msg)
			n = sizeof msg - 1;
		for (int i = 2; i < n; i++) /* the characters a packet's text cannot hold as they are */
			if (msg[i] == '$' || msg[i] == '#' || msg[i] == '}' || msg[i] == '*' || (uint8_t)msg[i] < 0x20)
				msg[i] = '?';
		send_packet(s, msg, (size_t)n);
	}
	free(s->last);
	free(s);
	return 0;
}
