"""Checking mode (-cl2c-check) on memory that builtins reach through a pointer: vector
loads and stores (vloadn, vstoren, vload_half, vstorea_half), checked as one access of
their n elements (bounds, races, __local initialisation), and atomic functions, whose
object's bounds are checked. Planted bugs are found at their place; correct kernels
compute what NumPy does and find nothing."""
from __future__ import annotations

import numpy as np

import cl2c
from check_helpers import build, finding


VECTORS = """
__kernel void k(__global const float *a, __global float *b, __local float *t) {
    int i = get_global_id(0), l = get_local_id(0);
    float4 v = vload4(i, a);
    vstore4(v * 2.0f, i, b);
    vstore4(v, l, t);
    barrier(CLK_LOCAL_MEM_FENCE);
    float4 w = vload4((l + 1) % get_local_size(0), t);
    vstore3(w.xyz, i, b + 4 * get_global_size(0));
}"""


def _vector_args(n: int, a_len: int, b_len: int):
    return np.arange(a_len, dtype=np.float32), np.zeros(b_len, np.float32)


def test_vector_loads_and_stores_in_bounds_find_nothing():
    n, lsize = 16, 4
    a, b = _vector_args(n, 4 * n, 4 * n + 3 * n)
    build(VECTORS).k((n,), (lsize,), a, b, cl2c.LocalMemory(16 * lsize))
    assert (b[:4 * n] == 2 * a).all()
    # work-item i stores the xyz of its group's next work-item's vload4
    rows = a.reshape(n, 4)
    nxt = np.array([(g // lsize) * lsize + (g % lsize + 1) % lsize for g in range(n)])
    assert (b[4 * n:].reshape(n, 3) == rows[nxt, :3]).all()


def test_vload_out_of_bounds():
    a, b = _vector_args(16, 4 * 16 - 1, 7 * 16)
    msg = finding(build(VECTORS).k, (16,), (4,), a, b, cl2c.LocalMemory(64))
    assert "bug.cl:4:16: out-of-bounds read of 16 bytes at offset 240 of __global 'a' " \
           "(252 bytes)" in msg
    assert "global id (15,0,0)" in msg


def test_vstore_out_of_bounds_changes_nothing_outside():
    """vstore3's 12 bytes at b + 4 n + 3 i: the last work-item's end past the buffer."""
    a, whole = _vector_args(16, 4 * 16, 7 * 16 + 8)
    b = whole[:7 * 16 - 1]
    msg = finding(build(VECTORS).k, (16,), (4,), a, b, cl2c.LocalMemory(64))
    assert "bug.cl:9:5: out-of-bounds write of 12 bytes at offset 436 of __global 'b' " \
           "(444 bytes)" in msg
    assert (whole[7 * 16 - 1:] == 0).all()


def test_vstore_to_local_memory_out_of_bounds():
    a, b = _vector_args(16, 4 * 16, 7 * 16)
    msg = finding(build(VECTORS).k, (16,), (4,), a, b, cl2c.LocalMemory(60))
    assert "bug.cl:6:5: out-of-bounds write of 16 bytes at offset 48 of __local 't' " \
           "(60 bytes)" in msg
    assert "work-item (3,0,0)" in msg


def test_vload_race_on_local_memory():
    src = """
__kernel void k(__global float *out, __local float *t) {
    int l = get_local_id(0);
    vstore2((float2)(l, l), l, t);
    float2 w = vload2(l == 0 ? 0 : l - 1, t);
    out[get_global_id(0)] = w.x;
}"""
    msg = finding(build(src).k, (8,), (8,), np.zeros(8, np.float32), cl2c.LocalMemory(32))
    assert "bug.cl:5:16: data race: read of __local 't' at offset 0, which work-item " \
           "(local linear id 0) wrote with no barrier between" in msg
    assert "work-item (1,0,0)" in msg


def test_vload_of_uninitialized_local_memory():
    src = """
__kernel void k(__global float *out, __local float *t) {
    int l = get_local_id(0);
    if (l > 0)
        vstore4((float4)(1.0f), l, t);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = vload4(0, t).y;
}"""
    msg = finding(build(src).k, (4,), (4,), np.zeros(4, np.float32), cl2c.LocalMemory(64))
    assert "bug.cl:7:29: read of uninitialized __local memory: 't' at offset 0" in msg


def test_same_vector_stored_by_every_work_item_is_no_race():
    src = """
__kernel void k(__global float *out) {
    vstore4((float4)(1.0f, 2.0f, 3.0f, 4.0f), 0, out);
}"""
    out = np.zeros(4, np.float32)
    build(src).k((16,), (16,), out)
    assert out.tolist() == [1, 2, 3, 4]


HALVES = """
__kernel void k(__global const float *a, __global half *h) {
    int i = get_global_id(0);
    vstorea_half3(vload3(i, a), i, h);
}"""


def test_vstorea_half3_strides_by_four():
    """vstorea_half3 writes 3 halfs at h + 4 i: 4 n - 1 halfs hold n work-items' stores,
    4 n - 2 do not."""
    n = 8
    a = np.arange(3 * n, dtype=np.float32)
    h = np.zeros(4 * n - 1, np.float16)
    build(HALVES).k((n,), None, a, h)
    assert (np.append(h, 0).reshape(n, 4)[:, :3] == a.reshape(n, 3)).all()
    msg = finding(build(HALVES).k, (n,), None, a, np.zeros(4 * n - 2, np.float16))
    assert "bug.cl:4:5: out-of-bounds write of 6 bytes at offset 56 of __global 'h' " \
           "(60 bytes)" in msg


def test_vload_half_out_of_bounds():
    src = """
__kernel void k(__global const half *h, __global float *out) {
    int i = get_global_id(0);
    out[i] = vload_half(i + 1, h);
}"""
    msg = finding(build(src).k, (8,), None, np.zeros(8, np.float16), np.zeros(8, np.float32))
    assert "bug.cl:4:14: out-of-bounds read of 2 bytes at offset 16 of __global 'h' " \
           "(16 bytes)" in msg


ATOMICS = """
__kernel void k(__global int *count, __local int *t) {
    int i = get_global_id(0), l = get_local_id(0);
    t[l] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&t[(l + 1) % get_local_size(0)]);
    atomic_add(count + i % 4, 1);
}"""


def test_atomics_in_bounds_find_nothing():
    count = np.zeros(4, np.int32)
    build(ATOMICS).k((64,), (16,), count, cl2c.LocalMemory(64))
    assert count.tolist() == [16] * 4


def test_atomic_out_of_bounds_on_global_memory():
    msg = finding(build(ATOMICS).k, (64,), (16,), np.zeros(3, np.int32), cl2c.LocalMemory(64))
    assert "bug.cl:7:5: out-of-bounds atomic operation of 4 bytes at offset 12 of " \
           "__global 'count' (12 bytes)" in msg


def test_atomic_out_of_bounds_on_local_memory():
    src = ATOMICS.replace("(l + 1) % get_local_size(0)", "l + 1")
    msg = finding(build(src).k, (16,), (16,), np.zeros(4, np.int32), cl2c.LocalMemory(64))
    assert "bug.cl:6:5: out-of-bounds atomic operation of 4 bytes at offset 64 of " \
           "__local 't' (64 bytes)" in msg
    assert "work-item (15,0,0)" in msg


def test_c11_atomic_out_of_bounds():
    src = """
__kernel void k(__global atomic_int *c) {
    atomic_fetch_add_explicit(&c[get_global_id(0)], 1, memory_order_relaxed);
}"""
    kernel = build(src, "-cl-std=CL2.0 -cl2c-check").k
    c = np.zeros(8, np.int32)
    kernel((8,), None, c)
    assert (c == 1).all()
    msg = finding(kernel, (8,), None, np.zeros(7, np.int32))
    assert "bug.cl:3:5: out-of-bounds atomic operation of 4 bytes at offset 28 of " \
           "__global 'c' (28 bytes)" in msg


def test_normal_builds_have_no_checks():
    for src in (VECTORS, HALVES, ATOMICS):
        assert "CL2C_CK" not in cl2c.translate(src).c_source
