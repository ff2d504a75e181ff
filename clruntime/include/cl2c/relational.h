/* Relational functions (spec 6.12.6): 1/0 for scalars, -1/0 for vectors. */
#ifndef CL2C_RELATIONAL_H
#define CL2C_RELATIONAL_H

#include "math.h"

#define CL2C_RELATIONAL_FUNCS(T)                                                       \
    CL2C_INLINE int cl2c_isequal_##T(cl2c_##T x, cl2c_##T y) { return x == y; }        \
    CL2C_INLINE int cl2c_isnotequal_##T(cl2c_##T x, cl2c_##T y) { return x != y; }     \
    CL2C_INLINE int cl2c_isgreater_##T(cl2c_##T x, cl2c_##T y) { return isgreater(x, y); } \
    CL2C_INLINE int cl2c_isgreaterequal_##T(cl2c_##T x, cl2c_##T y) { return isgreaterequal(x, y); } \
    CL2C_INLINE int cl2c_isless_##T(cl2c_##T x, cl2c_##T y) { return isless(x, y); }    \
    CL2C_INLINE int cl2c_islessequal_##T(cl2c_##T x, cl2c_##T y) { return islessequal(x, y); } \
    CL2C_INLINE int cl2c_islessgreater_##T(cl2c_##T x, cl2c_##T y) { return islessgreater(x, y); } \
    CL2C_INLINE int cl2c_isordered_##T(cl2c_##T x, cl2c_##T y) { return !isunordered(x, y); } \
    CL2C_INLINE int cl2c_isunordered_##T(cl2c_##T x, cl2c_##T y) { return isunordered(x, y); } \
    CL2C_INLINE int cl2c_isfinite_##T(cl2c_##T x) { return isfinite(x) != 0; }         \
    CL2C_INLINE int cl2c_isinf_##T(cl2c_##T x) { return isinf(x) != 0; }               \
    CL2C_INLINE int cl2c_isnan_##T(cl2c_##T x) { return isnan(x) != 0; }               \
    CL2C_INLINE int cl2c_isnormal_##T(cl2c_##T x) { return isnormal(x) != 0; }

CL2C_RELATIONAL_FUNCS(float)
CL2C_RELATIONAL_FUNCS(double)

/* signbit reads the bit itself: GCC 12 crashes (an internal compiler error) when it
 * vectorises its own signbit() over float2 in a simd loop. */
CL2C_INLINE int cl2c_signbit_float(cl2c_float x) {
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return (int)(u >> 31);
}
CL2C_INLINE int cl2c_signbit_double(cl2c_double x) {
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return (int)(u >> 63);
}

/* any/all test the sign bit of each component; scalars test their own. */
#define CL2C_ANY_ALL_SCALAR(T)                                                         \
    CL2C_INLINE int cl2c_any_##T(cl2c_##T x) { return x < 0; }                         \
    CL2C_INLINE int cl2c_all_##T(cl2c_##T x) { return x < 0; }
CL2C_ANY_ALL_SCALAR(char)
CL2C_ANY_ALL_SCALAR(short)
CL2C_ANY_ALL_SCALAR(int)
CL2C_ANY_ALL_SCALAR(long)

/* bitselect and select on scalars. */
#define CL2C_SELECT_SCALAR(T, K)                                                       \
    CL2C_INLINE cl2c_##T cl2c_select_##T(cl2c_##T a, cl2c_##T b, cl2c_##K c) {         \
        return c ? b : a;                                                              \
    }
CL2C_SELECT_SCALAR(char, char) CL2C_SELECT_SCALAR(uchar, char)
CL2C_SELECT_SCALAR(short, short) CL2C_SELECT_SCALAR(ushort, short)
CL2C_SELECT_SCALAR(int, int) CL2C_SELECT_SCALAR(uint, int)
CL2C_SELECT_SCALAR(long, long) CL2C_SELECT_SCALAR(ulong, long)
CL2C_SELECT_SCALAR(float, int) CL2C_SELECT_SCALAR(double, long)

#define CL2C_BITSELECT_SCALAR(T, U)                                                    \
    CL2C_INLINE cl2c_##T cl2c_bitselect_##T(cl2c_##T a, cl2c_##T b, cl2c_##T c) {      \
        cl2c_##U ua, ub, uc, r;                                                        \
        memcpy(&ua, &a, sizeof ua); memcpy(&ub, &b, sizeof ub); memcpy(&uc, &c, sizeof uc); \
        r = (cl2c_##U)((ua & ~uc) | (ub & uc));                                        \
        cl2c_##T out;                                                                  \
        memcpy(&out, &r, sizeof out);                                                  \
        return out;                                                                    \
    }
CL2C_BITSELECT_SCALAR(char, uchar) CL2C_BITSELECT_SCALAR(uchar, uchar)
CL2C_BITSELECT_SCALAR(short, ushort) CL2C_BITSELECT_SCALAR(ushort, ushort)
CL2C_BITSELECT_SCALAR(int, uint) CL2C_BITSELECT_SCALAR(uint, uint)
CL2C_BITSELECT_SCALAR(long, ulong) CL2C_BITSELECT_SCALAR(ulong, ulong)
CL2C_BITSELECT_SCALAR(float, uint) CL2C_BITSELECT_SCALAR(double, ulong)

/* Vector forms, instantiated per use. */
#define CL2C_VEC_REL1(NAME, T, N)                                                      \
    CL2C_INLINE CL2C_MASK_T(T, N) cl2c_##NAME##_##T##N(cl2c_##T##N a) {                \
        CL2C_MASK_T(T, N) r = {{0}};                                                   \
        for (int i = 0; i < N; ++i) r.s[i] = cl2c_##NAME##_##T(a.s[i]) ? -1 : 0;         \
        return r;                                                                      \
    }
#define CL2C_VEC_REL2(NAME, T, N)                                                      \
    CL2C_INLINE CL2C_MASK_T(T, N) cl2c_##NAME##_##T##N(cl2c_##T##N a, cl2c_##T##N b) { \
        CL2C_MASK_T(T, N) r = {{0}};                                                   \
        for (int i = 0; i < N; ++i)                                                    \
            r.s[i] = cl2c_##NAME##_##T(a.s[i], b.s[i]) ? -1 : 0;                       \
        return r;                                                                      \
    }
#define CL2C_VEC_ANY_ALL(T, N)                                                         \
    CL2C_INLINE int cl2c_any_##T##N(cl2c_##T##N a) {                                   \
        int r = 0;                                                                     \
        for (int i = 0; i < N; ++i) r |= a.s[i] < 0;                                   \
        return r;                                                                      \
    }                                                                                  \
    CL2C_INLINE int cl2c_all_##T##N(cl2c_##T##N a) {                                   \
        int r = 1;                                                                     \
        for (int i = 0; i < N; ++i) r &= a.s[i] < 0;                                   \
        return r;                                                                      \
    }
#define CL2C_VEC_SELECT(T, N)                                                          \
    CL2C_INLINE cl2c_##T##N cl2c_select_##T##N(cl2c_##T##N a, cl2c_##T##N b,           \
                                               CL2C_MASK_T(T, N) c) {                  \
        cl2c_##T##N r = {{0}};                                                         \
        for (int i = 0; i < N; ++i) r.s[i] = c.s[i] < 0 ? b.s[i] : a.s[i];              \
        return r;                                                                      \
    }

#endif
