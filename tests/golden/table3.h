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
	uint8_t b[5];
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

#endif
