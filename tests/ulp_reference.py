"""The reference the ULP harness (test_math_ulp.py) measures the math builtins against.

Transcendental functions: mpmath at 160 bits, converted to long double (64-bit significand,
an error of at most 2^-11 ulp of a double). Exact functions (the 0-ulp and correctly rounded
ones): exact arithmetic (fractions, or NumPy where its operation is the exact IEEE one),
rounded to the type. The error is measured in ulps as section 2.4 defines them: the spacing
of the floating-point numbers around the reference (the smaller one at a power of two), the
subnormal spacing below the smallest normal, the spacing below the largest finite value above
it. A result that overflows counts as the value 2^(emax+1), the first one past the range.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

import mpmath
import numpy as np

from ulp_bounds import SPECIAL

LD = np.longdouble
mp = mpmath.mp
mp.prec = 160
NAN = None              # what a reference returns for a NaN result
SKIP = "skip"           # ... where the special-value table decides (signed zeros)


@dataclass(frozen=True)
class FloatType:
    name: str
    dtype: type
    p: int              # significand bits
    emin: int           # exponent of the smallest normal
    emax: int           # exponent of the largest finite value

    @property
    def max(self):
        return float(np.finfo(self.dtype).max)

    @property
    def min(self):
        return float(np.finfo(self.dtype).tiny)

    @property
    def sub(self):
        return float(np.finfo(self.dtype).smallest_subnormal)

    def quantum(self, e):
        return 2.0 ** (max(e, self.emin) - self.p + 1)


TYPE = {"half": FloatType("half", np.float16, 11, -14, 15),
        "float": FloatType("float", np.float32, 24, -126, 127),
        "double": FloatType("double", np.float64, 53, -1022, 1023)}
INT_MIN, INT_MAX = -2 ** 31, 2 ** 31 - 1


# ---- rounding and ulps -----------------------------------------------------------------------
def round_to(q, t: FloatType) -> float:
    """The exact rational q rounded to nearest even in type t (subnormals, overflow)."""
    if q == 0:
        return 0.0
    a = abs(Fraction(q))
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1                                   # 2^e <= a < 2^(e+1)
    quantum = Fraction(2) ** (max(e, t.emin) - t.p + 1)
    v = round(a / quantum) * quantum             # half to even
    if v > Fraction(t.max):
        return math.inf if q > 0 else -math.inf
    return float(v) if q > 0 else -float(v)


def mp_to_ld(v) -> LD:
    """An mpmath value (or NAN) as a long double: two doubles of the significand, scaled."""
    if v is NAN or mpmath.isnan(v):
        return LD(np.nan)
    if mpmath.isinf(v):
        return LD(np.inf) if v > 0 else LD(-np.inf)
    if v == 0:
        return LD(0)
    m, e = mpmath.frexp(v)
    hi = float(m)
    lo = float(m - hi)
    return np.ldexp(LD(hi) + LD(lo), max(min(e, 20000), -20000))   # past LD's range


def ulp_error(got: np.ndarray, ref: np.ndarray, t: FloatType) -> np.ndarray:
    """|got - ref| in ulps of t (section 2.4); inf where exactly one of them is a NaN, or
    where got is infinite and ref is not of the same sign and past the overflow point."""
    got = np.asarray(got).astype(LD)
    ref = np.asarray(ref, LD)
    with np.errstate(all="ignore"):
        top = LD(2.0) ** (t.emax - t.p + 1)      # the spacing below the largest value
        beyond = LD(2.0) ** (t.emax + 1)         # an infinite result counts as this
        overflows = np.abs(ref) >= LD(t.max) + top / 2
        m, e = np.frexp(np.where(np.isfinite(ref), ref, 0))
        e = e.astype(np.int64) - 1               # |ref| in [2^e, 2^(e+1))
        e = np.where(np.abs(m) == 0.5, e - 1, e)  # at a power of two: the spacing below
        spacing = np.ldexp(LD(1), np.maximum(np.minimum(e, t.emax), t.emin) - t.p + 1)
        spacing = np.where(ref == 0, LD(2.0) ** (t.emin - t.p + 1), spacing)
        g = np.where(np.isinf(got), np.sign(got) * beyond, got)
        r = np.where(np.isinf(ref), np.sign(ref) * beyond * 2, ref)
        err = np.abs(g - r) / np.where(overflows, top, spacing)
        err = np.where(overflows & np.isinf(got) & (np.sign(got) == np.sign(ref)), 0, err)
        err = np.where(np.isinf(ref) & ~(np.isinf(got) & (np.sign(got) == np.sign(ref))),
                       np.inf, err)
        nan_g, nan_r = np.isnan(got), np.isnan(ref)
        err = np.where(nan_g & nan_r, 0, np.where(nan_g | nan_r, np.inf, err))
    return err.astype(np.float64)


def same(got, want) -> np.ndarray:
    """Bit-identical, or both NaN."""
    got, want = np.asarray(got), np.asarray(want)
    if got.dtype.kind == "f":
        bits = f"u{got.dtype.itemsize}"
        return (got.view(bits) == want.astype(got.dtype).view(bits)) | \
            (np.isnan(got) & np.isnan(want))
    return got == want


# ---- mpmath references of the transcendental functions ---------------------------------------
def _is_int(x) -> bool:
    return mpmath.isfinite(x) and x == mpmath.floor(x)


def _odd(x) -> bool:
    return _is_int(x) and int(x) % 2 == 1


def _pow(x, y):
    if x > 0:
        return mpmath.power(x, y)
    if x == 0:
        return SKIP
    if not _is_int(y):
        return NAN
    v = mpmath.power(-x, y)
    return -v if _odd(y) else v


def _rootn(x, n):
    if n == 0 or (x < 0 and n % 2 == 0):
        return NAN
    if x == 0:
        return SKIP
    v = mpmath.root(abs(x), abs(n))
    v = 1 / v if n < 0 else v
    return -v if x < 0 else v


def _lgamma(x):
    if x <= 0 and _is_int(x):
        return mpmath.inf
    return mpmath.re(mpmath.loggamma(x))


def _tgamma(x):
    if x <= 0 and _is_int(x):
        return NAN if x < 0 else mpmath.inf
    return mpmath.gamma(x)


def _domain(f, ok):
    return lambda *a: f(*a) if ok(*a) else NAN


def _log(base):
    def f(x):
        if x == 0:
            return -mpmath.inf
        return mpmath.log(x) / mpmath.log(base) if x > 0 else NAN
    return f


def _tanpi(x):
    c = mpmath.cospi(x)
    if c == 0:              # n + 1/2: +inf for even n, -inf for odd n (section 2.5.1)
        return mpmath.inf if int(mpmath.floor(x)) % 2 == 0 else -mpmath.inf
    return mpmath.sinpi(x) / c


MP = {
    "acos": _domain(mpmath.acos, lambda x: abs(x) <= 1),
    "acosh": _domain(mpmath.acosh, lambda x: x >= 1),
    "acospi": _domain(lambda x: mpmath.acos(x) / mpmath.pi, lambda x: abs(x) <= 1),
    "asin": _domain(mpmath.asin, lambda x: abs(x) <= 1),
    "asinh": mpmath.asinh,
    "asinpi": _domain(lambda x: mpmath.asin(x) / mpmath.pi, lambda x: abs(x) <= 1),
    "atan": mpmath.atan,
    "atanh": _domain(lambda x: mpmath.atanh(x) if abs(x) < 1 else mpmath.inf * x,
                     lambda x: abs(x) <= 1),
    "atanpi": lambda x: mpmath.atan(x) / mpmath.pi,
    "atan2": lambda y, x: mpmath.atan2(y, x),
    "atan2pi": lambda y, x: mpmath.atan2(y, x) / mpmath.pi,
    "cbrt": lambda x: mpmath.sign(x) * mpmath.cbrt(abs(x)),
    "cos": mpmath.cos, "cosh": mpmath.cosh, "cospi": mpmath.cospi,
    "erf": lambda x: mpmath.erf(x) if abs(x) < 100 else mpmath.sign(x),
    # erfc(x) < 2^-14000 past 100: zero in every type (mpmath overflows far out)
    "erfc": lambda x: mpmath.erfc(x) if x < 100 else mpmath.mpf(0),
    "exp": mpmath.exp, "exp2": lambda x: mpmath.power(2, x),
    "exp10": lambda x: mpmath.power(10, x), "expm1": mpmath.expm1,
    "hypot": mpmath.hypot,
    "lgamma": _lgamma, "lgamma_r": _lgamma,
    "log": _log(mpmath.e), "log2": _log(2), "log10": _log(10),
    "log1p": lambda x: mpmath.log1p(x) if x > -1 else (-mpmath.inf if x == -1 else NAN),
    "pow": _pow,
    "powr": lambda x, y: mpmath.power(x, y) if x > 0 else (SKIP if x == 0 else NAN),
    "pown": lambda x, n: mpmath.power(x, n) if x != 0 else SKIP,
    "rootn": _rootn,
    "rsqrt": lambda x: 1 / mpmath.sqrt(x) if x > 0 else NAN,
    "sin": mpmath.sin, "sincos": mpmath.sin, "sinh": mpmath.sinh, "sinpi": mpmath.sinpi,
    "sqrt": lambda x: mpmath.sqrt(x) if x >= 0 else NAN,
    "tan": mpmath.tan, "tanh": mpmath.tanh, "tanpi": _tanpi,
    "tgamma": _tgamma,
    "recip": lambda x: 1 / x if x != 0 else SKIP,
    "divide": lambda x, y: x / y if y != 0 else SKIP,
}


def mp_reference(f: str, args) -> tuple[np.ndarray, np.ndarray]:
    """The reference of f over the argument arrays (float arguments as typed arrays, int
    ones as int arrays), as long doubles; and where it is one (not SKIP)."""
    fn = MP[base_name(f)]
    out = np.empty(len(args[0]), LD)
    judged = np.ones(len(args[0]), bool)
    for i, a in enumerate(zip(*args)):
        mp_args = [int(v) if isinstance(v, np.integer) else mpmath.mpf(float(v)) for v in a]
        if any(mpmath.isnan(v) for v in mp_args if isinstance(v, mpmath.mpf)):
            out[i] = np.nan
            continue
        try:
            v = fn(*mp_args)
        except (ValueError, ZeroDivisionError):
            v = NAN
        if isinstance(v, mpmath.mpc):
            v = v.real if v.imag == 0 else NAN
        if isinstance(v, str):
            judged[i], v = False, NAN
        out[i] = mp_to_ld(v)
    return out, judged


def base_name(f: str) -> str:
    return f.split("_", 1)[1] if f.startswith(("half_", "native_")) else f


# ---- exact references ------------------------------------------------------------------------
def _exact_map(fn, t: FloatType, *args):
    return np.array([fn(*a) for a in zip(*args)], np.float64).astype(t.dtype)


def _fr(v) -> Fraction:
    return Fraction(float(v))


def _fma(t, x, y, z):
    def one(a, b, c):
        if not (np.isfinite(a) and np.isfinite(b) and np.isfinite(c)):
            return float(a) * float(b) + float(c)    # inf and NaN: IEEE in double
        return round_to(_fr(a) * _fr(b) + _fr(c), t) if _fr(a) * _fr(b) + _fr(c) != 0 \
            else float(a) * float(b) + float(c)      # an exact zero's sign: IEEE's
    return _exact_map(one, t, x, y, z)


def fma32(x, y, z) -> np.ndarray:
    """x y + z in float32 with one rounding, vectorised and exact for finite results:
    the product is exact in double, the sum's rounding error exact by TwoSum, and a sum
    that lands on a midpoint of two floats goes the way its error says (rounding the
    double to float would round twice there)."""
    x, y, z = (np.asarray(v, np.float32).astype(np.float64) for v in (x, y, z))
    p = x * y
    s = p + z
    b = s - p
    err = (p - (s - b)) + (z - b)
    r = s.astype(np.float32)
    with np.errstate(over="ignore", invalid="ignore"):
        up = np.nextafter(r, np.float32(np.inf))
        down = np.nextafter(r, np.float32(-np.inf))
        r = np.where((s == (r.astype(np.float64) + up) / 2) & (err > 0), up, r)
        r = np.where((s == (r.astype(np.float64) + down) / 2) & (err < 0), down, r)
    return r.astype(np.float32)


def _mul_add(t, x, y, z):
    def one(a, b, c):
        p = t.dtype(round_to(_fr(a) * _fr(b), t) if np.isfinite(a) and np.isfinite(b)
                    and a * b != 0 else float(a) * float(b))
        if not (np.isfinite(p) and np.isfinite(c)) or _fr(p) + _fr(c) == 0:
            return float(p) + float(c)
        return round_to(_fr(p) + _fr(c), t)
    return _exact_map(one, t, x, y, z)


def _fdim(t, x, y):
    def one(a, b):
        if np.isnan(a) or np.isnan(b):
            return math.nan
        if not a > b:
            return 0.0
        if not (np.isfinite(a) and np.isfinite(b)):
            return float(a) - float(b)
        return round_to(_fr(a) - _fr(b), t)
    return _exact_map(one, t, x, y)


def _ldexp(t, x, n):
    def one(a, k):
        if not np.isfinite(a) or a == 0:
            return float(a)
        k = int(np.clip(k, -100000, 100000))
        return round_to(_fr(a) * Fraction(2) ** k, t)
    return _exact_map(one, t, x, n)


def _round(t, x):
    def one(a):
        if not np.isfinite(a) or a == 0:
            return float(a)
        q = _fr(a)
        r = math.floor(abs(q) + Fraction(1, 2))
        return math.copysign(float(r), a)
    return _exact_map(one, t, x)


def _remainder(t, x, y):
    def one(a, b):
        if np.isnan(a) or np.isnan(b) or np.isinf(a) or b == 0:
            return math.nan
        return math.remainder(float(a), float(b))    # exact, of doubles
    return _exact_map(one, t, x, y)


def remquo_quotient(x, y):
    """The integral quotient remquo's *quo stands for (x/y rounded to even), or None where
    the result is a NaN (and *quo must be 0)."""
    out = []
    for a, b in zip(x.astype(float), y.astype(float)):
        if math.isnan(a) or math.isnan(b) or math.isinf(a) or b == 0:
            out.append(None)
        elif math.isinf(b):
            out.append(0)
        else:
            r = math.remainder(a, b)
            out.append(int((Fraction(a) - Fraction(r)) / Fraction(b)))
    return out


def remquo_quotient_ok(got: int, want, x, y) -> bool:
    """remquo's *quo against the quotient remquo_quotient gives: 0 where the result is a
    NaN (7.5.1); else the sign of x/y and the integral quotient's low 7 bits (1.13.2)."""
    if want is None:
        return got == 0
    negative = np.signbit(x) != np.signbit(y)
    return abs(got) % 128 == abs(want) % 128 and (got == 0 or (got < 0) == negative)


def _minmax_mag(bigger):
    def fn(t, x, y):
        ax, ay = np.abs(x), np.abs(y)
        pick = np.fmax(x, y) if bigger else np.fmin(x, y)
        first = ax > ay if bigger else ax < ay
        second = ay > ax if bigger else ay < ax
        return np.where(first, x, np.where(second, y, pick)).astype(t.dtype)
    return fn


def _fract(t, x):
    with np.errstate(invalid="ignore"):
        fl = np.floor(x)
        below_one = np.nextafter(t.dtype(1), t.dtype(0))
        v = np.minimum(x - fl, below_one)
    v = np.where((x == 0) | np.isinf(x), np.copysign(t.dtype(0), x), v)
    return np.where(np.isnan(x), x, v).astype(t.dtype), fl


def _modf(t, x):
    ip = np.trunc(x)
    with np.errstate(invalid="ignore"):
        v = np.copysign(np.where(np.isinf(x), 0, x - ip), x).astype(t.dtype)
    return v, ip


def _frexp(t, x):
    with np.errstate(invalid="ignore"):
        m, e = np.frexp(x.astype(np.float64))
    e = np.where(np.isfinite(x), e, 0)
    return m.astype(t.dtype), e.astype(np.int32)


def _ilogb(t, x):
    with np.errstate(all="ignore"):
        _, e = np.frexp(x.astype(np.float64))
    e = (e - 1).astype(np.int64)
    e = np.where(x == 0, INT_MIN, np.where(np.isnan(x), INT_MIN,
                                           np.where(np.isinf(x), INT_MAX, e)))
    return e.astype(np.int32)


def _logb(t, x):
    with np.errstate(all="ignore"):
        e = _ilogb(t, x).astype(np.float64)
    e = np.where(x == 0, -np.inf, np.where(np.isinf(x), np.inf, np.where(np.isnan(x), np.nan, e)))
    return e.astype(t.dtype)


def _sqrt(t, x):
    with np.errstate(invalid="ignore"):
        if t.name == "half":    # float's 24 bits round the square root of a half innocuously
            return np.sqrt(x.astype(np.float32)).astype(np.float16)
        return np.sqrt(x)


EXACT = {
    "ceil": lambda t, x: np.ceil(x), "floor": lambda t, x: np.floor(x),
    "trunc": lambda t, x: np.trunc(x), "rint": lambda t, x: np.rint(x), "round": _round,
    "fabs": lambda t, x: np.abs(x), "copysign": lambda t, x, y: np.copysign(x, y),
    "fdim": _fdim, "fma": _fma, "fmax": lambda t, x, y: np.fmax(x, y),
    "fmin": lambda t, x, y: np.fmin(x, y), "fmod": lambda t, x, y: np.fmod(x, y),
    "ldexp": _ldexp, "logb": _logb, "ilogb": _ilogb, "maxmag": _minmax_mag(True),
    "minmag": _minmax_mag(False),
    # nextafter(x, y) is y where x == y (F.9.8.3: +0 to -0 gives -0; NumPy's half gives x)
    "nextafter": lambda t, x, y: np.where(x == y, y, np.nextafter(x, y)),
    "remainder": _remainder, "remquo": _remainder, "sqrt": _sqrt,
    "fract": _fract, "modf": _modf, "frexp": _frexp, "mad": _fma,
}
MAD_ALTERNATIVE = _mul_add


# ---- the special-value table -----------------------------------------------------------------
@dataclass(frozen=True)
class Special:
    function: str
    args: tuple           # Python numbers, exactly representable in the type
    exact: bool           # '=' (bit for bit) or '~' (within the bound)
    results: tuple        # '=': Python floats or ints; '~': mpmath values
    line: str


def _names(t: FloatType) -> dict:
    return {"inf": math.inf, "nan": math.nan, "max": t.max, "min": t.min, "sub": t.sub,
            "pi": math.pi, "abs": abs, "INT_MIN": INT_MIN, "INT_MAX": INT_MAX}


def _floats(expr: str) -> str:
    """Integer literals as floats, so that -0 is minus zero."""
    return re.sub(r"(?<![\w.])(\d+)(?![\w.])", r"\1.0", expr)


def _split(text: str) -> list[str]:
    return [s.strip() for s in text.split(",")]


def special_cases(t: FloatType, int_args: dict) -> dict[str, list[Special]]:
    """{function: [Special]} of the table for type t. ``int_args``: the positions of the
    int arguments of each function (pown's n...)."""
    out: dict[str, list[Special]] = {}
    for raw in SPECIAL.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        variants = [line]
        if "±" in line or "∓" in line:
            variants = [line.replace("±", "+").replace("∓", "-"),
                        line.replace("±", "-").replace("∓", "+")]
        for v in variants:
            m = re.fullmatch(r"(\w+)\((.*)\)\s*([=~])\s*(.*)", v)
            f, args, op, results = m.groups()
            ints = int_args.get(f, ())
            options = []
            for k, a in enumerate(_split(args)):
                vals = []
                for alt in a.split("|"):
                    val = eval(_floats(alt), {}, _names(t))
                    if k in ints:
                        vals.append(int(val))
                    elif float(t.dtype(val)) == val or math.isnan(val):
                        vals.append(float(val))
                    else:
                        vals = None              # not representable in t: not this type's
                        break
                if vals is None:
                    options = None
                    break
                options.append(vals)
            if options is None:
                continue
            for combo in product(*options):
                names = dict(_names(t), x=combo[0], y=combo[-1])
                if op == "=":
                    res = tuple(eval(_floats(r), {}, names) for r in _split(results))
                else:
                    mp_names = dict(names, pi=mpmath.pi)
                    res = tuple(eval(r, {}, mp_names) for r in _split(results))
                out.setdefault(f, []).append(Special(f, combo, op == "=", res, raw.strip()))
    return out
