/* kernels/gpu/wavefront.cl by hand, the way CPU code tiles a wavefront: blocks of
 * BLOCK x BLOCK cells, each filled row by row by one thread; the anti-diagonals of
 * blocks shared among the threads of one parallel region (the `for`'s barrier between
 * them). Row by row inside a block is the same recurrence in another valid order. */
#include "hand.h"

static inline int max3(int a, int b, int c)
{
    int m = a > b ? a : b;
    return m > c ? m : c;
}

#define BLOCK 64

void hand_nw(int *restrict score, const int *restrict similarity, int n, int penalty)
{
    const int w = n + 1, blocks = (n + BLOCK - 1) / BLOCK;
    #pragma omp parallel
    for (int d = 0; d < 2 * blocks - 1; d++) {
        const int first = d < blocks ? 0 : d - blocks + 1, last = d < blocks ? d : blocks - 1;
        #pragma omp for schedule(static)
        for (int bi = first; bi <= last; bi++) {
            const int bj = d - bi;
            const int i_end = (bi + 1) * BLOCK < n ? (bi + 1) * BLOCK : n;
            const int j_end = (bj + 1) * BLOCK < n ? (bj + 1) * BLOCK : n;
            for (int i = bi * BLOCK + 1; i <= i_end; i++)
                for (int j = bj * BLOCK + 1; j <= j_end; j++)
                    score[i * w + j] = max3(score[(i - 1) * w + j - 1]
                                            + similarity[(i - 1) * n + j - 1],
                                            score[(i - 1) * w + j] - penalty,
                                            score[i * w + j - 1] - penalty);
        }
    }
}
