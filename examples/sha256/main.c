/*
 * sha256 - SHA-256 (FIPS 180-4) over DMA-delivered input.
 *
 * Exercises: one large DMA transfer waited for by polling the STATUS
 * register (uncached reads), then a compute-heavy loop over the buffer: data
 * cache fills of the input, I-cache fills of the compression function.
 *
 * Self-check: the FIPS 180-4 test vectors "abc" and the 448-bit
 * "abcdbcdecdefdefg..." message; the digest of the DMA input computed in one
 * call must equal the digest computed by feeding it in uneven pieces (which
 * exercises the partial-block path).
 *
 * Build with -DSCALE=n for n times 16 KiB of input (default 1: about 1.5
 * million instructions).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "citcat_target.h"

#ifndef SCALE
#define SCALE 1
#endif

#define INPUT (16384u * (SCALE))

struct sha256 {
    uint32_t h[8];
    uint64_t len;
    uint8_t block[64];
    uint32_t used;
};

static const uint32_t k256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

static void compress(uint32_t h[8], const uint8_t *p)
{
    uint32_t w[64], a, b, c, d, e, f, g, hh;

    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = hh + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + k256[i] + w[i];
        uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
}

static void sha256_init(struct sha256 *s)
{
    static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(s->h, iv, sizeof iv);
    s->len = 0;
    s->used = 0;
}

static void sha256_update(struct sha256 *s, const uint8_t *p, uint32_t n)
{
    s->len += n;
    if (s->used) {
        uint32_t take = 64 - s->used < n ? 64 - s->used : n;
        memcpy(s->block + s->used, p, take);
        s->used += take, p += take, n -= take;
        if (s->used < 64)
            return;
        compress(s->h, s->block);
        s->used = 0;
    }
    for (; n >= 64; p += 64, n -= 64)
        compress(s->h, p);
    memcpy(s->block, p, n);
    s->used = n;
}

static void sha256_final(struct sha256 *s, uint8_t out[32])
{
    uint64_t bits = s->len * 8;
    uint8_t pad[72] = {0x80};
    uint32_t padlen = (s->used < 56 ? 56 : 120) - s->used;

    for (int i = 0; i < 8; i++)
        pad[padlen + i] = (uint8_t)(bits >> (56 - 8 * i));
    sha256_update(s, pad, padlen + 8);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 4; j++)
            out[4 * i + j] = (uint8_t)(s->h[i] >> (24 - 8 * j));
}

static void digest(const void *p, uint32_t n, uint8_t out[32])
{
    struct sha256 s;
    sha256_init(&s);
    sha256_update(&s, p, n);
    sha256_final(&s, out);
}

static void hex(char *dst, const uint8_t d[32])
{
    for (int i = 0; i < 32; i++)
        sprintf(dst + 2 * i, "%02x", d[i]);
}

static uint8_t input[INPUT] __attribute__((aligned(32)));

int main(void)
{
    static const char abc_hex[] = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    static const char msg448[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    static const char hex448[] = "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
    uint8_t d1[32], d2[32];
    char h[65];
    int failed = 0;

    digest("abc", 3, d1);
    hex(h, d1);
    if (strcmp(h, abc_hex) != 0) {
        printf("sha256: \"abc\" gives %s\n", h);
        failed = 1;
    }
    digest(msg448, sizeof msg448 - 1, d1);
    hex(h, d1);
    if (strcmp(h, hex448) != 0) {
        printf("sha256: 448-bit vector gives %s\n", h);
        failed = 1;
    }

    citcat_dma_start(input, INPUT, 0);
    uint32_t n = citcat_dma_wait(); /* polls STATUS until not busy */

    digest(input, n, d1);

    struct sha256 s;
    uint32_t off = 0, step = 1;
    sha256_init(&s);
    while (off < n) {
        uint32_t take = n - off < step ? n - off : step;
        sha256_update(&s, input + off, take);
        off += take;
        step = step * 3 + 7; /* 1, 10, 37, 118, ... uneven pieces */
        if (step > 4096)
            step = 5;
    }
    sha256_final(&s, d2);
    if (memcmp(d1, d2, 32) != 0) {
        printf("sha256: one-shot and piecewise digests differ\n");
        failed = 1;
    }
    hex(h, d1);
    printf("sha256: %lu bytes %s %s\n", (unsigned long)n, h, failed ? "FAIL" : "OK");
    return failed;
}
