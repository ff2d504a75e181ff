"""The accuracy the spec demands of the math builtins: the ULP bounds and the special values.

Bounds: section 2.4 of the seed spec, tables 36 (float) and 39 (double). half has no table in
the seed: its bounds are those of cl_khr_fp16 in OpenCL C 3.0 ("ULP values for half precision
built-in math functions"), which the seed's section 2 does not carry. EXACT stands for both
"0 ulp" and "correctly rounded": the result must be the reference rounded to the type, bit for
bit (NaNs equal whatever their payload). lgamma and lgamma_r have no bound (footnote 68),
native_* an implementation-defined one, mad on double "any value"; INF marks them.

Special values: C99 Annex F.9 (which section 2.5 makes the rule) and the additional
requirements of section 2.5.1, one line each, in the form

    function(arguments) = result[, second result]     exactly, the sign of zero included
    function(arguments) ~ result                      within the function's ulp bound

An argument may list alternatives with '|'; a '±' (and a '∓', the opposite sign) makes the
line stand for two, one with every '±' read as '+', one with every '±' read as '-'. Names:
inf, nan, max (the largest finite value), min (the smallest normal), sub (the smallest
subnormal), pi; in a result also x and y (the arguments) and INT_MIN, INT_MAX.
"""
from __future__ import annotations

import math

INF = math.inf
EXACT = 0

# function: (half, float, double) in ulp
BOUNDS = {
    "acos": (2, 4, 4), "acosh": (2, 4, 4), "acospi": (2, 5, 5), "asin": (2, 4, 4),
    "asinh": (2, 4, 4), "asinpi": (2, 5, 5), "atan": (2, 5, 5), "atanh": (2, 5, 5),
    "atanpi": (2, 5, 5), "atan2": (2, 6, 6), "atan2pi": (2, 6, 6), "cbrt": (2, 2, 2),
    "ceil": (EXACT,) * 3, "copysign": (EXACT,) * 3, "cos": (2, 4, 4), "cosh": (2, 4, 4),
    "cospi": (2, 4, 4), "erfc": (4, 16, 16), "erf": (4, 16, 16), "exp": (2, 3, 3),
    "exp2": (2, 3, 3), "exp10": (2, 3, 3), "expm1": (2, 3, 3), "fabs": (EXACT,) * 3,
    "fdim": (EXACT,) * 3, "floor": (EXACT,) * 3, "fma": (EXACT,) * 3, "fmax": (EXACT,) * 3,
    "fmin": (EXACT,) * 3, "fmod": (EXACT,) * 3, "fract": (EXACT,) * 3, "frexp": (EXACT,) * 3,
    "hypot": (2, 4, 4), "ilogb": (EXACT,) * 3, "ldexp": (EXACT,) * 3, "lgamma": (INF,) * 3,
    "lgamma_r": (INF,) * 3, "log": (2, 3, 3), "log2": (2, 3, 3), "log10": (2, 3, 3),
    "log1p": (2, 2, 2), "logb": (EXACT,) * 3,
    # mad: a correctly rounded fma, or a correctly rounded multiply and add (checked as
    # such); on double any value
    "mad": (EXACT, EXACT, INF),
    "maxmag": (EXACT,) * 3, "minmag": (EXACT,) * 3, "modf": (EXACT,) * 3, "nan": (EXACT,) * 3,
    "nextafter": (EXACT,) * 3, "pow": (4, 16, 16), "pown": (4, 16, 16), "powr": (4, 16, 16),
    "remainder": (EXACT,) * 3, "remquo": (EXACT,) * 3, "rint": (EXACT,) * 3,
    "rootn": (4, 16, 16), "round": (EXACT,) * 3, "rsqrt": (1, 2, 2), "sin": (2, 4, 4),
    "sincos": (2, 4, 4), "sinh": (2, 4, 4), "sinpi": (2, 4, 4),
    # sqrt: float 3 ulp, double (and half under cl_khr_fp16) correctly rounded
    "sqrt": (EXACT, 3, EXACT),
    "tan": (2, 5, 5), "tanh": (2, 5, 5), "tanpi": (2, 6, 6), "tgamma": (4, 16, 16),
    "trunc": (EXACT,) * 3,
}
# half_* (float only): 8192 ulp; native_*: implementation-defined (INF: only checked sane)
HALF_FUNCS = ("cos", "divide", "exp", "exp2", "exp10", "log", "log2", "log10", "powr", "recip",
              "rsqrt", "sin", "sqrt", "tan")
for _f in HALF_FUNCS:
    BOUNDS[f"half_{_f}"] = (None, 8192, None)
    BOUNDS[f"native_{_f}"] = (None, INF, None)

TYPES = ("half", "float", "double")


def bound(function: str, t: str):
    return BOUNDS[function][TYPES.index(t)]


# C99 F.9 and spec 2.5.1. A '#' starts a comment.
SPECIAL = """
# F.9.1 trigonometric functions
acos(1) = +0
acos(±1.5|±inf|±max) = nan
asin(±0) = ±0
asin(±1.5|±inf) = nan
atan(±0) = ±0
atan(±inf) ~ ±pi/2
atan2(±0, -0) ~ ±pi
atan2(±0, +0) = ±0
atan2(±0, -sub|-1|-max|-inf) ~ ±pi
atan2(±0, sub|1|max|inf) = ±0
atan2(-sub|-1|-max|-inf, ±0) ~ -pi/2
atan2(sub|1|max|inf, ±0) ~ pi/2
atan2(±sub|±1|±max, -inf) ~ ±pi
atan2(±sub|±1|±max, inf) = ±0
atan2(±inf, -max|-1|-0|0|1|max) ~ ±pi/2
atan2(±inf, -inf) ~ ±3*pi/4
atan2(±inf, inf) ~ ±pi/4
cos(±0) = 1
cos(±inf) = nan
sin(±0) = ±0
sin(±inf) = nan
tan(±0) = ±0
tan(±inf) = nan
sincos(±0) = ±0, 1
sincos(±inf) = nan, nan
# F.9.2 hyperbolic functions
acosh(1) = +0
acosh(0.5|0|-1|-inf) = nan
acosh(inf) = inf
asinh(±0) = ±0
asinh(±inf) = ±inf
atanh(±0) = ±0
atanh(±1) = ±inf
atanh(±1.5|±inf) = nan
cosh(±0) = 1
cosh(±inf) = inf
sinh(±0) = ±0
sinh(±inf) = ±inf
tanh(±0) = ±0
tanh(±inf) = ±1
# F.9.3 exponential and logarithmic functions
exp(±0) = 1
exp(-inf) = +0
exp(inf) = inf
exp2(±0) = 1
exp2(-inf) = +0
exp2(inf) = inf
expm1(±0) = ±0
expm1(inf) = inf
expm1(-inf) = -1
frexp(±0) = ±0, 0
ilogb(±inf) = INT_MAX
ldexp(±0, 1|-1|0|1000) = ±0
ldexp(±inf, 1|-1|0) = ±inf
ldexp(±sub|±1|±max, 0) = x
log(±0) = -inf
log(1) = +0
log(-sub|-1|-inf) = nan
log(inf) = inf
log2(±0) = -inf
log2(1) = +0
log2(-sub|-1|-inf) = nan
log2(inf) = inf
log10(±0) = -inf
log10(1) = +0
log10(-sub|-1|-inf) = nan
log10(inf) = inf
log1p(±0) = ±0
log1p(-1) = -inf
log1p(-1.5|-inf) = nan
log1p(inf) = inf
logb(±0) = -inf
logb(±inf) = inf
modf(±inf) = ±0, ±inf
modf(nan) = nan, nan
# F.9.4 power and absolute value functions
cbrt(±0) = ±0
cbrt(±inf) = ±inf
fabs(±0) = +0
fabs(±inf) = inf
hypot(±inf, nan|0|1|-inf|max) = inf
hypot(nan|0|-1|inf|max, ±inf) = inf
hypot(±sub|±1|±max, ±0) = abs(x)
pow(±0, -3|-1) = ±inf
pow(±0, -2|-0.5|-max) = inf
pow(±0, 3|1) = ±0
pow(±0, 2|0.5|max) = +0
pow(-1, ±inf) = 1
pow(1, 0|-0|2|-max|inf|-inf|nan) = 1
pow(0|-0|1|-1|inf|-inf|nan|sub, ±0) = 1
pow(-1|-2|-sub|-max, 0.5|-1.5) = nan
pow(±0.5|±sub, -inf) = inf
pow(±2|±max, -inf) = +0
pow(±0.5|±sub, inf) = +0
pow(±2|±max, inf) = inf
pow(-inf, -3|-1) = -0
pow(-inf, -2|-0.5|-max) = +0
pow(-inf, 3|1) = -inf
pow(-inf, 2|0.5|max) = inf
pow(inf, -sub|-1|-inf) = +0
pow(inf, sub|1|inf) = inf
pow(±0, -inf) = inf
sqrt(±0) = ±0
sqrt(-sub|-1|-inf) = nan
sqrt(inf) = inf
# rsqrt is 1 / sqrt (IEEE's sqrt and division): C99 has none
rsqrt(±0) = ±inf
rsqrt(-sub|-1|-inf) = nan
rsqrt(inf) = +0
# F.9.5 error and gamma functions
erf(±0) = ±0
erf(±inf) = ±1
erfc(-inf) = 2
erfc(inf) = +0
lgamma(1|2) = +0
lgamma(±0|-1|-2|-max) = inf
lgamma(±inf) = inf
tgamma(±0) = ±inf
tgamma(-1|-2|-max) = nan
tgamma(-inf) = nan
tgamma(inf) = inf
# F.9.6 nearest integer functions
ceil(±0) = ±0
ceil(±inf) = ±inf
floor(±0) = ±0
floor(±inf) = ±inf
rint(±0) = ±0
rint(±inf) = ±inf
round(±0) = ±0
round(±inf) = ±inf
trunc(±0) = ±0
trunc(±inf) = ±inf
# F.9.7 remainder functions
fmod(±0, 1|-1|inf|sub) = ±0
fmod(±inf|nan, 1) = nan
fmod(1, ±0|nan) = nan
fmod(±1|±max|±sub, ±inf) = x
remainder(±inf|nan, 1) = nan
remainder(1|nan, ±0) = nan
remainder(±1|±max|±sub, ±inf) = x
remquo(±inf|nan, 1) = nan, 0
remquo(1|nan|0, ±0) = nan, 0
remquo(1, nan) = nan, 0
# F.9.8 manipulation functions
copysign(1|inf|nan|0, ±0) = ±abs(x)
nextafter(±0, ∓0) = ∓0
nextafter(nan, 1) = nan
nextafter(1, nan) = nan
nextafter(±max, ±inf) = ±inf
# F.9.9 maximum, minimum and positive difference functions
fdim(±inf, ±inf) = +0
fdim(inf, -inf) = inf
fmax(nan, ±1|±inf) = y
fmax(±1|±inf, nan) = x
fmin(nan, ±1|±inf) = y
fmin(±1|±inf, nan) = x
# F.9.10 fma
fma(±inf, 0|-0, 1) = nan
fma(0|-0, ±inf, 1) = nan
fma(inf, 1, -inf) = nan
# section 2.5.1: additional requirements beyond C99 TC2
acospi(1) = +0
acospi(±1.5|±inf) = nan
asinpi(±0) = ±0
asinpi(±1.5|±inf) = nan
atanpi(±0) = ±0
atanpi(±inf) = ±0.5
atan2pi(±0, -0) = ±1
atan2pi(±0, +0) = ±0
atan2pi(±0, -sub|-1|-max|-inf) = ±1
atan2pi(±0, sub|1|max|inf) = ±0
atan2pi(-sub|-1|-max|-inf, ±0) = -0.5
atan2pi(sub|1|max|inf, ±0) = 0.5
atan2pi(±sub|±1|±max, -inf) = ±1
atan2pi(±sub|±1|±max, inf) = ±0
atan2pi(±inf, -max|-1|-0|0|1|max) = ±0.5
atan2pi(±inf, -inf) = ±0.75
atan2pi(±inf, inf) = ±0.25
ceil(-0.5|-sub|-0.75) = -0
cospi(±0) = 1
cospi(±0.5|±1.5|±2.5|±1024.5) = +0
cospi(±inf) = nan
exp10(-inf) = +0
exp10(inf) = inf
fdim(1|nan|inf, nan) = nan
fdim(nan, 1|inf) = nan
fmod(±0, nan) = nan
frexp(±inf) = ±inf, 0
frexp(nan) = nan, 0
fract(+0) = +0, +0
fract(-0) = -0, -0
fract(inf) = +0, inf
fract(-inf) = -0, -inf
fract(nan) = nan, nan
lgamma_r(±0|-1|-2|-max) = inf, 0
nextafter(-0, sub|1|inf) = sub
nextafter(+0, -sub|-1|-inf) = -sub
pow(±0, -inf) = inf
pown(0|-0|1|-1|inf|-inf|nan|sub|max, 0) = 1
pown(±0, -1|-3) = ±inf
pown(±0, -2|-4) = inf
pown(±0, 2|4) = +0
pown(±0, 1|3) = ±0
powr(0.5|1|2|max|sub, ±0) = 1
powr(±0, -1|-0.5|-max) = inf
powr(±0, -inf) = inf
powr(±0, 1|0.5|max|inf) = +0
powr(1, -1|0.5|max|-max|0|-0) = 1
powr(-1|-sub|-inf|-max, 1|0.5|2|0) = nan
powr(±0, ±0) = nan
powr(inf, ±0) = nan
powr(1, ±inf) = nan
powr(0|1|2|inf, nan) = nan
powr(nan, 1|0|-1) = nan
rint(-0.5|-sub|-0.25) = -0
remquo(±inf, 1) = nan, 0
rootn(±0, -1|-3) = ±inf
rootn(±0, -2|-4) = inf
rootn(±0, 2|4) = +0
rootn(±0, 1|3) = ±0
rootn(-1|-sub|-max|-inf, 2|4|-2) = nan
rootn(0|1|-1|inf|nan, 0) = nan
round(-0.25|-sub|-0.4375) = -0
sinpi(±0) = ±0
sinpi(1|2|7|1024) = +0
sinpi(-1|-2|-7|-1024) = -0
sinpi(±inf) = nan
tanpi(±0) = ±0
tanpi(±inf) = nan
tanpi(±2|±4|±1024) = ±0
tanpi(±1|±3|±1025) = ∓0
tanpi(0.5|2.5|-1.5|1024.5) = inf
tanpi(1.5|-0.5|3.5|-1024.5) = -inf
trunc(-0.5|-sub|-0.75) = -0
"""
# the half_ forms keep the edge cases of their full-precision functions (spec 2.5.1);
# recip and divide are IEEE division's
SPECIAL += "".join(line.replace(f, "half_" + f, 1) + "\n"
                   for line in SPECIAL.splitlines()
                   for f in HALF_FUNCS if line.startswith(f + "("))
SPECIAL += """
half_recip(±0) = ±inf
half_recip(±inf) = ±0
half_divide(±1, ±0) = inf
half_divide(±1, ∓0) = -inf
half_divide(±0, ±0) = nan
half_divide(±0, 1|inf) = ±0
"""
