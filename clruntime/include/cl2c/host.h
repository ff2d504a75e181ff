/* The host side of a translated kernel: NDRange descriptions, validation of
 * launches by the OpenCL 1.2 / 2.0 rules, and error codes and messages.
 * Error codes are OpenCL's own, so that they read the same. */
#ifndef CL2C_HOST_H
#define CL2C_HOST_H

#include <stdlib.h>
#include "workitem.h"

#ifdef _OPENMP
#include <omp.h>
static inline int cl2c_max_threads(void) { return omp_get_max_threads(); }
static inline int cl2c_thread_num(void) { return omp_get_thread_num(); }
#else
static inline int cl2c_max_threads(void) { return 1; }
static inline int cl2c_thread_num(void) { return 0; }
#endif

#define CL2C_SUCCESS 0
#define CL2C_OUT_OF_HOST_MEMORY (-6)
#define CL2C_INVALID_VALUE (-30)
#define CL2C_INVALID_ARG_VALUE (-50)
#define CL2C_INVALID_WORK_DIMENSION (-53)
#define CL2C_INVALID_WORK_GROUP_SIZE (-54)
#define CL2C_INVALID_WORK_ITEM_SIZE (-55)
#define CL2C_INVALID_GLOBAL_OFFSET (-56)
#define CL2C_INVALID_GLOBAL_WORK_SIZE (-63)

#define CL2C_MAX_WORK_GROUP_SIZE 4096
#define CL2C_LOCAL_ALIGN 128

/* What a caller asks for. local_size all zero lets cl2c choose. */
typedef struct cl2c_range {
    unsigned work_dim;
    size_t global_size[3];
    size_t local_size[3];
    size_t global_offset[3];
} cl2c_range;

static inline const char *cl2c_error_string(int code) {
    switch (code) {
    case CL2C_SUCCESS: return "success";
    case CL2C_OUT_OF_HOST_MEMORY: return "out of host memory";
    case CL2C_INVALID_VALUE: return "invalid value";
    case CL2C_INVALID_ARG_VALUE: return "invalid argument value (a null buffer?)";
    case CL2C_INVALID_WORK_DIMENSION: return "work_dim must be 1, 2 or 3";
    case CL2C_INVALID_WORK_GROUP_SIZE:
        return "invalid work-group size (it must divide the global size under OpenCL 1.2, "
               "match reqd_work_group_size, and hold at most 4096 work-items)";
    case CL2C_INVALID_WORK_ITEM_SIZE: return "a local size is zero";
    case CL2C_INVALID_GLOBAL_OFFSET: return "global offset plus global size overflows";
    case CL2C_INVALID_GLOBAL_WORK_SIZE: return "a global size is zero";
    default: return "unknown error";
    }
}

/* The largest divisor of n that is at most cap. */
static inline size_t cl2c_divisor_at_most(size_t n, size_t cap) {
    for (size_t d = cap < n ? cap : n; d > 1; --d)
        if (n % d == 0) return d;
    return 1;
}

/* Validates a launch and fills *out with the NDRange every work-item sees.
 * reqd is the kernel's reqd_work_group_size, or NULL; non_uniform allows a
 * global size that the local size does not divide (OpenCL 2.0). */
static inline int cl2c_range_resolve(const cl2c_range *r, const size_t *reqd, int non_uniform,
                                     cl2c_workitem *out) {
    if (r == NULL) return CL2C_INVALID_VALUE;
    if (r->work_dim < 1 || r->work_dim > 3) return CL2C_INVALID_WORK_DIMENSION;
    int automatic = 1;
    for (unsigned d = 0; d < r->work_dim; ++d)
        if (r->local_size[d] != 0) automatic = 0;
    memset(out, 0, sizeof *out);
    out->work_dim = r->work_dim;
    size_t budget = 256, total = 1;
    for (unsigned d = 0; d < 3; ++d) {
        int used = d < r->work_dim;
        size_t g = used ? r->global_size[d] : 1;
        size_t off = used ? r->global_offset[d] : 0;
        if (g == 0) return CL2C_INVALID_GLOBAL_WORK_SIZE;
        if (off + g < off) return CL2C_INVALID_GLOBAL_OFFSET;
        size_t l;
        if (!used) {
            l = 1;
        } else if (reqd != NULL && automatic) {
            l = reqd[d];
        } else if (automatic) {
            l = non_uniform ? (g < budget ? g : budget) : cl2c_divisor_at_most(g, budget);
            budget /= l;
            if (budget == 0) budget = 1;
        } else {
            l = r->local_size[d];
        }
        if (l == 0) return CL2C_INVALID_WORK_ITEM_SIZE;
        if (reqd != NULL && l != reqd[d]) return CL2C_INVALID_WORK_GROUP_SIZE;
        if (!non_uniform && g % l != 0) return CL2C_INVALID_WORK_GROUP_SIZE;
        total *= l;
        out->global_size[d] = g;
        out->global_offset[d] = off;
        out->enqueued_local_size[d] = l;
        out->local_size[d] = l;
        out->num_groups[d] = (g + l - 1) / l;
    }
    if (total > CL2C_MAX_WORK_GROUP_SIZE) return CL2C_INVALID_WORK_GROUP_SIZE;
    return CL2C_SUCCESS;
}

/* A size rounded up to the alignment of __local memory. */
static inline size_t cl2c_local_round(size_t bytes) {
    return (bytes + CL2C_LOCAL_ALIGN - 1) / CL2C_LOCAL_ALIGN * CL2C_LOCAL_ALIGN;
}

/* __local memory for every thread (each runs one work-group at a time): one
 * block of `per_thread` bytes per thread, aligned, never NULL. */
static inline char *cl2c_local_alloc(size_t per_thread, int threads) {
    size_t n = cl2c_local_round(per_thread) * (size_t)threads;
    return (char *)aligned_alloc(CL2C_LOCAL_ALIGN, n ? n : CL2C_LOCAL_ALIGN);
}

#endif
