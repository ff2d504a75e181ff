"""Float math builtins in vectorised work-item loops (clruntime's math.h: glibc's libmvec
double functions, rounded once to float, or math.h's own float code) give what the C
library's scalar double function rounded to float gives: within 1 ulp of it on a random
sample, the same bits on special values (for math.h's own: where the result is an integer,
infinite or NaN). The kernels are checked to really call the vector forms, or no function
at all where math.h has its own."""
from __future__ import annotations

import ctypes
import platform
import subprocess

import numpy as np
import pytest

import cl2c

pytestmark = pytest.mark.optimised      # what the optimiser makes of cl2c's C

FUNCTIONS = ["acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "cos", "cosh",
             "erf", "erfc", "exp", "exp10", "exp2", "expm1", "log", "log10", "log1p", "log2",
             "sin", "sinh", "tan", "tanh"]
# computed by math.h itself, inline (within 1 ulp: bench/exhaustive_ulp.py)
OWN = {"exp", "exp2", "exp10", "log", "log2", "log10"}
SOURCE = "".join(f"kernel void k_{f}(global const float *x, global float *y)\n"
                 f"{{ size_t i = get_global_id(0); y[i] = {f}(x[i]); }}\n" for f in FUNCTIONS)
SPECIALS = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 2.0, 0.5, -0.5,
                     1e-45, -1e-45, 1e-38, 3.4e38, -3.4e38, 88.7, -103.9, 1e4, -1e4],
                    np.float32)


def _glibc_has_libmvec() -> str | None:
    if platform.machine() != "x86_64":
        return f"libmvec is used on x86-64 only, not {platform.machine()}"
    version = platform.libc_ver()
    if version[0] != "glibc" or tuple(map(int, version[1].split(".")[:2])) < (2, 35):
        return f"libmvec's functions need glibc 2.35+, not {version}"
    return None


@pytest.fixture(scope="module")
def program():
    why = _glibc_has_libmvec()
    if why:
        pytest.skip(why)
    return cl2c.Program(SOURCE).build()


def _libm():
    return ctypes.CDLL("libm.so.6")


def _scalar(f: str, x: np.ndarray) -> np.ndarray:
    """The C library's scalar double function, rounded once to float."""
    fn = getattr(_libm(), f)
    fn.restype, fn.argtypes = ctypes.c_double, [ctypes.c_double]
    with np.errstate(over="ignore"):      # to float: inf, as C rounds
        return np.array([fn(float(v)) for v in x], np.float64).astype(np.float32)


def test_the_kernels_call_vector_forms(program, tmp_path):
    """Compiled as cl2c compiles them, the kernels call libmvec's double functions, and
    none for the functions math.h computes itself."""
    from cl2c.resources import runtime_include_dir
    from cl2c.target import Target
    target = Target.host()
    c_file = tmp_path / "k.c"
    c_file.write_text(cl2c.translate(SOURCE, "k.cl").c_source)
    subprocess.run([*target.cc, *target.compile_flags(), "-I", str(runtime_include_dir()),
                    "-c", str(c_file), "-o", str(tmp_path / "k.o")], check=True)
    symbols = subprocess.run(["nm", str(tmp_path / "k.o")], capture_output=True,
                             text=True).stdout.split()
    called = {f for f in FUNCTIONS if any(s.startswith("_ZGV") and s.endswith(f"v_{f}")
                                          for s in symbols)}
    assert called == set(FUNCTIONS) - OWN, sorted(called ^ (set(FUNCTIONS) - OWN))
    # nm's undefined symbols: a call of the C library's scalar function would be one
    assert not OWN & {s.split("@")[0].rstrip("f") for s in symbols}, sorted(OWN)


@pytest.mark.parametrize("f", FUNCTIONS)
def test_as_the_scalar_double_function(program, f):
    rng = np.random.default_rng(len(f))
    x = np.concatenate([(rng.standard_normal(4000) * 10).astype(np.float32),
                        rng.uniform(-1, 1, 4000).astype(np.float32),
                        (np.exp(rng.uniform(-80, 80, 4000))).astype(np.float32),
                        np.tile(SPECIALS, 4)])          # specials in vector lanes and tails
    y = np.zeros_like(x)
    getattr(program, f"k_{f}")(x.size, None, x, y)
    want = _scalar(f, x)
    both_nan = np.isnan(y) & np.isnan(want)
    exact = both_nan | (y.view(np.uint32) == want.view(np.uint32))
    spacing = np.abs(np.spacing(want, dtype=np.float32))
    with np.errstate(invalid="ignore"):        # inf - inf where both overflow: exact
        close = np.isfinite(want) & (np.abs(y.astype(np.float64) - want) <= spacing)
    bad = ~(exact | close)
    special = np.zeros(x.size, bool)
    special[-SPECIALS.size * 4:] = True
    if f in OWN:     # not libm's rounding: exact where the result is an integer, inf or NaN
        with np.errstate(invalid="ignore"):
            special &= ~np.isfinite(want) | (want == np.round(want))
    assert not (bad | (special & ~exact)).any(), \
        [(float(a), float(b), float(c)) for a, b, c in zip(x[bad | (special & ~exact)][:5],
                                                           y[bad | (special & ~exact)][:5],
                                                           want[bad | (special & ~exact)][:5])]
