/* Table 3 of Johnson, "PDATS II: Improved Compression of Address Traces":
 * the first 29 references of the DLX `tex` trace, hand-copied from the
 * paper, and the PDATS and PDATS II records the table lists for them, as
 * bytes under the layouts of formats/PDATS.md and formats/PDATS2.md
 * (offsets little-endian; Table 3 prints values, e.g. -6f11 as 90ef). */
#ifndef TABLE3_H
#define TABLE3_H
#include <stdint.h>

static const struct { uint8_t type; uint32_t addr; } table3_refs[29] = {
	{2, 0x430d70}, {2, 0x430d74}, {2, 0x415130}, {0, 0x1000acac}, {2, 0x415134},
	{2, 0x415138}, {2, 0x41513c}, {2, 0x415140}, {2, 0x430c20}, {2, 0x430c24},
	{1, 0x7fff00ac}, {2, 0x430c28}, {1, 0x7fff00a8}, {2, 0x430c2c}, {1, 0x7fff00a4},
	{2, 0x430c30}, {1, 0x7fff009c}, {2, 0x430c34}, {1, 0x7fff00a0}, {2, 0x430c38},
	{1, 0x7fff0098}, {2, 0x430c3c}, {2, 0x430c40}, {2, 0x430c44}, {2, 0x430c48},
	{2, 0x430c4c}, {2, 0x430c50}, {2, 0x430c54}, {2, 0x430c58},
};

struct table3_rec {
	int row;        /* Table 3 row of the record's first reference */
	uint8_t n;      /* bytes ("Bytes Needed" column) */
	uint8_t b[6];
};

/* PDATS column: type, offset, repeat (46 bytes). */
static const struct table3_rec table3_pdats[] = {
	{1, 5, {0x62, 0x70, 0x0d, 0x43, 0x00}}, /* 2 430d70 rep 0 */
	{2, 1, {0x02}},                         /* 2 +4 */
	{3, 5, {0x62, 0xbc, 0x43, 0xfe, 0xff}}, /* 2 -1bc44 */
	{4, 5, {0x60, 0xac, 0xac, 0x00, 0x10}}, /* 0 1000acac */
	{5, 2, {0x82, 0x03}},                   /* 2 +4 rep 3 */
	{9, 5, {0x62, 0xe0, 0xba, 0x01, 0x00}}, /* 2 1bae0 */
	{10, 1, {0x02}},
	{11, 5, {0x61, 0xac, 0x00, 0xff, 0x7f}}, /* 1 7fff00ac */
	{12, 1, {0x02}},
	{13, 2, {0x21, 0xfc}}, /* 1 -4 */
	{14, 1, {0x02}},
	{15, 2, {0x21, 0xfc}},
	{16, 1, {0x02}},
	{17, 2, {0x21, 0xf8}}, /* 1 -8 */
	{18, 1, {0x02}},
	{19, 2, {0x21, 0x04}}, /* 1 +4: two bytes in the paper */
	{20, 1, {0x02}},
	{21, 2, {0x21, 0xf8}},
	{22, 2, {0x82, 0x07}}, /* 2 +4 rep 7 */
};

/* PDATS II column: type, zone, offset, count (28 bytes). */
static const struct table3_rec table3_pdats2[] = {
	{1, 5, {0x61, 0x5c, 0xc3, 0x10, 0x00}}, /* I 10c35c count 1 */
	{3, 3, {0x40, 0xef, 0x90}},             /* I -6f11 count 0 */
	{4, 5, {0xbb, 0xac, 0xac, 0x00, 0x10}}, /* R zone 0 1000acac count 3 */
	{8, 1, {0x00}},                         /* I +1 count 0 */
	{9, 3, {0x41, 0xb8, 0x6e}},             /* I 6eb8 count 1 */
	{11, 5, {0xfd, 0xac, 0x00, 0xff, 0x7f}}, /* W zone 1 7fff00ac count 1 */
	{13, 1, {0xd5}},                        /* W zone 1 -4 count 1 */
	{15, 1, {0xd5}},
	{17, 1, {0xe5}}, /* W zone 1 -8 count 1 */
	{19, 1, {0xcd}}, /* W zone 1 +4 count 1 */
	{21, 1, {0xe7}}, /* W zone 1 -8 count 3 */
	{25, 1, {0x04}}, /* I +1 count 4 */
};

/* PDATS II version 2, fixed stride 4 (PDATS2.md, "Version 2"), worked by
 * hand from the same 29 references (30 bytes).  It differs from version 1
 * only where the trace starts: row 1's jump from address 0 needs more than
 * 2 bytes of offset, which version 2 writes as an escape with the address
 * (a record with no count), so row 2 takes a record of its own.  Rows 5-7
 * are the data record's count 3 (no run is known yet at 415130); row 8's
 * run then ends at row 9, and the run table learns 4 for 415130. */
static const struct table3_rec table3_pdats2_v2[] = {
	{1, 6, {0x22, 0x00, 0x70, 0x0d, 0x43, 0x00}}, /* escape kind 2 (0x20 | 2, then 00), address 00430d70 */
	{2, 1, {0x00}},                         /* I next, count 0 */
	{3, 3, {0x40, 0xef, 0x90}},             /* I -6f11 count 0 */
	{4, 5, {0xbb, 0xac, 0xac, 0x00, 0x10}}, /* R zone 0 1000acac count 3 */
	{8, 1, {0x00}},                         /* I next count 0 */
	{9, 3, {0x41, 0xb8, 0x6e}},             /* I 6eb8 count 1 */
	{11, 5, {0xfd, 0xac, 0x00, 0xff, 0x7f}}, /* W zone 1 7fff00ac count 1 */
	{13, 1, {0xd5}},                        /* W zone 1 -4 count 1 */
	{15, 1, {0xd5}},
	{17, 1, {0xe5}}, /* W zone 1 -8 count 1 */
	{19, 1, {0xcd}}, /* W zone 1 +4 count 1 */
	{21, 1, {0xe7}}, /* W zone 1 -8 count 3 */
	{25, 1, {0x04}}, /* I next count 4 */
};

/* A Thumb-2 loop for version 2's size, successor and run predictions,
 * worked by hand (PDATS2.md, "Version 2"; PDATS.md, "Version 2"): four
 * iterations of
 *   100: 16-bit load (reads 2000, 2004, 2008, 200c)
 *   102: 32-bit    106: 16-bit    108: 32-bit
 *   10c: 32-bit branch back to 100, then falls through to 110. */
static const struct { uint8_t type; uint32_t addr; } thumb_loop_refs[25] = {
	{2, 0x100}, {0, 0x2000}, {2, 0x102}, {2, 0x106}, {2, 0x108}, {2, 0x10c},
	{2, 0x100}, {0, 0x2004}, {2, 0x102}, {2, 0x106}, {2, 0x108}, {2, 0x10c},
	{2, 0x100}, {0, 0x2008}, {2, 0x102}, {2, 0x106}, {2, 0x108}, {2, 0x10c},
	{2, 0x100}, {0, 0x200c}, {2, 0x102}, {2, 0x106}, {2, 0x108}, {2, 0x10c},
	{2, 0x110},
};

/* PDATS II version 2 of the loop from a writer begun with stride 4 and one
 * size (20 bytes for 25 references).  Row: the reference (1-based). */
static const struct table3_rec thumb_loop_pdats2[] = {
	{1, 2, {0x20, 0x40}},       /* I +40 strides of 4 (from 0), count 0 */
	{2, 3, {0xb0, 0x00, 0x20}}, /* R zone 0 +2000, count 0: 102 is not 104, the next at stride 4 */
	{3, 3, {0x27, 0x00, 0x82}}, /* escape kind 7: mode stride 2, two sizes; tables cleared */
	{3, 1, {0x00}},             /* I next: 100 + 2 (unknown size: the last learned, 2) */
	{4, 1, {0x60}},             /* I other: 106, 102 being of the other size, 4 */
	{5, 1, {0x60}},             /* I other: 108 (the last size was 4, 106 is 2) */
	{6, 1, {0x60}},             /* I other: 10c */
	{7, 2, {0x20, 0xfa}},       /* I -6 strides: 100; 10c's target is now 100, taken */
	{8, 1, {0x8b}},             /* R zone 0 +4, count 3: 102 106 108 (sizes known) */
	{12, 1, {0x01}},            /* I next, count 1: 10c, then 100 (10c's predicted successor) */
	{14, 1, {0x8b}},            /* R +4, count 3 = 100's learned run, 5: 102 106 108 10c 100 */
	{20, 1, {0x8a}},            /* R +4, count 2: the run is 4, short of the 5 predicted */
	{23, 1, {0x01}},            /* I next, count 1: 108 10c */
	{25, 1, {0x60}},            /* I other: 110, 10c's next instruction (taken last time) */
};

/* PDATS version 2 of the loop from a writer begun with one size (34
 * bytes): the mode record at the first halfword step, then "+4" is the
 * next instruction of either size once the sizes are learned. */
static const struct table3_rec thumb_loop_pdats[] = {
	{1, 3, {0x42, 0x00, 0x01}}, /* I +100 */
	{2, 3, {0x40, 0x00, 0x20}}, /* R +2000 */
	{3, 2, {0x27, 0x01}},       /* mode: instructions of two sizes */
	{3, 2, {0x22, 0x02}},       /* I +2 (the size of 100 was unknown: guessed 4) */
	{4, 2, {0x22, 0x04}},       /* I +4 */
	{5, 2, {0x22, 0x02}},
	{6, 2, {0x22, 0x04}},
	{7, 2, {0x22, 0xf4}},       /* I -c */
	{8, 2, {0x20, 0x04}},       /* R +4 */
	{9, 2, {0x82, 0x03}},       /* I next, repeated 3 more times */
	{13, 2, {0x22, 0xf4}},
	{14, 2, {0x20, 0x04}},
	{15, 2, {0x82, 0x03}},
	{19, 2, {0x22, 0xf4}},
	{20, 2, {0x20, 0x04}},
	{21, 2, {0x82, 0x04}},      /* I next x5: 102 106 108 10c 110 */
};

/* PDATS II version 3 of the same loop (PDATS2.md, "Version 3"), worked by
 * hand.  Version 3 differs from version 2 only where an instruction is
 * followed for the first time in size mode V = 1: the fetch after it first
 * carries the instruction's size as a size bit (0 = S, 1 = 2S; after a
 * jump the guess L), so the cold sizes that version 2 wrote as "other"
 * records become successors.  Size bits go LSB first into a size byte
 * written after the record whose fetch first needs a bit, and later bits
 * fill it while fewer than 16 records have begun after it.
 *
 * (a) From a writer begun with stride 4 and one size, as `citcat convert`
 * from a din (18 bytes for 25 references).  Records are numbered as the
 * decoder begins them.  After the mode record (#3) every table is empty:
 *   fetch 102 after 100: size unknown, step 2 = S     bit 0; cc = 0 record #4
 *     opens, and its size byte SB after it (bit 0 of SB)
 *   fetch 106 after 102: step 4 = 2S                  bit 1 (SB bit 1); #4 count 1
 *   fetch 108 after 106: step 2                       bit 0 (SB bit 2); #4 count 2
 *   fetch 10c after 108: step 4                       bit 1 (SB bit 3); #4 count 3
 *   fetch 100 after 10c: a jump: L's bit (L = 4)      bit 1 (SB bit 4), a fetch of
 *     record #5 (-6 strides; neither 10c + 4 nor the other size's 10e):
 *     SB carries bits of records 4 and 5; 1 bit of SB was free before #5
 *   SB = 0b00011010 = 1a.  Every size is known from here on, and the rest
 *   is version 2's: the data runs 3, then 5 learned, then the last run, 4,
 *   settles as count 2 plus a cc = 0 record of 2 fetches (108 10c). */
static const struct table3_rec thumb_loop_pdats2_v3[] = {
	{1, 2, {0x20, 0x40}},       /* I +40 strides of 4 (from 0), count 0 */
	{2, 3, {0xb0, 0x00, 0x20}}, /* R zone 0 +2000, count 0 */
	{3, 3, {0x27, 0x00, 0x82}}, /* mode: stride 2, two sizes; tables cleared */
	{3, 2, {0x03, 0x1a}},       /* I next, count 3: 102 106 108 10c; size byte 1a */
	{7, 2, {0x20, 0xfa}},       /* I -6 strides: 100 (its size bit in 1a) */
	{8, 1, {0x8b}},             /* R zone 0 +4, count 3 (no run known): 102 106 108 */
	{12, 1, {0x01}},            /* I next, count 1: 10c, 100 */
	{14, 1, {0x8b}},            /* R +4, count 3 = the learned run, 5 */
	{20, 1, {0x8a}},            /* R +4, count 2: the run is 4, short of 5 ... */
	{23, 1, {0x01}},            /* ... and a cc = 0 record: 108 10c */
	{25, 1, {0x60}},            /* I other: 110 */
};

/* (b) From a writer begun with stride 2 and two sizes (istride 2, isizes
 * 1: a Thumb writer; 16 bytes).  Size bits from the very first fetch:
 *   fetch 100 after 0 (ilast's start): a jump, L = 2       bit 0; record #1 is
 *     +80 strides (2 bytes: 128 > 127); SB opens after it (bit 0)
 *   data 2000, record #2: count waits, predicted 3 (no run known)
 *   fetches 102 106 108 after 100 102 106: bits 0 1 0, the data record's
 *     fetches 1-3: count 3, bits 1-3 of SB (placed once the count is known)
 *   fetch 10c after 108: step 4, bit 1, cc = 0 record #3 (SB bit 4)
 *   fetch 100 after 10c: a jump, L = 4, bit 1, record #4 -6 strides (SB bit 5)
 *   SB = 0b00110100 = 34: bits of records 1, 2, 3 and 4.
 * The first run after the load is 4 (102 106 108 10c; the jump to 100 ends
 * it), so the next data record's count 3 means 4 and 100 follows as a cc
 * = 0 record; that run is 5; the last, 4, settles as count 2 plus a cc = 0
 * record of 2 fetches. */
static const struct table3_rec thumb_loop_pdats2_v3t[] = {
	{1, 4, {0x40, 0x80, 0x00, 0x34}}, /* I +80 strides, count 0; size byte 34 */
	{2, 3, {0xb3, 0x00, 0x20}},       /* R zone 0 +2000, count 3: 102 106 108 */
	{6, 1, {0x00}},                   /* I next: 10c */
	{7, 2, {0x20, 0xfa}},             /* I -6 strides: 100 */
	{8, 1, {0x8b}},                   /* R +4, count 3 = run 4: 102 106 108 10c */
	{13, 1, {0x00}},                  /* I next: 100 (10c's learned target) */
	{14, 1, {0x8b}},                  /* R +4, count 3 = run 5 */
	{20, 1, {0x8a}},                  /* R +4, count 2: the run is 4 ... */
	{23, 1, {0x01}},                  /* ... and a cc = 0 record: 108 10c */
	{25, 1, {0x60}},                  /* I other: 110 */
};

#endif
