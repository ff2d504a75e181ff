"""Checking builds keep no race shadow for a buffer each of whose elements one work-item
at most touches (cl2c/lower/owned.py, check.h's cl2c_ck_owned): its accesses check bounds
only. Where the launch does not give each work-item an element of its own (a dimension
the index does not name, a grid wider than the row and no guard, a second argument on
the same buffer), the shadow stays and the races are found as before."""
from __future__ import annotations

import numpy as np
import pytest

from check_helpers import build, finding

SRC = """
__kernel void rows(__global float *o, __global const float *a, const int w) {
    const int x = get_global_id(0), y = get_global_id(1);
    o[y * w + x] = a[y * w + x] + 1.0f;
}
__kernel void guarded(__global float *o, const int w, const int h) {
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    o[y * w + x] += 2.0f;
}
__kernel void inner(__global float *o, const int w) {
    const int x = get_global_id(0), y = get_global_id(1);
    if (x > 0 && x < w - 1)
        o[y * w + x] = 3.0f;
}
__kernel void bare(__global float *o, const int w) {
    const int x = get_global_id(0), y = get_global_id(1);
    o[y * w + x] = x;
}
__kernel void loose(__global float *o, const int w) {
    const int x = get_global_id(0), y = get_global_id(1);
    if (x <= w)
        o[y * w + x] = x;
}
__kernel void flat(__global int *o) { o[get_global_id(0)] += 1; }
__kernel void two(__global int *o, __global int *p) {
    const size_t i = get_global_id(0);
    o[i] = 1;
    p[i + 1] = 2;
}
__kernel void sized(__global float *o) {
    o[get_global_id(1) * get_global_size(0) + get_global_id(0)] = 5.0f;
}
__kernel void vec(__global float *o, __global const float *a) {
    const size_t i = get_global_id(0);
    vstore4(vload4(i, a) * 2.0f + (float4)(get_global_id(1)), i, o);
}
__kernel void mixed(__global float *o) {
    const size_t i = get_global_id(0);
    vstore4((float4)(i), i, o);
    o[i] = -1.0f;
}
__kernel void shared(__global int *o) {
    const size_t i = get_global_id(0);
    atomic_inc(&o[i]);
}
"""


@pytest.fixture(scope="module")
def prg():
    return build(SRC, name="owned.cl")


def _owned(prg, kernel: str) -> str:
    """The arguments of the kernel's cl2c_ck_owned calls, as its entry makes them."""
    entry = prg.c_source.split(f"int cl2c_kernel_{kernel}(")[1].split("\n}\n")[0]
    return "\n".join(line.strip() for line in entry.splitlines() if "cl2c_ck_owned(" in line)


def test_which_buffers_are_owned(prg):
    # the index of every access, injective in the global ids: no shadow where the launch
    # allows it; a read-only buffer has none anyway
    assert "(const void *)o, 0, 1, 1LL * (long long)w, 0" in _owned(prg, "rows")
    assert "(const void *)a" not in _owned(prg, "rows")
    # the early return and the interior guard bound x below w
    assert _owned(prg, "guarded").endswith(", 1);")
    assert _owned(prg, "inner").endswith(", 1);")
    # x <= w is no bound below w
    assert _owned(prg, "loose").endswith(", 0);")
    assert "(const void *)o, 0, -1, 0, 0" in _owned(prg, "flat")
    assert "cl2c_ck_count(cl2c_r, 0)" in _owned(prg, "sized")
    # an address taken (atomics) is no element of the work-item's own
    assert _owned(prg, "shared") == ""
    # vector stores of one width at one index: the block from 4 * i is the work-item's
    assert "(const void *)o, 0, -1, 0, 0" in _owned(prg, "vec")
    # a vector store and a scalar one at the same i reach different elements
    assert _owned(prg, "mixed") == ""


def test_owned_buffers_give_the_same_results(prg):
    w, h = 24, 10
    a = np.arange(w * h, dtype=np.float32)
    o = np.zeros(w * h, np.float32)
    prg.rows((w, h), None, o, a, np.int32(w))
    assert np.array_equal(o, a + 1)
    prg.guarded((32, 16), (8, 8), o, np.int32(w), np.int32(h))
    assert np.array_equal(o, a + 3)
    prg.inner((32, 10), (8, 2), o, np.int32(w))
    expect = a + 3
    expect.reshape(h, w)[:, 1:w - 1] = 3
    assert np.array_equal(o, expect)
    s = np.zeros((4, 16), np.float32)
    prg.sized((16, 4), None, s)
    assert (s == 5).all()


def test_vector_blocks_owned_agree_and_race_where_the_launch_shares_them(prg):
    a = np.arange(64, dtype=np.float32)
    o = np.zeros(64, np.float32)
    prg.vec((16,), None, o, a)
    assert np.array_equal(o, a * 2)
    # (another value in the second row: a store of the value already there races with
    # nothing)
    assert "data race" in finding(prg.vec, (16, 2), None, o, a)
    # work-item i's o[i] lies in work-item i / 4's block
    assert "data race" in finding(prg.mixed, (16,), (16,), np.zeros(64, np.float32))


def test_bounds_are_still_checked(prg):
    w = 16
    o = np.zeros(w * 4 - 1, np.float32)          # one element short of the last row
    msg = finding(prg.rows, (w, 4), None, o, np.zeros(w * 4, np.float32), np.int32(w))
    assert "out-of-bounds" in msg and "'o'" in msg


def test_a_grid_wider_than_the_row_without_a_guard_races(prg):
    # x = 16..23 of row y writes where x = 0..7 of row y + 1 does (another value: a
    # store of the value already there races with nothing)
    assert _owned(prg, "bare").endswith(", 0);")
    msg = finding(prg.bare, (24, 4), (8, 4), np.zeros(24 * 4, np.float32), np.int32(16))
    assert "data race" in msg


def test_a_guard_that_lets_one_column_too_many_through_races(prg):
    msg = finding(prg.loose, (17, 2), None, np.zeros(64, np.float32), np.int32(16))
    assert "data race" in msg


def test_a_dimension_the_index_does_not_name_races(prg):
    msg = finding(prg.flat, (8, 2), None, np.zeros(8, np.int32))
    assert "data race" in msg


def test_two_arguments_on_one_buffer_race(prg):
    o = np.zeros(65, np.int32)
    msg = finding(prg.two, (64,), (64,), o, o)
    assert "data race" in msg
    # on two buffers, nothing to find
    p = np.zeros(65, np.int32)
    prg.two((64,), (64,), o, p)
    assert (o[:64] == 1).all() and (p[1:] == 2).all()


def test_an_owned_buffer_takes_no_shadow(prg):
    """The shadow is not made at all (check_shadows' idle bytes: none after the launch),
    where a buffer that is not owned gets one."""
    lib = prg._module.lib
    before = lib.cl2c_loader_check_idle_bytes()
    o = np.zeros(1 << 16, np.int32)
    prg.flat(o.shape, None, o)
    assert lib.cl2c_loader_check_idle_bytes() == before
    prg.shared(o.shape, None, o)
    assert lib.cl2c_loader_check_idle_bytes() >= before + 8 * (1 << 16)
    assert (o == 2).all()
