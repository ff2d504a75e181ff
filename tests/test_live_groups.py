"""Groups with nothing to do (workgroup/live_groups.py): a guard that sends the work-items
past a bound home is a fact of the launch plan, and the entry skips the groups past it.
Against NumPy, on grids many times the work: 1-D and 2-D guards, ``if (i < n) {...}``,
``>``, a global offset, parts of a launch, a register-tiled product, groups the kernel
sees and groups cl2c cuts; and the guards that must keep every group: a store before
the guard, a signed limit that an unsigned comparison makes huge, ids that wrap in
``int``."""
from __future__ import annotations

import numpy as np
import pytest

import cl2c

SOURCE = r"""
kernel void axpb(global float *out, global const float *x, const int n) {    /* regrouped */
    const int i = get_global_id(0);
    if (i >= n)
        return;
    out[i] = 2.5f * x[i] + 1.0f;
}
kernel void axpb_groups(global float *out, global const float *x, int n) {   /* its groups */
    int i = get_global_id(0);
    if (i < n) {
        out[i] = x[i] + get_group_id(0);
    }
}
kernel void from_groups(global float *out, global const float *x, int n) {
    int i = get_group_id(0) * get_local_size(0) + get_local_id(0);  /* offset left out */
    if (i >= n) return;
    out[i] = 3 * x[i];
}
kernel void window(global int *out, int d, int n) {   /* a wavefront's diagonal */
    const int first = d < n ? 1 : d - n + 2;
    const int last = d < n ? d + 1 : n;
    const int i = first + (int)get_global_id(0);
    if (i > last) return;
    out[i] = d;
}
kernel void back(global int *out, int s, int n) {
    int i = (int)get_global_id(0) - s;
    if (i >= n) return;
    out[i + s] = i;
}
kernel void upto(global int *out, int last) {
    int i = get_global_id(0);
    if (i > last) return;
    out[i] = i;
}
kernel void grid2(global float *out, int w, int h) {
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h) return;
    out[y * w + x] = y * 1000 + x + get_local_id(1) * 0.5f;
}
kernel void matmul(global const float *A, global const float *B, global float *C, int n) {
    int col = get_global_id(0), row = get_global_id(1);
    if (row >= n || col >= n) return;
    float acc = 0;
    for (int k = 0; k < n; ++k) acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
}
kernel void store_first(global int *count, global int *out, int n) {
    int i = get_global_id(0);
    atomic_inc(count);
    if (i >= n) return;
    out[i] = 1;
}
kernel void even(global int *out, int w) {     /* no id on either side of the guard */
    int x = (int)get_global_id(0) * 2;
    if (x >= w - 1) return;
    out[x] = 1;
}
kernel void unsigned_guard(global int *count, int n) {
    uint i = get_global_id(0);
    if (i >= n) return;                 /* n < 0: (uint)n is huge, every work-item stays */
    atomic_inc(count);
}
"""

# ids past INT_MAX: the fibers schedule runs the guard as written (the regions
# schedule's loop bounds, builders/bounds.py, take `int i` for the id itself)
WRAPPING = r"""
kernel void int_ids(global int *count, int n) {
    int i = get_global_id(0);           /* past INT_MAX, i wraps negative and stays */
    if (i >= n) return;
    atomic_inc(count);
}
"""

GRID = 32


@pytest.fixture(scope="module")
def prg():
    return cl2c.Program(SOURCE).build()


@pytest.fixture(scope="module")
def plans():
    return {k.name: k.plan for k in cl2c.translate(SOURCE, "live.cl").kernels}


def test_the_plan_records_the_bounds(plans):
    assert [(b.dim, b.inclusive) for b in plans["axpb"].live] == [(0, False)]
    assert [(b.dim, b.inclusive) for b in plans["upto"].live] == [(0, True)]
    assert [(b.dim, b.relative) for b in plans["from_groups"].live] == [(0, True)]
    assert [(b.dim, b.negate) for b in plans["back"].live] == [(0, True)]
    assert len(plans["window"].live) == 1      # from variables of the arguments
    assert sorted(b.dim for b in plans["grid2"].live) == [0, 1]
    assert sorted(b.dim for b in plans["matmul"].live) == [0, 1]
    assert plans["axpb"].regroup is not None and plans["axpb_groups"].regroup is None
    assert plans["store_first"].live == ()           # a store before the guard
    assert [b.dim for b in plans["unsigned_guard"].live] == [0]  # as C converts n
    checked = cl2c.translate(SOURCE, "live.cl", options="-cl2c-check").kernels
    def shape(live):
        return [(b.dim, b.inclusive, b.relative, b.negate, b.id_range) for b in live]
    assert {k.name: shape(k.plan.live) for k in checked} == \
        {name: shape(plan.live) for name, plan in plans.items()}  # nothing to report past them
    cl20 = cl2c.translate(SOURCE, "live.cl", options="-cl-std=CL2.0").kernels
    assert next(k for k in cl20 if k.name == "from_groups").plan.live == ()  # groups may
    # be smaller than the enqueued size there


# a work-item past the guard that checking mode has something to report on
DIVIDES_FIRST = r"""
kernel void k(global int *out, int n) {
    int i = get_global_id(0);
    int q = n / (i - 2 * n);            /* zero only past the guard, at i = 2n */
    if (i >= n) return;
    out[i] = q;
}
"""


def test_checking_keeps_the_groups_whose_work_items_have_findings():
    normal = cl2c.translate(DIVIDES_FIRST, "live.cl").kernels[0]
    checked = cl2c.translate(DIVIDES_FIRST, "live.cl", options="-cl2c-check").kernels[0]
    assert len(normal.plan.live) == 1 and checked.plan.live == ()
    n = 64
    out = np.zeros(n, np.int32)
    k = cl2c.Program(DIVIDES_FIRST, options="-cl2c-check", filename="live.cl").build().k
    with pytest.raises(cl2c.LaunchError, match="integer division by zero.*global id "
                       r"\(128,0,0\)"):
        k(n * GRID, 16, out, np.int32(n))


def test_checking_skips_groups_past_the_guard():
    k = cl2c.Program(SOURCE, options="-cl2c-check", filename="live.cl").build().axpb
    n = 1000
    x = np.arange(n, dtype=np.float32)
    out = np.full(n, -1, np.float32)
    k(n * GRID, 64, out, x, np.int32(n))
    np.testing.assert_allclose(out, 2.5 * x + 1)
    assert k.findings == []


@pytest.mark.parametrize("name", ["axpb", "axpb_groups"])
def test_1d_oversized_grid(prg, name):
    n, local = 1000, 64
    x = np.arange(n, dtype=np.float32)
    out = np.full(n, -1, np.float32)
    getattr(prg, name)(n * GRID, local, out, x, np.int32(n))
    want = 2.5 * x + 1 if name == "axpb" else x + np.arange(n) // local
    np.testing.assert_allclose(out, want)


def test_global_offset(prg):
    n, off, local = 1000, 300, 64
    x = np.arange(n, dtype=np.float32)
    out = np.full(n, -1, np.float32)
    prg.axpb_groups(n * GRID, local, out, x, np.int32(n), global_offset=(off,))
    want = np.full(n, -1, np.float32)
    want[off:] = x[off:] + (np.arange(off, n) - off) // local
    np.testing.assert_array_equal(out, want)


def test_ids_from_group_ids_with_an_offset(prg):
    n, local = 1000, 64
    x = np.arange(n, dtype=np.float32)
    out = np.full(n, -1, np.float32)
    prg.from_groups(n * GRID, local, out, x, np.int32(n), global_offset=(5000,))
    np.testing.assert_array_equal(out, 3 * x)


def test_parts_of_an_oversized_launch(prg):
    n, local = 1000, 64
    x = np.arange(n, dtype=np.float32)
    whole, parts = np.full(n, -1, np.float32), np.full(n, -1, np.float32)
    prg.axpb_groups(4096, local, whole, x, np.int32(n))
    for a, b in [(0, 5), (5, 15), (15, 40), (40, 64)]:       # the last ones empty
        prg.axpb_groups(4096, local, parts, x, np.int32(n), groups=range(a, b))
    np.testing.assert_array_equal(parts, whole)
    out = np.full(n, -1, np.float32)
    for a, b in [(0, 3), (3, 64)]:                           # regrouped parts
        prg.axpb(4096, local, out, x, np.int32(n), groups=range(a, b))
    np.testing.assert_allclose(out, 2.5 * x + 1)


def test_bounds_from_variables_and_a_subtracted_shift(prg):
    n = 50
    for d in (0, 20, 70, 98):
        out = np.full(n + 2, -1, np.int32)
        prg.window(4096, 64, out, np.int32(d), np.int32(n))
        first, last = (1, d + 1) if d < n else (d - n + 2, n)
        want = np.full(n + 2, -1, np.int32)
        want[first:last + 1] = d
        np.testing.assert_array_equal(out, want)
    out = np.full(105, -7, np.int32)
    prg.back(4096, 64, out, np.int32(5), np.int32(100))
    np.testing.assert_array_equal(out, np.arange(105) - 5)


def test_inclusive_bound_and_empty_launch(prg):
    out = np.full(500, -1, np.int32)
    prg.upto(500 * GRID, 50, out, np.int32(199))
    np.testing.assert_array_equal(out, np.where(np.arange(500) <= 199, np.arange(500), -1))
    out[:] = -1
    prg.upto(500 * GRID, 50, out, np.int32(-1))                # no work-item is live
    assert (out == -1).all()


def test_2d_guard(prg):
    w, h = 37, 23
    out = np.full((h, w), -1, np.float32)
    prg.grid2((256, 144), (8, 4), out, np.int32(w), np.int32(h))
    y, x = np.mgrid[0:h, 0:w]
    np.testing.assert_array_equal(out, y * 1000 + x + (y % 4) * 0.5)
    out[:] = -1                                               # 2-D parts
    for a, b in [(0, 2), (2, 36)]:
        prg.grid2((256, 144), (8, 4), out, np.int32(w), np.int32(h), groups=range(a, b))
    np.testing.assert_array_equal(out, y * 1000 + x + (y % 4) * 0.5)


def test_guarded_tiled_product(prg):
    n = 40
    rng = np.random.default_rng(7)
    A, B = rng.random((n, n), dtype=np.float32), rng.random((n, n), dtype=np.float32)
    C = np.zeros((n, n), np.float32)
    prg.matmul((n * 5, n * 5), None, A, B, C, np.int32(n))
    np.testing.assert_allclose(C, A @ B, rtol=1e-5)


def test_a_store_before_the_guard_runs_everywhere(prg):
    n, size = 100, 100 * GRID
    count, out = np.zeros(1, np.int32), np.zeros(n, np.int32)
    prg.store_first(size, 64, count, out, np.int32(n))
    assert count[0] == size and out.sum() == n


def test_a_guard_with_no_id_on_either_side(prg, plans):
    """`x >= w - 1` with x twice the id: neither side is an id plus a shift, so no
    bound, and every group runs (the subtraction made the translator fail: 'not enough
    values to unpack')."""
    assert plans["even"].live == ()
    out = np.zeros(128, np.int32)
    prg.even(32 * GRID, 32, out, np.int32(101))
    want = np.zeros_like(out)
    want[0:100:2] = 1
    assert np.array_equal(out, want)


def test_a_negative_limit_in_an_unsigned_comparison(prg):
    count = np.zeros(1, np.int32)
    prg.unsigned_guard(4096, 64, count, np.int32(-5))
    assert count[0] == 4096
    count[0] = 0
    prg.unsigned_guard(4096, 64, count, np.int32(100))
    assert count[0] == 100


def test_ids_that_wrap_in_int():
    prg = cl2c.Program(WRAPPING, options="-cl2c-schedule=fibers").build()
    plan = cl2c.translate(WRAPPING, "w.cl", options="-cl2c-schedule=fibers").kernels[0].plan
    assert plan.schedule.name == "fibers" and len(plan.live) == 1
    start = (1 << 31) - 64              # ids 2^31 - 64 ... 2^31 + 191
    count = np.zeros(1, np.int32)
    prg.int_ids(256, 64, count, np.int32((1 << 31) - 1), global_offset=(start,))
    assert count[0] == 63 + 192         # below INT_MAX, and those that wrap negative
    count[0] = 0
    prg.int_ids(256, 64, count, np.int32(10), global_offset=(start,))
    assert count[0] == 192
