/* Mandelbrot set: for each pixel, the number of iterations of z = z*z + c
 * before |z| > 2, at most max_iter. The image covers [x0, x0 + width*step)
 * by [y0, y0 + height*step). */
__kernel void mandelbrot(__global int *out,
                         const int width, const int height,
                         const float x0, const float y0, const float step,
                         const int max_iter)
{
    int px = get_global_id(0);
    int py = get_global_id(1);
    if (px >= width || py >= height)
        return;

    float cr = x0 + px * step;
    float ci = y0 + py * step;
    float zr = 0.0f, zi = 0.0f;
    int n = 0;
    while (n < max_iter && zr * zr + zi * zi <= 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        ++n;
    }
    out[py * width + px] = n;
}
