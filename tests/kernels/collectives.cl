// OpenCL C 2.0 work-group functions (build with -cl-std=CL2.0).
__kernel void collectives(__global const int *in, __global int *out, __global float *fout,
                          __global const float *fin)
{
    size_t gid = get_global_id(0);
    size_t n = get_global_size(0);
    int x = in[gid];
    out[0 * n + gid] = work_group_reduce_add(x);
    out[1 * n + gid] = work_group_reduce_min(x);
    out[2 * n + gid] = work_group_reduce_max(x);
    out[3 * n + gid] = work_group_scan_inclusive_add(x);
    out[4 * n + gid] = work_group_scan_exclusive_add(x);
    out[5 * n + gid] = work_group_scan_inclusive_max(x);
    out[6 * n + gid] = work_group_scan_exclusive_min(x);
    out[7 * n + gid] = work_group_broadcast(x, 3);
    out[8 * n + gid] = work_group_all(x > -50);
    out[9 * n + gid] = work_group_any(x == 7);
    fout[gid] = work_group_reduce_max(fin[gid]);
    work_group_barrier(CLK_GLOBAL_MEM_FENCE);
}
