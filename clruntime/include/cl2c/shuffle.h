/* Miscellaneous vector functions (spec 6.12.12): shuffle and shuffle2, named
 * cl2c_shuffle_<T><M>_<N> for an M-vector x and an N-vector mask, instantiated
 * per use. M is a power of two, so the low bits the spec keeps of each mask
 * component (log2(M) for shuffle, one more for shuffle2) are mask & (M - 1)
 * and mask & (2M - 1).
 *
 * A component is picked by a chain of selects from vectors of up to 4
 * components: then gcc vectorises the loop over the work-items (2 to 3 times
 * faster for float4). From wider ones it is loaded by its index, which keeps
 * the vector in memory: the selects would cost more than they save. */
#ifndef CL2C_SHUFFLE_H
#define CL2C_SHUFFLE_H

#include "vectors.h"

#define CL2C_SHUFFLE_MASK_T(T, N) CL2C_CAT3(cl2c_, CL2C_UNSIGNED_##T, N)

#define CL2C_SHUFFLE(T, M, N)                                                        \
    CL2C_INLINE cl2c_##T##N cl2c_shuffle_##T##M##_##N(cl2c_##T##M x,                 \
                                                     CL2C_SHUFFLE_MASK_T(T, N) mask) { \
        cl2c_##T##N r = {{0}};                                                       \
        for (int i = 0; i < N; ++i) {                                                \
            unsigned k = (unsigned)(mask.s[i] & (M - 1));                            \
            if (M > 4) {                                                             \
                r.s[i] = x.s[k];                                                     \
                continue;                                                            \
            }                                                                        \
            cl2c_##T v = x.s[0];                                                     \
            for (int j = 1; j < M; ++j) v = k == (unsigned)j ? x.s[j] : v;           \
            r.s[i] = v;                                                              \
        }                                                                            \
        return r;                                                                    \
    }
/* Component k of x and y together is x's k for k < M, y's k - M otherwise. */
#define CL2C_SHUFFLE2(T, M, N)                                                       \
    CL2C_INLINE cl2c_##T##N cl2c_shuffle2_##T##M##_##N(                              \
        cl2c_##T##M x, cl2c_##T##M y, CL2C_SHUFFLE_MASK_T(T, N) mask) {              \
        cl2c_##T##N r = {{0}};                                                       \
        for (int i = 0; i < N; ++i) {                                                \
            unsigned k = (unsigned)(mask.s[i] & (2 * M - 1));                        \
            if (M > 4) {                                                             \
                r.s[i] = k < M ? x.s[k] : y.s[k - M];                                \
                continue;                                                            \
            }                                                                        \
            cl2c_##T v = x.s[0];                                                     \
            for (int j = 1; j < M; ++j) v = k == (unsigned)j ? x.s[j] : v;           \
            for (int j = 0; j < M; ++j) v = k == (unsigned)(M + j) ? y.s[j] : v;     \
            r.s[i] = v;                                                              \
        }                                                                            \
        return r;                                                                    \
    }

#endif
