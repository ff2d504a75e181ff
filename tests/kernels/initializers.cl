/* Brace initializers that elide braces (C11 6.7.9p20) and mix in designators: cl2c
   writes them fully braced. A vector is no aggregate there (clang): a scalar where a
   vector goes is splatted, a brace list for a vector lists its components. Each
   object's values go to out, in order. */
struct In { int a[2]; float f; };
struct S { int x; struct In in; };
union U { int i; float f; };
struct V { float4 v; int x; };

__constant int cm[2][3] = {1, 2, 3, 4, 5};
__constant int2 cv[] = {1, 2, 3};

__kernel void initializers(__global int *out) {
    int o = get_global_id(0) * 256;
    int m[2][2] = {1, 2, 3, 4};
    float4 v[2] = {1, 2, 3, 4, 5, 6, 7, 8};
    float3 q[2] = {1, 2, 3, 4, 5, 6};
    struct S s = {1, 2, 3, 4.0f};
    struct S arr[2] = {1, 2, 3, 4, {5, {6, 7}}};
    int d[3][2] = {[1] = 5, 6, 7};
    int e[3][2] = {1, 2, 3, [1][1] = 9, 8};
    struct S t = {.in.a[1] = 7, 5.0f};
    int2 p[] = {1, 2, 3};
    union U u[2] = {3, 4};
    char names[2][4] = {"ab", {"cd"}};
    struct In whole[2] = {s.in, 9, 10};
    float4 vv[2] = {v[1], 1, 2};
    struct In lit = (struct In){1, 2, 3.0f};
    float4 bv[2] = {{1, 2, 3, 4}, (float4)(5, 6, 7, 8)};
    float4 mix[2] = {{1, (float2)(2, 3), 4}, 5};
    struct V sv[2] = {1, 2, {3, 4, 5, 6}, 7};
    struct V sw[2] = {1, 2, {{3, 4, 5, 6}, 7}};
    int2 m2[2][2] = {1, 2, 3};
    int2 dv[3] = {[1] = 5, 6};
    float4 cast[2] = {(float4)(9), 1.5f};
    for (int i = 0; i < 4; i++)
        out[o++] = m[i / 2][i % 2];
    for (int i = 0; i < 2; i++) {
        out[o++] = v[i].x; out[o++] = v[i].y; out[o++] = v[i].z; out[o++] = v[i].w;
    }
    for (int i = 0; i < 2; i++) {
        out[o++] = q[i].x; out[o++] = q[i].y; out[o++] = q[i].z;
    }
    out[o++] = s.x; out[o++] = s.in.a[0]; out[o++] = s.in.a[1]; out[o++] = s.in.f;
    for (int i = 0; i < 2; i++) {
        out[o++] = arr[i].x; out[o++] = arr[i].in.a[0]; out[o++] = arr[i].in.a[1];
        out[o++] = arr[i].in.f;
    }
    for (int i = 0; i < 6; i++)
        out[o++] = d[i / 2][i % 2];
    for (int i = 0; i < 6; i++)
        out[o++] = e[i / 2][i % 2];
    out[o++] = t.x; out[o++] = t.in.a[0]; out[o++] = t.in.a[1]; out[o++] = t.in.f;
    out[o++] = sizeof(p) / sizeof(p[0]);
    for (int i = 0; i < 3; i++) {
        out[o++] = p[i].x; out[o++] = p[i].y;
    }
    out[o++] = u[0].i; out[o++] = u[1].i;
    for (int i = 0; i < 8; i++)
        out[o++] = names[i / 4][i % 4];
    for (int i = 0; i < 2; i++) {
        out[o++] = whole[i].a[0]; out[o++] = whole[i].a[1]; out[o++] = whole[i].f;
    }
    for (int i = 0; i < 2; i++) {
        out[o++] = vv[i].x; out[o++] = vv[i].y; out[o++] = vv[i].z; out[o++] = vv[i].w;
    }
    out[o++] = lit.a[0]; out[o++] = lit.a[1]; out[o++] = lit.f;
    for (int i = 0; i < 6; i++)
        out[o++] = cm[i / 3][i % 3];
    out[o++] = sizeof(cv) / sizeof(cv[0]);
    for (int i = 0; i < 3; i++) {
        out[o++] = cv[i].x; out[o++] = cv[i].y;
    }
    for (int i = 0; i < 2; i++) {
        out[o++] = bv[i].x; out[o++] = bv[i].y; out[o++] = bv[i].z; out[o++] = bv[i].w;
    }
    for (int i = 0; i < 2; i++) {
        out[o++] = mix[i].x; out[o++] = mix[i].y; out[o++] = mix[i].z; out[o++] = mix[i].w;
    }
    for (int i = 0; i < 2; i++) {
        out[o++] = sv[i].v.x; out[o++] = sv[i].v.y; out[o++] = sv[i].v.z;
        out[o++] = sv[i].v.w; out[o++] = sv[i].x;
    }
    for (int i = 0; i < 2; i++) {
        out[o++] = sw[i].v.x; out[o++] = sw[i].v.y; out[o++] = sw[i].v.z;
        out[o++] = sw[i].v.w; out[o++] = sw[i].x;
    }
    for (int i = 0; i < 4; i++) {
        out[o++] = m2[i / 2][i % 2].x; out[o++] = m2[i / 2][i % 2].y;
    }
    for (int i = 0; i < 3; i++) {
        out[o++] = dv[i].x; out[o++] = dv[i].y;
    }
    for (int i = 0; i < 2; i++) {
        out[o++] = cast[i].x * 2; out[o++] = cast[i].w * 2;
    }
}
