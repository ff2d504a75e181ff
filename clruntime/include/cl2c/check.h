/* Checking mode (-cl2c-check): what the instrumented kernel calls.
 *
 * The translator wraps every access to __global, __constant and __local memory in
 * CL2C_CK_ACCESS, every index of an array in CL2C_CK_INDEX and every integer divisor in
 * CL2C_CK_DIVISOR (cl2c/lower/checks.py); the kernel's entry registers its buffers with
 * the byte sizes the host passed (cl2c_check_sizes) and each group its __local memory.
 *
 * - Bounds: an access is checked against the range its base pointer lies in (the
 *   buffer, or __local variable, that `a` of `a[i]` points into), so an index running
 *   into a neighbouring buffer is still found. Memory of no registered range (private
 *   memory, program-scope constants) is not checked here.
 * - Races: each written __global buffer has a shadow word per granule (4 bytes where
 *   the pointee's size is a multiple of 4, else 1), __local memory one per byte: the
 *   last access's group, local id, barrier phase and whether it wrote. Two accesses of
 *   different groups, or of different work-items of a group in one barrier phase, at
 *   least one a write, are a race. One reader is remembered per granule (a write after
 *   the reads of two others may go unseen); atomics are not instrumented.
 * - Uninitialised __local memory: a read of a byte no work-item of the group wrote.
 * - Division: an integer divisor of zero.
 *
 * A finding either stops the launch (the rest of the groups are skipped; the access
 * itself goes to a scratch area, so nothing outside the buffers is touched) or, with
 * -cl2c-check=collect, is kept and the launch goes on; cl2c_check_findings() then has
 * the text. Each site reports once per launch. */
#ifndef CL2C_CHECK_H
#define CL2C_CHECK_H

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "workitem.h"

#define CL2C_CK_READ 1u
#define CL2C_CK_WRITE 2u
#define CL2C_CK_MAX_RANGES 64
#define CL2C_CK_MAX_FINDINGS 64

typedef struct cl2c_ck_site {
    const char *file;
    int line, col;
    int reported; /* this launch's number when it last reported: once per launch */
} cl2c_ck_site;

typedef struct cl2c_ck_range {
    const char *name;  /* the argument's or variable's name */
    const char *space; /* "__global", "__constant", "__local" */
    const char *lo;
    size_t size;       /* bytes */
    uint64_t *shadow;  /* NULL: no race or initialisation checks */
    unsigned shift;    /* log2 of the granule */
} cl2c_ck_range;

typedef struct cl2c_ck_launch {
    const char *kernel;
    int collect;
    int serial;        /* this launch's number, for the sites */
    volatile int stop; /* a finding stops the launch (not in collect mode) */
    int nbuffers;
    cl2c_ck_range buffers[CL2C_CK_MAX_RANGES];
    pthread_mutex_t lock;
    int findings;
    size_t used;
    char text[16384];
} cl2c_ck_launch;

typedef struct cl2c_ck_thread {
    cl2c_ck_launch *launch;
    const cl2c_workitem *grp;
    size_t lid[3];      /* the running work-item (loops schedule) */
    int fibers;         /* the fibers schedule: the fiber says who runs */
    uint32_t gen;       /* this thread's groups, counted: __local shadow entries of
                           another group are stale */
    uint32_t group;     /* the running group's linear id + 1 */
    int nlocals;
    cl2c_ck_range locals[CL2C_CK_MAX_RANGES];
    const char *local_lo;
    uint64_t *local_shadow;
    size_t local_shadow_bytes;
    char scratch[256] __attribute__((aligned(64)));
} cl2c_ck_thread;

static _Thread_local cl2c_ck_thread cl2c_ck_tls;
/* What the host says of the next launch on this thread: its arguments' byte sizes. */
static _Thread_local size_t cl2c_ck_pending[CL2C_CK_MAX_RANGES];
static _Thread_local unsigned cl2c_ck_npending;
static _Thread_local char cl2c_ck_last[16384];
CL2C_UNUSED static int cl2c_ck_serial_;

/* The byte sizes of the arguments of the next launch on this thread, in argument
 * order (0 where unknown: that buffer is not bounds- or race-checked). */
static inline void cl2c_check_sizes(const size_t *sizes, unsigned n) {
    if (n > CL2C_CK_MAX_RANGES) n = CL2C_CK_MAX_RANGES;
    for (unsigned i = 0; i < n; ++i) cl2c_ck_pending[i] = sizes[i];
    cl2c_ck_npending = n;
}

/* The findings of the last checked launch of this thread ("" for none). */
static inline const char *cl2c_check_findings(void) { return cl2c_ck_last; }

/* ---- the launch */

static inline void cl2c_ck_begin(cl2c_ck_launch *L, const char *kernel, int collect) {
    memset(L, 0, offsetof(cl2c_ck_launch, lock));
    L->kernel = kernel;
    L->collect = collect;
    L->serial = __atomic_add_fetch(&cl2c_ck_serial_, 1, __ATOMIC_RELAXED);
    pthread_mutex_init(&L->lock, NULL);
    L->findings = 0;
    L->used = 0;
    L->text[0] = '\0';
    cl2c_ck_last[0] = '\0';
}

/* Buffer argument `index`: its size from cl2c_check_sizes; a shadow where it is written. */
static inline void cl2c_ck_buffer(cl2c_ck_launch *L, unsigned index, const char *name,
                                  const char *space, const void *p, int written,
                                  unsigned shift) {
    if (p == NULL || index >= cl2c_ck_npending || cl2c_ck_pending[index] == 0 ||
        L->nbuffers == CL2C_CK_MAX_RANGES)
        return;
    cl2c_ck_range *r = &L->buffers[L->nbuffers++];
    r->name = name;
    r->space = space;
    r->lo = (const char *)p;
    r->size = cl2c_ck_pending[index];
    r->shift = shift;
    r->shadow = written ? (uint64_t *)calloc((r->size >> shift) + 1, sizeof(uint64_t)) : NULL;
}

static inline void cl2c_ck_item(size_t l0, size_t l1, size_t l2) {
    cl2c_ck_tls.lid[0] = l0;
    cl2c_ck_tls.lid[1] = l1;
    cl2c_ck_tls.lid[2] = l2;
}

/* At the start of each group: who runs, and where its __local memory is. */
static inline void cl2c_ck_group(cl2c_ck_launch *L, const cl2c_workitem *g, int fibers,
                                 const void *local_block, size_t local_bytes) {
    cl2c_ck_thread *t = &cl2c_ck_tls;
    t->launch = L;
    t->grp = g;
    t->fibers = fibers;
    t->group = (uint32_t)((g->group_id[2] * g->num_groups[1] + g->group_id[1]) *
                          g->num_groups[0] + g->group_id[0] + 1);
    if (++t->gen == 0) t->gen = 1;
    t->nlocals = 0;
    t->local_lo = (const char *)local_block;
    cl2c_ck_item(0, 0, 0);
    if (local_bytes > t->local_shadow_bytes) {
        free(t->local_shadow);
        t->local_shadow = (uint64_t *)calloc(local_bytes, sizeof(uint64_t));
        t->local_shadow_bytes = t->local_shadow ? local_bytes : 0;
    }
}

static inline void cl2c_ck_local(const char *name, const void *p, size_t size) {
    cl2c_ck_thread *t = &cl2c_ck_tls;
    if (t->nlocals == CL2C_CK_MAX_RANGES || size == 0) return;
    cl2c_ck_range *r = &t->locals[t->nlocals++];
    r->name = name;
    r->space = "__local";
    r->lo = (const char *)p;
    r->size = size;
    r->shift = 0;
    size_t at = (size_t)(r->lo - t->local_lo);
    r->shadow = t->local_shadow && at + size <= t->local_shadow_bytes ? t->local_shadow + at
                                                                       : NULL;
}

static inline int cl2c_ck_stopped(const cl2c_ck_launch *L) { return L->stop; }

static inline int cl2c_ck_end(cl2c_ck_launch *L) {
    for (int i = 0; i < L->nbuffers; ++i) free(L->buffers[i].shadow);
    pthread_mutex_destroy(&L->lock);
    cl2c_ck_npending = 0;
    memcpy(cl2c_ck_last, L->text, L->used + 1);
    if (L->findings && !L->collect) {
        char first[400]; /* the first finding: the launch's error */
        size_t len = strcspn(L->text, "\n");
        if (len >= sizeof first) len = sizeof first - 1;
        memcpy(first, L->text, len);
        first[len] = '\0';
        cl2c_fiber_report(first);
        return CL2C_CHECK_FAILED;
    }
    return 0;
}

/* ---- who runs */

static inline void cl2c_ck_who(const cl2c_ck_thread *t, size_t lid[3], size_t *phase) {
#ifdef CL2C_FIBER_H
    if (t->fibers && cl2c_fb_tls.cur) {
        lid[0] = cl2c_fb_tls.cur->id[0];
        lid[1] = cl2c_fb_tls.cur->id[1];
        lid[2] = cl2c_fb_tls.cur->id[2];
        *phase = cl2c_fb_tls.phase;
        return;
    }
#endif
    lid[0] = t->lid[0];
    lid[1] = t->lid[1];
    lid[2] = t->lid[2];
    *phase = 0;
}

/* ---- findings */

__attribute__((format(printf, 3, 4), cold, noinline, unused)) static void
cl2c_ck_finding(cl2c_ck_site *site, const char *what_space, const char *fmt, ...) {
    cl2c_ck_thread *t = &cl2c_ck_tls;
    cl2c_ck_launch *L = t->launch;
    (void)what_space;
    if (L == NULL || site->reported == L->serial) return;
    site->reported = L->serial;
    size_t lid[3], phase;
    cl2c_ck_who(t, lid, &phase);
    const cl2c_workitem *g = t->grp;
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&L->lock);
    if (L->findings++ < CL2C_CK_MAX_FINDINGS && L->used < sizeof L->text) {
        int n = snprintf(L->text + L->used, sizeof L->text - L->used,
                         "kernel '%s': %s:%d:%d: %s (work-item (%zu,%zu,%zu) of group "
                         "(%zu,%zu,%zu), global id (%zu,%zu,%zu))\n",
                         L->kernel, site->file, site->line, site->col, what, lid[0], lid[1],
                         lid[2], g->group_id[0], g->group_id[1], g->group_id[2],
                         g->group_id[0] * g->enqueued_local_size[0] + lid[0] +
                             g->global_offset[0],
                         g->group_id[1] * g->enqueued_local_size[1] + lid[1] +
                             g->global_offset[1],
                         g->group_id[2] * g->enqueued_local_size[2] + lid[2] +
                             g->global_offset[2]);
        if (n > 0) L->used += (size_t)n;
        if (L->used >= sizeof L->text) L->used = sizeof L->text - 1;
    }
    if (!L->collect) L->stop = 1;
    pthread_mutex_unlock(&L->lock);
}

/* ---- accesses */

/* The shadow word: bit 63 written ever (this group, for __local), bit 62 the last
 * access wrote, 48..61 barrier phase, 32..47 local linear id, 0..31 group (+1). */
#define CL2C_CK_INIT (1ull << 63)
#define CL2C_CK_W (1ull << 62)
#define CL2C_CK_WHO (~(CL2C_CK_INIT | CL2C_CK_W))

static inline int cl2c_ck_in(const cl2c_ck_range *r, const char *b) {
    return b >= r->lo && b < r->lo + r->size;
}

CL2C_UNUSED static inline const cl2c_ck_range *cl2c_ck_find(const cl2c_ck_range *rs, int n, const char *b) {
    for (int i = 0; i < n; ++i)
        if (cl2c_ck_in(&rs[i], b)) return &rs[i];
    for (int i = 0; i < n; ++i) /* one past the end, as `end[-1]` has it */
        if (b == rs[i].lo + rs[i].size) return &rs[i];
    return NULL;
}

__attribute__((noinline, unused)) static void cl2c_ck_shadow(const cl2c_ck_range *r, size_t off,
                                                     size_t n, unsigned flags,
                                                     cl2c_ck_site *site, int local) {
    cl2c_ck_thread *t = &cl2c_ck_tls;
    size_t lid[3], phase;
    cl2c_ck_who(t, lid, &phase);
    const cl2c_workitem *g = t->grp;
    uint64_t llid = (lid[2] * g->local_size[1] + lid[1]) * g->local_size[0] + lid[0];
    uint32_t grp = local ? t->gen : t->group;
    uint64_t me = (uint64_t)grp | (llid & 0xffff) << 32 | ((uint64_t)phase & 0x3fff) << 48;
    size_t first = off >> r->shift, last = (off + n - 1) >> r->shift;
    for (size_t i = first; i <= last; ++i) {
        uint64_t *s = &r->shadow[i];
        uint64_t old = __atomic_load_n(s, __ATOMIC_RELAXED);
        uint64_t who = old & CL2C_CK_WHO;
        if (local && (uint32_t)old != grp) old = who = 0; /* another group's: stale */
        if (flags & CL2C_CK_WRITE) {
            if (old == (me | CL2C_CK_W | CL2C_CK_INIT)) continue;
        } else if (who == me) {
            continue;
        }
        int conflict = who != 0 && who != me &&
                       ((uint32_t)who != grp || (who >> 48) == (me >> 48));
        size_t at = i << r->shift;
        if (conflict && ((flags & CL2C_CK_WRITE) || (old & CL2C_CK_W))) {
            uint32_t og = (uint32_t)who;
            size_t ol = (size_t)(who >> 32 & 0xffff);
            if (og != grp)
                cl2c_ck_finding(site, r->space,
                                "data race: %s of %s '%s' at offset %zu, which a work-item "
                                "of another group (linear id %u) %s in this launch",
                                flags & CL2C_CK_WRITE ? "write" : "read", r->space, r->name,
                                at, og - 1, old & CL2C_CK_W ? "wrote" : "read");
            else
                cl2c_ck_finding(site, r->space,
                                "data race: %s of %s '%s' at offset %zu, which work-item "
                                "(local linear id %zu) %s with no barrier between",
                                flags & CL2C_CK_WRITE ? "write" : "read", r->space, r->name,
                                at, ol, old & CL2C_CK_W ? "wrote" : "read");
        }
        if (local && (flags & CL2C_CK_READ) && !(old & CL2C_CK_INIT))
            cl2c_ck_finding(site, r->space,
                            "read of uninitialised %s memory: '%s' at offset %zu, which no "
                            "work-item of the group wrote", r->space, r->name, at);
        if (flags & CL2C_CK_WRITE)
            __atomic_store_n(s, me | CL2C_CK_W | CL2C_CK_INIT, __ATOMIC_RELAXED);
        else if (!(old & CL2C_CK_W) || !conflict)
            __atomic_store_n(s, me | (old & CL2C_CK_INIT), __ATOMIC_RELAXED);
    }
}

__attribute__((cold, noinline, unused)) static void *cl2c_ck_out(const cl2c_ck_range *r, const char *p,
                                                         size_t n, unsigned flags,
                                                         cl2c_ck_site *site) {
    long long off = (long long)(p - r->lo);
    cl2c_ck_finding(site, r->space,
                    "out-of-bounds %s of %zu bytes at offset %lld of %s '%s' (%zu bytes)",
                    flags & CL2C_CK_WRITE ? "write" : "read", n, off, r->space, r->name,
                    r->size);
    /* The access goes to scratch memory instead: nothing outside the buffers changes. */
    static _Thread_local char big[4096] __attribute__((aligned(64)));
    memset(big, 0, n < sizeof big ? n : sizeof big);
    return n <= sizeof big ? (void *)big : NULL;
}

/* An access of n bytes at p, whose pointer came from base (NULL: from p itself). */
static inline void *cl2c_ck_access(const void *base, void *p, size_t n, unsigned flags,
                                   int local, cl2c_ck_site *site) {
    cl2c_ck_thread *t = &cl2c_ck_tls;
    if (t->launch == NULL) return p;
    const char *b = (const char *)(base ? base : p), *a = (const char *)p;
    const cl2c_ck_range *r = local ? cl2c_ck_find(t->locals, t->nlocals, b)
                                   : cl2c_ck_find(t->launch->buffers, t->launch->nbuffers, b);
    if (r == NULL) return p;
    if (a < r->lo || n > r->size || (size_t)(a - r->lo) > r->size - n)
        return cl2c_ck_out(r, a, n, flags, site);
    if (r->shadow) cl2c_ck_shadow(r, (size_t)(a - r->lo), n ? n : 1, flags, site, local);
    return p;
}

#define CL2C_CK_ACCESS(base, p, flags, local, site)                                          \
    ((__typeof__(p))cl2c_ck_access((const void *)(base), (void *)(p), sizeof(*(p)), (flags),    \
                                   (local), (site)))

/* An index of an array of n elements. */
__attribute__((cold, noinline, unused)) static long long cl2c_ck_bad_index(long long i, long long n,
                                                                   cl2c_ck_site *site) {
    cl2c_ck_finding(site, "", "array index %lld out of bounds of an array of %lld elements", i,
                    n);
    return 0;
}
static inline long long cl2c_ck_index(long long i, long long n, cl2c_ck_site *site) {
    return i >= 0 && i < n ? i : cl2c_ck_bad_index(i, n, site);
}
#define CL2C_CK_INDEX(i, n, site) cl2c_ck_index((long long)(i), (n), (site))

/* An integer divisor: zero is reported (the division then gives some value, as it does
 * without checking). */
__attribute__((cold, noinline, unused)) static void cl2c_ck_zero(cl2c_ck_site *site) {
    cl2c_ck_finding(site, "", "integer division by zero");
}
#define CL2C_CK_DIVISOR(d, site)                                                             \
    __extension__({                                                                          \
        __typeof__(d) cl2c_ck_d_ = (d);                                                      \
        if (cl2c_ck_d_ == 0) cl2c_ck_zero(site);                                             \
        cl2c_ck_d_;                                                                          \
    })

#endif
