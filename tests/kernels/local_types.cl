// A kernel's own types: one declaration of several variables of a struct it defines
// (C would see the struct defined once a declarator), and types whose variables cross a
// barrier (their per-work-item arrays are declared at the work-group function's top).
__kernel void two_of_one(__global int *out)
{
    struct S { int a; float b; } w, v;
    w.a = 1; v.a = get_global_id(0); w.b = 0.5f; v.b = 1.5f;
    out[get_global_id(0)] = w.a + v.a + (int)(w.b + v.b);
}

__kernel void across(__global int *out, __local int *tmp)
{
    struct P { int a; float b; } w, v;
    typedef struct { short s; int t; } Q;
    Q q;
    int lid = get_local_id(0);
    v.a = lid; v.b = 0.5f; q.s = 2; q.t = lid * 3;
    w.a = 3; w.b = 1.0f;
    tmp[lid] = w.a + lid;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = v.a + (int)(v.b * 2) + tmp[0] + q.s * q.t;
}

// Several declarators of one anonymous struct have one type (C would see a type a body):
// at program scope, in a typedef of a name and a pointer, and in a kernel (across a
// barrier).
constant struct { int a; } base = {3}, more = {4};
typedef struct { int a; float b; } T, *PT;

__kernel void anonymous(__global int *out, __local int *tmp)
{
    struct { int a; float b; } x, y;
    T t;
    PT p = &t;
    int lid = get_local_id(0);
    x.a = lid; x.b = 0.5f;
    y = x;
    p->a = base.a + more.a; p->b = 2.0f;
    int from_t = t.a + (int)t.b;
    tmp[lid] = lid;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = y.a + (int)(y.b * 2) + from_t + tmp[0];
}
