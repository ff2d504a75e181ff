/* Support for the "regions" work-group schedule: a kernel with barriers runs as
 * one function per work-group whose regions (the code between barriers) are
 * loops over the work-items (see cl2c/workgroup/builders/).
 *
 * Private variables that live across a barrier are kept in per-work-item arrays
 * taken from a scratch block owned by the calling (OpenMP) thread: one group
 * runs at a time on a thread, so one block per thread suffices. It grows on
 * demand and is kept for the thread's lifetime. */
#ifndef CL2C_REGIONS_H
#define CL2C_REGIONS_H

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scalars.h"
#include "workitem.h"

/* A work-group function takes the group, not a work-item. It works on a copy
 * of it (CL2C_GROUP_COPY): a local the kernel's stores cannot alias, so the
 * compiler keeps ids and sizes in registers across the work-item loops. */
#define CL2C_GROUP_PARAMS const cl2c_workitem *cl2c_group_in
#define CL2C_GROUP_COPY                                                             \
    const cl2c_workitem cl2c_group = *cl2c_group_in;                               \
    const cl2c_workitem *const cl2c_wi = &cl2c_group

/* The columns of a register tile of work-items (cl2c/workgroup/passes/tiling.py): two vectors of
 * floats under AVX-512; with 8 rows, 16 of its 32 vector registers. */
#ifndef CL2C_TILE_COLS
#define CL2C_TILE_COLS 32
#endif

/* Work-items that run a divergent loop in lock-step (cl2c/workgroup/passes/lockstep.py): four
 * vectors of floats, whose independent dependency chains overlap (one vector was 2.5x
 * slower on Mandelbrot). A C program may define it before including cl2c.h. */
#ifndef CL2C_LANES
#if defined(__AVX512F__)
#define CL2C_LANES 64
#elif defined(__AVX__)
#define CL2C_LANES 32
#else
#define CL2C_LANES 16
#endif
#endif

/* A grid-stride loop's step `value` (cl2c/workgroup/builders/grid_stride.py) after a hint to
 * fetch the run of `count` elements of `size` bytes that the group reads from buffer `p`
 * two iterations after the next, at element `at` + 3 `stride`: its runs lie a stride
 * apart, a jump hardware prefetchers do not follow. The address is computed as an
 * integer (it may lie past the buffer, which a prefetch never faults on), and at most
 * 4 KiB are asked for. */
#define CL2C_PREFETCH_STEP(value, stride, p, at, count, size)                             \
    (cl2c_prefetch_run_((const volatile void *)(p),                                        \
                        (ptrdiff_t)(at) + 3 * (ptrdiff_t)(stride), (size_t)(count),        \
                        (size_t)(size)),                                                   \
     (value))
/* A hint to fetch the run of `count` elements of `size` bytes from element `at` of
 * buffer `p`, both constants (the address computed as an integer, as above): a register
 * tile's panel loads, some steps ahead (cl2c/workgroup/panels.py). Straight-line hints:
 * cl2c_prefetch_run_'s loop made the tiles that fill panels 10% slower. */
#define CL2C_PREFETCH_RUN(p, at, count, size)                                             \
    cl2c_prefetch_row_((const volatile void *)(p), (ptrdiff_t)(at) * (ptrdiff_t)(size),  \
                       (size_t)(count) * (size_t)(size))
/* A hint to fetch the line of element `at` (of `size` bytes) of buffer `p`, to be written
 * where `write`: the row of the work-group after next (cl2c/workgroup/passes/prefetch.py;
 * one line: the group after that asks for the next). The address is computed as an
 * integer, as above. */
#define CL2C_PREFETCH_AT(p, at, size, write)                                              \
    cl2c_prefetch_at_((const volatile void *)(p), (ptrdiff_t)(at), (size_t)(size), (write))
CL2C_INLINE void cl2c_prefetch_at_(const volatile void *p, ptrdiff_t at, size_t size,
                                   int write) {
#if defined(__GNUC__)
    const void *a = (const void *)((uintptr_t)p + (uintptr_t)at * size);
    if (write)          /* (the hint's kind must be a constant) */
        __builtin_prefetch(a, 1);
    else
        __builtin_prefetch(a, 0);
#else
    (void)p, (void)at, (void)size, (void)write;
#endif
}

CL2C_INLINE void cl2c_prefetch_row_(const volatile void *p, ptrdiff_t offset, size_t bytes) {
#if defined(__GNUC__)
    const uintptr_t a = (uintptr_t)p + (uintptr_t)offset;
    for (size_t i = 0; i < bytes; i += 64)      /* (a constant count: unrolled) */
        __builtin_prefetch((const void *)(a + i));
    __builtin_prefetch((const void *)(a + bytes - 1));
#else
    (void)p, (void)offset, (void)bytes;
#endif
}

CL2C_INLINE void cl2c_prefetch_run_(const volatile void *p, ptrdiff_t first, size_t count,
                                    size_t size) {
#if defined(__GNUC__)
    const uintptr_t lo = (uintptr_t)p + (uintptr_t)first * size;
    const size_t bytes = count * size < 4096 ? count * size : 4096;
    for (uintptr_t a = lo & ~(uintptr_t)63; a < lo + bytes; a += 64)
        __builtin_prefetch((const void *)a);
#else
    (void)p, (void)first, (void)count, (void)size;
#endif
}

/* The calling thread's scratch block of at least `bytes` bytes, 64-byte aligned
 * (NULL-free: an allocation failure aborts, as a stack overflow would). */
static _Thread_local char *cl2c_scratch_block; /* (spaces.h: private memory) */
static _Thread_local size_t cl2c_scratch_capacity;
CL2C_INLINE char *cl2c_scratch(size_t bytes) {
    if (bytes > cl2c_scratch_capacity) {
        free(cl2c_scratch_block);
        cl2c_scratch_capacity = (bytes + 4095) & ~(size_t)4095;
        cl2c_scratch_block = (char *)aligned_alloc(64, cl2c_scratch_capacity);
        if (cl2c_scratch_block == NULL) {
            static const char msg[] = "cl2c: out of memory for per-work-item storage\n";
            fputs(msg, stderr);
            abort();
        }
        /* zeroed, as __local memory is (host.h): a private read before any write
         * gives what it gives whatever ran in this process before */
        memset(cl2c_scratch_block, 0, cl2c_scratch_capacity);
    }
    return cl2c_scratch_block;
}

/* Register tiles' panels (cl2c/workgroup/panels.py): a column of tiles copies the rows
 * of a load that all its rows share, a run of CL2C_TILE_COLS elements a step of the
 * tiled loop, into the calling thread's panel block as its first tile runs, and its
 * other tiles read them there, one after the other, where the loads lay rows apart in
 * memory. The first tile asks for its loads CL2C_PANEL_AHEAD steps ahead. A panel
 * larger than CL2C_PANEL_BYTES (it would not stay in the caches) is not made, nor one
 * of rows that span CL2C_PANEL_SPAN or less (the caches keep them). */
#ifndef CL2C_PANEL_BYTES
#define CL2C_PANEL_BYTES ((size_t)1 << 20)
#endif
#ifndef CL2C_PANEL_SPAN
#define CL2C_PANEL_SPAN ((size_t)2 << 20)
#endif
#define CL2C_PANEL_AHEAD 16

/* Do `steps` rows `stride` elements of `size` bytes apart span more than
 * CL2C_PANEL_SPAN? (Closer, the caches keep them, and a panel costs its copy.) */
CL2C_INLINE int cl2c_panel_far(long long stride, size_t size, size_t steps) {
    const size_t apart = (size_t)(stride < 0 ? -stride : stride) * size;
    return steps > 0 && apart > CL2C_PANEL_SPAN / steps;
}

/* The steps of a loop from `first` to before `end`: none where end <= first. */
CL2C_INLINE size_t cl2c_panel_steps(long long first, long long end) {
    return end > first ? (size_t)(end - first) : 0;
}

/* Bytes of a panel of `steps` rows of `row_bytes`, rounded to a line. */
CL2C_INLINE size_t cl2c_panel_size(size_t steps, size_t row_bytes) {
    return steps > CL2C_PANEL_BYTES / (row_bytes ? row_bytes : 1) ? CL2C_PANEL_BYTES + 1
        : (steps * row_bytes + 63) & ~(size_t)63;
}

/* The calling thread's panel block of `bytes` bytes, 64-byte aligned; NULL where that is
 * more than CL2C_PANEL_BYTES or memory is short: the tiles then load as written. */
static _Thread_local char *cl2c_panel_block;   /* (no kernel pointer points here) */
static _Thread_local size_t cl2c_panel_capacity;
CL2C_INLINE char *cl2c_panels(size_t bytes) {
    if (bytes > CL2C_PANEL_BYTES)
        return NULL;
    if (bytes > cl2c_panel_capacity) {
        free(cl2c_panel_block);
        cl2c_panel_capacity = (bytes + 4095) & ~(size_t)4095;
        cl2c_panel_block = (char *)aligned_alloc(64, cl2c_panel_capacity);
        if (cl2c_panel_block == NULL)
            cl2c_panel_capacity = 0;
    }
    return cl2c_panel_block;
}

/* The next `bytes` of a scratch block, keeping 64-byte alignment. */
CL2C_INLINE void *cl2c_take(char **mem, size_t bytes) {
    void *p = *mem;
    *mem += (bytes + 63) & ~(size_t)63;
    return p;
}

/* Bounds of a work-item loop from a guard `l0 + B op U` (v = U - B, adjusted). */
CL2C_INLINE size_t cl2c_bound_lo(size_t lo, ptrdiff_t v, size_t ls) {
    if (v <= (ptrdiff_t)lo)
        return lo;
    return (size_t)v > ls ? ls : (size_t)v;
}
/* A 64-bit unsigned limit of such a guard, as a ptrdiff_t: one past PTRDIFF_MAX / 2
 * (which a converted negative value is) lies beyond every work-item's id. */
CL2C_INLINE ptrdiff_t cl2c_bound_limit(unsigned long long u) {
    return u > (unsigned long long)(PTRDIFF_MAX / 2) ? PTRDIFF_MAX / 2 : (ptrdiff_t)u;
}
CL2C_INLINE size_t cl2c_bound_hi(size_t hi, ptrdiff_t v) {
    if (v <= 0)
        return 0;
    return (size_t)v < hi ? (size_t)v : hi;
}

/* Index-set splitting (workgroup/builders/splits.py): the middle [*lo, *hi) of a
 * work-item loop, narrowed to the local ids 0 from v on, to those below v, or to the
 * larger side of v (where a comparison holds at v alone). Keeps *lo <= *hi. */
CL2C_INLINE void cl2c_mid_from(size_t *lo, size_t *hi, ptrdiff_t v) {
    if (v > (ptrdiff_t)*lo)
        *lo = v < (ptrdiff_t)*hi ? (size_t)v : *hi;
}
CL2C_INLINE void cl2c_mid_below(size_t *lo, size_t *hi, ptrdiff_t v) {
    if (v < (ptrdiff_t)*hi)
        *hi = v > (ptrdiff_t)*lo ? (size_t)v : *lo;
}
CL2C_INLINE void cl2c_mid_besides(size_t *lo, size_t *hi, ptrdiff_t v) {
    if (v < (ptrdiff_t)*lo || v >= (ptrdiff_t)*hi)
        return;
    if ((size_t)v - *lo >= *hi - (size_t)v - 1)
        *hi = (size_t)v;
    else
        *lo = (size_t)v + 1;
}

/* Work-group functions (OpenCL C 2.0, 6.13.15) over the values the work-items
 * stored, indexed by local linear id: run once per group. */
#define CL2C_GROUP_COLLECTIVES(T, N, MIN, MAX)                                       \
    CL2C_INLINE T cl2c_group_reduce_add_##N(const T *v, size_t n) {                  \
        T r = 0;                                                                     \
        for (size_t i = 0; i < n; ++i) r += v[i];                                    \
        return r;                                                                    \
    }                                                                                \
    CL2C_INLINE T cl2c_group_reduce_min_##N(const T *v, size_t n) {                  \
        T r = MAX;                                                                   \
        for (size_t i = 0; i < n; ++i) r = v[i] < r ? v[i] : r;                      \
        return r;                                                                    \
    }                                                                                \
    CL2C_INLINE T cl2c_group_reduce_max_##N(const T *v, size_t n) {                  \
        T r = MIN;                                                                   \
        for (size_t i = 0; i < n; ++i) r = v[i] > r ? v[i] : r;                      \
        return r;                                                                    \
    }                                                                                \
    CL2C_INLINE void cl2c_group_scan_inclusive_add_##N(T *v, size_t n) {             \
        for (size_t i = 1; i < n; ++i) v[i] += v[i - 1];                             \
    }                                                                                \
    CL2C_INLINE void cl2c_group_scan_inclusive_min_##N(T *v, size_t n) {             \
        for (size_t i = 1; i < n; ++i) v[i] = v[i] < v[i - 1] ? v[i] : v[i - 1];     \
    }                                                                                \
    CL2C_INLINE void cl2c_group_scan_inclusive_max_##N(T *v, size_t n) {             \
        for (size_t i = 1; i < n; ++i) v[i] = v[i] > v[i - 1] ? v[i] : v[i - 1];     \
    }                                                                                \
    CL2C_INLINE void cl2c_group_scan_exclusive_add_##N(T *v, size_t n) {             \
        T acc = 0;                                                                   \
        for (size_t i = 0; i < n; ++i) { T x = v[i]; v[i] = acc; acc += x; }         \
    }                                                                                \
    CL2C_INLINE void cl2c_group_scan_exclusive_min_##N(T *v, size_t n) {             \
        T acc = MAX;                                                                 \
        for (size_t i = 0; i < n; ++i) { T x = v[i]; v[i] = acc; acc = x < acc ? x : acc; } \
    }                                                                                \
    CL2C_INLINE void cl2c_group_scan_exclusive_max_##N(T *v, size_t n) {             \
        T acc = MIN;                                                                 \
        for (size_t i = 0; i < n; ++i) { T x = v[i]; v[i] = acc; acc = x > acc ? x : acc; } \
    }                                                                                \
    CL2C_INLINE T cl2c_group_broadcast1_##N(const cl2c_workitem *w, const T *v, size_t x) { \
        (void)w;                                                                     \
        return v[x];                                                                 \
    }                                                                                \
    CL2C_INLINE T cl2c_group_broadcast2_##N(const cl2c_workitem *w, const T *v, size_t x, \
                                            size_t y) {                              \
        return v[x + w->local_size[0] * y];                                          \
    }                                                                                \
    CL2C_INLINE T cl2c_group_broadcast3_##N(const cl2c_workitem *w, const T *v, size_t x, \
                                            size_t y, size_t z) {                    \
        return v[x + w->local_size[0] * (y + w->local_size[1] * z)];                 \
    }                                                                                \
    CL2C_INLINE T cl2c_group_broadcast_linear_##N(const cl2c_workitem *w, const T *v,   \
                                                  cl2c_uint i) {                     \
        (void)w;                                                                     \
        return v[i];                                                                 \
    }

CL2C_GROUP_COLLECTIVES(int, int, INT_MIN, INT_MAX)
CL2C_GROUP_COLLECTIVES(cl2c_uint, uint, 0u, UINT_MAX)
CL2C_GROUP_COLLECTIVES(cl2c_long, long, LLONG_MIN, LLONG_MAX)
CL2C_GROUP_COLLECTIVES(cl2c_ulong, ulong, 0ull, ULLONG_MAX)
CL2C_GROUP_COLLECTIVES(float, float, -INFINITY, INFINITY)
CL2C_GROUP_COLLECTIVES(double, double, -INFINITY, INFINITY)

CL2C_INLINE int cl2c_group_all(const int *v, size_t n) {
    for (size_t i = 0; i < n; ++i)
        if (!v[i]) return 0;
    return 1;
}
CL2C_INLINE int cl2c_group_any(const int *v, size_t n) {
    for (size_t i = 0; i < n; ++i)
        if (v[i]) return 1;
    return 0;
}

#endif
