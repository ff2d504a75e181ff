// Privates across barriers by liveness (workgroup/builders/privates.py, prepare.py): C89
// counters declared at the top, values dead at every barrier, arrays of one element at
// a time, and the shapes that must keep their storage.

// The lecture's version 6 (seeds/003), its size a parameter: k is a loop over the local
// ids before the barrier and over a row after it; sum is set after the barrier. (The
// store to C before the reads keeps Bl: lower/local_copies.py would read B instead.)
__kernel void row_times_col(__global const float *A, __global const float *B,
                            __global float *C, __local float *Bl, const int dim)
{
    int k, j, i = get_global_id(0);
    float Al[64], sum;
    int il = get_local_id(0);
    int nl = get_local_size(0);
    for (k = 0; k < dim; k++)
        Al[k] = A[i * dim + k];
    for (j = 0; j < dim; j++) {
        for (k = il; k < dim; k += nl)
            Bl[k] = B[k * dim + j];
        barrier(CLK_LOCAL_MEM_FENCE);
        C[i * dim + j] = 0.0f;
        sum = 0.0f;
        for (k = 0; k < dim; k++)
            sum += Al[k] * Bl[k];
        C[i * dim + j] = sum;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

// k's value after its first loop is read after the barrier: it must cross it.
__kernel void counter_read_after(__global int *out, __local int *tmp)
{
    int k, lid = get_local_id(0);
    for (k = 0; k < lid; k++)
        ;
    tmp[lid] = k;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tmp[get_local_size(0) - 1 - lid] + k;
}

// t is written before the barrier and, in one branch only, after it: the other
// branch reads the value from before the barrier.
__kernel void written_on_one_path(__global const int *in, __global int *out,
                                  __local int *tmp)
{
    int t, lid = get_local_id(0);
    t = in[get_global_id(0)] * 3;
    tmp[lid] = t;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid & 1)
        t = tmp[lid - 1];
    out[get_global_id(0)] = t;
}

// A two-dimensional private array across a barrier, one element at a time; and one
// whose address a pointer takes (which keeps the work-item's row together).
__kernel void arrays_across(__global const float *in, __global float *out,
                            __local float *tmp)
{
    float a[3][4], b[4];
    int lid = get_local_id(0), gid = get_global_id(0);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++)
            a[r][c] = in[gid] * (r + 1) + c;
    for (int c = 0; c < 4; c++)
        b[c] = in[gid] - c;
    tmp[lid] = in[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    float *p = b;
    float s = tmp[get_local_size(0) - 1 - lid];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++)
            s += a[r][c] * p[c];
    out[gid] = s;
}
