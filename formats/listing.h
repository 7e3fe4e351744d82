/* The text listing of an instruction trace: its layout and its writer
 * (citcat_listing_writer_*) are public, in <citcat/listing.h>.  Opened with
 * a NULL path, the writer keeps the listing in memory (cc_outfile). */
#ifndef CITCAT_LISTING_H
#define CITCAT_LISTING_H

#include <citcat/listing.h>

#include "itrace.h"

#endif
