/* Geometric functions (spec 6.12.5) on float and double scalars and 2-, 3-
 * and 4-vectors. The vector forms are instantiated per use. */
#ifndef CL2C_GEOMETRIC_H
#define CL2C_GEOMETRIC_H

#include "math.h"

#define CL2C_GEOMETRIC_SCALAR(T)                                                       \
    CL2C_INLINE cl2c_##T cl2c_dot_##T(cl2c_##T a, cl2c_##T b) { return a * b; }        \
    CL2C_INLINE cl2c_##T cl2c_length_##T(cl2c_##T a) { return cl2c_fabs_##T(a); }     \
    CL2C_INLINE cl2c_##T cl2c_fast_length_##T(cl2c_##T a) { return cl2c_fabs_##T(a); } \
    CL2C_INLINE cl2c_##T cl2c_distance_##T(cl2c_##T a, cl2c_##T b) { return cl2c_fabs_##T(a - b); } \
    CL2C_INLINE cl2c_##T cl2c_fast_distance_##T(cl2c_##T a, cl2c_##T b) { return cl2c_fabs_##T(a - b); } \
    CL2C_INLINE cl2c_##T cl2c_normalize_##T(cl2c_##T a) {                              \
        return a == 0 || isnan(a) ? a : cl2c_copysign_##T(1, a);                      \
    }                                                                                  \
    CL2C_INLINE cl2c_##T cl2c_fast_normalize_##T(cl2c_##T a) { return cl2c_normalize_##T(a); }
CL2C_GEOMETRIC_SCALAR(float)
CL2C_GEOMETRIC_SCALAR(double)

/* The sum of the squares of v[0..n), as length and normalize need it: without overflow
 * or loss to underflow (7.5.1). Where the plain sum in double could have either (never
 * for float and half: their squares fit double, exactly), v is scaled first by a power
 * of two that brings its largest magnitude into [2^-500, 2^500]: no square overflows then
 * and none that counts underflows. *unscale takes sqrt(sum) back to the length. An
 * infinite element makes v its limit direction (the spec's rule for normalize:
 * infinities to +-1, the rest to +-0) and the length infinite; a NaN makes the sum NaN. */
CL2C_INLINE double cl2c_scaled_squares_(double *v, int n, double *unscale) {
    double s = 0, m = 0;
    for (int i = 0; i < n; ++i) s += v[i] * v[i];
    *unscale = 1;
    if (__builtin_expect(s >= 0x1p-970 && s <= 0x1.fffffffffffffp1023, 1))
        return s;          /* finite: no square overflowed; >= 2^-970: none lost counts */
    for (int i = 0; i < n; ++i) m = fabs(v[i]) > m ? fabs(v[i]) : m;
    double scale = m > 0x1p500 ? 0x1p-600 : m < 0x1p-500 ? 0x1p600 : 1.0;
    *unscale = isinf(m) ? INFINITY : m > 0x1p500 ? 0x1p600 : m < 0x1p-500 ? 0x1p-600 : 1.0;
    s = 0;
    for (int i = 0; i < n; ++i) {
        v[i] = !isinf(m) ? v[i] * scale : isinf(v[i]) ? copysign(1.0, v[i]) : 0.0 * v[i];
        s += v[i] * v[i];
    }
    return s;
}

#define CL2C_GEOMETRIC(T, N)                                                           \
    CL2C_INLINE cl2c_##T cl2c_dot_##T##N(cl2c_##T##N a, cl2c_##T##N b) {               \
        cl2c_##T r = 0;                                                                \
        for (int i = 0; i < N; ++i) r += a.s[i] * b.s[i];                               \
        return r;                                                                      \
    }                                                                                  \
    CL2C_INLINE cl2c_##T cl2c_length_##T##N(cl2c_##T##N a) {                           \
        double v[N], unscale;                                                          \
        for (int i = 0; i < N; ++i) v[i] = a.s[i];                                      \
        return (cl2c_##T)(sqrt(cl2c_scaled_squares_(v, N, &unscale)) * unscale);       \
    }                                                                                  \
    CL2C_INLINE cl2c_##T cl2c_fast_length_##T##N(cl2c_##T##N a) { return cl2c_length_##T##N(a); } \
    CL2C_INLINE cl2c_##T cl2c_distance_##T##N(cl2c_##T##N a, cl2c_##T##N b) {          \
        cl2c_##T##N d = {{0}};                                                         \
        for (int i = 0; i < N; ++i) d.s[i] = a.s[i] - b.s[i];                           \
        return cl2c_length_##T##N(d);                                                  \
    }                                                                                  \
    CL2C_INLINE cl2c_##T cl2c_fast_distance_##T##N(cl2c_##T##N a, cl2c_##T##N b) {     \
        return cl2c_distance_##T##N(a, b);                                             \
    }                                                                                  \
    CL2C_INLINE cl2c_##T##N cl2c_normalize_##T##N(cl2c_##T##N a) {                     \
        double v[N], unscale;                                                          \
        for (int i = 0; i < N; ++i) v[i] = a.s[i];                                      \
        double s = cl2c_scaled_squares_(v, N, &unscale), len = sqrt(s);                \
        /* by the length itself where it is a normal number (exact then): a tiny      \
         * element that the scaling took to 0 still gives its subnormal quotient */    \
        double whole = len * unscale;                                                  \
        cl2c_##T##N r = a;                                                             \
        for (int i = 0; i < N; ++i)                                                    \
            r.s[i] = s == 0 ? a.s[i]                                                   \
                : (cl2c_##T)(isnormal(whole) ? a.s[i] / whole : v[i] / len);           \
        return r;                                                                      \
    }                                                                                  \
    CL2C_INLINE cl2c_##T##N cl2c_fast_normalize_##T##N(cl2c_##T##N a) {                \
        return cl2c_normalize_##T##N(a);                                               \
    }

#define CL2C_CROSS(T, N)                                                               \
    CL2C_INLINE cl2c_##T##N cl2c_cross_##T##N(cl2c_##T##N a, cl2c_##T##N b) {          \
        cl2c_##T##N r = {{0}};                                                         \
        r.s[0] = a.s[1] * b.s[2] - a.s[2] * b.s[1];                                    \
        r.s[1] = a.s[2] * b.s[0] - a.s[0] * b.s[2];                                    \
        r.s[2] = a.s[0] * b.s[1] - a.s[1] * b.s[0];                                    \
        return r;                                                                      \
    }

#endif
