"""Checking mode (-cl2c-check): reads of uninitialized private variables (scalars,
vectors, structs, private arrays' elements), each found with its kernel, place, work-item
and name; and the patterns that are fine, where it finds nothing."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import cl2c

SCHEDULES = ["", "-cl2c-schedule=regions", "-cl2c-schedule=fibers"]


def build(src: str, options: str = ""):
    return cl2c.Program(src, options=f"-cl2c-check=collect {options}",
                        filename="bug.cl").build()


def run(kernel, gsize, lsize, *args) -> list[str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cl2c.CheckWarning)
        kernel(gsize, lsize, *args)
    return kernel.findings


def i32(n):
    return np.zeros(n, np.int32)


def f32(n):
    return np.zeros(n, np.float32)


# ---- planted bugs --------------------------------------------------------------------

def test_scalar_written_on_one_branch():
    src = """
__kernel void k(__global int *out) {
    int i = get_global_id(0);
    int x;
    if (i < 4) x = i;
    out[i] = x;
}"""
    found = run(build(src).k, (8,), (8,), i32(8))
    assert len(found) == 1, found
    assert found[0].startswith("kernel 'k': bug.cl:6:14: read of uninitialized private "
                               "variable 'x' (work-item (4,0,0) of group (0,0,0), "
                               "global id (4,0,0))"), found


def test_stop_mode_raises():
    src = """
__kernel void k(__global int *out) {
    int x;
    if (get_global_id(0) > 2) x = 1;
    out[get_global_id(0)] = x;
}"""
    prg = cl2c.Program(src, options="-cl2c-check", filename="bug.cl").build()
    with pytest.raises(cl2c.LaunchError) as info:
        prg.k((4,), (4,), i32(4))
    assert "bug.cl:5:29: read of uninitialized private variable 'x'" in str(info.value)


def test_vector():
    src = """
__kernel void k(__global float4 *out, int c) {
    int i = get_global_id(0);
    float4 v;
    if (c) v = (float4)(1.0f);
    out[i] = v * 2.0f;
}"""
    found = run(build(src).k, (4,), (4,), f32(16), np.int32(0))
    assert any("bug.cl:6:14: read of uninitialized private variable 'v'" in f
               for f in found), found
    assert run(build(src).k, (4,), (4,), f32(16), np.int32(1)) == []


def test_struct():
    src = """
typedef struct { int a; float b; } P;
__kernel void k(__global float *out, int c) {
    P p;
    if (c) p.b = 2.0f;
    out[get_global_id(0)] = p.b;
}"""
    found = run(build(src).k, (4,), (4,), f32(4), np.int32(0))
    assert any("read of uninitialized private variable 'p'" in f for f in found), found


NESTED = """
typedef struct { int a; int b; float2 v; } P;
typedef struct { P in; int n; } Q;
__kernel void k(__global float *out, int w) {
    P s;
    s.a = 1;
    if (w) s.b = 2;
    Q q;
    q.in.a = 1;
    q.in.v.x = 1.0f;
    if (w) q.in.b = 2;
    if (w) q.in.v.y = 0.5f;
    q.n = 3;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = s.b + q.in.b + q.in.v.y + q.in.v.x + s.a + q.n;
}
typedef struct { int a; int b; float2 w; } P2;
typedef struct { P2 in; float4 v; int arr[3]; } Q2;
typedef struct { float16 a, b, c, d; int n; } Big;
__kernel void fine(__global float *out) {
    int i = get_global_id(0);
    P2 p;
    p.a = 1;
    P2 copy = p;                  /* a copy of a struct written in part */
    Q2 q;
    q.in = copy;
    P2 inner = q.in;
    float2 f = fract((float2)(1.5f), &q.in.w);
    q.in.w.yx = q.in.w;
    q.v.xy = (float2)(1.0f, 2.0f);
    q.v.zw = q.in.w + (float2)(2.0f);
    q.arr[0] = 1; q.arr[1] = 2; q.arr[2] = 3;
    Big big;
    big.a = (float16)(1.0f); big.b = big.a; big.c = big.b; big.d.s0123 = (float4)(2.0f);
    big.n = 4;
    out[i] = inner.a + q.in.a + q.v.x + q.v.w + q.arr[1] + big.d.s1 + big.a.sf + big.n +
             q.in.w.y + f.x;
}"""


@pytest.fixture(scope="module", params=SCHEDULES)
def nested(request):
    return build(NESTED, request.param)


def test_struct_members_and_nested_struct_members(nested):
    """A struct's scalar members, and the members of a struct nested in one, are
    tracked each on its own: one written, another read, found by name; all written,
    silent."""
    k = nested.k
    found = run(k, (4,), (4,), f32(4), np.int32(0))
    line = NESTED.splitlines().index(
        "    out[get_global_id(0)] = s.b + q.in.b + q.in.v.y + q.in.v.x + s.a + q.n;") + 1
    text = "\n".join(found)
    assert len(found) == 3, found
    assert f"bug.cl:{line}:29: read of uninitialized private variable 's': member 'b', " \
           "which nothing wrote" in text, found
    assert f"bug.cl:{line}:35: read of uninitialized private variable 'q': member " \
           "'in.b', which nothing wrote" in text, found
    assert "private variable 'q': member 'in.v', component 1 (.y), which nothing " \
           "wrote" in text, found
    out = f32(4)
    assert run(k, (4,), (4,), out, np.int32(1)) == []
    assert (out == 2 + 2 + 0.5 + 1 + 1 + 3).all(), out


STRUCT_ARRAYS = """
typedef struct { int a; float b; float2 v; } P;
typedef struct { P in; int n; } Q;
__kernel void k(__global float *out, int w) {
    int i = get_global_id(0);
    P ps[4];
    for (int j = 0; j < 4; j++) ps[j].a = j;
    if (w) for (int j = 0; j < 4; j++) ps[j].b = j;
    ps[1].v.x = 1.0f;
    if (w) ps[1].v.y = 2.0f;
    Q qs[2][2];
    qs[1][0].in.a = 3;
    if (w) qs[1][0].in.b = 4.0f;
    qs[0][1].n = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[i] = ps[2].a + ps[2].b + ps[1].v.x + ps[1].v.y + qs[1][0].in.a + qs[1][0].in.b +
             qs[0][1].n;
}
__kernel void fine(__global float *out) {
    int i = get_global_id(0);
    P ps[3];
    ps[0].a = 1;
    P c = ps[0];                  /* a copy of an element written in part */
    ps[1] = c;
    ps[2].v.yx = (float2)(1.0f, 2.0f);
    float2 f = fract((float2)(1.5f), &ps[2].v);
    ps[0].v = ps[2].v.yx;
    out[i] = c.a + ps[1].a + ps[2].v.y + f.x + ps[0].v.x;
}"""


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_members_of_an_array_of_structs(schedule):
    """An element of a private array of structs is tracked a member (and a vector
    member's component) at a time, as a struct is: one member written, another read,
    found with the element and the member; copies of an element written in part, a
    swizzle and a builtin's second result into a member's vector, silent."""
    prg = build(STRUCT_ARRAYS, schedule)
    found = run(prg.k, (4,), (4,), f32(4), np.int32(0))
    text = "\n".join(found)
    assert len(found) == 3, found
    assert "bug.cl:16:24: read of uninitialized private variable 'ps': element 2, member " \
           "'b', which nothing wrote" in text, found
    assert "bug.cl:16:46: read of uninitialized private variable 'ps': element 1, member " \
           "'v', component 1 (.y), which nothing wrote" in text, found
    assert "read of uninitialized private variable 'qs': element 2, member 'in.b', which " \
           "nothing wrote" in text, found
    out = f32(4)
    assert run(prg.k, (4,), (4,), out, np.int32(1)) == []
    assert (out == 2 + 2 + 1 + 2 + 3 + 4 + 1).all(), out
    assert run(prg.fine, (4,), (4,), out) == []
    assert (out == 4.5).all(), out

def test_private_array_element():
    src = """
__kernel void k(__global float *out) {
    float a[8];
    a[0] = 1.0f;
    out[get_global_id(0)] = a[3];
}"""
    found = run(build(src).k, (4,), (4,), f32(4))
    assert len(found) == 1, found
    assert "bug.cl:5:29: read of uninitialized private variable 'a': element 3" in found[0]


def test_two_dimensional_array_element():
    src = """
__kernel void k(__global float *out) {
    float a[3][4];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            a[r][c] = r + c;
    out[get_global_id(0)] = a[1][2] + a[2][3];
}"""
    found = run(build(src).k, (4,), (4,), f32(4))
    assert len(found) == 1, found
    assert "bug.cl:7:39: read of uninitialized private variable 'a': element 11" in found[0]


def test_in_a_helper():
    src = """
float pick(float v, int c) {
    float y;
    if (c) y = v;
    return y;
}
__kernel void k(__global float *out) {
    int i = get_global_id(0);
    out[i] = pick(1.0f, i & 1);
}"""
    found = run(build(src).k, (4,), (4,), f32(4))
    assert len(found) == 1, found
    assert "kernel 'k': bug.cl:5:12: read of uninitialized private variable 'y' " \
           "(work-item (0,0,0)" in found[0]


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_across_a_barrier(schedule):
    src = """
__kernel void k(__global int *out) {
    __local int t[8];
    int l = get_local_id(0);
    int x;
    if (l < 4) x = l;
    t[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = x + t[7 - l];
}"""
    found = run(build(src, schedule).k, (16,), (8,), i32(16))
    assert len(found) == 1, found
    assert "bug.cl:9:29: read of uninitialized private variable 'x' (work-item (4,0,0)" \
        in found[0], found


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_loop_with_a_conditional_write(schedule):
    src = """
__kernel void k(__global const float *in, __global float *out, int n) {
    float acc;
    for (int j = 0; j < n; j++) {
        if (j == 2) acc = 0.0f;
        acc += in[j];
    }
    out[get_global_id(0)] = acc;
}"""
    found = run(build(src, schedule).k, (4,), (4,), f32(8), f32(4), np.int32(8))
    assert len(found) == 1, found
    assert "bug.cl:6:9: read of uninitialized private variable 'acc'" in found[0], found


def test_a_write_reading_itself():
    src = """
__kernel void k(__global int *out) {
    int x;
    int y = (x = x + 1);
    out[get_global_id(0)] = y;
}"""
    found = run(build(src).k, (4,), (4,), i32(4))
    assert any("bug.cl:4:18: read of uninitialized private variable 'x'" in f
               for f in found), found


# ---- parts of a vector, second results -----------------------------------------------

def test_vector_component_never_written():
    """A float4 filled one component at a time, .w forgotten, then stored whole."""
    src = """
__kernel void k(__global float4 *out, __global const float *in) {
    int i = get_global_id(0);
    float4 v;
    v.x = in[i];
    v.yz = (float2)(1.0f, 2.0f);
    out[i] = v;
}"""
    found = run(build(src).k, (4,), (4,), f32(16), f32(4))
    assert len(found) == 1, found
    assert found[0].startswith(
        "kernel 'k': bug.cl:7:14: read of uninitialized private variable 'v': component "
        "3 (.w), which nothing wrote (work-item (0,0,0) of group (0,0,0)"), found


def test_swizzle_reads_a_component_never_written():
    src = """
__kernel void k(__global float2 *out, __global const float *in) {
    int i = get_global_id(0);
    float8 v;
    v.lo = (float4)(in[i]);
    v.s7 = 1.0f;
    out[i] = v.s57;
}"""
    found = run(build(src).k, (4,), (4,), f32(8), f32(4))
    assert len(found) == 1, found
    assert "bug.cl:7:14: read of uninitialized private variable 'v': component 5 (.s5)" \
        in found[0], found


def test_second_result_read_before_the_call_wrote_it():
    """fract(ip, &ip): the argument is read before fract stores its second result."""
    src = """
__kernel void k(__global float *out) {
    float ip;
    out[get_global_id(0)] = fract(ip, &ip);
}"""
    found = run(build(src).k, (4,), (4,), f32(4))
    assert len(found) == 1, found
    assert "bug.cl:4:35: read of uninitialized private variable 'ip' (work-item (0,0,0)" \
        in found[0], found


def test_one_result_of_modf_stored_the_other_read():
    """The whole part goes to r[1]; r[0], meant for the fraction, is read unwritten
    (the &r[1] given to modf marks r[1] alone written, not the array)."""
    src = """
__kernel void k(__global float *out, __global const float *in) {
    int i = get_global_id(0);
    float r[2];
    float c;
    float2 sc;
    sc.y = sincos(in[i], &c);
    out[i] = modf(in[i], &r[1]) + r[0] + c + sc.x;
}"""
    found = run(build(src).k, (4,), (4,), f32(4), f32(4))
    assert len(found) == 2, found
    assert any("bug.cl:8:35: read of uninitialized private variable 'r': element 0" in f
               for f in found), found
    assert any("bug.cl:8:46: read of uninitialized private variable 'sc': component 0 (.x)"
               in f for f in found), found


# ---- patterns that are fine ---------------------------------------------------------

def test_struct_parts_that_are_fine(nested):
    """Copies of structs filled in part, a nested struct written whole, a swizzle and a
    builtin's second result into a nested vector, an array member, and a struct with
    more parts than a flag has bits (tracked a member at a time): silent."""
    out = f32(4)
    assert run(nested.fine, (4,), (4,), out) == []
    assert (out == 1 + 1 + 1 + 3 + 2 + 2 + 1 + 4 + 1 + 0.5).all(), out


PARTS = """
typedef struct { float4 v; int n; float2 w; } S;
__kernel void array(__global float *out, int w) {
    float4 a[3];
    int i = get_global_id(0);
    a[1].x = 1.0f;
    a[2] = (float4)(2.0f);
    a[0].xw = (float2)(5.0f, 6.0f);
    if (w) a[1].z = 3.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[i] = a[1].x + a[1].z + a[2].w + a[0].w + a[0].xw.x;
}
__kernel void member(__global float *out, int w) {
    S s;
    int i = get_global_id(0);
    s.v.x = 1.0f;
    s.w = (float2)(2.0f);
    if (w) s.v.zw = (float2)(3.0f);      /* (GCC 12 -O3 once lost these flags) */
    if (w) s.n = 2;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[i] = s.v.x + s.v.z + s.w.y + s.n;
}
__kernel void swizzles(__global float *out, int w) {
    float4 a[2];
    a[0].xy = (float2)(1.0f, 2.0f);
    a[1] = (float4)(0.0f);
    if (w) a[0].zw = a[1].xy;
    S s;
    s.v.xy = (float2)(1.0f, 2.0f);
    if (w) s.v.zw = s.v.yx;
    out[get_global_id(0)] = dot(a[0].yz + a[1].xy, s.v.xz);
}
__kernel void by_parts(__global float *out) {
    int i = get_global_id(0);
    float4 a[2];
    a[0].xy = (float2)(1.0f, 2.0f);
    a[0].zw = a[0].yx;
    a[1].s0 = 1.0f; a[1].s1 = 2.0f; a[1].s2 = 3.0f; a[1].s3 = 4.0f;
    float3 b[2][2];
    for (int j = 0; j < 2; j++) { b[j][0] = (float3)(j); b[j][1].xyz = b[j][0]; }
    float2 c[2];
    float2 f = fract((float2)(out[i]), &c[1]);
    S s;
    s.v.xy = (float2)(1.0f, 2.0f);
    s.v.z = 3.0f; s.v.w = 4.0f;
    S t;
    t.n = 1;
    S u = t;                       /* a copy of a struct written in part */
    S p;
    float4 q = fract((float4)(out[i]), &p.v);
    out[i] = dot(a[0], a[1]) + b[1][1].z + f.x + c[1].y + dot(s.v, s.v) + u.n + p.v.w +
             q.x;
}"""


@pytest.fixture(scope="module", params=SCHEDULES[1:])     # (the default is regions here)
def parts(request):
    """Vectors in private arrays and in structs' members, tracked a component at a
    time: a barrier between writes and reads, so the schedules carry the shadows."""
    return build(PARTS, request.param)


def _line(text):
    return PARTS.splitlines().index(text) + 1


def test_vector_in_an_array_written_in_part(parts):
    """An array's vector element, one component written and another read: found with
    the element and the component; written, silent."""
    found = run(parts.array, (8,), (8,), f32(8), np.int32(0))
    line = _line("    out[i] = a[1].x + a[1].z + a[2].w + a[0].w + a[0].xw.x;")
    assert len(found) == 1, found
    assert f"bug.cl:{line}:23: read of uninitialized private variable 'a': element 1, " \
           "component 2 (.z), which nothing wrote" in found[0], found
    out = f32(8)
    assert run(parts.array, (8,), (8,), out, np.int32(1)) == []
    assert (out == 1 + 3 + 2 + 6 + 5).all()


def test_vector_member_of_a_struct_written_in_part(parts):
    """A struct's vector member: a component written, another read; and a member that
    is no vector, never written. Written, silent."""
    found = run(parts.member, (8,), (8,), f32(8), np.int32(0))
    line = _line("    out[i] = s.v.x + s.v.z + s.w.y + s.n;")
    assert len(found) == 2, found
    assert f"bug.cl:{line}:22: read of uninitialized private variable 's': member 'v', " \
           "component 2 (.z), which nothing wrote" in found[0], found
    assert f"bug.cl:{line}:38: read of uninitialized private variable 's': member 'n', " \
           "which nothing wrote" in found[1], found
    out = f32(8)
    assert run(parts.member, (8,), (8,), out, np.int32(1)) == []
    assert (out == 1 + 3 + 2 + 2).all()


def test_components_read_by_swizzles(parts):
    """Swizzles of an array's vector element and of a struct's vector member read a
    component never written; written by swizzles, silent."""
    found = run(parts.swizzles, (8,), (8,), f32(8), np.int32(0))
    line = _line("    out[get_global_id(0)] = dot(a[0].yz + a[1].xy, s.v.xz);")
    assert len(found) == 2, found
    text = "\n".join(found)        # (the order C evaluates dot's arguments in)
    assert f"bug.cl:{line}:33: read of uninitialized private variable 'a': element 0, " \
           "component 2 (.z), which nothing wrote" in text, found
    assert f"bug.cl:{line}:52: read of uninitialized private variable 's': member 'v', " \
           "component 2 (.z), which nothing wrote" in text, found
    out = f32(8)
    assert run(parts.swizzles, (8,), (8,), out, np.int32(1)) == []
    assert (out == 2 * 1 + 0 * 2).all(), out


def test_vectors_written_by_parts_are_silent(parts):
    assert run(parts.by_parts, (8,), (8,), f32(8)) == []


FINE = {
    "same condition": """
__kernel void k(__global float *out, int c) {
    int x;
    if (c) x = 1;
    int y = 2;
    if (c) y = x;
    out[get_global_id(0)] = y;
}""",
    "both branches": """
__kernel void k(__global float *out, int c) {
    int x;
    if (c) x = 1; else x = 2;
    out[get_global_id(0)] = x;
}""",
    "switch with default": """
__kernel void k(__global float *out, int c) {
    int x;
    switch (c) { case 0: x = 1; break; case 1: x = 5; break; default: x = 3; }
    out[get_global_id(0)] = x;
}""",
    "written in a loop run at least once": """
__kernel void k(__global float *out, int n) {
    int x;
    int j = 0;
    do { x = j; j++; } while (j < n);
    int y;
    while (1) { y = j; if (y > 0) break; j++; }
    out[get_global_id(0)] = x + y;
}""",
    "first iteration writes": """
__kernel void k(__global const float *in, __global float *out, int n) {
    float best;
    for (int j = 0; j < n; j++)
        if (j == 0 || in[j] > best) best = in[j];
    out[get_global_id(0)] = n > 0 ? best : 0.0f;
}""",
    "address taken": """
void set(int *p) { *p = 3; }
__kernel void k(__global float *out) {
    int x;
    set(&x);
    float c;
    float s = sincos(out[get_global_id(0)], &c);
    int e;
    float m = frexp(2.0f, &e);
    out[get_global_id(0)] = x + c + s + m + e;
}""",
    "vector and struct by parts": """
typedef struct { int a; float b; } P;
__kernel void k(__global float *out) {
    float3 v;
    v.x = 1.0f; v.y = 2.0f; v.z = 3.0f;
    float4 w;
    w.xy = (float2)(1.0f, 2.0f);
    w.zw = w.xy;
    P p;
    p.a = 1; p.b = 2.0f;
    P q = p;
    out[get_global_id(0)] = dot(v, v) + w.w + q.a + q.b;
}""",
    "vector by swizzles and second results": """
__kernel void k(__global float *out) {
    int i = get_global_id(0);
    float4 v;
    v.xy = (float2)(1.0f, 2.0f);
    v.s23 = v.s10;
    float8 e;
    e.lo = v; e.s46 = v.xy; e.odd = v;
    float3 p;
    p.x = 1.0f; p.yz = p.xx;
    float4 w;
    float4 f = fract(v, &w);
    float2 c;
    float2 s = sincos((float2)(out[i]), &c);
    float r[2];
    r[0] = modf(out[i], &r[1]);
    int4 m;
    m.x = 1;
    out[i] = dot(v, v) + dot(e.hi, e.lo) + dot(p, p) + s.x + c.y + r[0] + r[1] + m.x +
             dot(w, f);
}""",
    "array filled by a loop and by vstore": """
__kernel void k(__global float *out) {
    float a[8];
    for (int j = 0; j < 8; j++) a[j] = j;
    float b[4];
    vstore4((float4)(1.0f), 0, b);
    float c[4];
    c[get_global_id(0) & 3] = 1.0f;
    out[get_global_id(0)] = a[7] + b[3] + c[get_global_id(0) & 3];
}""",
    "struct array elements": """
typedef struct { int a; float b; } P;
__kernel void k(__global float *out) {
    P ps[4];
    for (int j = 0; j < 4; j++) { ps[j].a = j; ps[j].b = j; }
    float4 vs[2];
    vs[1].x = 1.0f;
    out[get_global_id(0)] = ps[3].b + vs[1].x;
}""",
    "helper writes through a pointer": """
void fill(float *p, int n) { for (int j = 0; j < n; j++) p[j] = j; }
__kernel void k(__global float *out) {
    float a[4];
    fill(a, 4);
    float2 v;
    fill((float *)&v, 2);
    out[get_global_id(0)] = a[3] + v.y;
}""",
    "uniform condition": """
__kernel void k(__global float *out, int n) {
    int x;
    int l = get_local_id(0);
    if (n > 0) x = l;
    if (n > 0) out[get_global_id(0)] = x;
}""",
    "cast to void": """
__kernel void k(__global float *out) {
    int x;
    (void)x;
    out[get_global_id(0)] = 1.0f;
}""",
    "designated initializer": """
typedef struct { int a; float b; } P;
__kernel void k(__global float *out, int n) {
    int a;
    if (n) a = 1;
    P p = {.a = 2, .b = 1.0f};
    out[get_global_id(0)] = p.a + (n ? a : 0);
}""",
    "case label in a nested statement": """
__kernel void k(__global float *out, int n) {
    int x;
    switch (n) {
    case 0:
        if (n) { case 1: x = 4; }
        out[get_global_id(0)] = x;
    }
}""",
    "pointer chosen on both branches": """
__kernel void k(__global float *a, __global float *b, int c) {
    __global float *p;
    if (c) p = a; else p = b;
    p[get_global_id(0)] = 1.0f;
}""",
}


@pytest.mark.parametrize("schedule", SCHEDULES)
@pytest.mark.parametrize("name", list(FINE))
def test_fine(name, schedule):
    knl = build(FINE[name], schedule).k
    args = [f32(8) if a.kind == "buffer" else np.int32(1) for a in knl.arg_info]
    assert run(knl, (8,), (8,), *args) == []


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_uniform_condition_across_a_barrier(schedule):
    """A flag set under a condition of the group's: the regions schedule may keep it
    once per group."""
    src = """
__kernel void k(__global int *out, int n) {
    __local int t[8];
    int l = get_local_id(0);
    int x;
    if (n > 0) x = l;
    t[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    int y = t[7 - l];
    if (n > 0) y += x;
    out[get_global_id(0)] = y;
}"""
    out = i32(16)
    assert run(build(src, schedule).k, (16,), (8,), out, np.int32(1)) == []
    assert out[1] == 6 + 1
    found = run(build(src, schedule).k, (16,), (8,), out, np.int32(0))
    assert found == []     # n == 0: nothing read


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_vector_across_a_barrier(schedule):
    src = """
__kernel void k(__global float4 *out) {
    __local float t[8];
    int l = get_local_id(0);
    float4 v;
    float4 w;
    if (l != 5) v = (float4)(l);
    if (l & 1) w = (float4)(l);
    t[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    float4 r = (float4)(t[7 - l]);
    if (l & 1) r += w;
    out[get_global_id(0)] = r + v;
}"""
    out = f32(64)
    found = run(build(src, schedule).k, (16,), (8,), out)
    assert len(found) == 1, found
    assert "bug.cl:13:33: read of uninitialized private variable 'v' (work-item (5,0,0)" \
        in found[0], found
    assert out[4 * 3] == 4 + 3 + 3


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_same_condition_across_a_barrier(schedule):
    """Written and read under one condition, a barrier between: the flag crosses it as
    the variable does (a per-work-item array under regions, the fiber's stack)."""
    src = """
__kernel void k(__global int *out) {
    __local int t[8];
    int l = get_local_id(0);
    int x;
    float a[4];
    if (l & 1) { x = l; a[l & 3] = 1.0f; }
    t[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    int y = t[7 - l];
    if (l & 1) y += x + (int)a[l & 3];
    out[get_global_id(0)] = y;
}"""
    out = i32(16)
    assert run(build(src, schedule).k, (16,), (8,), out) == []
    assert out[1] == 6 + 1 + 1


def test_nothing_added_where_every_read_is_proven():
    src = """
__kernel void k(__global int *out, int c) {
    int x;
    if (c) x = 1; else x = 2;
    int y = 3;
    out[get_global_id(0)] = x + y;
}"""
    c = cl2c.translate(src, options="-cl2c-check").c_source
    assert "cl2c_cks_" not in c
    assert "cl2c_cks_" not in cl2c.translate(FINE["same condition"]).c_source


# ---- counted loops (checking/counted.py) ---------------------------------------------

FILLED = """
#define N 16
__kernel void k(__global float *out, __global const float *in) {
    int j, i = get_global_id(0);
    float a[N], b[N];
    for (j = 0; j < N; j++)             /* C89 style, as the seeds' kernels */
        a[j] = in[j];
    for (int m = 0; m <= N - 1; ++m) {
        float t = a[m] * 2.0f;
        b[m] = t;
    }
    float s = 0.0f;
    for (j = 0; j < N; j++)
        s += a[j] * b[j];
    out[i] = s;
}"""


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_arrays_filled_by_counted_loops_need_no_shadow(schedule):
    c = cl2c.translate(FILLED, options=f"-cl2c-check {schedule}").c_source
    assert "cl2c_cks_" not in c and "CL2C_CK_INDEX" not in c
    prg = build(FILLED, schedule)
    x = np.arange(16, dtype=np.float32)
    out = f32(8)
    assert run(prg.k, (8,), (8,), out, x) == []
    assert (out == 2 * (x * x).sum()).all()


@pytest.mark.parametrize("fill, read, what", [
    ("for (j = 0; j < N - 1; j++) a[j] = j;", "a[N - 1]",     # one short
     "read of uninitialized private variable 'a': element 15"),
    ("for (j = 1; j < N; j++) a[j] = j;", "a[0]",              # from one
     "read of uninitialized private variable 'a': element 0"),
    ("for (j = 0; j < N; j++) if (j != 3) a[j] = j;", "a[3]",  # not every iteration
     "read of uninitialized private variable 'a': element 3"),
    ("for (j = 0; j < N; j += 2) a[j] = j;", "a[1]",           # every other one
     "read of uninitialized private variable 'a': element 1"),
    ("for (j = 0; j < N; j++) { a[j] = j; j += 0; }", "a[5] * 0.0f + a[3]",  # j changed
     None),
    ("for (j = 0; j < N; j++) a[j] = j;", "a[N]",              # past the end
     "array index 16 out of bounds"),
    ("for (j = 0; j <= N; j++) a[j] = j;", "a[0]",             # writes past the end
     "array index 16 out of bounds"),
    ("for (uchar c = 0; c < 300; c++) { a[c & 15] = c; if (c == 255) break; }",
     "a[2]", None),
])
def test_counted_loops_that_do_not_fill_or_overrun(fill, read, what):
    src = f"""
#define N 16
__kernel void k(__global float *out) {{
    int j;
    float a[N];
    {fill}
    out[get_global_id(0)] = {read};
}}"""
    found = run(build(src).k, (4,), (4,), f32(4))
    if what is None:
        assert found == []
    else:
        assert found and what in found[0], found


def test_a_narrow_counter_keeps_its_index_checked():
    """A char counted to 300 wraps past 127 and indexes below the array."""
    src = """
__kernel void k(__global float *out, int n) {
    float a[300];
    for (char c = 0; c < 300; c++) {
        a[c] = c;
        if (c == -1) break;
    }
    out[get_global_id(0)] = a[0];
}"""
    found = run(build(src).k, (1,), (1,), f32(1), np.int32(0))
    assert found and "array index -128 out of bounds" in found[0], found


def test_a_cast_counter_keeps_its_index_checked():
    """`(char)k < 300` always holds, so k runs past the array's end: its index keeps
    its check (a counter is read through no cast)."""
    src = """
__kernel void k(__global float *out, int n) {
    float a[300];
    for (int k = 0; (char)k < 300; k++) {
        a[k] = k;
        out[k] = a[k];
    }
}"""
    assert "CL2C_CK_INDEX" in cl2c.translate(src, options="-cl2c-check").c_source
    plain = src.replace("(char)k", "k")
    assert "CL2C_CK_INDEX" not in cl2c.translate(plain, options="-cl2c-check").c_source


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_a_counter_written_through_a_pointer_keeps_its_reads_checked(schedule):
    """`*p = jump` moves the C89 counter k past the tile: the read after it is out of
    bounds, however the loop over k is laid out (a uniform loop's box test would take
    k to stay in [0, 16))."""
    src = """
#define TS 16
__kernel void k(__global const float *A, __global float *C, int jump) {
    __local float Asub[TS][TS];
    int lid = get_local_id(0);
    int k;
    int *p = &k;
    float sum = 0.0f;
    for (int r = 0; r < TS; r++)
        Asub[r][lid] = A[r * TS + lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (k = 0; k < TS; k++) {
        if (k == 3)
            *p = jump;
        sum += Asub[k][lid];
    }
    C[get_global_id(0)] = sum;
}"""
    kernel = build(src, schedule).k
    a = np.arange(256, dtype=np.float32)
    c = f32(16)
    assert run(kernel, (16,), (16,), a, c, np.int32(3)) == []
    assert np.array_equal(c, a.reshape(16, 16).sum(axis=0))
    found = run(kernel, (16,), (16,), a, c, np.int32(20))
    assert found and "out of bounds" in found[0], found
