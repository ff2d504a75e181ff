/* vloadn / vstoren (spec 6.12.7), instantiated per use. The pointer may be
 * aligned only to the element type, so the copy goes through memcpy. */
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

#endif
