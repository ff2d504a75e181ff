"""Unnamed struct and union members (C11 6.7.2.1p13), with layout attributes whose
arguments are constant expressions, as clang accepts them in OpenCL C 1.2 and as
PyOpenCL's pyopencl-complex.h uses them: the same layout and results as PoCL, and
that header computing as NumPy does."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cl2c
from conftest import run_pocl

LAYOUT = r"""
typedef union {
    struct { float x, y; } __attribute__((aligned(2 * sizeof(float))));
    struct { float real, imag; } __attribute__((aligned(2 * sizeof(float))));
} cf_t;

typedef struct {
    int tag;
    union { int i; float f; char c[6]; };
    struct { short lo, hi; };
} tagged_t;

kernel void layout(global int *out) {
    tagged_t t;
    out[0] = sizeof(cf_t);
    out[1] = (int)((char *)&t.c[5] - (char *)&t);
    out[2] = sizeof(tagged_t);
    out[3] = (int)((char *)&t.f - (char *)&t);
    out[4] = (int)((char *)&t.hi - (char *)&t);
}

kernel void swap(global cf_t *z, global tagged_t *t) {
    size_t g = get_global_id(0);
    cf_t v = z[g];
    v.real += v.y;          // one storage, two names
    z[g] = v;
    t[g].i += t[g].tag;
    t[g].hi = t[g].lo;
}
"""


def test_layout_and_access_as_pocl():
    prg = cl2c.Program(LAYOUT).build()
    ours, theirs = np.zeros(5, np.int32), np.zeros(5, np.int32)
    prg.layout(1, None, ours)
    run_pocl(LAYOUT, "layout", 1, None, theirs)
    assert ours.tolist() == theirs.tolist() == [8, 9, 16, 4, 14]

    rng = np.random.default_rng(5)
    z = rng.random(16, dtype=np.float32).view(np.complex64).copy()   # 8 values
    t = rng.integers(-1000, 1000, 8 * 4, dtype=np.int32).view(np.uint8)   # 8 tagged_t
    ours = [z.copy(), t.copy()]
    theirs = [z.copy(), t.copy()]
    prg.swap(8, None, *ours)
    run_pocl(LAYOUT, "swap", 8, None, *theirs)
    np.testing.assert_array_equal(ours[0], theirs[0])
    np.testing.assert_array_equal(ours[1], theirs[1])
    np.testing.assert_array_equal(ours[0].real, (z.real + z.imag).astype(np.float32))
    assert ours[1].view(np.int16)[7::8].tolist() == t.view(np.int16)[6::8].tolist()


def _pyopencl_cl_dir() -> Path:
    try:
        import pyopencl
    except ImportError:
        pytest.skip("pyopencl is not installed: its pyopencl-complex.h is the test input")
    return Path(pyopencl.__file__).parent / "cl"


COMPLEX = r"""
#define PYOPENCL_DEFINE_CDOUBLE
#include <pyopencl-complex.h>
kernel void fc(global const cfloat_t *a, global const cfloat_t *b, global cfloat_t *out) {
    size_t i = get_global_id(0);
    out[5 * i + 0] = cfloat_add(cfloat_mul(a[i], b[i]), cfloat_rmul(2.0f, a[i]));
    out[5 * i + 1] = cfloat_divide(a[i], b[i]);
    out[5 * i + 2] = cfloat_exp(a[i]);
    out[5 * i + 3] = cfloat_sqrt(b[i]);
    out[5 * i + 4] = cfloat_new(cfloat_abs(a[i]), cfloat_real(cfloat_conj(b[i])));
}
kernel void dc(global const cdouble_t *a, global cdouble_t *out) {
    size_t i = get_global_id(0);
    out[2 * i + 0] = cdouble_log(a[i]);
    out[2 * i + 1] = cdouble_powr(a[i], 2.5);
}
"""


def test_pyopencl_complex_header():
    include = _pyopencl_cl_dir()
    prg = cl2c.Program(COMPLEX, f"-I {include}").build()
    rng = np.random.default_rng(11)
    n = 64
    a = (rng.random(n) + 1j * rng.random(n) - 0.5).astype(np.complex64)
    b = (rng.random(n) + 1j * rng.random(n) + 0.25).astype(np.complex64)
    out = np.zeros(5 * n, np.complex64)
    prg.fc(n, None, a, b, out)
    out = out.reshape(n, 5)
    ref = [a * b + 2 * a, a / b, np.exp(a), np.sqrt(b), np.abs(a) + 1j * b.real]
    for k, want in enumerate(ref):
        np.testing.assert_allclose(out[:, k], want.astype(np.complex64), rtol=2e-6,
                                   atol=1e-6, err_msg=f"column {k}")
    ad = (rng.random(n) + 1j * rng.random(n) + 0.1).astype(np.complex128)
    outd = np.zeros(2 * n, np.complex128)
    prg.dc(n, None, ad, outd)
    outd = outd.reshape(n, 2)
    np.testing.assert_allclose(outd[:, 0], np.log(ad), rtol=1e-13)
    np.testing.assert_allclose(outd[:, 1], ad ** 2.5, rtol=1e-12)
