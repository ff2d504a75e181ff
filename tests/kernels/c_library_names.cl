constant float y1 = 2.0f;
typedef struct { int stdout; float errno; } FILE;
int index(int i) { return i + 1; }
int read(int i) { return i * 2; }
float j0(float x) { return x; }
int time(int a) { return a; }
int index_cl(int a) { return a + 100; }
kernel void div(global int *out, global FILE *f, int exit) {
    int malloc = 1, errno = 2, stdin = 3;
    FILE fl = f[0];
    out[get_global_id(0)] = index(1) + read(2) + (int)j0(y1) + time(1) + exit + malloc + errno + stdin + fl.stdout + (int)fl.errno + index_cl(0);
}
kernel void write(global int *out, local int *random) {
    int l = get_local_id(0);
    random[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = random[get_local_size(0) - 1 - l];
}
/* Parameters named like the locals of an entry function's skeleton. */
kernel void skeleton_names(global int *status, global int *group, int range, int l0,
                           local int *local_block, int failed, int args, int threads)
{
    size_t i = get_global_id(0);
    local_block[get_local_id(0)] = range + l0 + failed + args + threads;
    barrier(CLK_LOCAL_MEM_FENCE);
    status[i] = local_block[get_local_size(0) - 1 - get_local_id(0)] + (int)i;
    group[i] = (int)get_group_id(0);
}
