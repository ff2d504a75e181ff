/* kernels/gpu/wavefront.cl by hand: the same anti-diagonals, in one parallel region,
 * each diagonal shared among the threads (the `for`'s barrier between diagonals). */
#include "hand.h"

static inline int max3(int a, int b, int c)
{
    int m = a > b ? a : b;
    return m > c ? m : c;
}

void hand_nw(int *restrict score, const int *restrict similarity, int n, int penalty)
{
    const int w = n + 1;
    #pragma omp parallel
    for (int d = 0; d < 2 * n - 1; d++) {
        const int first = d < n ? 1 : d - n + 2, last = d < n ? d + 1 : n;
        #pragma omp for schedule(static)
        for (int i = first; i <= last; i++) {
            const int j = d + 2 - i;
            score[i * w + j] = max3(score[(i - 1) * w + j - 1] + similarity[(i - 1) * n + j - 1],
                                    score[(i - 1) * w + j] - penalty,
                                    score[i * w + j - 1] - penalty);
        }
    }
}
