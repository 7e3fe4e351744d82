/* The process's stop flag: see stop.h. */
#include "stop.h"

#include <signal.h>

static volatile sig_atomic_t stop_sig;

void cc_stop_request(int sig) { stop_sig = sig ? sig : 1; }
int cc_stop_requested(void) { return stop_sig; }
void cc_stop_clear(void) { stop_sig = 0; }
