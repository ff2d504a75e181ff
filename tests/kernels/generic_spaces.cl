/* to_global, to_local, to_private and get_fence (OpenCL C 2.0, 6.13.9) on generic
 * pointers to each address space, for tests/test_atomics_c11.py. where() answers with
 * bits: 1 to_global, 2 to_local, 4 to_private gave the pointer back (else NULL), 8
 * get_fence said CLK_LOCAL_MEM_FENCE (16: CLK_GLOBAL_MEM_FENCE). */
int where(generic int *p) {
    int bits = 0;
    if (to_global(p) == p && p != NULL)
        bits |= 1;
    else if (to_global(p) != NULL)
        bits |= 64;                 /* neither the pointer nor NULL: wrong */
    if (to_local(p) == p && p != NULL)
        bits |= 2;
    else if (to_local(p) != NULL)
        bits |= 64;
    if (to_private(p) == p && p != NULL)
        bits |= 4;
    else if (to_private(p) != NULL)
        bits |= 64;
    cl_mem_fence_flags f = get_fence(p);
    if (f == CLK_LOCAL_MEM_FENCE)
        bits |= 8;
    if (f == CLK_GLOBAL_MEM_FENCE)
        bits |= 16;
    return bits;
}

int where_private_here(void) {
    int mine[3] = {1, 2, 3};
    return where(&mine[2]);
}

/* out[NPLACES * i + k]: where() of place k, from work-item i */
#define NPLACES 8
kernel void spaces(global int *g, local int *l, global int *out) {
    local int lv[4];
    int pv = 1;
    int parr[5];
    size_t i = get_global_id(0), li = get_local_id(0);
    global int *o = out + NPLACES * i;
    lv[li % 4] = 0;
    parr[i % 5] = (int)i;
    o[0] = where(g + i);
    o[1] = where(l + li);
    o[2] = where(&lv[li % 4]);
    o[3] = where(&pv);
    o[4] = where_private_here();
    barrier(CLK_LOCAL_MEM_FENCE);
    /* after a barrier: privates that live across it (the regions schedule keeps them
     * in a per-work-item block) */
    o[5] = where(&parr[i % 5]) + (parr[i % 5] - (int)i) * 128;
    o[6] = where(&pv) + (pv - 1) * 128;
    o[7] = where(NULL);
}

/* to_global's result is a __global pointer: stores through it reach the buffer */
kernel void through_to_global(global int *g) {
    generic int *p = g + get_global_id(0);
    global int *q = to_global(p);
    if (q != NULL)
        *q += 1;
}
