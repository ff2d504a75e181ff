/* kernels/gpu/kmeans.cl by hand, on the same column-major features: a block of
 * points at a time, the point loop innermost so that each feature's row is read
 * contiguously and the distances vectorise. */
#include <float.h>
#include "hand.h"

#define BLOCK 256

void hand_kmeans(const float *restrict features, const float *restrict clusters,
                 int *restrict membership, int npoints, int nclusters, int nfeatures)
{
    #pragma omp parallel for schedule(static)
    for (int p0 = 0; p0 < npoints; p0 += BLOCK) {
        const int len = npoints - p0 < BLOCK ? npoints - p0 : BLOCK;
        float best_dist[BLOCK], dist[BLOCK];
        int best[BLOCK];
        for (int p = 0; p < len; p++) {
            best_dist[p] = FLT_MAX;
            best[p] = 0;
        }
        for (int c = 0; c < nclusters; c++) {
            for (int p = 0; p < len; p++)
                dist[p] = 0.0f;
            for (int f = 0; f < nfeatures; f++) {
                const float *row = features + (long)f * npoints + p0;
                const float centre = clusters[c * nfeatures + f];
                #pragma omp simd
                for (int p = 0; p < len; p++) {
                    const float d = row[p] - centre;
                    dist[p] += d * d;
                }
            }
            for (int p = 0; p < len; p++)
                if (dist[p] < best_dist[p]) {
                    best_dist[p] = dist[p];
                    best[p] = c;
                }
        }
        for (int p = 0; p < len; p++)
            membership[p0 + p] = best[p];
    }
}
