// Barriers the regions schedule cannot place: these kernels run on fibers
// (but countdown, which shows where the spec's rule makes regions possible).

// A barrier in a loop whose trip count comes from __local memory: not provably
// uniform, but the spec makes it so (every work-item executes a barrier of the
// loop's body on each iteration): the regions schedule runs it.
__kernel void countdown(__global int *out, __local int *counter)
{
    int lid = get_local_id(0);
    int steps = 0;
    if (lid == 0)
        counter[0] = 5 + get_group_id(0) % 3;
    barrier(CLK_LOCAL_MEM_FENCE);
    while (counter[0] > 0) {
        steps += lid;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0)
            counter[0] -= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = steps;
}

// A barrier in a loop left by a break: its trip count is not the condition's
// alone, and the break is not provably uniform (fibers).
__kernel void early_exit(__global int *out, __local int *limit)
{
    int lid = get_local_id(0);
    int steps = 0;
    if (lid == 0)
        limit[0] = 3 + get_group_id(0) % 2;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (;;) {
        steps += 1 + lid;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (steps >= limit[0] * (1 + lid))
            break;
    }
    out[get_global_id(0)] = steps;
}

// A barrier in a switch: the regions schedule does not cut switches.
__kernel void switched(__global const int *in, __global int *out, __local int *tmp)
{
    int lid = get_local_id(0);
    int n = get_local_size(0);
    switch (get_group_id(0) % 2) {
    case 0:
        tmp[lid] = in[get_global_id(0)];
        barrier(CLK_LOCAL_MEM_FENCE);
        out[get_global_id(0)] = tmp[n - 1 - lid];
        break;
    default:
        out[get_global_id(0)] = 0;
    }
}

// Barriers reached differently by different work-items: a correct OpenCL
// program never does this; -cl2c-check-barriers reports it.
__kernel void diverge(__global int *out, __local int *tmp)
{
    int lid = get_local_id(0);
    tmp[lid] = lid;
    if (lid < 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = tmp[lid];
}
