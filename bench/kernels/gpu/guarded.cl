/* GPU style: the host launches a fixed, generous grid (here 32 times the work) and
 * every work-item past the end goes home at the guard. */
__kernel void guarded_axpb(__global float *out, __global const float *x,
                           __global const float *b, const float a, const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    out[i] = a * x[i] + b[i];
}
