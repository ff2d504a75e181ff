// cl_khr_subgroups (OpenCL C 2.0): in cl2c a sub-group is the whole work-group.
kernel void sg(global int *out, global float *f, global int *mins) {
    size_t g = get_global_linear_id();
    int x = (int)get_sub_group_local_id() * 3 - 7;
    int s = sub_group_reduce_add(x);
    int m = sub_group_scan_inclusive_max(x);
    float e = sub_group_scan_exclusive_add((float)x);
    int b = sub_group_broadcast(x, 5u % get_sub_group_size());
    int all = sub_group_all(x > -8), any = sub_group_any(x > 100);
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
    mins[g] = sub_group_scan_inclusive_min(x);
    out[g * 8 + 0] = s;
    out[g * 8 + 1] = m;
    out[g * 8 + 2] = b;
    out[g * 8 + 3] = all;
    out[g * 8 + 4] = any;
    out[g * 8 + 5] = (int)get_sub_group_size();
    out[g * 8 + 6] = (int)(get_num_sub_groups() * 100 + get_sub_group_id());
    out[g * 8 + 7] = (int)get_max_sub_group_size();
    f[g] = e;
}
