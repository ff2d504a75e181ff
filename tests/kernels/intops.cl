// Integer built-ins and integer corner cases; each work-item writes NOUT longs.
#define NOUT 40

__kernel void intops(__global const int *a, __global const int *b, __global long *out)
{
    size_t g = get_global_id(0);
    __global long *o = out + g * NOUT;
    int x = a[g], y = b[g];
    uint ux = (uint)x, uy = (uint)y;
    int n = 0;

    o[n++] = clz(x);
    o[n++] = popcount(x);
    o[n++] = rotate(x, y);
    o[n++] = rotate(ux, (uint)(y & 63));
    o[n++] = mul_hi(x, y);
    o[n++] = mul_hi(ux, uy);
    o[n++] = abs(x);
    o[n++] = abs_diff(x, y);
    o[n++] = add_sat(x, y);
    o[n++] = sub_sat(x, y);
    o[n++] = add_sat(ux, uy);
    o[n++] = sub_sat(ux, uy);
    o[n++] = hadd(x, y);
    o[n++] = rhadd(x, y);
    o[n++] = min(x, y);
    o[n++] = max(ux, uy);
    o[n++] = clamp(x, -1000, 1000);
    o[n++] = mad24(x & 0x7fff, y & 0x7fff, x);
    o[n++] = mul24(x & 0x3fff, y & 0x3fff);
    o[n++] = select(x, y, x > y);
    o[n++] = bitselect(x, y, 0x0f0f0f0f);

    /* char / short arithmetic: scalars promote to int */
    char cx = (char)x, cy = (char)y;
    o[n++] = cx * cy;
    o[n++] = (char)(cx + cy);
    short sx = (short)x;
    o[n++] = sx * sx;

    /* vectors of char: no promotion, component-wise wrap */
    char4 c4 = (char4)(cx, cy, (char)(x >> 8), (char)(y >> 8));
    char4 d4 = c4 * (char4)(3) + (char4)(100);
    o[n++] = d4.x + 1000 * (long)d4.y;
    o[n++] = d4.z + 1000 * (long)d4.w;

    /* vector shifts: the count is masked per component */
    int4 v = (int4)(x, y, x ^ y, 1);
    int4 s = (int4)(33, 40, (y & 31) + 32, 31);
    int4 sh = v << s;
    o[n++] = sh.x;
    o[n++] = sh.y;
    o[n++] = sh.z;
    o[n++] = sh.w;
    uint4 us = (uint4)(ux) >> (uint4)(35, 36, 64, 1);
    o[n++] = us.x + us.y + us.z + us.w;

    /* long / ulong */
    long lx = (long)x * (long)y;
    ulong ul = (ulong)lx * 0x9E3779B97F4A7C15ul;
    o[n++] = lx;
    o[n++] = (long)ul;
    o[n++] = (long)(ul >> 7) / (long)(y | 1);
    o[n++] = (long)(ul % (ulong)(uy | 1u));
    o[n++] = lx >> 70;

    /* vector comparisons of ints and any/all */
    int4 w = (int4)(y, x, x ^ y, 0);
    int4 cmp = v > w;
    o[n++] = cmp.x * 1 + cmp.y * 10 + cmp.z * 100 + cmp.w * 1000;
    o[n++] = any(v < 0) * 10 + all(v != 0);

    while (n < NOUT) o[n++] = 0x5555;
}
