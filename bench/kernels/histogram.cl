// 256-bin histogram (the Guide's chapter 14 in miniature): per-group bins with
// __local atomics, merged into the global bins with __global atomics.
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void histogram(__global const uchar *data, int n, __global uint *bins)
{
    __local uint local_bins[256];
    int lid = get_local_id(0);
    local_bins[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&local_bins[data[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&bins[lid], local_bins[lid]);
}
