/* The host side of translated kernels, for C programs and for cl2c's loaders:
 *
 *   - cl2c_range: an NDRange (dimensions, global size, local size or automatic,
 *     global offset) and the constructors cl2c_range_1d/2d/3d/make;
 *   - validation of a launch by the OpenCL 1.2 / 2.0 rules, with error codes
 *     (OpenCL's own, so that they read the same) and messages that say what is
 *     wrong (cl2c_error_string, cl2c_check_launch);
 *   - kernel metadata (cl2c_kernel_info, cl2c_program_info), which every
 *     generated file defines for its kernels, and a launch by metadata with the
 *     arguments as an array of pointers (cl2c_launch).
 *
 * Each kernel K of a translated file also has a typed entry point,
 *     int cl2c_kernel_K(const cl2c_range *range, <its arguments>);
 * declared in the header that `cl2c -H` writes. A launch runs on OpenMP
 * threads: as many as omp_get_max_threads() in the calling thread, which is
 * OMP_NUM_THREADS unless that thread called omp_set_num_threads (or
 * cl2c_set_num_threads). Launches keep no state between calls: host threads
 * may launch kernels at the same time, each on its own team of threads.
 *
 * Everything here is static (linkage.h): no library to link, and two generated
 * files in one program share nothing but their kernels' entry points. */
#ifndef CL2C_HOST_H
#define CL2C_HOST_H

#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "errors.h"
#include "linkage.h"
#include "workitem.h"

#ifdef _OPENMP
#include <omp.h>
static inline int cl2c_max_threads(void) { return omp_get_max_threads(); }
static inline int cl2c_thread_num(void) { return omp_get_thread_num(); }
static inline void cl2c_set_num_threads(int n) { if (n > 0) omp_set_num_threads(n); }
#else
static inline int cl2c_max_threads(void) { return 1; }
static inline int cl2c_thread_num(void) { return 0; }
static inline void cl2c_set_num_threads(int n) { (void)n; }
#endif

/* The team a launch of `groups` work-groups runs on: no more threads than it has
 * groups, since a thread without one would only wake to wait at the region's end
 * (waking a sleeping thread costs tens of microseconds: bench/launch_cost.py). */
static inline int cl2c_team_for(size_t groups) {
    const int most = cl2c_max_threads();
    return groups < (size_t)most ? (int)groups : most;
}

/* In a parallel region: this thread's share [*first, *end) of n things, as OpenMP's
 * static schedule cuts them (the first n % threads threads take one more). */
static inline void cl2c_share(size_t n, size_t *first, size_t *end) {
#ifdef _OPENMP
    const size_t threads = (size_t)omp_get_num_threads(), t = (size_t)omp_get_thread_num();
#else
    const size_t threads = 1, t = 0;
#endif
    const size_t q = n / threads, r = n % threads;
    *first = t * q + (t < r ? t : r);
    *end = *first + q + (t < r);
}

/* A launch's groups among its threads: each thread runs its static share first (as
 * cl2c_share cuts them: a thread keeps the data it had at the launch before), taken a
 * chunk at a time, then the chunks of the others' shares that they have not reached. One
 * thread slower than the rest (a shared machine's) no longer holds the launch up: a
 * triad of 2^26 floats on 16 threads of a Xeon, static 7.8-8.5 ms, dynamic 6.1-6.5. */
typedef struct cl2c_shares {
    _Alignas(64) atomic_size_t next;    /* the share's next group not handed out */
    size_t end;                         /* the share's end */
    size_t chunk;                       /* groups handed out at once */
} cl2c_shares;

/* The shares of n groups from `from` among `team` threads. */
static inline void cl2c_shares_init(cl2c_shares *s, int team, size_t from, size_t n) {
    const size_t q = n / (size_t)team, r = n % (size_t)team;
    const size_t chunk = (q + 7) / 8 ? (q + 7) / 8 : 1;     /* eight chunks a share */
    for (size_t t = 0; t < (size_t)team; ++t) {
        const size_t first = from + t * q + (t < r ? t : r);
        atomic_init(&s[t].next, first);
        s[t].end = first + q + (t < r);
        s[t].chunk = chunk;
    }
}

/* The next group for thread `me` of `team`: its flat index in *at (the chunk it is in
 * ends at *stop; both 0 before the first) and its ids in g0, g1, g2; 0 when none is
 * left. */
static inline int cl2c_shares_next(cl2c_shares *s, int team, int me, size_t *at, size_t *stop,
                                   const cl2c_workitem *range, size_t *g0, size_t *g1,
                                   size_t *g2) {
    if (*at + 1 < *stop) {
        ++*at;
        cl2c_group_next(range, g0, g1, g2);
        return 1;
    }
    for (int k = 0; k < team; ++k) {           /* its own share first, then the next ones */
        cl2c_shares *const c = &s[(me + k) % team];
        if (atomic_load_explicit(&c->next, memory_order_relaxed) >= c->end)
            continue;
        const size_t a = atomic_fetch_add_explicit(&c->next, c->chunk, memory_order_relaxed);
        if (a < c->end) {
            *at = a;
            *stop = c->end - a < c->chunk ? c->end : a + c->chunk;
            cl2c_group_of(range, a, g0, g1, g2);
            return 1;
        }
    }
    return 0;
}

/* ---- Limits (error codes: errors.h, generated from cl2c/error_codes.py) -- */

#define CL2C_MAX_WORK_GROUP_SIZE 4096
#define CL2C_LOCAL_ALIGN 128

/* ---- NDRanges ------------------------------------------------------------ */

/* What a caller asks for. A local size of all zeros (CL2C_AUTO) lets cl2c
 * choose one; unused dimensions are ignored. */
typedef struct cl2c_range {
    unsigned work_dim;
    size_t global_size[3];
    size_t local_size[3];
    size_t global_offset[3];
    /* The program-scope __global variables (OpenCL C 2.0) the launch uses: NULL for
     * the file's own instance, or storage of cl2c_program_info.globals_size bytes,
     * zeroed and then given to cl2c_program_info.globals_init, for a program
     * instance of its own (a cl2c.Program in Python has one). */
    void *globals;
    /* A part of the launch: its work-groups [group_first, group_first + group_count)
     * along the slowest dimension (work_dim - 1), in the local size asked for; every
     * work-item sees the whole launch (global size, number of groups, ids). group_count
     * 0: the whole launch. Dask's chunks (cl2c.dask), progress over a long launch. */
    size_t group_first, group_count;
} cl2c_range;

#define CL2C_AUTO 0

static inline cl2c_range cl2c_range_1d(size_t global, size_t local) {
    cl2c_range r = {1, {global, 1, 1}, {local, 0, 0}, {0, 0, 0}, NULL, 0, 0};
    return r;
}

static inline cl2c_range cl2c_range_2d(size_t g0, size_t g1, size_t l0, size_t l1) {
    cl2c_range r = {2, {g0, g1, 1}, {l0, l1, 0}, {0, 0, 0}, NULL, 0, 0};
    return r;
}

static inline cl2c_range cl2c_range_3d(size_t g0, size_t g1, size_t g2, size_t l0, size_t l1,
                                       size_t l2) {
    cl2c_range r = {3, {g0, g1, g2}, {l0, l1, l2}, {0, 0, 0}, NULL, 0, 0};
    return r;
}

/* The shape of clEnqueueNDRangeKernel: local and offset may be NULL. A
 * work_dim outside 1..3 is kept, for the launch to report. */
static inline cl2c_range cl2c_range_make(unsigned work_dim, const size_t *global,
                                         const size_t *local, const size_t *offset) {
    cl2c_range r = {work_dim, {1, 1, 1}, {0, 0, 0}, {0, 0, 0}, NULL, 0, 0};
    for (unsigned d = 0; d < work_dim && d < 3; ++d) {
        r.global_size[d] = global != NULL ? global[d] : 0;
        r.local_size[d] = local != NULL ? local[d] : 0;
        r.global_offset[d] = offset != NULL ? offset[d] : 0;
    }
    return r;
}

/* Range r, reduced to its work-groups [first, first + count) along its slowest dimension
 * (work_dim - 1): a part of the launch (count 0: the whole launch). */
static inline cl2c_range cl2c_range_part(cl2c_range r, size_t first, size_t count) {
    r.group_first = first;
    r.group_count = count;
    return r;
}

/* The groups of a kernel in register tiles (cl2c/workgroup/passes/tiling.py: tile_rows x tile_cols
 * work-items): whole tiles, a column of sixteen where that leaves two groups a thread.
 * The column's tiles run one after another (tiles.py) and reuse, from L2, what the
 * column loads of the other operand: a naive matmul's panel of B, loaded once a group
 * (2048^2 on Zen 4: 7% faster than groups of four columns of four tiles, run row by row,
 * whose tiles each loaded another panel; 500^2 and 1000^2 2x faster than groups no tile
 * divided, on Zen 5). */
static inline void cl2c_regroup_tiles(cl2c_workitem *nd, size_t threads, size_t tile_rows,
                                      size_t tile_cols, size_t l[3]) {
    size_t g0 = nd->global_size[0], g1 = nd->global_size[1], g2 = nd->global_size[2];
    size_t l0 = tile_cols, l1 = 16 * tile_rows;
    if (l0 > g0) l0 = g0 / tile_cols * tile_cols;
    if (l1 > g1) l1 = g1 / tile_rows * tile_rows;
    while ((l0 > tile_cols || l1 > tile_rows) &&
           (l0 * l1 > CL2C_MAX_WORK_GROUP_SIZE ||
            (g0 + l0 - 1) / l0 * ((g1 + l1 - 1) / l1) * g2 < 2 * threads)) {
        if (l1 > tile_rows) l1 = l1 / 2 / tile_rows * tile_rows;   /* stay whole tiles */
        else l0 = l0 / 2 / tile_cols * tile_cols;
        if (l1 < tile_rows) l1 = tile_rows;
        if (l0 < tile_cols) l0 = tile_cols;
    }
    l[0] = l0;
    l[1] = l1;
}

/* A kernel that cannot tell its work-groups apart (no local ids or sizes, no group
 * ids, no barriers, no __local memory but each work-item's own elements) runs in groups
 * of cl2c's choosing once its launch is checked: whole rows of the first dimension, or,
 * where there are too few rows to keep every thread busy, pieces of them still long
 * enough to vectorise (at most CL2C_MAX_WORK_GROUP_SIZE work-items: what schedules size
 * their arrays by); register tiles as cl2c_regroup_tiles says. `streams`: uniform loops
 * run the group's rows at every step (no tiles), and pieces are a thread's share of a
 * row rather than short. */
__attribute__((noinline)) CL2C_RT void
cl2c_regroup(cl2c_workitem *nd, size_t threads, size_t tile_rows,
             size_t tile_cols, int streams);
#if CL2C_RT_BODIES      /* out of line: linkage.h */
__attribute__((noinline)) CL2C_RT void
cl2c_regroup(cl2c_workitem *nd, size_t threads, size_t tile_rows,
             size_t tile_cols, int streams) {
    size_t l[3] = {nd->global_size[0], 1, 1};
    if (tile_rows > 1 && tile_cols > 0 && nd->global_size[1] >= tile_rows &&
            nd->global_size[0] >= tile_cols) {
        cl2c_regroup_tiles(nd, threads, tile_rows, tile_cols, l);
    } else {
        /* a kernel in register tiles takes that many rows of the second dimension a
         * group (the last group the rows left runs its loops untiled) */
        size_t l1 = tile_rows > 1 && nd->global_size[1] >= tile_rows ? tile_rows : 1;
        size_t rows = (nd->global_size[1] + l1 - 1) / l1 * nd->global_size[2];
        size_t want = threads * 8;  /* iterations per thread, for OpenMP to balance */
        size_t l0 = nd->global_size[0];
        if (rows < want) {
            size_t pieces = (want + rows - 1) / rows;
            size_t piece = (l0 + pieces - 1) / pieces;
            /* 1024 work-items amortise a group's setup, unless pieces that long would
             * leave threads idle (8192 N-body bodies are 8 groups): then 64 still
             * vectorise; and 16 (a vector of floats), where even 64 would (the lecture's
             * matrix products, a work-item a row: 512 rows were 8 groups for 16
             * threads) */
            size_t least = (l0 + 1023) / 1024 * rows < threads * 2 ? 64 : 1024;
            if ((l0 + 63) / 64 * rows < threads) least = 16;
            const size_t unit = least < 64 ? least : 64;
            piece = (piece + unit - 1) / unit * unit;
            if (piece < least) piece = least;
            if (piece < l0) l0 = piece;
        }
        if (streams && l0 < 1024) {
            /* each step of the uniform loop reads a run of the group's row: short runs,
             * strided by the loop, stream poorly. A thread's share of a row instead (the
             * Guide's sum of 8160 partial histograms, 768 work-items: one Zen 4 core
             * 2.5 ms in pieces of 128, 1.0 in one group; two, 2.1 -> 1.05 ms) */
            const size_t per_row = rows >= threads ? 1 : (threads + rows - 1) / rows;
            size_t share = (nd->global_size[0] + per_row - 1) / per_row;
            share = (share + 15) / 16 * 16;
            if (share > l0) l0 = share < nd->global_size[0] ? share : nd->global_size[0];
        }
        if (l0 * l1 > CL2C_MAX_WORK_GROUP_SIZE) l0 = CL2C_MAX_WORK_GROUP_SIZE / l1;
        l[0] = l0;
        l[1] = l1;
    }
    for (int d = 0; d < 3; ++d) {
        nd->enqueued_local_size[d] = nd->local_size[d] = l[d];
        nd->num_groups[d] = (nd->global_size[d] + l[d] - 1) / l[d];
    }
}
#endif

/* ---- Messages, without stdio (kernel identifiers must not meet its names) */

typedef struct cl2c_msg_ {
    char *buf;
    size_t size, len;
} cl2c_msg_;

static inline void cl2c_msg_str_(cl2c_msg_ *m, const char *s) {
    if (m == NULL || m->buf == NULL || m->size == 0)
        return;
    while (*s != '\0' && m->len + 1 < m->size)
        m->buf[m->len++] = *s++;
    m->buf[m->len] = '\0';
}

static inline void cl2c_msg_num_(cl2c_msg_ *m, size_t v) {
    char digits[24];
    int n = 0;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    char text[24];
    for (int i = 0; i < n; ++i)
        text[i] = digits[n - 1 - i];
    text[n] = '\0';
    cl2c_msg_str_(m, text);
}

/* "<what> in dimension <d>" */
static inline void cl2c_msg_dim_(cl2c_msg_ *m, unsigned d) {
    cl2c_msg_str_(m, " in dimension ");
    cl2c_msg_num_(m, d);
}

/* ---- Validation of a launch ---------------------------------------------- */

/* The largest divisor of n that is at most cap. */
static inline size_t cl2c_divisor_at_most(size_t n, size_t cap) {
    for (size_t d = cap < n ? cap : n; d > 1; --d)
        if (n % d == 0) return d;
    return 1;
}

/* cl2c_range_resolve, saying what is wrong into m (which may be NULL). */
__attribute__((noinline)) CL2C_RT int
cl2c_range_resolve_msg_(const cl2c_range *r, const size_t *reqd,
                        int non_uniform, cl2c_workitem *out, cl2c_msg_ *m);
#if CL2C_RT_BODIES      /* out of line: linkage.h */
__attribute__((noinline)) CL2C_RT int
cl2c_range_resolve_msg_(const cl2c_range *r, const size_t *reqd,
                        int non_uniform, cl2c_workitem *out, cl2c_msg_ *m) {
    if (r == NULL) {
        cl2c_msg_str_(m, "no NDRange given (the range is NULL)");
        return CL2C_INVALID_VALUE;
    }
    if (r->work_dim < 1 || r->work_dim > 3) {
        cl2c_msg_str_(m, "work_dim is ");
        cl2c_msg_num_(m, r->work_dim);
        cl2c_msg_str_(m, "; it must be 1, 2 or 3");
        return CL2C_INVALID_WORK_DIMENSION;
    }
    int automatic = 1;
    for (unsigned d = 0; d < r->work_dim; ++d)
        if (r->local_size[d] != 0) automatic = 0;
    memset(out, 0, sizeof *out);
    out->work_dim = r->work_dim;
    out->globals = r->globals;
    size_t budget = 256, total = 1;
    for (unsigned d = 0; d < 3; ++d) {
        int used = d < r->work_dim;
        size_t g = used ? r->global_size[d] : 1;
        size_t off = used ? r->global_offset[d] : 0;
        if (g == 0) {
            cl2c_msg_str_(m, "the global size is 0");
            cl2c_msg_dim_(m, d);
            return CL2C_INVALID_GLOBAL_WORK_SIZE;
        }
        if (off + g < off) {
            cl2c_msg_str_(m, "global offset ");
            cl2c_msg_num_(m, off);
            cl2c_msg_str_(m, " plus global size ");
            cl2c_msg_num_(m, g);
            cl2c_msg_str_(m, " overflows size_t");
            cl2c_msg_dim_(m, d);
            return CL2C_INVALID_GLOBAL_OFFSET;
        }
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
        if (l == 0) {
            cl2c_msg_str_(m, "the local size is 0");
            cl2c_msg_dim_(m, d);
            cl2c_msg_str_(m, " (give every local size, or all of them 0 to let cl2c choose)");
            return CL2C_INVALID_WORK_ITEM_SIZE;
        }
        if (reqd != NULL && l != reqd[d]) {
            cl2c_msg_str_(m, "local size ");
            cl2c_msg_num_(m, l);
            cl2c_msg_dim_(m, d);
            cl2c_msg_str_(m, " differs from the kernel's reqd_work_group_size(");
            for (int i = 0; i < 3; ++i) {
                cl2c_msg_num_(m, reqd[i]);
                cl2c_msg_str_(m, i < 2 ? ", " : ")");
            }
            return CL2C_INVALID_WORK_GROUP_SIZE;
        }
        if (!non_uniform && g % l != 0) {
            cl2c_msg_str_(m, "local size ");
            cl2c_msg_num_(m, l);
            cl2c_msg_str_(m, " does not divide global size ");
            cl2c_msg_num_(m, g);
            cl2c_msg_dim_(m, d);
            cl2c_msg_str_(m, " (OpenCL 1.2 needs uniform work-groups; kernels built with "
                             "-cl-std=CL2.0 take any)");
            return CL2C_INVALID_WORK_GROUP_SIZE;
        }
        total *= l;
        out->global_size[d] = g;
        out->global_offset[d] = off;
        out->enqueued_local_size[d] = l;
        out->local_size[d] = l;
        out->num_groups[d] = (g + l - 1) / l;
    }
    if (total > CL2C_MAX_WORK_GROUP_SIZE) {
        cl2c_msg_str_(m, "a work-group of ");
        cl2c_msg_num_(m, total);
        cl2c_msg_str_(m, " work-items is larger than the maximum, ");
        cl2c_msg_num_(m, CL2C_MAX_WORK_GROUP_SIZE);
        return CL2C_INVALID_WORK_GROUP_SIZE;
    }
    const size_t groups = out->num_groups[r->work_dim - 1];
    if (r->group_count != 0 &&
            (r->group_first >= groups || r->group_count > groups - r->group_first)) {
        cl2c_msg_str_(m, "the part's work-groups ");
        cl2c_msg_num_(m, r->group_first);
        cl2c_msg_str_(m, " to ");
        cl2c_msg_num_(m, r->group_first + r->group_count - 1);
        cl2c_msg_str_(m, " are not all among the launch's ");
        cl2c_msg_num_(m, groups);
        cl2c_msg_dim_(m, r->work_dim - 1);
        return CL2C_INVALID_VALUE;
    }
    return CL2C_SUCCESS;
}
#endif

/* Validates a launch and fills *out with the NDRange every work-item sees.
 * reqd is the kernel's reqd_work_group_size, or NULL; non_uniform allows a
 * global size that the local size does not divide (OpenCL 2.0). */
static inline int cl2c_range_resolve(const cl2c_range *r, const size_t *reqd, int non_uniform,
                                     cl2c_workitem *out) {
    return cl2c_range_resolve_msg_(r, reqd, non_uniform, out, NULL);
}

/* ---- Parts of a launch (cl2c_range.group_first, group_count) --------------- */

/* The work-items [*from, *to) of the slowest dimension that a resolved launch of r runs:
 * its part's, in the local size r asked for (all of them without a part). */
static inline void cl2c_part_items(const cl2c_range *r, const cl2c_workitem *nd, size_t *from,
                                   size_t *to) {
    const unsigned d = nd->work_dim - 1;
    const size_t whole = nd->global_size[d], l = nd->enqueued_local_size[d];
    *from = 0;
    *to = whole;
    if (r->group_count != 0) {
        *from = r->group_first * l;
        *to = (r->group_first + r->group_count) * l;
        if (*to > whole) *to = whole;     /* the last group of a non-uniform range */
    }
}

/* The range of a kernel whose work-group function reads its dimensions 0 and 1 exchanged
 * (cl2c/workgroup/dimensions.py): the kernel asks of the range only global ids, so a
 * part [from, to) of the slowest dimension is the whole range of its own (the offset
 * moved to `from`), and then the two dimensions trade places (a launch of one
 * dimension becomes one of two, its work-items along 1). cl2c cuts the new range into
 * groups (cl2c_regroup): the old groups' sizes go. */
static inline void cl2c_transpose_range(cl2c_workitem *nd, size_t *from, size_t *to) {
    const unsigned d = nd->work_dim - 1;
    nd->global_offset[d] += *from;
    nd->global_size[d] = *to - *from;
    size_t t = nd->global_size[0];
    nd->global_size[0] = nd->global_size[1];
    nd->global_size[1] = t;
    t = nd->global_offset[0];
    nd->global_offset[0] = nd->global_offset[1];
    nd->global_offset[1] = t;
    for (int i = 0; i < 2; ++i) {
        nd->enqueued_local_size[i] = nd->local_size[i] = 1;
        nd->num_groups[i] = nd->global_size[i];
    }
    if (nd->work_dim < 2)
        nd->work_dim = 2;
    *from = 0;
    *to = nd->global_size[nd->work_dim - 1];
}

/* ---- A kernel's last loop as dimension 1 (cl2c/workgroup/loop_dimension.py) ------ */

/* The least and most of the indices a*g + [lo, hi] for g (global id 0) in [g_lo, g_hi],
 * into *least and *most (which keep the least and most so far); 0 where they may leave
 * an int's range: there the kernel's own arithmetic could wrap, and the loop stays one.
 * (|a|, |lo| and |hi| are at most INT_MAX: the translator's.) */
static inline int cl2c_loop_span(size_t g_lo, size_t g_hi, long long a, long long lo,
                                 long long hi, long long *least, long long *most) {
    if (g_hi > (size_t)INT_MAX) return 0;
    long long x = a * (long long)g_lo, y = a * (long long)g_hi;
    if (x > y) {
        long long t = x;
        x = y;
        y = t;
    }
    x += lo;
    y += hi;
    if (x < INT_MIN || y > INT_MAX) return 0;
    if (x < *least) *least = x;
    if (y > *most) *most = y;
    return 1;
}

/* Whether elements [plo, phi] of p (psz bytes each) and [qlo, qhi] of q do not meet. */
static inline int cl2c_loop_apart(const void *p, long long plo, long long phi, size_t psz,
                                  const void *q, long long qlo, long long qhi, size_t qsz) {
    const intptr_t p0 = (intptr_t)p + (intptr_t)plo * (intptr_t)psz,
                   p1 = (intptr_t)p + (intptr_t)(phi + 1) * (intptr_t)psz,
                   q0 = (intptr_t)q + (intptr_t)qlo * (intptr_t)qsz,
                   q1 = (intptr_t)q + (intptr_t)(qhi + 1) * (intptr_t)qsz;
    return p1 <= q0 || q1 <= p0;
}

/* The range of a launch of one dimension whose work-items [from, to) run the kernel's
 * last loop as dimension 1, n wide: the part is the whole range (the offset moved to
 * `from`), and each of its work-items n work-items along dimension 1. cl2c cuts the new
 * range into groups (cl2c_regroup). */
static inline void cl2c_loop_range(cl2c_workitem *nd, size_t *from, size_t *to, size_t n) {
    nd->global_offset[0] += *from;
    nd->global_size[0] = *to - *from;
    nd->global_offset[1] = 0;
    nd->global_size[1] = n;
    for (int i = 0; i < 2; ++i) {
        nd->enqueued_local_size[i] = nd->local_size[i] = 1;
        nd->num_groups[i] = nd->global_size[i];
    }
    nd->work_dim = 2;
    *from = 0;
    *to = n;
}

static inline size_t cl2c_gcd_(size_t a, size_t b) {
    while (b != 0) {
        size_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* ---- Groups with nothing to do (cl2c/workgroup/live_groups.py) ------------ */

/* A kernel's guard sends home every work-item whose x = global id + shift (in dimension
 * d; the id less the offset where `relative`) is at or past a limit; live[d] (the
 * dimension's global size to begin with) becomes at most the number of work-items, from
 * the dimension's offset, that it may leave live.
 * C computes x in the kernel's types, which wrap: the bound holds where the launch
 * keeps the id within [id_lo, id_hi] and x within [x_lo, x_hi] (those types' ranges)
 * and where `exact` (the limit converts to the comparison's type unchanged); it is not
 * used elsewhere. Values as cl2c_live_value gives them: within CL2C_LIVE_FAR, the
 * sums here do not overflow. */
#define CL2C_LIVE_FAR (LLONG_MAX / 4)

/* v, or a value past +-2 CL2C_LIVE_FAR where v is: the same comparisons with any x
 * within CL2C_LIVE_FAR */
static inline long long cl2c_live_value(long long v) {
    return v > 2 * CL2C_LIVE_FAR ? 2 * CL2C_LIVE_FAR : v < -2 * CL2C_LIVE_FAR ? -2 * CL2C_LIVE_FAR : v;
}
static inline long long cl2c_live_uvalue(unsigned long long v) {
    return v > 2 * CL2C_LIVE_FAR ? 2 * CL2C_LIVE_FAR : (long long)v;
}

static inline void cl2c_live_below(size_t live[3], const cl2c_workitem *nd, unsigned d,
                                   int relative, long long id_lo, long long id_hi,
                                   long long shift, long long x_lo, long long x_hi,
                                   long long limit, int inclusive, int exact) {
    const size_t offset = relative ? 0 : nd->global_offset[d], n = nd->global_size[d];
    if (!exact || n == 0 || offset > (size_t)CL2C_LIVE_FAR || n > (size_t)CL2C_LIVE_FAR)
        return;
    const long long id_first = (long long)offset, id_last = id_first + (long long)(n - 1);
    if (id_first < id_lo || id_last > id_hi || id_last > CL2C_LIVE_FAR)
        return;                                         /* an id wraps in the kernel's type */
    const long long first = id_first + shift, last = id_last + shift;
    if (first < x_lo || last > x_hi || first < -CL2C_LIVE_FAR || last > CL2C_LIVE_FAR)
        return;                                         /* and so does x */
    const long long end = limit + (inclusive != 0) - first;    /* live: x < limit (+ 1) */
    const size_t e = end <= 0 ? 0 : (size_t)end;
    if (e < live[d])
        live[d] = e;
}

/* The end of the work-items [from, to) of the slowest dimension that may be live. */
static inline size_t cl2c_live_end(const cl2c_workitem *nd, const size_t *live, size_t from,
                                   size_t to) {
    const size_t e = live != NULL ? live[nd->work_dim - 1] : to;
    return e >= to ? to : e <= from ? from : e;
}

/* The groups of each dimension that hold a live work-item: the first groups[d]. */
static inline void cl2c_live_groups_of(const cl2c_workitem *nd, const size_t live[3],
                                       size_t groups[3]) {
    for (int d = 0; d < 3; ++d)
        groups[d] = (live[d] + nd->enqueued_local_size[d] - 1) / nd->enqueued_local_size[d];
}

/* cl2c_regroup for the work-items [from, to) of the slowest dimension: cut as a launch
 * of those alone would be (threads balanced over the part), then narrowed, along that
 * dimension, to groups that start at `from` and end at `to` (or at the range's end), so
 * that the part runs exactly its own work-items. The kernel cannot tell groups apart,
 * so any group size computes the same (and tiles run whole tiles or the plain loop).
 * `live` (or NULL): the work-items of each dimension its guard may leave live
 * (cl2c_live_below): cut as a launch of the slowest dimension's alone, the groups past
 * them empty (the other dimensions keep their cut: groups a few work-items wide, to
 * skip a few past a narrow live edge, would cost more than the bounded work-item
 * loops of whole rows). */
__attribute__((noinline)) CL2C_RT void
cl2c_regroup_part(cl2c_workitem *nd, size_t threads, size_t tile_rows,
                  size_t tile_cols, int streams, size_t from, size_t to,
                  const size_t *live);
#if CL2C_RT_BODIES      /* out of line: linkage.h */
__attribute__((noinline)) CL2C_RT void
cl2c_regroup_part(cl2c_workitem *nd, size_t threads, size_t tile_rows,
                  size_t tile_cols, int streams, size_t from, size_t to,
                  const size_t *live) {
    const unsigned d = nd->work_dim - 1;
    const size_t whole = nd->global_size[d], end = cl2c_live_end(nd, live, from, to);
    if (from == 0 && end == whole) {
        cl2c_regroup(nd, threads, tile_rows, tile_cols, streams);
        return;
    }
    nd->global_size[d] = end > from ? end - from : 1;
    cl2c_regroup(nd, threads, tile_rows, tile_cols, streams);
    nd->global_size[d] = whole;
    const size_t edges = cl2c_gcd_(from, to == whole ? 0 : to);
    size_t l = nd->local_size[d];
    if (edges != 0 && edges % l != 0)
        l = cl2c_divisor_at_most(edges, l);
    nd->enqueued_local_size[d] = nd->local_size[d] = l;
    nd->num_groups[d] = (whole + l - 1) / l;
}
#endif

/* The groups [*first, *end) that run the work-items [from, to) of the slowest dimension,
 * flattened as cl2c_group_of counts them (dimension 0 fastest: the groups of a slice of
 * the slowest dimension follow one another). from is at a group's start, and to at one's
 * end or at the range's. */
static inline void cl2c_part_groups(const cl2c_workitem *nd, size_t from, size_t to,
                                    size_t *first, size_t *end) {
    const unsigned d = nd->work_dim - 1;
    size_t below = 1;
    for (unsigned i = 0; i < d; ++i)
        below *= nd->num_groups[i];
    const size_t l = nd->enqueued_local_size[d];
    *first = from / l * below;
    *end = (to + l - 1) / l * below;
}

/* ---- Images and samplers --------------------------------------------------- */

/* An image (image1d_t ... image2d_array_depth_t) is a pointer to a cl2c_image:
 * the kernel's cl2c_kernel_K takes a `cl2c_image *` for each image argument (its
 * C type is cl2c_image2d_t and so on, all the same pointer). The pixels lie in
 * `data`, C-contiguous: row after row, slice after slice (a 3D image), layer
 * after layer (an image array); every pixel `element_size` bytes, its channels in
 * the order's order (one word for the packed formats 565, 555 and 101010). Sizes
 * not of the kind are 0: height of 1D images, depth of all but 3D ones,
 * array_size of all but arrays. The values are OpenCL's (cl.h): image_type
 * CL_MEM_OBJECT_IMAGE2D (0x10F1) ..., channel_order CL_RGBA (0x10B5) ...,
 * channel_data_type CL_FLOAT (0x10DE) ...; they are what get_image_channel_order
 * and get_image_channel_data_type return. cl2c_image_init fills one. A sampler
 * (sampler_t) is a cl2c_sampler_t: its CLK_* flags, as kernels write them. */
typedef struct cl2c_image {
    void *data;
    size_t width, height, depth, array_size;   /* in pixels; array_size in layers */
    size_t row_pitch;                          /* bytes from a row to the next */
    size_t slice_pitch;                        /* bytes from a slice (or, for a 1D
                                                  or 2D array, a layer) to the next */
    unsigned image_type, channel_order, channel_data_type;
    unsigned element_size;                     /* bytes of a pixel */
    unsigned num_channels;                     /* channels stored (1 when packed) */
    unsigned reserved_;
} cl2c_image;
typedef unsigned int cl2c_sampler_t;

/* The C types of the kernels' image parameters: all a cl2c_image *. */
typedef cl2c_image *cl2c_image1d_t;
typedef cl2c_image *cl2c_image1d_buffer_t;
typedef cl2c_image *cl2c_image1d_array_t;
typedef cl2c_image *cl2c_image2d_t;
typedef cl2c_image *cl2c_image2d_array_t;
typedef cl2c_image *cl2c_image3d_t;
typedef cl2c_image *cl2c_image2d_depth_t;
typedef cl2c_image *cl2c_image2d_array_depth_t;

/* Channel orders and data types: cl.h's values (CL_R ... CL_ABGR, CL_SNORM_INT8 ...),
 * for cl2c_image_init and what get_image_channel_order/_data_type return. */
enum {
    CL2C_R = 0x10B0, CL2C_A, CL2C_RG, CL2C_RA, CL2C_RGB, CL2C_RGBA, CL2C_BGRA, CL2C_ARGB,
    CL2C_INTENSITY, CL2C_LUMINANCE, CL2C_Rx, CL2C_RGx, CL2C_RGBx, CL2C_DEPTH,
    CL2C_DEPTH_STENCIL, CL2C_sRGB, CL2C_sRGBx, CL2C_sRGBA, CL2C_sBGRA, CL2C_ABGR
};
enum {
    CL2C_SNORM_INT8 = 0x10D0, CL2C_SNORM_INT16, CL2C_UNORM_INT8, CL2C_UNORM_INT16,
    CL2C_UNORM_SHORT_565, CL2C_UNORM_SHORT_555, CL2C_UNORM_INT_101010, CL2C_SIGNED_INT8,
    CL2C_SIGNED_INT16, CL2C_SIGNED_INT32, CL2C_UNSIGNED_INT8, CL2C_UNSIGNED_INT16,
    CL2C_UNSIGNED_INT32, CL2C_HALF_FLOAT, CL2C_FLOAT, CL2C_UNORM_INT24
};


#define CL2C_MEM_OBJECT_IMAGE2D 0x10F1
#define CL2C_MEM_OBJECT_IMAGE3D 0x10F2
#define CL2C_MEM_OBJECT_IMAGE2D_ARRAY 0x10F3
#define CL2C_MEM_OBJECT_IMAGE1D 0x10F4
#define CL2C_MEM_OBJECT_IMAGE1D_ARRAY 0x10F5
#define CL2C_MEM_OBJECT_IMAGE1D_BUFFER 0x10F6

/* Channels stored by a channel order (CL_R 0x10B0 ... CL_ABGR 0x10C3), 0 if unknown.
 * CL_Rx and CL_RGx store what CL_R and CL_RG store (the API spec's format table groups
 * them so; the CTS and PoCL agree): the x differs in the border colour only. */
static inline unsigned cl2c_order_channels_(unsigned order) {
    static const unsigned char n[] = {1, 1, 2, 2, 3, 4, 4, 4, 1, 1, 1, 2, 3, 1, 0, 3, 4, 4, 4, 4};
    return order >= 0x10B0 && order <= 0x10C3 ? n[order - 0x10B0] : 0;
}

/* Bytes of a channel of a data type (CL_SNORM_INT8 0x10D0 ... CL_UNORM_INT24 0x10DF),
 * or of the whole pixel for the packed ones (negative), 0 if unknown. */
static inline int cl2c_type_bytes_(unsigned type) {
    static const signed char n[] = {1, 2, 1, 2, -2, -2, -4, 1, 2, 4, 1, 2, 4, 2, 4, 4};
    return type >= 0x10D0 && type <= 0x10DF ? n[type - 0x10D0] : 0;
}

/* Describes the C-contiguous pixels at `data` as an image of `image_type` (a
 * CL2C_MEM_OBJECT_IMAGE* value), channel order and data type, and sizes in pixels:
 * width, then height (2D, 3D, 2D arrays), depth (3D) and array_size (arrays),
 * 0 where the kind has none. Returns CL2C_SUCCESS, CL2C_INVALID_IMAGE_FORMAT_DESCRIPTOR
 * for an unknown order or type, or CL2C_INVALID_IMAGE_SIZE for a size of 0. */
static inline int cl2c_image_init(cl2c_image *img, unsigned image_type, unsigned channel_order,
                                  unsigned channel_data_type, size_t width, size_t height,
                                  size_t depth, size_t array_size, void *data) {
    unsigned channels = cl2c_order_channels_(channel_order);
    int bytes = cl2c_type_bytes_(channel_data_type);
    if (img == NULL || channels == 0 || bytes == 0 || image_type < CL2C_MEM_OBJECT_IMAGE2D ||
        image_type > CL2C_MEM_OBJECT_IMAGE1D_BUFFER)
        return CL2C_INVALID_IMAGE_FORMAT_DESCRIPTOR;
    int has_height = image_type == CL2C_MEM_OBJECT_IMAGE2D ||
                     image_type == CL2C_MEM_OBJECT_IMAGE3D ||
                     image_type == CL2C_MEM_OBJECT_IMAGE2D_ARRAY;
    int has_layers = image_type == CL2C_MEM_OBJECT_IMAGE1D_ARRAY ||
                     image_type == CL2C_MEM_OBJECT_IMAGE2D_ARRAY;
    if (width == 0 || (has_height && height == 0) ||
        (image_type == CL2C_MEM_OBJECT_IMAGE3D && depth == 0) || (has_layers && array_size == 0))
        return CL2C_INVALID_IMAGE_SIZE;
    img->data = data;
    img->width = width;
    img->height = has_height ? height : 0;
    img->depth = image_type == CL2C_MEM_OBJECT_IMAGE3D ? depth : 0;
    img->array_size = has_layers ? array_size : 0;
    img->num_channels = bytes < 0 ? 1 : channels;
    img->element_size = bytes < 0 ? (unsigned)-bytes : channels * (unsigned)bytes;
    img->row_pitch = img->element_size * width;
    img->slice_pitch = image_type == CL2C_MEM_OBJECT_IMAGE1D_ARRAY ? img->row_pitch
                       : has_height && image_type != CL2C_MEM_OBJECT_IMAGE2D
                           ? img->row_pitch * height : 0;
    img->image_type = image_type;
    img->channel_order = channel_order;
    img->channel_data_type = channel_data_type;
    img->reserved_ = 0;
    return CL2C_SUCCESS;
}

/* A sampler's flags (clang's values of the CLK_* macros): normalized coordinates,
 * CL2C_ADDRESS_* and CL2C_FILTER_*, or-ed. */
#define CL2C_NORMALIZED_COORDS 0x1
#define CL2C_ADDRESS_NONE 0x0
#define CL2C_ADDRESS_CLAMP_TO_EDGE 0x2
#define CL2C_ADDRESS_CLAMP 0x4
#define CL2C_ADDRESS_REPEAT 0x6
#define CL2C_ADDRESS_MIRRORED_REPEAT 0x8
#define CL2C_FILTER_NEAREST 0x10
#define CL2C_FILTER_LINEAR 0x20

/* ---- Kernel metadata ------------------------------------------------------ */

/* Address spaces, with the values of OpenCL's CL_KERNEL_ARG_ADDRESS_*. */
#define CL2C_ADDRESS_GLOBAL 0x119B
#define CL2C_ADDRESS_LOCAL 0x119C
#define CL2C_ADDRESS_CONSTANT 0x119D
#define CL2C_ADDRESS_PRIVATE 0x119E

/* How an argument is passed to cl2c_kernel_K, and what args[i] points to in
 * cl2c_launch / cl2c_argv_K. */
typedef enum cl2c_arg_kind {
    CL2C_ARG_BUFFER = 0, /* a __global or __constant pointer: the pointer */
    CL2C_ARG_LOCAL = 1,  /* a __local pointer: its size in bytes, a size_t */
    CL2C_ARG_VALUE = 2,  /* anything else: the value */
    CL2C_ARG_IMAGE = 3,  /* an image: a cl2c_image * */
    CL2C_ARG_SAMPLER = 4 /* a sampler_t: its flags, a cl2c_sampler_t */
} cl2c_arg_kind;

typedef struct cl2c_arg_info {
    const char *name;       /* as the kernel names it */
    const char *type_name;  /* as OpenCL's CL_KERNEL_ARG_TYPE_NAME: "float*", "int4" */
    unsigned address_space; /* CL2C_ADDRESS_* */
    cl2c_arg_kind kind;
    size_t size;            /* bytes that args[i] points to */
    int is_const;           /* a pointer to const, or a const value */
    int writes;             /* buffers: the kernel may write through the pointer;
                               images: 0 read_only, 1 write_only, 2 read_write */
    int is_volatile;        /* a pointer to volatile */
    int is_restrict;        /* a restrict pointer */
    size_t align;           /* buffers: where the kernel's C assumes the pointer starts, a
                               power of two (its pointee's alignment, or more where the
                               kernel casts it: float * to float16 *); 1 for the others */
} cl2c_arg_info;

typedef struct cl2c_kernel_info {
    const char *name;
    unsigned num_args;
    const cl2c_arg_info *args;        /* num_args of them (NULL if none) */
    size_t reqd_work_group_size[3];   /* all 0: the kernel does not require one */
    int non_uniform;                  /* built for OpenCL 2.0: any local size is allowed */
    const char *schedule;             /* how work-groups run: "loops", ... */
    int (*launch)(const cl2c_range *range, void *const *args); /* cl2c_argv_K */
    size_t local_mem_size;            /* bytes of its kernel-scope __local variables */
    const char *attributes;           /* as CL_KERNEL_ATTRIBUTES tells them, space-
                                         separated: "reqd_work_group_size(8,1,1)" */
} cl2c_kernel_info;

/* All the kernels of one generated file, as cl2c_program_<file name>. */
typedef struct cl2c_program_info {
    const char *source;               /* the .cl file it was translated from */
    unsigned num_kernels;
    const cl2c_kernel_info *const *kernels;
    size_t globals_size;              /* bytes of its program-scope __global variables */
    void (*globals_init)(void *storage); /* their initial values, into zeroed storage */
} cl2c_program_info;

static inline int cl2c_streq_(const char *a, const char *b) {
    while (*a != '\0' && *a == *b) {
        ++a;
        ++b;
    }
    return *a == *b;
}

/* The kernel of a program by name, or NULL. */
static inline const cl2c_kernel_info *cl2c_find_kernel(const cl2c_program_info *program,
                                                       const char *name) {
    if (program == NULL || name == NULL)
        return NULL;
    for (unsigned i = 0; i < program->num_kernels; ++i)
        if (cl2c_streq_(program->kernels[i]->name, name))
            return program->kernels[i];
    return NULL;
}

static inline const size_t *cl2c_reqd_(const cl2c_kernel_info *k) {
    const size_t *r = k->reqd_work_group_size;
    return r[0] != 0 || r[1] != 0 || r[2] != 0 ? r : NULL;
}

static inline void cl2c_msg_arg_(cl2c_msg_ *m, const cl2c_kernel_info *k, unsigned i) {
    cl2c_msg_str_(m, "argument ");
    cl2c_msg_num_(m, i);
    cl2c_msg_str_(m, " '");
    cl2c_msg_str_(m, k->args[i].name);
    cl2c_msg_str_(m, "' (");
    cl2c_msg_str_(m, k->args[i].type_name);
    cl2c_msg_str_(m, ")");
}

/* Checks a launch of kernel k without running it: the range, and, when args
 * is not NULL or the kernel takes arguments, that every argument is set, no
 * buffer is NULL and no __local argument is empty. Returns CL2C_SUCCESS or an
 * error code, and writes a message that says what is wrong into msg (of
 * msg_size bytes; msg may be NULL). */
static inline int cl2c_check_launch(const cl2c_kernel_info *k, const cl2c_range *range,
                                    void *const *args, char *msg, size_t msg_size) {
    cl2c_msg_ m = {msg, msg_size, 0};
    cl2c_msg_str_(&m, "");
    if (k == NULL) {
        cl2c_msg_str_(&m, "no kernel (the kernel information is NULL)");
        return CL2C_INVALID_KERNEL;
    }
    cl2c_msg_str_(&m, "kernel '");
    cl2c_msg_str_(&m, k->name);
    cl2c_msg_str_(&m, "': ");
    cl2c_workitem resolved;
    int status = cl2c_range_resolve_msg_(range, cl2c_reqd_(k), k->non_uniform, &resolved, &m);
    if (status != CL2C_SUCCESS)
        return status;
    if (k->num_args > 0 && args == NULL) {
        cl2c_msg_str_(&m, "no arguments given (args is NULL); it takes ");
        cl2c_msg_num_(&m, k->num_args);
        return CL2C_INVALID_KERNEL_ARGS;
    }
    for (unsigned i = 0; i < k->num_args; ++i) {
        if (args[i] == NULL) {
            cl2c_msg_arg_(&m, k, i);
            cl2c_msg_str_(&m, " is not set (args[i] is NULL)");
            return CL2C_INVALID_KERNEL_ARGS;
        }
        if (k->args[i].kind == CL2C_ARG_IMAGE && *(void *const *)args[i] == NULL) {
            cl2c_msg_arg_(&m, k, i);
            cl2c_msg_str_(&m, " is a null image");
            return CL2C_INVALID_ARG_VALUE;
        }
        if (k->args[i].kind == CL2C_ARG_BUFFER && *(void *const *)args[i] == NULL) {
            cl2c_msg_arg_(&m, k, i);
            cl2c_msg_str_(&m, " is a null buffer (call cl2c_kernel_");
            cl2c_msg_str_(&m, k->name);
            cl2c_msg_str_(&m, " to pass a null pointer on purpose)");
            return CL2C_INVALID_ARG_VALUE;
        }
        if (k->args[i].kind == CL2C_ARG_BUFFER && k->args[i].align > 1 &&
            (uintptr_t)*(void *const *)args[i] % k->args[i].align != 0) {
            /* (its loads would fault: the C caller's buffers have no size to copy by) */
            cl2c_msg_arg_(&m, k, i);
            cl2c_msg_str_(&m, " starts ");
            cl2c_msg_num_(&m, (uintptr_t)*(void *const *)args[i] % k->args[i].align);
            cl2c_msg_str_(&m, " bytes past a multiple of ");
            cl2c_msg_num_(&m, k->args[i].align);
            cl2c_msg_str_(&m, ", as the kernel reads it (allocate buffers with "
                              "aligned_alloc(128, size), where OpenCL's start)");
            return CL2C_INVALID_ARG_VALUE;
        }
        if (k->args[i].kind == CL2C_ARG_LOCAL && *(const size_t *)args[i] == 0) {
            cl2c_msg_arg_(&m, k, i);
            cl2c_msg_str_(&m, " is a __local buffer of 0 bytes");
            return CL2C_INVALID_ARG_SIZE;
        }
    }
    m.len = 0;
    cl2c_msg_str_(&m, "");
    return CL2C_SUCCESS;
}

/* Launches kernel k after cl2c_check_launch, with its arguments as an array
 * of pointers to their values (the shape of clSetKernelArg: for a buffer, a
 * pointer to the pointer; for a __local argument, a pointer to its size). */
static inline int cl2c_launch(const cl2c_kernel_info *k, const cl2c_range *range,
                              void *const *args) {
    int status = cl2c_check_launch(k, range, args, NULL, 0);
    if (status != CL2C_SUCCESS)
        return status;
    return k->launch(range, args);
}

/* ---- Helpers of the generated entry points -------------------------------- */

/* Built with the address sanitizer (-cl2c-sanitize=address): every __local region is
 * followed by a poisoned red zone (cl2c_local_poison), so that the sanitizer sees an
 * access past its end. */
#if defined(__SANITIZE_ADDRESS__)
#define CL2C_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CL2C_ASAN 1
#endif
#endif
#ifdef CL2C_ASAN
#include <sanitizer/asan_interface.h>
#define CL2C_LOCAL_REDZONE 64
#else
#define CL2C_LOCAL_REDZONE 0
#endif

/* A size rounded up to the alignment of __local memory (and a red zone after it). */
static inline size_t cl2c_local_round(size_t bytes) {
    return (bytes + CL2C_LOCAL_ALIGN - 1) / CL2C_LOCAL_ALIGN * CL2C_LOCAL_ALIGN +
           CL2C_LOCAL_REDZONE;
}

/* The address sanitizer: a group's __local region of `bytes` at p may be used, the rest
 * of its rounded size may not; cl2c_local_free makes the whole block usable again. */
static inline void cl2c_local_poison(void *p, size_t bytes) {
#ifdef CL2C_ASAN
    ASAN_UNPOISON_MEMORY_REGION(p, bytes);
    ASAN_POISON_MEMORY_REGION((char *)p + bytes, cl2c_local_round(bytes) - bytes);
#else
    (void)p, (void)bytes;
#endif
}

/* Each thread's block of __local memory starts on a page of its own (hardware
 * prefetchers stay within a page). Blocks side by side, 1 KB a thread, made the tree
 * reduction 1.45x slower at 16 threads on a 16-core Xeon, though no two threads
 * write the same cache line. */
#define CL2C_LOCAL_PAGE 4096

static inline size_t cl2c_local_thread_stride(size_t per_thread) {
    return (cl2c_local_round(per_thread) + CL2C_LOCAL_PAGE - 1) / CL2C_LOCAL_PAGE *
           CL2C_LOCAL_PAGE;
}

static inline void cl2c_local_unpoison(void *p, size_t per_thread, int threads) {
#ifdef CL2C_ASAN
    ASAN_UNPOISON_MEMORY_REGION(p, cl2c_local_thread_stride(per_thread) * (size_t)threads);
#else
    (void)p, (void)per_thread, (void)threads;
#endif
}

/* __local memory for every thread (each runs one work-group at a time): one
 * block of `per_thread` bytes per thread, aligned, zeroed, NULL when out of memory.
 * OpenCL leaves __local memory undefined at a group's start, but kernels read it
 * (PyOpenCL's scan reads flags that no work-item wrote): zeroed, a launch computes
 * the same whatever the process did before it, whichever way its program was built,
 * and as PoCL does. Each thread's later groups find what its previous group left. */
static inline char *cl2c_local_alloc(size_t per_thread, int threads) {
    size_t n = cl2c_local_thread_stride(per_thread) * (size_t)threads;
    if (n == 0)
        n = CL2C_LOCAL_PAGE;
    char *p = (char *)aligned_alloc(CL2C_LOCAL_PAGE, n);
    if (p != NULL)
        memset(p, 0, n);
    return p;
}

#endif
