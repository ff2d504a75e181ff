"""A loop-free kernel that takes its id into a signed int (int x = get_global_id(0),
as GPU code does) runs as a work-group function that computes x as x__base + cl2c_l0:
in the loops schedule x is a size_t truncated in the work-item loop, which GCC cannot
prove affine, and the loop stayed scalar (3-20x slower on an elementwise kernel).
Kernels without such an id keep the loops schedule. Each against NumPy, with offsets
and a global size no group size divides (OpenCL C 2.0's uneven groups)."""
from __future__ import annotations

import numpy as np
import pytest

import cl2c
from cl2c.workgroup import schedules
from conftest import lecture_source

SOURCE = r"""
__kernel void by_int(__global const float *in, __global float *out) {
    int x = get_global_id(0);
    float v = in[x];
    out[x] = v * v * 0.5f + 1.0f / (v + 2.0f);
}
__kernel void by_size_t(__global const float *in, __global float *out) {
    size_t x = get_global_id(0);
    out[x] = in[x] * 3.0f;
}
__kernel void relax_by_int(__global float *cost, __global float *next, __global int *mask) {
    int tid = get_global_id(0);         /* the Guide's shortest paths, phase 2 */
    if (cost[tid] > next[tid]) {
        cost[tid] = next[tid];
        mask[tid] = 1;
    }
    next[tid] = cost[tid];
}
__kernel void frontier_by_int(__global const int *start, __global const float *w,
                              __global int *mask, __global float *out, int n, int edges) {
    int tid = get_global_id(0);         /* the Guide's shortest paths' phase 1, race-free */
    if (mask[tid] != 0) {
        mask[tid] = 0;
        int end = tid + 1 < n ? start[tid + 1] : edges;
        float s = 0.0f;
        for (int e = start[tid]; e < end; e++)
            s += w[e];
        out[tid] = s;
    }
}
__kernel void rows_by_int(__global const float *in, __global float *out, int w) {
    int x = get_global_id(0), y = get_global_id(1);
    out[y * w + x] = in[y * w + x] + (float)y;
}
"""


OPTIONS = "-cl-std=CL2.0"


@pytest.fixture(scope="module")
def program():
    return cl2c.Program(SOURCE).build(OPTIONS)


def test_an_int_id_gets_the_work_group_function():
    plans = {k.name: k.plan for k in cl2c.translate(SOURCE, "ids.cl", OPTIONS).kernels}
    assert plans["by_int"].schedule is schedules.REGIONS
    assert plans["rows_by_int"].schedule is schedules.REGIONS
    # a branch too (its stores were scatters: the Guide's phase 2 ran 5x slower so)
    assert plans["relax_by_int"].schedule is schedules.REGIONS
    # and a loop each work-item runs as it stands (the mask's scan was gathers)
    assert plans["frontier_by_int"].schedule is schedules.REGIONS
    assert plans["by_size_t"].schedule is schedules.LOOPS


@pytest.mark.parametrize("n, local, offset", [(1000, 64, 0), (1000, None, 7), (37, 8, 3)])
def test_int_ids_compute_as_numpy(program, n, local, offset):
    a = np.random.default_rng(n).random(n + offset, dtype=np.float32)
    out = np.zeros_like(a)
    program.by_int(n, local, a, out, global_offset=offset)
    v = a[offset:]
    want = v * v * np.float32(0.5) + np.float32(1) / (v + np.float32(2))
    np.testing.assert_allclose(out[offset:], want, rtol=1e-6)
    assert not out[:offset].any()
    program.by_size_t(n, local, a, out, global_offset=offset)
    np.testing.assert_array_equal(out[offset:], v * np.float32(3))


@pytest.mark.parametrize("n, local, offset", [(1000, 64, 0), (1000, None, 7), (37, 8, 3)])
def test_an_int_id_under_a_branch_computes_as_numpy(program, n, local, offset):
    rng = np.random.default_rng(n)
    cost = rng.random(n + offset, dtype=np.float32)
    nxt = rng.random(n + offset, dtype=np.float32)
    mask = np.zeros(n + offset, np.int32)
    want_cost, want_next, want_mask = cost.copy(), nxt.copy(), mask.copy()
    fell = want_cost[offset:] > want_next[offset:]
    want_cost[offset:][fell] = want_next[offset:][fell]
    want_mask[offset:][fell] = 1
    want_next[offset:] = want_cost[offset:]
    program.relax_by_int(n, local, cost, nxt, mask, global_offset=offset)
    for got, want in ((cost, want_cost), (nxt, want_next), (mask, want_mask)):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("n, local", [(1000, 64), (1000, None), (37, 8)])
def test_an_int_id_around_a_loop_computes_as_numpy(program, n, local):
    rng = np.random.default_rng(n)
    degree = rng.integers(0, 9, n)
    start = np.concatenate([[0], np.cumsum(degree)[:-1]]).astype(np.int32)
    edges = int(degree.sum())
    w = rng.random(edges, dtype=np.float32)
    mask = (rng.random(n) < 0.3).astype(np.int32)
    out = np.full(n, -1, np.float32)
    want = out.copy()
    for v in np.flatnonzero(mask):           # its edges in order, in float32
        s = np.float32(0)
        for e in range(start[v], start[v] + degree[v]):
            s = np.float32(s + w[e])
        want[v] = s
    program.frontier_by_int(n, local, start, w, mask, out, np.int32(n), np.int32(edges))
    np.testing.assert_array_equal(mask, 0)
    np.testing.assert_array_equal(out, want)


def test_two_dimensions(program):
    h, w = 12, 40
    a = np.random.default_rng(1).random((h, w), dtype=np.float32)
    out = np.zeros_like(a)
    program.rows_by_int((w, h), (8, 4), a, out, np.int32(w))
    np.testing.assert_array_equal(out, a + np.arange(h, dtype=np.float32)[:, None])


LINEAR = r"""
__kernel void by_linear_id(__global const float *in, __global float *out) {
    int tid = get_local_id(1) * get_local_size(0) + get_local_id(0);
    int group = get_group_id(1) * get_num_groups(0) + get_group_id(0);
    out[group * 64 + tid] = in[group * 64 + tid] * 2.0f + (float)tid;
}
"""


@pytest.mark.parametrize("gsize, offset", [((16, 16), (0, 0)), ((13, 11), (3, 5))])
def test_a_linear_local_id_is_a_rows_base_plus_the_local_id(gsize, offset):
    """``ly * lsx + lx`` (the linear local id of GPU code) is affine in the local id 0
    within a row: it becomes tid__base + cl2c_l0, its base computed once a row. Whole
    and uneven groups (8 x 8), with offsets, against NumPy."""
    prg = cl2c.Program(LINEAR).build(OPTIONS)
    assert "const int tid__base = " in prg.c_source
    a = np.random.default_rng(9).random(4 * 64, dtype=np.float32)
    out = np.full_like(a, -1.0)
    prg.by_linear_id(gsize, (8, 8), a, out, global_offset=offset)
    want = np.full_like(a, -1.0)
    gx, gy = gsize
    for y in range(gy):
        for x in range(gx):
            lx, ly = x % 8, y % 8
            ls0 = min(8, gx - x // 8 * 8)       # a group's size: smaller at the edge
            tid = ly * ls0 + lx
            group = (y // 8) * ((gx + 7) // 8) + x // 8
            want[group * 64 + tid] = a[group * 64 + tid] * np.float32(2) + np.float32(tid)
    np.testing.assert_array_equal(out, want)


TWICE = r"""
__kernel void twice(__global const float *in, __global float *out) {
    int x;
    x = get_global_id(0);
    out[x] = in[x];
    x = x + 1;
    out[x - 1] += (float)x;
}
"""


@pytest.mark.parametrize("n, local, offset", [(48, (16, 4), (0, 0)), (37, None, (0, 0)),
                                              (21, (8, 8), (3, 2))])
def test_ids_declared_first_and_assigned_once_are_affine(n, local, offset):
    """C89 style, as the lecture's matrix products are printed (``int i, j, k;`` then
    ``j = get_global_id(0);``): an id assigned once, where it is recomputed in each
    region, is its base plus the local id as a declared one is (the lecture's V4 ran
    20x slower than the same kernel with ``int j = get_global_id(0);``: every load of
    B a gather). A variable assigned twice keeps its value as written. Against NumPy,
    uneven groups and offsets."""
    rng = np.random.default_rng(n)
    size = n + max(offset)
    prg = cl2c.Program(lecture_source("v4", size) + TWICE).build(OPTIONS)
    assert "const int j__base = " in prg.c_source
    assert "x__base" not in prg.c_source
    A, B = (rng.random((size, size), dtype=np.float32) for _ in range(2))
    C = np.zeros((size, size), np.float32)
    prg.matmult((n, n), local, A, B, C, global_offset=offset)
    ox, oy = offset
    want = (A @ B)[oy:oy + n, ox:ox + n]
    np.testing.assert_allclose(C[oy:oy + n, ox:ox + n], want, rtol=1e-5)
    assert not C[:oy].any() and not C[:, :ox].any()
    a = rng.random(n, dtype=np.float32)
    out = np.zeros_like(a)
    prg.twice(n, None, a, out)
    np.testing.assert_array_equal(out, a + np.arange(1, n + 1, dtype=np.float32))
