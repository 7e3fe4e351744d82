/* Fuzz target: the CAT reader never crashes or reads out of bounds. */
#include "cat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct citcat_cat_reader *r;
	struct citcat_cat_event ev;
	if (citcat_cat_reader_open_mem(&r, data, size) == 0)
		while (citcat_cat_next(r, &ev) == 1)
			;
	citcat_cat_reader_close(r);
	return 0;
}
