/* One stop flag for the whole process (issue 29): the CLI's signal handler
 * raises it on SIGINT, SIGTERM or SIGHUP, and every long loop of the
 * library polls it next to its own progress callback: the input layer at
 * every refill (so every streaming reader, standard input included), the
 * replayers, the dumpers, merge, the WET walks.  A loop that sees it stops
 * with CITCAT_ERR_INTERRUPTED and its outputs are removed as after any
 * other error.  A library user who never raises it sees no difference. */
#ifndef CITCAT_STOP_H
#define CITCAT_STOP_H

/* Raises the flag with SIG (any non-zero value).  Async-signal-safe. */
void cc_stop_request(int sig);
/* The value given to cc_stop_request, or 0. */
int cc_stop_requested(void);
/* Lowers the flag (for tests). */
void cc_stop_clear(void);

#endif
