// y = a*x + y, float and integer flavours.
__kernel void saxpy(const float a, __global const float *x, __global float *y)
{
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}

__kernel void isaxpy(const int a, __global const int *x, __global int *y)
{
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}

// unsigned flavour: wraps modulo 2^32 by definition
__kernel void usaxpy(uint a, __global const uint *x, __global uint *y)
{
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}
