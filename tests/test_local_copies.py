"""A __local buffer that the group fills with a copy of memory the kernel does not change,
read after a barrier, is read from that memory (cl2c/lower/local_copies.py): the
lecture's Version 6 as printed, and variants, against NumPy; where what is proved does not
hold, the kernel runs as written (and still right)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cl2c

ROOT = Path(__file__).resolve().parents[1]
FORWARDED = "a copy of B, read from there"

# A race-free product in the lecture's style: a column of B copied to __local memory at
# each step of j, every work-item taking every nl-th element.
PRODUCT = r"""
__kernel void product(__global const float *A, __global const float *B, __global float *C,
                      __local float *L, int n, int m) {
    int i = get_global_id(0), il = get_local_id(0), nl = get_local_size(0);
    for (int j = 0; j < n; j++) {
        for (int k = il; k < n; k += nl)
            L[k] = B[k * n + j];
        barrier(CLK_LOCAL_MEM_FENCE);
        float s = 0.0f;
        for (int k = 0; k < n; k++)
            s += A[i * n + k] * L[k];
        C[i * n + j] = s;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
"""

# (what changes, source, forwarded, barriers kept)
VARIANTS = {
    "as written": (PRODUCT, True, False),
    "the local size called in the loop": (
        PRODUCT.replace("k < n; k += nl)", "k < n; k += get_local_size(0))"), True, False),
    "a kernel-scope array": (
        PRODUCT.replace("__local float *L, int n", "int n").replace(
            "int i = get_global_id(0)", "__local float L[64];\n    int i = get_global_id(0)"),
        True, False),
    "a row of B, read back to front": (
        PRODUCT.replace("L[k] = B[k * n + j]", "L[k] = B[j * n + k]").replace(
            "for (int k = 0; k < n; k++)\n            s += A[i * n + k] * L[k];",
            "for (int k = 0; k < n; k++)\n            s += A[i * n + k] * L[n - 1 - k];"),
        False, True),     # (a subscript that is no loop's counter: not proved in range)
    "C read too": (PRODUCT.replace("C[i * n + j] = s;", "C[i * n + j] = s + 0.0f * C[i * n + j];"),
                   True, True),
    "a store between the barrier and the reads": (
        PRODUCT.replace("float s = 0.0f;", "C[i * n + j] = -1.0f;\n        float s = 0.0f;"),
        False, True),
    "a value of the work-item's": (
        PRODUCT.replace("L[k] = B[k * n + j]", "L[k] = B[k * n + j] + 0.0f * i"), False, True),
    "reads to another bound": (
        PRODUCT.replace("for (int k = 0; k < n; k++)\n            s +=",
                        "for (int k = 0; k < m; k++)\n            s +="), False, True),
    "each work-item copying all": (
        PRODUCT.replace("for (int k = il; k < n; k += nl)", "for (int k = 0; k < n; k++)"),
        False, True),
    "a second store": (
        PRODUCT.replace("barrier(CLK_LOCAL_MEM_FENCE);\n        float s",
                        "barrier(CLK_LOCAL_MEM_FENCE);\n        L[0] = B[j];\n        "
                        "barrier(CLK_LOCAL_MEM_FENCE);\n        float s"), False, True),
    "a global fence": (PRODUCT.replace("CLK_LOCAL_MEM_FENCE", "CLK_GLOBAL_MEM_FENCE"), False,
                       True),     # (which does not order __local memory)
    "both fences": (PRODUCT.replace("CLK_LOCAL_MEM_FENCE",
                                    "CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE"), True, True),
    "a local id in a uchar": (
        PRODUCT.replace("int i = get_global_id(0), il = get_local_id(0), nl",
                        "uchar il = get_local_id(0);\n    int i = get_global_id(0), nl"),
        False, True),     # (which would wrap in groups of more than 256)
    "a store that converts": (
        PRODUCT.replace("L[k] = B[k * n + j]", "L[k] = B[k * n + j] > 0.5f"), False, True),
}
EXPECTED = {   # C from A and B, where not A @ B
    # C[i, j] = sum over k of A[i, k] B[j, n - 1 - k]
    "a row of B, read back to front": lambda a, b: a @ b[:, ::-1].T,
    "a store that converts": lambda a, b: a @ (b > 0.5).astype(np.float32),
}


def _launch(prg, name, n, local, a, b, takes_local=True):
    c = np.zeros((n, n), np.float32)
    extra = [cl2c.LocalMemory(4 * 64)] if takes_local else []
    getattr(prg, name)((n,), (local,), a, b, c, *extra, np.int32(n), np.int32(n))
    return c


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_variants_forwarded_or_not_and_right(variant):
    source, forwarded, kept = VARIANTS[variant]
    prg = cl2c.Program(source).build()
    line = next(x for x in prg.c_source.splitlines() if x.startswith(" *   product:"))
    assert (FORWARDED in line) == forwarded, line
    assert ("barriers at statement level" in line or "barriers in" in line or
            "fibers" in line) == kept, line
    if forwarded:
        assert "L[k] = " not in prg.c_source and "[k] = B[" not in prg.c_source
    rng = np.random.default_rng(7)
    for n, local in ((48, 8), (48, 16), (60, 4), (64, 1)):
        a = rng.random((n, n), dtype=np.float32)
        b = rng.random((n, n), dtype=np.float32)
        c = _launch(prg, "product", n, local, a, b, "L[64]" not in source)
        expected = EXPECTED.get(variant, np.matmul)(a, b)
        np.testing.assert_allclose(c, expected, rtol=2e-5, atol=1e-5,
                                   err_msg=f"{variant}: n {n}, local {local}")


def test_a_checking_build_checks_the_kernel_as_written():
    prg = cl2c.Program(PRODUCT, "-cl2c-check").build()
    assert FORWARDED not in prg.c_source
    rng = np.random.default_rng(1)
    a = rng.random((32, 32), dtype=np.float32)
    b = rng.random((32, 32), dtype=np.float32)
    np.testing.assert_allclose(_launch(prg, "product", 32, 8, a, b), a @ b, rtol=2e-5)


def lecture_v6(dim: int) -> str:
    text = (ROOT / "bench" / "kernels" / "gpu" / "lecture_v6.cl").read_text()
    return text.replace("#define DIM 1000", f"#define DIM {dim}")


@pytest.mark.parametrize("dim, local, rows, offset", [(100, 4, 100, 0), (64, 8, 64, 0),
                                                     (64, 64, 64, 0), (96, 24, 72, 24),
                                                     (30, 1, 17, 5)])
def test_the_lectures_version_6_as_printed(dim, local, rows, offset):
    """Version 6 has no barrier after its reads (the next step's copy races with them;
    a checking build says so): as a device would run it in lock-step, the copy of each
    step is read before the next. Without its barriers it is a row kernel, whose loop
    over j becomes a dimension of the range (loop_dimension.py): a part of the rows too."""
    prg = cl2c.Program(lecture_v6(dim)).build()
    line = next(x for x in prg.c_source.splitlines() if x.startswith(" *   matmult:"))
    assert "Bl, a copy of B, read from there" in line and "no barriers" in line, line
    rng = np.random.default_rng(dim)
    a = rng.random((dim, dim), dtype=np.float32)
    b = rng.random((dim, dim), dtype=np.float32)
    c = np.full((dim, dim), 0.5, np.float32)
    prg.matmult((rows,), (local,), a, b, c, cl2c.LocalMemory(4 * dim), global_offset=offset)
    want = np.full((dim, dim), 0.5, np.float32)
    want[offset:offset + rows] = (a @ b)[offset:offset + rows]
    np.testing.assert_allclose(c, want, rtol=1e-4, atol=1e-5 * dim)


# A copied product, read as a sum's term: the copy rounded it, so the read may not be
# contracted with the sum into one fma, which would round once. P holds the rounded
# products: each term is exactly 0 as written, and the product's rounding error where
# contracted.
ROUNDED = r"""
__kernel void rounded(__global const float *A, __global const float *B,
                      __global const float *P, __global float *out, int n) {
    __local float L[64];
    int i = get_global_id(0), l = get_local_id(0), nl = get_local_size(0);
    for (int k = l; k < n; k += nl)
        L[k] = A[k] * B[k];
    barrier(CLK_LOCAL_MEM_FENCE);
    float s = 0.0f;
    for (int k = 0; k < n; k++)
        s += L[k] - P[k];
    out[i] = s;
}
"""


def test_a_copied_product_stays_rounded():
    prg = cl2c.Program(ROUNDED).build()
    prg.wait_optimised()        # (where mad is an fma: -march=native)
    assert "L, a copy of A, B" in prg.rounded.schedule_reason
    rng = np.random.default_rng(9)
    a, b = rng.random(64, dtype=np.float32), rng.random(64, dtype=np.float32)
    out = np.full(32, 7.0, np.float32)
    prg.rounded((32,), (16,), a, b, a * b, out, np.int32(64))
    np.testing.assert_array_equal(out, np.zeros(32, np.float32))


# A copy of memory the kernel writes after reading the copy: another work-item's store
# may come before a work-item's read (fibers run each work-item to the barrier), so the
# copy stays. As written, every read sees the values of before the stores.
WRITTEN_AFTER = r"""
__kernel void written(__global float *B, __global float *out, int n) {
    __local float L[64];
    int i = get_global_id(0), l = get_local_id(0), nl = get_local_size(0);
    for (int k = l; k < n; k += nl)
        L[k] = B[k];
    barrier(CLK_LOCAL_MEM_FENCE);
    float s = 0.0f;
    for (int k = 0; k < n; k++)
        s += L[k];
    for (int k = l; k < n; k += nl)
        B[k] = -100.0f;
    out[i] = s;
}
"""


@pytest.mark.parametrize("options", ["", "-cl2c-schedule=fibers"])
def test_a_copy_of_memory_the_kernel_writes_stays(options):
    prg = cl2c.Program(WRITTEN_AFTER, options).build()
    assert "a copy of" not in prg.written.schedule_reason
    b, out = np.arange(64, dtype=np.float32), np.zeros(16, np.float32)
    prg.written((16,), (16,), b, out, np.int32(64))
    np.testing.assert_array_equal(out, np.full(16, 2016.0, np.float32))
