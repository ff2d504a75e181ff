/* Math functions (spec 6.12.2) for float and double, within the spec's ULP
 * bounds (section 7.4). Vector forms are instantiated on demand through the
 * CL2C_VEC_MAP* macros at the end. */
#ifndef CL2C_MATH_H
#define CL2C_MATH_H

#include <math.h>
#include "vectors.h"

#define CL2C_PI 3.14159265358979323846

/* Float functions that vectorise: in a work-item loop the compiler vectorises, a float
 * function runs as glibc's libmvec double function (x86-64, glibc 2.35+) on the value
 * widened to double, and rounds once to float. The double functions are within 4 ulp of
 * double, so the float results are within 0.5 ulp and a hair: inside every bound of the
 * spec, where libmvec's own float functions are not (logf: 3.35 ulp near 1, bound 3).
 * Taken where cl2c builds the C (CL2C_VECTOR_MATH, linked with -lm, which brings libmvec
 * in as needed). The vector forms are reached under other names (asm labels), so that
 * the double builtins keep the C library's scalar functions and their accuracy. */
#if defined(CL2C_VECTOR_MATH) && defined(_OPENMP) && defined(__x86_64__) && \
    defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35))
/* const, as the C library's own are under -fno-math-errno: a call then does not stop
 * the if-conversion of the loop around it */
#define CL2C_VECTOR_DOUBLE(F) _Pragma("omp declare simd notinbranch") \
    double cl2c_v##F(double) __asm__(#F) __attribute__((const));
CL2C_VECTOR_DOUBLE(acos) CL2C_VECTOR_DOUBLE(acosh) CL2C_VECTOR_DOUBLE(asin)
CL2C_VECTOR_DOUBLE(asinh) CL2C_VECTOR_DOUBLE(atan) CL2C_VECTOR_DOUBLE(atanh)
CL2C_VECTOR_DOUBLE(cbrt) CL2C_VECTOR_DOUBLE(cos) CL2C_VECTOR_DOUBLE(cosh)
CL2C_VECTOR_DOUBLE(erf) CL2C_VECTOR_DOUBLE(erfc) CL2C_VECTOR_DOUBLE(expm1)
CL2C_VECTOR_DOUBLE(log1p) CL2C_VECTOR_DOUBLE(sin) CL2C_VECTOR_DOUBLE(sinh)
CL2C_VECTOR_DOUBLE(tan) CL2C_VECTOR_DOUBLE(tanh)
#undef CL2C_VECTOR_DOUBLE
#define CL2C_VECTOR_MATH_ON 1
#define CL2C_VF(F, x) ((float)cl2c_v##F((double)(x)))
#else
#define CL2C_VF(F, x) F##f(x)
#endif

/* Float exp, exp2, exp10, log, log2 and log10 of cl2c's own: float arithmetic and integer
 * operations on the bits, no calls, no tables, special cases as selects, so that a
 * work-item loop vectorises them 16 lanes wide (AVX-512), where libmvec's double functions
 * on widened values run 8 wide. They need no fma (cl2c builds with -std=c11, contraction
 * off): range reduction a la Cody-Waite with products exact by splitting factors into
 * 12-bit halves, the leading sums exact by Fast2Sum, so that a result has one rounding
 * of note; over all 2^32 inputs (bench/exhaustive_ulp.py) each is within 0.86 ulp (the
 * spec allows 3). Where the CPU has fma (CL2C_FAST_FMA), exp's polynomial and log's
 * (no division) are cheaper, Horner in fma: exp, exp2, exp10 and log within 1 ulp, log2
 * 1.30, log10 1.22; exp 0.20 -> 0.15 ns and log 0.26 -> 0.20 ns an element on a Zen 5
 * core, vectorised (libmvec's float functions: 0.17). */
CL2C_INLINE uint32_t cl2c_fbits_(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }
CL2C_INLINE float cl2c_bitsf_(uint32_t u) { float x; memcpy(&x, &u, 4); return x; }
/* x's leading 12 bits (exact: x minus it; its product with another such, too) */
CL2C_INLINE float cl2c_head12_(float x) { return cl2c_bitsf_(cl2c_fbits_(x) & 0xfffff000u); }
/* c ? a : b on the bits. Not ?: : GCC makes that a branch and sinks the computation of
 * the value it selects into it, and under -ftrapping-math (cl2c's) it does not
 * if-convert a branch that holds a floating-point operation (a trap), so the loop around
 * does not vectorise. */
CL2C_INLINE float cl2c_selectf_(int c, float a, float b) {
    uint32_t m = -(uint32_t)c;
    return cl2c_bitsf_((cl2c_fbits_(a) & m) | (cl2c_fbits_(b) & ~m));
}
/* a b + c, one instruction where the CPU has fma (-march=native), which halves the
 * polynomials' cost; a multiplication and an addition elsewhere (fmaf would be a call).
 * Only where either is accurate enough: the exact steps are written out. */
#if defined(__FP_FAST_FMAF) || defined(__FMA__) || defined(__ARM_FEATURE_FMA)
#define CL2C_FAST_FMA 1      /* (clang defines no __FP_FAST_FMAF) */
#define CL2C_MADF_(a, b, c) fmaf(a, b, c)
#else
#define CL2C_MADF_(a, b, c) ((a) * (b) + (c))
#endif
/* ln 2 as 0x1.62e4p-1 (16 bits: k ln2_hi is exact for |k| < 256) plus the rest */
#define CL2C_LN2F_HI 0x1.62e4p-1f
#define CL2C_LN2F_LO 0x1.7f7d1cp-20f
#ifndef CL2C_FAST_FMA
/* (e^r - 1 - r) / r^2 for |r| <= ln2/2, near-minimax (mpmath's chebyfit): 1.4e-9 */
CL2C_INLINE float cl2c_exp_q_(float r) {
    float q = 0x1.a124eep-13f;
    q = CL2C_MADF_(q, r, 0x1.6d432p-10f);
    q = CL2C_MADF_(q, r, 0x1.1110ep-7f);
    q = CL2C_MADF_(q, r, 0x1.5554eap-5f);
    q = CL2C_MADF_(q, r, 0x1.555556p-3f);
    return CL2C_MADF_(q, r, 0x1p-1f);
}
#endif
/* round(y) as an integer in two's complement (*kb) and as a float: adding 1.5 2^23 rounds
 * to an integer, in the low bits. k from the bits, not as t - shift, which
 * -fassociative-math would fold to y. */
CL2C_INLINE float cl2c_round_k_(float y, uint32_t *kb) {
    const float shift = 0x1.8p23f;
    *kb = cl2c_fbits_(y + shift) - cl2c_fbits_(shift);
    return (float)(int32_t)*kb;
}
/* p 2^k, k in [-150, 128]: by two factors, so that the one rounding is the last
 * multiplication's, into the subnormals too */
CL2C_INLINE float cl2c_exp_scale_(float p, uint32_t kb) {
    uint32_t ku = kb + 256, k1 = ku >> 1;               /* floor(k / 2) + 128 */
    return p * cl2c_bitsf_((k1 - 1) << 23) * cl2c_bitsf_((ku - k1 - 1) << 23);
}
#ifdef CL2C_FAST_FMA
/* With fma, e^(hi + lo) 2^k by a polynomial of degree 6 in r = hi + lo (near-minimax of
 * (e^r - 1) / r by mpmath's chebyfit, 1.1e-8), Horner in fma: within 1 ulp over all
 * inputs (bench/exhaustive_ulp.py), two thirds of the exact form's cost below. */
CL2C_INLINE float cl2c_exp_tail_(float hi, float lo, uint32_t kb) {
    float r = hi + lo, p = 0x1.6d434ep-10f;
    p = fmaf(p, r, 0x1.123dbap-7f);
    p = fmaf(p, r, 0x1.5554e8p-5f);
    p = fmaf(p, r, 0x1.55547cp-3f);
    p = fmaf(p, r, 0x1p-1f);
    p = fmaf(p, r, 1.0f);
    return cl2c_exp_scale_(fmaf(p, r, 1.0f), kb);
}
#else
/* e^(hi + lo) 2^k for |hi + lo| <= ln2/2 (a hair more), k in [-150, 128], lo small:
 * 1 + hi = s + e exactly (Fast2Sum), the rest added to e. */
CL2C_INLINE float cl2c_exp_tail_(float hi, float lo, uint32_t kb) {
    float r = hi + lo;
    float s = 1.0f + hi, e = (1.0f - s) + hi;
    return cl2c_exp_scale_(s + (e + CL2C_MADF_(r * r, cl2c_exp_q_(r), lo)), kb);
}
#endif
/* Where the result overflows or rounds to +0 (past that k is garbage, not x clamped
 * before: GCC threads the clamped path into constants, and keeps their overflowing
 * product as a branch). NaN: y is NaN already. */
CL2C_INLINE float cl2c_exp_range_(float x, float y, float over, float under) {
    return cl2c_selectf_(x < under, 0.0f, cl2c_selectf_(x > over, INFINITY, y));
}
CL2C_INLINE float cl2c_exp_float(float x) {
    uint32_t kb;
    float k = cl2c_round_k_(x * 0x1.715476p0f, &kb);   /* x / ln2 */
    float y = cl2c_exp_tail_(x - k * CL2C_LN2F_HI, k * -CL2C_LN2F_LO, kb);   /* Sterbenz */
    return cl2c_exp_range_(x, y, 89.0f, -104.0f);
}
CL2C_INLINE float cl2c_exp2_float(float x) {
    uint32_t kb;
    float k = cl2c_round_k_(x, &kb);
    float u = x - k, uh = cl2c_head12_(u);             /* exact */
    /* ln2 = 0x1.62ep-1 + 0x1.0bfbe8p-15 */
    float y = cl2c_exp_tail_(uh * 0x1.62ep-1f, uh * 0x1.0bfbe8p-15f + (u - uh) * 0x1.62e43p-1f,
                             kb);
    return cl2c_exp_range_(x, y, 128.0f, -150.0f);
}
CL2C_INLINE float cl2c_exp10_float(float x) {
    uint32_t kb;
    float k = cl2c_round_k_(x * 0x1.a934fp1f, &kb);     /* x log2(10) */
    float xh = cl2c_head12_(x);
    /* ln10 = 0x1.26ap1 + 0x1.b1bbb6p-11: x ln10 - k ln2 with the large products exact */
    float hi = xh * 0x1.26ap1f - k * CL2C_LN2F_HI;
    float lo = xh * 0x1.b1bbb6p-11f + (x - xh) * 0x1.26bb1cp1f - k * CL2C_LN2F_LO;
    return cl2c_exp_range_(x, cl2c_exp_tail_(hi, lo, kb), 38.65f, -45.25f);
}

#ifdef CL2C_FAST_FMA
/* With fma: x = m 2^e, m in [2/3, 4/3), f = m - 1 (exact): log(1 + f) = f + f^2 P(f),
 * P near-minimax of degree 8 (mpmath's chebyfit, 3.3e-8), Horner in fma. No division,
 * which costs a third of the form below. Returns e; log(1 + f) = *hi + *lo, *hi = f.
 * For x > 0 finite. */
CL2C_INLINE float cl2c_log_parts_(float x, float *hi, float *lo) {
    int sub = x < 0x1p-126f;                 /* subnormal (<= 0 is replaced at the end) */
    /* 2/3's bits subtracted */
    uint32_t d = cl2c_fbits_(cl2c_selectf_(sub, x * 0x1p23f, x)) - 0x3f2aaaabu;
    float f = cl2c_bitsf_((d & 0x007fffffu) + 0x3f2aaaabu) - 1.0f;   /* exact */
    float p = -0x1.fcdbfep-4f;
    p = fmaf(p, f, 0x1.199722p-3f);
    p = fmaf(p, f, -0x1.f756a2p-4f);
    p = fmaf(p, f, 0x1.1fdbe0p-3f);
    p = fmaf(p, f, -0x1.55783ep-3f);
    p = fmaf(p, f, 0x1.99bf94p-3f);
    p = fmaf(p, f, -0x1.ffffb4p-3f);
    p = fmaf(p, f, 0x1.55552cp-2f);
    p = fmaf(p, f, -0x1p-1f);
    *hi = f;
    *lo = f * f * p;
    return (float)(((int32_t)d >> 23) - (-sub & 23));
}
#else
/* x = m 2^e, m in [sqrt(1/2), sqrt(2)), f = m - 1, s = f / (2 + f): log(1 + f) =
 * 2 atanh(s) = f - f^2/2 + s (f^2/2 + R), R = s^2 (c1 + c2 s^2 + c3 s^4) (fdlibm's
 * design; coefficients near-minimax by mpmath's chebyfit, 1e-9 on log). Returns e;
 * log(1 + f) = *hi + *lo, *hi = f - f^2/2 rounded, *lo the rest. For x > 0 finite. */
CL2C_INLINE float cl2c_log_parts_(float x, float *hi, float *lo) {
    int sub = x < 0x1p-126f;                 /* subnormal (<= 0 is replaced at the end) */
    /* sqrt(1/2)'s bits subtracted */
    uint32_t d = cl2c_fbits_(cl2c_selectf_(sub, x * 0x1p23f, x)) - 0x3f3504f3u;
    float f = cl2c_bitsf_((d & 0x007fffffu) + 0x3f3504f3u) - 1.0f;   /* exact */
    float s = f / (2.0f + f), z = s * s;
    float R = z * CL2C_MADF_(z, CL2C_MADF_(z, 0x1.2ee61p-2f, 0x1.997c3p-2f), 0x1.55555cp-1f);
    float hfsq = 0.5f * f * f;
    *hi = f - hfsq;
    *lo = CL2C_MADF_(s, hfsq + R, (f - *hi) - hfsq);   /* the last exact: |f| > |hfsq| */
    return (float)(((int32_t)d >> 23) - (-sub & 23));
}
#endif
/* +-0: -inf; < 0: NaN; +inf and NaN: themselves */
CL2C_INLINE float cl2c_log_range_(float x, float y) {
    float special = cl2c_selectf_(x == 0, -INFINITY, cl2c_selectf_(x < 0, NAN, x));
    return cl2c_selectf_((x > 0) & (x < INFINITY), y, special);
}
/* a + b + c with |a| >= |b| or a = 0, a + b exactly (Fast2Sum), one rounding of note */
CL2C_INLINE float cl2c_sum3_(float a, float b, float c) {
    float sum = a + b;
    return sum + (((a - sum) + b) + c);
}
CL2C_INLINE float cl2c_log_float(float x) {
    float hi, lo, e = cl2c_log_parts_(x, &hi, &lo);
#ifdef CL2C_FAST_FMA
    /* log(1 + f) first (|f| <= 1/3), then e ln2 added in one rounding: e ln2 + f
     * first would round at the scale of a sum that may pass a power of 2 the result
     * stays below (1.7 ulp) */
    return cl2c_log_range_(x, fmaf(e, 0x1.62e43p-1f, hi + fmaf(e, -0x1.05c611p-29f, lo)));
#else
    /* e ln2_hi exact (e has 8 bits), at least ln2 > |hi| or 0 */
    return cl2c_log_range_(x, cl2c_sum3_(e * CL2C_LN2F_HI, hi, lo + e * CL2C_LN2F_LO));
#endif
}
CL2C_INLINE float cl2c_log2_float(float x) {
    float hi, lo, e = cl2c_log_parts_(x, &hi, &lo), hh = cl2c_head12_(hi);
    /* (hi + lo) / ln2, 1 / ln2 = 0x1.714p0 + 0x1.47652cp-12: hh 0x1.714p0 exact */
    float c = (hi - hh) * 0x1.715476p0f + lo * 0x1.715476p0f + hh * 0x1.47652cp-12f;
    return cl2c_log_range_(x, cl2c_sum3_(e, hh * 0x1.714p0f, c));
}
CL2C_INLINE float cl2c_log10_float(float x) {
    float hi, lo, e = cl2c_log_parts_(x, &hi, &lo), hh = cl2c_head12_(hi);
    /* e log10(2) + (hi + lo) / ln10; log10(2) = 0x1.344p-2 + 0x1.3509f8p-18 (e 0x1.344p-2
     * exact, at least 0.3 > |hh 0x1.bcap-2| or 0), 1 / ln10 = 0x1.bcap-2 + 0x1.7b1526p-14 */
    float c = (hi - hh) * 0x1.bcb7b2p-2f + lo * 0x1.bcb7b2p-2f + hh * 0x1.7b1526p-14f +
              e * 0x1.3509f8p-18f;
    return cl2c_log_range_(x, cl2c_sum3_(e * 0x1.344p-2f, hh * 0x1.bcap-2f, c));
}

/* name, float implementation, double implementation */
#define CL2C_MATH1(NAME, F, D)                                                     \
    CL2C_INLINE float cl2c_##NAME##_float(float x) { return F; }                   \
    CL2C_INLINE double cl2c_##NAME##_double(double x) { return D; }
#define CL2C_MATH2(NAME, F, D)                                                     \
    CL2C_INLINE float cl2c_##NAME##_float(float x, float y) { return F; }          \
    CL2C_INLINE double cl2c_##NAME##_double(double x, double y) { return D; }

CL2C_MATH1(acos, CL2C_VF(acos, x), acos(x))
CL2C_MATH1(acosh, CL2C_VF(acosh, x), acosh(x))
CL2C_MATH1(acospi, (float)(acos((double)x) / CL2C_PI), acos(x) / CL2C_PI)
CL2C_MATH1(asin, CL2C_VF(asin, x), asin(x))
CL2C_MATH1(asinh, CL2C_VF(asinh, x), asinh(x))
CL2C_MATH1(asinpi, (float)(asin((double)x) / CL2C_PI), asin(x) / CL2C_PI)
CL2C_MATH1(atan, CL2C_VF(atan, x), atan(x))
CL2C_MATH1(atanh, CL2C_VF(atanh, x), atanh(x))
CL2C_MATH1(atanpi, (float)(atan((double)x) / CL2C_PI), atan(x) / CL2C_PI)
/* glibc's cbrt is off by up to 3 ulp, the spec allows 2: one Newton step on
 * y^3 - x = 0, with y^3 - x computed exactly enough by fma (y*y and (y*y)*y as sums of
 * two doubles; (y*y)*y - x is exact, Sterbenz). The result is within 1 ulp. */
CL2C_INLINE double cl2c_cbrt_double(double x) {
    double scale = 1;
    if (fabs(x) < 0x1p-900 && x != 0) {   /* y^3 would be subnormal, the residual inexact */
        x *= 0x1p300;
        scale = 0x1p-100;
    }
    double y = cbrt(x);
    if (!isfinite(y) || y == 0)
        return y;
    double y2 = y * y, y2_lo = fma(y, y, -y2);
    double y3 = y2 * y, y3_lo = fma(y2, y, -y3);
    double r = (y3 - x) + (y3_lo + y2_lo * y);
    return (y - r / (3 * y2)) * scale;
}
#ifdef CL2C_VECTOR_MATH_ON
CL2C_INLINE float cl2c_cbrt_float(float x) { return CL2C_VF(cbrt, x); }
#else
CL2C_INLINE float cl2c_cbrt_float(float x) { return cbrtf(x); }
#endif
CL2C_MATH1(ceil, ceilf(x), ceil(x))
CL2C_MATH1(cos, CL2C_VF(cos, x), cos(x))
CL2C_MATH1(cosh, CL2C_VF(cosh, x), cosh(x))
CL2C_MATH1(erfc, CL2C_VF(erfc, x), erfc(x))
CL2C_MATH1(erf, CL2C_VF(erf, x), erf(x))
CL2C_INLINE double cl2c_exp_double(double x) { return exp(x); }
CL2C_INLINE double cl2c_exp2_double(double x) { return exp2(x); }
CL2C_INLINE double cl2c_exp10_double(double x) { return pow(10.0, x); }
CL2C_MATH1(expm1, CL2C_VF(expm1, x), expm1(x))
CL2C_MATH1(fabs, fabsf(x), fabs(x))
CL2C_MATH1(floor, floorf(x), floor(x))
CL2C_MATH1(lgamma, lgammaf(x), lgamma(x))
CL2C_INLINE double cl2c_log_double(double x) { return log(x); }
CL2C_INLINE double cl2c_log2_double(double x) { return log2(x); }
CL2C_INLINE double cl2c_log10_double(double x) { return log10(x); }
CL2C_MATH1(log1p, CL2C_VF(log1p, x), log1p(x))
CL2C_MATH1(logb, logbf(x), logb(x))
CL2C_MATH1(rint, rintf(x), rint(x))
CL2C_MATH1(round, roundf(x), round(x))
CL2C_MATH1(rsqrt, (float)(1.0 / sqrt((double)x)), 1.0 / sqrt(x))
CL2C_MATH1(sin, CL2C_VF(sin, x), sin(x))
CL2C_MATH1(sinh, CL2C_VF(sinh, x), sinh(x))
CL2C_MATH1(sqrt, sqrtf(x), sqrt(x))
CL2C_MATH1(tan, CL2C_VF(tan, x), tan(x))
CL2C_MATH1(tanh, CL2C_VF(tanh, x), tanh(x))
CL2C_MATH1(tgamma, tgammaf(x), tgamma(x))
CL2C_MATH1(trunc, truncf(x), trunc(x))
/* sinpi, cospi, tanpi. The argument is reduced in units of pi, where that is exact:
 * fmod(|x|, 2) is, and so is each difference from 0.5, 1, 1.5 or 2 below (Sterbenz).
 * Only the reduced r, 0 <= r <= 1/4, is multiplied by pi: sin, cos and tan then see
 * arguments of at most pi/4, where the rounding of pi * r costs at most 1.4 ulp (2.2
 * for tan). The double results are so within 2 ulp (about 3 for tanpi) of the 4 (6)
 * the spec allows; tests/test_builtins_math_pi.py measures them. Computing sin(pi * x)
 * instead gives sinpi(1) = 1.2e-16 and nothing right for large x. The float forms
 * compute in double and round once. The special cases of spec section 7.5.1 come out
 * exactly, as the comments say. */
CL2C_INLINE double cl2c_sinpi_reduced_(double r) { /* sin(pi r) for 0 <= r <= 1/2 */
    return r <= 0.25 ? sin(CL2C_PI * r) : cos(CL2C_PI * (0.5 - r));
}
CL2C_INLINE double cl2c_cospi_reduced_(double r) { /* cos(pi r) for 0 <= r <= 1/2 */
    return r <= 0.25 ? cos(CL2C_PI * r) : sin(CL2C_PI * (0.5 - r));
}
CL2C_INLINE double cl2c_tanpi_reduced_(double r) { /* tan(pi r) for 0 <= r <= 1/2 */
    return r <= 0.25 ? tan(CL2C_PI * r) : 1.0 / tan(CL2C_PI * (0.5 - r));
}
CL2C_INLINE double cl2c_sinpi_double(double x) {
    if (!isfinite(x))
        return x - x;                        /* inf and NaN: NaN */
    if (x == trunc(x))
        return copysign(0.0, x);             /* sinpi(+-0) = +-0, sinpi(+-n) = +-0 */
    double r = fmod(fabs(x), 2.0), s = 1.0;  /* odd: sinpi(x) = -sinpi(-x) */
    if (r > 1.0) {
        r -= 1.0;                            /* sinpi(r + 1) = -sinpi(r) */
        s = -1.0;
    }
    if (r > 0.5)
        r = 1.0 - r;                         /* sinpi(1 - r) = sinpi(r) */
    double v = s * cl2c_sinpi_reduced_(r);
    return signbit(x) ? -v : v;
}
CL2C_INLINE double cl2c_cospi_double(double x) {
    if (!isfinite(x))
        return x - x;
    double r = fmod(fabs(x), 2.0), s = 1.0;  /* even: cospi(x) = cospi(-x) */
    if (r >= 1.0) {
        r -= 1.0;                            /* cospi(r + 1) = -cospi(r) */
        s = -1.0;
    }
    if (r > 0.5) {
        r = 1.0 - r;                         /* cospi(1 - r) = -cospi(r) */
        s = -s;
    }
    if (r == 0.5)
        return 0.0;                          /* cospi(n + 0.5) = +0 */
    return s * cl2c_cospi_reduced_(r);
}
/* tanpi has period 1, but the spec's signs for its zeros and poles have period 2:
 * tanpi(n) = copysign(0, n) for even n and copysign(0, -n) for odd n, and tanpi(n + 0.5)
 * is +inf for even n, -inf for odd n. Hence the reduction mod 2 and the four cases. */
CL2C_INLINE double cl2c_tanpi_double(double x) {
    if (!isfinite(x))
        return x - x;
    double r = fmod(fabs(x), 2.0), v;        /* odd: tanpi(x) = -tanpi(-x) */
    if (r <= 0.5)
        v = cl2c_tanpi_reduced_(r);          /* +0 at 0, +inf at 0.5 */
    else if (r <= 1.0)
        v = -cl2c_tanpi_reduced_(1.0 - r);   /* -0 at 1 */
    else if (r < 1.5)
        v = cl2c_tanpi_reduced_(r - 1.0);
    else
        v = -cl2c_tanpi_reduced_(2.0 - r);   /* -inf at 1.5 */
    return signbit(x) ? -v : v;
}
CL2C_INLINE float cl2c_sinpi_float(float x) { return (float)cl2c_sinpi_double(x); }
CL2C_INLINE float cl2c_cospi_float(float x) { return (float)cl2c_cospi_double(x); }
CL2C_INLINE float cl2c_tanpi_float(float x) { return (float)cl2c_tanpi_double(x); }

CL2C_MATH2(atan2, atan2f(x, y), atan2(x, y))
CL2C_MATH2(atan2pi, (float)(atan2((double)x, (double)y) / CL2C_PI), atan2(x, y) / CL2C_PI)
CL2C_MATH2(copysign, copysignf(x, y), copysign(x, y))
CL2C_MATH2(fdim, fdimf(x, y), fdim(x, y))
CL2C_MATH2(fmod, fmodf(x, y), fmod(x, y))
/* fmax and fmin as C99 has them (spec 1.13.2, note [29]): a NaN, signaling or quiet, is
 * missing data and the other argument comes back. The C library's fmax follows IEEE
 * 754-2008's maxNum instead and returns NaN for a signaling NaN. As selects they
 * vectorise. */
CL2C_MATH2(fmax, (x < y || isnan(x)) ? y : x, (x < y || isnan(x)) ? y : x)
CL2C_MATH2(fmin, (y < x || isnan(x)) ? y : x, (y < x || isnan(x)) ? y : x)
CL2C_MATH2(hypot, hypotf(x, y), hypot(x, y))
CL2C_MATH2(nextafter, nextafterf(x, y), nextafter(x, y))
CL2C_MATH2(pow, powf(x, y), pow(x, y))
/* powr(x, y) = exp(y log x), for x >= 0 only (spec 2.5.1): NaN for x < 0, and NaN for
 * 0^0, inf^0 and 1^inf, where pow gives 1; a zero's sign does not matter. */
#define CL2C_POWR(T, POW)                                                          \
    CL2C_INLINE T cl2c_powr_##T(T x, T y) {                                        \
        if (isnan(x) || isnan(y))                                                  \
            return x + y;                                                          \
        if (x < 0 || (x == 0 && y == 0) || (isinf(x) && y == 0) || (x == 1 && isinf(y))) \
            return (T)NAN;                                                         \
        if (x == 0)                                                                \
            return y < 0 ? (T)INFINITY : (T)0;                                     \
        return POW(x, y);                                                          \
    }
CL2C_POWR(float, powf)
CL2C_POWR(double, pow)
CL2C_MATH2(remainder, remainderf(x, y), remainder(x, y))
CL2C_MATH2(maxmag, fabsf(x) > fabsf(y) ? x : fabsf(y) > fabsf(x) ? y : cl2c_fmax_float(x, y),
           fabs(x) > fabs(y) ? x : fabs(y) > fabs(x) ? y : cl2c_fmax_double(x, y))
CL2C_MATH2(minmag, fabsf(x) < fabsf(y) ? x : fabsf(y) < fabsf(x) ? y : cl2c_fmin_float(x, y),
           fabs(x) < fabs(y) ? x : fabs(y) < fabs(x) ? y : cl2c_fmin_double(x, y))
CL2C_INLINE float cl2c_fma_float(float a, float b, float c) { return fmaf(a, b, c); }
CL2C_INLINE double cl2c_fma_double(double a, double b, double c) { return fma(a, b, c); }
/* mad, and a * b + c contracted (lower/contraction.py): the product rounded or not
 * (spec 6.15.2), one fma where the CPU has a fast one, as a multiply and an add elsewhere */
#ifdef CL2C_FAST_FMA
CL2C_INLINE float cl2c_mad_float(float a, float b, float c) { return fmaf(a, b, c); }
CL2C_INLINE double cl2c_mad_double(double a, double b, double c) { return fma(a, b, c); }
#else
CL2C_INLINE float cl2c_mad_float(float a, float b, float c) { return a * b + c; }
CL2C_INLINE double cl2c_mad_double(double a, double b, double c) { return a * b + c; }
#endif
CL2C_INLINE float cl2c_pown_float(float x, int n) { return (float)pow((double)x, (double)n); }
CL2C_INLINE double cl2c_pown_double(double x, int n) { return pow(x, (double)n); }
/* rootn(x, n) = x^(1/n). 1/n is not a double: pow(x, 1.0 / n) misses x^(1/n) by a factor
 * x^(e/n), e = 1 - n * (1.0 / n) (exact by fma), which is 1 + log(x) e / n to double
 * precision: about 700 * 2^-53, up to 75 ulp, uncorrected. The special cases are
 * section 2.5.1's: NaN for n = 0 and for x < 0 with n even; +-0 give +-0 or +-inf, the
 * sign of x kept for odd n only. */
CL2C_INLINE double cl2c_rootn_double(double x, int n) {
    if (isnan(x) || n == 0 || (x < 0 && !(n & 1)))
        return isnan(x) ? x : NAN;
    double ax = fabs(x), s = (n & 1) ? x : ax;
    if (ax == 0 || isinf(ax))
        return copysign((ax == 0) == (n < 0) ? INFINITY : 0.0, s);
    double r = 1.0 / n, e = fma(-(double)n, r, 1.0);
    double y = pow(ax, r);
    if (e != 0 && isfinite(y))
        y += y * (log(ax) * (e / n));
    return copysign(y, s);
}
/* float: pow in double is accurate enough (700 * 2^-53 is 2^-19 ulp of a float) */
CL2C_INLINE float cl2c_rootn_float(float x, int n) {
    if (isnan(x) || n == 0 || (x < 0 && !(n & 1)))
        return isnan(x) ? x : NAN;
    double ax = fabs((double)x), s = (n & 1) ? x : ax;
    if (ax == 0 || isinf(ax))
        return (float)copysign((ax == 0) == (n < 0) ? INFINITY : 0.0, s);
    return (float)copysign(pow(ax, 1.0 / n), s);
}
CL2C_INLINE float cl2c_ldexp_float(float x, int n) { return ldexpf(x, n); }
CL2C_INLINE double cl2c_ldexp_double(double x, int n) { return ldexp(x, n); }
/* ilogb(0) and ilogb(NaN) return INT_MIN, the values of FP_ILOGB0 and FP_ILOGBNAN
 * (preprocess.py), on every host: C leaves them to the libm (glibc gives INT_MIN for
 * both on x86 but INT_MAX for NaN on Arm). PoCL has INT_MIN for both too. */
#define CL2C_FP_ILOGB0 (-2147483647 - 1)
#define CL2C_FP_ILOGBNAN (-2147483647 - 1)
CL2C_INLINE int cl2c_ilogb_float(float x) {
    return x == 0 ? CL2C_FP_ILOGB0 : isnan(x) ? CL2C_FP_ILOGBNAN : ilogbf(x);
}
CL2C_INLINE int cl2c_ilogb_double(double x) {
    return x == 0 ? CL2C_FP_ILOGB0 : isnan(x) ? CL2C_FP_ILOGBNAN : ilogb(x);
}
CL2C_INLINE float cl2c_nan_float(cl2c_uint code) {
    cl2c_uint bits = 0x7fc00000u | (code & 0x3fffffu);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}
CL2C_INLINE double cl2c_nan_double(cl2c_ulong code) {
    cl2c_ulong bits = 0x7ff8000000000000ull | (code & 0x7ffffffffffffull);
    double f;
    memcpy(&f, &bits, sizeof f);
    return f;
}
/* The functions with a pointer output (spec 6.12.2) and their edge cases (7.5.1).
 * fract(x) = fmin(x - floor(x), the largest value below 1) (which fract(-tiny) needs),
 * floor(x) in *ip; +-0 and +-inf give +-0 (x - floor(x) would be +0 for -0), NaN NaN. */
CL2C_INLINE float cl2c_fract_float(float x, float *ip) {
    float f = floorf(x);
    *ip = f;
    if (isnan(x))
        return x;
    return x == 0 || isinf(x) ? copysignf(0.0f, x) : fminf(x - f, 0x1.fffffep-1f);
}
CL2C_INLINE double cl2c_fract_double(double x, double *ip) {
    double f = floor(x);
    *ip = f;
    if (isnan(x))
        return x;
    return x == 0 || isinf(x) ? copysign(0.0, x) : fmin(x - f, 0x1.fffffffffffffp-1);
}
/* C99's modf is the spec's: *ip = trunc(x), copysign(isinf(x) ? 0 : x - *ip, x). */
CL2C_INLINE float cl2c_modf_float(float x, float *ip) { return modff(x, ip); }
CL2C_INLINE double cl2c_modf_double(double x, double *ip) { return modf(x, ip); }
/* frexp(+-inf) and frexp(NaN) store 0 (C leaves *e unspecified there). */
CL2C_INLINE float cl2c_frexp_float(float x, int *e) {
    float m = frexpf(x, e);
    if (!isfinite(x))
        *e = 0;
    return m;
}
CL2C_INLINE double cl2c_frexp_double(double x, int *e) {
    double m = frexp(x, e);
    if (!isfinite(x))
        *e = 0;
    return m;
}
CL2C_INLINE float cl2c_sincos_float(float x, float *c) {
    *c = CL2C_VF(cos, x); /* as cos and sin compute them */
    return CL2C_VF(sin, x);
}
CL2C_INLINE double cl2c_sincos_double(double x, double *c) { *c = cos(x); return sin(x); }
/* remquo: the remainder is remainder's (exact); the quotient's 7 low bits with the sign of
 * x/y (the spec's) come from |x| reduced modulo 128|y| by fmod, exactly: that takes away an
 * even multiple of |y|, so the remainder and the parity of a tie stay, and leaves a quotient
 * of at most 128, which one rounded division recovers exactly (the C library's remquo
 * gives only 3 bits). NaN and 0 where x is infinite, y zero or either NaN (7.5.1). Float
 * and half take this double form: their remainders are exact in double and in their type. */
CL2C_INLINE double cl2c_remquo_double(double x, double y, int *q) {
    *q = 0;
    if (isnan(x) || isnan(y) || isinf(x) || y == 0)
        return remainder(x, y);                           /* a NaN */
    double ax = fabs(x), ay = fabs(y), m = 128 * ay;
    double r = isfinite(m) ? fmod(ax, m) : ax;            /* else |x| / |y| <= 128 already */
    double rem = remainder(r, ay);
    int k = (int)rint(r / ay - rem / ay) & 127;
    *q = !signbit(x) != !signbit(y) ? -k : k;
    return signbit(x) ? -rem : rem;
}
CL2C_INLINE float cl2c_remquo_float(float x, float y, int *q) {
    return (float)cl2c_remquo_double(x, y, q);
}
/* The sign of Gamma(x) for lgamma_r: 0 at the poles, x zero or a negative integer (the
 * spec's rule; -inf counts as one), -1 on the intervals (-2k - 1, -2k), else 1. */
CL2C_INLINE int cl2c_gamma_sign_(double x) {
    if (!(x <= 0))
        return 1;                            /* x > 0 or NaN */
    double f = floor(x);
    return f == x ? 0 : fmod(f, 2.0) != 0 ? -1 : 1;
}
CL2C_INLINE float cl2c_lgamma_r_float(float x, int *s) {
    *s = cl2c_gamma_sign_(x);
    return lgammaf(x);
}
CL2C_INLINE double cl2c_lgamma_r_double(double x, int *s) {
    *s = cl2c_gamma_sign_(x);
    return lgamma(x);
}

/* native_ and half_ forms: the full-precision function meets their bounds. */
#define CL2C_ALIAS1(ALIAS, NAME)                                                   \
    CL2C_INLINE float cl2c_##ALIAS##_float(float x) { return cl2c_##NAME##_float(x); } \
    CL2C_INLINE double cl2c_##ALIAS##_double(double x) { return cl2c_##NAME##_double(x); }
#define CL2C_ALIAS2(ALIAS, NAME)                                                   \
    CL2C_INLINE float cl2c_##ALIAS##_float(float x, float y) {                     \
        return cl2c_##NAME##_float(x, y);                                          \
    }                                                                              \
    CL2C_INLINE double cl2c_##ALIAS##_double(double x, double y) {                 \
        return cl2c_##NAME##_double(x, y);                                         \
    }
CL2C_MATH1(recip_, 1.0f / x, 1.0 / x)
CL2C_MATH2(divide_, x / y, x / y)
#define CL2C_NATIVE_AND_HALF(NAME, BASE) CL2C_ALIAS1(native_##NAME, BASE) CL2C_ALIAS1(half_##NAME, BASE)
CL2C_NATIVE_AND_HALF(cos, cos)
CL2C_NATIVE_AND_HALF(exp, exp)
CL2C_NATIVE_AND_HALF(exp2, exp2)
CL2C_NATIVE_AND_HALF(exp10, exp10)
CL2C_NATIVE_AND_HALF(log, log)
CL2C_NATIVE_AND_HALF(log2, log2)
CL2C_NATIVE_AND_HALF(log10, log10)
CL2C_NATIVE_AND_HALF(recip, recip_)
CL2C_NATIVE_AND_HALF(rsqrt, rsqrt)
CL2C_NATIVE_AND_HALF(sin, sin)
CL2C_NATIVE_AND_HALF(sqrt, sqrt)
CL2C_NATIVE_AND_HALF(tan, tan)
CL2C_ALIAS2(native_divide, divide_)
CL2C_ALIAS2(half_divide, divide_)
CL2C_ALIAS2(native_powr, powr)
CL2C_ALIAS2(half_powr, powr)

/* ---- vector forms, instantiated per use ------------------------------------------ */
#define CL2C_VEC_MAP1(NAME, T, N)                                                  \
    CL2C_INLINE cl2c_##T##N cl2c_##NAME##_##T##N(cl2c_##T##N a) {                  \
        cl2c_##T##N r = {{0}};                                                     \
        CL2C_EACH_COMPONENT                                                        \
        for (int i = 0; i < N; ++i) r.s[i] = cl2c_##NAME##_##T(a.s[i]);             \
        return r;                                                                  \
    }
#define CL2C_VEC_MAP2(NAME, T, N)                                                  \
    CL2C_INLINE cl2c_##T##N cl2c_##NAME##_##T##N(cl2c_##T##N a, cl2c_##T##N b) {   \
        cl2c_##T##N r = {{0}};                                                     \
        CL2C_EACH_COMPONENT                                                        \
        for (int i = 0; i < N; ++i) r.s[i] = cl2c_##NAME##_##T(a.s[i], b.s[i]);     \
        return r;                                                                  \
    }
#define CL2C_VEC_MAP3(NAME, T, N)                                                  \
    CL2C_INLINE cl2c_##T##N cl2c_##NAME##_##T##N(cl2c_##T##N a, cl2c_##T##N b,     \
                                                 cl2c_##T##N c) {                  \
        cl2c_##T##N r = {{0}};                                                     \
        CL2C_EACH_COMPONENT                                                        \
        for (int i = 0; i < N; ++i) r.s[i] = cl2c_##NAME##_##T(a.s[i], b.s[i], c.s[i]); \
        return r;                                                                  \
    }
/* f(vector, int vector): pown, rootn, ldexp */
#define CL2C_VEC_MAP2I(NAME, T, N)                                                 \
    CL2C_INLINE cl2c_##T##N cl2c_##NAME##_##T##N(cl2c_##T##N a, cl2c_int##N b) {   \
        cl2c_##T##N r = {{0}};                                                     \
        CL2C_EACH_COMPONENT                                                        \
        for (int i = 0; i < N; ++i) r.s[i] = cl2c_##NAME##_##T(a.s[i], b.s[i]);     \
        return r;                                                                  \
    }
/* f(vector) -> int vector: ilogb */
#define CL2C_VEC_MAPI1(NAME, T, N)                                                 \
    CL2C_INLINE cl2c_int##N cl2c_##NAME##_##T##N(cl2c_##T##N a) {                  \
        cl2c_int##N r = {{0}};                                                     \
        CL2C_EACH_COMPONENT                                                        \
        for (int i = 0; i < N; ++i) r.s[i] = cl2c_##NAME##_##T(a.s[i]);             \
        return r;                                                                  \
    }
/* f(unsigned vector of T's size) -> vector: nan */
#define CL2C_VEC_MAPFU(NAME, T, N)                                                 \
    CL2C_INLINE cl2c_##T##N cl2c_##NAME##_##T##N(CL2C_CAT3(cl2c_, CL2C_UNSIGNED_##T, N) a) { \
        cl2c_##T##N r = {{0}};                                                     \
        CL2C_EACH_COMPONENT                                                        \
        for (int i = 0; i < N; ++i) r.s[i] = cl2c_##NAME##_##T(a.s[i]);             \
        return r;                                                                  \
    }
/* f(vector, pointer to a vector of the same type): fract, modf, sincos; with P the int
 * vector of the same width: frexp, lgamma_r. C has one address space, so one function
 * serves pointers into every OpenCL one. */
#define CL2C_VEC_MAPP_(NAME, T, N, P)                                              \
    CL2C_INLINE cl2c_##T##N cl2c_##NAME##_##T##N(cl2c_##T##N a, P *p) {            \
        cl2c_##T##N r = {{0}};                                                     \
        P out = {{0}};                                                             \
        CL2C_EACH_COMPONENT                                                        \
        for (int i = 0; i < N; ++i) r.s[i] = cl2c_##NAME##_##T(a.s[i], &out.s[i]); \
        *p = out;                                                                  \
        return r;                                                                  \
    }
#define CL2C_VEC_MAPP(NAME, T, N) CL2C_VEC_MAPP_(NAME, T, N, cl2c_##T##N)
#define CL2C_VEC_MAPPI(NAME, T, N) CL2C_VEC_MAPP_(NAME, T, N, cl2c_int##N)
/* f(vector, vector, pointer to an int vector): remquo */
#define CL2C_VEC_MAP2PI(NAME, T, N)                                                \
    CL2C_INLINE cl2c_##T##N cl2c_##NAME##_##T##N(cl2c_##T##N a, cl2c_##T##N b,     \
                                                 cl2c_int##N *p) {                 \
        cl2c_##T##N r = {{0}};                                                     \
        cl2c_int##N out = {{0}};                                                   \
        for (int i = 0; i < N; ++i)                                                \
            r.s[i] = cl2c_##NAME##_##T(a.s[i], b.s[i], &out.s[i]);                  \
        *p = out;                                                                  \
        return r;                                                                  \
    }
/* ldexp(vector, int) */
#define CL2C_VEC_LDEXPI(T, N)                                                      \
    CL2C_INLINE cl2c_##T##N cl2c_ldexpi_##T##N(cl2c_##T##N a, int n) {             \
        cl2c_##T##N r = {{0}};                                                     \
        CL2C_EACH_COMPONENT                                                        \
        for (int i = 0; i < N; ++i) r.s[i] = cl2c_ldexp_##T(a.s[i], n);             \
        return r;                                                                  \
    }

#endif
