"""A barrier-free kernel whose loops the regions schedule would move outside the
work-item loop keeps the loops schedule where, inside them, the work-items store apart
(strides.py): each lane's element far from the next at every step, as in the lecture's
V1 (``C[i*DIM+j] += A[i*DIM+k] * B[k*DIM+j]``, 3.3x slower hoisted). Where the stores
lie next to each other (or at a per-work-item array's element), the loops still move
out. Each choice against NumPy."""
from __future__ import annotations

import numpy as np
import pytest

import cl2c
from conftest import lecture_source

SOURCE = r"""
__kernel void transpose_rows(__global const float *in, __global float *out, int n) {
    int i = get_global_id(0);
    for (int k = 0; k < n; k++)
        out[i * n + k] = in[k * n + i] * 2.0f;
}
__kernel void accumulate_columns(__global const float *in, __global float *out, int n) {
    int i = get_global_id(0);
    for (int k = 0; k < n; k++)
        out[k * n + i] += in[k * n + i];
}
__kernel void odd_lanes(__global float *out, int n) {
    int i = get_global_id(0);
    for (int k = 0; k < n; k++)
        out[2 * i + 1] += (float)k;
}
"""


def schedule_line(source: str, kernel: str) -> str:
    text = cl2c.translate(source, "k.cl").c_source
    return next(line for line in text.splitlines() if line.startswith(f" *   {kernel}: "))


def test_stores_apart_keep_each_work_items_loops():
    assert "matmult: loops (" in schedule_line(lecture_source("v1", 64), "matmult")
    assert "whose work-items store apart" in schedule_line(lecture_source("v1", 64), "matmult")
    assert "transpose_rows: loops (" in schedule_line(SOURCE, "transpose_rows")
    assert "odd_lanes: loops (" in schedule_line(SOURCE, "odd_lanes")
    # stores next to each other, or once per row of the matrix: the loops move out
    assert "accumulate_columns: regions (" in schedule_line(SOURCE, "accumulate_columns")
    assert "matmult: regions (" in schedule_line(lecture_source("v5", 64), "matmult")
    assert "matmult: regions (" in schedule_line(lecture_source("v2", 64), "matmult")


@pytest.mark.parametrize("schedule", ["auto", "regions", "loops"])
def test_lecture_v1_computes_a_product(schedule):
    dim = 48
    prg = cl2c.Program(lecture_source("v1", dim)).build(f"-cl2c-schedule={schedule}")
    rng = np.random.default_rng(3)
    A, B = (rng.random((dim, dim), dtype=np.float32) for _ in range(2))
    C = np.zeros((dim, dim), np.float32)
    prg.matmult((dim,), None, A, B, C)
    np.testing.assert_allclose(C, A @ B, rtol=1e-5)


@pytest.mark.parametrize("schedule", ["auto", "regions", "loops"])
def test_the_choices_compute_the_same(schedule):
    n = 40
    prg = cl2c.Program(SOURCE).build(f"-cl2c-schedule={schedule}")
    a = np.random.default_rng(5).random((n, n), dtype=np.float32)
    out = np.zeros_like(a)
    prg.transpose_rows((n,), None, a, out, np.int32(n))
    np.testing.assert_array_equal(out, a.T * np.float32(2))
    acc = a.copy()
    prg.accumulate_columns((n,), (8,), a, acc, np.int32(n))
    np.testing.assert_array_equal(acc, a + a)
    odd = np.zeros(2 * n + 1, np.float32)
    prg.odd_lanes((n,), None, odd, np.int32(n))
    want = np.zeros_like(odd)
    want[1::2] = sum(range(n))
    np.testing.assert_array_equal(odd, want)


COLUMNS = r"""
__kernel void by_columns(__global const float *x, __global float *out, int n, int m) {
    int p = get_global_id(0);
    float s = 0.0f;
    for (int f = 0; f < m; f++)
        s += x[f * n + p] * x[f * n + p];
    out[p] = s;
}
__kernel void window(__global const float *x, __global float *out, int m) {
    int p = get_global_id(0);
    float s = 0.0f;
    for (int k = 0; k < m; k++)
        s += x[p + k];
    out[p] = s;
}
"""


def test_rows_read_in_runs_are_not_cut_into_tiles():
    """A kernel of one dimension whose loop reads a large array's row in a run at each
    step (a column-major array, as k-means') keeps that run: no tiles of one row. A
    window that slides by an element a step stays in its lines: tiled. Against
    NumPy."""
    assert "register tiles" not in schedule_line(COLUMNS, "by_columns")
    assert "1 loop in register tiles" in schedule_line(COLUMNS, "window")
    prg = cl2c.Program(COLUMNS).build()
    n, m = 96, 7
    x = np.random.default_rng(8).integers(-3, 4, (m + 1) * n).astype(np.float32)
    out = np.zeros(n, np.float32)
    prg.by_columns((n,), (32,), x, out, np.int32(n), np.int32(m))
    np.testing.assert_array_equal(out, (x[:m * n].reshape(m, n) ** 2).sum(axis=0))
    prg.window((n,), (32,), x, out, np.int32(m))
    np.testing.assert_array_equal(out, [x[p:p + m].sum() for p in range(n)])
