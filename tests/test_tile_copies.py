"""A __local tile that each work-item fills at its local ids, in a kernel whose required
work-group size is the tile's shape, is read from the memory it copies
(cl2c/lower/local_copies.py); a loop split in two, used only as ``t * C + k``, runs as
one (cl2c/lower/split_loops.py). The tiled matrix product as every GPU tutorial prints
it, and variants, against NumPy: forwarded and joined where that is proved, as written
(and still right) where not."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cl2c

ROOT = Path(__file__).resolve().parents[1]

# The textbook product, integers so that every variant compares exactly.
TILED = r"""
#define T 8
__kernel __attribute__((reqd_work_group_size(T, T, 1)))
void tiled(__global const int *A, __global const int *B, __global int *C, int n) {
    __local int As[T][T];
    __local int Bs[T][T];
    int tx = get_local_id(0), ty = get_local_id(1);
    int col = get_global_id(0), row = get_global_id(1);
    int acc = 0;
    for (int t = 0; t < n / T; ++t) {
        As[ty][tx] = A[row * n + t * T + tx];
        Bs[ty][tx] = B[(t * T + ty) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < T; ++k)
            acc += As[ty][k] * Bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * n + col] = acc;
}
"""


def _product(a, b, n):
    return (a.astype(np.int64) @ b.astype(np.int64)).astype(np.int32)


def _rotated(a, b, n):
    """Each tile's row read one place on, wrapping in the tile (``As[ty][(k + 1) % T]``)."""
    idx = np.arange(n)
    shifted = idx // 8 * 8 + (idx % 8 + 1) % 8
    return (a.astype(np.int64)[:, shifted] @ b.astype(np.int64)).astype(np.int32)


def _plus_k(a, b, n):
    return _product(a, b, n) + np.int32(n // 8 * 28)         # + sum of k over each tile


# (what changes, source, reference, forwarded, joined)
VARIANTS = {
    "as printed": (TILED, _product, True, True),
    "ids called in place": (
        TILED.replace("As[ty][tx] = A[row * n + t * T + tx]",
                      "As[get_local_id(1)][get_local_id(0)] = A[row * n + t * T + "
                      "(int)get_local_id(0)]"), _product, True, True),
    "t * T written T * t": (TILED.replace("t * T", "T * t"), _product, True, True),
    "no required size": (TILED.replace("__attribute__((reqd_work_group_size(T, T, 1)))", ""),
                         _product, False, False),
    "a store to C between": (
        TILED.replace("barrier(CLK_LOCAL_MEM_FENCE);\n        for",
                      "barrier(CLK_LOCAL_MEM_FENCE);\n        C[row * n + col] = 0;\n        for"),
        _product, False, False),
    "a read no loop counts": (
        TILED.replace("acc += As[ty][k] * Bs[k][tx]", "acc += As[ty][(k + 1) % T] * Bs[k][tx]"),
        _rotated, False, False),
    "k used alone too": (
        TILED.replace("acc += As[ty][k] * Bs[k][tx]", "acc += As[ty][k] * Bs[k][tx] + k"),
        _plus_k, True, False),
    "the column's global id in a moved dimension": (
        TILED.replace("Bs[ty][tx] = B[(t * T + ty) * n + col]",
                      "Bs[ty][tx] = B[(t * T + ty) * n + col + 0 * row]"),
        _product, False, False),
    "a stored value of another type": (
        TILED.replace("__local int Bs[T][T];", "__local short Bs[T][T];"), _product, False,
        False),
    "a __local scalar beside": (
        TILED.replace("__local int Bs[T][T];", "__local int Bs[T][T];\n    __local int first;")
        .replace("    int acc = 0;", "    int acc = 0;\n    if (tx == 0 && ty == 0) first = 0;")
        .replace("acc += As[ty][k] * Bs[k][tx]", "acc += As[ty][k] * Bs[k][tx] + first"),
        _product, True, False),
    # (another work-item's store before a read; one group, as groups share A's rows)
    "A written after the reads": (
        TILED.replace("__global const int *A", "__global int *A").replace(
            "acc += As[ty][k] * Bs[k][tx];",
            "acc += As[ty][k] * Bs[k][tx];\n        A[row * n + t * T + tx] = 0;"),
        _product, False, False),
    "a goto": (TILED.replace("C[row * n + col] = acc;", "goto out;\nout:\n    C[row * n + col] = acc;"),
               _product, False, False),
}


# (from OpenCL C 2.0 a range's last group may be smaller than the required size, and a
# read of an element it did not write is the element of an earlier step: no tiles then)
VARIANTS["OpenCL C 2.0"] = (TILED, _product, False, False)


@pytest.mark.parametrize("what", list(VARIANTS))
def test_tiled_product_variants_agree_with_numpy(what):
    src, reference, forwarded, joined = VARIANTS[what]
    prg = cl2c.Program(src, "-cl-std=CL2.0" if what == "OpenCL C 2.0" else
                       "-cl2c-schedule=fibers" if what == "A written after the reads" else
                       "").build()
    reason = prg.tiled.schedule_reason
    assert ("As, a copy of A; Bs, a copy of B" in reason) == forwarded, reason
    assert ("loops t and k run as one" in reason) == joined, reason
    rng = np.random.default_rng(len(what))
    for n in (8,) if what == "A written after the reads" else (8, 24, 40):
        a = rng.integers(-50, 50, (n, n), dtype=np.int32)
        b = rng.integers(-50, 50, (n, n), dtype=np.int32)
        c, want = np.full((n, n), 7, np.int32), reference(a, b, n)
        prg.tiled((n, n), (8, 8), a, b, c, np.int32(n))
        np.testing.assert_array_equal(c, want, err_msg=f"{what}, n={n}")


def test_bench_tiled_matmul_as_printed_agrees_with_numpy():
    """bench/kernels/tiled.cl, floats, 16 x 16 tiles, at sizes the bench does not run."""
    prg = cl2c.Program((ROOT / "bench/kernels/tiled.cl").read_text()).build()
    assert "loops t and k run as one" in prg.tiled.schedule_reason
    rng = np.random.default_rng(3)
    for n in (16, 48, 144):
        a, b = rng.random((n, n), dtype=np.float32), rng.random((n, n), dtype=np.float32)
        c = np.zeros((n, n), np.float32)
        prg.tiled((n, n), (16, 16), a, b, c, np.int32(n))
        np.testing.assert_allclose(c, a @ b, rtol=1e-5, atol=1e-5 * n)


# A one-dimensional tile, and a split loop the pass joins or leaves.
ROW_TILE = r"""
__kernel __attribute__((reqd_work_group_size(16, 1, 1)))
void chunks(__global const int *A, __global int *out, int n) {
    __local int L[16];
    int i = get_global_id(0), l = get_local_id(0);
    int s = 0;
    for (int t = 0; t < n / 16; t++) {
        L[l] = A[t * 16 + l];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < 16; k++)
            s += L[k] * (t * 16 + k) + i;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[i] = s;
}
"""

SPLIT = {
    # (source, joined): out[i] = sum over j < m of A[i * n + j] * j, m = n / 4 * 4 or 12
    "t * 4 + k": ("for (int t = 0; t < n / 4; ++t) for (int k = 0; k < 4; ++k) "
                  "s += A[i * n + t * 4 + k] * (t * 4 + k);", True),
    "a constant count": ("for (int t = 0; t < 3; t++) { for (int k = 0; k < 4; k += 1) "
                         "s += A[i * n + t * 4 + k] * (4 * t + k); }", True),
    "a count not a multiple": ("for (int t = 0; t < (n + 3) / 4 - (n % 4 != 0); ++t) "
                               "for (int k = 0; k < 4; ++k) "
                               "s += A[i * n + t * 4 + k] * (t * 4 + k);", False),
    "k first": ("for (int t = 0; t < n / 4; ++t) for (int k = 0; k < 4; ++k) "
                "s += A[i * n + k + t * 4] * (t * 4 + k);", False),
    "a break": ("for (int t = 0; t < n / 4; ++t) for (int k = 0; k < 4; ++k) "
                "{ if (A[i * n + t * 4 + k] > 6) break; s += A[i * n + t * 4 + k] * (t * 4 + k); }",
                False),
    "t changed in the body": ("for (int t = 0; t < n / 4; ++t) for (int k = 0; k < 4; ++k) "
                              "{ s += A[i * n + t * 4 + k] * (t * 4 + k); if (k == 3) t += 0; }",
                              False),
}


def test_one_dimensional_tile_agrees_with_numpy():
    prg = cl2c.Program(ROW_TILE).build()
    reason = prg.chunks.schedule_reason
    assert "L, a copy of A" in reason and "loops t and k run as one" in reason, reason
    rng = np.random.default_rng(5)
    for n in (0, 16, 48, 100):
        a = rng.integers(-9, 9, max(n, 1), dtype=np.int32)
        out = np.zeros(64, np.int32)
        prg.chunks((64,), (16,), a, out, np.int32(n))
        m = n // 16 * 16
        want = int((a[:m].astype(np.int64) * np.arange(m)).sum()) + np.arange(64) * m
        np.testing.assert_array_equal(out, want.astype(np.int32), err_msg=f"n={n}")


@pytest.mark.parametrize("what", list(SPLIT))
def test_split_loops_agree_with_numpy(what):
    loops, joined = SPLIT[what]
    src = ("__kernel void split(__global const int *A, __global int *out, int n) {\n"
           "    int i = get_global_id(0), s = 0;\n    " + loops + "\n    out[i] = s;\n}\n")
    prg = cl2c.Program(src).build()
    assert ("loops t and k run as one" in prg.split.schedule_reason) == joined
    rng = np.random.default_rng(len(what))
    # (the constant count reads 12 of each row whatever n is)
    for n in (12, 24) if what == "a constant count" else (-8, 0, 5, 12, 24):
        rows = 40
        a = rng.integers(-9, 9, (rows, max(n, 1)), dtype=np.int32)
        out = np.zeros(rows, np.int32)
        prg.split((rows,), None, a, out, np.int32(n))
        m = 12 if what == "a constant count" else max(n, 0) // 4 * 4
        terms = a[:, :m].astype(np.int64) * np.arange(m)
        if what == "a break":       # each tile's terms up to its first element above 6
            past = np.maximum.accumulate((a[:, :m] > 6).reshape(rows, -1, 4), axis=2)
            terms = np.where(past.reshape(rows, m), 0, terms)
        want = terms.sum(1)
        np.testing.assert_array_equal(out, want.astype(np.int32), err_msg=f"n={n}")


# A copied product, read as a sum's term, stays rounded (test_local_copies.py's test,
# for a tile): each term is exactly 0 as written.
ROUNDED = r"""
__kernel __attribute__((reqd_work_group_size(16, 1, 1)))
void rounded(__global const float *A, __global const float *B, __global const float *P,
             __global float *out, int n) {
    __local float L[16];
    int i = get_global_id(0), l = get_local_id(0);
    float s = 0.0f;
    for (int t = 0; t < n / 16; t++) {
        L[l] = A[t * 16 + l] * B[t * 16 + l];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < 16; k++)
            s += L[k] - P[t * 16 + k];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[i] = s;
}
"""


def test_a_copied_product_stays_rounded():
    prg = cl2c.Program(ROUNDED).build()
    prg.wait_optimised()        # (where mad is an fma: -march=native)
    assert ", a copy of A, B" in prg.rounded.schedule_reason
    rng = np.random.default_rng(9)
    a, b = rng.random(64, dtype=np.float32), rng.random(64, dtype=np.float32)
    out = np.full(32, 7.0, np.float32)
    prg.rounded((32,), (16,), a, b, a * b, out, np.int32(64))
    np.testing.assert_array_equal(out, np.zeros(32, np.float32))
