// Kernels with barriers and __local memory: each runs under every schedule
// that accepts it (tests/test_barriers.py) and through PoCL.

// The lecture's reduction (003): two inputs per work-item, a halving loop of
// barriers, the last two partial sums added by work-item 0.
__kernel void reduce(__global float *input, __global float *output, __local float *lmem)
{
    int gsize = get_global_size(0);
    int lsize = get_local_size(0);
    int gid = get_global_id(0);
    int lid = get_local_id(0);
    int oid = get_group_id(0);
    lmem[lid] = input[gid] + input[gid + gsize];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = lsize / 2; s > 1; s /= 2) {
        if (lid < s)
            lmem[lid] += lmem[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        output[oid] = lmem[0] + lmem[1];
}

// A float4 tree reduction with a kernel-scope __local array.
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void reduce4(__global const float4 *in, __global float4 *out)
{
    __local float4 part[64];
    const size_t lid = get_local_id(0);
    part[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = 32; s > 0; s >>= 1) {
        if (lid < s)
            part[lid] += part[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = part[0];
}

// Tiled matrix multiply with 16x16 __local tiles (C = A * B, n a multiple of 16).
#define TILE 16
__kernel void matmul_tiled(__global const float *A, __global const float *B,
                           __global float *C, int n)
{
    __local float As[TILE][TILE];
    __local float Bs[TILE][TILE];
    int tx = get_local_id(0), ty = get_local_id(1);
    int col = get_global_id(0), row = get_global_id(1);
    float acc = 0.0f;
    for (int t = 0; t < n / TILE; ++t) {
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * n + col] = acc;
}

// A 256-bin histogram: per-group bins with __local atomics, merged with
// __global atomics (the Guide's chapter 14 in miniature).
__kernel void histogram(__global const uchar *data, int n, __global uint *bins)
{
    __local uint local_bins[256];
    int lid = get_local_id(0);
    int lsize = get_local_size(0);
    for (int b = lid; b < 256; b += lsize)
        local_bins[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&local_bins[data[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int b = lid; b < 256; b += lsize)
        atomic_add(&bins[b], local_bins[b]);
}

// Inclusive prefix sum of one group (Hillis-Steele): a barrier inside a loop,
// ping-ponging between two halves of a __local buffer.
__kernel void scan(__global const int *in, __global int *out, __local int *buf)
{
    int lid = get_local_id(0);
    int n = get_local_size(0);
    int gid = get_global_id(0);
    int src = 0, dst = n;
    buf[lid] = in[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int offset = 1; offset < n; offset *= 2) {
        int v = buf[src + lid];
        if (lid >= offset)
            v += buf[src + lid - offset];
        buf[dst + lid] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
        int t = src;
        src = dst;
        dst = t;
    }
    out[gid] = buf[src + lid];
}

// A barrier inside a helper function.
void stage(__local int *tmp, int lid, int value)
{
    tmp[lid] = value;
    barrier(CLK_LOCAL_MEM_FENCE);
}

__kernel void reverse(__global const int *in, __global int *out, __local int *tmp)
{
    int lid = get_local_id(0);
    int n = get_local_size(0);
    stage(tmp, lid, in[get_global_id(0)]);
    out[get_global_id(0)] = tmp[n - 1 - lid];
}

// A helper with barriers whose value a declaration and an assignment take.
int group_sum(__local int *tmp, int lid, int n, int value)
{
    tmp[lid] = value;
    barrier(CLK_LOCAL_MEM_FENCE);
    int total = 0;
    for (int i = 0; i < n; i++)
        total += tmp[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    return total;
}

__kernel void sums(__global const int *in, __global int *out, __local int *tmp)
{
    int lid = get_local_id(0);
    int n = get_local_size(0);
    int total = group_sum(tmp, lid, n, in[get_global_id(0)]);
    int twice;
    twice = group_sum(tmp, lid, n, 2 * in[get_global_id(0)]);
    out[get_global_id(0)] = total * 1000 + twice - lid;
}

// A barrier in an if whose condition is the same for the whole group.
__kernel void uniform_if(__global const int *in, __global int *out, __local int *tmp)
{
    int lid = get_local_id(0);
    int n = get_local_size(0);
    int g = get_group_id(0);
    int v = in[get_global_id(0)];
    if (g % 2 == 0) {
        tmp[lid] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
        v = tmp[(lid + 1) % n];
    } else {
        v = -v;
    }
    out[get_global_id(0)] = v;
}

// Private arrays and a struct that live across a barrier; a work-item that
// returns in the last region from inside a loop.
typedef struct { int a; float b; } pair;

__kernel void privates(__global const int *in, __global float *out, __local int *tmp)
{
    int lid = get_local_id(0);
    int gid = get_global_id(0);
    int keep[4];
    pair p = { in[gid], 0.5f * in[gid] };
    for (int k = 0; k < 4; ++k)
        keep[k] = in[gid] * k;
    tmp[lid] = p.a;
    barrier(CLK_LOCAL_MEM_FENCE);
    float acc = p.b + tmp[get_local_size(0) - 1 - lid];
    for (int k = 0; k < 4; ++k) {
        if (keep[k] > 50) {
            out[gid] = acc + k;
            return;
        }
        acc += keep[k];
    }
    out[gid] = acc;
}

// Copies with async_work_group_copy into __local memory and back.
__kernel void async_scale(__global const float *in, __global float *out, __local float *tile,
                          float factor)
{
    int n = get_local_size(0);
    int base = get_group_id(0) * n;
    event_t e = async_work_group_copy(tile, in + base, n, 0);
    wait_group_events(1, &e);
    int lid = get_local_id(0);
    float v = tile[n - 1 - lid] * factor;
    barrier(CLK_LOCAL_MEM_FENCE);
    tile[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    e = async_work_group_copy(out + base, tile, n, 0);
    wait_group_events(1, &e);
}
