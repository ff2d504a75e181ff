/* Kernels of the C host API tests: the second file linked into the program. */
#include "shared.h"

int helper(int v) { return v + (int)SCALE; }

/* A 2-D kernel with a __local scratch argument: out = in * factor + SCALE,
 * with the global offset applied. */
__kernel void grid(__global const int *in, __global int *out, __local int *scratch,
                   int width, int factor)
{
    size_t x = get_global_id(0), y = get_global_id(1);
    size_t l = get_local_id(1) * get_local_size(0) + get_local_id(0);
    scratch[l] = in[y * width + x] * factor;
    out[y * width + x] = helper(scratch[l]);
}

/* Reverses each work-group's slice through __local memory: a barrier, so a
 * work-group schedule other than plain loops. */
__kernel void group_reverse(__global const int *in, __global int *out, __local int *tmp)
{
    size_t l = get_local_id(0), n = get_local_size(0);
    tmp[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tmp[n - 1 - l];
}
