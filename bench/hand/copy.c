/* copy.cl by hand: dst[i] = src[i], one OpenMP-parallel vectorised loop. */
#include "hand.h"

void hand_copy(float *restrict dst, const float *restrict src, long n)
{
    #pragma omp parallel for simd schedule(static)
    for (long i = 0; i < n; i++)
        dst[i] = src[i];
}
