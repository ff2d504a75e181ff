/* Kernels of the C host API tests: one of the two files linked into one program.
 * helper() has the same name in offsets.cl: generated files must not clash. */
#include "shared.h"

float helper(float v) { return v * SCALE; }

/* y = a * x + b, scaled by SCALE (shared.h). */
__kernel void axpb(__global const float *x, __global float *y, const float a, float b)
{
    size_t i = get_global_id(0);
    y[i] = helper(a * x[i] + b);
}

/* Each work-item writes its local id: shows the work-group size used. */
__kernel __attribute__((reqd_work_group_size(8, 1, 1)))
void fixed_group(__global int *out)
{
    out[get_global_id(0)] = (int)get_local_id(0);
}

/* Reads x 64 bytes at a time, through a float16 *: at offset 0 of an OpenCL buffer,
 * which starts at a 128-byte boundary. */
__kernel void ends16(__global const float *x, __global float *out)
{
    size_t i = get_global_id(0);
    float16 v = ((__global const float16 *)x)[i];
    out[i] = v.s0 + v.sf;
}
