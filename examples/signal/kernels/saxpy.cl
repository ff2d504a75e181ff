/* SAXPY: y = a * x + y, one work-item per element. */
__kernel void saxpy(__global const float *x, __global float *y, const float a)
{
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}
