// Kernels for the loader tests: argument kinds, null pointers, odd names.
typedef struct Pair {
    int a;
    float b;
    char c;
} Pair;

__kernel void scale(__global float *out, __global const float *in, float k, int n)
{
    size_t i = get_global_id(0);
    if ((int)i < n)
        out[i] = in[i] * k;
}

__kernel void nullcheck(__global int *p, __global int *flag)
{
    if (p == 0) {
        flag[get_global_id(0)] = 1;
    } else {
        flag[get_global_id(0)] = 2;
        p[get_global_id(0)] = 7;
    }
}

__kernel void _private(__global int *p)
{
    p[get_global_id(0)] = 42 + (int)get_global_id(0);
}

__kernel void vec4(__global float4 *v, float4 add, Pair pr, __global Pair *prs)
{
    size_t i = get_global_id(0);
    v[i] = v[i] * pr.b + add + (float4)((float)pr.a);
    prs[i].a = prs[i].a + pr.a;
    prs[i].b = prs[i].b * 2.0f;
    prs[i].c = pr.c;
}

__kernel void small_args(__global long *out, char c, uchar uc, short s, uint u, long l,
                         double d)
{
    out[0] = c;
    out[1] = uc;
    out[2] = s;
    out[3] = u;
    out[4] = l;
    out[5] = (long)(d * 2.0);
}

__kernel void with_local(__global int *p, __local int *tmp, __constant int *c)
{
    size_t l = get_local_id(0);
    tmp[l] = p[get_global_id(0)];
    p[get_global_id(0)] = tmp[l] + c[0];
}
