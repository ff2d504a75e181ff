"""A kernel whose memory runs along global id 1 and across id 0 (``C[i*DIM+j]``, ``i`` id
0: the lecture's V3) runs its work-item loops along id 1: the work-group function reads
the kernel's dimensions 0 and 1 exchanged, and the entry exchanges them in the range
(workgroup/dimensions.py). Each kernel against NumPy over what can move a work-item's
ids: uneven sizes, offsets, a local size given or not, launches of one, two and three
dimensions, parts of a launch (``groups=``), and a guard whose groups are skipped.
Kernels that read more of the range than global ids, or whose memory runs along id 0,
keep their dimensions."""
from __future__ import annotations

import numpy as np
import pytest

import cl2c
from cl2c.workgroup.schedules import REGIONS
from conftest import lecture_source

SOURCE = r"""
/* rows along id 0, as a GPU programmer may write them: a guard, a loop, a row pitch */
__kernel void rows(__global const float *a, __global const float *b, __global float *c,
                   int nrows, int ncols, int depth) {
    int i = get_global_id(0), j = get_global_id(1);
    if (i >= nrows || j >= ncols)
        return;
    float s = 0.0f;
    for (int k = 0; k < depth; ++k)
        s += a[i * depth + k] * b[k * ncols + j];
    c[i * ncols + j] = s + get_global_id(2) * 1000.0f;
}
/* no loop: the loops schedule's, but for its dimensions (it calls the work-item
 * function, which keeps them): a work-group function of its own */
__kernel void scale_rows(__global const float *in, __global float *out, int cols) {
    size_t i = get_global_id(0), j = get_global_id(1);
    out[i * cols + j] = in[i * cols + j] * 2.0f + 1.0f;
}
/* the same memory, but asks the range its size: it keeps its dimensions */
__kernel void rows_sized(__global const float *a, __global float *c) {
    size_t i = get_global_id(0), j = get_global_id(1), n = get_global_size(1);
    float s = 0.0f;
    for (int k = 0; k < 8; ++k)
        s += a[i * n + j] * k;
    c[i * n + j] = s;
}
/* its memory runs along id 0: it keeps its dimensions */
__kernel void cols(__global const float *a, __global float *c, int w) {
    int x = get_global_id(0), y = get_global_id(1);
    float s = 0.0f;
    for (int k = 0; k < 8; ++k)
        s += a[y * w + x] * k;
    c[y * w + x] = s;
}
"""


@pytest.fixture(scope="module")
def program():
    return cl2c.Program(SOURCE).build()


def _plans(source):
    return {k.name: k.plan for k in cl2c.translate(source, "t.cl").kernels}


def test_which_kernels_run_along_dimension_1():
    plans = _plans(SOURCE)
    assert plans["rows"].transposed
    assert plans["scale_rows"].transposed and plans["scale_rows"].schedule is REGIONS
    assert not plans["rows_sized"].transposed
    assert not plans["cols"].transposed
    assert _plans(lecture_source("v3", 64))["matmult"].transposed
    assert not _plans(lecture_source("v4", 64))["matmult"].transposed
    assert not _plans(lecture_source("v1", 64))["matmult"].transposed    # one dimension
    # the generated C says so, in the kernel's header comment and at its entry
    c = cl2c.translate(lecture_source("v3", 64), "v3.cl").c_source
    assert "dimensions 0 and 1 exchanged" in c and "cl2c_transpose_range(" in c


def _rows_reference(a, b, nrows, ncols, depth, offset, grid):
    """What ``rows`` leaves in c (zeros where no live work-item wrote)."""
    c = np.zeros(nrows * ncols, np.float32)
    want = (a.reshape(nrows, depth).astype(np.float64) @ b.reshape(depth, ncols))
    ox, oy, oz = offset
    gx, gy, gz = grid
    for i in range(ox, min(ox + gx, nrows)):
        for j in range(oy, min(oy + gy, ncols)):
            c[i * ncols + j] = want[i, j] + (oz + gz - 1) * 1000.0
    return c


@pytest.mark.parametrize("grid, local, offset", [
    ((40, 56, 1), None, (0, 0, 0)),          # the guard's edge inside the last groups
    ((37, 45, 1), (1, 5, 1), (0, 0, 0)),     # a local size given: the kernel cannot tell
    ((33, 29, 1), None, (3, 5, 0)),          # offsets: rows and columns from the middle
    ((48, 64, 1), (4, 8, 1), (0, 0, 1)),     # three dimensions
])
def test_rows_compute_as_numpy(program, grid, local, offset):
    nrows, ncols, depth = 41, 50, 19
    rng = np.random.default_rng(sum(grid))
    a = rng.random(nrows * depth, dtype=np.float32)
    b = rng.random(depth * ncols, dtype=np.float32)
    c = np.zeros(nrows * ncols, np.float32)
    dims = 3 if grid[2] > 1 or offset[2] else 2
    program.rows(grid[:dims], local and local[:dims], a, b, c, nrows, ncols, depth,
                 global_offset=offset[:dims])
    np.testing.assert_allclose(c, _rows_reference(a, b, nrows, ncols, depth, offset, grid),
                               rtol=1e-5)


def test_rows_in_one_dimension(program):
    """Launched over id 0 alone, each work-item's j is 0: the column of row i."""
    nrows, ncols, depth = 30, 3, 7
    rng = np.random.default_rng(5)
    a = rng.random(nrows * depth, dtype=np.float32)
    b = rng.random(depth * ncols, dtype=np.float32)
    c = np.zeros(nrows * ncols, np.float32)
    program.rows(26, None, a, b, c, nrows, ncols, depth, global_offset=2)
    want = _rows_reference(a, b, nrows, ncols, depth, (2, 0, 0), (26, 1, 1))
    np.testing.assert_allclose(c, want, rtol=1e-5)


@pytest.mark.parametrize("bounds", [[0, 3, 7, 12], [0, 1, 12]])
def test_rows_in_parts(program, bounds):
    """Parts of the slowest dimension (id 1 here, the one the loops now run along),
    stitched together, equal the whole launch."""
    nrows, ncols, depth = 24, 48, 5
    rng = np.random.default_rng(7)
    a = rng.random(nrows * depth, dtype=np.float32)
    b = rng.random(depth * ncols, dtype=np.float32)
    whole, parts = (np.zeros(nrows * ncols, np.float32) for _ in range(2))
    program.rows((nrows, ncols), (8, 4), a, b, whole, nrows, ncols, depth)
    for lo, hi in zip(bounds, bounds[1:]):
        program.rows((nrows, ncols), (8, 4), a, b, parts, nrows, ncols, depth,
                     groups=range(lo, hi))
    np.testing.assert_array_equal(parts, whole)
    np.testing.assert_allclose(whole, _rows_reference(a, b, nrows, ncols, depth, (0, 0, 0),
                                                      (nrows, ncols, 1)), rtol=1e-5)


@pytest.mark.parametrize("grid, offset", [((37, 45), (0, 0)), ((20, 33), (5, 2)),
                                          ((30,), (4,))])
def test_a_loop_free_kernel_computes_as_numpy(program, grid, offset):
    rows, cols = 45, 50
    a = np.random.default_rng(len(grid)).random((rows, cols), dtype=np.float32)
    out = np.zeros_like(a)
    program.scale_rows(grid, None, a, out, cols, global_offset=offset)
    want = np.zeros_like(a)
    box = tuple(slice(o, o + g) for o, g in zip(offset, grid))
    if len(grid) == 1:
        box += (0,)
    want[box] = a[box] * np.float32(2) + np.float32(1)
    np.testing.assert_array_equal(out, want)


def test_kept_kernels_compute_as_numpy(program):
    h, w = 12, 40
    a = np.random.default_rng(3).random(h * w, dtype=np.float32)
    c = np.zeros_like(a)
    program.rows_sized((h, w), None, a, c)
    np.testing.assert_allclose(c, a * 28, rtol=1e-6)
    program.cols((w, h), None, a, c, w)
    np.testing.assert_allclose(c, a * 28, rtol=1e-6)


@pytest.mark.parametrize("dim, grid", [(64, (64, 64)), (40, (40, 40))])
def test_lecture_v3_as_printed(dim, grid):
    A = np.random.default_rng(dim).random((dim, dim), dtype=np.float32)
    B = np.random.default_rng(dim + 1).random((dim, dim), dtype=np.float32)
    C = np.zeros((dim, dim), np.float32)
    cl2c.Program(lecture_source("v3", dim)).build().matmult(grid, None, A, B, C)
    np.testing.assert_allclose(C, A.astype(np.float64) @ B, rtol=1e-4)


# ---- checking builds: findings name the work-items as the host's range has them ----

BUGGY = r"""
__kernel void rows_bug(__global const float *a, __global float *c, int ncols, int bad_i,
                       int bad_j, int far) {
    int i = get_global_id(0), j = get_global_id(1);
    float s = 1.0f;
    for (int k = 0; k < 4; ++k)
        s += a[i * ncols + j] * k;
    if (i == bad_i && j == bad_j)
        c[far] = 2.0f;          /* past the end, or the element of work-item (0,0) */
    c[i * ncols + j] = s;
}
"""


@pytest.fixture(scope="module")
def checked():
    assert _plans(BUGGY)["rows_bug"].transposed
    return cl2c.Program(BUGGY).build("-cl2c-check")


@pytest.mark.parametrize("local, offset, names", [
    (None, (0, 0), "global id (5,9,0)"),
    ((4, 8), (0, 0), "work-item (1,1,0) of group (1,1,0), global id (5,9,0)"),
    ((4, 8), (1, 3), "work-item (0,6,0) of group (1,0,0), global id (5,9,0)"),
])
def test_a_finding_names_the_hosts_work_item(checked, local, offset, names):
    a = np.ones(16 * 16, np.float32)
    c = np.zeros(16 * 16, np.float32)
    with pytest.raises(cl2c.LaunchError) as info:
        checked.rows_bug((8, 16), local, a, c, 16, 5, 9, 16 * 16 + 3, global_offset=offset)
    msg = str(info.value)
    assert "out-of-bounds write of 4 bytes at offset 1036 of __global 'c'" in msg, msg
    assert names in msg, msg


def test_a_race_names_the_other_group_as_the_host_has_it(checked):
    """Work-item (5,9) writes the element of work-item (0,0): groups of 4x8, two along
    each dimension, so (5,9) is group (1,1), linear id 3, and (0,0) group 0."""
    a = np.ones(16 * 16, np.float32)
    c = np.zeros(16 * 16, np.float32)
    with pytest.raises(cl2c.LaunchError) as info:
        checked.rows_bug((8, 16), (4, 8), a, c, 16, 5, 9, 0)
    msg = str(info.value)
    assert "data race" in msg, msg
    assert ("(linear id 3)" in msg and "global id (0,0,0)" in msg) or \
        ("(linear id 0)" in msg and "global id (5,9,0)" in msg), msg
