"""Barriers, __local memory, work-group functions and async copies.

Every kernel runs under each schedule that accepts it (regions and fibers, or
fibers alone) and through PoCL; the schedules must agree bit for bit, and
with PoCL exactly where the kernel's arithmetic is exact (integers, sums in
the same order), within a small tolerance where PoCL may contract a*b+c into
an fma.
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import cl2c
from cl2c.loader import LaunchError
from conftest import fenced, kernel_path, kernel_source

ROOT = Path(__file__).resolve().parent.parent

SCHEDULES = ("regions", "fibers")


def rng(salt=0):
    return np.random.default_rng(4242 + salt)


@pytest.fixture(scope="module", params=SCHEDULES)
def barriers(request):
    return request.param, cl2c.Program.from_file(
        kernel_path("barriers.cl"), options=f"-cl2c-schedule={request.param}").build()


def run_both(barriers, pocl, name, gsize, lsize, make_args, exact=True, source="barriers.cl",
             options=""):
    """Run kernel ``name`` on cl2c (the fixture's schedule) and PoCL with equal
    inputs; compare every array argument afterwards."""
    _, prg = barriers
    ours, theirs = make_args(), make_args()
    getattr(prg, name)(gsize, lsize, *ours)
    pocl(kernel_source(source), name, gsize, lsize, *theirs, options=options)
    for a, b in zip(ours, theirs):
        if isinstance(a, np.ndarray):
            if exact:
                np.testing.assert_array_equal(a, b)
            else:
                np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)
    return ours


def test_auto_picks_regions_for_statement_level_barriers():
    text = cl2c.translate(kernel_source("barriers.cl"), "barriers.cl").c_source
    for name in ("reduce", "reduce4", "matmul_tiled", "histogram", "scan", "reverse",
                 "uniform_if", "privates", "async_scale", "sums"):
        assert f" *   {name}: regions (" in text


def test_lecture_reduction(barriers, pocl):
    n, ls = 1 << 14, 128
    x = rng(1).standard_normal(2 * n).astype(np.float32)

    def args():
        return [x.copy(), np.zeros(n // ls, np.float32), cl2c.LocalMemory(ls * 4)]
    got = run_both(barriers, pocl, "reduce", (n,), (ls,), args)
    ref = (x[:n] + x[n:]).reshape(-1, ls).astype(np.float64).sum(1)
    np.testing.assert_allclose(got[1], ref, rtol=1e-4, atol=1e-3)


def test_float4_reduction_with_kernel_scope_local(barriers, pocl):
    n = 64 * 32
    x = rng(2).integers(-1000, 1000, (n, 4)).astype(np.float32)

    def args():
        return [x.copy(), np.zeros((n // 64, 4), np.float32)]
    got = run_both(barriers, pocl, "reduce4", (n,), (64,), args)
    np.testing.assert_array_equal(got[1], x.reshape(-1, 64, 4).sum(1))


def test_tiled_matmul(barriers, pocl):
    n = 96
    a = rng(3).standard_normal((n, n)).astype(np.float32)
    b = rng(4).standard_normal((n, n)).astype(np.float32)

    def args():
        return [a.copy(), b.copy(), np.zeros((n, n), np.float32), np.int32(n)]
    got = run_both(barriers, pocl, "matmul_tiled", (n, n), (16, 16), args, exact=False)
    np.testing.assert_allclose(got[2], a @ b, rtol=1e-4, atol=1e-4)


def test_histogram_local_and_global_atomics(barriers, pocl):
    n = 300_000
    data = rng(5).integers(0, 256, n).astype(np.uint8)

    def args():
        return [data.copy(), np.int32(n), np.zeros(256, np.uint32)]
    got = run_both(barriers, pocl, "histogram", (64 * 64,), (64,), args)
    np.testing.assert_array_equal(got[2], np.bincount(data, minlength=256))


@pytest.mark.parametrize("ls", [1, 64, 256])
def test_prefix_sum_barrier_in_loop(barriers, pocl, ls):
    n = ls * 8
    x = rng(6).integers(-100, 100, n).astype(np.int32)

    def args():
        return [x.copy(), np.zeros(n, np.int32), cl2c.LocalMemory(2 * ls * 4)]
    got = run_both(barriers, pocl, "scan", (n,), (ls,), args)
    np.testing.assert_array_equal(got[1], np.cumsum(x.reshape(-1, ls), 1).ravel())


def test_barrier_in_helper(barriers, pocl):
    n, ls = 1024, 32
    x = np.arange(n, dtype=np.int32)

    def args():
        return [x.copy(), np.zeros(n, np.int32), cl2c.LocalMemory(ls * 4)]
    got = run_both(barriers, pocl, "reverse", (n,), (ls,), args)
    np.testing.assert_array_equal(got[1], x.reshape(-1, ls)[:, ::-1].ravel())


def test_value_of_helper_with_barriers(barriers, pocl):
    """``int total = group_sum(...)`` and ``twice = group_sum(...)``: the helper's body
    inlined, its returned value stored (regions), as fibers run it."""
    n, ls = 512, 32
    x = rng(11).integers(-1000, 1000, n).astype(np.int32)

    def args():
        return [x.copy(), np.zeros(n, np.int32), cl2c.LocalMemory(ls * 4)]
    got = run_both(barriers, pocl, "sums", (n,), (ls,), args)
    g = x.reshape(-1, ls).sum(1)[:, None]
    np.testing.assert_array_equal(got[1], (g * 1000 + 2 * g - np.arange(ls)).ravel())


def test_barrier_in_uniform_if(barriers, pocl):
    n, ls = 512, 16
    x = rng(7).integers(-1000, 1000, n).astype(np.int32)

    def args():
        return [x.copy(), np.zeros(n, np.int32), cl2c.LocalMemory(ls * 4)]
    got = run_both(barriers, pocl, "uniform_if", (n,), (ls,), args)
    groups = x.reshape(-1, ls)
    ref = np.where((np.arange(n // ls) % 2 == 0)[:, None], np.roll(groups, -1, 1), -groups)
    np.testing.assert_array_equal(got[1], ref.ravel())


def test_privates_across_barriers_and_early_return(barriers, pocl):
    n, ls = 256, 32
    x = rng(8).integers(0, 40, n).astype(np.int32)

    def args():
        return [x.copy(), np.zeros(n, np.float32), cl2c.LocalMemory(ls * 4)]
    run_both(barriers, pocl, "privates", (n,), (ls,), args)


def test_async_copies(barriers, pocl):
    n, ls = 4096, 64
    x = rng(9).standard_normal(n).astype(np.float32)

    def args():
        return [x.copy(), np.zeros(n, np.float32), cl2c.LocalMemory(ls * 4), np.float32(3.0)]
    got = run_both(barriers, pocl, "async_scale", (n,), (ls,), args)
    np.testing.assert_array_equal(got[1], (x.reshape(-1, ls)[:, ::-1] * np.float32(3)).ravel())


# ---- kernels only fibers can run ----------------------------------------------------------
@pytest.fixture(scope="module")
def fibers_only():
    return "fibers", cl2c.Program.from_file(kernel_path("barriers_fibers.cl")).build()


def test_fallback_to_fibers_says_why():
    text = cl2c.translate(kernel_source("barriers_fibers.cl"), "barriers_fibers.cl").c_source
    assert "early_exit: fibers (a barrier sits in a loop left from a region (break or " \
           "continue under a condition that is not provably uniform)" in text
    assert "switched: fibers (a barrier sits inside a switch statement" in text


def test_the_spec_makes_a_barrier_loop_uniform():
    """A loop with a barrier in its body runs the same number of times for every
    work-item (spec 6.12.8): the regions schedule runs it on a group-level flag."""
    text = cl2c.translate(kernel_source("barriers_fibers.cl"), "barriers_fibers.cl").c_source
    assert " *   countdown: regions (" in text and "while (cl2c_go0)" in text


def test_forcing_regions_on_a_fibers_kernel_is_an_error():
    with pytest.raises(cl2c.BuildError, match="kernel 'early_exit': the 'regions' schedule "
                                              "cannot run it"):
        cl2c.Program.from_file(kernel_path("barriers_fibers.cl"),
                               options="-cl2c-schedule=regions").build()


@pytest.mark.parametrize("options", ["", "-cl2c-schedule=fibers"])
def test_barrier_in_data_dependent_loop(options, pocl):
    n, ls = 256, 32
    prg = ("", cl2c.Program.from_file(kernel_path("barriers_fibers.cl"), options).build())

    def args():
        return [np.zeros(n, np.int32), cl2c.LocalMemory(4)]
    got = run_both(prg, pocl, "countdown", (n,), (ls,), args, source="barriers_fibers.cl")
    steps = 5 + np.arange(n // ls) % 3
    np.testing.assert_array_equal(got[0], (steps[:, None] * np.arange(ls)).ravel())


def test_barrier_in_loop_left_by_break(fibers_only, pocl):
    n, ls = 128, 16

    def args():
        return [np.zeros(n, np.int32), cl2c.LocalMemory(4)]
    got = run_both(fibers_only, pocl, "early_exit", (n,), (ls,), args,
                   source="barriers_fibers.cl")
    limit = 3 + np.arange(n // ls) % 2
    np.testing.assert_array_equal(got[0], (limit[:, None] * (1 + np.arange(ls))).ravel())


def test_barrier_in_switch(fibers_only, pocl):
    n, ls = 256, 16
    x = np.arange(n, dtype=np.int32)

    def args():
        return [x.copy(), np.zeros(n, np.int32), cl2c.LocalMemory(ls * 4)]
    run_both(fibers_only, pocl, "switched", (n,), (ls,), args, source="barriers_fibers.cl")


def test_checking_mode_reports_divergence():
    prg = cl2c.Program.from_file(kernel_path("barriers_fibers.cl"),
                                 options="-cl2c-check-barriers").build()
    out = np.zeros(64, np.int32)
    with pytest.raises(LaunchError, match=r"kernel 'diverge': barrier divergence: work-item "
                                          r"\(2,0,0\) finished while work-item \(0,0,0\) "
                                          r"waits at the barrier at line 65"):
        prg.diverge((64,), (8,), out, cl2c.LocalMemory(32))


# ---- OpenCL C 2.0 work-group functions ----------------------------------------------------
@pytest.mark.parametrize("schedule", SCHEDULES)
def test_work_group_functions(schedule):
    prg = cl2c.Program.from_file(kernel_path("collectives.cl"),
                                 options=f"-cl-std=CL2.0 -cl2c-schedule={schedule}").build()
    n, ls = 256, 32
    x = rng(10).integers(-60, 60, n).astype(np.int32)
    x[5] = 7
    f = rng(11).standard_normal(n).astype(np.float32)
    out = np.zeros(10 * n, np.int32)
    fout = np.zeros(n, np.float32)
    prg.collectives((n,), (ls,), x, out, fout, f)
    g = x.reshape(-1, ls)
    rows = out.reshape(10, -1, ls)
    np.testing.assert_array_equal(rows[0], np.repeat(g.sum(1, keepdims=True), ls, 1))
    np.testing.assert_array_equal(rows[1], np.repeat(g.min(1, keepdims=True), ls, 1))
    np.testing.assert_array_equal(rows[2], np.repeat(g.max(1, keepdims=True), ls, 1))
    np.testing.assert_array_equal(rows[3], np.cumsum(g, 1))
    np.testing.assert_array_equal(rows[4], np.cumsum(g, 1) - g)
    np.testing.assert_array_equal(rows[5], np.maximum.accumulate(g, 1))
    excl_min = np.concatenate([np.full((g.shape[0], 1), np.iinfo(np.int32).max),
                               np.minimum.accumulate(g, 1)[:, :-1]], 1)
    np.testing.assert_array_equal(rows[6], excl_min)
    np.testing.assert_array_equal(rows[7], np.repeat(g[:, 3:4], ls, 1))
    np.testing.assert_array_equal(rows[8], np.repeat((g > -50).all(1, keepdims=True), ls, 1))
    np.testing.assert_array_equal(rows[9], np.repeat((g == 7).any(1, keepdims=True), ls, 1))
    np.testing.assert_array_equal(fout.reshape(-1, ls),
                                  np.repeat(f.reshape(-1, ls).max(1, keepdims=True), ls, 1))


# A work-group function called for its argument's effects, its value unused (the
# fuzzer's mutant of collectives.cl): the regions schedule's C had kept the call, its
# argument indexed twice per work-item, and did not compile.
UNUSED_COLLECTIVES = """
kernel void unused(global int *out, global const int *in)
{
    size_t gid = get_global_id(0);
    int x = in[gid];
    work_group_any(x++ == 7);
    work_group_reduce_add(x);
    (void)work_group_scan_inclusive_max(x += 2);
    out[gid] = work_group_reduce_max(x) + x;
}
"""


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_work_group_functions_whose_value_goes_unused(schedule):
    prg = cl2c.Program(UNUSED_COLLECTIVES,
                       options=f"-cl-std=CL2.0 -cl2c-schedule={schedule}").build()
    n, ls = 128, 32
    x = rng(14).integers(-60, 60, n).astype(np.int32)
    out = np.zeros(n, np.int32)
    prg.unused((n,), (ls,), out, x)
    y = (x + 3).reshape(-1, ls)
    np.testing.assert_array_equal(out.reshape(-1, ls), y.max(1, keepdims=True) + y)


@pytest.mark.intel
@pytest.mark.parametrize("schedule", SCHEDULES)
def test_work_group_functions_same_as_intel(schedule):
    """The 2.0 work-group functions, which this PoCL does not build, give Intel's
    results; so does a scan over non-uniform groups (2.0: the last group is smaller)."""
    from conftest import run_intel
    options = f"-cl-std=CL2.0 -cl2c-schedule={schedule}"
    n, ls = 256, 32
    x = rng(12).integers(-60, 60, n).astype(np.int32)
    x[5] = 7
    f = rng(13).standard_normal(n).astype(np.float32)

    def args():
        return [x.copy(), np.zeros(10 * n, np.int32), np.zeros(n, np.float32), f.copy()]
    ours = args()
    cl2c.Program.from_file(kernel_path("collectives.cl"), options=options).build() \
        .collectives((n,), (ls,), *ours)
    [theirs] = run_intel(kernel_source("collectives.cl"),
                         [("collectives", (n,), (ls,), args())], "-cl-std=CL2.0")
    np.testing.assert_array_equal(ours[1], theirs[1])
    np.testing.assert_array_equal(ours[2], theirs[2])
    m = 100
    y = rng(31).integers(-100, 100, m).astype(np.int32)

    def scan_args():
        return [y.copy(), np.zeros(m, np.int32), cl2c.LocalMemory(2 * ls * 4)]
    ours = scan_args()
    cl2c.Program.from_file(kernel_path("barriers.cl"), options=options).build() \
        .scan((m,), (ls,), *ours)
    [theirs] = run_intel(kernel_source("barriers.cl"), [("scan", (m,), (ls,), scan_args())],
                         "-cl-std=CL2.0")
    np.testing.assert_array_equal(ours[1], theirs[1])


def test_work_group_functions_need_cl20():
    with pytest.raises(cl2c.BuildError, match=r"collectives.cl:8:\d+: error: "
                                              r"work_group_reduce_add\(\) is an OpenCL C 2.0"):
        cl2c.Program.from_file(kernel_path("collectives.cl")).build()


# ---- barrier-free kernels restructured by the regions schedule ------------------------------
@pytest.fixture(scope="module", params=["auto", "loops", "regions"])
def fission(request):
    return request.param, cl2c.Program.from_file(
        kernel_path("fission.cl"), options=f"-cl2c-schedule={request.param}").build()


def test_fission_choices():
    text = cl2c.translate(kernel_source("fission.cl"), "fission.cl").c_source
    assert " *   stencil: regions (no barriers, but a work-group function vectorises better " \
           "(1 region; 1 guard as loop bounds; 1 loop of rows prefetching the next " \
           "groups' runs))" in text
    assert " *   matmul: regions (" in text and "1 uniform loop around" in text
    # its `return` a guard, moved into the uniform loop: the loop runs at group level,
    # in register tiles within the guard's bounds
    assert " *   early: regions (no barriers, but a work-group function vectorises better " \
           "(3 regions; per-work-item arrays: s; recomputed: gid; 2 guards as loop bounds; " \
           "1 uniform loop around the work-item loops; 1 loop in register tiles of " \
           "work-items))" in text
    assert "1 grid-stride loop interchanged" in text
    # the run of `in` two iterations ahead is prefetched; `out`, written, is not
    step = text.split("i__k += ")[1].split("\n")[0]
    assert step.startswith("CL2C_PREFETCH_STEP(cl2c_get_global_size(CL2C_WI, 0), "
                           "cl2c_get_global_size(CL2C_WI, 0), in, i__k, ") and "out" not in step
    # float4 privates in per-work-item arrays by component, not arrays of structs
    assert " *   gravity: regions (" in text and "acc (by component)" in text


@pytest.mark.parametrize("local", [(32,), None])
def test_fission_gravity(fission, pocl, local):
    n = 96
    pos = rng(21).standard_normal((n, 4)).astype(np.float32)

    def args():
        return [pos.copy(), np.zeros((n, 4), np.float32), np.int32(n)]
    schedule, prg = fission
    got = args()
    prg.gravity((n,), local, *got)
    want = args()
    pocl(kernel_source("fission.cl"), "gravity", (n,), local, *want)
    # PoCL contracts a*b+c into fma (as in the matmul tests): a few ulp apart
    np.testing.assert_allclose(got[1], want[1], rtol=2e-5, atol=1e-5)


@pytest.mark.parametrize("local", [(16, 16), (8, 4), None])
def test_fission_stencil(fission, pocl, local):
    nx, ny = 80, 48
    grid = rng(20).standard_normal((ny, nx)).astype(np.float32)

    def args():
        return [grid.copy(), np.zeros((ny, nx), np.float32), np.int32(nx), np.int32(ny)]
    run_both(fission, pocl, "stencil", (nx, ny), local, args, source="fission.cl")


def test_fission_matmul(fission, pocl):
    n = 48
    a = rng(21).standard_normal((n, n)).astype(np.float32)
    b = rng(22).standard_normal((n, n)).astype(np.float32)

    def args():
        return [a.copy(), b.copy(), np.zeros((n, n), np.float32), np.int32(n)]
    got = run_both(fission, pocl, "matmul", (n, n), (8, 8), args, source="fission.cl",
                   exact=False)
    np.testing.assert_allclose(got[2], a @ b, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("lo,hi,local", [(3, 40, 16), (-5, 2000, 64), (50, 10, 8), (0, 0, 1)])
def test_fission_guards(fission, pocl, lo, hi, local):
    def args():
        return [np.zeros(1024, np.int32), np.int32(lo), np.int32(hi)]
    run_both(fission, pocl, "guards", (1024,), (local,), args, source="fission.cl")


@pytest.mark.parametrize("stop", [0, 5, 100])
def test_fission_breaks(fission, pocl, stop):
    n = 64
    x = rng(23).integers(0, 64, n).astype(np.int32)

    def args():
        return [x.copy(), np.zeros(64, np.int32), np.int32(n), np.int32(stop)]
    run_both(fission, pocl, "breaks", (64,), (16,), args, source="fission.cl")


def test_fission_early_return(fission, pocl):
    x = rng(24).standard_normal(300).astype(np.float32)

    def args():
        return [x.copy(), np.zeros(256, np.float32), np.int32(200), np.int32(20)]
    run_both(fission, pocl, "early", (256,), (32,), args, source="fission.cl", exact=False)


@pytest.mark.parametrize("n", [1, 1000, 4096, 5000])
def test_fission_grid_stride(fission, pocl, n):
    x = rng(25).integers(-1000, 1000, n).astype(np.int32)

    def args():
        return [x.copy(), np.zeros(n, np.int32), np.int32(n)]
    got = run_both(fission, pocl, "gridstride", (512,), (64,), args, source="fission.cl")
    np.testing.assert_array_equal(got[1], 3 * x + np.arange(n) % 512 % 64)


def test_fission_private_array_initializer(fission, pocl):
    vals = [np.uint32(v) for v in (0, 1, 2 ** 31, 2 ** 32 - 1, 7)]

    def args():
        return [np.zeros(5 * 64, np.uint32)] + vals
    got = run_both(fission, pocl, "array_init", (64,), (16,), args, source="fission.cl")
    ref = np.tile(np.array([0, 1, 2 ** 31, 2 ** 32 - 1, 7], np.uint32), (64, 1))
    ref[:, 4] += np.arange(64, dtype=np.uint32)
    np.testing.assert_array_equal(got[0].reshape(64, 5), ref)


REQD_SIZES = """
__kernel __attribute__((reqd_work_group_size(16, 1, 1))) void sizes(__global int *out)
{
    __local int t[16];
    int l = get_local_id(0);
    t[l] = (int)get_local_size(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = t[l] + 100 * l;
}
"""


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_reqd_size_and_a_smaller_last_group(schedule):
    """2.0 with reqd_work_group_size: the last group of 20 work-items has 4, whose
    get_local_size is 4; the regions schedule ran 16 of them (the reqd size), writing
    past the range."""
    prg = cl2c.Program(REQD_SIZES, f"-cl-std=CL2.0 -cl2c-schedule={schedule}").build()
    out = np.full(24, -1, np.int32)
    prg.sizes((20,), (16,), out)
    want = [16 + 100 * l for l in range(16)] + [4 + 100 * l for l in range(4)] + [-1] * 4
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_non_uniform_groups_with_barriers(schedule):
    """OpenCL 2.0: the last group is smaller; its barriers count only its work-items."""
    prg = cl2c.Program.from_file(kernel_path("barriers.cl"),
                                 options=f"-cl-std=CL2.0 -cl2c-schedule={schedule}").build()
    n, ls = 100, 32
    x = rng(30).integers(-100, 100, n).astype(np.int32)
    out = np.zeros(n, np.int32)
    prg.scan((n,), (ls,), x, out, cl2c.LocalMemory(2 * ls * 4))
    ref = np.concatenate([np.cumsum(x[i:i + ls]) for i in range(0, n, ls)])
    np.testing.assert_array_equal(out, ref)
    with pytest.raises(LaunchError, match="work-group size"):
        cl2c.Program.from_file(kernel_path("barriers.cl"),
                               options=f"-cl2c-schedule={schedule}").build().scan(
            (n,), (ls,), x, out, cl2c.LocalMemory(2 * ls * 4))


EARLY_RETURNS = """
__kernel void k(__global const float *x, __global const int *y, __global int *out,
                int n, float t)
{
    int i = get_global_id(0);
    if (i >= n || y[i] == 7)
        return;
    if (x[i] > t)
        return;
    if (!(y[i] & 1) && y[i] < -3)
        return;
    out[i] = 2 * y[i] + 1;
}"""


def test_early_returns_become_the_loop_bounds():
    """`if (c) return;` heads become one guard `if (!c) {...}`, its integer comparisons
    flipped (i < n: the loop's bounds) and the rest negated as they are: a float compared
    with NaN neither returns nor flips, `&&` and `||` keep their order of evaluation."""
    prg = cl2c.Program(EARLY_RETURNS).build()
    assert "1 guard as loop bounds" in prg.c_source.split("*/")[0]
    rng = np.random.default_rng(3)
    x = rng.random(1000).astype(np.float32)
    x[::7] = np.nan
    y = rng.integers(-10, 10, 1000).astype(np.int32)
    out = np.zeros(1000, np.int32)
    prg.k((1000,), None, x, y, out, np.int32(990), np.float32(0.5))
    i = np.arange(1000)
    runs = (i < 990) & (y != 7) & ~(x > 0.5) & ~(((y & 1) == 0) & (y < -3))
    np.testing.assert_array_equal(out, np.where(runs, 2 * y + 1, 0))


GUARDED_LOOPS = """
// the guard reads what the loop writes: it stays around the loop
__kernel void drain(__global float *x, int n, int K)
{
    int i = get_global_id(0);
    if (i < n && x[i] > 0.0f) {
        for (int k = 0; k < K; ++k)
            x[i] -= 1.0f;
    }
}

// a trip count of each work-item's own: the loop stays inside the guard
__kernel void own_count(__global int *x, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    int s = 0;
    for (int k = 0; k < i % 5; ++k)
        s += k;
    x[i] = s;
}"""


def test_guarded_loops_run_at_group_level():
    """The example's guarded matmul: its `k` loop moves out of the guard and runs at
    group level, the guard the bounds of the work-item loops in it (every size, none a
    multiple of the groups'); guards that the loop changes, and loops of each
    work-item's own count, stay as they are."""
    mm = cl2c.Program.from_file(ROOT / "examples" / "kernels" / "matmul.cl").build()
    header = mm.c_source.split("*/")[0]
    assert "1 uniform loop around the work-item loops" in header and \
        "as loop bounds" in header, header
    prg = cl2c.Program(GUARDED_LOOPS).build()
    r = np.random.default_rng(4)
    for m, n, k in ((37, 53, 29), (1, 1, 1), (64, 64, 64), (5, 300, 1)):
        A = r.integers(-4, 5, (m, k)).astype(np.float32)
        B = r.integers(-4, 5, (k, n)).astype(np.float32)
        C = np.full((m, n), -1.0, np.float32)
        mm.matmul((n + 11, m + 3), None, A, B, C, np.int32(m), np.int32(n), np.int32(k))
        np.testing.assert_array_equal(C, A @ B)
    x = r.integers(-3, 4, 1000).astype(np.float32)
    want = np.where(x > 0, x - 7, x)
    want[990:] = x[990:]
    prg.drain((1000,), None, x, np.int32(990), np.int32(7))
    np.testing.assert_array_equal(x, want)
    out = np.full(1000, -1, np.int32)
    prg.own_count((1000,), None, out, np.int32(997))
    i = np.arange(1000)
    np.testing.assert_array_equal(out, np.where(i < 997, (i % 5) * (i % 5 - 1) // 2, -1))


GUARDED_PULL = """
__kernel void pull(__global const float4 *pos, __global float4 *out, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    const float4 p = pos[i];
    float4 acc = (float4)(0.0f);
    for (int j = 0; j < n; j++) {
        float4 q = pos[j];
        float s = q.w;
        acc.xyz += s * (q.xyz - p.xyz);
    }
    out[i] = acc;
}

// b is computed from a loaded value: it is set under the guard too (a work-item the
// guard stops would otherwise read a, never set)
__kernel void chain(__global const float *x, __global float *y, int n, int m)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    float a = x[i];
    float b = a * 2.0f;
    float s = 0.0f;
    for (int j = 0; j < m; ++j)
        s += b * (float)j;
    y[i] = s;
}"""


@pytest.mark.parametrize("options", ["", "-cl2c-check=collect"])
def test_a_guarded_loop_with_loads_before_it_runs_at_group_level(options):
    """N-body's shape under ``if (i >= n) return;``: ``p``, loaded before the loop, is
    declared for every work-item and loaded under the guard, and the loop runs at group
    level (it ran 14x slower inside the guard). ``s`` is a local of the loop's body,
    not a per-work-item array (the vectors' ``.s`` fields are no variable ``s``).
    ``pos`` ends at an unreadable page: a work-item the guard stops must not load."""
    prg = cl2c.Program(GUARDED_PULL, options).build()
    header = prg.c_source.split("*/")[0]
    if not options:                     # (a checking build keeps the loops schedule)
        assert "per-work-item arrays: p (by component), acc (by component);" in header
        assert "1 uniform loop around the work-item loops" in header and \
            "as loop bounds" in header, header
        # chain's b from a, both under one guard
        gap = r"(?:\s|#line [^\n]*)*"
        assert re.search(rf"if \(i < n\){gap}\{{{gap}a = x\[i\];{gap}b\[cl2c_i\] = a \* 2\.0f;",
                         prg.c_source), prg.c_source
    r = np.random.default_rng(5)
    for n in (1, 31, 100, 257):
        pos = fenced(r.integers(-8, 8, (n, 4)).astype(np.float32))
        out = np.full((n, 4), -1, np.float32)
        prg.pull((-(-n // 64) * 64,), (64,), pos, out, np.int32(n))
        p = pos.astype(np.int64)
        want = (p[None, :, 3:] * (p[None, :, :3] - p[:, None, :3])).sum(axis=1)
        np.testing.assert_array_equal(out[:, :3], want.astype(np.float32))
        np.testing.assert_array_equal(out[:, 3], 0)
        x = fenced(r.integers(-8, 8, n).astype(np.float32))
        y = np.full(n, -1, np.float32)
        prg.chain((-(-n // 64) * 64,), (64,), x, y, np.int32(n), np.int32(9))
        np.testing.assert_array_equal(y, x * 2 * 36)
        if options:
            assert prg.pull.findings == [] and prg.chain.findings == []


GUARDED_ARRAY = """
__kernel void cycle(__global const float *x, __global float *y, int n, int m)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    float w[4];
    for (int k = 0; k < 4; ++k)
        w[k] = x[4 * i + k];
    float s = 0.0f;
    for (int j = 0; j < m; ++j)
        s += w[j & 3] * (float)j;
    y[i] = s;
}"""


def test_a_private_array_before_a_uniform_loop_takes_the_regions_schedule():
    """A private array lives per work-item where that moves a uniform loop out of the
    work-item loop (4.4x faster here than the loops schedule, where the guard also
    keeps the loop from vectorising); the guard's work-items load nothing."""
    prg = cl2c.Program(GUARDED_ARRAY).build()
    header = prg.c_source.split("*/")[0]
    assert "cycle: regions (" in header and "per-work-item arrays: w," in header and \
        "uniform loops around the work-item loops" in header, header
    r = np.random.default_rng(6)
    for n, m in ((1, 3), (37, 8), (300, 13)):
        x = fenced(r.integers(0, 8, 4 * n).astype(np.float32))
        y = np.full(n, -1, np.float32)
        prg.cycle((-(-n // 64) * 64,), None, x, y, np.int32(n), np.int32(m))
        j = np.arange(m)
        want = (x.reshape(n, 4)[:, j & 3] * j).sum(axis=1)
        np.testing.assert_array_equal(y, want.astype(np.float32))


COUNTING = """
__kernel void steps(__global int *out, __global const int *in, int count) {
    __local int l[64];
    int lid = get_local_id(0);
    int n = count, m = lid;
    l[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    while (--n > 0) {                   /* uniform: its update too */
        int left = l[(lid + 63) & 63];
        barrier(CLK_LOCAL_MEM_FENCE);
        l[lid] += left;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    int extra = 0;
    while (m-- > 0)                     /* each work-item's own */
        extra += 2;
    out[get_global_id(0)] = l[lid] + extra;
}"""


def _steps_reference(a: np.ndarray, count: int) -> np.ndarray:
    out = a.copy()
    for g in range(0, len(a), 64):
        block = out[g:g + 64]
        for _ in range(max(count - 1, 0)):
            block += np.roll(block, 1)
        block += 2 * np.arange(64)
    return out


@pytest.mark.parametrize("schedule", ["", "-cl2c-schedule=fibers"])
def test_a_loop_that_counts_in_its_condition_is_uniform(schedule, pocl):
    """`while (--n > 0)` updates a uniform n in its condition: it runs at group level
    with its barriers (the regions schedule, not fibers), and the Guide's Listing 14.3,
    which sums partial histograms so, has its work-item loop innermost; a counter that
    each work-item has of its own (`m = lid`) stays inside the work-items."""
    c = cl2c.translate(COUNTING, "steps.cl", schedule or "-cl2c-schedule=regions").c_source
    if not schedule:
        assert " *   steps: regions (" in c
    prg = cl2c.Program(COUNTING).build(schedule)
    a = rng(7).integers(-50, 50, 128).astype(np.int32)
    for count in (0, 1, 4):
        out, want = np.zeros(128, np.int32), np.zeros(128, np.int32)
        prg.steps(128, 64, out, a, np.int32(count))
        pocl(COUNTING, "steps", 128, 64, want, a, np.int32(count))
        np.testing.assert_array_equal(out, _steps_reference(a, count))
        np.testing.assert_array_equal(out, want)
    guide = (ROOT / "bench" / "kernels" / "gpu" / "guide_histogram.cl").read_text()
    header = cl2c.translate(guide, "guide_histogram.cl").c_source.split("*/")[0]
    assert "histogram_sum_partial_results_unorm8: regions" in header
    partial = rng(8).integers(0, 1000, 37 * 768).astype(np.uint32)
    total = np.zeros(768, np.uint32)
    cl2c.Program(guide).build().histogram_sum_partial_results_unorm8(
        768, 256, partial, np.int32(37), total)
    np.testing.assert_array_equal(total, partial.reshape(37, 768).sum(0))


COPY_OUT = """
__kernel void copy_out(__global int *out) {
    __local int tmp[256];
    int tid = get_local_id(0), ls = get_local_size(0);
    int j = 256, indx = 0;
    do {
        if (tid < j) tmp[indx + tid] = indx + tid;
        j -= ls;
        indx += ls;
    } while (j > 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    int base = get_group_id(0) * 256;
    if (ls >= 256) {
        if (tid < 256) out[base + tid] = tmp[tid] * 2;
    } else {
        j = 256;
        indx = 0;
        do {
            if (tid < j) out[base + indx + tid] = tmp[indx + tid] * 3;
            j -= ls;
            indx += ls;
        } while (j > 0);
    }
}"""


@pytest.mark.parametrize("schedule", ["", "-cl2c-schedule=fibers"])
def test_a_uniform_if_around_a_uniform_loop_runs_at_group_level(schedule):
    """The Guide's histogram clears and copies out its 768 bins in loops of a local
    size's steps, the copy under a uniform if: both loops run at group level, around
    their work-item loops, for every local size."""
    c = cl2c.translate(COPY_OUT, "copy_out.cl").c_source
    assert "2 uniform loops around the work-item loops" in c
    guide = (ROOT / "bench" / "kernels" / "gpu" / "guide_histogram.cl").read_text()
    header = cl2c.translate(guide, "guide_histogram.cl").c_source.split("*/")[0]
    assert "2 uniform loops around" in header.split("histogram_partial_image_rgba_unorm8:")[1]
    prg = cl2c.Program(COPY_OUT).build(schedule)
    for ls in (16, 100, 256):
        out = np.full(2 * 256, -1, np.int32)
        prg.copy_out(2 * ls, ls, out)
        np.testing.assert_array_equal(out, np.tile(np.arange(256) * (2 if ls >= 256 else 3),
                                                   2), err_msg=f"local size {ls}")
