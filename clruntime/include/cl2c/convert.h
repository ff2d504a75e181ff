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

/* Quiet comparisons: false for NaN, raising nothing (half compares as itself) */
#if defined(__GNUC__) || defined(__clang__)
#define CL2C_CVT_GREATER_(a, b) __builtin_isgreater(a, b)
#define CL2C_CVT_LESS_(a, b) __builtin_isless(a, b)
#else
#define CL2C_CVT_GREATER_(a, b) isgreater(a, b)
#define CL2C_CVT_LESS_(a, b) isless(a, b)
#endif

/* c (an int's worth; 0 <= c where `nonnegative`) rounded to an int in MODE (0 nearest
 * even, 1 toward zero, 2 up, 3 down): to nearest, then a step where that went the wrong
 * way for the mode, counted in ints (toward zero steps up below 0). GCC 16 vectorises
 * no conversion of a value chosen by a comparison (the clamp below), nor truncf, floorf
 * or ceilf, and left a loop of convert_uchar_sat scalar; nearbyint in any rounding mode
 * gives an integer next to c, which the step corrects. (Toward zero for c >= 0 is the
 * step down alone: GCC 12 vectorises no loop with the sign's tests.) */
#define CL2C_CVT_ROUND_INT_(NAME, S, NEAREST)                                          \
    CL2C_INLINE int NAME(S c, int mode, int nonnegative) {                             \
        const int k = (int)NEAREST(c);                                                 \
        const int below = CL2C_CVT_LESS_((S)k, c), above = CL2C_CVT_GREATER_((S)k, c); \
        return mode == 0 ? k                                                           \
             : mode == 2 ? k + below                                                   \
             : mode == 3 || nonnegative ? k - above                                    \
             : k + (below & CL2C_CVT_LESS_(c, (S)0)) - (above & CL2C_CVT_GREATER_(c, (S)0)); \
    }
CL2C_CVT_ROUND_INT_(cl2c_cvt_round_int_f_, float, nearbyintf)
CL2C_CVT_ROUND_INT_(cl2c_cvt_round_int_d_, double, nearbyint)

/* Toward zero in ints (above) where the compiler vectorises no conversion of a clamped
 * value: GCC 16 (13 to 15 not measured); elsewhere C's conversion, which costs less in
 * scalar loops (the Guide's histogram 10% under GCC 12). */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 13
#define CL2C_CVT_RTZ_IN_INTS_ 1
#else
#define CL2C_CVT_RTZ_IN_INTS_ 0
#endif

/* float/double -> integer. RND is rintf, ceilf, floorf (or the double ones), or
 * CL2C_RTZ: C's conversion itself rounds toward zero; MODE the same as a number
 * (CL2C_CVT_ROUND_INT_'s). */
#define CL2C_RTZ(x) (x)
#define CL2C_CVT_F2I(NAME, D, S, RND, SAT, MODE)                                       \
    CL2C_INLINE cl2c_##D NAME(cl2c_##S x) {                                            \
        if (SAT && (sizeof(cl2c_##D) == 1 ||                                           \
                    (sizeof(cl2c_##D) == 2 && sizeof(cl2c_##S) >= 4))) {               \
            /* limits exact in S (a half holds the 8-bit ones, not 32767 or 65535):   \
             * clamped (NaN to the minimum, as comparisons with it are false), then    \
             * rounded, which gives what rounding first would, and converted whatever  \
             * the value: a conversion under a condition may trap for all GCC knows,   \
             * and keeps a loop around it scalar */                                    \
            if (CL2C_MIN_##D == 0 ? MODE != 1 || CL2C_CVT_RTZ_IN_INTS_                  \
                                  : CL2C_CVT_RTZ_IN_INTS_) {                            \
                /* the quiet comparisons, and rounded in ints: GCC 16 vectorises       \
                 * neither a test of NaN nor a comparison that may trap, and GCC 12 no \
                 * ceilf (a loop of convert_uchar_sat 9x faster under GCC 16, one of   \
                 * convert_ushort_sat_rtp 15x under GCC 12). NaN goes to 0: by the     \
                 * clamp alone where the minimum is 0, else by a mask */               \
                cl2c_##S c = CL2C_CVT_GREATER_(x, (cl2c_##S)CL2C_MIN_##D)               \
                                 ? x : (cl2c_##S)CL2C_MIN_##D;                         \
                c = CL2C_CVT_LESS_(c, (cl2c_##S)CL2C_MAX_##D) ? c : (cl2c_##S)CL2C_MAX_##D; \
                const int k = sizeof(cl2c_##S) == 8                                    \
                    ? cl2c_cvt_round_int_d_(c, MODE, CL2C_MIN_##D == 0)                \
                    : cl2c_cvt_round_int_f_((float)c, MODE, CL2C_MIN_##D == 0);        \
                return (cl2c_##D)(CL2C_MIN_##D == 0 ? k : k & -(int)(x == x));         \
            }                                                                          \
            /* (these comparisons as they are: quiet ones made GCC 16's scalar loop    \
             * slower) */                                                              \
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
