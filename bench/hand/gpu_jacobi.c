/* kernels/gpu/tiled_stencil.cl by hand: no tiles (the caches hold the rows a thread
 * reuses), the boundary cells left as they are. */
#include "hand.h"

void hand_jacobi(const float *restrict in, float *restrict out, int nx, int ny)
{
    #pragma omp parallel for schedule(static)
    for (int y = 1; y < ny - 1; y++) {
        const float *up = in + (long)(y - 1) * nx, *mid = in + (long)y * nx,
                    *down = in + (long)(y + 1) * nx;
        float *o = out + (long)y * nx;
        #pragma omp simd
        for (int x = 1; x < nx - 1; x++)
            o[x] = 0.25f * (mid[x - 1] + mid[x + 1] + up[x] + down[x]);
    }
}
