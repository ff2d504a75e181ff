/* Vector types (spec 6.1.2) as C11 structs aligned as the spec requires.
 *
 * The structs are defined here for every element type and width. The
 * operations are macros that a translated kernel instantiates for just the
 * types it uses (cl2c lists them at the top of the emitted file), which keeps
 * compile times short. Every operation is a fixed-length loop over the
 * components, which the C compiler turns into SIMD instructions. */
#ifndef CL2C_VECTORS_H
#define CL2C_VECTORS_H

#include "scalars.h"

#define CL2C_CAT(a, b) CL2C_CAT_(a, b)
#define CL2C_CAT_(a, b) a##b
#define CL2C_CAT3(a, b, c) CL2C_CAT(CL2C_CAT(a, b), c)

/* 3-component vectors are sized and aligned as 4-component ones (6.1.5). */
#define CL2C_PAD(N) ((N) == 3 ? 4 : (N))

#define CL2C_DEFINE_VECTOR(T, N)                                                   \
    typedef struct cl2c_##T##N {                                                   \
        _Alignas(sizeof(cl2c_##T) * CL2C_PAD(N)) cl2c_##T s[CL2C_PAD(N)];          \
    } cl2c_##T##N;
#define CL2C_DEFINE_VECTORS(T)                                                     \
    CL2C_DEFINE_VECTOR(T, 2) CL2C_DEFINE_VECTOR(T, 3) CL2C_DEFINE_VECTOR(T, 4)     \
    CL2C_DEFINE_VECTOR(T, 8) CL2C_DEFINE_VECTOR(T, 16)

CL2C_DEFINE_VECTORS(char)
CL2C_DEFINE_VECTORS(uchar)
CL2C_DEFINE_VECTORS(short)
CL2C_DEFINE_VECTORS(ushort)
CL2C_DEFINE_VECTORS(int)
CL2C_DEFINE_VECTORS(uint)
CL2C_DEFINE_VECTORS(long)
CL2C_DEFINE_VECTORS(ulong)
CL2C_DEFINE_VECTORS(half)
CL2C_DEFINE_VECTORS(float)
CL2C_DEFINE_VECTORS(double)

/* The signed integer type of the same size as T: the component type of the
 * result of a vector comparison; and the unsigned one, for shifts and for the
 * masks of shuffle. */
#define CL2C_MASK_char char
#define CL2C_MASK_uchar char
#define CL2C_MASK_short short
#define CL2C_MASK_ushort short
#define CL2C_MASK_half short
#define CL2C_MASK_int int
#define CL2C_MASK_uint int
#define CL2C_MASK_float int
#define CL2C_MASK_long long
#define CL2C_MASK_ulong long
#define CL2C_MASK_double long
#define CL2C_UNSIGNED_char uchar
#define CL2C_UNSIGNED_uchar uchar
#define CL2C_UNSIGNED_short ushort
#define CL2C_UNSIGNED_ushort ushort
#define CL2C_UNSIGNED_int uint
#define CL2C_UNSIGNED_uint uint
#define CL2C_UNSIGNED_long ulong
#define CL2C_UNSIGNED_ulong ulong
#define CL2C_UNSIGNED_half ushort
#define CL2C_UNSIGNED_float uint
#define CL2C_UNSIGNED_double ulong
#define CL2C_MASK_T(T, N) CL2C_CAT3(cl2c_, CL2C_MASK_##T, N)
#define CL2C_MASK_S(T) CL2C_CAT(cl2c_, CL2C_MASK_##T)
#define CL2C_UNSIGNED_S(T) CL2C_CAT(cl2c_, CL2C_UNSIGNED_##T)

/* ---- construction ---------------------------------------------------------- */
#define CL2C_VEC_SPLAT(T, N)                                                       \
    CL2C_INLINE cl2c_##T##N cl2c_splat_##T##N(cl2c_##T x) {                        \
        cl2c_##T##N r = {{0}};                                                     \
        for (int i = 0; i < N; ++i) r.s[i] = x;                                    \
        return r;                                                                  \
    }

/* ---- component-wise operators ---------------------------------------------- */
#define CL2C_VEC_BINARY(NAME, OP, T, N)                                            \
    CL2C_INLINE cl2c_##T##N cl2c_##NAME##_##T##N(cl2c_##T##N a, cl2c_##T##N b) {   \
        cl2c_##T##N r = {{0}};                                                     \
        for (int i = 0; i < N; ++i) r.s[i] = (cl2c_##T)(a.s[i] OP b.s[i]);         \
        return r;                                                                  \
    }
#define CL2C_VEC_ADD(T, N) CL2C_VEC_BINARY(add, +, T, N)
#define CL2C_VEC_SUB(T, N) CL2C_VEC_BINARY(sub, -, T, N)
#define CL2C_VEC_MUL(T, N) CL2C_VEC_BINARY(mul, *, T, N)
/* Integer / and % do not trap: the divisor of scalars.h (CL2C_DIVISOR_T). */
#define CL2C_VEC_DIVREM_(NAME, OP, T, N)                                           \
    CL2C_INLINE cl2c_##T##N cl2c_##NAME##_##T##N(cl2c_##T##N a, cl2c_##T##N b) {   \
        cl2c_##T##N r = {{0}};                                                     \
        for (int i = 0; i < N; ++i)                                                \
            r.s[i] = (cl2c_##T)(a.s[i] OP CL2C_DIVISOR_##T(a.s[i], b.s[i]));       \
        return r;                                                                  \
    }
#define CL2C_VEC_DIV(T, N) CL2C_VEC_DIVREM_(div, /, T, N)
#define CL2C_VEC_REM(T, N) CL2C_VEC_DIVREM_(rem, %, T, N)
#define CL2C_VEC_AND(T, N) CL2C_VEC_BINARY(and, &, T, N)
#define CL2C_VEC_OR(T, N) CL2C_VEC_BINARY(or, |, T, N)
#define CL2C_VEC_XOR(T, N) CL2C_VEC_BINARY(xor, ^, T, N)

#define CL2C_VEC_SHL(T, N)                                                         \
    CL2C_INLINE cl2c_##T##N cl2c_shl_##T##N(cl2c_##T##N a, cl2c_##T##N b) {        \
        cl2c_##T##N r = {{0}};                                                     \
        for (int i = 0; i < N; ++i)                                                \
            r.s[i] = CL2C_SHL(cl2c_##T, CL2C_UNSIGNED_S(T), a.s[i], b.s[i]);       \
        return r;                                                                  \
    }
#define CL2C_VEC_SHR(T, N)                                                         \
    CL2C_INLINE cl2c_##T##N cl2c_shr_##T##N(cl2c_##T##N a, cl2c_##T##N b) {        \
        cl2c_##T##N r = {{0}};                                                     \
        for (int i = 0; i < N; ++i) r.s[i] = CL2C_SHR(cl2c_##T, a.s[i], b.s[i]);   \
        return r;                                                                  \
    }

/* Relational and logical operators give -1 (all bits set) or 0 per component.
 * Written `c ? -1 : 0`, not `-(c)`: GCC 12 with AVX-512BW miscompiles a char16
 * mask made by negation and then selected on by its sign (c < 0 ? a : b), as
 * `(a != b) ? b : s` is: the blend comes out inverted (RTL, after a correct
 * GIMPLE). test_types_operators.py[char] caught it; test_types_masks.py holds
 * every comparison feeding a selection to NumPy. */
#define CL2C_VEC_COMPARE(NAME, OP, T, N)                                           \
    CL2C_INLINE CL2C_MASK_T(T, N) cl2c_##NAME##_##T##N(cl2c_##T##N a,              \
                                                       cl2c_##T##N b) {            \
        CL2C_MASK_T(T, N) r = {{0}};                                               \
        for (int i = 0; i < N; ++i) r.s[i] = (a.s[i] OP b.s[i]) ? -1 : 0;          \
        return r;                                                                  \
    }
#define CL2C_VEC_EQ(T, N) CL2C_VEC_COMPARE(eq, ==, T, N)
#define CL2C_VEC_NE(T, N) CL2C_VEC_COMPARE(ne, !=, T, N)
#define CL2C_VEC_LT(T, N) CL2C_VEC_COMPARE(lt, <, T, N)
#define CL2C_VEC_GT(T, N) CL2C_VEC_COMPARE(gt, >, T, N)
#define CL2C_VEC_LE(T, N) CL2C_VEC_COMPARE(le, <=, T, N)
#define CL2C_VEC_GE(T, N) CL2C_VEC_COMPARE(ge, >=, T, N)
#define CL2C_VEC_LAND(T, N) CL2C_VEC_COMPARE(land, &&, T, N)
#define CL2C_VEC_LOR(T, N) CL2C_VEC_COMPARE(lor, ||, T, N)

#define CL2C_VEC_LNOT(T, N)                                                        \
    CL2C_INLINE CL2C_MASK_T(T, N) cl2c_lnot_##T##N(cl2c_##T##N a) {                \
        CL2C_MASK_T(T, N) r = {{0}};                                               \
        for (int i = 0; i < N; ++i) r.s[i] = !a.s[i] ? -1 : 0;                      \
        return r;                                                                  \
    }
#define CL2C_VEC_UNARY(NAME, OP, T, N)                                             \
    CL2C_INLINE cl2c_##T##N cl2c_##NAME##_##T##N(cl2c_##T##N a) {                  \
        cl2c_##T##N r = {{0}};                                                     \
        for (int i = 0; i < N; ++i) r.s[i] = (cl2c_##T)(OP a.s[i]);                \
        return r;                                                                  \
    }
#define CL2C_VEC_NEG(T, N) CL2C_VEC_UNARY(neg, -, T, N)
#define CL2C_VEC_BNOT(T, N) CL2C_VEC_UNARY(bnot, ~, T, N)

/* c ? a : b with a vector condition selects per component on the sign bit of
 * c, as select() does (spec 6.3.i). */
#define CL2C_VEC_TERNARY(T, N, C)                                                  \
    CL2C_INLINE cl2c_##T##N cl2c_ternary_##T##N##_##C(cl2c_##C##N c, cl2c_##T##N a, \
                                                      cl2c_##T##N b) {             \
        cl2c_##T##N r = {{0}};                                                     \
        for (int i = 0; i < N; ++i) r.s[i] = (CL2C_MASK_S(C))c.s[i] < 0 ? a.s[i] : b.s[i]; \
        return r;                                                                  \
    }

/* ++ and -- on vectors, through a pointer to the operand. */
#define CL2C_VEC_INCDEC(T, N)                                                      \
    CL2C_INLINE cl2c_##T##N cl2c_preinc_##T##N(cl2c_##T##N *p) {                   \
        for (int i = 0; i < N; ++i) p->s[i] = (cl2c_##T)(p->s[i] + 1);              \
        return *p;                                                                 \
    }                                                                              \
    CL2C_INLINE cl2c_##T##N cl2c_predec_##T##N(cl2c_##T##N *p) {                   \
        for (int i = 0; i < N; ++i) p->s[i] = (cl2c_##T)(p->s[i] - 1);              \
        return *p;                                                                 \
    }                                                                              \
    CL2C_INLINE cl2c_##T##N cl2c_postinc_##T##N(cl2c_##T##N *p) {                  \
        cl2c_##T##N old = *p;                                                      \
        for (int i = 0; i < N; ++i) p->s[i] = (cl2c_##T)(p->s[i] + 1);              \
        return old;                                                                \
    }                                                                              \
    CL2C_INLINE cl2c_##T##N cl2c_postdec_##T##N(cl2c_##T##N *p) {                  \
        cl2c_##T##N old = *p;                                                      \
        for (int i = 0; i < N; ++i) p->s[i] = (cl2c_##T)(p->s[i] - 1);              \
        return old;                                                                \
    }

/* ---- components: swizzles (6.1.7) --------------------------------------------- */
/* Reading M components of an N-vector: cl2c_swz4_float8(v, i0, i1, i2, i3). */
#define CL2C_SWZ_IDX2 int i0, int i1
#define CL2C_SWZ_IDX3 int i0, int i1, int i2
#define CL2C_SWZ_IDX4 int i0, int i1, int i2, int i3
#define CL2C_SWZ_IDX8 int i0, int i1, int i2, int i3, int i4, int i5, int i6, int i7
#define CL2C_SWZ_IDX16                                                             \
    int i0, int i1, int i2, int i3, int i4, int i5, int i6, int i7, int i8, int i9,  \
        int i10, int i11, int i12, int i13, int i14, int i15
#define CL2C_SWZ_LIST2 i0, i1
#define CL2C_SWZ_LIST3 i0, i1, i2
#define CL2C_SWZ_LIST4 i0, i1, i2, i3
#define CL2C_SWZ_LIST8 i0, i1, i2, i3, i4, i5, i6, i7
#define CL2C_SWZ_LIST16 i0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15

#define CL2C_SWIZZLE(T, N, M)                                                      \
    CL2C_INLINE cl2c_##T##M cl2c_swz##M##_##T##N(cl2c_##T##N v, CL2C_SWZ_IDX##M) { \
        const int idx[M] = {CL2C_SWZ_LIST##M};                                     \
        cl2c_##T##M r = {{0}};                                                     \
        for (int i = 0; i < M; ++i) r.s[i] = v.s[idx[i]];                           \
        return r;                                                                  \
    }
/* Writing M components of an N-vector; gives the value written. */
#define CL2C_SWIZZLE_SET(T, N, M)                                                  \
    CL2C_INLINE cl2c_##T##M cl2c_swzset##M##_##T##N(cl2c_##T##N *v,                \
                                                    CL2C_SWZ_IDX##M, cl2c_##T##M x) { \
        const int idx[M] = {CL2C_SWZ_LIST##M};                                     \
        for (int i = 0; i < M; ++i) v->s[idx[i]] = x.s[i];                          \
        return x;                                                                  \
    }

/* ---- conversions (6.2.3) and reinterpretation (6.2.4.2) ---------------------- */
/* convert_<D>N with the default rounding: C's casts round to zero into
 * integers and to nearest into floating point, as the spec's defaults do. */
#define CL2C_CONVERT(D, S, N)                                                      \
    CL2C_INLINE cl2c_##D##N cl2c_convert_##D##N##_##S##N(cl2c_##S##N a) {          \
        cl2c_##D##N r = {{0}};                                                     \
        for (int i = 0; i < N; ++i) r.s[i] = (cl2c_##D)a.s[i];                      \
        return r;                                                                  \
    }
/* as_<type>: the same bytes seen as another type of the same size. */
#define CL2C_AS(DC, SC, DN, SN)                                                    \
    CL2C_INLINE DC cl2c_as_##DN##_##SN(SC a) {                                     \
        DC r;                                                                      \
        memcpy(&r, &a, sizeof r);                                                  \
        return r;                                                                  \
    }

#endif
