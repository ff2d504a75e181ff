/* matmul.cl and tiled.cl by hand (both compute C = A*B, n x n, row-major): B is packed
 * into panels of NR columns, then each MR x NR block of C is summed over the whole k
 * range in registers (MR broadcasts of A, NR/8 loads of the panel, MR*NR/8 FMAs per k
 * on 8-wide vectors: the 32 accumulators fill AVX-512's 32 vector registers) and stored
 * once. 8 x 32 beat 4 x 64, 6 x 32 and 12 x 32 single-threaded here (and kern.c's
 * blocked i-k-j loop by 2-3x). Threads share out the (panel, row block) pairs,
 * panel-major, so a thread's panel stays in its L2. Where n is not a multiple of the
 * blocks, the last panel is padded with zero columns and the blocks at the edges keep
 * only their rows and columns inside C (at n = 528 a plain i-k-j loop instead was 3x
 * slower than cl2c). */
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

/* A block at the bottom or right edge: mr rows, nr columns of C. */
static void edge_block(const float *restrict A, const float *restrict panel,
                       float *restrict C, int n, int i0, int j0, int mr, int nr)
{
    float acc[MR][NR] __attribute__((aligned(64))) = {{0}};
    for (int k = 0; k < n; k++) {
        const float *restrict b = panel + (long)k * NR;
        for (int r = 0; r < mr; r++) {
            const float a = A[(long)(i0 + r) * n + k];
            #pragma omp simd
            for (int j = 0; j < NR; j++)
                acc[r][j] += a * b[j];
        }
    }
    for (int r = 0; r < mr; r++)
        for (int j = 0; j < nr; j++)
            C[(long)(i0 + r) * n + j0 + j] = acc[r][j];
}

void hand_matmul(const float *restrict A, const float *restrict B, float *restrict C, int n)
{
    const int panels = (n + NR - 1) / NR, rows = (n + MR - 1) / MR;
    float *packed = aligned_alloc(64, (size_t)panels * n * NR * sizeof(float));
    if (!packed)
        abort();
    #pragma omp parallel
    {
        #pragma omp for schedule(static)
        for (int p = 0; p < panels; p++) {
            const int width = n - p * NR < NR ? n - p * NR : NR;
            for (int k = 0; k < n; k++) {
                float *restrict dst = packed + ((long)p * n + k) * NR;
                #pragma omp simd
                for (int j = 0; j < NR; j++)
                    dst[j] = j < width ? B[(long)k * n + p * NR + j] : 0.0f;
            }
        }
        #pragma omp for collapse(2) schedule(static)
        for (int p = 0; p < panels; p++)
            for (int rb = 0; rb < rows; rb++) {
                const int i0 = rb * MR, j0 = p * NR;
                const float *panel = packed + (long)p * n * NR;
                if (i0 + MR <= n && j0 + NR <= n)
                    block(A, panel, C, n, i0, j0);
                else
                    edge_block(A, panel, C, n, i0, j0, n - i0 < MR ? n - i0 : MR,
                               n - j0 < NR ? n - j0 : NR);
            }
    }
    free(packed);
}
