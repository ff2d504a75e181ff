"""Fission of a region's work-item loop (workgroup/builders/fission.py): a statement
that one work-item of each row runs (``if (lx == 1) tile[ly][0] = ...``, a tile's halo
load) gets a loop of its own over that work-item, and the rest of the body loops over
whole rows. Each kernel against an exact NumPy or Python reference, on group sizes that
put the one work-item inside, at the ends of and outside the group, with uneven groups;
against the fibers schedule, which runs each work-item as written; and in checking
mode, which must find nothing in them."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import cl2c

CUT = "cut where a statement runs for one work-item of each row"

HALO = r"""
#define MAX 16
__kernel void halo(__global const float *in, __global float *out, int nx, int ny) {
    __local float tile[MAX + 2][MAX + 2];
    const int gx = get_global_id(0), gy = get_global_id(1);
    const int lx = get_local_id(0) + 1, ly = get_local_id(1) + 1;
    const int wx = get_local_size(0), wy = get_local_size(1);
    const int inside = gx < nx && gy < ny;
    tile[ly][lx] = inside ? in[gy * nx + gx] : 0.0f;
    if (lx == 1)
        tile[ly][0] = (gx > 0 && gy < ny) ? in[gy * nx + gx - 1] : 0.0f;
    if (lx == wx)
        tile[ly][wx + 1] = (gx + 1 < nx && gy < ny) ? in[gy * nx + gx + 1] : 0.0f;
    if (ly == 1)
        tile[0][lx] = (gy > 0 && gx < nx) ? in[(gy - 1) * nx + gx] : 0.0f;
    if (ly == wy)
        tile[wy + 1][lx] = (gy + 1 < ny && gx < nx) ? in[(gy + 1) * nx + gx] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (gx > 0 && gy > 0 && gx < nx - 1 && gy < ny - 1)
        out[gy * nx + gx] = 0.25f * (tile[ly][lx - 1] + tile[ly][lx + 1] +
                                     tile[ly - 1][lx] + tile[ly + 1][lx]);
}
"""

# the one work-item's statement before and after statements of every work-item, which
# read and write what it wrote: each work-item keeps its order
ORDER = r"""
__kernel void order(__global int *scratch, __global int *out, int k) {
    int g = get_global_id(0), l = get_local_id(0);
    scratch[g] = l;
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (l == k) scratch[g] = 1000 + l;
    out[g] = scratch[g] * 10;
    if (l + 1 == k) out[g] += 7;
    out[g] += 3;
}
"""

# not cut: the one work-item's statement reads a value an earlier statement made, or a
# head declaration that loads; or a statement after it reads a private that one before
# it wrote (one variable, or one array, for all the work-items of a loop)
KEPT = r"""
__kernel void private_across(__global const int *in, __global int *out, __global int *first) {
    int g = get_global_id(0), l = get_local_id(0);
    int t;
    t = in[g] * 2;
    if (l == 0) first[get_group_id(0)] = in[g] * 2;
    out[g] = t - in[g] + 1;
}
__kernel void array_across(__global const int *in, __global int *out, __global int *first) {
    int g = get_global_id(0), l = get_local_id(0);
    int t[2];
    t[1] = in[g] + 1;
    if (l == 0) first[get_group_id(0)] = in[g] * 2;
    out[g] = t[1];
}
__kernel void made_before(__global const int *in, __global int *out, __global int *first) {
    int g = get_global_id(0), l = get_local_id(0);
    out[g] = in[g] + 1;
    int t = in[g] * 2;
    if (l == 0) first[get_group_id(0)] = t;
}
__kernel void loaded_head(__global const int *in, __global int *out, __global int *first) {
    int g = get_global_id(0), l = get_local_id(0);
    int v = in[g];
    out[g] = v + 1;
    if (l == 0) first[get_group_id(0)] = v * 2;
}
"""


def jacobi(g: np.ndarray) -> np.ndarray:
    out = np.zeros_like(g)
    out[1:-1, 1:-1] = np.float32(0.25) * (g[1:-1, :-2] + g[1:-1, 2:] + g[:-2, 1:-1] +
                                          g[2:, 1:-1])
    return out


@pytest.fixture(scope="module")
def halo_programs():
    return {options: cl2c.Program(HALO, filename="halo.cl").build(options)
            for options in ("-cl2c-schedule=regions", "-cl2c-schedule=fibers",
                            "-cl2c-check")}


def test_the_halo_loads_get_loops_of_their_own():
    c = cl2c.translate(HALO, "halo.cl", "-cl2c-schedule=regions").c_source
    assert CUT in c
    # the tile's row loads are no longer split around the halo's work-items
    assert "cl2c_mid_besides(&cl2c_mid_lo" not in c
    assert c.count("if (lx == 1)") == 1 and c.count("if (lx == wx)") == 1


@pytest.mark.parametrize("nx, ny, local", [
    (64, 48, (16, 16)), (61, 45, (16, 16)), (30, 20, (8, 4)), (17, 9, (4, 4)),
    (40, 33, (16, 1)), (9, 40, (1, 8)), (5, 5, (2, 2)), (48, 16, (16, 2))])
def test_halo_as_numpy(halo_programs, nx, ny, local):
    g = np.random.default_rng(nx * ny).random((ny, nx), dtype=np.float32)
    want = jacobi(g)
    size = tuple(-(-n // w) * w for n, w in zip((nx, ny), local))
    for options, prg in halo_programs.items():
        out = np.full_like(g, -1.0)
        out[0, :], out[-1, :], out[:, 0], out[:, -1] = 0, 0, 0, 0
        prg.halo(size, local, g, out, np.int32(nx), np.int32(ny))
        np.testing.assert_allclose(out, want, rtol=1e-6, atol=0, err_msg=options)


@pytest.mark.parametrize("size, local", [(64, 16), (30, 8), (10, 10), (7, 3), (5, 1)])
def test_order_of_each_work_item(size, local):
    programs = [cl2c.Program(ORDER, filename="order.cl").build(f"-cl-std=CL2.0 -cl2c-schedule={s}")
                for s in ("regions", "fibers")]
    c = cl2c.translate(ORDER, "order.cl", "-cl2c-schedule=regions").c_source
    assert CUT in c
    for k in (0, 1, 3, local - 1, local, -1):
        want = []
        for gid in range(size):
            lid = gid % local
            s = 1000 + lid if lid == k else lid
            want.append(s * 10 + (7 if lid + 1 == k else 0) + 3)
        for prg in programs:
            scratch, out = np.zeros(size, np.int32), np.zeros(size, np.int32)
            prg.order(size, local, scratch, out, np.int32(k))
            assert out.tolist() == want, (k, prg.options)


@pytest.mark.parametrize("kernel", ["made_before", "loaded_head", "private_across",
                                    "array_across"])
def test_values_made_in_the_region_keep_it_whole(kernel):
    c = cl2c.translate(KEPT, "kept.cl", "-cl2c-schedule=regions").c_source
    note = next(line for line in c.splitlines() if f"{kernel}:" in line)
    assert CUT not in note
    prg = cl2c.Program(KEPT, filename="kept.cl").build("-cl2c-schedule=regions")
    inp = np.arange(40, dtype=np.int32) * 3
    out, first = np.zeros(40, np.int32), np.zeros(5, np.int32)
    getattr(prg, kernel)(40, 8, inp, out, first)
    assert out.tolist() == (inp + 1).tolist()
    assert first.tolist() == (inp[::8] * 2).tolist()


def test_checking_finds_nothing_in_the_halo():
    prg = cl2c.Program(HALO, filename="halo.cl").build("-cl2c-check=collect")
    g = np.random.default_rng(3).random((45, 61), dtype=np.float32)
    out = np.zeros_like(g)
    with warnings.catch_warnings():
        warnings.simplefilter("error", cl2c.CheckWarning)     # a finding fails the test
        prg.halo((64, 48), (16, 16), g, out, np.int32(61), np.int32(45))
    np.testing.assert_allclose(out, jacobi(g), rtol=1e-6, atol=0)
