/* reduce.cl by hand: the work-group of 256 items sums input[gid] + input[gid + gsize]
 * into output[group]; here each group's sum is one vectorised reduction over its 256
 * elements of each half (no local memory, no barriers). n: the input's length. */
#include "hand.h"

void hand_reduce(const float *restrict in, float *restrict out, long n)
{
    const long half = n / 2, groups = half / 256;
    #pragma omp parallel for schedule(static)
    for (long g = 0; g < groups; g++) {
        const float *restrict lo = in + g * 256, *restrict hi = in + half + g * 256;
        float s = 0.0f;
        #pragma omp simd reduction(+ : s)
        for (int j = 0; j < 256; j++)
            s += lo[j] + hi[j];
        out[g] = s;
    }
}
