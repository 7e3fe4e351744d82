/* citcat capture (placeholder; the capture model lands with issue 2). */
#include "cli.h"

int cmd_capture(int argc, char **argv) { return cli_fail("capture: not built yet"); }
int cat_info(const char *path, int json) { return cli_fail("%s: CAT support not built yet", path); }
int bench_capture(int argc, char **argv) { return cli_fail("bench capture: not built yet"); }
