// float3 loads/stores, a struct with a float4 member (16-byte alignment), as_* and convert_*.
typedef struct { char c; float4 v; int i; } SV;
__kernel void vec3_struct(__global float *out, SV s, __global const float *f3, __global SV *arr)
{
    size_t g = get_global_id(0);
    float3 t = vload3(g, f3);
    float4 r = s.v * (float)s.i + (float)s.c;
    __global float *o = out + g * 16;
    o[0] = r.x; o[1] = r.y; o[2] = r.z; o[3] = r.w;
    vstore3(t * 2.0f, 1, o + 3);   // writes o[6..8]
    o[9] = as_float(as_int(t.x) ^ 0x80000000);
    int4 iv = convert_int4((float4)(t, -2.7f));
    o[10] = iv.z; o[11] = iv.w;
    float3 c = t.zxy - t;
    o[12] = c.y; o[13] = c.z;
    o[14] = arr[g].v.w + arr[g].c + arr[g].i;
    uint k = 0; for (size_t j = 5; j-- > 0;) k += (uint)j;
    o[15] = (float)k;
}
