/* SAXPY: y = alpha * x + y. The global size may be rounded up past n,
 * so every work-item checks that it has an element. */
__kernel void saxpy(const float alpha,
                    __global const float *x,
                    __global float *y,
                    const uint n)
{
    size_t i = get_global_id(0);
    if (i < n)
        y[i] = alpha * x[i] + y[i];
}
