/* din / xdin / PDATS / PDATS II command-line glue.  Placeholder until the
 * address-trace formats land (issue 5): it recognises nothing. */
#include "cli.h"

const char *addr_detect(const char *path, const uint8_t *head, size_t n) { return NULL; }
int addr_convert(const char *in, const char *from, const char *out, const char *to, const struct convert_opts *o)
{
	return cli_fail("conversion from %s to %s is not available in this build", from, to);
}
int addr_info(const char *path, const char *fmt, int json) { return cli_fail("%s: unsupported", path); }
int addr_bench(int argc, char **argv) { return cli_fail("bench formats is not available in this build"); }
