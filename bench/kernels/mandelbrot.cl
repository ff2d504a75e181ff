// Mandelbrot escape counts, one pixel per work-item: the loop's trip count depends on
// the data, so neighbouring work-items diverge (a few iterations to max_iter).
__kernel void mandelbrot(__global uint *out, float x0, float y0, float dx, float dy,
                         int width, uint max_iter)
{
    int px = get_global_id(0), py = get_global_id(1);
    float cr = x0 + px * dx, ci = y0 + py * dy;
    float zr = 0.0f, zi = 0.0f;
    uint it = 0;
    while (it < max_iter && zr * zr + zi * zi <= 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        it++;
    }
    out[py * width + px] = it;
}
