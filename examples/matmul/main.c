/*
 * matmul - integer matrix multiply, checked by a second method.
 *
 * Exercises: strided access (the i-j-k order walks B by columns) over
 * matrices that together exceed the D-cache, so lines are evicted and
 * written back; a tight inner loop that lives in a few I-cache lines.
 *
 * Self-check: C = A*B in i-j-k order must equal the i-k-j (row-streaming)
 * product element by element, and Freivalds' check A*(B*x) == C*x must hold
 * for a random vector x.  Inputs come from a generator seeded by the entropy
 * register.
 *
 * -DN=n sets the dimension (default 48: about 2.5 million instructions;
 * matmul_long uses N=256, about 300 million).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "citcat_target.h"

#ifndef N
#define N 48
#endif

static int32_t A[N][N], B[N][N], C1[N][N], C2[N][N];

static uint32_t seed;

static int32_t rnd(void)
{
    seed ^= seed << 13;
    seed ^= seed >> 17;
    seed ^= seed << 5;
    return (int32_t)(seed % 201u) - 100; /* -100..100 */
}

int main(void)
{
    /* Freivalds' products overflow int32: compute them modulo 2^32. */
    static uint32_t x[N], bx[N], abx[N], cx[N];
    int failed = 0;

    seed = citcat_random() | 1u;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            A[i][j] = rnd();
            B[i][j] = rnd();
        }

    for (int i = 0; i < N; i++) /* i-j-k: dot products, B walked by column */
        for (int j = 0; j < N; j++) {
            int32_t s = 0;
            for (int k = 0; k < N; k++)
                s += A[i][k] * B[k][j];
            C1[i][j] = s;
        }

    memset(C2, 0, sizeof C2);
    for (int i = 0; i < N; i++) /* i-k-j: scaled rows of B accumulated */
        for (int k = 0; k < N; k++) {
            int32_t aik = A[i][k];
            for (int j = 0; j < N; j++)
                C2[i][j] += aik * B[k][j];
        }

    for (int i = 0; i < N && !failed; i++)
        for (int j = 0; j < N; j++)
            if (C1[i][j] != C2[i][j]) {
                printf("matmul: C[%d][%d] %ld != %ld\n", i, j, (long)C1[i][j], (long)C2[i][j]);
                failed = 1;
                break;
            }

    for (int i = 0; i < N; i++)
        x[i] = (uint32_t)rnd();
    for (int i = 0; i < N; i++) {
        uint32_t s = 0, t = 0;
        for (int k = 0; k < N; k++) {
            s += (uint32_t)B[i][k] * x[k];
            t += (uint32_t)C1[i][k] * x[k];
        }
        bx[i] = s;
        cx[i] = t;
    }
    for (int i = 0; i < N; i++) {
        uint32_t s = 0;
        for (int k = 0; k < N; k++)
            s += (uint32_t)A[i][k] * bx[k];
        abx[i] = s;
    }
    if (memcmp(abx, cx, sizeof cx) != 0) {
        printf("matmul: Freivalds check failed\n");
        failed = 1;
    }

    uint32_t trace = 0;
    for (int i = 0; i < N; i++)
        trace += (uint32_t)C1[i][i];
    printf("matmul: %dx%d trace=%ld %s\n", N, N, (long)(int32_t)trace, failed ? "FAIL" : "OK");
    return failed;
}
