/* SDC/LSP command-line glue.  Placeholder until the program-flow stream
 * formats land (issue 6): it recognises nothing. */
#include "cli.h"

const char *sdclsp_detect(const char *path, const uint8_t *head, size_t n) { return NULL; }
int sdclsp_convert(const char *in, const char *from, const char *out, const char *to, const struct convert_opts *o)
{
	return cli_fail("conversion from %s to %s is not available in this build", from, to);
}
int sdclsp_info(const char *path, int json) { return cli_fail("%s: unsupported", path); }
int sdclsp_bench(int argc, char **argv) { return cli_fail("bench sdclsp is not available in this build"); }
