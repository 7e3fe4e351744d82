/* The register map agrees everywhere it is stated: the one header
 * (examples/bsp/citcat_regs.h, which the firmware and the model include),
 * the device table of the model (capture/devices.c) and the spec
 * (capture/TARGET.md).  Checked:
 *  - every register row of TARGET.md ("| 0xOFF | NAME | ACCESS |" under a
 *    "### ... (`0xBASE`)" heading) has a macro CITCAT_..._NAME in the header
 *    with the address BASE + OFF, and every register macro of the header
 *    ("(CITCAT_..._BASE + 0xOFFu)") has its row;
 *  - every heading's base is a device of the table and every device has
 *    its heading; devices lie in the window, aligned, without overlap;
 *  - the model serves each documented register as its access column says:
 *    a read of an R register and a write of a W register are served, a read
 *    of a register without R (and a write of one without W) is a bus error;
 *  - the device table's writability (struct device's writable, which the
 *    model asks before a write reaches the bus) is what each device's write
 *    function does: every 4-byte offset of the device window, on a target
 *    at reset, is writable exactly when its device accepts the write;
 *  - the same for readability (struct device's readable) against read.
 * Usage: test_regmap TARGET.md citcat_regs.h */
#include "check.h"
#include "target_int.h"

#include <ctype.h>
#include <string.h>

#define MAXR 256

struct reg {
	char name[64];
	uint32_t addr;
	char access[8];
	int seen;
};

static struct reg hdr[MAXR], doc[MAXR];
static int nhdr, ndoc;
static uint32_t doc_base[32];
static int ndoc_base;

static int parse_header(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char line[512], bases[64][64];
	uint32_t basev[64];
	int nb = 0;
	while (fgets(line, sizeof line, f)) {
		char name[64], ref[64];
		unsigned v;
		if (sscanf(line, "#define %63s 0x%xu", name, &v) == 2 && strstr(name, "_BASE") &&
		    strlen(name) > 5 && strcmp(name + strlen(name) - 5, "_BASE") == 0 && nb < 64) {
			snprintf(bases[nb], sizeof bases[nb], "%s", name);
			basev[nb++] = v;
		} else if (sscanf(line, "#define %63s (%63s + 0x%xu)", name, ref, &v) == 3 && !strchr(name, '(') &&
			   nhdr < MAXR) { /* not CITCAT_TRACE_REG(k): a family, like its TARGET.md row */
			for (int i = 0; i < nb; i++)
				if (strcmp(bases[i], ref) == 0) {
					snprintf(hdr[nhdr].name, sizeof hdr[nhdr].name, "%s", name);
					hdr[nhdr++].addr = basev[i] + v;
				}
		}
	}
	fclose(f);
	return 0;
}

static int parse_doc(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char line[1024];
	int have_base = 0;
	uint32_t base = 0;
	while (fgets(line, sizeof line, f)) {
		if (line[0] == '#') {
			const char *p = strstr(line, "(`0x");
			have_base = line[1] == '#' && line[2] == '#' && p;
			if (have_base) {
				base = (uint32_t)strtoul(p + 2, NULL, 16);
				if (ndoc_base < 32)
					doc_base[ndoc_base++] = base;
			}
			continue;
		}
		if (!have_base || strncmp(line, "| 0x", 4) != 0)
			continue;
		char *end;
		uint32_t off = (uint32_t)strtoul(line + 2, &end, 16);
		if (strncmp(end, " | ", 3) != 0)
			continue; /* "0x40 + 4k": the dump slots, a family, not one register */
		char name[64], access[8];
		if (sscanf(end + 3, "%63[A-Z0-9_] | %7[RW] |", name, access) != 2 || ndoc >= MAXR)
			continue;
		snprintf(doc[ndoc].name, sizeof doc[ndoc].name, "%s", name);
		snprintf(doc[ndoc].access, sizeof doc[ndoc].access, "%s", access);
		doc[ndoc++].addr = base + off;
	}
	fclose(f);
	return 0;
}

static int name_ends(const char *macro, const char *reg)
{
	size_t m = strlen(macro), r = strlen(reg);
	return m > r + 1 && macro[m - r - 1] == '_' && strcmp(macro + m - r, reg) == 0;
}

static const struct device *device_at(uint32_t off)
{
	for (unsigned i = 0; i < target_ndevices; i++)
		if (off - target_devices[i]->base < target_devices[i]->size)
			return target_devices[i];
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: test_regmap TARGET.md citcat_regs.h\n");
		return 2;
	}
	CHECK(parse_doc(argv[1]) == 0);
	CHECK(parse_header(argv[2]) == 0);
	CHECK(ndoc >= 30); /* the parsers found the tables (34 registers in version 1) */
	CHECK(nhdr == ndoc);

	for (int i = 0; i < ndoc; i++) {
		int found = 0;
		for (int j = 0; j < nhdr; j++)
			if (hdr[j].addr == doc[i].addr && name_ends(hdr[j].name, doc[i].name))
				found = 1, hdr[j].seen = 1;
		if (!found)
			fprintf(stderr, "TARGET.md register %s at 0x%08x has no macro in citcat_regs.h\n", doc[i].name,
				doc[i].addr);
		CHECK(found);
	}
	for (int j = 0; j < nhdr; j++) {
		if (!hdr[j].seen)
			fprintf(stderr, "citcat_regs.h %s (0x%08x) is not in TARGET.md\n", hdr[j].name, hdr[j].addr);
		CHECK(hdr[j].seen);
	}

	/* the table against the headings and the window */
	unsigned with_events = 0;
	for (unsigned i = 0; i < target_ndevices; i++) {
		const struct device *d = target_devices[i];
		with_events += d->next_event != NULL;
		int found = 0;
		for (int k = 0; k < ndoc_base; k++)
			found |= doc_base[k] == CITCAT_DEV_BASE + d->base;
		if (!found)
			fprintf(stderr, "device %s at 0x%08x has no section in TARGET.md\n", d->name, CITCAT_DEV_BASE + d->base);
		CHECK(found);
		CHECK(d->base % 0x100 == 0 && d->size % 0x100 == 0 && d->size > 0);
		CHECK((uint64_t)d->base + d->size <= CITCAT_DEV_SIZE);
		CHECK(!d->next_event == !d->fire);
		for (unsigned j = 0; j < i; j++)
			CHECK(d->base + d->size <= target_devices[j]->base || target_devices[j]->base + target_devices[j]->size <= d->base);
	}
	/* the model keeps room for every device with events (target_int.h) */
	CHECK(with_events <= sizeof ((struct target *)0)->ev_dev / sizeof *((struct target *)0)->ev_dev);
	for (int k = 0; k < ndoc_base; k++) {
		if (doc_base[k] < CITCAT_DEV_BASE)
			continue;
		const struct device *d = device_at(doc_base[k] - CITCAT_DEV_BASE);
		if (!d || CITCAT_DEV_BASE + d->base != doc_base[k])
			fprintf(stderr, "TARGET.md section at 0x%08x has no device in the table\n", doc_base[k]);
		CHECK(d && CITCAT_DEV_BASE + d->base == doc_base[k]);
	}

	/* the model serves what the access column says, on a target at reset */
	struct citcat_capture_config cfg;
	citcat_capture_config_default(&cfg);
	static struct target t;
	t.cfg = &cfg;
	for (int i = 0; i < ndoc; i++) {
		uint32_t off = doc[i].addr - CITCAT_DEV_BASE, v = 0;
		const struct device *d = doc[i].addr >= CITCAT_DEV_BASE ? device_at(off) : NULL;
		if (!d)
			continue; /* not a device (checked above) */
		int r = d->read ? d->read(&t, off - d->base, &v) : -1;
		int w = d->write ? d->write(&t, off - d->base, 0) : -1;
		int want_r = strchr(doc[i].access, 'R') != NULL, want_w = strchr(doc[i].access, 'W') != NULL;
		if ((r == 0) != want_r || (w == 0) != want_w)
			fprintf(stderr, "%s (0x%08x): documented %s, the model %s%s\n", doc[i].name, doc[i].addr, doc[i].access,
				r == 0 ? "R" : "", w == 0 ? "W" : "");
		CHECK((r == 0) == want_r);
		CHECK((w == 0) == want_w);
	}

	/* every offset of the window: the table's answer against the write */
	int nwritable = 0;
	for (uint32_t off = 0; off < CITCAT_DEV_SIZE; off += 4) {
		memset(&t, 0, sizeof t);
		t.cfg = &cfg;
		const struct device *d = device_at(off);
		int accepted = d && d->write && d->write(&t, off - d->base, 0) == 0;
		int table = target_dev_writable(off);
		if (table != accepted)
			fprintf(stderr, "device offset 0x%03x (%s): the table says %s, the write is %s\n", off,
				d ? d->name : "no device", table ? "writable" : "not writable",
				accepted ? "accepted" : "a bus error");
		CHECK(table == accepted);
		CHECK(!d || !d->writable || d->writable(off - d->base) == table);
		nwritable += accepted;
	}
	/* hand-counted from TARGET.md: 18 W/RW rows (cache 4, sysctl 2, intc 3,
	 * timer 2, UART 2, DMA 3, trace CMD and DUMP_DONE) and the trace
	 * module's REG[k] at 0x40 + 4k below DUMP_DONE (0x40..0xF8: 47) */
	CHECK_EQ(nwritable, 65);

	/* the same for readability (struct device's readable, which the
	 * Cortex-M7 asks before a read: TARGET-M7.md, device bus errors) */
	int nreadable = 0;
	for (uint32_t off = 0; off < CITCAT_DEV_SIZE; off += 4) {
		memset(&t, 0, sizeof t);
		t.cfg = &cfg;
		const struct device *d = device_at(off);
		uint32_t v;
		int served = d && d->read && d->read(&t, off - d->base, &v) == 0;
		int table = target_dev_readable(off);
		if (table != served)
			fprintf(stderr, "device offset 0x%03x (%s): the table says %s, the read is %s\n", off,
				d ? d->name : "no device", table ? "readable" : "not readable",
				served ? "served" : "a bus error");
		CHECK(table == served);
		nreadable += served;
	}
	/* hand-counted from TARGET.md: 24 R/RW rows (sysctl 3, intc 3, timer
	 * 4, UART 3, DMA 4, cycles 2, entropy 2, TRNG 3; cache and trace none) */
	CHECK_EQ(nreadable, 24);
	CHECK_DONE();
}
