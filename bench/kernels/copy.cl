// Copy: one load and one store per work-item, the plainest memory-bound kernel.
__kernel void copy(__global float *dst, __global const float *src)
{
    size_t i = get_global_id(0);
    dst[i] = src[i];
}
