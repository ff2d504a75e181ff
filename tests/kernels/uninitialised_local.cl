/* Kernels that read memory no work-item wrote, as PyOpenCL's segmented scan
 * (scan_lev1) reads the __local flags of the elements past the end of its data.
 * OpenCL leaves what such a read finds undefined; cl2c zeroes a launch's __local
 * memory, so that every build of a program computes the same (test_build_paths.py). */

/* How many of each group's elements are flagged, and the first of them (INT_MAX where
 * none is): the flags past n are read but never written. */
__kernel void count_flagged(__global const int *flags, int n, __global int *first,
                            __global int *count)
{
    __local char l_flags[64];
    __local int l_first[64];
    int lid = get_local_id(0);
    if (lid < n)
        l_flags[lid] = flags[get_global_id(0)] != 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    l_first[lid] = l_flags[lid] ? lid : INT_MAX;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0 && get_local_id(1) == 0) {
        int m = INT_MAX, c = 0;
        for (int i = 0; i < (int)get_local_size(0); i++) {
            m = min(m, l_first[i]);
            c += l_flags[i];
        }
        int g = get_group_id(1) * get_num_groups(0) + get_group_id(0);
        first[g] = m;
        count[g] = c;
    }
}

/* A private sum that only some work-items start from zero, kept across a barrier. */
__kernel void partly_started(__global const float *in, int n, __global float *out)
{
    float sum;
    int gid = get_global_id(0) + get_global_id(1) * get_global_size(0);
    if (get_local_id(0) < n)
        sum = 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    sum += in[gid];
    out[gid] = sum;
}
