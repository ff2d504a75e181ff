/* The kernels of the cl2c_demo package, compiled into the extension module
 * cl2c_demo.kernels when its wheel builds (see setup.py). */

typedef struct {
    float scale;
    float offset;
} Affine;

/* y = a * x + y */
__kernel void saxpy(__global const float *x, __global float *y, const float a)
{
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}

/* Every component of v becomes scale * v + offset: a float4 buffer and a
 * struct passed by value. */
__kernel void affine4(__global float4 *v, const Affine t)
{
    size_t i = get_global_id(0);
    v[i] = t.scale * v[i] + t.offset;
}

/* out = in * k + the work-group size, through __local memory, over a 2-D
 * range whose first dimension is the row length. */
__kernel __attribute__((reqd_work_group_size(4, 2, 1)))
void scaled_grid(__global const int *in, __global int *out, __local int *tmp, const int k)
{
    size_t width = get_global_size(0);
    size_t i = get_global_id(1) * width + get_global_id(0);
    size_t l = get_local_id(1) * get_local_size(0) + get_local_id(0);
    tmp[l] = in[i] * k;
    out[i] = tmp[l] + (int)(get_local_size(0) * get_local_size(1));
}
