// Kernels long enough and loop-free enough that cl2c runs two work-items an iteration,
// their statements interleaved (workgroup/passes/interleaving.py), guarded ones too (their guards
// the bounds of the regions schedule's work-item loop), and one it does not.
typedef struct { uint lo, hi; } halves;

uint hash(uint x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

uint here(void) { return (uint)(get_global_id(0) + 7 * get_global_id(1)); }

// in place (data read, then written), a member named as a local, a vector and its
// components, a private array, an if that does not return, a helper that reads the
// work-item's ids
kernel void scramble(global uint *data, global const uint *other, global uint *out)
{
    size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
    uint lo = data[i];
    halves h;
    h.lo = hash(lo);
    h.hi = hash(h.lo ^ other[i]);
    uint4 v = (uint4)(h.lo, h.hi, lo, here());
    uint a[4];
    a[0] = v.x;
    a[1] = v.y + 1;
    a[2] = v.z * 3;
    a[3] = v.w ^ 5;
    uint s = hash(a[0] + a[1]) + hash(a[2] - a[3]);
    if (s & 1)
        s = hash(s);
    uint t = hash(s ^ v.w) + hash(v.x + v.y) + hash(v.z) + a[3];
    data[i] = s;
    out[i] = t + (uint)get_global_size(0) + (uint)get_global_linear_id();
}

// the same with a guard that returns: it becomes the work-item loop's bounds, and the
// work-items inside run in pairs
kernel void scramble_guarded(global uint *data, global const uint *other,
                             global uint *out, uint n)
{
    size_t i = get_global_id(0);
    if (i >= n)
        return;
    uint lo = data[i];
    uint s = hash(hash(lo) + hash(other[i])) + hash(hash(lo ^ 3) - hash(lo + 9));
    uint t = hash(hash(s) ^ hash(s + 1)) + hash(hash(s ^ 2) + hash(s ^ 4)) + here();
    data[i] = s;
    out[i] = t;
}

// a 2-D range with a guard of both dimensions, in one condition, and a second guard
kernel void scramble_guarded2(global uint *data, global const uint *other,
                              global uint *out, uint w, uint h, uint skip)
{
    size_t x = get_global_id(0);
    size_t y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    if (y == skip)
        return;
    size_t i = y * get_global_size(0) + x;
    uint lo = data[i];
    uint s = hash(hash(lo) + hash(other[i])) + hash(hash(lo ^ 3) - hash(lo + 9));
    uint t = hash(hash(s) ^ hash(s + 1)) + hash(hash(s ^ 2) + hash(s ^ 4)) + here();
    data[i] = s;
    out[i] = t;
}

// the same with a pointer parameter moved to the work-item's row (it is the
// work-item's own copy): the pair would share it, so no pair
kernel void scramble_rows(global uint *data, global const uint *other, global uint *out)
{
    size_t i = get_global_id(0);
    data += 2 * i;
    other += 2 * i;
    uint s = hash(hash(data[0]) + hash(other[1])) + hash(hash(data[1] ^ 3) - hash(other[0] + 9));
    uint t = hash(hash(s) ^ hash(s + 1)) + hash(hash(s ^ 2) + hash(s ^ 4)) + here();
    data[0] = s;
    data[1] = t;
    out[i] = s ^ t;
}
