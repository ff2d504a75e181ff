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
        return a == 0 ? a : cl2c_copysign_##T(1, a);                                  \
    }                                                                                  \
    CL2C_INLINE cl2c_##T cl2c_fast_normalize_##T(cl2c_##T a) { return cl2c_normalize_##T(a); }
CL2C_GEOMETRIC_SCALAR(float)
CL2C_GEOMETRIC_SCALAR(double)

#define CL2C_GEOMETRIC(T, N)                                                           \
    CL2C_INLINE cl2c_##T cl2c_dot_##T##N(cl2c_##T##N a, cl2c_##T##N b) {               \
        cl2c_##T r = 0;                                                                \
        for (int i = 0; i < N; ++i) r += a.s[i] * b.s[i];                               \
        return r;                                                                      \
    }                                                                                  \
    CL2C_INLINE cl2c_##T cl2c_length_##T##N(cl2c_##T##N a) {                           \
        double r = 0;                                                                  \
        for (int i = 0; i < N; ++i) r += (double)a.s[i] * a.s[i];                       \
        return (cl2c_##T)sqrt(r);                                                      \
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
        cl2c_##T len = cl2c_length_##T##N(a);                                          \
        cl2c_##T##N r = a;                                                             \
        if (len > 0)                                                                   \
            for (int i = 0; i < N; ++i) r.s[i] = a.s[i] / len;                          \
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
