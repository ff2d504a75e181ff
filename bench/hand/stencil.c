/* stencil.cl by hand: out = 0.25*(4 neighbours) - centre on the interior of an nx x ny
 * grid, row by row; the guard becomes the loop bounds, so the inner loop is plain and
 * vectorised. */
#include "hand.h"

void hand_stencil(const float *restrict in, float *restrict out, int nx, int ny)
{
    #pragma omp parallel for schedule(static)
    for (int y = 1; y < ny - 1; y++) {
        const float *restrict r = in + (long)y * nx, *restrict u = r - nx, *restrict d = r + nx;
        float *restrict o = out + (long)y * nx;
        #pragma omp simd
        for (int x = 1; x < nx - 1; x++)
            o[x] = 0.25f * (r[x - 1] + r[x + 1] + u[x] + d[x]) - r[x];
    }
}
