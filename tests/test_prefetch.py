"""The regions schedule's prefetch of the next work-groups' rows (workgroup/passes/
prefetch.py): a loop over a group's row that reads or writes a __global array at
consecutive elements first asks for the same run two groups on, where groups have
several rows. The results must not change, at either tier, with groups of any shape
(whole, partial, one row), and the prefetch must be left out where it cannot be
formed at the row's head (a pointer the work-item declares, an index read from memory).
Checked builds prefetch too: a prefetch is no access, and findings stay as they were.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cl2c

# the GPU corpus's tiled Jacobi step (a 16 x 16 tile with a one-cell halo)
JACOBI = (Path(__file__).resolve().parents[1] / "bench" / "kernels" / "gpu" /
          "tiled_stencil.cl").read_text()

OTHERS = """
kernel void through_row(global const float *in, global float *out, int w)
{
    int x = get_global_id(0), y = get_global_id(1);
    global const float *row = in + y * w;        /* the work-item's own pointer */
    if (x < w)
        out[y * w + x] = row[x] * 2.0f;
}

kernel void gathered(global const int *at, global const float *in, global float *out, int w)
{
    int x = get_global_id(0), y = get_global_id(1);
    int j = at[y * w + x];                        /* an index read from memory */
    out[y * w + x] = in[j] + 1.0f;
}
"""


def _jacobi(g):
    out = np.zeros_like(g)
    out[1:-1, 1:-1] = np.float32(0.25) * (g[1:-1, :-2] + g[1:-1, 2:] + g[:-2, 1:-1]
                                          + g[2:, 1:-1])
    return out


@pytest.mark.parametrize("optimised", [False, pytest.param(True, marks=pytest.mark.optimised)],
                         ids=["fast tier", "-O3"])
@pytest.mark.parametrize("nx, ny", [(45, 37), (64, 16), (16, 70)])
def test_tiled_jacobi_prefetching_rows_agrees(nx, ny, optimised):
    prg = cl2c.Program(JACOBI).build()
    if optimised:
        prg.wait_optimised()
    assert "prefetching the next groups' runs" in prg.jacobi_tiled.schedule_reason
    g = np.random.default_rng(nx * ny).random((ny, nx), dtype=np.float32)
    out = np.zeros_like(g)
    grid = (-(-nx // 16) * 16, -(-ny // 16) * 16)
    prg.jacobi_tiled(grid, (16, 16), g, out, np.int32(nx), np.int32(ny))
    np.testing.assert_allclose(out, _jacobi(g), rtol=1e-6, atol=0)


def _built_without(source: str, stored: str, left_out: tuple):
    """The program of ``source``, optimised, each of whose kernels named in
    ``left_out`` prefetches the array ``stored`` and not its (kernel, array) pair's."""
    prg = cl2c.Program(source).build()
    prg.wait_optimised()
    c = prg.c_source
    for kernel, array in left_out:
        body = c[c.index(f"void {kernel}__group"):]
        body = body[:body.index("\n}\n")]
        assert f"CL2C_PREFETCH_AT({stored}," in body, kernel
        assert f"CL2C_PREFETCH_AT({array}," not in body, kernel
    return prg


def test_no_prefetch_where_the_row_head_cannot_form_it():
    """A pointer the work-item declares and an index loaded from memory get none (the
    stores beside them do); the kernels still build and agree."""
    prg = _built_without(OTHERS, "out", (("through_row", "row"), ("gathered", "in")))
    w, h = 40, 12
    x = np.random.default_rng(5).random((h, w), dtype=np.float32)
    out = np.zeros_like(x)
    for local in ((16, 4), (16, 1), (8, 12)):       # rows of 16: 4 and 1; of 8: 12
        out[:] = 0
        prg.through_row((48, 12), local, x, out, np.int32(w))
        np.testing.assert_array_equal(out, x * np.float32(2), err_msg=str(local))
    at = np.random.default_rng(6).integers(0, w * h, (h, w)).astype(np.int32)
    out2 = np.zeros_like(x)
    prg.gathered((w, h), (8, 4), at, x, out2, np.int32(w))
    np.testing.assert_array_equal(out2, x.ravel()[at] + np.float32(1))


NESTED = """
kernel void unstepped(global const float *A, global const float *B, global float *C,
                      int k, int m)
{
    int col = get_global_id(0), row = get_global_id(1);
    float acc = 0.0f;
    for (int i = 0; i < k; i)       /* never stepped: `i` changes nowhere */
        acc += A[row * k + i] * B[i * m + col];
    C[row * m + col] = acc;
}

kernel void inner(global const float *B, global float *C, int m)
{
    int col = get_global_id(0), row = get_global_id(1);
    float acc = 0.0f;
    {
        const int r = row ^ 1;      /* the work-item's own, in a block of its own */
        acc = B[r * m + col];
    }
    C[row * m + col] = acc;
}
"""


def test_no_prefetch_by_a_name_declared_deeper():
    """A name declared below the work-item's leading declarations (a loop's counter
    its loop never steps; a block's constant) is the work-item's own, out of scope at
    the row's head: no prefetch by it (fuzzer seed 7707: GCC found `i` undeclared)."""
    prg = _built_without(NESTED, "C", (("unstepped", "B"), ("inner", "B")))
    w, h = 24, 8
    b = np.random.default_rng(8).random((h, w), dtype=np.float32)
    c = np.ones_like(b)
    prg.unstepped((w, h), (8, 4), b, b, c, np.int32(0), np.int32(w))     # no steps
    np.testing.assert_array_equal(c, np.zeros_like(b))
    prg.inner((w, h), (8, 4), b, c, np.int32(w))
    np.testing.assert_array_equal(c, b[np.arange(h) ^ 1])


def test_checking_builds_prefetch_and_still_find():
    """A prefetch is no access: a checked build asks for the next groups' runs too, and
    finds what it finds without them (nothing in the Jacobi; a write past the end)."""
    prg = cl2c.Program(JACOBI, options="-cl2c-check").build()
    assert "CL2C_PREFETCH_AT" in prg.c_source
    g = np.random.default_rng(7).random((37, 45), dtype=np.float32)
    out = np.zeros_like(g)
    prg.jacobi_tiled((48, 48), (16, 16), g, out, np.int32(45), np.int32(37))
    np.testing.assert_allclose(out, _jacobi(g), rtol=1e-6, atol=0)
    assert prg.jacobi_tiled.findings == []

    past_end = JACOBI.replace("gy < ny - 1)", "gy <= ny)")     # a row past the last
    bad = cl2c.Program(past_end, options="-cl2c-check").build()
    assert "CL2C_PREFETCH_AT" in bad.c_source
    with pytest.raises(cl2c.LaunchError, match="out-of-bounds"):
        bad.jacobi_tiled((48, 48), (16, 16), g, np.zeros_like(g), np.int32(45),
                         np.int32(37))
