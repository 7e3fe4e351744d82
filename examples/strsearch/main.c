/*
 * strsearch - substring search, Knuth-Morris-Pratt against the naive scan.
 *
 * Exercises: byte loads streaming through an 8 KiB text (D-cache fills
 * with little reuse), many short data-dependent branches (the naive scan
 * on a small alphabet has many partial matches), a small failure table.
 *
 * Self-check: for every pattern the KMP count and positions checksum equal
 * the naive scan's; a fixed text with a known count checks both against a
 * truth.  The text comes from a generator seeded by the entropy register.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "citcat_target.h"

#ifndef SCALE
#define SCALE 1
#endif

#define TEXT (8192u * (SCALE))
#define MAXPAT 32

static char text[TEXT + 1];

struct result { uint32_t count, possum; };

static struct result naive(const char *t, uint32_t n, const char *p, uint32_t m)
{
    struct result r = {0, 0};
    for (uint32_t i = 0; i + m <= n; i++) {
        uint32_t j = 0;
        while (j < m && t[i + j] == p[j])
            j++;
        if (j == m) {
            r.count++;
            r.possum += i;
        }
    }
    return r;
}

static struct result kmp(const char *t, uint32_t n, const char *p, uint32_t m)
{
    int32_t fail[MAXPAT + 1];
    struct result r = {0, 0};

    /* fail[i]: length of the longest proper border of p[0..i), -1 for i = 0 */
    int32_t k = -1;
    fail[0] = -1;
    for (uint32_t i = 0; i < m; i++) {
        while (k >= 0 && p[k] != p[i])
            k = fail[k];
        fail[i + 1] = ++k;
    }
    /* standard KMP scan */
    int32_t j = 0;
    for (uint32_t i = 0; i < n; i++) {
        while (j >= 0 && t[i] != p[j])
            j = fail[j];
        j++;
        if ((uint32_t)j == m) {
            r.count++;
            r.possum += i + 1 - m;
            j = fail[m];
        }
    }
    return r;
}

int main(void)
{
    static const char *const fixed_pats[] = {"a", "ab", "abab", "aab", "abcab", "bbbb", "cab", "ababcabab"};
    static const char fixed[] = "abababcababbbbbaababcababcabababab";
    int failed = 0;
    uint32_t seed = citcat_random() | 1u;

    /* truth: "abab" occurs 8 times (overlaps counted) in the fixed text */
    struct result t1 = naive(fixed, sizeof fixed - 1, "abab", 4);
    struct result t2 = kmp(fixed, sizeof fixed - 1, "abab", 4);
    if (t1.count != 8 || t2.count != 8) {
        printf("strsearch: fixed text: naive %lu kmp %lu, want 8\n", (unsigned long)t1.count,
               (unsigned long)t2.count);
        failed = 1;
    }

    for (uint32_t i = 0; i < TEXT; i++) { /* alphabet {a,b,c}, biased to 'a' */
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        uint32_t r = seed % 8u;
        text[i] = r < 4 ? 'a' : r < 7 ? 'b' : 'c';
    }

    uint32_t total = 0;
    for (unsigned k = 0; k < sizeof fixed_pats / sizeof fixed_pats[0]; k++) {
        const char *p = fixed_pats[k];
        uint32_t m = (uint32_t)strlen(p);
        struct result rn = naive(text, TEXT, p, m);
        struct result rk = kmp(text, TEXT, p, m);
        if (rn.count != rk.count || rn.possum != rk.possum) {
            printf("strsearch: \"%s\": naive %lu kmp %lu\n", p, (unsigned long)rn.count, (unsigned long)rk.count);
            failed = 1;
        }
        total += rk.count;
    }
    /* a pattern cut from the text occurs at least once */
    char cut[MAXPAT + 1];
    memcpy(cut, text + TEXT / 2, 12);
    cut[12] = 0;
    struct result rn = naive(text, TEXT, cut, 12), rk = kmp(text, TEXT, cut, 12);
    if (rk.count == 0 || rn.count != rk.count || rn.possum != rk.possum) {
        printf("strsearch: cut pattern: naive %lu kmp %lu\n", (unsigned long)rn.count, (unsigned long)rk.count);
        failed = 1;
    }
    printf("strsearch: %lu bytes, %lu matches %s\n", (unsigned long)TEXT, (unsigned long)total,
           failed ? "FAIL" : "OK");
    return failed;
}
