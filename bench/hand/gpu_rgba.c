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

/* One output row: the channels stay interleaved (a pixel's left neighbour is 4 bytes
 * back), so the loop runs over all 4 * width bytes at once and vectorises; the alpha
 * bytes and the two edge pixels are fixed after. */
static void sobel_row(const uint8_t *restrict r0, const uint8_t *restrict r1,
                      const uint8_t *restrict r2, uint8_t *restrict out, int width)
{
    const int n = 4 * width;
    #pragma omp simd
    for (int i = 4; i < n - 4; i++) {
        const float gx = (float)(-r0[i - 4] + r0[i + 4] + 2 * (r1[i + 4] - r1[i - 4])
                                 - r2[i - 4] + r2[i + 4]) * (1.0f / 255.0f);
        const float gy = (float)(-r0[i - 4] - r0[i + 4] + 2 * (r2[i] - r0[i])
                                 + r2[i - 4] + r2[i + 4]) * (1.0f / 255.0f);
        out[i] = unorm8(sqrtf(gx * gx + gy * gy));
    }
    for (int x = 0; x < width; x += width > 1 ? width - 1 : 1) {   /* the edge pixels */
        const int l = 4 * (x > 0 ? x - 1 : 0), m = 4 * x, r = 4 * (x + 1 < width ? x + 1 : x);
        for (int c = 0; c < 3; c++) {
            const float gx = (float)(-r0[l + c] + r0[r + c] + 2 * (r1[r + c] - r1[l + c])
                                     - r2[l + c] + r2[r + c]) * (1.0f / 255.0f);
            const float gy = (float)(-r0[l + c] - r0[r + c] + 2 * (r2[m + c] - r0[m + c])
                                     + r2[l + c] + r2[r + c]) * (1.0f / 255.0f);
            out[m + c] = unorm8(sqrtf(gx * gx + gy * gy));
        }
    }
    for (int x = 0; x < width; x++)
        out[4 * x + 3] = 255;
}

void hand_sobel_rgba8(const uint8_t *restrict src, uint8_t *restrict dst, int width,
                      int height)
{
    const long stride = 4L * width;
    #pragma omp parallel for schedule(static)
    for (int y = 0; y < height; y++) {
        const int up = y > 0 ? y - 1 : 0, down = y + 1 < height ? y + 1 : height - 1;
        sobel_row(src + up * stride, src + y * stride, src + down * stride,
                  dst + y * stride, width);
    }
}
