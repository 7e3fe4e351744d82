#include "image.h"
#include "input.h"
#include "grow.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct seg {
	uint64_t addr, len;
	uint64_t cap; /* bytes allocated at data (>= len): appends grow it geometrically */
	uint8_t *data;
};

struct citcat_image {
	struct seg *s;
	size_t n, cap;
};

/* First segment whose end (addr + len) is at or after ADDR: the only ones an
 * insertion at ADDR can touch start there.  Binary search, so building an
 * image of N runs is not quadratic. */
static size_t first_touching(const struct citcat_image *img, uint64_t addr)
{
	size_t lo = 0, hi = img->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (img->s[mid].addr + img->s[mid].len < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int citcat_image_alloc(struct citcat_image **img)
{
	if (!img)
		return CITCAT_ERR_INVAL;
	*img = calloc(1, sizeof **img);
	return *img ? 0 : CITCAT_ERR_NOMEM;
}

void citcat_image_free(struct citcat_image *img)
{
	if (!img)
		return;
	for (size_t i = 0; i < img->n; i++)
		free(img->s[i].data);
	free(img->s);
	free(img);
}

/* Inserting keeps the list sorted and merges overlapping or adjacent
 * segments, so lookups are a binary search and iteration is in order. */
int citcat_image_add(struct citcat_image *img, uint64_t addr, const void *data, size_t len)
{
	if (!img || (!data && len))
		return CITCAT_ERR_INVAL;
	if (len == 0)
		return 0;
	uint64_t end = addr + len;
	if (end < addr)
		return CITCAT_ERR_INVAL;
	/* range of existing segments that touch [addr, end] */
	size_t lo = first_touching(img, addr), hi;
	hi = lo;
	while (hi < img->n && img->s[hi].addr <= end)
		hi++;
	/* Fast path: the bytes start inside or right after one segment and touch
	 * no other, the common case of runs arriving in address order (the IMS
	 * reader).  Copy in place, growing the buffer geometrically, so N
	 * adjacent runs cost O(total bytes), not O(N * segment size). */
	if (hi == lo + 1 && img->s[lo].addr <= addr) {
		struct seg *s = &img->s[lo];
		uint64_t need = end - s->addr;
		if (need > s->len) {
			if (need > (1ull << 32))
				return CITCAT_ERR_LIMIT;
			size_t cap = (size_t)s->cap;
			int rc = cc_grow(&s->data, &cap, (size_t)need, 1, (size_t)need, (size_t)1 << 32);
			if (rc)
				return rc;
			s->cap = cap;
			s->len = need;
		}
		memcpy(s->data + (addr - s->addr), data, len);
		return 0;
	}
	uint64_t naddr = addr, nend = end;
	if (hi > lo) {
		if (img->s[lo].addr < naddr)
			naddr = img->s[lo].addr;
		uint64_t le = img->s[hi - 1].addr + img->s[hi - 1].len;
		if (le > nend)
			nend = le;
	}
	if (nend - naddr > (1ull << 32))
		return CITCAT_ERR_LIMIT;
	uint8_t *nd = malloc((size_t)(nend - naddr));
	if (!nd)
		return CITCAT_ERR_NOMEM;
	for (size_t i = lo; i < hi; i++)
		memcpy(nd + (img->s[i].addr - naddr), img->s[i].data, (size_t)img->s[i].len);
	memcpy(nd + (addr - naddr), data, len);
	for (size_t i = lo; i < hi; i++)
		free(img->s[i].data);
	if (hi == lo) { /* insert a new slot at lo */
		if (cc_grow(&img->s, &img->cap, img->n + 1, sizeof *img->s, 8, SIZE_MAX)) {
			free(nd);
			return CITCAT_ERR_NOMEM;
		}
		memmove(img->s + lo + 1, img->s + lo, (img->n - lo) * sizeof *img->s);
		img->n++;
		hi = lo + 1;
	} else if (hi - lo > 1) {
		memmove(img->s + lo + 1, img->s + hi, (img->n - hi) * sizeof *img->s);
		img->n -= hi - lo - 1;
	}
	img->s[lo] = (struct seg){naddr, nend - naddr, nend - naddr, nd};
	return 0;
}

int citcat_image_read(const struct citcat_image *img, uint64_t addr, void *buf, size_t len)
{
	if (!img || (!buf && len))
		return CITCAT_ERR_INVAL;
	uint8_t *out = buf;
	int rc = 0;
	memset(buf, 0, len);
	while (len) {
		size_t lo = 0, hi = img->n;
		while (lo < hi) { /* first segment ending after addr */
			size_t mid = (lo + hi) / 2;
			if (img->s[mid].addr + img->s[mid].len <= addr)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == img->n || img->s[lo].addr > addr) {
			rc = CITCAT_ERR_EOF;
			uint64_t skip = lo == img->n ? len : img->s[lo].addr - addr;
			if (skip >= len)
				break;
			out += skip;
			addr += skip;
			len -= (size_t)skip;
			continue;
		}
		const struct seg *s = &img->s[lo];
		uint64_t k = s->addr + s->len - addr;
		if (k > len)
			k = len;
		memcpy(out, s->data + (addr - s->addr), (size_t)k);
		out += k;
		addr += k;
		len -= (size_t)k;
	}
	return rc;
}

size_t citcat_image_segments(const struct citcat_image *img) { return img ? img->n : 0; }
void citcat_image_segment(const struct citcat_image *img, size_t i, uint64_t *addr, uint64_t *len,
			  const uint8_t **data)
{
	if (!img || i >= img->n || !addr || !len || !data)
		return;
	*addr = img->s[i].addr;
	*len = img->s[i].len;
	*data = img->s[i].data;
}

uint64_t citcat_image_bytes(const struct citcat_image *img)
{
	if (!img)
		return 0;
	uint64_t t = 0;
	for (size_t i = 0; i < img->n; i++)
		t += img->s[i].len;
	return t;
}

/* Takes ownership of DATA: inserted as it is when it touches no segment
 * already present (the loader's case), so loading costs one copy. */
static int add_owned(struct citcat_image *img, uint64_t addr, uint8_t *data, uint64_t len)
{
	size_t lo = first_touching(img, addr);
	if (lo < img->n && img->s[lo].addr <= addr + len) {
		int rc = citcat_image_add(img, addr, data, (size_t)len);
		free(data);
		return rc;
	}
	if (cc_grow(&img->s, &img->cap, img->n + 1, sizeof *img->s, 8, SIZE_MAX)) {
		free(data);
		return CITCAT_ERR_NOMEM;
	}
	memmove(img->s + lo + 1, img->s + lo, (img->n - lo) * sizeof *img->s);
	img->n++;
	img->s[lo] = (struct seg){addr, len, len, data};
	return 0;
}

struct load_seg {
	uint64_t addr, memsz, filesz, offset;
	size_t index; /* program header number, for messages */
};

static int by_addr(const void *a, const void *b)
{
	const struct load_seg *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int load_stopped(const struct citcat_elf_limits *lim)
{
	return lim->stop && lim->stop(lim->stop_ctx);
}

/* Reads the file bytes of one segment into BUF in slices, polling the stop
 * callback in between. */
static int read_seg(int fd, uint8_t *buf, const struct load_seg *g, const struct citcat_elf_limits *lim,
		    struct citcat_errinfo *err)
{
	const uint64_t slice = 16u << 20;
	for (uint64_t done = 0; done < g->filesz;) {
		if (load_stopped(lim))
			return citcat_errinfo_set(err, CITCAT_ERR_INTERRUPTED, UINT64_MAX, "interrupted while loading");
		size_t k = (size_t)(g->filesz - done < slice ? g->filesz - done : slice);
		ssize_t got = pread(fd, buf + done, k, (off_t)(g->offset + done));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return citcat_errinfo_set(err, CITCAT_ERR_TRUNCATED, g->offset + done,
						  "segment %zu data is truncated", g->index);
		done += (uint64_t)got;
	}
	return 0;
}

int citcat_image_load_elf_limited(struct citcat_image *img, const char *path, const struct citcat_elf_limits *lim,
				  uint64_t *entry, struct citcat_errinfo *err)
{
	if (!img || !path || !lim || lim->base + lim->size < lim->base)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "bad arguments");
	if (elf_version(EV_CURRENT) == EV_NONE)
		return citcat_errinfo_set(err, CITCAT_ERR_INTERNAL, UINT64_MAX, "libelf initialisation failed");
	int fd, orc = cc_input_open_fd(path, CC_IN_FILE, &fd, err); /* the input rules (input.h): a regular file */
	if (orc)
		return orc;
	off_t fsize = lseek(fd, 0, SEEK_END);
	int rc = 0;
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	GElf_Ehdr eh;
	size_t nph;
	unsigned max = lim->max_segments ? lim->max_segments : CITCAT_ELF_MAX_SEGMENTS;
	const char *map = lim->map_name ? lim->map_name : "the memory map";
	struct load_seg *segs = NULL;
	size_t n = 0;
	if (fsize == 0) {
		rc = citcat_errinfo_set(err, CITCAT_ERR_EMPTY, 0, "file is empty");
		goto out;
	}
	if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh)) {
		rc = citcat_errinfo_set(err, CITCAT_ERR_MAGIC, 0, "not an ELF file");
		goto out;
	}
	if (eh.e_ident[EI_CLASS] != ELFCLASS32 || eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_machine != EM_ARM) {
		rc = citcat_errinfo_set(err, CITCAT_ERR_UNSUPPORTED, 4, "not a 32-bit little-endian ARM ELF");
		goto out;
	}
	if (eh.e_type != ET_EXEC) {
		rc = citcat_errinfo_set(err, CITCAT_ERR_UNSUPPORTED, 16, "not an executable (ELF type %u)", eh.e_type);
		goto out;
	}
	if (elf_getphdrnum(e, &nph) != 0) {
		rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, 28, "cannot read the program headers: %s", elf_errmsg(-1));
		goto out;
	}
	if (!(segs = malloc(max * sizeof *segs))) {
		rc = citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
		goto out;
	}
	/* First every header is checked against the memory map, and nothing
	 * is allocated for a segment until all of them have passed: a file of
	 * a few hundred bytes may claim gigabytes. */
	for (size_t i = 0; i < nph; i++) {
		uint64_t at = eh.e_phoff + (uint64_t)i * eh.e_phentsize;
		GElf_Phdr ph;
		if ((i & 4095) == 4095 && load_stopped(lim)) {
			rc = citcat_errinfo_set(err, CITCAT_ERR_INTERRUPTED, UINT64_MAX, "interrupted while loading");
			goto out;
		}
		if (!gelf_getphdr(e, (int)i, &ph)) {
			rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, eh.e_phoff, "program header %zu unreadable", i);
			goto out;
		}
		if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
			continue;
		/* ELF32 fields are 32-bit, so these sums cannot overflow */
		if (ph.p_filesz > ph.p_memsz || ph.p_offset + ph.p_filesz > (uint64_t)fsize) {
			rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, at,
						"segment %zu has impossible sizes (file %llu, memory %llu)", i,
						(unsigned long long)ph.p_filesz, (unsigned long long)ph.p_memsz);
			goto out;
		}
		if (ph.p_paddr + ph.p_memsz > (1ull << 32)) {
			rc = citcat_errinfo_set(err, CITCAT_ERR_LIMIT, at,
						"segment %zu at 0x%08llx (%llu bytes) wraps past the end of the 32-bit address space",
						i, (unsigned long long)ph.p_paddr, (unsigned long long)ph.p_memsz);
			goto out;
		}
		if (ph.p_paddr < lim->base || ph.p_paddr + ph.p_memsz > lim->base + lim->size) {
			rc = citcat_errinfo_set(err, CITCAT_ERR_LIMIT, at,
						"segment %zu at 0x%08llx..0x%08llx (%llu bytes) lies outside %s "
						"(0x%08llx..0x%08llx)",
						i, (unsigned long long)ph.p_paddr,
						(unsigned long long)(ph.p_paddr + ph.p_memsz - 1), (unsigned long long)ph.p_memsz,
						map, (unsigned long long)lim->base, (unsigned long long)(lim->base + lim->size - 1));
			goto out;
		}
		if (n == max) {
			rc = citcat_errinfo_set(err, CITCAT_ERR_LIMIT, at, "more than %u loadable segments", max);
			goto out;
		}
		segs[n++] = (struct load_seg){ph.p_paddr, ph.p_memsz, ph.p_filesz, ph.p_offset, i};
	}
	if (!n) {
		rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, eh.e_phoff, "no loadable segments");
		goto out;
	}
	qsort(segs, n, sizeof *segs, by_addr);
	for (size_t i = 1; i < n; i++)
		if (segs[i - 1].addr + segs[i - 1].memsz > segs[i].addr) {
			const struct load_seg *a = &segs[i - 1], *b = &segs[i];
			rc = citcat_errinfo_set(err, CITCAT_ERR_CORRUPT, eh.e_phoff + (uint64_t)b->index * eh.e_phentsize,
						"segments %zu and %zu overlap at 0x%08llx", a->index < b->index ? a->index : b->index,
						a->index < b->index ? b->index : a->index, (unsigned long long)b->addr);
			goto out;
		}
	/* Now the total is at most LIM->size.  Adjacent segments share one
	 * buffer, so every byte is copied once. */
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && segs[j - 1].addr + segs[j - 1].memsz == segs[j].addr)
			j++;
		uint64_t len = segs[j - 1].addr + segs[j - 1].memsz - segs[i].addr;
		uint8_t *buf = calloc(1, (size_t)len);
		if (!buf) {
			rc = citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
			goto out;
		}
		for (size_t k = i; k < j; k++)
			if ((rc = read_seg(fd, buf + (segs[k].addr - segs[i].addr), &segs[k], lim, err))) {
				free(buf);
				goto out;
			}
		if ((rc = add_owned(img, segs[i].addr, buf, len))) {
			citcat_errinfo_set(err, rc, eh.e_phoff + (uint64_t)segs[i].index * eh.e_phentsize,
					   "cannot add segment %zu", segs[i].index);
			goto out;
		}
		i = j;
	}
	if (entry)
		*entry = eh.e_entry;
out:
	free(segs);
	if (e)
		elf_end(e);
	close(fd);
	return rc;
}

int citcat_image_load_elf(struct citcat_image *img, const char *path, uint64_t *entry, struct citcat_errinfo *err)
{
	if (!img || !path)
		return CITCAT_ERR_INVAL;
	struct citcat_elf_limits lim = {.base = 0, .size = 1u << 30, .map_name = "the largest RAM the target can have"};
	return citcat_image_load_elf_limited(img, path, &lim, entry, err);
}
