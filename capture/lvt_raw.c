/* citcat_capture_run_lvt_raw (citcat/capture.h): a capture with an LVT
 * that also hands out the unfiltered load-value trace, through the
 * benchmark options of the run loop (capture.h, struct cc_capture_bench). */
#include "capture.h"
#include "citcat.h"

#include <stddef.h>

int citcat_capture_run_lvt_raw(const struct citcat_capture_config *cfg, const char *elf, const char *cat_path,
			       const char *oracle_path, void (*raw)(void *raw_ctx, const uint8_t *bytes, unsigned n),
			       void *raw_ctx, struct citcat_capture_result *res, struct citcat_errinfo *err)
{
	if (!cfg || cfg->size < offsetof(struct citcat_capture_config, lvt_path) + sizeof cfg->lvt_path ||
	    !cfg->lvt_path)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX,
					  "citcat_capture_run_lvt_raw: no configuration with an LVT");
	struct cc_capture_bench b = {.lvt_raw = raw, .lvt_raw_ctx = raw_ctx};
	return cc_capture_run_bench(cfg, &b, elf, cat_path, oracle_path, res, err);
}
