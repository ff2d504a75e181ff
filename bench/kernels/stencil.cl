__kernel void stencil(__global const float *in, __global float *out,
                      const int nx, const int ny)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    if (x > 0 && x < nx - 1 && y > 0 && y < ny - 1) {
        int i = y * nx + x;
        out[i] = 0.25f * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx]) - in[i];
    }
}
