/* The cache-filtered address trace (CAT): what the trace module records on
 * the bus below the caches.  Byte layout: CAT.md beside this file.
 * Internal header: the public part is <citcat/cat.h> and <citcat/target.h>;
 * this adds the metadata codec the IMS shares. */
#ifndef CITCAT_CAT_H
#define CITCAT_CAT_H

#include <citcat/cat.h>
#include <citcat/target.h>

#include "citcat.h"

/* Metadata codec, shared with the IMS format which carries the same
 * configuration.  CITCAT_TARGET_META_LEN bytes. */
#define CITCAT_TARGET_META_LEN 96
void citcat_target_config_encode(const struct citcat_target_config *c, uint8_t *out);
/* The byte offset (within the 96 bytes at IN) of the first reserved byte or
 * flag bit that is not zero, with *WHY naming it, or -1 when all are zero
 * (CAT.md, "Metadata").  citcat_target_config_decode rejects them too; this
 * gives readers the offset to report. */
int citcat_target_config_reserved(const uint8_t *in, const char **why);
/* Returns 0, or an error with *WHY naming the bad field.  Accepts isa 1 and 2
 * (the Cortex-M7 from CAT version 5): a reader whose format predates isa 2
 * must check the isa itself. */
int citcat_target_config_decode(const uint8_t *in, size_t len, struct citcat_target_config *c, const char **why);

#endif
