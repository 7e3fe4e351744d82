/*
 * qsort - quicksort of entropy-seeded data, checked against heapsort.
 *
 * Exercises: a working set (two 32 KiB arrays) larger than the 16 KiB
 * D-cache, so the sort produces dirty write-backs as well as fills;
 * recursion (stack traffic); entropy reads for the seed.
 *
 * Self-check: the quicksorted array is non-decreasing, has the same
 * multiset checksums (sum, xor, sum of squares) as the input, and equals
 * the heapsorted copy element by element.  The values themselves come from
 * a generator seeded by the entropy register, so nothing is assumed about
 * them.
 *
 * -DSCALE=n sorts n times 8192 elements (default: about 3 million
 * instructions).
 */
#include <stdint.h>
#include <stdio.h>

#include "citcat_target.h"

#ifndef SCALE
#define SCALE 1
#endif

#define N (8192u * (SCALE))

static uint32_t a[N], b[N];

static uint32_t xorshift(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

static void swap(uint32_t *x, uint32_t *y)
{
    uint32_t t = *x;
    *x = *y;
    *y = t;
}

/* Hoare partition around the median of three; recurse on the smaller side
 * so the stack depth stays logarithmic. */
static void quicksort(uint32_t *v, int lo, int hi)
{
    while (hi - lo > 16) {
        int mid = lo + (hi - lo) / 2;
        if (v[mid] < v[lo]) swap(&v[mid], &v[lo]);
        if (v[hi] < v[lo]) swap(&v[hi], &v[lo]);
        if (v[hi] < v[mid]) swap(&v[hi], &v[mid]);
        uint32_t pivot = v[mid];
        int i = lo - 1, j = hi + 1;
        for (;;) {
            do i++; while (v[i] < pivot);
            do j--; while (v[j] > pivot);
            if (i >= j)
                break;
            swap(&v[i], &v[j]);
        }
        if (j - lo < hi - j) {
            quicksort(v, lo, j);
            lo = j + 1;
        } else {
            quicksort(v, j + 1, hi);
            hi = j;
        }
    }
    for (int i = lo + 1; i <= hi; i++) { /* insertion sort for short runs */
        uint32_t x = v[i];
        int j = i - 1;
        while (j >= lo && v[j] > x) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
}

static void sift_down(uint32_t *v, uint32_t root, uint32_t n)
{
    for (;;) {
        uint32_t c = 2 * root + 1;
        if (c >= n)
            return;
        if (c + 1 < n && v[c + 1] > v[c])
            c++;
        if (v[root] >= v[c])
            return;
        swap(&v[root], &v[c]);
        root = c;
    }
}

static void heapsort(uint32_t *v, uint32_t n)
{
    for (uint32_t i = n / 2; i-- > 0;)
        sift_down(v, i, n);
    for (uint32_t i = n; i-- > 1;) {
        swap(&v[0], &v[i]);
        sift_down(v, 0, i);
    }
}

struct sums { uint32_t sum, xor, sq; };

static struct sums checksums(const uint32_t *v, uint32_t n)
{
    struct sums s = {0, 0, 0};
    for (uint32_t i = 0; i < n; i++) {
        s.sum += v[i];
        s.xor ^= v[i];
        s.sq += v[i] * v[i];
    }
    return s;
}

int main(void)
{
    uint32_t seed = citcat_random() | 1u; /* xorshift needs a non-zero state */
    int failed = 0;

    for (uint32_t i = 0; i < N; i++) {
        /* a narrow range in part of the array, so there are duplicates */
        uint32_t x = xorshift(&seed);
        a[i] = b[i] = (i & 3) ? x : x & 0xFFu;
    }
    struct sums before = checksums(a, N);

    quicksort(a, 0, (int)N - 1);
    heapsort(b, N);

    for (uint32_t i = 1; i < N; i++)
        if (a[i - 1] > a[i]) {
            printf("qsort: not sorted at %lu\n", (unsigned long)i);
            failed = 1;
            break;
        }
    struct sums after = checksums(a, N);
    if (after.sum != before.sum || after.xor != before.xor || after.sq != before.sq) {
        printf("qsort: checksums changed\n");
        failed = 1;
    }
    for (uint32_t i = 0; i < N; i++)
        if (a[i] != b[i]) {
            printf("qsort: quicksort and heapsort differ at %lu\n", (unsigned long)i);
            failed = 1;
            break;
        }
    printf("qsort: %lu elements min=%lu max=%lu sum=0x%08lx %s\n", (unsigned long)N,
           (unsigned long)a[0], (unsigned long)a[N - 1], (unsigned long)after.sum, failed ? "FAIL" : "OK");
    return failed;
}
