/* kernels/gpu/rowmajor.cl by hand: the rows in parallel, each row's columns in a
 * vectorised loop. */
#include "hand.h"

void hand_axpby_rows(float *restrict out, const float *restrict x, const float *restrict y,
                     float a, float b, int rows, int cols)
{
    #pragma omp parallel for schedule(static)
    for (int r = 0; r < rows; r++) {
        #pragma omp simd
        for (int c = 0; c < cols; c++)
            out[(size_t)r * cols + c] = a * x[(size_t)r * cols + c] + b * y[(size_t)r * cols + c];
    }
}
