// A barrier, then a region with a divergent loop (tests/test_lockstep.py).
kernel void after_barrier(global const uint *a, global uint *out, local uint *tmp) {
    size_t l = get_local_id(0), g = get_global_id(0);
    tmp[l] = a[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    uint n = tmp[(l + 1) % get_local_size(0)], k = 0;
    while (n > 1u) {
        n = (n & 1u) ? n * 3u + 1u : n >> 1;
        k++;
    }
    out[g] = k;
}
