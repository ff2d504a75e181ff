__kernel void triad(__global float *a, __global const float *b,
                    __global const float *c, const float s)
{
    size_t i = get_global_id(0);
    a[i] = b[i] + s * c[i];
}
