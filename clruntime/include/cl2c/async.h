/* Async copies between global and local memory, and prefetch (spec 1.2 6.12.10).
 *
 * Every work-item of a group calls async_work_group_copy with the same arguments;
 * the copy is done once, at once, by the work-item whose local ids are all 0, and
 * the others do nothing. The spec allows that: the data is only guaranteed to be
 * there after wait_group_events, which is a work-group synchronisation point (a
 * barrier in the schedules), so no work-item may look before every work-item,
 * the copying one included, has got there. The call wait_group_events itself
 * then has nothing left to wait for.
 *
 * An event is a number: the event passed in if it is not 0 (the spec: "the event
 * object supplied in event argument will be returned"), else 1.
 *
 * CL2C_ASYNC_COPY(T), CL2C_ASYNC_GATHER(T) and CL2C_ASYNC_SCATTER(T) define the copies
 * for one gentype T, scalar or vector (3-component vectors are copied as 4-component
 * ones, as the spec says, since cl2c_T3 has 4 components); a translated kernel
 * instantiates those it uses. */
#ifndef CL2C_ASYNC_H
#define CL2C_ASYNC_H

#include "vectors.h"
#include "workitem.h"

typedef size_t cl2c_event_t;

#define CL2C_ASYNC_COPY(T)                                                                 \
    CL2C_INLINE cl2c_event_t cl2c_async_work_group_copy_##T(                              \
        CL2C_WI_ARGS, cl2c_##T *dst, const cl2c_##T *src, size_t n, cl2c_event_t event) { \
        (void)w;                                                                         \
        if ((l0 | l1 | l2) == 0 && n != 0)                                               \
            memcpy(dst, src, n * sizeof(cl2c_##T));                                      \
        return event ? event : 1;                                                        \
    }
/* async_work_group_strided_copy from __global to __local: a gather */
#define CL2C_ASYNC_GATHER(T)                                                               \
    CL2C_INLINE cl2c_event_t cl2c_async_gather_##T(CL2C_WI_ARGS, cl2c_##T *dst,           \
                                                   const cl2c_##T *src, size_t n,        \
                                                   size_t src_stride, cl2c_event_t event) { \
        (void)w;                                                                         \
        if ((l0 | l1 | l2) == 0)                                                         \
            for (size_t i = 0; i < n; ++i) dst[i] = src[i * src_stride];                 \
        return event ? event : 1;                                                        \
    }
/* async_work_group_strided_copy from __local to __global: a scatter */
#define CL2C_ASYNC_SCATTER(T)                                                              \
    CL2C_INLINE cl2c_event_t cl2c_async_scatter_##T(CL2C_WI_ARGS, cl2c_##T *dst,          \
                                                    const cl2c_##T *src, size_t n,       \
                                                    size_t dst_stride, cl2c_event_t event) { \
        (void)w;                                                                         \
        if ((l0 | l1 | l2) == 0)                                                         \
            for (size_t i = 0; i < n; ++i) dst[i * dst_stride] = src[i];                 \
        return event ? event : 1;                                                        \
    }

/* The wait itself: the schedules make the call a work-group barrier. */
CL2C_INLINE void cl2c_wait_group_events(int num_events, cl2c_event_t *event_list) {
    (void)num_events, (void)event_list;
}

/* prefetch has no functional effect (the spec says so); hardware prefetchers do
 * better than a hint for a whole range would. */
CL2C_INLINE void cl2c_prefetch(const volatile void *p, size_t num_gentypes) {
    (void)p, (void)num_gentypes;
}

#endif
