/* Each group counts its runs; the first `heavy` groups are slow, so that their thread
 * falls behind the others (tests/c/shares.c). */
__kernel void tally(__global int *runs, __global uint *work, int heavy) {
    size_t g = get_group_id(0);
    if (get_local_id(0) == 0)
        atomic_inc(&runs[g]);
    uint x = (uint)get_global_id(0);
    int steps = (int)g < heavy ? 100000 : 10;
    for (int i = 0; i < steps; i++)
        x = x * 1103515245u + 12345u;
    work[get_global_id(0)] = x;
}
