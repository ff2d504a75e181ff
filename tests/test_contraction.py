"""FP_CONTRACT (spec 6.10; lower/contraction.py): ``a * b + c`` within one expression is
one fma where the CPU has a fast one, bit for bit against an exact reference (rational
ulp_reference.fma32, checked against rational arithmetic), and two roundings under ``#pragma OPENCL FP_CONTRACT
OFF``, which holds to the end of its compound statement. Against PoCL, which contracts
the same expressions (clang's fmuladd)."""
from __future__ import annotations

import re

import numpy as np
import pytest

import cl2c
from ulp_reference import TYPE, _fma, fma32

SOURCE = r"""
uint gen(uint *s) { *s = *s * 1103515245u + 12345u; return *s >> 16; }

kernel void forms(global float *out, global const float *a, global const float *b,
                  global const float *c) {
    int i = get_global_id(0), n = get_global_size(0);
    float x = a[i], y = b[i], z = c[i];
    out[i] = x * y + z;
    out[n + i] = z - x * y;
    out[2 * n + i] = x * y - z;
    float s = z;
    s += x * y;
    out[3 * n + i] = s;
    s = z;
    s -= x * y;
    out[4 * n + i] = s;
    out[5 * n + i] = x * y - 1u;            /* an integer addend: 1.0f negated, not 1u */
    out[6 * n + i] = (x * y) * 2.0f + z;    /* (x y rounded), times 2 exact, + z fused */
}

kernel void constants(global float *out, global const float *a, global const float *b,
                      global const float *c) {
    int i = get_global_id(0), n = get_global_size(0);
    float x = a[i], y = b[i];
    out[i] = x + 3.0f * 0.1f;               /* clang folds a product of constants, */
    out[n + i] = x - 0.1f * 3.0f;           /* rounded, before it contracts */
    out[2 * n + i] = x + (-0.1f) * (float)3;
    out[3 * n + i] = y * 0.1f + x;          /* one constant: contracted */
}

kernel void off(global float *out, global const float *a, global const float *b,
                global const float *c) {
    int i = get_global_id(0), n = get_global_size(0);
    float x = a[i], y = b[i], z = c[i];
    {
#pragma OPENCL FP_CONTRACT OFF
        out[i] = x * y + z;
        {
#pragma OPENCL FP_CONTRACT ON
            out[n + i] = x * y + z;
        }
        out[2 * n + i] = x * y + z;
    }
    out[3 * n + i] = x * y + z;             /* the pragma's compound has ended */
}

kernel void vectors(global float4 *out, global const float4 *a, global const float *b,
                    global const float4 *c) {
    int i = get_global_id(0);
    out[i] = a[i] * b[i] + c[i];            /* the scalar factor widened */
}

kernel void updates(global float *out, global const float *a, global const float *b,
                    global const float *c) {
    int i = get_global_id(0), n = get_global_size(0);
    float x = a[i], y = b[i], z = c[i];
    out[i] = z;
    out[i] += x * y;                        /* an element */
    out[n + i] = z;
    out[n + i] -= x * y;
    global float *p = out + 2 * n + i;
    *p = z;
    *p += x * y;                            /* a pointer's target */
    int j = 3 * n + i;
    out[j] = z;
    out[j++] += x * y;                      /* an effect in the lvalue: not fused */
}

kernel void effects(global float *out, global const float *a, global const float *b) {
    int i = get_global_id(0);
    uint s = i + 1;
    out[i] = (float)gen(&s) + a[i] * b[i];  /* the addend first: its effect stays first */
}
"""

PROGRAM_OFF = r"""
#pragma OPENCL FP_CONTRACT OFF
kernel void f(global float *out, global const float *a, global const float *b,
              global const float *c) {
    int i = get_global_id(0);
    out[i] = a[i] * b[i] + c[i];
}
#pragma OPENCL FP_CONTRACT DEFAULT
kernel void g(global float *out, global const float *a, global const float *b,
              global const float *c) {
    int i = get_global_id(0);
    out[i] = a[i] * b[i] + c[i];
}
"""

N = 512


def _fast_fma() -> bool:
    return cl2c.device().fast_fma


def operands(seed=5):
    r = np.random.default_rng(seed)
    x, y, z = (r.standard_normal(N).astype(np.float32) for _ in range(3))
    return x, y, z


@pytest.fixture(scope="module")
def program():
    return cl2c.Program(SOURCE).build()


def contracted(x, y, z):
    """a b + c as this CPU contracts it: fused, or product then sum."""
    return fma32(x, y, z) if _fast_fma() else x * y + z


def test_the_forms_contract(program):
    x, y, z = operands()
    out = np.zeros(7 * N, np.float32)
    program.forms((N,), None, out, x, y, z)
    got = out.reshape(7, N)
    np.testing.assert_array_equal(got[0], contracted(x, y, z))
    np.testing.assert_array_equal(got[1], contracted(-x, y, z))
    np.testing.assert_array_equal(got[2], contracted(x, y, -z))
    np.testing.assert_array_equal(got[3], contracted(x, y, z))
    np.testing.assert_array_equal(got[4], contracted(-x, y, z))
    np.testing.assert_array_equal(got[5], contracted(x, y, np.full(N, -1, np.float32)))
    np.testing.assert_array_equal(got[6], contracted(x * y, np.float32(2), z))
    if _fast_fma():                 # the inputs tell fused from unfused
        assert (got[0] != x * y + z).sum() > N // 10


def test_a_product_of_constants_is_folded_first(program):
    x, y, z = operands()
    out = np.zeros(4 * N, np.float32)
    program.constants((N,), None, out, x, y, z)
    got = out.reshape(4, N)
    third = np.float32(3.0) * np.float32(0.1)
    np.testing.assert_array_equal(got[0], x + third)
    np.testing.assert_array_equal(got[1], x - third)
    np.testing.assert_array_equal(got[2], x - third)
    np.testing.assert_array_equal(got[3], contracted(y, np.full(N, 0.1, np.float32), x))


def test_pragma_off_holds_to_the_end_of_its_compound(program):
    x, y, z = operands(6)
    out = np.zeros(4 * N, np.float32)
    program.off((N,), None, out, x, y, z)
    got = out.reshape(4, N)
    np.testing.assert_array_equal(got[0], x * y + z)
    np.testing.assert_array_equal(got[1], contracted(x, y, z))
    np.testing.assert_array_equal(got[2], x * y + z)
    np.testing.assert_array_equal(got[3], contracted(x, y, z))


def test_program_scope_pragma():
    x, y, z = operands(7)
    p = cl2c.Program(PROGRAM_OFF).build()
    out = np.zeros(N, np.float32)
    p.f((N,), None, out, x, y, z)
    np.testing.assert_array_equal(out, x * y + z)
    p.g((N,), None, out, x, y, z)
    np.testing.assert_array_equal(out, contracted(x, y, z))


def test_updates_of_elements_contract(program):
    """``x[e] += a * b`` and ``*p += a * b`` (the lecture's V1 accumulates into C so),
    not where evaluating the lvalue has an effect."""
    x, y, z = operands(14)
    out = np.zeros(4 * N, np.float32)
    program.updates((N,), None, out, x, y, z)
    got = out.reshape(4, N)
    np.testing.assert_array_equal(got[0], contracted(x, y, z))
    np.testing.assert_array_equal(got[1], contracted(-x, y, z))
    np.testing.assert_array_equal(got[2], contracted(x, y, z))
    np.testing.assert_array_equal(got[3], z + x * y)


def test_vectors_widen_the_scalar_factor(program):
    r = np.random.default_rng(8)
    a = r.standard_normal((N, 4)).astype(np.float32)
    b = r.standard_normal(N).astype(np.float32)
    c = r.standard_normal((N, 4)).astype(np.float32)
    out = np.zeros((N, 4), np.float32)
    program.vectors((N,), None, out, a, b, c)
    want = contracted(a.ravel(), np.repeat(b, 4), c.ravel()).reshape(N, 4)
    np.testing.assert_array_equal(out, want)


def test_an_addend_with_effects_keeps_its_place(program):
    x, y, _ = operands(9)
    out = np.zeros(N, np.float32)
    program.effects((N,), None, out, x, y)
    s = np.arange(1, N + 1, dtype=np.uint64)
    drawn = (((s * 1103515245 + 12345) & 0xffffffff) >> 16).astype(np.float32)
    np.testing.assert_array_equal(out, drawn + x * y)


def test_the_c_says_mad_only_where_contracted():
    c_source = cl2c.translate(SOURCE, "contraction.cl").c_source
    # the kernel's function in either schedule (its int id may take it to regions)
    body = c_source[re.search(r"void off(__group)?\(", c_source).start():]
    body = body[:body.index("\n}\n")]
    assert body.count("cl2c_mad_float(") == 2, body


@pytest.mark.parametrize("kernel", ["forms", "off", "vectors", "updates", "constants"])
def test_same_bits_as_pocl(program, pocl, kernel):
    if not _fast_fma():
        pytest.skip("this CPU has no fma: PoCL's contraction is a library call or none")
    x, y, z = operands(10)
    rows = {"forms": 7, "off": 4, "updates": 4, "constants": 4}
    if kernel == "vectors":
        args = (np.random.default_rng(11).standard_normal((N, 4)).astype(np.float32), y,
                np.random.default_rng(12).standard_normal((N, 4)).astype(np.float32))
        out, ref = np.zeros((N, 4), np.float32), np.zeros((N, 4), np.float32)
    else:
        args = (x, y, z)
        out, ref = np.zeros(rows[kernel] * N, np.float32), np.zeros(rows[kernel] * N,
                                                                   np.float32)
    getattr(program, kernel)((N,), None, out, *args)
    pocl(SOURCE, kernel, (N,), None, ref, *[a.copy() for a in args])
    if kernel == "updates":         # clang fuses an update whose lvalue has an effect too
        out, ref = out[:3 * N], ref[:3 * N]
    np.testing.assert_array_equal(out, ref)


def test_the_reference_fma_is_exact():
    """fma32 (vectorised) against ulp_reference's rational fma, on random operands and
    on ties: (1 + a 2^-12)(1 + b 2^-12) with ab odd is a midpoint of two floats, and a
    z far below a double's precision leaves the double sum on it, so only the sign of z
    decides; ties to even would go down for a = b = 1 and up for a = 1, b = 3."""
    r = np.random.default_rng(13)
    x, y, z = (r.standard_normal(2000).astype(np.float32) for _ in range(3))
    one, three = np.float32(1 + 2.0 ** -12), np.float32(1 + 3 * 2.0 ** -12)
    tiny = 2.0 ** -60
    x = np.concatenate([x, [one, one, one, one]]).astype(np.float32)
    y = np.concatenate([y, [one, one, three, three]]).astype(np.float32)
    z = np.concatenate([z, [tiny, -tiny, tiny, -tiny]]).astype(np.float32)
    want = np.asarray(_fma(TYPE["float"], x, y, z), np.float32)
    got = fma32(x, y, z)
    np.testing.assert_array_equal(got, want)
    tie = (x[-4:].astype(np.float64) * y[-4:]).astype(np.float32)   # rounded twice
    assert (got[-4:] != tie).sum() == 2
