// float4 / int4 vector code. Each work-item reads float4/int4 elements and writes
// several float4 and int4 results.
#define NF4 12
#define NI4 8

__kernel void vec(__global const float4 *a, __global float *b,
                  __global float4 *fout, __global int4 *iout, float s, int4 iv)
{
    size_t g = get_global_id(0);
    float4 x = a[g];
    float4 y = vload4(g, b);                     // b as a plain float array
    __global float4 *fo = fout + g * NF4;
    __global int4 *io = iout + g * NI4;

    /* literals built from scalars and smaller vectors */
    float2 xy = y.xy;
    fo[0] = (float4)(x.x, xy, s);
    fo[1] = (float4)(1.0f);
    fo[2] = (float4)(x.zw, y.s01);

    /* swizzles */
    fo[3] = x.wzyx + y.s3210;
    fo[4] = (float4)(x.lo, y.hi);
    fo[5] = (float4)(x.even, y.odd);
    float4 t = x;
    t.xy = y.yx;                                 // swizzle assignment
    t.w = -t.z;
    fo[6] = t;
    float4 u = y;
    u.s23 = x.s10;
    u.hi = u.hi * 2.0f;
    fo[7] = u;

    /* arithmetic with scalar widening */
    fo[8] = x + s;
    fo[9] = (x - y) * 2.0f;
    fo[10] = x / y;
    fo[11] = s - x * y;                          // PoCL may contract this into an fma

    /* vector comparisons: -1 / 0 per component */
    io[0] = x < y;
    io[1] = x >= y;
    io[2] = x == x;
    io[3] = isgreater(x, y);

    /* int4 */
    int4 ia = convert_int4(x * 100.0f);
    int4 ib = (int4)(1, 2, 3, 4) + iv;
    io[4] = ia * ib - (ia >> 2) + (ib & 3);
    io[5] = ia / ib + ia % ib;
    io[6] = (ia > ib) ? ia : ib;                // vector select via ?:
    io[7] = (int4)(ia.s0 + ia.s1, ib.wz, any(ia < 0) + 2 * all(ib > 0));

    /* vstore4 back into the plain float array, shifted */
    vstore4(x * y, g, b);
}

__kernel void vec_roundtrip(__global const int *src, __global int *dst)
{
    size_t g = get_global_id(0);
    int4 v = vload4(g, src);
    v.s13 = v.s31;
    v += (int4)(v.x);
    vstore4(v, g, dst);
}
