/* histogram.cl by hand: each thread counts its share of the bytes into private bins,
 * then adds them to the shared bins with atomics. Four interleaved sub-histograms
 * break the store-to-load chain when neighbouring bytes fall in the same bin.
 * bins is accumulated into, as the kernel does. */
#include "hand.h"

void hand_histogram(const unsigned char *restrict data, int n, unsigned *restrict bins)
{
    #pragma omp parallel
    {
        unsigned h[4][256] = {{0}};
        #pragma omp for schedule(static) nowait
        for (long i = 0; i < n / 4 * 4; i += 4) {
            h[0][data[i]]++;
            h[1][data[i + 1]]++;
            h[2][data[i + 2]]++;
            h[3][data[i + 3]]++;
        }
        #pragma omp single nowait
        for (long i = n / 4 * 4; i < n; i++)
            h[0][data[i]]++;
        for (int b = 0; b < 256; b++)
            __atomic_fetch_add(&bins[b], h[0][b] + h[1][b] + h[2][b] + h[3][b],
                               __ATOMIC_RELAXED);
    }
}
