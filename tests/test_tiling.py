"""Uniform loops in register tiles of work-items (cl2c/workgroup/passes/tiling.py): matrix products
with small integer values (every sum exact, so any order of the work-items' steps gives
the same bits) against NumPy's, for local sizes of whole tiles (the tiled path) and not
(the loop as it was), under the auto schedule and the fibers schedule (never tiled)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cl2c
from conftest import fenced, kernel_source, lecture_source

pytestmark = pytest.mark.optimised      # what the optimiser makes of cl2c's C

SOURCE = kernel_source("tiling.cl")
RNG = np.random.default_rng(7)


@pytest.fixture(scope="module")
def programs():
    return {s: cl2c.Program(SOURCE, "" if s == "auto" else f"-cl2c-schedule={s}").build()
            for s in ("auto", "fibers")}


def test_which_loops_are_tiled():
    c_source = cl2c.translate(SOURCE, "tiling.cl").c_source
    assert "acc__s0__tile[1][CL2C_TILE_COLS]" in c_source       # pull's: one row
    assert "acc__tile[8][CL2C_TILE_COLS]" in c_source           # matmul's
    header = c_source.split("*/")[0]
    lines = {line.split(":")[0].strip(" *"): line for line in header.splitlines()
             if ": " in line}
    for name in ("matmul", "moments", "local_rows", "pull", "guarded", "guarded_groups"):
        assert "1 loop in register tiles" in lines[name], lines[name]
    for name in ("writes", "counter"):
        assert "register tiles" not in lines[name], lines[name]
    # a column of tiles at a time (they share the other operand's columns in L2): the
    # loop over tile columns holds the one over tile rows
    group = c_source[c_source.index("void matmul__group("):]
    assert group.index("for (size_t cl2c_t0 = 0;") < group.index("for (size_t cl2c_t1 = 0;")


def operands(n, k, m):
    a = RNG.integers(0, 8, (n, k)).astype(np.float32)
    b = RNG.integers(0, 8, (k, m)).astype(np.float32)
    want = (a.astype(np.int64) @ b.astype(np.int64)).astype(np.float32)
    # k = 0 reads neither, but OpenCL has no empty buffers
    return (a if k else np.zeros(1, np.float32)), (b if k else np.zeros(1, np.float32)), want


# (n, k, m, local): None regroups into whole tiles, up to four by four (cl2c_regroup_tiles):
# 72 x 200 and 136 x 260 leave cut groups of rows and columns beside whole ones
SHAPES = [(64, 40, 96, None), (48, 7, 64, (32, 8)), (24, 33, 64, (64, 8)),
          (32, 16, 32, (16, 16)), (20, 9, 70, None), (9, 5, 33, (3, 3)), (16, 0, 32, None),
          (72, 11, 200, None), (136, 5, 260, None)]


@pytest.mark.parametrize("schedule", ["auto", "fibers"])
@pytest.mark.parametrize("n,k,m,local", SHAPES)
def test_matmul(programs, schedule, n, k, m, local):
    a, b, want = operands(n, k, m)
    c = np.full((n, m), -1, np.float32)
    programs[schedule].matmul((m, n), local, a, b, c, np.int32(k), np.int32(m))
    np.testing.assert_array_equal(c, want)


# (n, k, m, c0, global, local): guards that cut tiles' rows and columns, and groups the
# size of a tile, smaller (the loop as it was) and wider (a tile and a cut one)
GUARDED = [(64, 40, 96, 0, (96, 64), None), (61, 9, 90, 0, (96, 64), None),
           (61, 9, 90, 7, (90, 61), None), (24, 5, 100, 40, (128, 24), (32, 8)),
           (23, 6, 75, 0, (96, 24), (48, 8)), (20, 7, 50, 3, (64, 32), (16, 16)),
           (5, 3, 33, 0, (33, 5), None), (16, 0, 32, 0, (32, 16), None)]


@pytest.mark.parametrize("n,k,m,c0,size,local", GUARDED)
@pytest.mark.parametrize("options", ["", "-cl2c-check=collect"])
def test_guarded_tiles(n, k, m, c0, size, local, options):
    prg = cl2c.Program(SOURCE, options).build()
    a, b, want = operands(n, k, m)
    a, b = fenced(a), fenced(b)     # work-items the guard stops must not read them
    c = np.full((n, m), -1, np.float32)
    prg.guarded(size, local, a, b, c, np.int32(n), np.int32(k), np.int32(m), np.int32(c0))
    want[:, :c0] = -1
    np.testing.assert_array_equal(c, want)
    if options:
        assert prg.guarded.findings == []
    if c0 == 0:
        c = np.full((n, m), -1, np.float32)
        prg.guarded_groups(size, local, a, b, c, np.int32(n), np.int32(k), np.int32(m))
        np.testing.assert_array_equal(c, want)


@pytest.mark.parametrize("n,k,m,local", SHAPES)
def test_moments(programs, n, k, m, local):
    a, b, want = operands(n, k, m)
    p = a[:, :k, None].astype(np.float64) * b[None, :k, :] if k else np.zeros((n, 1, m))
    s, q = np.zeros((n, m), np.float32), np.zeros((n, m), np.float64)
    programs["auto"].moments((m, n), local, a, b, s, q, np.int32(k), np.int32(m))
    np.testing.assert_array_equal(s, want)
    np.testing.assert_array_equal(q, (p * p).sum(axis=1))


@pytest.mark.parametrize("local", [(32, 8), (64, 8), (16, 4)])
def test_local_rows_across_barriers(programs, local):
    n, k, m = 32, 24, 128
    a, b, want = operands(n, k, m)
    c = np.zeros((n, m), np.float32)
    rows = cl2c.LocalMemory(4 * local[1] * k)
    programs["auto"].local_rows((m, n), local, a, b, c, np.int32(k), np.int32(m), rows)
    np.testing.assert_array_equal(c, want)


def test_a_loop_that_writes_global_memory_keeps_its_order(programs):
    n, k, m = 16, 12, 64
    b = RNG.integers(0, 8, (k, m)).astype(np.float32)
    c = np.zeros((n, m), np.float32)
    programs["auto"].writes((m, n), None, c, b, np.int32(k), np.int32(m))
    np.testing.assert_array_equal(c, np.broadcast_to(b.sum(axis=0), (n, m)))


@pytest.mark.parametrize("schedule", ["auto", "fibers"])
@pytest.mark.parametrize("n,local", [(96, None), (64, (32,)), (70, None), (48, (16,))])
def test_pull_in_one_row_tiles(programs, schedule, n, local):
    pos = RNG.integers(-8, 8, (n, 4)).astype(np.float32)
    out = np.zeros_like(pos)
    programs[schedule].pull((n,), local, pos, out, np.int32(n))
    p, w = pos.astype(np.int64), pos[:, 3].astype(np.int64)
    r = p[None, :, :] - p[:, None, :]
    r[:, :, 3] = 1
    np.testing.assert_array_equal(out, (w[None, :, None] * r).sum(axis=1).astype(np.float32))


# A __local-tiled product under reqd_work_group_size: every group's size is known, so the
# tiles fit it (16 columns for 16-wide groups) with no test of it and no other path in
# the C; a width of neither 16 nor 32 columns is not tiled.
TILED = r"""
__kernel __attribute__((reqd_work_group_size(TW, TH, 1)))
void tiled(__global const float *A, __global const float *B, __global float *C, int n)
{
    __local float As[TH][TW], Bs[TW][TW];
    int tx = get_local_id(0), ty = get_local_id(1);
    int col = get_global_id(0), row = get_global_id(1);
    float acc = 0.0f;
    for (int t = 0; t < n / TW; ++t) {
        As[ty][tx] = A[row * n + t * TW + tx];
        for (int r = ty; r < TW; r += TH)
            Bs[r][tx] = B[(t * TW + r) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TW; ++k)
            acc += As[ty][k] * Bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * n + col] = acc;
}
"""


def assert_tile(c_source: str, tile: str | None):
    """The C has a tile of that shape (``[rows][cols]``), or none (None)."""
    if tile is None:
        assert "acc__tile" not in c_source
    else:
        assert f"acc__tile{tile}" in c_source


# (tw, th, the tile's shape, or None; whether the group is one tile, which stays in
# registers through the loop over t)
@pytest.mark.parametrize("tw,th,tile,one", [
    (16, 16, "[16][16]", True), (32, 8, "[8][CL2C_TILE_COLS]", True),
    (16, 12, "[12][16]", True), (48, 8, "[8][16]", False), (24, 8, None, False)])
def test_known_local_sizes_fit_the_tiles(tw, th, tile, one):
    options = f"-DTW={tw} -DTH={th}"
    c_source = cl2c.translate(TILED, "tiled.cl", options).c_source
    assert_tile(c_source, tile)
    if tile is not None:
        assert "% CL2C_TILE_COLS" not in c_source and "% 8" not in c_source
        first_copy = c_source.index("acc__tile[cl2c_r][cl2c_c] = acc[")
        assert (first_copy < c_source.index("for (int t = 0")) == one
        # columns the kernel fixes keep a loop under clang (tiles.py's _simd_columns),
        # CL2C_TILE_COLS ones are left to it
        hint = "#pragma omp simd\n" in c_source and \
            "#pragma clang loop unroll(disable)\n" in c_source
        assert hint == ("CL2C_TILE_COLS" not in tile)
    n = 96 if tw != 48 else 144
    a, b, want = operands(n, n, n)
    c = np.full((n, n), -1, np.float32)
    cl2c.Program(TILED, options).build().tiled((n, n), (tw, th), a, b, c, np.int32(n))
    np.testing.assert_array_equal(c, want)


# The same product with no reqd_work_group_size: the group's width is not known, but
# Bs[k][tx] allows none wider than TW. Tiles of CL2C_TILE_COLS (32) columns would be
# dead code that reads past Bs's rows, which GCC proves at -O2 and warns of
# ("iteration 16 invokes undefined behavior"); 16-wide arrays take 16-column tiles
# (a 16 x 16 launch then runs tiled), narrower ones none.
@pytest.mark.parametrize("tw,tile", [(16, "[8][16]"), (8, None), (32, "[8][CL2C_TILE_COLS]")])
def test_arrays_narrower_than_a_tile_narrow_it(tw, tile, cc, tmp_path):
    import subprocess
    from cl2c.resources import runtime_include_dir
    source = TILED.replace("__kernel __attribute__((reqd_work_group_size(TW, TH, 1)))",
                           "__kernel")
    options = f"-DTW={tw} -DTH={tw}"
    c_source = cl2c.translate(source, "tiled.cl", options).c_source
    assert_tile(c_source, tile)
    (tmp_path / "k.c").write_text(c_source)
    subprocess.run([cc, "-std=c11", "-O2", "-fopenmp", "-Wall", "-Wextra", "-Werror",
                    f"-I{runtime_include_dir()}", "-c", "k.c", "-o", "k.o"],
                   cwd=tmp_path, check=True)
    program = cl2c.Program(source, options).build()
    for n in (96, 160):
        a, b, want = operands(n, n, n)
        c = np.full((n, n), -1, np.float32)
        program.tiled((n, n), (tw, tw), a, b, c, np.int32(n))
        np.testing.assert_array_equal(c, want)


# The tile stays in registers through the loop over t only where nothing else in that
# loop uses acc: here a step between the tiles halves it, so the tile is copied in and
# out around each k loop, as before.
HALVED = TILED.replace("        barrier(CLK_LOCAL_MEM_FENCE);\n    }",
                       "        barrier(CLK_LOCAL_MEM_FENCE);\n        acc *= 0.5f;\n    }")


def test_a_tile_stays_in_registers_only_through_loops_that_leave_it_alone():
    assert HALVED != TILED
    options = "-DTW=16 -DTH=16"
    c_source = cl2c.translate(HALVED, "halved.cl", options).c_source
    assert "acc__tile[16][16]" not in c_source and "acc__tile[8][16]" in c_source
    assert c_source.index("acc__tile[cl2c_r][cl2c_c] = acc[") > \
        c_source.index("for (int t = 0")
    n = 64
    a, b, _ = operands(n, n, n)
    want = np.zeros((n, n), np.float64)
    for t in range(n // 16):
        want = (want + a[:, t * 16:(t + 1) * 16].astype(np.float64) @
                b[t * 16:(t + 1) * 16].astype(np.float64)) * 0.5
    c = np.full((n, n), -1, np.float32)
    cl2c.Program(HALVED, options).build().tiled((n, n), (16, 16), a, b, c, np.int32(n))
    np.testing.assert_array_equal(c, want.astype(np.float32))



# A checking build keeps the one tile of a 16x16 group through the loop over t too,
# and copies it out before the checked twin of the tiled loop and back in after it.
# Tiles padded to 17 columns (against bank conflicts on GPUs) leave a column no
# work-item writes, so the test before the fast loop fails at every t and the checked
# loop runs, finding nothing: the result must still be exact.
PADDED = TILED.replace("As[TH][TW], Bs[TW][TW]", "As[TH][TW + 1], Bs[TW][TW + 1]")


def test_a_checking_build_copies_the_tile_around_the_checked_loop():
    assert PADDED != TILED
    options = "-DTW=16 -DTH=16 -cl2c-check=collect"
    prg = cl2c.Program(PADDED, options).build()
    c_source = prg.c_source
    assert c_source.index("float acc__tile[16][16]") < c_source.index("for (int t = 0")
    assert "with a fast version" in c_source
    n = 64
    a, b, want = operands(n, n, n)
    c = np.full((n, n), -1, np.float32)
    prg.tiled((n, n), (16, 16), a, b, c, np.int32(n))
    assert prg.tiled.findings == []
    np.testing.assert_array_equal(c, want)


def test_bounds_from_the_uniform_loop_are_not_tiled():
    """`for (j...) if (lx == j)`: the work-item loop's bounds come from j, which a whole
    tile's test before the loop cannot read (the C did not compile). Not tiled, and
    right, under every group size."""
    src = """
__kernel void k(__global int *out, int n) {
    int lx = get_local_id(0);
    int acc = 0;
    for (int j = 0; j < 3; j++)
        if (lx == j) acc += 64 + j;
    out[get_global_id(0)] = acc;
}"""
    prg = cl2c.Program(src).build()
    for local in (1, 2, 16, 32):
        out = np.zeros(64, np.int32)
        prg.k(64, local, out, np.int32(0))
        lx = np.arange(64) % local
        np.testing.assert_array_equal(out, np.where(lx < 3, 64 + lx, 0))


# Rodinia's k-means assignment, as the bench's GPU-style corpus has it
KMEANS = (Path(__file__).resolve().parent.parent / "bench" / "kernels" / "gpu" /
          "kmeans.cl").read_text()


@pytest.mark.parametrize("inner, loops", [("nfeatures", 2), ("c + 1", 1)])
@pytest.mark.parametrize("npoints, local", [(1000, 64), (256, 256), (37, 16)])
def test_a_guard_goes_into_nested_loops(inner, loops, npoints, local):
    """Rodinia's k-means assignment (features column-major): the guard `p < npoints`
    goes into the loop over the clusters and into the loop over the features inside it,
    which then both run at group level with the work-item loop innermost (74x faster
    on one thread); not into a loop whose header reads the outer loop's counter."""
    src = KMEANS.replace("f < nfeatures", f"f < {inner}")
    assert src != KMEANS or inner == "nfeatures"
    c = cl2c.translate(src, "kmeans.cl").c_source
    assert f"{loops} uniform loop{'s' if loops > 1 else ''} around" in c
    nclusters, nfeatures = 5, 7
    rng = np.random.default_rng(npoints)
    feats = rng.random(nfeatures * npoints, dtype=np.float32)
    clusters = rng.random(nclusters * nfeatures, dtype=np.float32)
    out = np.full(npoints, -1, np.int32)
    grid = -(-npoints // local) * local
    prg = cl2c.Program(src).build()
    prg.kmeans_assign(grid, local, feats, clusters, out, np.int32(npoints),
                      np.int32(nclusters), np.int32(nfeatures))
    f = feats.reshape(nfeatures, npoints).astype(np.float64)
    cen = clusters.reshape(nclusters, nfeatures).astype(np.float64)
    used = np.arange(nfeatures)[None, :] < (np.arange(nclusters)[:, None] + 1) \
        if inner != "nfeatures" else np.ones((nclusters, nfeatures), bool)
    dist = (((f[None, :, :] - cen[:, :, None]) ** 2) * used[:, :, None]).sum(1)
    np.testing.assert_array_equal(out, np.argmin(dist, axis=0))


@pytest.mark.parametrize("gsize, local", [((64,), None), ((96,), (32,)), ((70,), (35,)),
                                          ((48,), (8,)), ((60,), (12,)), ((48,), (4,))])
def test_a_kernel_of_one_dimension_has_tiles_of_one_row(gsize, local):
    """A kernel that asks only of the range's dimension 0 runs in groups of one row (as
    a rule), which tiles of 8 rows never fit: its tiles are of one row (with the
    tests of a tile's room as for any); groups narrower than a tile, tiles of 8
    columns (the lecture's V6 runs groups of 8). Integer values: exact sums, compared
    with NumPy's bit for bit; groups that are no whole tiles, and narrower than the
    narrow ones, too."""
    n = gsize[0]
    prg = cl2c.Program(lecture_source("v5", n)).build()
    # (the kernel as written: its loop over j, which a launch of two dimensions keeps,
    # not the kernel with that loop as dimension 1, loop_dimension.py)
    group = prg.c_source[prg.c_source.index("void matmult__group("):]
    group = group[:group.index("\n}\n")]
    assert "sum__tile[1][CL2C_TILE_COLS]" in group
    assert "sum__tile[1][8]" in group
    assert "cl2c_ls1 >= 8" not in group
    A, B = (RNG.integers(-4, 5, (n, n)).astype(np.float32) for _ in range(2))
    C = np.zeros((n, n), np.float32)
    prg.matmult(gsize + (1,), local and local + (1,), A, B, C)
    np.testing.assert_array_equal(C, A @ B)
