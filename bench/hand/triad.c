/* triad.cl by hand: a = b + s*c (STREAM triad). The bench also uses it, on a large
 * array, as the machine's memory bandwidth; and for the 1,000-launch sequence. */
#include "hand.h"

void hand_triad(float *restrict a, const float *restrict b, const float *restrict c,
                float s, long n)
{
    #pragma omp parallel for simd schedule(static)
    for (long i = 0; i < n; i++)
        a[i] = b[i] + s * c[i];
}
