/* half arithmetic under cl_khr_fp16 (spec 9.4), where cl2c_half is _Float16: the math,
 * common and relational functions of half compute in float, where half values are
 * exact, and round once to half, which is within the extension's ULP bounds. */
#ifndef CL2C_HALF_H
#define CL2C_HALF_H

#include "relational.h"
#include "common.h"
#include "geometric.h"

#ifdef CL2C_HAS_HALF
#define CL2C_HALF1(NAME)                                                               \
    CL2C_INLINE cl2c_half cl2c_##NAME##_half(cl2c_half x) {                            \
        return (cl2c_half)cl2c_##NAME##_float(x);                                      \
    }
#define CL2C_HALF2(NAME)                                                               \
    CL2C_INLINE cl2c_half cl2c_##NAME##_half(cl2c_half x, cl2c_half y) {               \
        return (cl2c_half)cl2c_##NAME##_float(x, y);                                   \
    }
#define CL2C_HALF3(NAME)                                                               \
    CL2C_INLINE cl2c_half cl2c_##NAME##_half(cl2c_half x, cl2c_half y, cl2c_half z) {  \
        return (cl2c_half)cl2c_##NAME##_float(x, y, z);                                \
    }
/* One pointer output P (an int pointer, or a half one read back through a float). */
#define CL2C_HALF_INT_OUT(NAME)                                                        \
    CL2C_INLINE cl2c_half cl2c_##NAME##_half(cl2c_half x, int *p) {                    \
        return (cl2c_half)cl2c_##NAME##_float(x, p);                                   \
    }
#define CL2C_HALF_OUT(NAME)                                                            \
    CL2C_INLINE cl2c_half cl2c_##NAME##_half(cl2c_half x, cl2c_half *p) {              \
        float f;                                                                       \
        cl2c_half r = (cl2c_half)cl2c_##NAME##_float(x, &f);                           \
        *p = (cl2c_half)f;                                                             \
        return r;                                                                      \
    }
#define CL2C_HALF1S(a, b, c, d, e, f, g, h) CL2C_HALF1(a) CL2C_HALF1(b) CL2C_HALF1(c)   \
    CL2C_HALF1(d) CL2C_HALF1(e) CL2C_HALF1(f) CL2C_HALF1(g) CL2C_HALF1(h)
CL2C_HALF1S(acos, acosh, acospi, asin, asinh, asinpi, atan, atanh)
CL2C_HALF1S(atanpi, cbrt, ceil, cos, cosh, cospi, erfc, erf)
CL2C_HALF1S(exp, exp2, exp10, expm1, fabs, floor, lgamma, log)
CL2C_HALF1S(log2, log10, log1p, logb, rint, round, rsqrt, sin)
CL2C_HALF1S(sinh, sinpi, sqrt, tan, tanh, tanpi, tgamma, trunc)
CL2C_HALF1S(native_cos, native_exp, native_exp2, native_exp10, native_log, native_log2,
            native_log10, native_recip)
CL2C_HALF1S(native_rsqrt, native_sin, native_sqrt, native_tan, half_cos, half_exp,
            half_exp2, half_exp10)
CL2C_HALF1S(half_log, half_log2, half_log10, half_recip, half_rsqrt, half_sin, half_sqrt,
            half_tan)
CL2C_HALF1(degrees) CL2C_HALF1(radians) CL2C_HALF1(sign)
CL2C_HALF2(atan2) CL2C_HALF2(atan2pi) CL2C_HALF2(copysign)
CL2C_HALF2(fmod) CL2C_HALF2(hypot) CL2C_HALF2(maxmag) CL2C_HALF2(minmag)
CL2C_HALF2(pow) CL2C_HALF2(powr) CL2C_HALF2(remainder) CL2C_HALF2(native_divide)
CL2C_HALF2(native_powr) CL2C_HALF2(half_divide) CL2C_HALF2(half_powr)
CL2C_HALF2(fmax) CL2C_HALF2(fmin) CL2C_HALF2(min) CL2C_HALF2(max) CL2C_HALF2(step)
CL2C_HALF3(clamp) CL2C_HALF3(mix) CL2C_HALF3(smoothstep)
CL2C_HALF_INT_OUT(frexp) CL2C_HALF_INT_OUT(lgamma_r)
CL2C_HALF_OUT(modf) CL2C_HALF_OUT(sincos)

/* Geometric functions on half (the vector forms are CL2C_GEOMETRIC(half, N), per use):
 * dot products accumulate in half, lengths in double, as for float. */
CL2C_GEOMETRIC_SCALAR(half)

/* fma, mad and fdim must round once to half; in float, x * y + z and x - y may round twice.
 * In double x * y and x - y are exact; x * y + z is rounded to odd there (the sum's error,
 * by two-sum, decides its last bit), which makes the one rounding to half the right one.
 * mad is this correctly rounded fma (cl_khr_fp16 allows that or a rounded multiply-add). */
CL2C_INLINE cl2c_half cl2c_fma_half(cl2c_half x, cl2c_half y, cl2c_half z) {
    double p = (double)x * (double)y, c = z, s = p + c;
    if (!isfinite(s))
        return (cl2c_half)s;
    double pv = s - c, cv = s - pv, err = (p - pv) + (c - cv);
    uint64_t u;
    memcpy(&u, &s, sizeof u);
    if (err != 0 && !(u & 1)) {
        u += (err > 0) == (s > 0) ? 1 : (uint64_t)-1;
        memcpy(&s, &u, sizeof s);
    }
    return (cl2c_half)s;
}
CL2C_INLINE cl2c_half cl2c_mad_half(cl2c_half x, cl2c_half y, cl2c_half z) {
    return cl2c_fma_half(x, y, z);
}
CL2C_INLINE cl2c_half cl2c_fdim_half(cl2c_half x, cl2c_half y) {
    return (cl2c_half)fdim((double)x, (double)y);
}
/* nextafter steps one half, not one float. */
CL2C_INLINE cl2c_half cl2c_nextafter_half(cl2c_half x, cl2c_half y) {
    uint16_t u;
    if (x != x || y != y) return (cl2c_half)(x + y);
    if (x == y) return y;
    memcpy(&u, &x, sizeof u);
    if ((u & 0x7fffu) == 0) u = (uint16_t)(y > 0 ? 1u : 0x8001u);   /* from +-0 */
    else if ((x < y) == !(u & 0x8000u)) ++u;                         /* away from zero */
    else --u;
    memcpy(&x, &u, sizeof x);
    return x;
}
#define CL2C_NEXTAFTER_half cl2c_nextafter_half
/* fract's result stays below 1: 0x1.ffcp-1, the largest half under it. */
CL2C_INLINE cl2c_half cl2c_fract_half(cl2c_half x, cl2c_half *ip) {
    float i;
    cl2c_half r = (cl2c_half)cl2c_fract_float(x, &i);
    *ip = (cl2c_half)i;
    return r == 1 ? (cl2c_half)0x1.ffcp-1f : r;
}
CL2C_INLINE cl2c_half cl2c_remquo_half(cl2c_half x, cl2c_half y, int *q) {
    return (cl2c_half)cl2c_remquo_float(x, y, q);
}
#define CL2C_HALF_INT(NAME)                                                            \
    CL2C_INLINE cl2c_half cl2c_##NAME##_half(cl2c_half x, int n) {                     \
        return (cl2c_half)cl2c_##NAME##_float(x, n);                                   \
    }
CL2C_HALF_INT(pown) CL2C_HALF_INT(rootn) CL2C_HALF_INT(ldexp)
CL2C_INLINE int cl2c_ilogb_half(cl2c_half x) { return cl2c_ilogb_float(x); }
CL2C_INLINE cl2c_half cl2c_nan_half(cl2c_ushort code) {
    uint16_t u = (uint16_t)(0x7e00u | (code & 0x1ffu));
    cl2c_half h;
    memcpy(&h, &u, sizeof h);
    return h;
}

CL2C_RELATIONAL_FUNCS(half)
CL2C_INLINE int cl2c_signbit_half(cl2c_half x) {
    uint16_t u;
    memcpy(&u, &x, sizeof u);
    return (int)(u >> 15);
}
CL2C_SELECT_SCALAR(half, short)
CL2C_BITSELECT_SCALAR(half, ushort)
#endif

#endif
