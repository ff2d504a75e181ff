"""length, distance and normalize (and their fast_ forms) at the edges (spec 1.13.5, 7.5.1).

length and normalize must proceed "without overflow or extraordinary precision loss due
to underflow" (7.5.1): a vector of huge elements, whose squares overflow, or of subnormal
ones, whose squares underflow, still has its length and its unit vector. normalize of a
zero vector is the vector, of one with a NaN all NaNs, of one with infinities the unit
vector of their signs. Each is run on float and double, scalars and 2-, 3- and 4-vectors,
on chosen edge vectors (magnitudes near the largest finite value and among the
subnormals, mixed magnitudes, zeros of both signs, infinities, NaNs, powers of two) and
random ones over the whole exponent range, against mpmath at 160 bits, in ulps as section
2.4 defines them (ulp_reference.ulp_error). The spec gives these functions no bound;
cl2c's is the one its computation keeps (the sum of squares in double, scaled by a power
of two where it would overflow or underflow): BOUND below. distance is length(p0 - p1)
(1.13.5), the difference rounded to the type. fast_length, fast_distance and
fast_normalize (float only) are held to their own rules: half_sqrt's 8192 ulp where the
sum of squares is a normal float (the spec leaves the rest undefined or lets p through).
"""
from __future__ import annotations

import functools
import math

import mpmath
import numpy as np
import pytest

import cl2c
import typegen as tg
import ulp_reference as ur

WIDTHS = (1, 2, 3, 4)
ROWS = 400
# ulps, for n elements: float rounds a double result once (0.5 ulp and a hair); double
# rounds each square and sum (n u in all, u = 2^-53), the square root (halving that, and
# 0.5 ulp) and the quotient of normalize (0.5 ulp)
BOUND = {("float", "length"): lambda n: 0.51, ("float", "normalize"): lambda n: 0.51,
         ("double", "length"): lambda n: 0.5 + n / 2, ("double", "normalize"): lambda n: 1 + n / 2}
FAST_BOUND = 8192
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def kernel(t: str, n: int) -> str:
    v = tg.vname(t, n)
    ld = (lambda b: f"{b}[g]") if n == 1 else (lambda b: f"vload{n}(g, {b})")
    st = (lambda val, b: f"{b}[g] = {val};") if n == 1 else \
        (lambda val, b: f"vstore{n}({val}, g, {b});")
    outs = ["L", "D", "N"] + (["FL", "FD", "FN"] if t == "float" else [])
    params = ", ".join([f"__global const {t} *X", f"__global const {t} *Y"]
                       + [f"__global {t} *{o}" for o in outs])
    body = ["L[g] = length(x);", "D[g] = distance(x, y);", st("normalize(x)", "N")]
    if t == "float":
        body += ["FL[g] = fast_length(x);", "FD[g] = fast_distance(x, y);",
                 st("fast_normalize(x)", "FN")]
    lines = "\n    ".join(body)
    return f"""
__kernel void geo_{v}({params})
{{
    size_t g = get_global_id(0);
    {v} x = {ld('X')}, y = {ld('Y')};
    {lines}
}}"""


@functools.lru_cache(maxsize=None)
def program():
    src = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" + "".join(
        kernel(t, n) for t in ("float", "double") for n in WIDTHS)
    return cl2c.Program(src, filename="geometric.cl").build()


def edge_rows(t: ur.FloatType, n: int) -> list[list[float]]:
    """Vectors at the edges, each cut or padded (cyclically) to n elements."""
    big, tiny, sub = t.max, t.min, t.sub
    inf, nan = np.inf, np.nan
    rows = [[big, -big, 0, 0], [big, big, big, big], [-big, big / 3, big / 7, -big / 2],
            [big / 2, big / 2, big / 2, big / 2], [tiny, -tiny / 2, tiny / 3, 0],
            [sub, -sub, sub, sub], [sub, 0, -0.0, 0], [-sub, 3 * sub, 0, 5 * sub],
            [1e-200, -5e-201, 0, 0], [1e-40, -5e-41, 3e-42, 0], [1, 1e-170, 0, 0],
            [1, 1e-30, 0, 0], [big, sub, 0, 1], [big, 1, 1, 1], [tiny, sub, sub, -sub],
            [0, 0, 0, 0], [-0.0, -0.0, -0.0, -0.0], [0, -0.0, 0, -0.0],
            [inf, 1, 2, 3], [-inf, 0, -0.0, 5], [inf, -inf, big, 0], [inf, inf, inf, inf],
            [nan, 1, 2, 3], [1, nan, inf, 0], [0, 0, 0, nan], [nan, -inf, 0, 0],
            [4, 4, 4, 4], [3, 4, 12, 84], [-2 ** 60, 2 ** 60, 0, 0], [2 ** -140, 0, 0, 0],
            [1, 0, 0, 0], [-0.5, 0, 0, 0], [big, -big, big, -big],
            [-1e-146, 1e168, 3e100, 0]]   # (the CTS's: a quotient that is subnormal)
    with np.errstate(over="ignore"):
        return [[float(t.dtype(v)) for v in (row * n)[:n]] for row in rows]


def random_rows(t: ur.FloatType, n: int, count: int, r) -> np.ndarray:
    """Elements around a common exponent anywhere in the range (so that the sum's
    exponent spans it all), some of them much smaller, some zero."""
    e = r.integers(t.emin - t.p, t.emax + 1, (count, 1))
    spread = r.integers(-40, 1, (count, n)) * (r.random((count, n)) < 0.3)
    v = r.uniform(1, 2, (count, n)) * np.exp2((e + spread).astype(float))
    v *= r.choice([-1.0, 1.0], (count, n)) * (r.random((count, n)) > 0.05)
    with np.errstate(over="ignore"):
        v = v.astype(t.dtype)
    return np.where(np.isfinite(v), v, t.dtype(1))


def inputs(tname: str, n: int):
    t = ur.TYPE[tname]
    r = tg.rng(f"geometric-{tname}{n}")
    edges = np.array(edge_rows(t, n), t.dtype)
    x = np.concatenate([edges, random_rows(t, n, ROWS, r)])
    y = np.concatenate([edges[::-1], random_rows(t, n, ROWS, r)])
    pick = r.random(len(x)) < 0.25                   # differences at the edges too
    y[pick] = (x[pick] * t.dtype(0.5)).astype(t.dtype)
    return t, x, y


@functools.lru_cache(maxsize=None)
def results(tname: str, n: int) -> dict:
    t, x, y = inputs(tname, n)
    rows = len(x)
    out = {k: np.zeros(rows, t.dtype) for k in ("L", "D")}
    out["N"] = np.zeros(rows * n, t.dtype)
    if tname == "float":
        out.update(FL=np.zeros(rows, t.dtype), FD=np.zeros(rows, t.dtype),
                   FN=np.zeros(rows * n, t.dtype))
    getattr(program(), f"geo_{tg.vname(tname, n)}")((rows,), None, x.reshape(-1),
                                                    y.reshape(-1), *out.values())
    out["N"] = out["N"].reshape(rows, n)
    if "FN" in out:
        out["FN"] = out["FN"].reshape(rows, n)
    return dict(out, x=x, y=y)


def sum_squares(row) -> mpmath.mpf:
    return mpmath.fsum(mpmath.mpf(float(v)) ** 2 for v in row)


def ref_length(row) -> mpmath.mpf:
    """NaN with a NaN, infinite with an infinity (and no NaN), else the exact length."""
    if any(np.isnan(row)):
        return mpmath.nan
    if any(np.isinf(row)):
        return mpmath.inf
    return mpmath.sqrt(sum_squares(row))


def ref_normalize(row) -> list:
    """7.5.1: all NaN with a NaN; infinities to +-1, the rest to +-0, then normalized;
    the vector itself if all zero; else row / length(row). Zeros keep their signs."""
    if any(np.isnan(row)):
        return [mpmath.nan] * len(row)
    row = [float(v) for v in row]
    if any(np.isinf(row)):
        row = [math.copysign(1.0, v) if math.isinf(v) else 0.0 * v for v in row]
    length = mpmath.sqrt(sum_squares(row))
    return [v if v == 0 else mpmath.mpf(v) / length for v in row]


def ulps(got, ref, t) -> np.ndarray:
    return ur.ulp_error(np.asarray(got), np.array([ur.mp_to_ld(v) for v in ref]), t)


def check_zero_signs(failures, label, rows, got, want):
    """Where the reference is a zero (an element of a zero vector, a zero element beside
    nonzero ones), the result is that zero, its sign included."""
    for i, (g_row, w_row) in enumerate(zip(got, want)):
        for g, w in zip(g_row, w_row):
            if isinstance(w, float) and w == 0 and math.copysign(1, g) != math.copysign(1, w):
                failures.append(f"{label}{tuple(rows[i])}: got {g!r}, want {w!r}")
                break


def normalize_failures(label, t, rows, got, bound, judged=None) -> list[str]:
    failures = []
    want = [ref_normalize(row) for row in rows]
    err = np.array([ulps(g, w, t).max() for g, w in zip(got, want)])
    if judged is not None:
        err = np.where(judged, err, 0)
    for i in np.flatnonzero(~(err <= bound))[:8]:
        failures.append(f"{label}{tuple(rows[i])}: {err[i]:.2f} ulp (bound {bound}): "
                        f"got {tuple(got[i])}, want {tuple(float(v) for v in want[i])}")
    if judged is None:
        check_zero_signs(failures, label, rows, got, want)
    return failures


def length_failures(label, t, rows, got, bound, judged=None) -> list[str]:
    want = [ref_length(row) for row in rows]
    err = ulps(got, want, t)
    if judged is not None:
        err = np.where(judged, err, 0)
    return [f"{label}{tuple(rows[i])}: {err[i]:.2f} ulp (bound {bound}): got {got[i]!r}, "
            f"want {float(want[i])!r}" for i in np.flatnonzero(~(err <= bound))[:8]]


@pytest.mark.parametrize("n", WIDTHS)
@pytest.mark.parametrize("tname", ["float", "double"])
def test_length_distance_normalize(tname, n):
    res = results(tname, n)
    t, x, y = ur.TYPE[tname], res["x"], res["y"]
    with np.errstate(all="ignore"):
        d = (x - y).astype(t.dtype)                   # distance: length(p0 - p1), rounded
    length_bound, normalize_bound = BOUND[tname, "length"](n), BOUND[tname, "normalize"](n)
    failures = (length_failures("length", t, x, res["L"], length_bound)
                + length_failures("distance: length", t, d, res["D"], length_bound)
                + normalize_failures("normalize", t, x, res["N"], normalize_bound))
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("n", WIDTHS)
def test_fast_forms(n):
    """fast_length and fast_distance: half_sqrt of the sum of squares (8192 ulp);
    fast_normalize within 8192 ulp of p / sqrt(sum), both where the sum of squares is a
    normal float: past FLT_MAX the spec leaves the result undefined, below FLT_MIN lets
    p through (1.13.5). Infinite and NaN elements are not judged: the rules of 7.5.1 are
    normalize's."""
    res = results("float", n)
    t, x, y = ur.TYPE["float"], res["x"], res["y"]
    d = (x - y).astype(t.dtype)

    def normal_sum(rows):
        return np.array([np.all(np.isfinite(row)) and t.min <= sum_squares(row) <= t.max
                         for row in rows])

    failures = (length_failures("fast_length", t, x, res["FL"], FAST_BOUND, normal_sum(x))
                + length_failures("fast_distance: fast_length", t, d, res["FD"], FAST_BOUND,
                                  normal_sum(d))
                + normalize_failures("fast_normalize", t, x, res["FN"], FAST_BOUND,
                                     normal_sum(x)))
    assert not failures, "\n".join(failures)
