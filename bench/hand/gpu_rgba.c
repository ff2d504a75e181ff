/* The Guide's image kernels by hand, on the 8-bit RGBA pixels themselves: the RGB
 * histogram (kernels/gpu/guide_histogram.cl: 3 x 256 bins, private per thread, then
 * added up) and the Sobel filter (guide_sobel.cl: edges clamped, float math, the
 * result rounded to 8 bits as write_imagef does; alpha 255). */
#include <stdint.h>
#include <string.h>
#include "hand.h"

void hand_rgba_histogram(const uint8_t *restrict img, int width, int height,
                         unsigned *restrict histogram)
{
    memset(histogram, 0, 3 * 256 * sizeof *histogram);
    const long n = (long)width * height;
    #pragma omp parallel
    {
        unsigned h[3][256] = {{0}};
        #pragma omp for schedule(static) nowait
        for (long i = 0; i < n; i++) {
            h[0][img[4 * i]]++;
            h[1][img[4 * i + 1]]++;
            h[2][img[4 * i + 2]]++;
        }
        for (int b = 0; b < 3 * 256; b++)
            if (h[b / 256][b % 256])
                __atomic_fetch_add(&histogram[b], h[b / 256][b % 256], __ATOMIC_RELAXED);
    }
}

static inline uint8_t unorm8(float v)
{
    v = v * 255.0f;
    return v <= 0.0f ? 0 : v >= 255.0f ? 255 : (uint8_t)nearbyintf(v);
}

void hand_sobel_rgba8(const uint8_t *restrict src, uint8_t *restrict dst, int width,
                      int height)
{
    #pragma omp parallel for schedule(static)
    for (int y = 0; y < height; y++) {
        const uint8_t *rows[3];
        for (int k = 0; k < 3; k++) {
            int yy = y + k - 1;
            yy = yy < 0 ? 0 : yy >= height ? height - 1 : yy;
            rows[k] = src + (long)yy * width * 4;
        }
        uint8_t *out = dst + (long)y * width * 4;
        for (int x = 0; x < width; x++) {
            const int xl = x > 0 ? x - 1 : 0, xr = x + 1 < width ? x + 1 : width - 1;
            for (int c = 0; c < 3; c++) {
                const float p00 = rows[0][4 * xl + c], p10 = rows[0][4 * x + c],
                            p20 = rows[0][4 * xr + c], p01 = rows[1][4 * xl + c],
                            p21 = rows[1][4 * xr + c], p02 = rows[2][4 * xl + c],
                            p12 = rows[2][4 * x + c], p22 = rows[2][4 * xr + c];
                const float gx = (-p00 + p20 + 2.0f * (p21 - p01) - p02 + p22) / 255.0f;
                const float gy = (-p00 - p20 + 2.0f * (p12 - p10) + p02 + p22) / 255.0f;
                out[4 * x + c] = unorm8(sqrtf(gx * gx + gy * gy));
            }
            out[4 * x + 3] = 255;
        }
    }
}
