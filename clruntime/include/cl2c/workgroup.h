/* Barriers and work-group functions as a work-item calls them: the fibers
 * schedule, where every work-item of a group runs on a fiber of its own.
 *
 * (The regions schedule never calls these: it cuts the kernel at its barriers
 * and runs work-group functions once per group, see regions.h.) */
#ifndef CL2C_WORKGROUP_H
#define CL2C_WORKGROUP_H

#include <stdio.h>

#include "fiber.h"
#include "regions.h"
#include "workitem.h"

/* barrier(flags), work_group_barrier(flags[, scope]): the fence is implied by
 * switching fibers on one thread. __LINE__ is the kernel's line (#line). */
#define cl2c_barrier(flags) ((void)(flags), cl2c_fiber_barrier(__LINE__))
#define cl2c_barrier2(flags, scope) ((void)(flags), (void)(scope), cl2c_fiber_barrier(__LINE__))

/* wait_group_events: the copy was made by work-item 0 when it reached it; a
 * barrier makes sure every work-item sees it. */
#define cl2c_wait_group_events(n, events) \
    ((void)(n), (void)(events), cl2c_fiber_barrier(__LINE__))

/* Make a failure message of a group the launching thread's last error. */
CL2C_INLINE void cl2c_fiber_report(const char *message) {
    snprintf(cl2c_fb_tls.error, sizeof cl2c_fb_tls.error, "%s", message);
}

/* Values the work-items of the group exchange: per thread, since a thread runs
 * one group at a time; 8 bytes per work-item covers every type. */
CL2C_INLINE void *cl2c_fiber_exchange(const cl2c_workitem *w) {
    return cl2c_scratch(8 * w->local_size[0] * w->local_size[1] * w->local_size[2]);
}

CL2C_INLINE size_t cl2c_linear_(const cl2c_workitem *w, size_t l0, size_t l1, size_t l2) {
    return l0 + w->local_size[0] * (l1 + w->local_size[1] * l2);
}

#define CL2C_NWI_(w) ((w)->local_size[0] * (w)->local_size[1] * (w)->local_size[2])

/* Every work-item stores its value, all wait, each computes the result from
 * the stored values, all wait again (so the buffer can be reused). */
#define CL2C_FIBER_REDUCE(T, N, OP)                                                  \
    CL2C_INLINE T cl2c_work_group_##OP##_##N(CL2C_WI_ARGS, T x) {                    \
        T *v = (T *)cl2c_fiber_exchange(w);                                          \
        v[cl2c_linear_(w, l0, l1, l2)] = x;                                          \
        cl2c_fiber_barrier(0);                                                       \
        T r = cl2c_group_##OP##_##N(v, CL2C_NWI_(w));                                \
        cl2c_fiber_barrier(0);                                                       \
        return r;                                                                    \
    }
#define CL2C_FIBER_SCAN(T, N, OP)                                                    \
    CL2C_INLINE T cl2c_work_group_##OP##_##N(CL2C_WI_ARGS, T x) {                    \
        T *v = (T *)cl2c_fiber_exchange(w);                                          \
        size_t i = cl2c_linear_(w, l0, l1, l2), n = CL2C_NWI_(w);                    \
        v[i] = x;                                                                    \
        cl2c_fiber_barrier(0);                                                       \
        if (i == 0)                                                                  \
            cl2c_group_##OP##_##N(v, n);                                             \
        cl2c_fiber_barrier(0);                                                       \
        T r = v[i];                                                                  \
        cl2c_fiber_barrier(0);                                                       \
        return r;                                                                    \
    }
#define CL2C_FIBER_COLLECTIVES(T, N)                                                 \
    CL2C_FIBER_REDUCE(T, N, reduce_add)                                              \
    CL2C_FIBER_REDUCE(T, N, reduce_min)                                              \
    CL2C_FIBER_REDUCE(T, N, reduce_max)                                              \
    CL2C_FIBER_SCAN(T, N, scan_inclusive_add)                                        \
    CL2C_FIBER_SCAN(T, N, scan_inclusive_min)                                        \
    CL2C_FIBER_SCAN(T, N, scan_inclusive_max)                                        \
    CL2C_FIBER_SCAN(T, N, scan_exclusive_add)                                        \
    CL2C_FIBER_SCAN(T, N, scan_exclusive_min)                                        \
    CL2C_FIBER_SCAN(T, N, scan_exclusive_max)                                        \
    CL2C_INLINE T cl2c_work_group_broadcast3_##N(CL2C_WI_ARGS, T x, size_t a, size_t b, \
                                                 size_t c) {                         \
        T *v = (T *)cl2c_fiber_exchange(w);                                          \
        v[cl2c_linear_(w, l0, l1, l2)] = x;                                          \
        cl2c_fiber_barrier(0);                                                       \
        T r = v[cl2c_linear_(w, a, b, c)];                                           \
        cl2c_fiber_barrier(0);                                                       \
        return r;                                                                    \
    }                                                                                \
    CL2C_INLINE T cl2c_work_group_broadcast2_##N(CL2C_WI_ARGS, T x, size_t a, size_t b) { \
        return cl2c_work_group_broadcast3_##N(w, l0, l1, l2, x, a, b, 0);            \
    }                                                                                \
    CL2C_INLINE T cl2c_work_group_broadcast1_##N(CL2C_WI_ARGS, T x, size_t a) {      \
        return cl2c_work_group_broadcast3_##N(w, l0, l1, l2, x, a, 0, 0);            \
    }                                                                                \
    CL2C_INLINE T cl2c_work_group_broadcast_linear_##N(CL2C_WI_ARGS, T x, cl2c_uint i) { \
        T *v = (T *)cl2c_fiber_exchange(w);                                          \
        v[cl2c_linear_(w, l0, l1, l2)] = x;                                          \
        cl2c_fiber_barrier(0);                                                       \
        T r = v[i];                                                                  \
        cl2c_fiber_barrier(0);                                                       \
        return r;                                                                    \
    }

CL2C_FIBER_COLLECTIVES(int, int)
CL2C_FIBER_COLLECTIVES(cl2c_uint, uint)
CL2C_FIBER_COLLECTIVES(cl2c_long, long)
CL2C_FIBER_COLLECTIVES(cl2c_ulong, ulong)
CL2C_FIBER_COLLECTIVES(float, float)
CL2C_FIBER_COLLECTIVES(double, double)

CL2C_INLINE int cl2c_work_group_all(CL2C_WI_ARGS, int x) {
    return cl2c_work_group_reduce_min_int(w, l0, l1, l2, x != 0);
}
CL2C_INLINE int cl2c_work_group_any(CL2C_WI_ARGS, int x) {
    return cl2c_work_group_reduce_max_int(w, l0, l1, l2, x != 0);
}

#endif
