/* matmul.cl and tiled.cl by hand (both compute C = A*B, n x n, row-major): B is packed
 * into panels of NR columns, then each MR x NR block of C is summed over the whole k
 * range in registers (MR broadcasts of A, NR/8 loads of the panel, MR*NR/8 FMAs per k
 * on 8-wide vectors: the 32 accumulators fill AVX-512's 32 vector registers) and stored
 * once. 8 x 32 beat 4 x 64, 6 x 32 and 12 x 32 single-threaded here (and kern.c's
 * blocked i-k-j loop by 2-3x). Threads share out the (panel, row block) pairs,
 * panel-major, so a thread's panel stays in its L2. Sizes not a multiple of the blocks
 * take a plain i-k-j loop. */
#include "hand.h"

enum { MR = 8, NR = 32 };

static void block(const float *restrict A, const float *restrict panel, float *restrict C,
                  int n, int i0, int j0)
{
    float acc[MR][NR] __attribute__((aligned(64))) = {{0}};
    for (int k = 0; k < n; k++) {
        const float *restrict b = panel + (long)k * NR;
        for (int r = 0; r < MR; r++) {
            const float a = A[(long)(i0 + r) * n + k];
            #pragma omp simd
            for (int j = 0; j < NR; j++)
                acc[r][j] += a * b[j];
        }
    }
    for (int r = 0; r < MR; r++)
        #pragma omp simd
        for (int j = 0; j < NR; j++)
            C[(long)(i0 + r) * n + j0 + j] = acc[r][j];
}

static void plain(const float *restrict A, const float *restrict B, float *restrict C, int n)
{
    #pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++) {
        float *restrict c = C + (long)i * n;
        for (int j = 0; j < n; j++)
            c[j] = 0.0f;
        for (int k = 0; k < n; k++) {
            const float a = A[(long)i * n + k];
            const float *restrict b = B + (long)k * n;
            #pragma omp simd
            for (int j = 0; j < n; j++)
                c[j] += a * b[j];
        }
    }
}

void hand_matmul(const float *restrict A, const float *restrict B, float *restrict C, int n)
{
    if (n % NR || n % MR) {
        plain(A, B, C, n);
        return;
    }
    const int panels = n / NR, rows = n / MR;
    float *packed = aligned_alloc(64, (size_t)n * n * sizeof(float));
    if (!packed)
        abort();
    #pragma omp parallel
    {
        #pragma omp for schedule(static)
        for (int p = 0; p < panels; p++)
            for (int k = 0; k < n; k++)
                #pragma omp simd
                for (int j = 0; j < NR; j++)
                    packed[((long)p * n + k) * NR + j] = B[(long)k * n + p * NR + j];
        #pragma omp for collapse(2) schedule(static)
        for (int p = 0; p < panels; p++)
            for (int rb = 0; rb < rows; rb++)
                block(A, packed + (long)p * n * NR, C, n, rb * MR, p * NR);
    }
    free(packed);
}
