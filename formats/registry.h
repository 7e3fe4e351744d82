/* The format registry: its declarations are public (<citcat/format.h>);
 * this header is the library's way in to them.
 *
 * Adding a format (see formats/README.md):
 *   1. its reader/writer and spec in formats/ (or its component folder);
 *   2. one enum constant in include/citcat/format.h and one entry in the
 *      table in registry.c
 *      (name, suffixes, sniff);
 *   3. one entry in each table that applies, indexed by the same id: the
 *      converter (convert/convert.c), the dumper (convert/dumpcall.c), the
 *      info describer (cli/formats_cli.c; NULL where it does not apply). */
#ifndef CITCAT_REGISTRY_H
#define CITCAT_REGISTRY_H

#include "citcat.h"
#include <citcat/format.h>

#endif
