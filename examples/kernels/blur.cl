/* 1-D three-point blur: out[i] = (in[i-1] + in[i] + in[i+1]) / 3, where a
 * neighbour past either end counts as a copy of the edge element. */
__kernel void blur3(__global const float *in,
                    __global float *out,
                    const int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;

    float left  = (i > 0)     ? in[i - 1] : in[i];
    float right = (i < n - 1) ? in[i + 1] : in[i];
    out[i] = (left + in[i] + right) / 3.0f;
}
