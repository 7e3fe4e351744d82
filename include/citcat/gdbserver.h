/* libcitcat public API: a GDB remote serial protocol server over a replay
 * cursor (include/citcat/cursor.h): GDB, or an IDE speaking GDB's remote
 * protocol, debugs the replayed run forwards and backwards.  The protocol
 * subset, the stop reasons and the monitor commands are specified in
 * replay/GDB.md.
 *
 * The server speaks through the caller's byte stream (a socket, a pipe,
 * standard input and output): it never opens, prints or exits. */
#ifndef CITCAT_PUBLIC_GDBSERVER_H
#define CITCAT_PUBLIC_GDBSERVER_H

#include <citcat/base.h>
#include <citcat/cursor.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The largest packet the server takes and sends (its qSupported
 * PacketSize); a longer one from the client is refused, never buffered. */
#define CITCAT_GDBSERVER_PACKET 16384

/* The connection to the client.  READ: up to N bytes into BUF, waiting at
 * most TIMEOUT_MS milliseconds (-1: until something comes); returns the
 * bytes read, 0 when the time ran out, -1 when the client has gone (end of
 * file, an error).  WRITE: all N bytes; 0, or -1 when the client has gone.
 * LOG (may be NULL): a line for the person running the server (a refused
 * request, a warning), without a newline. */
struct citcat_gdbserver_io {
	void *ctx;
	long (*read)(void *ctx, void *buf, size_t n, int timeout_ms);
	int (*write)(void *ctx, const void *buf, size_t n);
	void (*log)(void *ctx, const char *line);
};

/* Options; citcat_gdbserver_config_default fills them.  The size rules of
 * base.h apply: SIZE must cover at least ELF. */
struct citcat_gdbserver_config {
	size_t size; /* sizeof(struct citcat_gdbserver_config) */
	/* The firmware ELF (NULL: none): offered to GDB as the executable
	 * (qXfer:exec-file:read), used to name functions in monitor output, and
	 * checked against the run's memory (a warning through LOG when its
	 * bytes differ from the IMS's: another build). */
	const char *elf;
	/* Polled with the client's input while a motion runs (NULL: none):
	 * non-zero ends the session as if the client had gone (a signal to
	 * the server's process). */
	int (*stop)(void *ctx);
	void *stop_ctx;
};

CITCAT_API void citcat_gdbserver_config_default(struct citcat_gdbserver_config *c);

/* Serves one client on CUR until it detaches (D), kills (k, vKill) or goes
 * away.  Returns 0 after a detach or kill, 1 when the client went away (or
 * CFG->stop asked), or an error: CITCAT_ERR_INVAL (a NULL argument, a bad
 * CFG->size), an error of the cursor that left it unusable (ERR, may be
 * NULL, says which).  Malformed packets, unknown requests and writes are
 * answered and logged, never fatal.  The cursor's interrupt callback is
 * the server's while it runs (the client's Ctrl-C, a 0x03 byte). */
CITCAT_API int citcat_gdbserver_serve(struct citcat_cursor *cur, const struct citcat_gdbserver_config *cfg,
				      const struct citcat_gdbserver_io *io, struct citcat_errinfo *err);

/* Answers a client whose session cannot start (the run did not open):
 * reads its first request and replies with an error packet that carries
 * REASON (`E.` and the text, which GDB shows), so the client is told why
 * before the connection closes, whatever the order in which it reads the
 * server's output and learns that the server has gone.  Returns 0,
 * CITCAT_ERR_INVAL (a NULL argument) or CITCAT_ERR_NOMEM; a client gone
 * before its first request is not an error. */
CITCAT_API int citcat_gdbserver_refuse(const struct citcat_gdbserver_io *io, const char *reason);

#ifdef __cplusplus
}
#endif

#endif
