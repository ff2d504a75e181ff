// Barrier-free kernels that the regions schedule restructures (uniform loops
// outside the work-item loop, guards as loop bounds), and some it must not.

__kernel void stencil(__global const float *in, __global float *out, int nx, int ny)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    if (x > 0 && x < nx - 1 && y > 0 && y < ny - 1) {
        int i = y * nx + x;
        out[i] = 0.25f * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx]) - in[i];
    }
}

__kernel void matmul(__global const float *A, __global const float *B, __global float *C,
                     int n)
{
    int col = get_global_id(0);
    int row = get_global_id(1);
    float acc = 0.0f;
    for (int k = 0; k < n; k++)
        acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
}

// Guards of every comparison form, on the global id, with a uniform bound.
__kernel void guards(__global int *out, int lo, int hi)
{
    size_t g = get_global_id(0);
    if ((int)g >= lo && hi >= (int)g && g + 0 <= 1000u)
        out[g] = 1;
    if (g < 7)
        out[g] += 10;
    if ((int)g == hi)
        out[g] += 100;
}

// A uniform loop with a break under a uniform condition, and a varying one.
__kernel void breaks(__global const int *in, __global int *out, int n, int stop)
{
    int gid = get_global_id(0);
    int acc = 0;
    for (int k = 0; k < n; ++k) {
        if (k == stop)
            break;
        acc += in[k] * (gid + 1);
    }
    for (int k = 0; k < n; ++k) {
        if (in[k] == gid)
            break;
        acc += 1;
    }
    out[gid] = acc;
}

// An early return before a uniform loop: a guard, moved into the loop, which runs at
// group level (regions), the guard the bounds of its work-item loop.
__kernel void early(__global const float *in, __global float *out, int n, int m)
{
    int gid = get_global_id(0);
    if (gid >= n)
        return;
    float s = 0.0f;
    for (int k = 0; k < m; ++k)
        s += in[gid + k];
    out[gid] = s;
}

// A grid-stride loop: interchanged so that the work-items' loop is innermost.
__kernel void gridstride(__global const int *in, __global int *out, int n)
{
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        out[i] = 3 * in[i] + get_local_id(0);
}

// A private array with an initializer, live across the cut of a uniform loop
// (forced regions: a per-work-item array filled from the initializer).
__kernel void array_init(__global uint *out, uint a0, uint a1, uint a2, uint a3, uint a4)
{
    uint values[] = { a0, a1, a2, a3, a4 + (uint)get_global_id(0) };
    for (int i = 0; i < sizeof(values) / sizeof(values[0]); ++i)
        out[get_global_id(0) * 5 + i] = values[i];
}

/* float4 privates carried through a uniform loop: under the regions schedule they would be
 * per-work-item arrays of structs, which the vectorised loop transposes; auto keeps loops. */
__kernel void gravity(__global const float4 *pos, __global float4 *acc_out, int n)
{
    int i = get_global_id(0);
    float4 p = pos[i];
    float4 acc = (float4)(0.0f);
    for (int j = 0; j < n; j++) {
        float4 r = pos[j] - p;
        r.w = 0.0f;
        float inv = 1.0f / sqrt(r.x * r.x + r.y * r.y + r.z * r.z + 0.01f);
        acc += pos[j].w * inv * inv * inv * r;
    }
    acc_out[i] = acc;
}
