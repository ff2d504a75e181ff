/* __local atomics and async copies whose results other work-items read: these need
 * barrier() / wait_group_events as work-group synchronisation points.
 * tests/test_atomics.py runs them through cl2c and PoCL. */

/* Every work-item of a group takes a ticket from a __local counter (initialised by
 * work-item 0), folds its value into __local min / max / and / or / xor / sum cells,
 * and work-item 0 writes the group's results out. */
__kernel void local_reduce(__global const int *x, __global int *tickets,
                           __global int *results) {
    __local int counter, lo, hi, all, any, parity, sum;
    __local uint ulo;
    size_t i = get_global_id(0), g = get_group_id(0);
    if (get_local_id(0) == 0) {
        counter = 0; lo = INT_MAX; hi = INT_MIN; all = -1; any = 0; parity = 0; sum = 0;
        ulo = UINT_MAX;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = x[i];
    tickets[i] = atomic_inc(&counter);
    atomic_min(&lo, v);
    atom_max(&hi, v);
    atomic_and(&all, v);
    atomic_or(&any, v);
    atom_xor(&parity, v);
    atomic_add(&sum, v);
    atomic_sub(&sum, 1);
    atomic_min(&ulo, (uint)v);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        __global int *r = results + 8 * g;
        r[0] = counter; r[1] = lo; r[2] = hi; r[3] = all; r[4] = any; r[5] = parity;
        r[6] = sum; r[7] = (int)ulo;
    }
}

/* A float sum in __local memory by atomic_cmpxchg, then one __global atomic per
 * group; atomic_xchg hands a token along the work-items. */
__kernel void local_float_sum(__global const float *x, volatile __global float *total,
                              __global int *last) {
    __local float acc;
    __local int token;
    if (get_local_id(0) == 0) {
        acc = 0.0f;
        token = -1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    volatile __local int *bits = (volatile __local int *)&acc;
    float v = x[get_global_id(0)];
    int seen, old = *bits;
    do {
        seen = old;
        old = atomic_cmpxchg(bits, seen, as_int(as_float(seen) + v));
    } while (old != seen);
    int before = atomic_xchg(&token, (int)get_local_id(0));
    last[get_global_id(0)] = before;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        volatile __global int *tbits = (volatile __global int *)total;
        old = *tbits;
        do {
            seen = old;
            old = atomic_cmpxchg(tbits, seen, as_int(as_float(seen) + acc));
        } while (old != seen);
    }
}

/* A tile in __local memory: each work-item reads its neighbours' elements after
 * wait_group_events, changes its own, and after a barrier the tile goes back out. */
__kernel void async_stencil(__global const float *src, __global float *dst,
                            __local float *tile) {
    size_t n = get_local_size(0), l = get_local_id(0), base = get_group_id(0) * n;
    event_t e = async_work_group_copy(tile, src + base, n, 0);
    wait_group_events(1, &e);
    float left = tile[l > 0 ? l - 1 : l], right = tile[l + 1 < n ? l + 1 : l];
    barrier(CLK_LOCAL_MEM_FENCE);
    tile[l] = left + tile[l] + right;
    barrier(CLK_LOCAL_MEM_FENCE);
    e = async_work_group_copy(dst + base, tile, n, 0);
    wait_group_events(1, &e);
}
