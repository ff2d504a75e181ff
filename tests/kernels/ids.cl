// Every work-item function, written to a uint table: one row of NF values per work-item.
// The row index is computed from get_global_id/get_global_offset/get_global_size only.
#define NF 24

static void write_ids(__global uint *out, size_t row)
{
    __global uint *o = out + row * NF;
    for (uint d = 0; d < 3; d++) {
        o[0 + d]  = (uint)get_global_id(d);
        o[3 + d]  = (uint)get_global_offset(d);
        o[6 + d]  = (uint)get_global_size(d);
        o[9 + d]  = (uint)get_local_id(d);
        o[12 + d] = (uint)get_group_id(d);
        o[15 + d] = (uint)get_num_groups(d);
        o[18 + d] = (uint)get_local_size(d);
    }
    o[21] = get_work_dim();
    o[22] = (uint)get_global_linear_id();
    o[23] = (uint)get_local_linear_id();
}

__kernel void ids2d(__global uint *out)
{
    size_t x = get_global_id(0) - get_global_offset(0);
    size_t y = get_global_id(1) - get_global_offset(1);
    write_ids(out, y * get_global_size(0) + x);
}

__kernel void ids3d(__global uint *out)
{
    size_t x = get_global_id(0) - get_global_offset(0);
    size_t y = get_global_id(1) - get_global_offset(1);
    size_t z = get_global_id(2) - get_global_offset(2);
    write_ids(out, (z * get_global_size(1) + y) * get_global_size(0) + x);
}

// The same, in int (signed) outputs and without a helper function.
__kernel void ids3d_int(__global int *out)
{
    int x = get_global_id(0) - get_global_offset(0);
    int y = get_global_id(1) - get_global_offset(1);
    int z = get_global_id(2) - get_global_offset(2);
    int row = (z * (int)get_global_size(1) + y) * (int)get_global_size(0) + x;
    out[row * 4 + 0] = get_global_id(0) + 10 * get_global_id(1) + 100 * get_global_id(2);
    out[row * 4 + 1] = get_local_id(0) + 10 * get_local_id(1) + 100 * get_local_id(2);
    out[row * 4 + 2] = get_group_id(0) + 10 * get_group_id(1) + 100 * get_group_id(2);
    out[row * 4 + 3] = (int)get_global_linear_id() - (int)get_local_linear_id();
}
