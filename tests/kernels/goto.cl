// goto (C99 6.8.6.1): forward and backward, out of nested loops, in a helper, and
// around barriers (which sends a kernel to the fibers schedule).
int find(global const int *a, int n, int key) {
    int i = 0;
again:
    if (i >= n) goto missing;
    if (a[i] == key) return i;
    i++;
    goto again;
missing:
    return -1;
}
kernel void search(global const int *a, global int *out, int n) {
    size_t g = get_global_id(0);
    out[g] = find(a, n, (int)g * 3);
}
kernel void nested(global int *out) {
    int s = 0;
    for (int i = 0; i < 10; i++) {
        for (int j = 0; j < 10; j++) {
            if (i * j > (int)get_global_id(0)) goto done;
            s += i + j;
        }
    }
done:
    out[get_global_id(0)] = s;
}
kernel void withbarrier(global int *out) {
    local int t[16];
    int l = get_local_id(0), k = 0;
back:
    t[l] = l + k;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] += t[15 - l];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (++k < 3) goto back;
}
