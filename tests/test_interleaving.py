"""Work-items four (or two) an iteration, statements interleaved (workgroup/passes/interleaving.py):
long loop-free kernels get an interleaved function (or, guarded, interleaved blocks in
their work-group function's bounded loop), and give NumPy's and PoCL's results for every
range shape (a row's last work-items, fewer than four blocks, run one at a time) and
guard, in place and with aliased buffers; kernels where a copy could skip or mislead
another get none."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cl2c
from conftest import kernel_path, kernel_source

ROOT = Path(__file__).resolve().parent.parent


def _hash(x):
    x = x.astype(np.uint32)
    x ^= x >> 16
    x *= np.uint32(0x7feb352d)
    x ^= x >> 15
    x *= np.uint32(0x846ca68b)
    x ^= x >> 16
    return x


def scramble_reference(data, other, gsize):
    """scramble in NumPy: (new data, out) for a 1- or 2-dimensional range."""
    g0, g1 = gsize if len(gsize) == 2 else (gsize[0], 1)
    y, x = np.mgrid[0:g1, 0:g0]
    here = (x + 7 * y).astype(np.uint32).ravel()
    lo = data.copy()
    hlo = _hash(lo)
    hhi = _hash(hlo ^ other)
    v = [hlo, hhi, lo, here]
    a = [v[0], v[1] + np.uint32(1), v[2] * np.uint32(3), v[3] ^ np.uint32(5)]
    s = _hash(a[0] + a[1]) + _hash(a[2] - a[3])
    s = np.where(s & 1, _hash(s), s)
    t = _hash(s ^ v[3]) + _hash(v[0] + v[1]) + _hash(v[2]) + a[3]
    index = np.arange(g0 * g1, dtype=np.uint32)
    return s, t + np.uint32(g0) + index


@pytest.fixture(scope="module")
def program():
    return cl2c.Program.from_file(kernel_path("interleaved.cl")).build()


def _inputs(n, salt):
    rng = np.random.default_rng(salt)
    return (rng.integers(0, 2**32, n, dtype=np.uint32),
            rng.integers(0, 2**32, n, dtype=np.uint32))


def _schedule_line(c: str, kernel: str) -> str:
    header = c.split("*/")[0]
    return next(ln for ln in header.splitlines() if ln.strip().startswith(f"*   {kernel}:"))


def test_which_kernels_get_an_interleaved_function():
    c = cl2c.translate(kernel_source("interleaved.cl"), "interleaved.cl").c_source
    assert "scramble__interleaved(" in c and \
        "4 an iteration, interleaved" in _schedule_line(c, "scramble")
    # four copies: the last one's work-item and variables
    assert "size_t cl2c_l0_4," in c and "CL2C_WI_4" in c and "lo__4" in c
    for guarded in ("scramble_guarded", "scramble_guarded2"):   # `return`s as loop bounds
        line = _schedule_line(c, guarded)
        assert "regions" in line and "as loop bounds" in line and \
            "4 work-items an iteration, interleaved" in line, line
    assert "scramble_rows__interleaved" not in c      # a parameter changes: shared by all
    bs = (ROOT / "bench" / "kernels" / "blackscholes.cl").read_text()
    assert "blackscholes__interleaved(" in cl2c.translate(bs, "bs.cl").c_source
    triad = (ROOT / "bench" / "kernels" / "triad.cl").read_text()
    assert "__interleaved" not in cl2c.translate(triad, "triad.cl").c_source   # too short
    # mostly memory accesses (float4 stores): two ways, not four
    vec = cl2c.translate(kernel_source("vectors.cl"), "vectors.cl").c_source
    assert "2 an iteration, interleaved" in _schedule_line(vec, "vec")
    assert "size_t cl2c_l0_2," in vec and "cl2c_l0_3" not in vec
    # a long kernel whose local shadows a program-scope name: respelling would mislead
    body = " + ".join(f"f(x ^ {k}u)" for k in range(12))
    shadow = ("constant uint K = 3;\nuint f(uint x) { return x * x + (x >> 3) * K; }\n"
              "kernel void k(global uint *d) { size_t i = get_global_id(0); uint x = d[i];\n"
              f"  {{ uint K = x + 1; x = {body} + K; }}\n  d[i] = {body}; }}\n")
    assert "k__interleaved" not in cl2c.translate(shadow, "s.cl").c_source
    assert "k__interleaved(" in cl2c.translate(shadow.replace("uint K = x", "uint L = x")
                                               .replace("+ K; }", "+ L; }"), "s.cl").c_source
    # checking builds keep one work-item an iteration (their checks name it)
    assert "__interleaved" not in cl2c.translate(bs, "bs.cl", options="-cl2c-check").c_source


@pytest.mark.parametrize("gsize", [(1,), (2,), (3,), (17,), (63,), (64,), (65,), (1001,),
                                   (4096,), (65537,), (37, 5), (64, 64), (3, 1000),
                                   (127, 3)])
def test_as_numpy(program, gsize):
    n = int(np.prod(gsize))
    data, other = _inputs(n, n)
    want_data, want_out = scramble_reference(data, other, gsize)
    out = np.zeros(n, np.uint32)
    program.scramble(gsize, None, data, other, out)
    np.testing.assert_array_equal(data, want_data)
    np.testing.assert_array_equal(out, want_out)


def test_local_size_given(program):
    """cl2c cuts the range its own way: a local size the host gives changes nothing."""
    data, other = _inputs(1000, 5)
    want_data, want_out = scramble_reference(data, other, (1000,))
    out = np.zeros(1000, np.uint32)
    program.scramble((1000,), (8,), data, other, out)
    np.testing.assert_array_equal(data, want_data)
    np.testing.assert_array_equal(out, want_out)


def test_aliased_buffers(program):
    """`other` is `data` itself: each work-item reads its element of both before it
    writes, whichever work-item's statements run between."""
    data, _ = _inputs(3001, 7)
    want_data, want_out = scramble_reference(data, data.copy(), (3001,))
    out = np.zeros(3001, np.uint32)
    program.scramble((3001,), None, data, data, out)
    np.testing.assert_array_equal(data, want_data)
    np.testing.assert_array_equal(out, want_out)


def test_as_pocl(program, pocl):
    data, other = _inputs(5003, 11)
    ref_data, ref_out = data.copy(), np.zeros(5003, np.uint32)
    pocl(kernel_source("interleaved.cl"), "scramble", (5003,), None, ref_data, other.copy(),
         ref_out)
    out = np.zeros(5003, np.uint32)
    program.scramble((5003,), None, data, other, out)
    np.testing.assert_array_equal(data, ref_data)
    np.testing.assert_array_equal(out, ref_out)


def _guarded_reference(data, other, here):
    """scramble_guarded's (s, t) of the work-items that pass the guard."""
    s = _hash(_hash(data) + _hash(other)) + _hash(_hash(data ^ np.uint32(3)) -
                                                  _hash(data + np.uint32(9)))
    t = _hash(_hash(s) ^ _hash(s + np.uint32(1))) + \
        _hash(_hash(s ^ np.uint32(2)) + _hash(s ^ np.uint32(4))) + here.astype(np.uint32)
    return s, t


@pytest.mark.parametrize("gsize, n", [(2048, 2000), (2048, 0), (2048, 5000), (1, 1),
                                      (33, 20), (64, 64), (65537, 65000), (1000, 999)])
def test_guarded_kernel_as_numpy(program, gsize, n):
    data, other = _inputs(gsize, 3)
    m = min(n, gsize)
    s, t = _guarded_reference(data[:m], other[:m], np.arange(m))
    out = np.zeros(gsize, np.uint32)
    untouched = data[m:].copy()
    program.scramble_guarded((gsize,), None, data, other, out, np.uint32(n))
    np.testing.assert_array_equal(data[:m], s)
    np.testing.assert_array_equal(out[:m], t)
    np.testing.assert_array_equal(data[m:], untouched)
    assert not out[m:].any()


@pytest.mark.parametrize("gsize, w, h, skip", [((37, 5), 30, 4, 2), ((64, 64), 64, 64, 99),
                                               ((1000, 3), 999, 2, 0), ((40, 2), 100, 100, 1)])
def test_guarded_2d_kernel_as_numpy(program, gsize, w, h, skip):
    g0, g1 = gsize
    data, other = _inputs(g0 * g1, 17)
    y, x = np.mgrid[0:g1, 0:g0]
    inside = ((x < w) & (y < h) & (y != skip)).ravel()
    s, t = _guarded_reference(data, other, (x + 7 * y).ravel())
    want_data, want_out = np.where(inside, s, data), np.where(inside, t, 0)
    out = np.zeros(g0 * g1, np.uint32)
    program.scramble_guarded2(gsize, None, data, other, out, np.uint32(w), np.uint32(h),
                              np.uint32(skip))
    np.testing.assert_array_equal(data, want_data)
    np.testing.assert_array_equal(out, want_out)


def test_guarded_2d_kernel_as_pocl(program, pocl):
    data, other = _inputs(129 * 7, 19)
    args = (np.uint32(100), np.uint32(6), np.uint32(3))
    ref_data, ref_out = data.copy(), np.zeros(129 * 7, np.uint32)
    pocl(kernel_source("interleaved.cl"), "scramble_guarded2", (129, 7), None, ref_data,
         other.copy(), ref_out, *args)
    out = np.zeros(129 * 7, np.uint32)
    program.scramble_guarded2((129, 7), None, data, other, out, *args)
    np.testing.assert_array_equal(data, ref_data)
    np.testing.assert_array_equal(out, ref_out)


def test_a_kernel_named_as_a_c_library_function():
    """Its C function is respelled (div_cl); its interleaved function is found all the
    same."""
    body = " + ".join(f"f(x ^ {k}u)" for k in range(12))
    src = ("uint f(uint x) { return x * x + (x >> 3); }\n"
           "kernel void div(global uint *d) { size_t i = get_global_id(0); uint x = d[i];\n"
           f"  d[i] = {body}; }}\n")
    assert "div__interleaved(" in cl2c.translate(src, "d.cl").c_source
    d = np.arange(1001, dtype=np.uint32)
    x = d.copy()
    want = sum((((x ^ np.uint32(k)) * (x ^ np.uint32(k))) + ((x ^ np.uint32(k)) >> 3))
               for k in range(12)).astype(np.uint32)
    getattr(cl2c.Program(src).build(), "div")((1001,), None, d)
    np.testing.assert_array_equal(d, want)


def test_kernel_moving_its_parameters_as_numpy(program):
    data, other = _inputs(2 * 1001, 13)
    d, o = data.reshape(-1, 2).copy(), other.reshape(-1, 2)
    s = _hash(_hash(d[:, 0]) + _hash(o[:, 1])) + _hash(_hash(d[:, 1] ^ np.uint32(3)) -
                                                     _hash(o[:, 0] + np.uint32(9)))
    t = _hash(_hash(s) ^ _hash(s + np.uint32(1))) + \
        _hash(_hash(s ^ np.uint32(2)) + _hash(s ^ np.uint32(4))) + np.arange(1001, dtype=np.uint32)
    out = np.zeros(1001, np.uint32)
    program.scramble_rows((1001,), None, data, other, out)
    np.testing.assert_array_equal(data.reshape(-1, 2), np.stack([s, t], 1))
    np.testing.assert_array_equal(out, s ^ t)
