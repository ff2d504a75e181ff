"""Random arguments for the ULP harness: per function, where its results are interesting.

Every sample mixes random bit patterns (every exponent, subnormals included), magnitudes
uniform in the exponent, and the function's own region: [-1, 1] for asin, the range where
exp neither overflows nor underflows entirely, near-integers and near-half-integers for the
*pi functions, tgamma and the rounding functions, near-multiples of pi/2 for the
trigonometric functions, quotients with wide exponent gaps for fmod and remquo. The
special values of the spec are added by the harness from ulp_bounds.SPECIAL; the random
arguments are finite.
"""
from __future__ import annotations

import math

import numpy as np

from ulp_reference import FloatType


class Sampler:
    def __init__(self, t: FloatType, rng: np.random.Generator):
        self.t, self.r = t, rng

    def cast(self, v) -> np.ndarray:
        with np.errstate(over="ignore"):
            a = np.asarray(v, np.float64).astype(self.t.dtype)
        return np.where(np.isfinite(a), a, self.t.dtype(1)).astype(self.t.dtype)

    def bits(self, k, positive=False) -> np.ndarray:
        """Uniform bit patterns, finite ones only."""
        size = np.dtype(self.t.dtype).itemsize
        a = self.r.integers(0, 256, k * size, dtype=np.uint8).view(self.t.dtype).copy()
        a = np.where(np.isfinite(a), a, self.t.dtype(0.5))
        return np.abs(a) if positive else a

    def logu(self, k, lo, hi, sign=True) -> np.ndarray:
        """2^u, u uniform in [lo, hi], with a random sign unless sign is False."""
        lo = max(lo, self.t.emin - self.t.p + 1)
        hi = min(hi, self.t.emax + 0.999)
        v = np.exp2(self.r.uniform(lo, hi, k))
        if sign:
            v *= self.r.choice([-1.0, 1.0], k)
        return self.cast(v)

    def unif(self, k, a, b) -> np.ndarray:
        return self.cast(self.r.uniform(a, b, k))

    def near(self, k, centres) -> np.ndarray:
        """Values within a few ulps of the given centres (rounded to the type)."""
        c = self.cast(self.r.choice(np.asarray(centres, np.float64), k))
        steps = self.r.integers(-3, 4, k)
        out = c.copy()
        for s in range(1, 4):
            out = np.where(steps >= s, np.nextafter(out, self.t.dtype(np.inf)), out)
            out = np.where(-steps >= s, np.nextafter(out, self.t.dtype(-np.inf)), out)
        return out.astype(self.t.dtype)

    def ints(self, k, lo, hi) -> np.ndarray:
        return self.r.integers(lo, hi + 1, k).astype(np.int32)

    def mix(self, k, parts) -> np.ndarray:
        """k values from (weight, function of a count) parts, shuffled."""
        total = sum(w for w, _ in parts)
        counts = [int(k * w / total) for w, _ in parts]
        counts[0] += k - sum(counts)
        return self.r.permutation(self.cast(np.concatenate(
            [np.asarray(g(c), np.float64) for c, (_, g) in zip(counts, parts) if c > 0])))


def sample(f: str, t: FloatType, k: int, r: np.random.Generator) -> tuple:
    """k argument tuples for function f (a base name: cos for native_cos) of type t."""
    s = Sampler(t, r)
    p, emin, emax = t.p, t.emin, t.emax
    ln2 = math.log(2)
    wide = [(2, s.bits), (2, lambda n: s.logu(n, emin - p, emax + 1)),
            (1, lambda n: s.unif(n, -10, 10))]
    pos = [(2, lambda n: s.bits(n, True)), (2, lambda n: s.logu(n, emin - p, emax + 1, False)),
           (1, lambda n: s.unif(n, 0, 4))]
    ints_near = [(2, lambda n: s.near(n, np.arange(-64, 65) / 2)),
                 (1, lambda n: s.near(n, np.exp2(np.arange(p - 3, p + 3)) + 0.5))]
    one = lambda parts: (s.mix(k, parts),)           # noqa: E731

    if f in ("acos", "asin", "acospi", "asinpi", "atanh"):
        return one([(3, lambda n: s.unif(n, -1, 1)), (1, lambda n: s.logu(n, emin - p, 0)),
                    (1, lambda n: s.near(n, [-1, 1, -0.5, 0.5])), (1, s.bits)])
    if f == "acosh":
        return one([(2, lambda n: s.logu(n, 0, emax + 1, False)),
                    (2, lambda n: 1 + s.logu(n, -p - 2, 0, False).astype(np.float64)),
                    (1, s.bits)])
    if f in ("log", "log2", "log10", "rsqrt", "sqrt", "recip"):
        return one(pos + [(2, lambda n: s.unif(n, 0.5, 2)),
                          (1, lambda n: s.near(n, [1, 2, 0.5, 10, 0.1]))])
    if f == "log1p":
        return one([(2, lambda n: s.unif(n, -1, 1)), (2, lambda n: s.logu(n, emin - p, emax, False)),
                    (1, lambda n: -s.logu(n, emin - p, 0, False)), (1, s.bits)])
    if f in ("exp", "exp2", "exp10", "expm1", "sinh", "cosh"):
        scale = {"exp": ln2, "expm1": ln2, "sinh": ln2, "cosh": ln2, "exp2": 1.0,
                 "exp10": 1 / math.log2(10)}[f]
        lo, hi = (emin - p - 1) * scale, (emax + 1) * scale
        if f in ("sinh", "cosh"):
            lo = -hi
        return one([(3, lambda n: s.unif(n, lo * 1.02, hi * 1.02)),
                    (1, lambda n: s.logu(n, emin - p, 2)), (1, lambda n: s.unif(n, -2, 2))])
    if f in ("tanh", "erf", "atan", "asinh", "atanpi", "cbrt"):
        return one(wide + [(3, lambda n: s.unif(n, -6, 6))])
    if f == "erfc":
        top = {"half": 4.2, "float": 10.2, "double": 27.3}[t.name]
        return one([(4, lambda n: s.unif(n, -6, top)), (1, s.bits),
                    (1, lambda n: s.logu(n, emin - p, 2))])
    if f in ("sin", "cos", "tan", "sincos"):
        # near multiples of pi/2 (the hard cases of the argument reduction)
        m = np.concatenate([np.arange(1, 64), r.integers(1, 2 ** min(p, 30), 64)])
        cut = 2.0 ** 16 if t.name == "half" else np.inf
        return one(wide + [(2, lambda n: s.unif(n, -8, 8)),
                           (2, lambda n: s.near(n, (m * np.pi / 2)[m * np.pi / 2 < cut]))])
    if f in ("sinpi", "cospi", "tanpi"):
        quarters = np.arange(-40, 41) / 4
        big = np.exp2(np.arange(p - 4, p + 2))
        return one(wide + [(2, lambda n: s.near(n, quarters)),
                           (1, lambda n: s.near(n, np.concatenate([big, big + 0.5, -big - 0.5]))),
                           (2, lambda n: s.unif(n, -4, 4))])
    if f in ("tgamma", "lgamma", "lgamma_r"):
        top = {"half": 9.5, "float": 35.5, "double": 171.7}[t.name]
        parts = [(3, lambda n: s.unif(n, -top, top)), (1, lambda n: s.near(n, np.arange(-30, 3))),
                 (1, lambda n: s.logu(n, emin - p, 0))]
        if f != "tgamma":
            parts += [(1, lambda n: s.logu(n, 0, emax + 1, False)),
                      (1, lambda n: s.near(n, [1, 2, -2.4570247, -2.7476826]))]
        return one(parts)
    if f in ("ceil", "floor", "trunc", "rint", "round", "fract", "modf", "fabs"):
        return one(wide + ints_near + [(1, lambda n: s.logu(n, emin - p, 0))])
    if f in ("frexp", "ilogb", "logb"):
        return one([(3, s.bits), (1, lambda n: s.logu(n, emin - p, emin))] + wide)
    if f in ("atan2", "atan2pi", "hypot", "copysign", "fdim", "fmax", "fmin", "maxmag",
             "minmag", "nextafter", "divide"):
        x = s.mix(k, wide)
        y = s.mix(k, wide)
        pick = r.random(k)
        y = np.where(pick < 0.15, -x, np.where(pick < 0.3, x, y))          # equal magnitudes
        y = np.where((pick > 0.3) & (pick < 0.45), s.cast(x * r.uniform(-2, 2, k)), y)
        return x, y.astype(t.dtype)
    if f in ("fmod", "remainder", "remquo"):
        x = s.mix(k, wide)
        y = s.mix(k, [(1, lambda n: s.logu(n, emin - p, 4)), (2, lambda n: s.unif(n, -8, 8))]
                  + wide)
        pick = r.random(k)
        x = np.where(pick < 0.2, s.cast(y * r.integers(-40, 40, k) + y / 2), x)
        # remquo's 7 quotient bits: ties of quotients past 128 (x = (q + 1/2) y, exact for
        # y of 2 bits), the widest ratios (subnormal y), signed zeros
        short_y = s.cast(r.choice([-3.0, -2, -1, 1, 2, 3], k)
                         * np.exp2(r.integers(emin - p + 2, emax - p, k)))
        tie = s.cast(short_y * (r.integers(-2 ** (p - 3), 2 ** (p - 3), k) + 0.5))
        x = np.where((pick >= 0.2) & (pick < 0.35), tie, x)
        y = np.where((pick >= 0.2) & (pick < 0.35), short_y, y)
        x = np.where((pick >= 0.35) & (pick < 0.45), s.logu(k, emax - p, emax + 1), x)
        y = np.where((pick >= 0.35) & (pick < 0.45), s.logu(k, emin - p, emin + p), y)
        x = np.where((pick >= 0.45) & (pick < 0.5), r.choice([-0.0, 0.0], k), x)
        return x.astype(t.dtype), y.astype(t.dtype)
    if f in ("fma", "mad"):
        x, y, z = s.mix(k, wide), s.mix(k, wide), s.mix(k, wide)
        pick = r.random(k)
        with np.errstate(all="ignore"):
            prod = s.cast(x.astype(np.float64) * y)
        z = np.where(pick < 0.3, -prod, z)              # cancellation
        z = np.where((pick > 0.3) & (pick < 0.4), s.cast(-prod * (1 + 2.0 ** -p)), z)
        return x, y, z.astype(t.dtype)
    if f in ("pow", "powr"):
        x = s.logu(k, -emax / 2, emax / 2, sign=False)
        lg = np.maximum(np.abs(np.log2(x.astype(np.float64))), 1)
        y = s.cast(r.uniform(-1.05, 1.05, k) * (emax + p) / lg)
        pick = r.random(k)
        y = np.where(pick < 0.2, s.unif(k, -10, 10), y)
        x = np.where(pick > 0.9, s.bits(k, True), x)
        if f == "pow":
            neg = pick < 0.25
            x = np.where(neg, -s.unif(k, 0.25, 4), x)
            y = np.where(neg, s.cast(r.integers(-40, 41, k)), y)
        return x.astype(t.dtype), y.astype(t.dtype)
    if f == "pown":
        x = s.mix(k, [(2, lambda n: s.unif(n, -3, 3)), (1, lambda n: s.logu(n, -8, 8)),
                      (1, lambda n: s.near(n, [-1, 1]))])
        n = s.ints(k, -60, 60)
        n = np.where(r.random(k) < 0.1, s.ints(k, -2 ** 30, 2 ** 30), n)
        return x, n
    if f == "rootn":
        x = s.mix(k, wide)
        n = s.ints(k, -20, 20)
        n = np.where(n == 0, 3, n)
        n = np.where(r.random(k) < 0.1, s.ints(k, -2 ** 30, 2 ** 30) | 1, n)
        return x, n.astype(np.int32)
    if f == "ldexp":
        x = s.mix(k, wide)
        span = emax - emin + p + 4
        n = s.ints(k, -span, span)
        n = np.where(r.random(k) < 0.05, r.choice([-2 ** 31, 2 ** 31 - 1, 2 ** 30, -2 ** 30], k),
                     n)
        return x, n.astype(np.int32)
    if f == "nan":
        bits = {"half": np.uint16, "float": np.uint32, "double": np.uint64}[t.name]
        return (r.integers(0, np.iinfo(bits).max, k, dtype=bits, endpoint=True),)
    return one(wide)
