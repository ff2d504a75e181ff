"""fmax, fmin, maxmag, minmag and clamp with NaN arguments, signaling ones included.

The spec (1.13.2): "If one argument is a NaN, fmax() returns the other argument", and its
note [29]: fmin and fmax behave as C99 defines them, "signaling NaNs may behave as quiet
NaNs". The C library's fmax follows IEEE 754-2008's maxNum and returns a NaN for a
signaling one (the CTS's math_brute_force found it). maxmag and minmag fall back on
fmax and fmin where the magnitudes tie or do not compare; clamp is fmin(fmax(x, lo), hi).
Every result is checked bit for bit against those definitions, on scalars, on vectors of
each width and on the forms whose second argument is a scalar.
"""
from __future__ import annotations

import numpy as np
import pytest

import cl2c

WIDTHS = (1, 2, 3, 4, 8, 16)
BITS = {"float": (np.float32, np.uint32, 0x7F800000, 0x00400000),
        "double": (np.float64, np.uint64, 0x7FF0000000000000, 0x0008000000000000)}


def _nans(t: str) -> np.ndarray:
    """Quiet and signaling NaNs of both signs, with payloads, as values of type t."""
    dtype, utype, exp, quiet = BITS[t]
    sign = utype(1) << utype(np.dtype(utype).itemsize * 8 - 1)
    bits = [exp | quiet, exp | 1, exp | quiet | 0x2BCD, exp | (quiet >> 1) | 0x1234]
    bits += [b | int(sign) for b in bits]
    return np.array(bits, utype).view(dtype)


def _operands(t: str, n: int, rng) -> tuple[np.ndarray, np.ndarray]:
    """x and y: numbers, each NaN against numbers both ways, NaN against NaN, zeros."""
    dtype = BITS[t][0]
    nans = _nans(t)
    nums = np.array([0.0, -0.0, 1.5, -2.5, np.inf, -np.inf, 1e-30, 3.0], dtype)
    x = [nums, np.repeat(nans, len(nums)), np.tile(nums, len(nans)), nans, nans[::-1]]
    y = [nums[::-1], np.tile(nums, len(nans)), np.repeat(nans, len(nums)), nans[::-1], nans]
    x, y = np.concatenate(x), np.concatenate(y)
    pad = n - len(x)
    x = np.concatenate([x, rng.standard_normal(pad).astype(dtype)])
    y = np.concatenate([y, rng.standard_normal(pad).astype(dtype)])
    return x, y


def _fmax(x, y):        # y if x < y, else x; a NaN is missing data
    return np.where((x < y) | np.isnan(x), y, x)


def _fmin(x, y):
    return np.where((y < x) | np.isnan(x), y, x)


def _maxmag(x, y):
    ax, ay = np.abs(x), np.abs(y)
    return np.where(ax > ay, x, np.where(ay > ax, y, _fmax(x, y)))


def _minmag(x, y):
    ax, ay = np.abs(x), np.abs(y)
    return np.where(ax < ay, x, np.where(ay < ax, y, _fmin(x, y)))


REFERENCE = {"fmax": _fmax, "fmin": _fmin, "maxmag": _maxmag, "minmag": _minmag}


def _same(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Bit for bit, but any NaN is the same as any other (the spec leaves payloads)."""
    utype = BITS["float" if got.dtype == np.float32 else "double"][1]
    return (got.view(utype) == want.view(utype)) | (np.isnan(got) & np.isnan(want))


def _calls(w: int) -> list[tuple[str, str]]:
    """(name, the call in OpenCL C) of each result of the width-w kernel."""
    v = "float" if w == 1 else f"T{w}"
    arg = (lambda a: f"{a}[i]") if w == 1 else (lambda a: f"vload{w}(i, {a})")
    calls = [(f, f"{f}({arg('x')}, {arg('y')})") for f in REFERENCE]
    if w > 1:                 # the forms whose second argument is a scalar
        calls += [(f"{f}(vector, scalar)", f"{f}({arg('x')}, y[i * {w}])")
                  for f in ("fmax", "fmin")]
    return calls + [("clamp", f"clamp({arg('x')}, ({v})(-1), ({v})(2))")]


def _source(t: str) -> str:
    kernels = []
    for w in WIDTHS:
        store = ((lambda e, k: f"out[{k} * n + i] = {e};") if w == 1 else
                 (lambda e, k: f"vstore{w}({e}, i, out + {k} * n);"))
        body = "\n".join(f"    {store(c, k)}" for k, (_, c) in enumerate(_calls(w)))
        kernels.append(f"kernel void nans{w}(global const T *x, global const T *y, "
                       f"global T *out, int n) {{\n    int i = get_global_id(0);\n"
                       f"{body}\n}}\n")
    text = "\n".join(kernels).replace("float", "T").replace("T", t)
    return ("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" if t == "double" else "") + text


def _expected(w: int, x: np.ndarray, y: np.ndarray) -> list[np.ndarray]:
    want = [REFERENCE[f](x, y) for f in REFERENCE]
    if w > 1:
        ys = np.repeat(y[::w], w)
        want += [_fmax(x, ys), _fmin(x, ys)]
    return want + [_fmin(_fmax(x, x.dtype.type(-1)), x.dtype.type(2))]


@pytest.mark.parametrize("t", ["float", "double"])
def test_a_nan_is_missing_data(t):
    prg = cl2c.Program(_source(t)).build()
    n = 240                             # a multiple of every width
    x, y = _operands(t, n, np.random.default_rng(29))
    for w in WIDTHS:
        calls = _calls(w)
        out = np.zeros(n * len(calls), x.dtype)
        getattr(prg, f"nans{w}")((n // w,), None, x, y, out, np.int32(n))
        for k, ((name, _), want) in enumerate(zip(calls, _expected(w, x, y))):
            got = out[k * n:(k + 1) * n]
            bad = np.flatnonzero(~_same(got, want))[:4]
            assert not len(bad), (f"{name} on {t}{w if w > 1 else ''}: x={x[bad]!r} "
                                  f"y={y[bad]!r} got {got[bad]!r} want {want[bad]!r}")
