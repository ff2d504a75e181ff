/* Brace initializers that elide braces (C11 6.7.9p20) and mix in designators: cl2c
   writes them fully braced. Each object's values go to out, in order. */
struct In { int a[2]; float f; };
struct S { int x; struct In in; };
union U { int i; float f; };

__constant int cm[2][3] = {1, 2, 3, 4, 5};

__kernel void initializers(__global int *out) {
    int o = get_global_id(0) * 128;
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
    for (int i = 0; i < 2; i++) {
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
}
