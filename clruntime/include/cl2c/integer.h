/* Integer functions (spec 6.12.3) for every integer type. T is the type, U
 * its unsigned counterpart, W a signed type wide enough for exact sums and
 * differences, M one wide enough for exact products (unsigned for unsigned T),
 * BITS its width, LO and HI its range (for saturation), ABS how to take the
 * magnitude of x (signed and unsigned types differ). */
#ifndef CL2C_INTEGER_H
#define CL2C_INTEGER_H

#include "vectors.h"

#if defined(__GNUC__) || defined(__clang__)
typedef __int128 cl2c_wide_long;
typedef unsigned __int128 cl2c_wide_ulong;
#define CL2C_CLZ32(x) ((x) ? __builtin_clz(x) : 32)
#define CL2C_CLZ64(x) ((x) ? __builtin_clzll(x) : 64)
#define CL2C_POPCOUNT64(x) __builtin_popcountll(x)
#else
#error "cl2c's runtime needs GCC or Clang (for 128-bit integers and bit builtins)"
#endif

#define CL2C_ABS_SIGNED(U, x) ((x) < 0 ? (U)0 - (U)(x) : (U)(x))
#define CL2C_ABS_UNSIGNED(U, x) ((U)(x))
#define CL2C_INTEGER_FUNCS(T, U, W, M, BITS, LO, HI, ABS)                             \
    CL2C_INLINE cl2c_##U cl2c_abs_##T(cl2c_##T x) { return ABS(cl2c_##U, x); }       \
    CL2C_INLINE cl2c_##U cl2c_abs_diff_##T(cl2c_##T x, cl2c_##T y) {                \
        return (cl2c_##U)(x > y ? (cl2c_##U)x - (cl2c_##U)y : (cl2c_##U)y - (cl2c_##U)x); \
    }                                                                                \
    CL2C_INLINE cl2c_##T cl2c_min_##T(cl2c_##T x, cl2c_##T y) { return y < x ? y : x; } \
    CL2C_INLINE cl2c_##T cl2c_max_##T(cl2c_##T x, cl2c_##T y) { return x < y ? y : x; } \
    CL2C_INLINE cl2c_##T cl2c_clamp_##T(cl2c_##T x, cl2c_##T lo, cl2c_##T hi) {     \
        return cl2c_min_##T(cl2c_max_##T(x, lo), hi);                                \
    }                                                                                \
    CL2C_INLINE cl2c_##T cl2c_add_sat_##T(cl2c_##T x, cl2c_##T y) {                 \
        W r = (W)x + (W)y;                                                           \
        return (cl2c_##T)(r < (W)(LO) ? (W)(LO) : r > (W)(HI) ? (W)(HI) : r);         \
    }                                                                                \
    CL2C_INLINE cl2c_##T cl2c_sub_sat_##T(cl2c_##T x, cl2c_##T y) {                 \
        W r = (W)x - (W)y;                                                           \
        return (cl2c_##T)(r < (W)(LO) ? (W)(LO) : r > (W)(HI) ? (W)(HI) : r);         \
    }                                                                                \
    CL2C_INLINE cl2c_##T cl2c_hadd_##T(cl2c_##T x, cl2c_##T y) {                    \
        return (cl2c_##T)(((W)x + (W)y) >> 1);                                       \
    }                                                                                \
    CL2C_INLINE cl2c_##T cl2c_rhadd_##T(cl2c_##T x, cl2c_##T y) {                   \
        return (cl2c_##T)(((W)x + (W)y + 1) >> 1);                                   \
    }                                                                                \
    CL2C_INLINE cl2c_##T cl2c_mul_hi_##T(cl2c_##T x, cl2c_##T y) {                  \
        return (cl2c_##T)(((M)x * (M)y) >> BITS);                                    \
    }                                                                                \
    CL2C_INLINE cl2c_##T cl2c_mad_hi_##T(cl2c_##T x, cl2c_##T y, cl2c_##T z) {      \
        return (cl2c_##T)(cl2c_mul_hi_##T(x, y) + z);                                \
    }                                                                                \
    CL2C_INLINE cl2c_##T cl2c_mad_sat_##T(cl2c_##T x, cl2c_##T y, cl2c_##T z) {     \
        M r = (M)x * (M)y + (M)z;                                                    \
        return (cl2c_##T)(r < (M)(LO) ? (M)(LO) : r > (M)(HI) ? (M)(HI) : r);         \
    }                                                                                \
    CL2C_INLINE cl2c_##T cl2c_rotate_##T(cl2c_##T x, cl2c_##T n) {                  \
        unsigned k = (unsigned)((cl2c_##U)n % BITS);                                 \
        cl2c_##U v = (cl2c_##U)x;                                                    \
        return (cl2c_##T)(k ? (cl2c_##U)((v << k) | (v >> (BITS - k))) : v);          \
    }                                                                                \
    CL2C_INLINE cl2c_##T cl2c_clz_##T(cl2c_##T x) {                                 \
        return (cl2c_##T)(CL2C_CLZ64((cl2c_ulong)(cl2c_##U)x) - (64 - BITS));         \
    }                                                                                \
    CL2C_INLINE cl2c_##T cl2c_popcount_##T(cl2c_##T x) {                            \
        return (cl2c_##T)CL2C_POPCOUNT64((cl2c_ulong)(cl2c_##U)x);                   \
    }                                                                                \
    /* OpenCL C 2.0: the size in bits for 0 */                                       \
    CL2C_INLINE cl2c_##T cl2c_ctz_##T(cl2c_##T x) {                                 \
        return (cl2c_##T)(x ? __builtin_ctzll((cl2c_ulong)(cl2c_##U)x) : BITS);       \
    }

/* The saturation bounds of unsigned types compare against 0: fine, not a bug. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wtype-limits"
CL2C_INTEGER_FUNCS(char, uchar, int, int, 8, INT8_MIN, INT8_MAX, CL2C_ABS_SIGNED)
CL2C_INTEGER_FUNCS(uchar, uchar, int, int, 8, 0, UINT8_MAX, CL2C_ABS_UNSIGNED)
CL2C_INTEGER_FUNCS(short, ushort, int, int64_t, 16, INT16_MIN, INT16_MAX, CL2C_ABS_SIGNED)
CL2C_INTEGER_FUNCS(ushort, ushort, int, int64_t, 16, 0, UINT16_MAX, CL2C_ABS_UNSIGNED)
CL2C_INTEGER_FUNCS(int, uint, int64_t, int64_t, 32, INT32_MIN, INT32_MAX, CL2C_ABS_SIGNED)
CL2C_INTEGER_FUNCS(uint, uint, int64_t, uint64_t, 32, 0, UINT32_MAX, CL2C_ABS_UNSIGNED)
CL2C_INTEGER_FUNCS(long, ulong, cl2c_wide_long, cl2c_wide_long, 64, INT64_MIN, INT64_MAX,
                   CL2C_ABS_SIGNED)
CL2C_INTEGER_FUNCS(ulong, ulong, cl2c_wide_long, cl2c_wide_ulong, 64, 0, UINT64_MAX,
                   CL2C_ABS_UNSIGNED)
#pragma GCC diagnostic pop

/* 24-bit multiplies: exact when the operands fit in 24 bits, as the spec requires. */
CL2C_INLINE cl2c_int cl2c_mul24_int(cl2c_int x, cl2c_int y) { return (cl2c_int)((int64_t)x * y); }
CL2C_INLINE cl2c_uint cl2c_mul24_uint(cl2c_uint x, cl2c_uint y) { return x * y; }
CL2C_INLINE cl2c_int cl2c_mad24_int(cl2c_int x, cl2c_int y, cl2c_int z) {
    return (cl2c_int)((int64_t)x * y + z);
}
CL2C_INLINE cl2c_uint cl2c_mad24_uint(cl2c_uint x, cl2c_uint y, cl2c_uint z) { return x * y + z; }

/* upsample (spec 6.12.3): ((D)hi << BITS) | lo with D twice as wide as hi. The
 * shift is done unsigned: shifting a negative value left is undefined in C. */
#define CL2C_WIDER_char short
#define CL2C_WIDER_uchar ushort
#define CL2C_WIDER_short int
#define CL2C_WIDER_ushort uint
#define CL2C_WIDER_int long
#define CL2C_WIDER_uint ulong
#define CL2C_UPSAMPLE(T, D, UD, BITS)                                                 \
    CL2C_INLINE cl2c_##D cl2c_upsample_##T(cl2c_##T hi, CL2C_UNSIGNED_S(T) lo) {     \
        return (cl2c_##D)((cl2c_##UD)((cl2c_##UD)(cl2c_##D)hi << BITS) | lo);         \
    }
CL2C_UPSAMPLE(char, short, ushort, 8) CL2C_UPSAMPLE(uchar, ushort, ushort, 8)
CL2C_UPSAMPLE(short, int, uint, 16) CL2C_UPSAMPLE(ushort, uint, uint, 16)
CL2C_UPSAMPLE(int, long, ulong, 32) CL2C_UPSAMPLE(uint, ulong, ulong, 32)
/* upsample on vectors: the result has the wider element type. */
#define CL2C_VEC_MAPD2(NAME, T, N)                                                   \
    CL2C_INLINE CL2C_CAT3(cl2c_, CL2C_WIDER_##T, N) cl2c_##NAME##_##T##N(              \
        cl2c_##T##N a, CL2C_CAT3(cl2c_, CL2C_UNSIGNED_##T, N) b) {                    \
        CL2C_CAT3(cl2c_, CL2C_WIDER_##T, N) r = {{0}};                                 \
        CL2C_EACH_COMPONENT                                                        \
        for (int i = 0; i < N; ++i) r.s[i] = cl2c_##NAME##_##T(a.s[i], b.s[i]);       \
        return r;                                                                    \
    }

/* abs and abs_diff on vectors give the unsigned vector type. */
#define CL2C_VEC_MAPU1(NAME, T, N)                                                   \
    CL2C_INLINE CL2C_CAT3(cl2c_, CL2C_UNSIGNED_##T, N) cl2c_##NAME##_##T##N(cl2c_##T##N a) { \
        CL2C_CAT3(cl2c_, CL2C_UNSIGNED_##T, N) r = {{0}};                             \
        CL2C_EACH_COMPONENT                                                        \
        for (int i = 0; i < N; ++i) r.s[i] = cl2c_##NAME##_##T(a.s[i]);               \
        return r;                                                                    \
    }
#define CL2C_VEC_MAPU2(NAME, T, N)                                                   \
    CL2C_INLINE CL2C_CAT3(cl2c_, CL2C_UNSIGNED_##T, N) cl2c_##NAME##_##T##N(          \
        cl2c_##T##N a, cl2c_##T##N b) {                                              \
        CL2C_CAT3(cl2c_, CL2C_UNSIGNED_##T, N) r = {{0}};                             \
        CL2C_EACH_COMPONENT                                                        \
        for (int i = 0; i < N; ++i) r.s[i] = cl2c_##NAME##_##T(a.s[i], b.s[i]);       \
        return r;                                                                    \
    }

#endif
