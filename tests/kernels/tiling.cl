// Kernels whose uniform loop runs in register tiles of work-items (workgroup/passes/tiling.py),
// and one that must not: test_tiling.py.

// C = A * B, n x k times k x m, one accumulator.
__kernel void matmul(__global const float *A, __global const float *B, __global float *C,
                     int k, int m)
{
    int col = get_global_id(0), row = get_global_id(1);
    float acc = 0.0f;
    for (int i = 0; i < k; i++)
        acc += A[row * k + i] * B[i * m + col];
    C[row * m + col] = acc;
}

// Two accumulators, one a double: tiles of fewer rows.
__kernel void moments(__global const float *A, __global const float *B,
                      __global float *sum, __global double *sq, int k, int m)
{
    int col = get_global_id(0), row = get_global_id(1);
    float s = 0.0f;
    double q = 0.0;
    for (int i = 0; i < k; i += 1) {
        float p = A[row * k + i] * B[i * m + col];
        s += p;
        q += (double)p * p;
    }
    sum[row * m + col] = s;
    sq[row * m + col] = q;
}

// A counter declared outside its loop, read after it: the loop is not tiled.
__kernel void counter(__global const float *B, __global float *C, __global int *last,
                      int k, int m)
{
    int col = get_global_id(0), row = get_global_id(1);
    float acc = 0.0f;
    int i;
    for (i = 0; i < k; i++)
        acc += B[i * m + col];
    C[row * m + col] = acc;
    last[row * m + col] = i;
}

// Barriers around the loop, which reads the group's __local copy of A's rows.
__kernel void local_rows(__global const float *A, __global const float *B,
                         __global float *C, int k, int m, __local float *rows)
{
    int col = get_global_id(0), row = get_global_id(1);
    int lx = get_local_id(0), ly = get_local_id(1), lw = get_local_size(0);
    for (int i = lx; i < k; i += lw)
        rows[ly * k + i] = A[row * k + i];
    barrier(CLK_LOCAL_MEM_FENCE);
    float acc = 0.0f;
    for (int i = 0; i < k; i++)
        acc += rows[ly * k + i] * B[i * m + col];
    C[row * m + col] = acc;
}

// The loop writes global memory: its steps must stay in order across work-items.
__kernel void writes(__global float *C, __global const float *B, int k, int m)
{
    int col = get_global_id(0), row = get_global_id(1);
    float acc = 0.0f;
    for (int i = 0; i < k; i++) {
        acc += B[i * m + col];
        C[row * m + col] = acc;
    }
}

// Every load reads by the counter or by the work-item, never both: tiles of one row
// (any launch shape), through a vector private and its components.
__kernel void pull(__global const float4 *pos, __global float4 *out, int n)
{
    int i = get_global_id(0);
    float4 p = pos[i];
    float4 acc = (float4)(0.0f);
    for (int j = 0; j < n; j++) {
        float4 q = pos[j];
        float4 r;
        r.xyz = q.xyz - p.xyz;
        r.w = 1.0f;
        acc += q.w * r;
    }
    out[i] = acc;
}

// Work-items outside [c0, m) x [0, n) return early: the guard becomes the work-item
// loop's bounds, tiles within them run whole and those across an edge as before.
__kernel void guarded(__global const float *A, __global const float *B, __global float *C,
                      int n, int k, int m, int c0)
{
    int col = get_global_id(0), row = get_global_id(1);
    if (row >= n || col >= m || col < c0)
        return;
    float acc = 0.0f;
    for (int i = 0; i < k; i++)
        acc += A[row * k + i] * B[i * m + col];
    C[row * m + col] = acc;
}

// The same with ids from the group's: it runs in the groups the host asks for.
__kernel void guarded_groups(__global const float *A, __global const float *B,
                             __global float *C, int n, int k, int m)
{
    int col = get_group_id(0) * get_local_size(0) + get_local_id(0);
    int row = get_group_id(1) * get_local_size(1) + get_local_id(1);
    if (col < m && row < n) {
        float acc = 0.0f;
        for (int i = 0; i < k; i++)
            acc += A[row * k + i] * B[i * m + col];
        C[row * m + col] = acc;
    }
}
