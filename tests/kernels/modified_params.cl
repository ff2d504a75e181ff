/* Kernels that modify their own parameters. A parameter is a private of each
 * work-item (spec 6.5), however the work-group is scheduled. */

/* A pointer moved to the group's block, uniformly, before a barrier (bitonic
 * sorts and BLAS-style kernels do this): each group reverses its block. */
kernel void reverse_blocks(global int *data, local int *aux, global int *out)
{
    size_t t = get_local_id(0);
    data += get_group_id(0) * get_local_size(0);
    out += get_group_id(0) * get_local_size(0);
    aux[t] = data[t];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[t] = aux[get_local_size(0) - 1 - t];
}

/* A pointer moved per work-item, live across the barrier: rotate by one. */
kernel void rotate_items(global int *data, local int *aux)
{
    size_t t = get_local_id(0), n = get_local_size(0);
    data += get_global_id(0);
    aux[t] = *data;
    barrier(CLK_LOCAL_MEM_FENCE);
    *data = aux[(t + 1) % n];
}

/* Scalars: one scaled uniformly, one shifted per work-item, both used after
 * the barrier; a uniform loop count consumed by the loop itself. */
kernel void scalars(global int *out, local int *aux, int scale, int offset, int rounds)
{
    size_t t = get_local_id(0);
    scale *= 2;
    offset += (int)t;
    aux[t] = offset;
    barrier(CLK_LOCAL_MEM_FENCE);
    int acc = 0;
    for (; rounds > 0; --rounds) {
        acc += aux[(t + rounds - 1) % get_local_size(0)];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = acc * scale + offset;
}

/* A vector parameter changed component-wise per work-item, and a scalar changed
 * through a pointer to it. */
kernel void through_address(global int4 *out, local int *aux, int4 v, int k)
{
    size_t t = get_local_id(0);
    int *p = &k;
    *p += (int)t;
    v.y += (int)t;
    aux[t] = k;
    barrier(CLK_LOCAL_MEM_FENCE);
    v.x = aux[get_local_size(0) - 1 - t];
    out[get_global_id(0)] = v + (int4)(0, 0, 0, k);
}
