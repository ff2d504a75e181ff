"""Checking mode (-cl2c-check) on accesses through pointers into private memory: an
array passed to a helper, a scalar's address, pointer arithmetic, a struct's member.
Each is checked against the bounds of the private variable the pointer points into,
on every schedule; correct kernels compute what NumPy does and find nothing, however
many private variables their helpers declare."""
from __future__ import annotations

import numpy as np
import pytest

import cl2c
from check_helpers import build, finding

SCHEDULES = ["", " -cl2c-schedule=fibers"]


HELPERS = """
void fill(float *v, int n, float x) { for (int i = 0; i < n; ++i) v[i] = x + i; }
float sum(const float *v, int n) { float s = 0; for (int i = 0; i < n; ++i) s += v[i]; return s; }
__kernel void k(__global float *out, int n) {
    float a[4];
    float b[8];
    fill(a, n, 1.0f);
    fill(b, 8, 2.0f);
    BARRIER
    out[get_global_id(0)] = sum(a, 4) + sum(b, 8);
}"""


@pytest.mark.parametrize("schedule", SCHEDULES)
@pytest.mark.parametrize("barrier", ["", "barrier(CLK_LOCAL_MEM_FENCE);"])
def test_helper_writing_past_a_private_array(schedule, barrier):
    """The arrays live across the barrier (the regions schedule keeps them per work-item)
    or not; the helper's v[i] is checked against the array the kernel passed."""
    k = build(HELPERS.replace("BARRIER", barrier), "-cl2c-check" + schedule).k
    out = np.zeros(4, np.float32)
    k((4,), (4,), out, np.int32(4))
    assert (out == (1 + 2 + 3 + 4) + sum(2 + i for i in range(8))).all()
    msg = finding(k, (4,), (4,), out, np.int32(5))
    assert "bug.cl:2:67: out-of-bounds write of 4 bytes at offset 16 of __private 'a' " \
           "(16 bytes)" in msg
    assert "work-item (0,0,0) of group (0,0,0)" in msg


def test_through_a_scalars_address():
    src = """
void two(int *p) { p[0] = 1; p[1] = 2; }
__kernel void k(__global int *out) {
    int x;
    two(&x);
    out[get_global_id(0)] = x;
}"""
    msg = finding(build(src).k, (4,), None, np.zeros(4, np.int32))
    assert "bug.cl:2:30: out-of-bounds write of 4 bytes at offset 4 of __private 'x' " \
           "(4 bytes)" in msg


def test_pointer_arithmetic_in_the_kernel():
    src = """
__kernel void k(__global float *out, int j) {
    float a[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    float *p = a + 2;
    out[get_global_id(0)] = p[j] + *(a + 1);
}"""
    k = build(src).k
    out = np.zeros(4, np.float32)
    k((4,), None, out, np.int32(1))
    assert (out == 6.0).all()
    msg = finding(k, (4,), None, out, np.int32(2))
    assert "bug.cl:5:29: out-of-bounds read of 4 bytes at offset 16 of __private 'a' " \
           "(16 bytes)" in msg
    msg = finding(k, (4,), None, out, np.int32(-3))
    assert "out-of-bounds read of 4 bytes at offset -4 of __private 'a'" in msg


def test_a_struct_members_array_is_checked_against_the_struct():
    """A pointer to a member array reaches the struct's other members without a finding
    (the variable is the struct); past the struct, it is found."""
    src = """
typedef struct { float v[3]; float w; } pair;
void set(float *p, int n) { for (int i = 0; i < n; ++i) p[i] = (float)i; }
__kernel void k(__global float *out, int n) {
    pair s;
    s.w = 10.0f;
    set(s.v, n);
    out[get_global_id(0)] = s.w;
}"""
    k = build(src).k
    out = np.zeros(4, np.float32)
    k((4,), None, out, np.int32(4))
    assert (out == 3.0).all()
    msg = finding(k, (4,), None, out, np.int32(5))
    assert "out-of-bounds write of 4 bytes at offset 16 of __private 's' (16 bytes)" in msg


def test_the_out_of_bounds_write_changes_nothing():
    """Collected, the launch runs to its end: the write past `a` went to scratch memory,
    so the kernel's other variables keep their values."""
    src = """
void fill(int *v, int n) { for (int i = 0; i < n; ++i) v[i] = 100 + i; }
__kernel void k(__global int *out) {
    int before = 7;
    int a[2];
    int after = 9;
    fill(a, 4);
    out[get_global_id(0)] = before * 1000 + after * 100 + a[0] + a[1] - 201;
}"""
    k = build(src, "-cl2c-check=collect").k
    out = np.zeros(4, np.int32)
    with pytest.warns(cl2c.CheckWarning, match="offset 8 of __private 'a' \\(8 bytes\\)"):
        k((4,), None, out)
    assert (out == 7900).all()


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_many_helpers_frames_find_nothing(schedule):
    """Helpers at the same depth declare arrays of different sizes at the same stack
    addresses, more of them than the checks remember, in a loop: the live one is always
    the one checked, so a correct kernel finds nothing."""
    src = """
float small(int x) { float t[2]; for (int i = 0; i < 2; ++i) t[i] = x + i;
                     float *p = t; return p[0] + p[1]; }
float large(int x) { float t[16]; float *p = &t[0];
                     for (int i = 0; i < 16; ++i) p[i] = x; return p[15]; }
float both(int x) { float u[3] = {1, 2, 3}; return small(x) + large(x) + u[2]; }
__kernel void k(__global float *out) {
    int g = get_global_id(0);
    float acc = 0;
    for (int r = 0; r < 40; ++r) {
        float mine[5];
        for (int i = 0; i < 5; ++i) *(mine + i) = r;
        acc += both(g + r) + small(r) + mine[4];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[g] = acc;
}"""
    k = build(src, "-cl2c-check" + schedule).k
    out = np.zeros(16, np.float32)
    k((16,), (8,), out)
    r = np.arange(40)
    g = np.arange(16)[:, None]
    x = g + r
    expect = ((2 * x + 1) + x + 3 + (2 * r + 1) + r).sum(axis=1)
    assert (out == expect).all()


GENERIC = """
void put(float *p, int i, float x) { p[i] = x; }
float get(const float *p, int i) { return p[i]; }
__kernel void k(__global float *out, __local float *t, int n, int m) {
    int l = get_local_id(0);
    float mine[2];
    put(t, l + m, 1.0f);
    put(mine, 0, 2.0f);
    put(mine, n, 3.0f);
    barrier(CLK_LOCAL_MEM_FENCE);
    put(out, get_global_id(0) + n, get(t, l) + get(mine, 0) + get(mine, 1));
}"""


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_generic_pointers(schedule):
    """OpenCL C 2.0's generic pointers: each access as one through the buffer, __local
    memory or private variable the pointer points into."""
    k = build(GENERIC, "-cl-std=CL2.0 -cl2c-check" + schedule).k
    out = np.zeros(9, np.float32)
    k((8,), (4,), out, cl2c.LocalMemory(16), np.int32(1), np.int32(0))
    assert (out[1:] == 6.0).all()
    msg = finding(k, (4,), (4,), out, cl2c.LocalMemory(16), np.int32(2), np.int32(0))
    assert "bug.cl:2:38: out-of-bounds write of 4 bytes at offset 8 of __private 'mine' " \
           "(8 bytes)" in msg
    msg = finding(k, (4,), (4,), out, cl2c.LocalMemory(16), np.int32(1), np.int32(1))
    assert "bug.cl:2:38: out-of-bounds write of 4 bytes at offset 16 of __local 't' " \
           "(16 bytes)" in msg


def test_generic_pointers_race_on_local_memory():
    src = """
void put(int *p, int x) { *p = x; }
__kernel void k(__global int *out, __local int *t) {
    put(t, get_local_id(0));
    out[get_global_id(0)] = *t;
}"""
    k = build(src, "-cl-std=CL2.0 -cl2c-check").k
    msg = finding(k, (4,), (4,), np.zeros(4, np.int32), cl2c.LocalMemory(4))
    assert "bug.cl:2:28: data race: write of __local 't' at offset 0" in msg


def test_generic_pointers_store_the_same_value_no_race():
    """The same value stored by every work-item through a generic pointer is no race,
    as through a __global one."""
    src = """
void put(int *p, int x) { *p = x; }
__kernel void k(__global int *flag, __global int *out) {
    put(flag, 1);
    out[get_global_id(0)] = 2;
}"""
    flag, out = np.zeros(1, np.int32), np.zeros(16, np.int32)
    build(src, "-cl-std=CL2.0 -cl2c-check").k((16,), (4,), flag, out)
    assert flag[0] == 1 and (out == 2).all()


def test_generic_pointers_in_vector_loads_stores_and_atomics():
    """vloadn, vstoren and atomic functions through generic pointers (2.0's: the 1.x
    ones take __global or __local pointers only): each checked as one access into the
    memory the pointer points into."""
    src = """
float4 get(const float *p, int i) { return vload4(i, p); }
void put(float *p, int i, float4 v) { vstore4(v, i, p); }
void count(volatile atomic_int *c, int i) { atomic_fetch_add(c + i, 1); }
__kernel void k(__global float *out, __global atomic_int *hits, __local float *t, int n) {
    int l = get_local_id(0);
    float mine[8];
    put(mine, 0, (float4)(1.0f));
    put(mine, 1, (float4)(2.0f));
    put(t, l, get(mine, l % 2));
    barrier(CLK_LOCAL_MEM_FENCE);
    put(out, get_global_id(0) + n, get(t, l) + get(mine, n));
    count(hits, n);
}"""
    k = build(src, "-cl-std=CL2.0 -cl2c-check").k
    out, hits = np.zeros(4 * 8, np.float32), np.zeros(1, np.int32)
    k((8,), (4,), out, hits, cl2c.LocalMemory(64), np.int32(0))
    assert (out.reshape(8, 4)[:, 0] == np.where(np.arange(8) % 2, 2.0, 1.0) + 1.0).all()
    assert hits[0] == 8
    msg = finding(k, (4,), (4,), out, hits, cl2c.LocalMemory(48), np.int32(0))
    assert "out-of-bounds write of 16 bytes at offset 48 of __local 't' (48 bytes)" in msg
    msg = finding(k, (4,), (4,), out, hits, cl2c.LocalMemory(64), np.int32(2))
    assert "out-of-bounds read of 16 bytes at offset 32 of __private 'mine' (32 bytes)" \
        in msg
    msg = finding(k, (4,), (4,), np.zeros(4 * 4, np.float32), np.zeros(2, np.int32),
                  cl2c.LocalMemory(64), np.int32(1))
    assert "out-of-bounds write of 16 bytes at offset 64 of __global 'out' (64 bytes)" in msg
    msg = finding(k, (4,), (4,), np.zeros(4 * 5, np.float32), hits, cl2c.LocalMemory(64),
                  np.int32(1))
    assert "out-of-bounds atomic operation of 4 bytes at offset 4 of __global 'hits' " \
           "(4 bytes)" in msg


def test_a_vector_updated_in_place_is_not_registered():
    """A swizzle store or ++ on a private vector is a runtime helper that takes the
    vector's address (lower/expressions.py): it writes the vector's own components, so
    the vector is no escaping variable, and N-body's loop, which stores into r.xyz,
    keeps its speed (a registration there made the checked bench 20-30x the normal
    build). A pointer the kernel takes itself is still registered and checked."""
    src = """
__kernel void k(__global float4 *out, int n) {
    float4 r = out[get_global_id(0)];
    r.xyz = r.zyx + 1.0f;
    int4 c = (int4)(1, 2, 3, 4);
    c++;
    float4 w = r;
    float *p = (float *)&w;
    p[n] = 2.0f;
    out[get_global_id(0)] = r + w + convert_float4(c);
}"""
    c = cl2c.translate(src, options="-cl2c-check").c_source
    assert 'cl2c_ck_private(cl2c_ck_t, "w"' in c
    assert 'cl2c_ck_private(cl2c_ck_t, "r"' not in c
    assert 'cl2c_ck_private(cl2c_ck_t, "c"' not in c
    k = build(src).k
    out = np.arange(16, dtype=np.float32).reshape(4, 4)
    r = out.copy()
    r[:, :3] = out[:, 2::-1] + 1
    w = r.copy()
    w[:, 3] = 2.0
    k((4,), (4,), out, np.int32(3))
    np.testing.assert_array_equal(out, r + w + np.array([2, 3, 4, 5], np.float32))
    msg = finding(k, (4,), (4,), out, np.int32(4))
    assert "out-of-bounds write of 4 bytes at offset 16 of __private 'w' (16 bytes)" in msg
