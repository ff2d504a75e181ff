/* Common functions (spec 6.12.4) and min/max/clamp for float and double. */
#ifndef CL2C_COMMON_H
#define CL2C_COMMON_H

#include "math.h"

#define CL2C_COMMON_FUNCS(T)                                                         \
    CL2C_INLINE cl2c_##T cl2c_min_##T(cl2c_##T x, cl2c_##T y) { return y < x ? y : x; } \
    CL2C_INLINE cl2c_##T cl2c_max_##T(cl2c_##T x, cl2c_##T y) { return x < y ? y : x; } \
    CL2C_INLINE cl2c_##T cl2c_clamp_##T(cl2c_##T x, cl2c_##T lo, cl2c_##T hi) {     \
        return cl2c_fmin_##T(cl2c_fmax_##T(x, lo), hi);                              \
    }                                                                                \
    CL2C_INLINE cl2c_##T cl2c_degrees_##T(cl2c_##T r) { return (cl2c_##T)(r * (180.0 / CL2C_PI)); } \
    CL2C_INLINE cl2c_##T cl2c_radians_##T(cl2c_##T d) { return (cl2c_##T)(d * (CL2C_PI / 180.0)); } \
    CL2C_INLINE cl2c_##T cl2c_sign_##T(cl2c_##T x) {                                \
        return x > 0 ? (cl2c_##T)1 : x < 0 ? (cl2c_##T)-1 : x == 0 ? (cl2c_##T)(x * 0) : (cl2c_##T)0; \
    }                                                                                \
    CL2C_INLINE cl2c_##T cl2c_mix_##T(cl2c_##T x, cl2c_##T y, cl2c_##T a) {          \
        return x + (y - x) * a;                                                      \
    }                                                                                \
    CL2C_INLINE cl2c_##T cl2c_step_##T(cl2c_##T edge, cl2c_##T x) {                  \
        return x < edge ? (cl2c_##T)0 : (cl2c_##T)1;                                 \
    }                                                                                \
    CL2C_INLINE cl2c_##T cl2c_smoothstep_##T(cl2c_##T e0, cl2c_##T e1, cl2c_##T x) { \
        cl2c_##T t = cl2c_clamp_##T((x - e0) / (e1 - e0), 0, 1);                      \
        return t * t * (3 - 2 * t);                                                  \
    }

CL2C_COMMON_FUNCS(float)
CL2C_COMMON_FUNCS(double)

#endif
