// The lecture's tree reduction (003): local size 256, kernel-scope __local
// memory, 8 halving steps + the first copy = 9 barriers per group.
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void reduce(__global const float *input, __global float *output)
{
    __local float lmem[256];
    int gsize = get_global_size(0);
    int lsize = get_local_size(0);
    int gid = get_global_id(0);
    int lid = get_local_id(0);
    lmem[lid] = input[gid] + input[gid + gsize];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = lsize / 2; s > 0; s /= 2) {
        if (lid < s)
            lmem[lid] += lmem[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        output[get_group_id(0)] = lmem[0];
}
