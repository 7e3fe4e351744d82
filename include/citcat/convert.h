/* libcitcat public API: conversion between trace formats, and the
 * measurement behind `citcat bench formats`.
 *
 * citcat_convert reads one file and writes another, the formats named by
 * the format registry (formats/README.md: "itrace", "din", "xdin", "pdats",
 * "pdats2", "sdclsp[:b|e|r][:SETSxWAYS,NP]", "text", "champsim"), or
 * recognised from the input's contents and the output's suffix.  It is what
 * `citcat convert` does; the tool only parses options and prints what this
 * returns.  The output is written through the library's atomic output
 * files (<citcat/io.h>): on any failure nothing is left behind.  Reads and
 * the conversion loop poll the process's stop flag (citcat_stop_request):
 * a stop ends the call with CITCAT_ERR_INTERRUPTED and no output.
 *
 * Errors: besides the code and ERR (code, file offset, message: base.h),
 * a struct citcat_convert_result says which file the error concerns, or
 * that the request itself cannot be done (a usage error: the options), and
 * holds the whole message (ERR's is cut at its 200 bytes).
 *
 * Conventions: include/citcat/base.h.  Internal code: convert/ (a layer
 * above ims/, because an SDC-LSP stream decodes against a program image
 * that may be an IMS, read with the exception model's checks). */
#ifndef CITCAT_PUBLIC_CONVERT_H
#define CITCAT_PUBLIC_CONVERT_H

#include <citcat/base.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Called now and then (every 2^20 items) with what is being done
 * ("converting", "encoding", "decoding", "convert"), the items so far and
 * their unit ("ref", "rec", "insn").  For a progress line; may be NULL. */
typedef void (*citcat_convert_progress_fn)(void *ctx, const char *what, uint64_t done, const char *unit);
/* A warning about FILE (e.g. an ELF without line information); may be NULL. */
typedef void (*citcat_convert_warn_fn)(void *ctx, const char *file, const char *msg);

struct citcat_convert_config {
	size_t size;      /* sizeof(struct citcat_convert_config) */
	/* The formats by registry name.  FROM NULL: recognised by IN's
	 * contents (through any wrapper), else by its suffix.  TO NULL: by
	 * OUT's suffix (RUN.pdats2.zst: pdats2). */
	const char *from, *to;
	/* The output's wrapper: CITCAT_OUT_LZ4, CITCAT_OUT_ZSTD or
	 * CITCAT_OUT_TVP (<citcat/io.h>); 0 or negative: what OUT's suffix
	 * asks for (.lz4, .zst, .tvp), else none. */
	int wrap;
	/* itrace (or FLOW with DAF) -> din/xdin/pdats/pdats2/champsim: keep
	 * the uncached device accesses (left out by default: formats/DIN.md) */
	int uncached;
	/* SDC-LSP: the program image its stream decodes against, an IMS or a
	 * firmware ELF */
	const char *image;
	/* Rebuild the data accesses from this DAF trace (formats/DAF.md) over
	 * the program flow IN: an itrace (checked against its accesses) or an
	 * SDC-LSP stream with IMAGE; the output is din, xdin, pdats or pdats2 */
	const char *daf;
	/* --to text only: the firmware ELF (function+offset and file:line
	 * lines), only the instructions of FUNCTION (needs ELF), instructions
	 * from number FROM_INSN on, at most COUNT of them (0: all), only those
	 * at PC_LO <= pc < PC_HI when PC_RANGE */
	const char *elf, *function;
	uint64_t from_insn, count, pc_lo, pc_hi;
	int pc_range;
	citcat_convert_progress_fn progress;
	citcat_convert_warn_fn warn;
	void *ctx;        /* handed to PROGRESS and WARN */
};

/* Which file an error concerns (struct citcat_convert_result's WHAT). */
enum citcat_convert_what {
	CITCAT_CONVERT_NONE = 0,    /* no error */
	CITCAT_CONVERT_FILE = 1,    /* FILE's: ERR's offset and message concern it */
	CITCAT_CONVERT_MESSAGE = 2, /* MSG says it all (it names its files) */
	CITCAT_CONVERT_REQUEST = 3, /* the request cannot be done: formats or options (a usage error) */
	CITCAT_CONVERT_CHECK = 4    /* the DAF's rebuilt accesses differ from the itrace's (CITCAT_ERR_DIVERGED);
				     * MSG: a line, then the two sets of accesses, one line each */
};

struct citcat_convert_result {
	size_t size;      /* sizeof(struct citcat_convert_result) */
	int what;         /* enum citcat_convert_what */
	const char *file; /* CITCAT_CONVERT_FILE: IN, OUT or one of the config's files */
	char msg[1024];   /* the whole message (no "citcat: " prefix, no newline at the end) */
	/* the formats converted from and to (registry names; static storage) */
	const char *from, *to;
	/* itrace -> din, pdats, pdats2: the DMA transfers left out (only xdin
	 * can carry them, formats/DIN.md), and their bytes */
	uint64_t dma_dropped, dma_dropped_bytes;
};

/* Sets C's SIZE and every other member to 0 (no effect for NULL). */
CITCAT_API void citcat_convert_config_default(struct citcat_convert_config *c);

/* Converts IN into OUT ("-": standard input, standard output).  RES (may be
 * NULL; its SIZE set by the caller) gets the outcome.  Returns 0, or a
 * negative code with ERR and RES filled: CITCAT_ERR_INVAL for a request that
 * cannot be done (RES->WHAT CITCAT_CONVERT_REQUEST), CITCAT_ERR_DIVERGED for
 * a DAF check, CITCAT_ERR_INTERRUPTED, or the reader's or writer's code. */
CITCAT_API int citcat_convert(const char *in, const char *out, const struct citcat_convert_config *cfg,
			      struct citcat_convert_result *res, struct citcat_errinfo *err);

/* ---- dump: every record of a file, as named fields ---- */

/* What `citcat dump` prints, one record at a time: the library hands each
 * record's fields to a caller's sink and never prints; the columns of each
 * kind and what each record means: formats/DUMP.md. */
enum citcat_dump_type {
	CITCAT_DUMP_UINT = 0, /* U: decimal */
	CITCAT_DUMP_HEX = 1,  /* U: hexadecimal, WIDTH digits at least */
	CITCAT_DUMP_STR = 2,  /* S: a name (no quotes, commas or spaces) */
	CITCAT_DUMP_BYTES = 3 /* DATA, LEN: bytes, in file order */
};

struct citcat_dump_field {
	uint8_t col;   /* index into the schema's columns (>= 2) */
	uint8_t type;  /* enum citcat_dump_type */
	uint8_t width; /* HEX: minimum digits */
	uint64_t u;
	const char *s;
	const uint8_t *data;
	size_t len;
};

#define CITCAT_DUMP_MAX_FIELDS 16

/* One record.  Columns 0 and 1 of every schema are "rec" (REC, the
 * record's number in the file, from 0) and "kind" (KIND); F holds the
 * other columns that apply to this record, in column order.  Valid during
 * the sink call only. */
struct citcat_dump_rec {
	uint64_t rec;
	const char *kind;
	size_t n;
	struct citcat_dump_field f[CITCAT_DUMP_MAX_FIELDS];
};

/* The columns of one file kind (DUMP.md). */
struct citcat_dump_schema {
	const char *format; /* "cat", "itrace", "aes", "ims", "din", "xdin", "pdats", "pdats2", "lvt", "daf", "sdclsp" */
	unsigned version;   /* the file's format version (0 when it has none) */
	size_t ncols;
	const char *const *cols;
};

/* Where records go.  The schema handed to BEGIN stays valid until the
 * dumper returns.  Each callback returns 0 to go on or a negative code,
 * which stops the dump and is returned (e.g. CITCAT_ERR_IO for a failed
 * write, CITCAT_ERR_INTERRUPTED from PROGRESS).  BEGIN is called once,
 * after the file's header was read and checked, before the first record;
 * PROGRESS (may be NULL) now and then with the records read so far
 * (handed out or skipped). */
struct citcat_dump_sink {
	int (*begin)(void *ctx, const struct citcat_dump_schema *schema);
	int (*record)(void *ctx, const struct citcat_dump_rec *rec);
	int (*progress)(void *ctx, uint64_t records_read);
	void *ctx;
};

/* The options of a dump. */
struct citcat_dump_config {
	size_t size;        /* sizeof(struct citcat_dump_config) */
	uint64_t from;      /* first record number handed out */
	uint64_t count;     /* with HAS_COUNT: records handed out at most (0: none) */
	int has_count;      /* 0: every record from FROM on */
	/* LVT and DAF: the program flow, an itrace of the same run (the
	 * capture's --oracle, or the one `citcat replay` regenerated), whose
	 * instructions tell which record comes next; required for those, refused
	 * for the others */
	const char *itrace;
	/* SDC-LSP: the program image the stream decodes against (the run's IMS
	 * or the firmware ELF); required for it, refused for the others */
	const char *image;
};

struct citcat_dump;

/* Recognises PATH's format by its contents (through any wrapper; "-":
 * standard input, whose head is put back), checks that CFG gives what its
 * records decode against, and loads the program image.  Returns 0 with *D
 * (release with citcat_dump_close), or a negative code with ERR and RES
 * (may be NULL) as citcat_convert's: CITCAT_CONVERT_REQUEST for options
 * that do not fit the file, CITCAT_CONVERT_MESSAGE for a file that citcat
 * does not recognise or cannot dump, CITCAT_CONVERT_FILE for a file that
 * cannot be read (PATH or the image). */
CITCAT_API int citcat_dump_open(struct citcat_dump **d, const char *path, const struct citcat_dump_config *cfg,
				struct citcat_convert_result *res, struct citcat_errinfo *err);
/* The registry name of the file's format ("cat", "itrace", "aes", "ims", "din", ...;
 * static storage), NULL for NULL. */
CITCAT_API const char *citcat_dump_format(const struct citcat_dump *d);
/* Hands PATH's records to SINK: they stream, memory stays bounded by one
 * chunk (or one record) whatever the file's length, and records before
 * FROM are decoded but not handed out.  Returns 0 when the records asked
 * for were handed out (a dump that stops after COUNT records does not read
 * the rest of the file), the sink's code (ERR's code 0), or a reader's
 * error with ERR filled (file offset and message). */
CITCAT_API int citcat_dump_run(struct citcat_dump *d, const struct citcat_dump_sink *sink, struct citcat_errinfo *err);
CITCAT_API void citcat_dump_close(struct citcat_dump *d);

/* ---- the measurement behind `citcat bench formats` ---- */

#define CITCAT_BENCH_FORMATS_MAX_ROWS 16

/* One format or tool: its output's bytes and its encode and decode CPU
 * seconds (a tool's: its child processes', shell start included). */
struct citcat_bench_format_row {
	const char *name; /* "din", "pdats", "pdats+lz4", "pdats2", "pdats2+lz4", "pdats2+zstd", "pdats2.tvp",
			   * "din|lz4", "din|gzip -9", "din|zstd -19 --long", "din|xz -9" (static storage) */
	double enc, dec;
	uint64_t bytes;
};

struct citcat_bench_formats {
	size_t size;      /* sizeof(struct citcat_bench_formats) */
	uint64_t refs;    /* the trace's references */
	int nrows;        /* rows filled; row 0 is din; a tool not installed has no row */
	struct citcat_bench_format_row rows[CITCAT_BENCH_FORMATS_MAX_ROWS];
};

/* Measures the formats on the references of PATH (an itrace, with its
 * uncached accesses, or an address trace), or, PATH NULL, on a synthetic
 * ARM-like stream of NSYNTH references.  Scratch files go to TMPDIR (else
 * /tmp) and are removed.  Returns 0 with OUT filled, or a negative code
 * with ERR and RES (may be NULL) as citcat_convert's. */
CITCAT_API int citcat_bench_formats(const char *path, uint64_t nsynth, struct citcat_bench_formats *out,
				    struct citcat_convert_result *res, struct citcat_errinfo *err);

#ifdef __cplusplus
}
#endif

#endif
