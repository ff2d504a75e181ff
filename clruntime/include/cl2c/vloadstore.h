/* vloadn / vstoren and their half forms (spec 6.12.7), instantiated per use. The
 * pointer may be aligned only to the element type, so the copy goes through memcpy. */
#ifndef CL2C_VLOADSTORE_H
#define CL2C_VLOADSTORE_H

#include "vectors.h"

#define CL2C_VLOADSTORE(T, N)                                                          \
    CL2C_INLINE cl2c_##T##N cl2c_vload##N##_##T(size_t offset, const cl2c_##T *p) {    \
        cl2c_##T##N r = {{0}};                                                         \
        memcpy(r.s, p + offset * N, sizeof(cl2c_##T) * N);                             \
        return r;                                                                      \
    }                                                                                  \
    CL2C_INLINE void cl2c_vstore##N##_##T(cl2c_##T##N v, size_t offset, cl2c_##T *p) {  \
        memcpy(p + offset * N, v.s, sizeof(cl2c_##T) * N);                             \
    }

/* ---- half as a storage type: vload_half, vloada_half, vstore_half, vstorea_half ---- */
#include <math.h>

/* The bits of a half in memory, whichever C type cl2c_half is. */
CL2C_INLINE uint16_t cl2c_half_bits_(const cl2c_half *p) {
    uint16_t h;
    memcpy(&h, p, sizeof h);
    return h;
}
CL2C_INLINE void cl2c_set_half_bits_(cl2c_half *p, uint16_t h) { memcpy(p, &h, sizeof h); }

/* half bits -> float is exact (spec 6.1.1.1). */
CL2C_INLINE cl2c_float cl2c_half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    uint32_t bits;
    if (exp == 0) {                                     /* zero or subnormal: man * 2^-24 */
        cl2c_float f = (cl2c_float)man * 0x1p-24f;
        return sign ? -f : f;
    }
    if (exp == 31)
        bits = sign | 0x7f800000u | (man << 13);        /* infinity or NaN */
    else
        bits = sign | ((exp + 112) << 23) | (man << 13);
    cl2c_float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* double (and so float, exactly) -> half, rounded by MODE: 0 to nearest even, 1 toward
 * zero, 2 toward +infinity, 3 toward -infinity. The magnitude is scaled by a power of two
 * so that the half's last mantissa bit is worth 1, rounded to an integer, and scaled
 * back: every step is exact in double except the one rounding. */
CL2C_INLINE uint16_t cl2c_double_to_half(cl2c_double x, int mode) {
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    uint16_t sign = (uint16_t)((u >> 48) & 0x8000u);
    if (isnan(x))
        return (uint16_t)(sign | 0x7e00u | ((u >> 42) & 0x1ffu));
    cl2c_double m = fabs(x);
    if (isinf(x))
        return (uint16_t)(sign | 0x7c00u);
    int e;
    frexp(m, &e);                                       /* m = f * 2^e, f in [0.5, 1) */
    int q = e - 11 < -24 ? -24 : e - 11;                /* the exponent of one ULP */
    cl2c_double r = ldexp(m, -q);
    int up = sign ? mode == 3 : mode == 2;              /* magnitude rounds up */
    if (mode == 0)
        r = nearbyint(r);
    else
        r = up ? ceil(r) : floor(r);
    cl2c_double v = ldexp(r, q);
    if (v > 65504.0) {                                  /* overflow */
        int to_inf = mode == 0 || up;
        return (uint16_t)(sign | (to_inf ? 0x7c00u : 0x7bffu));
    }
    if (v < 0x1p-14)                                    /* zero or subnormal */
        return (uint16_t)(sign | (uint16_t)ldexp(v, 24));
    frexp(v, &e);
    uint16_t man = (uint16_t)(ldexp(v, 11 - e) - 1024.0);
    return (uint16_t)(sign | ((e + 14) << 10) | man);
}

/* vload_half (N = 1), vload_halfN and vloada_halfN: STRIDE halves per offset step (4
 * for vloada_half3, N otherwise). */
#define CL2C_VLOAD_HALF1(NAME)                                                         \
    CL2C_INLINE cl2c_float NAME(size_t offset, const cl2c_half *p) {                   \
        return cl2c_half_to_float(cl2c_half_bits_(p + offset));                        \
    }
#define CL2C_VLOAD_HALFN(NAME, N, STRIDE)                                              \
    CL2C_INLINE cl2c_float##N NAME(size_t offset, const cl2c_half *p) {                \
        cl2c_float##N r = {{0}};                                                       \
        const cl2c_half *q = p + offset * STRIDE;                                      \
        for (int i = 0; i < N; ++i) r.s[i] = cl2c_half_to_float(cl2c_half_bits_(q + i)); \
        return r;                                                                      \
    }
/* vstore_half[N][_rtX] and vstorea_halfN[_rtX] of float or double T. */
#define CL2C_VSTORE_HALF1(NAME, T, MODE)                                               \
    CL2C_INLINE void NAME(cl2c_##T v, size_t offset, cl2c_half *p) {                   \
        cl2c_set_half_bits_(p + offset, cl2c_double_to_half(v, MODE));                 \
    }
#define CL2C_VSTORE_HALFN(NAME, T, N, STRIDE, MODE)                                    \
    CL2C_INLINE void NAME(cl2c_##T##N v, size_t offset, cl2c_half *p) {                \
        cl2c_half *q = p + offset * STRIDE;                                            \
        for (int i = 0; i < N; ++i)                                                    \
            cl2c_set_half_bits_(q + i, cl2c_double_to_half(v.s[i], MODE));            \
    }

#endif
