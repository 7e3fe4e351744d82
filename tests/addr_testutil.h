/* Helpers shared by the address-trace unit tests. */
#ifndef ADDR_TESTUTIL_H
#define ADDR_TESTUTIL_H
#include "addr.h"
#include "check.h"
#include "golden/table3.h"

#include <stdlib.h>
#include <string.h>

/* Encodes REFS to memory with CFG; returns the file bytes (free them). */
static uint8_t *encode_mem(const struct citcat_addr_config *cfg, const struct citcat_ref *refs, size_t n,
			   size_t *len, uint64_t *payload)
{
	struct citcat_addr_writer *w;
	uint8_t *buf = NULL;
	*len = 0;
	if (citcat_addr_writer_open(&w, NULL, cfg)) {
		fprintf(stderr, "open: %s\n", citcat_addr_writer_error(w)->msg);
		citcat_addr_writer_abort(w);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		if (citcat_addr_put(w, &refs[i])) {
			fprintf(stderr, "put %zu: %s\n", i, citcat_addr_writer_error(w)->msg);
			citcat_addr_writer_abort(w);
			return NULL;
		}
	if (payload)
		*payload = citcat_addr_writer_payload_bytes(w);
	if (citcat_addr_writer_take(w, &buf, len))
		return NULL;
	return buf;
}

/* Decodes BUF and checks it yields exactly REFS (type and address). */
static int decode_equals(const uint8_t *buf, size_t len, int fmt, const struct citcat_ref *refs, size_t n)
{
	struct citcat_addr_reader *r;
	struct citcat_ref got;
	int rc = citcat_addr_reader_open_mem(&r, buf, len, fmt), ok = 1;
	size_t i = 0;
	if (rc) {
		fprintf(stderr, "reader open: %s\n", citcat_addr_reader_error(r)->msg);
		citcat_addr_reader_close(r);
		return 0;
	}
	while ((rc = citcat_addr_next(r, &got)) == 1) {
		if (i >= n || got.type != refs[i].type || got.addr != refs[i].addr) {
			fprintf(stderr, "ref %zu: got %u %llx\n", i, got.type, (unsigned long long)got.addr);
			ok = 0;
			break;
		}
		i++;
	}
	if (rc < 0) {
		fprintf(stderr, "decode: offset %llu: %s\n", (unsigned long long)citcat_addr_reader_error(r)->offset,
			citcat_addr_reader_error(r)->msg);
		ok = 0;
	}
	if (i != n)
		ok = 0;
	citcat_addr_reader_close(r);
	return ok;
}

/* Decodes BUF; returns the record-stream bytes the reader counted. */
static inline uint64_t decoded_payload(const uint8_t *buf, size_t len)
{
	struct citcat_addr_reader *r;
	struct citcat_ref got;
	uint64_t n = 0;
	if (citcat_addr_reader_open_mem(&r, buf, len, CITCAT_ADDR_AUTO) == 0) {
		while (citcat_addr_next(r, &got) == 1)
			;
		n = citcat_addr_reader_payload_bytes(r);
	}
	citcat_addr_reader_close(r);
	return n;
}

/* Decodes BUF expecting an error; returns its code and offset. */
static int decode_error(const uint8_t *buf, size_t len, uint64_t *off)
{
	struct citcat_addr_reader *r;
	struct citcat_ref got;
	int rc = citcat_addr_reader_open_mem(&r, buf, len, CITCAT_ADDR_AUTO);
	if (!rc)
		while ((rc = citcat_addr_next(r, &got)) == 1)
			;
	*off = citcat_addr_reader_error(r)->offset;
	if (rc < 0 && !citcat_addr_reader_error(r)->msg[0])
		rc = 99; /* every error must carry a message */
	citcat_addr_reader_close(r);
	return rc;
}

static inline void table3_load(struct citcat_ref *refs)
{
	for (int i = 0; i < 29; i++) {
		refs[i].type = table3_refs[i].type;
		refs[i].addr = table3_refs[i].addr;
		refs[i].size = 0;
	}
}

/* Compares the record stream at P with the golden records, record by record. */
static inline void check_records(const uint8_t *p, size_t len, const struct table3_rec *recs, size_t nrec, size_t total)
{
	size_t k = 0;
	for (size_t i = 0; i < nrec; i++) {
		if (k + recs[i].n > len || memcmp(p + k, recs[i].b, recs[i].n) != 0) {
			fprintf(stderr, "record for Table 3 row %d differs at payload byte %zu\n", recs[i].row, k);
			check_failures++;
			return;
		}
		k += recs[i].n;
	}
	CHECK_EQ(k, total);
}
#endif
