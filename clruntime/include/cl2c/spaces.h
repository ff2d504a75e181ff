/* The address space qualifier functions of OpenCL C 2.0 (6.13.9): to_global, to_local
 * and to_private return their generic pointer argument if it points into that address
 * space and NULL otherwise; get_fence returns the fence flags of the memory it points
 * to. Generated files include this header after their schedule's header (fiber.h), as
 * private memory is in places each schedule owns.
 *
 * A pointer is decided by where it points, per OpenMP thread (one runs a work-group):
 * - __local: the group's block of __local memory (groups.c.j2 sets cl2c_local_span
 *   for each group, in kernels that call these functions);
 * - __private: the thread's own stack (work-item functions; the regions schedule's
 *   work-group function), the regions schedule's per-work-item scratch block
 *   (regions.h: variables that live across a barrier), or the fiber stacks of the
 *   fibers schedule (fiber.h);
 * - __global: any other non-NULL pointer (buffers, program-scope variables). A generic
 *   pointer never points to __constant memory (spec 6.5.5).
 * The thread's stack bounds come from pthread_getattr_np (Linux) or
 * pthread_get_stackaddr_np (macOS), once per thread. Elsewhere the stack is taken to be
 * the 8 MiB below the first query's frame: a guess, and the one place this can err. */
#ifndef CL2C_SPACES_H
#define CL2C_SPACES_H

#include <pthread.h>

#include "fence.h"
#include "scalars.h"

typedef struct {
    const char *lo, *hi; /* [lo, hi) */
} cl2c_span;

static _Thread_local cl2c_span cl2c_local_span;
static _Thread_local cl2c_span cl2c_stack_span;

#if defined(__linux__)
/* a GNU extension, which the generated file's feature macros may leave undeclared */
extern int pthread_getattr_np(pthread_t thread, pthread_attr_t *attr);
#endif

CL2C_INLINE int cl2c_in_span(cl2c_span s, const void *p) {
    return (const char *)p >= s.lo && (const char *)p < s.hi;
}

CL2C_INLINE cl2c_span cl2c_find_stack(void) {
    cl2c_span s = {NULL, NULL};
#if defined(__linux__)
    pthread_attr_t attr;
    void *lo;
    size_t size;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        if (pthread_attr_getstack(&attr, &lo, &size) == 0) {
            s.lo = (const char *)lo;
            s.hi = (const char *)lo + size;
        }
        pthread_attr_destroy(&attr);
    }
#elif defined(__APPLE__)
    s.hi = (const char *)pthread_get_stackaddr_np(pthread_self());
    s.lo = s.hi - pthread_get_stacksize_np(pthread_self());
#else
    s.hi = (const char *)__builtin_frame_address(0);
    s.lo = s.hi - ((size_t)8 << 20);
#endif
    return s;
}

CL2C_INLINE int cl2c_is_local(const void *p) {
    return cl2c_in_span(cl2c_local_span, p);
}

CL2C_INLINE int cl2c_is_private(const void *p) {
    if (cl2c_stack_span.hi == NULL)
        cl2c_stack_span = cl2c_find_stack();
    if (cl2c_in_span(cl2c_stack_span, p))
        return 1;
#ifdef CL2C_REGIONS_H
    if ((const char *)p >= cl2c_scratch_block &&
        (const char *)p < cl2c_scratch_block + cl2c_scratch_capacity)
        return 1;
#endif
#ifdef CL2C_FIBER_H
    if (cl2c_fb_tls.map != NULL && (const unsigned char *)p >= cl2c_fb_tls.map &&
        (const unsigned char *)p < cl2c_fb_tls.map + cl2c_fb_tls.map_size)
        return 1;
#endif
    return 0;
}

CL2C_INLINE void *cl2c_to_local(const volatile void *p) {
    return cl2c_is_local((const void *)p) ? (void *)p : NULL;
}
CL2C_INLINE void *cl2c_to_private(const volatile void *p) {
    return p != NULL && !cl2c_is_local((const void *)p) && cl2c_is_private((const void *)p)
               ? (void *)p
               : NULL;
}
CL2C_INLINE void *cl2c_to_global(const volatile void *p) {
    return p != NULL && !cl2c_is_local((const void *)p) && !cl2c_is_private((const void *)p)
               ? (void *)p
               : NULL;
}
CL2C_INLINE cl2c_uint cl2c_get_fence(const volatile void *p) {
    return cl2c_is_local((const void *)p) ? CL2C_LOCAL_MEM_FENCE : CL2C_GLOBAL_MEM_FENCE;
}

#endif
