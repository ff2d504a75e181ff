"""Index-set splitting (workgroup/builders/splits.py): a region whose body compares an
id affine in the local id 0 (``lx == 0``, ``gx < n``) runs the work-items where those
comparisons have their usual value in a loop of its own, with the comparisons folded.
Each kernel here against an exact reference computed in Python (integers) or NumPy, on
group sizes that put the compared points inside, at the ends of and outside the group,
with uneven groups and offsets; and against the loops schedule, which runs every
work-item's body as written, in order."""
from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

import cl2c

SPLIT = "split where comparisons with the local id 0 are known"

CONDITIONS = r"""
__kernel void conditions(__global int *out, __global const int *in, int n, int m) {
    int gx = get_global_id(0), lx = get_local_id(0);
    int last = get_local_size(0) - 1;
    int acc = 0;
    if (lx == 0) acc += 1;
    if (lx == last) acc += 2;
    if (gx < n) acc += in[gx];
    acc += (gx >= m) ? 4 : 8;
    if (!(lx != 3)) acc += 16;
    if (gx + 2 <= n && lx > 1) acc += 32;
    for (int j = 0; j < 3; j++)
        if (lx == j) acc += 64;             /* j changes: not known */
    if (lx == 20 || lx < -1) acc += 128;
    if ((uint)lx - 5u < 3u) acc += 256;     /* unsigned: 5 <= lx < 8 */
    out[gx] = acc;
}
"""


def conditions_reference(size, local, offset, inp, n, m):
    out = {}
    for g in range(offset, offset + size):
        first = offset + ((g - offset) // local) * local
        lx, last = g - first, min(local, offset + size - first) - 1
        acc = 0
        acc += 1 if lx == 0 else 0
        acc += 2 if lx == last else 0
        acc += int(inp[g]) if g < n else 0
        acc += 4 if g >= m else 8
        acc += 16 if lx == 3 else 0
        acc += 32 if g + 2 <= n and lx > 1 else 0
        acc += 64 if lx < 3 else 0
        acc += 128 if lx == 20 else 0
        acc += 256 if 5 <= lx < 8 else 0
        out[g] = acc
    return out


@pytest.fixture(scope="module")
def conditions_programs():
    return {schedule: cl2c.Program(CONDITIONS, filename="conditions.cl").build(
        f"-cl-std=CL2.0 -cl2c-schedule={schedule}") for schedule in ("regions", "loops")}


def test_the_conditions_kernel_is_split():
    c = cl2c.translate(CONDITIONS, "conditions.cl", "-cl2c-schedule=regions").c_source
    assert SPLIT in c
    assert "cl2c_mid_besides" in c and "cl2c_mid_below" in c


@pytest.mark.parametrize("size, local, offset", [
    (64, 16, 0), (64, 64, 0), (100, 16, 5), (37, 8, 3), (21, 21, 0), (30, 4, 0),
    (10, 1, 0), (40, 2, 1), (96, 32, 7), (12, 6, 0)])
def test_conditions_as_the_reference(conditions_programs, size, local, offset):
    rng = np.random.default_rng(size * 100 + local)
    inp = rng.integers(-1000, 1000, offset + size + 8, dtype=np.int32)
    for n, m in [(size // 2 + offset, size // 3 + offset), (0, 0),
                 (offset + size + 5, offset + 1), (offset + local - 1, offset + local)]:
        want = conditions_reference(size, local, offset, inp, n, m)
        for schedule, prg in conditions_programs.items():
            out = np.full(offset + size + 8, -1, np.int32)
            prg.conditions(size, local, out, inp, np.int32(n), np.int32(m),
                           global_offset=offset)
            got = {g: int(out[g]) for g in want}
            assert got == want, (schedule, n, m)
            assert (out[:offset] == -1).all() and (out[offset + size:] == -1).all()


MINUS = r"""
__kernel void minus(__global int *out, int n, int k) {
    int gx = get_global_id(0), lx = get_local_id(0);
    int acc = 0;
    if (gx - 1 >= 0) acc += 1;
    if (gx - k < n) acc += 2;
    if (lx - 2 > 0) acc += 4;
    acc += (gx - k >= 3) ? 8 : 16;
    if ((uint)gx - 3u < 10u) acc += 32;     /* unsigned: wraps below 3 */
    if (gx - n == 0) acc += 64;
    out[gx] = acc;
}
"""


def minus_reference(size, local, offset, n, k):
    out = {}
    for g in range(offset, offset + size):
        lx = (g - offset) % local
        out[g] = ((g - 1 >= 0) + 2 * (g - k < n) + 4 * (lx - 2 > 0) +
                  (8 if g - k >= 3 else 16) + 32 * (3 <= g < 13) + 64 * (g == n))
    return out


def test_the_minus_kernel_is_split():
    """Comparisons of an id less a uniform value (a stencil's x - 1) are known too."""
    c = cl2c.translate(MINUS, "minus.cl", "-cl2c-schedule=regions").c_source
    assert SPLIT in c


@pytest.mark.parametrize("size, local, offset", [
    (64, 16, 0), (100, 16, 5), (37, 8, 3), (10, 1, 0), (40, 2, 1), (12, 6, 0)])
def test_minus_as_the_reference(size, local, offset):
    programs = {schedule: cl2c.Program(MINUS, filename="minus.cl").build(
        f"-cl-std=CL2.0 -cl2c-schedule={schedule}") for schedule in ("regions", "loops")}
    for n, k in [(size // 2 + offset, 1), (0, 0), (offset + 3, -5), (offset + size, 7),
                 (5, 2 ** 31 - 1), (-7, -2 ** 31 + 200)]:   # (no overflow: UB)
        want = minus_reference(size, local, offset, n, k)
        for schedule, prg in programs.items():
            out = np.full(offset + size + 4, -1, np.int32)
            prg.minus(size, local, out, np.int32(n), np.int32(k), global_offset=offset)
            assert {g: int(out[g]) for g in want} == want, (schedule, n, k)


# the bench's GPU-style Jacobi step, its halo loads under `lx == 1` and `lx == TILE`
JACOBI = (Path(__file__).resolve().parent.parent / "bench" / "kernels" / "gpu" /
          "tiled_stencil.cl").read_text()


@pytest.mark.parametrize("options", ["", "-cl2c-check"])
@pytest.mark.parametrize("nx, ny", [(40, 35), (16, 16), (3, 50)])
def test_the_tiled_jacobi_step(options, nx, ny):
    """The Jacobi step against NumPy; checked builds with no finding."""
    prg = cl2c.Program(JACOBI, filename="jacobi.cl").build(options)
    assert SPLIT in cl2c.translate(JACOBI, "jacobi.cl", options).c_source
    a = np.random.default_rng(nx * ny).random((ny, nx), dtype=np.float32)
    out = np.zeros_like(a)
    grid = (-(-nx // 16) * 16, -(-ny // 16) * 16)
    prg.jacobi_tiled(grid, (16, 16), a, out, np.int32(nx), np.int32(ny))
    want = np.zeros_like(a)
    want[1:-1, 1:-1] = np.float32(0.25) * (a[1:-1, :-2] + a[1:-1, 2:] + a[:-2, 1:-1] +
                                           a[2:, 1:-1])
    np.testing.assert_array_equal(out, want)


NOT_SPLIT = {
    "an id the body changes": "int lx = get_local_id(0); lx += n; if (lx == 2) acc = 1;",
    "a counter of a loop in the body": "int lx = get_local_id(0); "
                                       "for (int j = 0; j < 4; j++) { if (in[0] == j) break; "
                                       "if (lx == j) acc += 1; }",
    "a bound declared in the body": "int lx = get_local_id(0); int k = in[0]; "
                                    "if (lx < k) acc = 1;",
    "a bound read from memory": "int lx = get_local_id(0); if (lx < in[0]) acc = 1;",
    "a comparison with a side effect": "int lx = get_local_id(0); "
                                       "if (lx == (n++)) acc = 1;",
    "nothing to fold": "int lx = get_local_id(0); acc = lx * 2;",
}


@pytest.mark.parametrize("what", NOT_SPLIT)
def test_what_is_not_split(what):
    src = f"""
__kernel void k(__global int *out, __global const int *in, int n) {{
    int acc = 0;
    {NOT_SPLIT[what]}
    out[get_global_id(0)] = acc;
}}"""
    c = cl2c.translate(src, "k.cl", "-cl2c-schedule=regions").c_source
    assert SPLIT not in c
    prg = cl2c.Program(src).build("-cl2c-schedule=regions")
    loops = cl2c.Program(src).build("-cl2c-schedule=loops")
    for n, local in itertools.product((0, 2, 5), (4, 8)):
        got, want = np.zeros(16, np.int32), np.zeros(16, np.int32)
        inp = np.array([3], np.int32)
        prg.k(16, local, got, inp, np.int32(n))
        loops.k(16, local, want, inp, np.int32(n))
        np.testing.assert_array_equal(got, want)


# ---- rows: comparisons affine in the local id 1 ----------------------------------------
ROW_SPLIT = "rows of 1 region split where comparisons with the local id 1 are known"

ROWS = r"""
__kernel void rows(__global int *out, __global const int *in, int n, int m) {
    int gx = get_global_id(0), gy = get_global_id(1), gz = get_global_id(2);
    int lx = get_local_id(0), ly = get_local_id(1);
    int last = get_local_size(1) - 1;
    int acc = 0;
    if (ly == 0) acc += 1;
    if (ly == last) acc += 2;
    if (gy < n) acc += in[gy];
    acc += (gy >= m) ? 4 : 8;
    if (ly == 1 && lx == 0) acc += 16;      /* known in both: split along both */
    if (gy + 2 <= n && ly > 1) acc += 32;
    if ((uint)ly - 2u < 3u) acc += 64;      /* unsigned: 2 <= ly < 5 */
    if (lx == ly) acc += 128;               /* neither known alone */
    size_t w = get_global_size(0), h = get_global_size(1);
    /* += : a work-item run twice (a row in two ranges) counts twice */
    out[((size_t)gz * h + (gy - get_global_offset(1))) * w + (gx - get_global_offset(0))] += acc;
}
"""


def rows_reference(size, local, offset, inp, n, m):
    """{(x, y, z): the value} for a launch of ``size`` work-items in groups of ``local``
    from ``offset`` (three each; the last group of a dimension may be smaller)."""
    out = {}
    for z, y, x in itertools.product(*(range(s) for s in reversed(size))):
        gx, gy = offset[0] + x, offset[1] + y
        lx, ly = x % local[0], y % local[1]
        last = min(local[1], size[1] - (y - ly)) - 1
        acc = (1 if ly == 0 else 0) + (2 if ly == last else 0)
        acc += int(inp[gy]) if gy < n else 0
        acc += 4 if gy >= m else 8
        acc += 16 if ly == 1 and lx == 0 else 0
        acc += 32 if gy + 2 <= n and ly > 1 else 0
        acc += 64 if 2 <= ly < 5 else 0
        acc += 128 if lx == ly else 0
        out[x, y, z] = acc
    return out


@pytest.fixture(scope="module")
def rows_programs():
    return {schedule: cl2c.Program(ROWS, filename="rows.cl").build(
        f"-cl-std=CL2.0 -cl2c-schedule={schedule}") for schedule in ("regions", "loops")}


def test_the_rows_kernel_is_split_along_both_ids():
    c = cl2c.translate(ROWS, "rows.cl", "-cl2c-schedule=regions").c_source
    assert ROW_SPLIT in c and SPLIT in c
    assert "cl2c_l1 = cl2c_mid1_lo; cl2c_l1 < cl2c_mid1_hi" in c


@pytest.mark.parametrize("size, local, offset", [
    ((8, 16, 1), (4, 8, 1), (0, 0)), ((6, 20, 1), (3, 6, 1), (0, 3)),
    ((4, 7, 1), (2, 7, 1), (1, 2)), ((5, 9, 2), (5, 3, 2), (0, 0)),
    ((3, 12, 1), (3, 1, 1), (0, 0)), ((4, 10, 1), (2, 4, 1), (0, 5))])
def test_rows_as_the_reference(rows_programs, size, local, offset):
    rng = np.random.default_rng(sum(size) * 100 + sum(local))
    inp = rng.integers(-1000, 1000, offset[1] + size[1] + 8, dtype=np.int32)
    for n, m in [(size[1] // 2 + offset[1], size[1] // 3 + offset[1]), (0, 0),
                 (offset[1] + size[1] + 5, offset[1] + 1),
                 (offset[1] + local[1] - 1, offset[1] + local[1])]:
        want = rows_reference(size, local, offset, inp, n, m)
        for schedule, prg in rows_programs.items():
            out = np.zeros(size[2] * size[1] * size[0], np.int32)
            prg.rows(size, local, out, inp, np.int32(n), np.int32(m),
                     global_offset=(*offset, 0))
            got = {(x, y, z): int(out[(z * size[1] + y) * size[0] + x])
                   for x, y, z in want}
            assert got == want, (schedule, n, m)


def test_the_tiled_jacobi_step_is_split_along_both_ids():
    """Its halo rows (``ly == 1``, ``ly == TILE``) leave the middle rows' loop, whose
    middle then has no condition left (the halo columns, ``lx == 1`` and ``lx == TILE``,
    have loops of their own: fission.py): in a checking build, both regions get a fast
    version, the tile's loads in each of their row ranges, and so do the halo rows'
    middles (their guards hold all over a row, or nowhere in it)."""
    assert ROW_SPLIT in cl2c.translate(JACOBI, "jacobi.cl", "").c_source
    c = cl2c.translate(JACOBI, "jacobi.cl", "-cl2c-check").c_source
    assert ROW_SPLIT in c and "6 checked loops with a fast version" in c
