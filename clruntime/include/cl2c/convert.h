/* Explicit conversions convert_<dst>[_sat][_rte|_rtz|_rtp|_rtn](src) (spec 6.2.3),
 * instantiated per use. Float-to-integer conversions round with the mode's
 * function (default: toward zero), then saturate if asked: NaN gives 0 and
 * out-of-range values the nearest limit. Integer-to-integer saturation
 * compares in 128 bits. Rounding into float or double goes through long
 * double, which holds every int64 and double exactly, and then steps one ULP
 * where round-to-nearest went the wrong way for the mode. */
#ifndef CL2C_CONVERT_H
#define CL2C_CONVERT_H

#include <math.h>
#include "integer.h"

#define CL2C_MIN_char INT8_MIN
#define CL2C_MAX_char INT8_MAX
#define CL2C_MIN_uchar 0
#define CL2C_MAX_uchar UINT8_MAX
#define CL2C_MIN_short INT16_MIN
#define CL2C_MAX_short INT16_MAX
#define CL2C_MIN_ushort 0
#define CL2C_MAX_ushort UINT16_MAX
#define CL2C_MIN_int INT32_MIN
#define CL2C_MAX_int INT32_MAX
#define CL2C_MIN_uint 0
#define CL2C_MAX_uint UINT32_MAX
#define CL2C_MIN_long INT64_MIN
#define CL2C_MAX_long INT64_MAX
#define CL2C_MIN_ulong 0
#define CL2C_MAX_ulong UINT64_MAX

/* float/double -> integer. RND is rintf, ceilf, floorf (or the double ones), or
 * CL2C_RTZ: C's conversion itself rounds toward zero. */
#define CL2C_RTZ(x) (x)
#define CL2C_CVT_F2I(NAME, D, S, RND, SAT)                                             \
    CL2C_INLINE cl2c_##D NAME(cl2c_##S x) {                                            \
        if (SAT && (sizeof(cl2c_##D) == 1 ||                                           \
                    (sizeof(cl2c_##D) == 2 && sizeof(cl2c_##S) >= 4))) {               \
            /* limits exact in S (a half holds the 8-bit ones, not 32767 or 65535):   \
             * clamped (NaN to the minimum, as comparisons with it are false), then    \
             * rounded, which gives what rounding first would, and converted whatever  \
             * the value: a conversion under a condition may trap for all GCC knows,   \
             * and keeps a loop around it scalar */                                    \
            cl2c_##S c = x > (cl2c_##S)CL2C_MIN_##D ? x : (cl2c_##S)CL2C_MIN_##D;      \
            c = c < (cl2c_##S)CL2C_MAX_##D ? c : (cl2c_##S)CL2C_MAX_##D;               \
            const cl2c_##D r = (cl2c_##D)(int)RND(c);                                  \
            return x == x ? r : (cl2c_##D)0;                                           \
        }                                                                              \
        cl2c_##S r = RND(x);                                                           \
        if (SAT) {                                                                     \
            if (isnan(r)) return 0;                                                    \
            if (r <= (cl2c_##S)CL2C_MIN_##D) return (cl2c_##D)CL2C_MIN_##D;             \
            if (r >= (cl2c_##S)CL2C_MAX_##D) return (cl2c_##D)CL2C_MAX_##D;             \
        }                                                                              \
        return (cl2c_##D)r;                                                            \
    }
/* integer -> integer with saturation. */
#define CL2C_CVT_I2I_SAT(NAME, D, S)                                                   \
    CL2C_INLINE cl2c_##D NAME(cl2c_##S x) {                                            \
        cl2c_wide_long v = (cl2c_wide_long)x;                                          \
        if (v < (cl2c_wide_long)CL2C_MIN_##D) return (cl2c_##D)CL2C_MIN_##D;            \
        if (v > (cl2c_wide_long)CL2C_MAX_##D) return (cl2c_##D)CL2C_MAX_##D;            \
        return (cl2c_##D)x;                                                            \
    }
/* anything -> float or double, rounded by MODE: 0 nearest, 1 zero, 2 up, 3 down. */
#define CL2C_CVT_2F(NAME, D, S, MODE)                                                  \
    CL2C_INLINE cl2c_##D NAME(cl2c_##S x) {                                            \
        long double exact = (long double)x;                                            \
        cl2c_##D r = (cl2c_##D)exact;                                                  \
        if (MODE == 1 && fabsl((long double)r) > fabsl(exact))                         \
            r = CL2C_NEXTAFTER_##D(r, (cl2c_##D)0);                                    \
        if (MODE == 2 && (long double)r < exact) r = CL2C_NEXTAFTER_##D(r, INFINITY);   \
        if (MODE == 3 && (long double)r > exact) r = CL2C_NEXTAFTER_##D(r, -INFINITY);  \
        return r;                                                                      \
    }
#define CL2C_NEXTAFTER_float nextafterf
#define CL2C_NEXTAFTER_double nextafter

/* The plain cast, for conversions whose default C semantics are the spec's. */
#define CL2C_CVT_CAST(NAME, D, S)                                                      \
    CL2C_INLINE cl2c_##D NAME(cl2c_##S x) { return (cl2c_##D)x; }

/* The vector form of a scalar conversion. */
#define CL2C_CVT_VEC(VNAME, SNAME, D, S, N)                                            \
    CL2C_INLINE cl2c_##D##N VNAME(cl2c_##S##N a) {                                     \
        cl2c_##D##N r = {{0}};                                                         \
        CL2C_EACH_COMPONENT                                                        \
        for (int i = 0; i < N; ++i) r.s[i] = SNAME(a.s[i]);                             \
        return r;                                                                      \
    }

#endif
