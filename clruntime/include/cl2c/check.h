/* Checking mode (-cl2c-check): what the instrumented kernel calls.
 *
 * The translator wraps every access to __global, __constant and __local memory in
 * CL2C_CK_ACCESS, every index of an array in CL2C_CK_INDEX and every integer divisor in
 * CL2C_CK_DIVISOR (cl2c/checking/accesses.py); the kernel's entry registers its buffers with
 * the byte sizes the host passed (cl2c_check_sizes) and each group its __local memory.
 *
 * - Bounds: an access is checked against the range its base pointer lies in (the
 *   buffer, or __local variable, that `a` of `a[i]` points into), so an index running
 *   into a neighbouring buffer is still found. A site remembers its last range; the
 *   ranges of a kernel's unchanged buffer arguments and of its kernel-scope __local
 *   variables are found once per function (CL2C_CK_ARG, cl2c_ck_argr): the accesses'
 *   fast paths are then a few compares of registers, their cold paths out of line.
 *   Memory of no registered range is not checked here (private memory: check_private.h).
 * - Races: each written __global buffer and each program-scope __global variable has a
 *   shadow word per granule (4 bytes where the pointee's size is a multiple of 4, else
 *   1), __local memory one per byte: the last access's group, local id, barrier phase
 *   and whether it wrote. Two accesses of different groups, or of different work-items
 *   of a group in one barrier phase, at least one a write, are a race. A granule that
 *   several work-items read is marked so (CL2C_CK_SEVERAL). An atomic function marks
 *   its granule atomic (CL2C_CK_ATOM): two atomics do not race, an atomic and a plain
 *   access do.
 * - Uninitialized __local memory: a read of a byte no work-item of the group wrote.
 * - Uninitialized __global memory: where the host says which bytes of a buffer were
 *   written before the launch (cl2c_check_written: the OpenCL platform's buffers made
 *   without host data), a read of a granule none of whose bytes the host, an earlier
 *   launch or this one wrote. Its shadow words start marked unwritten (a word of this
 *   launch without CL2C_CK_INIT), and what the launch wrote goes back to the map.
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
#include <sys/mman.h>

#include "host.h"
#include "workitem.h"

#define CL2C_CK_READ 1u
#define CL2C_CK_WRITE 2u
#define CL2C_CK_ATOMIC_ 4u    /* (an out-of-bounds finding's wording) */
#define CL2C_CK_BY_COPY 8u    /* the group's async copy reads (cl2c_ck_span) */
#define CL2C_CK_MAX_RANGES 64
#define CL2C_CK_MAX_EVENTS 16
#define CL2C_CK_FENCES 64
#define CL2C_CK_LOCAL_FENCE 1u  /* CLK_LOCAL_MEM_FENCE */
#define CL2C_CK_GLOBAL_FENCE 2u /* CLK_GLOBAL_MEM_FENCE */
#define CL2C_CK_MAX_FINDINGS 64
#define CL2C_CK_MAX_PRIVATES 32
/* A size passed to cl2c_check_sizes with this bit: the host gave the buffer read-only
 * (CL_MEM_READ_ONLY, a NumPy array that is not writeable). */
#define CL2C_CHECK_READ_ONLY ((size_t)1 << (sizeof(size_t) * 8 - 1))
/* Addresses below this are a NULL pointer's (plus an offset) */
#define CL2C_CK_NULL_PAGE 4096u

typedef struct cl2c_ck_site {
    const char *file;
    int line, col;
    int reported; /* this launch's number when it last reported: once per launch */
    int hint;     /* the range its last access was in: tried before a search */
} cl2c_ck_site;

typedef struct cl2c_ck_range {
    const char *name;  /* the argument's or variable's name */
    const char *space; /* "__global", "__constant", "__local" */
    const char *lo;
    size_t size;       /* bytes */
    uint64_t *shadow;  /* NULL: no race or initialisation checks */
    unsigned shift;    /* log2 of the granule */
    int readonly;      /* the host made it read-only: no shadow, every write a finding */
    unsigned char *written; /* a bit a byte: what was written before (NULL: all of it) */
    int wants;         /* a buffer's: a shadow, made once the launch's buffers are known
                        * (cl2c_ck_shadows: cl2c_ck_owned may take the wish back) */
    unsigned char *map; /* a written buffer's map of what was written, where the host
                        * follows that (the kernel wrote all of it where no shadow came) */
    /* a __local variable's (the thread's own range), for its quiet atomics
     * (CL2C_CK_LATOMIC): the phase (local_me0) in which the group was found to have
     * written all of it; the phase of tries, how many of them took the slow path */
    uint64_t all_set, tries_in;
    size_t tries;
} cl2c_ck_range;

typedef struct cl2c_ck_launch {
    const char *kernel;
    int collect;
    int serial;        /* this launch's number, for the sites and the shadow words */
    volatile int stop; /* a finding stops the launch (not in collect mode) */
    int nbuffers;
    cl2c_ck_range buffers[CL2C_CK_MAX_RANGES];
    size_t asked[3];   /* a regrouped launch's local size as the host gave it (0: none) */
    int host;          /* the group functions ran a range of cl2c's making, from the
                          host's offsets and sizes: */
    int transposed;    /* with dimensions 0 and 1 exchanged (cl2c_transpose_range), */
    int loop;          /* the kernel's last loop's iterations its dimension 1 (cl2c_loop_range) */
    size_t host_offset[3], host_size[3];
    pthread_mutex_t lock;
    int findings;
    size_t used;
    char text[16384];
} cl2c_ck_launch;

/* The shadow word of a granule: bit 63 written ever (__local: by this group), bit 62
 * the last access wrote, bit 61 it was an atomic function's, 48..60 the launch
 * (__global), 36..47 the barrier phase, 24..35 the local linear id, 0..23 the group (+1;
 * __local: this thread's group count). A word of another launch, or for __local of
 * another group, is stale: as if empty. */
#define CL2C_CK_INIT (1ull << 63)
#define CL2C_CK_W (1ull << 62)
#define CL2C_CK_ATOM (1ull << 61)
#define CL2C_CK_WHO (~(CL2C_CK_INIT | CL2C_CK_W | CL2C_CK_ATOM))
#define CL2C_CK_GROUP(w) ((w) & 0xffffffull)
#define CL2C_CK_LID(w) ((w) >> 24 & 0xfffull)
#define CL2C_CK_PHASE(w) ((w) >> 36 & 0xfffull)
#define CL2C_CK_SERIAL(w) ((w) >> 48 & 0x1fffull)
/* A read mark of several readers since the last write: local id 0xfff (several of the
 * group, in its phase), and for __global memory read by several groups, group 0 too. A
 * write then races with a read of one of them, the first reader's own write too. */
#define CL2C_CK_SEVERAL (0xfffull << 24)
/* A write mark with that local id: an async copy's, not yet waited for (cl2c_ck_span) */
#define CL2C_CK_COPY CL2C_CK_SEVERAL
static inline int cl2c_ck_several(uint64_t old, uint64_t me) {
    return old != 0 && !(old & CL2C_CK_W) &&
           (CL2C_CK_GROUP(old) == 0 ||
            ((old & CL2C_CK_SEVERAL) == CL2C_CK_SEVERAL &&
             CL2C_CK_GROUP(old) == CL2C_CK_GROUP(me) && CL2C_CK_PHASE(old) == CL2C_CK_PHASE(me)));
}

/* An atomic mark of several work-items, as cl2c_ck_several's of readers: any plain
 * access of this phase (__global: of this launch) races with one of them. */
static inline int cl2c_ck_atomics(uint64_t old, uint64_t me) {
    return (old & CL2C_CK_ATOM) &&
           (CL2C_CK_GROUP(old) == 0 ||
            ((old & CL2C_CK_SEVERAL) == CL2C_CK_SEVERAL &&
             CL2C_CK_GROUP(old) == CL2C_CK_GROUP(me) && CL2C_CK_PHASE(old) == CL2C_CK_PHASE(me)));
}

/* The granules of a __local variable whose initialisation a barrier phase keeps as a
 * bitmap (cl2c_ck_inited_slot): 4096, 16 KiB of floats */
#define CL2C_CK_INITED_BITS 4096
/* The finding of a read of __local memory no work-item of the group wrote (the shadow's
 * check, and an alike group's against its model's record) */
#define CL2C_CK_UNWRITTEN_LOCAL                                                              \
    "read of uninitialized %s memory: '%s' at offset %zu, which no work-item of the group "  \
    "wrote"
/* The barriers whose words a model group of a kernel whose reads vary records (alike 4) */
#define CL2C_CK_RECORDED_PHASES 8
typedef struct cl2c_ck_thread {
    /* the hot part: what every access reads */
    const cl2c_ck_range *buffers;
    int nbuffers, nlocals;
    uint64_t me;        /* the running work-item's shadow word (loops and regions) */
    uint64_t local_me;  /* the same for __local memory */
    uint64_t me0, local_me0; /* both with local id 0 */
    int fibers;         /* the fibers schedule: the fiber says who runs */
    size_t ls0, ls1;
    uint64_t group, serial, phase;
    /* the barrier phases as each space sees them: a barrier without CLK_GLOBAL_MEM_FENCE
     * orders no __global accesses (its phase stays gphase's), one without
     * CLK_LOCAL_MEM_FENCE no __local ones (spec 6.13.8) */
    uint64_t gphase, lphase;
    uint64_t gsince, lsince; /* the (raw) phase where each began */
    cl2c_ck_range locals[CL2C_CK_MAX_RANGES];
    /* the rest */
    cl2c_ck_launch *launch;
    const cl2c_workitem *grp;
    size_t lid[3];      /* the running work-item (loops and regions schedules) */
    uint32_t gen;       /* this thread's groups, counted */
    struct cl2c_ck_inited_ { /* __local variables whose initialisation a phase asked of all */
        const char *lo; /* of its bytes (cl2c_ck_inited): the answer, for the phase */
        uint64_t phase;
        uint32_t gen;
        int whole;
        int mapped;     /* bits holds, for the phase, the granules the group wrote */
        uint64_t bits[CL2C_CK_INITED_BITS / 64];
        size_t words;   /* bits' granules, and their size (a shift) */
        unsigned shift;
        /* boxes of reads (check_box.h) that bits says are all written: the next group,
         * whose bits are the same as a rule, asks again with the same boxes */
        unsigned boxes;
        struct cl2c_ck_box_ { size_t o, n; long long s[3], c[3]; } box[8];
    } inited[4];
    unsigned inited_next;
    const char *local_lo;
    uint64_t *local_shadow;
    size_t local_shadow_bytes;
    /* What the fast loops' marks left in the __local shadow (check_box.h), so that
     * their tests need not read it word by word; indices of local_shadow's words. */
    struct {
        uint64_t gen;       /* [wlo, whi): every word written by this thread's gen-th group */
        size_t wlo, whi;
        uint64_t now;       /* the phase (local_me0) whose accesses the marks made... */
        size_t plo, phi;    /* ...all lie in [plo, phi) */
    } lsum;
    struct {                /* a fast loop's reads of __local words, their marks not yet
                             * written (cl2c_ck_reread): pending while n != 0 */
        uint64_t *w;
        unsigned shift;
        size_t oa, n, llid;
        long long step, m;
        size_t run;         /* step 0: the elements from oa on that all of them read,
                             * one after the other (`Bl[k]` of a dot product's rows) */
    } lreads;
    uint64_t local_slow;    /* local_me0 when a checked access last changed a __local word */
    /* the events that the group's async copies returned (cl2c_ck_copied): how many
     * times its work-items reached a copy that returned it, how many of those were the
     * first work-item's, and whether that one waited for it since; nevents -1: more
     * events than fit, not followed for the rest of the group */
    struct {
        size_t id;
        cl2c_ck_site *site;
        size_t reached, copies;
        int waited;     /* the wait that passed it (t->waits' count), 0: none since */
    } events[CL2C_CK_MAX_EVENTS];
    int nevents, waits;
    /* the sources that the group's async copies read (cl2c_ck_span), for the wording of
     * the races with them: the range, the bytes [off, end), elem bytes each step bytes,
     * and the copy's mark (its phase) */
    struct {
        const char *lo;
        size_t off, end, step, elem;
        uint64_t mark;
    } sources[CL2C_CK_MAX_EVENTS];
    int nsources;
    /* the fences of the barrier that ends each of the last phases (cl2c_ck_fences) */
    struct {
        uint64_t phase;
        unsigned flags;
    } fences[CL2C_CK_FENCES];
    /* private variables that pointers may point into, the most recent last */
    int nprivates;
    cl2c_ck_range privates[CL2C_CK_MAX_PRIVATES];
    /* A kernel whose groups all make the same __local accesses (lower/alike_groups.py;
     * alike 1, | 2: but atomics, | 4: but reads, each in a phase that touches its
     * variable only so): the launch and group size whose __local memory a group of this
     * thread checked (the model); the others of that size check its bounds only
     * (same_now): what they would find there, the model found, at the same sites, each
     * reported once a launch. Their atomics (2) find nothing where each barrier finds
     * every word of the group's __local variables written, which the model makes sure
     * of; their reads (4) look at the words the model had written (record). */
    int alike, same_now;
    int unsure;         /* alike 2 (but atomics): a barrier found a __local variable of
                         * the group with a word it never wrote; 4 (but reads): more
                         * variables, phases or words than the record holds: the group
                         * is no model */
    /* alike 4: which words of each __local variable (as t->locals) the model group had
     * written where each of its phases of __local memory began, as slots of inited's
     * kind: the others' reads look there */
    struct cl2c_ck_inited_ record[CL2C_CK_RECORDED_PHASES][4];
    struct {
        int serial;
        size_t size[3];
    } checked;
} cl2c_ck_thread;

static _Thread_local cl2c_ck_thread cl2c_ck_tls;
/* What the host says of the next launch on this thread: its arguments' byte sizes. */
static _Thread_local size_t cl2c_ck_pending[CL2C_CK_MAX_RANGES];
static _Thread_local unsigned cl2c_ck_npending;
static _Thread_local unsigned char *cl2c_ck_pending_written[CL2C_CK_MAX_RANGES];
static _Thread_local unsigned cl2c_ck_nwritten;
static _Thread_local char cl2c_ck_last[16384];
CL2C_UNUSED static int cl2c_ck_serial_;

/* Shadows outlive launches (zeroing a new one each time costs more than most kernels):
 * one per buffer address and size, the launch's number in each word. A launch holds
 * the shadows of its ranges until it ends (users): only a shadow no launch holds is
 * evicted, the least recently used first, so a launch with many ranges (a program's
 * __global variables each have one) never frees its own, nor another host thread's
 * launch's. Where every slot is held, a range gets no shadow: no race checks for it.
 * Each program keeps its own: a host that checks many programs (PyOpenCL makes one for
 * each elementwise kernel) keeps the sum of the ones no launch holds within a budget
 * (cl2c_check_idle_bytes, cl2c_check_trim). */
#define CL2C_CK_SHADOWS CL2C_CK_MAX_RANGES
static struct {
    const char *lo;
    size_t size;
    unsigned shift;
    uint64_t *shadow;
    size_t bytes;
    int used;
    int users;
} cl2c_ck_shadows_[CL2C_CK_SHADOWS];
static pthread_mutex_t cl2c_ck_shadows_lock_ = PTHREAD_MUTEX_INITIALIZER;
CL2C_UNUSED static int cl2c_ck_shadows_clock_;

/* A shadow's words, zero. A large one is mapped on its own, in huge pages where the
 * system gives them: a store's checks read a tile's rows of words a row of the buffer
 * apart, a page each in 4 KiB pages (the Jacobi tile's checked time 3-5% less). */
#define CL2C_CK_HUGE ((size_t)2 << 20)
static inline uint64_t *cl2c_ck_shadow_alloc(size_t bytes) {
#if defined(MAP_ANONYMOUS) && defined(MADV_HUGEPAGE)
    if (bytes >= CL2C_CK_HUGE) {
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return NULL;
        (void)madvise(p, bytes, MADV_HUGEPAGE);     /* (a hint: no matter if refused) */
        return (uint64_t *)p;
    }
#endif
    return (uint64_t *)calloc(bytes / sizeof(uint64_t), sizeof(uint64_t));
}
static inline void cl2c_ck_shadow_free(uint64_t *p, size_t bytes) {
#if defined(MAP_ANONYMOUS) && defined(MADV_HUGEPAGE)
    if (bytes >= CL2C_CK_HUGE) {
        if (p != NULL) munmap(p, bytes);
        return;
    }
#endif
    free(p);
}

CL2C_UNUSED static uint64_t *cl2c_ck_shadow_for(const char *lo, size_t size, unsigned shift) {
    uint64_t *found = NULL;
    pthread_mutex_lock(&cl2c_ck_shadows_lock_);
    int oldest = -1;
    for (int i = 0; i < CL2C_CK_SHADOWS; ++i) {
        if (cl2c_ck_shadows_[i].shadow && cl2c_ck_shadows_[i].lo == lo &&
            cl2c_ck_shadows_[i].size == size && cl2c_ck_shadows_[i].shift == shift) {
            found = cl2c_ck_shadows_[i].shadow;
            cl2c_ck_shadows_[i].used = ++cl2c_ck_shadows_clock_;
            cl2c_ck_shadows_[i].users++;
            break;
        }
        if (cl2c_ck_shadows_[i].users == 0 &&
            (oldest < 0 || cl2c_ck_shadows_[i].used < cl2c_ck_shadows_[oldest].used))
            oldest = i;
    }
    if (found == NULL && oldest >= 0) {
        const size_t bytes = ((size >> shift) + 1) * sizeof(uint64_t);
        found = cl2c_ck_shadow_alloc(bytes);
        if (found != NULL) {
            cl2c_ck_shadow_free(cl2c_ck_shadows_[oldest].shadow, cl2c_ck_shadows_[oldest].bytes);
            cl2c_ck_shadows_[oldest].bytes = bytes;
            cl2c_ck_shadows_[oldest].lo = lo;
            cl2c_ck_shadows_[oldest].size = size;
            cl2c_ck_shadows_[oldest].shift = shift;
            cl2c_ck_shadows_[oldest].shadow = found;
            cl2c_ck_shadows_[oldest].used = ++cl2c_ck_shadows_clock_;
            cl2c_ck_shadows_[oldest].users = 1;
        }
    }
    pthread_mutex_unlock(&cl2c_ck_shadows_lock_);
    return found;
}

/* A launch's end: it holds its ranges' shadows no more. */
static inline void cl2c_ck_release_shadows(cl2c_ck_launch *L) {
    pthread_mutex_lock(&cl2c_ck_shadows_lock_);
    for (int r = 0; r < L->nbuffers; ++r)
        for (int i = 0; L->buffers[r].shadow && i < CL2C_CK_SHADOWS; ++i)
            if (cl2c_ck_shadows_[i].shadow == L->buffers[r].shadow) {
                cl2c_ck_shadows_[i].users--;
                break;
            }
    pthread_mutex_unlock(&cl2c_ck_shadows_lock_);
}

/* The bytes of this program's shadows that no launch holds: what cl2c_check_trim
 * would give back. */
static inline size_t cl2c_check_idle_bytes(void) {
    size_t bytes = 0;
    pthread_mutex_lock(&cl2c_ck_shadows_lock_);
    for (int i = 0; i < CL2C_CK_SHADOWS; ++i)
        if (cl2c_ck_shadows_[i].shadow && cl2c_ck_shadows_[i].users == 0)
            bytes += cl2c_ck_shadows_[i].bytes;
    pthread_mutex_unlock(&cl2c_ck_shadows_lock_);
    return bytes;
}

/* Free the shadows no launch holds (a later launch on those buffers makes new ones). */
static inline void cl2c_check_trim(void) {
    pthread_mutex_lock(&cl2c_ck_shadows_lock_);
    for (int i = 0; i < CL2C_CK_SHADOWS; ++i)
        if (cl2c_ck_shadows_[i].shadow && cl2c_ck_shadows_[i].users == 0) {
            cl2c_ck_shadow_free(cl2c_ck_shadows_[i].shadow, cl2c_ck_shadows_[i].bytes);
            cl2c_ck_shadows_[i].shadow = NULL;
            cl2c_ck_shadows_[i].bytes = 0;
        }
    pthread_mutex_unlock(&cl2c_ck_shadows_lock_);
}

/* The byte sizes of the arguments of the next launch on this thread, in argument
 * order (0 where unknown: that buffer is not bounds- or race-checked; with
 * CL2C_CHECK_READ_ONLY: a write to it is a finding). */
static inline void cl2c_check_sizes(const size_t *sizes, unsigned n) {
    if (n > CL2C_CK_MAX_RANGES) n = CL2C_CK_MAX_RANGES;
    for (unsigned i = 0; i < n; ++i) cl2c_ck_pending[i] = sizes[i];
    cl2c_ck_npending = n;
}

/* Which bytes of the next launch's buffer arguments on this thread hold what the host
 * or an earlier launch wrote: a bit a byte (bit i % 8 of byte i / 8), NULL where all
 * do. The launch reports reads of the others and sets the bits of what it writes. */
static inline void cl2c_check_written(unsigned char *const *maps, unsigned n) {
    if (n > CL2C_CK_MAX_RANGES) n = CL2C_CK_MAX_RANGES;
    for (unsigned i = 0; i < n; ++i) cl2c_ck_pending_written[i] = maps[i];
    cl2c_ck_nwritten = n;
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

/* A kernel that cannot tell its groups apart ran in groups of cl2c's choosing
 * (cl2c_regroup): findings name the work-item and group of the local size the host
 * asked for, where it asked for one. */
static inline void cl2c_ck_regrouped(cl2c_ck_launch *L, const size_t *asked) {
    if (asked[0] != 0)
        for (int d = 0; d < 3; ++d) L->asked[d] = asked[d] ? asked[d] : 1;
}

/* A transposed launch (cl2c_transpose_range): `nd`, the range as the host gave it. */
static inline void cl2c_ck_transposed(cl2c_ck_launch *L, const cl2c_workitem *nd) {
    L->host = L->transposed = 1;
    for (int d = 0; d < 3; ++d) {
        L->host_offset[d] = nd->global_offset[d];
        L->host_size[d] = nd->global_size[d];
    }
}

/* A launch that runs the kernel's last loop as dimension 1 (cl2c_loop_range, then
 * cl2c_transpose_range where `transposed`): `nd`, the range as the host gave it. A
 * work-item of the new range is an iteration of the host's work-item: findings name
 * that one. */
static inline void cl2c_ck_loop(cl2c_ck_launch *L, const cl2c_workitem *nd, int transposed) {
    cl2c_ck_transposed(L, nd);
    L->transposed = transposed;
    L->loop = 1;
}

/* Ids x of a work-item less the offsets of the range group `g` belongs to, made the
 * kernel's: less the host's offsets, in the host's dimensions (a transposed launch), of
 * the host's work-item (a loop's iteration). */
static inline void cl2c_ck_as_host(const cl2c_ck_launch *L, const cl2c_workitem *g,
                                   size_t x[3]) {
    if (!L->host) return;
    for (int d = 0; d < 3; ++d) x[d] += g->global_offset[d];
    if (L->transposed) {
        const size_t t = x[0];
        x[0] = x[1];
        x[1] = t;
    }
    if (L->loop) x[1] = 0;
    for (int d = 0; d < 3; ++d) x[d] -= L->host_offset[d];
}

/* The group and local linear ids, in the groups the host asked for, of the work-item
 * of shadow word `who` in a regrouped launch; whether it is in the running
 * work-item's group. */
__attribute__((cold, unused)) static int cl2c_ck_asked_ids(const cl2c_ck_thread *t,
                                                           uint64_t who, size_t *group,
                                                           size_t *lid) {
    const cl2c_workitem *g = t->grp;
    const size_t *a = t->launch->asked;
    const size_t gl = (size_t)CL2C_CK_GROUP(who) - 1, ll = CL2C_CK_LID(who);
    const size_t ng[3] = {g->num_groups[0], g->num_groups[1], g->num_groups[2]};
    const size_t gi[3] = {gl % ng[0], gl / ng[0] % ng[1], gl / ng[0] / ng[1]};
    const size_t li[3] = {ll % g->local_size[0], ll / g->local_size[0] % g->local_size[1],
                          ll / g->local_size[0] / g->local_size[1]};
    size_t o[3], m[3], n[3];                /* global ids - offsets: other's, mine */
    const cl2c_ck_launch *L = t->launch;
    for (int d = 0; d < 3; ++d) {
        o[d] = gi[d] * g->local_size[d] + li[d];
        m[d] = g->group_id[d] * g->enqueued_local_size[d] + t->lid[d];
    }
    cl2c_ck_as_host(L, g, o);
    cl2c_ck_as_host(L, g, m);
    for (int d = 0; d < 3; ++d)
        n[d] = ((L->host ? L->host_size[d] : g->global_size[d]) + a[d] - 1) / a[d];
    *group = (o[2] / a[2] * n[1] + o[1] / a[1]) * n[0] + o[0] / a[0];
    *lid = (o[2] % a[2] * a[1] + o[1] % a[1]) * a[0] + o[0] % a[0];
    return o[0] / a[0] == m[0] / a[0] && o[1] / a[1] == m[1] / a[1] &&
           o[2] / a[2] == m[2] / a[2];
}

/* A range's place and name (its shadow is the caller's). */
static inline cl2c_ck_range *cl2c_ck_range_at(cl2c_ck_range *r, const char *name,
                                              const char *space, const void *p, size_t size,
                                              unsigned shift) {
    r->name = name;
    r->space = space;
    r->lo = (const char *)p;
    r->size = size;
    r->shift = shift;
    r->shadow = NULL;
    r->readonly = 0;
    r->written = NULL;
    r->map = NULL;
    r->wants = 0;
    r->all_set = r->tries_in = 0;
    r->tries = 0;
    return r;
}

/* Bytes [at, at + n) of map's bits set: written. */
static inline void cl2c_ck_set_written(unsigned char *map, size_t at, size_t n) {
    for (size_t i = at; i < at + n; ++i) map[i >> 3] |= (unsigned char)(1u << (i & 7));
}

/* A buffer with bytes nothing wrote (r->written): the shadow words of its granules of
 * which no byte was written marked so for this launch (cl2c_ck_shadow reports their
 * reads). */
CL2C_UNUSED static void cl2c_ck_mark_unwritten(const cl2c_ck_range *r, uint64_t serial) {
    const size_t g = (size_t)1 << r->shift;
    for (size_t at = 0; at < r->size; at += g) {
        if (r->written[at >> 3] == 0xff && g <= 8 && ((at + g - 1) >> 3) == (at >> 3))
            continue;                           /* (the common case: all written) */
        int any = 0;
        for (size_t i = at; i < at + g && i < r->size; ++i)
            any |= r->written[i >> 3] >> (i & 7) & 1;
        if (!any) __atomic_store_n(&r->shadow[at >> r->shift], serial << 48, __ATOMIC_RELAXED);
    }
}

/* A launch's end: the granules it wrote set in the maps of what was written, for the
 * next launch and the host (a granule it read, its word marked, held data already; a
 * read of one that held none left its mark unwritten). */
CL2C_UNUSED static void cl2c_ck_write_back(const cl2c_ck_launch *L) {
    const uint64_t serial = (uint64_t)L->serial & 0x1fff;
    for (int k = 0; k < L->nbuffers; ++k) {
        const cl2c_ck_range *r = &L->buffers[k];
        if (r->written == NULL || r->shadow == NULL) continue;
        const size_t g = (size_t)1 << r->shift;
        for (size_t at = 0; at < r->size; at += g) {
            const uint64_t w = __atomic_load_n(&r->shadow[at >> r->shift], __ATOMIC_RELAXED);
            if (w != 0 && CL2C_CK_SERIAL(w) == serial && (w & CL2C_CK_INIT))
                cl2c_ck_set_written(r->written, at, at + g <= r->size ? g : r->size - at);
        }
    }
}

/* Buffer argument `index`: its size from cl2c_check_sizes; a shadow where it is
 * written, or where bytes of it were not (cl2c_check_written), which is then one shared
 * by the launches on the same buffer (a buffer two host threads write at once, in two
 * launches, is not checked for races between them). */
static inline void cl2c_ck_buffer(cl2c_ck_launch *L, unsigned index, const char *name,
                                  const char *space, const void *p, int written,
                                  unsigned shift) {
    unsigned char *map = index < cl2c_ck_nwritten ? cl2c_ck_pending_written[index] : NULL;
    if (p == NULL || index >= cl2c_ck_npending || cl2c_ck_pending[index] == 0)
        return;
    const size_t size = cl2c_ck_pending[index] & ~CL2C_CHECK_READ_ONLY;
    if (L->nbuffers == CL2C_CK_MAX_RANGES) {
        /* not followed: as if the kernel wrote all of it (no false finding later) */
        if (map != NULL && written) cl2c_ck_set_written(map, 0, size);
        return;
    }
    cl2c_ck_range *r = cl2c_ck_range_at(&L->buffers[L->nbuffers++], name, space, p, size,
                                        shift);
    /* a read-only buffer has no shadow: its writes take the path of unshadowed ones,
     * which asks (cl2c_ck_unshadowed); unless the kernel only reads it and bytes of it
     * were never written: then its reads ask the shadow */
    r->readonly = (cl2c_ck_pending[index] & CL2C_CHECK_READ_ONLY) != 0;
    r->written = r->readonly && written ? NULL : map;
    r->wants = (written && !r->readonly) || r->written;
    r->map = written ? map : NULL;
}

/* After the buffers (and cl2c_ck_owned): the shadows of those that want one. */
static inline void cl2c_ck_shadows(cl2c_ck_launch *L) {
    for (int k = 0; k < L->nbuffers; ++k) {
        cl2c_ck_range *r = &L->buffers[k];
        if (!r->wants) continue;
        r->shadow = cl2c_ck_shadow_for(r->lo, r->size, r->shift);
        if (r->shadow == NULL && r->map != NULL)    /* (no shadow to be had) */
            cl2c_ck_set_written(r->map, 0, r->size);
        if (r->shadow == NULL) r->written = NULL;
        if (r->written != NULL) cl2c_ck_mark_unwritten(r, (uint64_t)L->serial & 0x1fff);
    }
}

/* A program-scope __constant or __global variable: its bounds, for accesses through
 * pointers into it (its own elements' indices are checked by the array's length), and
 * for a __global one (shift >= 0) a shadow, as a written buffer's, for races. */
static inline void cl2c_ck_variable(cl2c_ck_launch *L, const char *name, const char *space,
                                    const void *p, size_t size, int shift) {
    if (L->nbuffers == CL2C_CK_MAX_RANGES || size == 0) return;
    const unsigned s = shift > 0 && ((uintptr_t)p & 3) == 0 ? (unsigned)shift : 0;
    cl2c_ck_range *r = cl2c_ck_range_at(&L->buffers[L->nbuffers++], name, space, p, size, s);
    if (shift >= 0) r->shadow = cl2c_ck_shadow_for(r->lo, r->size, s);
}

/* The launch's work-items along dimension d of range g (1 beyond its dimensions). */
static inline size_t cl2c_ck_count(const cl2c_range *g, int d) {
    return d < (int)g->work_dim ? g->global_size[d] : 1;
}

/* A written buffer argument at p whose elements one work-item at most touches where the
 * launch allows it (cl2c/lower/owned.py): every access is at index gid(along) +
 * gid(across) * width + K (across -1: gid(along) + K), K the same for all work-items;
 * guarded: each under a test that keeps gid(along) below width. It then needs no race
 * shadow: it gets none (cl2c_ck_shadows), and its accesses check bounds only. That takes the other
 * dimensions one work-item wide, the ids (and the index's part in them) within 2^30, so
 * that neither an id cast to an int nor a guard's arithmetic wraps, the ids along
 * `along` spanning at most width, and no other argument's buffer overlapping it (its
 * accesses would race unseen); not where the host follows which bytes were written
 * (the shadow holds that). */
static inline void cl2c_ck_owned(cl2c_ck_launch *L, const cl2c_range *g, const void *p,
                                 int along, int across, long long width, int guarded) {
    const size_t most = (size_t)1 << 30;
    size_t end[3];
    for (int d = 0; d < 3; ++d) {
        end[d] = (d < (int)g->work_dim ? g->global_offset[d] : 0) + cl2c_ck_count(g, d);
        if ((d != along && d != across && cl2c_ck_count(g, d) != 1) || end[d] > most)
            return;
    }
    if (across >= 0 && (width <= 0 || (unsigned long long)width > most ||
                        (!guarded && cl2c_ck_count(g, along) > (size_t)width) ||
                        end[across] * (size_t)width + end[along] > most))
        return;
    cl2c_ck_range *r = NULL;
    for (int k = 0; k < L->nbuffers; ++k)
        if (L->buffers[k].lo == (const char *)p && L->buffers[k].wants) r = &L->buffers[k];
    if (r == NULL || r->written != NULL || r->readonly) return;
    for (int k = 0; k < L->nbuffers; ++k) {
        const cl2c_ck_range *o = &L->buffers[k];
        if (o != r && o->lo < r->lo + r->size && r->lo < o->lo + o->size) return;
    }
    r->wants = 0;
}

/* const and out of line: the address of a _Thread_local in a shared object costs a call
 * of __tls_get_addr, which GCC then makes once per function, out of the work-item loops
 * (a thread's state stays where it is; a fiber keeps its thread). */
__attribute__((const, noinline, unused)) static cl2c_ck_thread *cl2c_ck_self(void) {
    return &cl2c_ck_tls;
}

/* The group passed the barriers that end phases t->phase .. phase - 1: each space's
 * phase moves on at those whose fences order it (a barrier whose fences were not
 * given: wait_group_events, a work-group function, orders both). */
static inline void cl2c_ck_passed(cl2c_ck_thread *t, uint64_t phase) {
    for (uint64_t q = t->phase; q != phase; ++q) {
        unsigned flags = 3;
        if (phase - t->phase <= CL2C_CK_FENCES && t->fences[q % CL2C_CK_FENCES].phase == q)
            flags = t->fences[q % CL2C_CK_FENCES].flags;
        if (flags & CL2C_CK_GLOBAL_FENCE) t->gphase++, t->gsince = q + 1;
        if (flags & CL2C_CK_LOCAL_FENCE) t->lphase++, t->lsince = q + 1;
        if (phase - t->phase > CL2C_CK_FENCES) {
            t->gsince = t->lsince = phase;
            break;
        }
    }
    t->phase = phase;
}

/* How a race of this space's phase is told: "no barrier between", or where barriers
 * that do not fence the space passed in it, that none of them fences it. */
CL2C_UNUSED static const char *cl2c_ck_unfenced(const cl2c_ck_thread *t, int local) {
    if (t->phase == (local ? t->lsince : t->gsince)) return "with no barrier between";
    return local ? "with no barrier between that fences __local memory (CLK_LOCAL_MEM_FENCE)"
                 : "with no barrier between that fences __global memory "
                   "(CLK_GLOBAL_MEM_FENCE)";
}

static inline void cl2c_ck_rewho(cl2c_ck_thread *t) {
    uint64_t llid = (t->lid[2] * t->ls1 + t->lid[1]) * t->ls0 + t->lid[0];
    uint64_t lid = (llid & 0xfff) << 24;
    t->me = t->group | lid | (t->gphase & 0xfff) << 36 | t->serial << 48;
    t->local_me = (uint64_t)t->gen | lid | (t->lphase & 0xfff) << 36;
    t->me0 = t->me & ~(0xfffull << 24);
    t->local_me0 = t->local_me & ~(0xfffull << 24);
}

/* The work-item that runs now (loops and regions schedules); llid: its local linear id,
 * which the caller's loops count (the shadow words differ from the group's first
 * work-item's in it only). */
static inline void cl2c_ck_item(cl2c_ck_thread *t, size_t l0, size_t l1, size_t l2,
                                size_t llid) {
    t->lid[0] = l0;
    t->lid[1] = l1;
    t->lid[2] = l2;
    const uint64_t who = (uint64_t)(llid & 0xfff) << 24;
    t->me = t->me0 | who;
    t->local_me = t->local_me0 | who;
}

/* Which of the words (granules) of a __local variable's shadow this group wrote, a bit
 * each, into bits; whether it wrote all. */
static inline int cl2c_ck_written_bits(const uint64_t *shadow, size_t words, uint64_t group,
                                       uint64_t *bits) {
    uint64_t all = ~0ull;
    for (size_t b = 0; b < (words + 63) / 64; ++b) {
        const uint64_t *w = shadow + b * 64;
        const size_t k_end = words - b * 64 < 64 ? words - b * 64 : 64;
        uint64_t m = 0;
        for (size_t k = 0; k < k_end; ++k)
            m |= (uint64_t)((CL2C_CK_GROUP(w[k] ^ group) == 0) & (int)(w[k] >> 63)) << k;
        bits[b] = m;
        all &= k_end == 64 ? m : m | ~0ull << k_end;
    }
    return all == ~0ull;
}

/* Whether this group (me0: its first work-item's word) wrote every word of a shadow. */
static inline int cl2c_ck_all_written(const uint64_t *shadow, size_t words, uint64_t me0) {
    uint64_t other = 0, all = CL2C_CK_INIT;          /* (vectorises) */
    for (size_t w = 0; w < words; ++w) {
        other |= (shadow[w] ^ me0) & 0xffffffull;
        all &= shadow[w];
    }
    return other == 0 && (all & CL2C_CK_INIT);
}

/* The model group of a kernel whose __local reads vary (alike 4), where its phase of
 * __local memory begins: which words of each variable it wrote before. (The boxes of
 * reads found written stay where the words are the model's before.) */
__attribute__((noinline, unused)) static void cl2c_ck_record_words(cl2c_ck_thread *t) {
    if (t->nlocals > 4 || t->lphase >= CL2C_CK_RECORDED_PHASES) {
        t->unsure = 1;
        return;
    }
    for (int i = 0; i < t->nlocals; ++i) {
        const cl2c_ck_range *r = &t->locals[i];
        struct cl2c_ck_inited_ *s = &t->record[t->lphase][i];
        const size_t words = ((r->size - 1) >> r->shift) + 1;
        if (r->shadow == NULL || words > CL2C_CK_INITED_BITS) {
            t->unsure = 1;
            return;
        }
        uint64_t bits[CL2C_CK_INITED_BITS / 64];
        s->whole = cl2c_ck_written_bits(r->shadow, words, CL2C_CK_GROUP(t->local_me0), bits);
        int same = s->lo == r->lo && s->mapped && s->words == words && s->shift == r->shift;
        for (size_t b = 0; b < (words + 63) / 64; ++b) {
            same &= s->bits[b] == bits[b];
            s->bits[b] = bits[b];
        }
        if (!same) s->boxes = 0;
        s->lo = r->lo;
        s->words = words;
        s->shift = r->shift;
        s->mapped = 1;
    }
}

/* The first group of a kernel whose __local atomics vary (alike 2), at a barrier that
 * fences __local memory: whether the group wrote every word of its __local variables
 * (in bounds, its later groups' atomics then find nothing), else it is no model. */
__attribute__((noinline, unused)) static void cl2c_ck_wholes(cl2c_ck_thread *t) {
    for (int i = 0; i < t->nlocals && !t->unsure; ++i) {
        const cl2c_ck_range *r = &t->locals[i];
        if (r->shadow == NULL) {
            t->unsure = 1;
            break;
        }
        t->unsure = !cl2c_ck_all_written(r->shadow, ((r->size - 1) >> r->shift) + 1,
                                         t->local_me0);
    }
}

/* A region of the regions schedule begins: a barrier was passed. A fast loop's read
 * marks of the phase that ends need not be written: a later phase finds those words
 * as it would find them written in an earlier phase (cl2c_ck_shadow: no race with
 * either, and the written mark stays). */
static inline void cl2c_ck_phase(cl2c_ck_thread *t) {
    const uint64_t lphase = t->lphase;
    const int first = t->phase == 0;    /* (the group function's top) */
    t->lreads.n = 0;
    cl2c_ck_passed(t, t->phase + 1);
    cl2c_ck_rewho(t);
    if (t->lphase == lphase) return;
    if ((t->alike & 2) && !t->same_now && !first) cl2c_ck_wholes(t);
    if ((t->alike & 4) && !t->same_now && !t->unsure) cl2c_ck_record_words(t);
}

/* At the start of each group: who runs, and where its __local memory is; alike: the
 * kernel's groups all make the same __local accesses. */
static inline void cl2c_ck_group(cl2c_ck_launch *L, const cl2c_workitem *g, int fibers,
                                 const void *local_block, size_t local_bytes, int alike) {
    cl2c_ck_thread *t = &cl2c_ck_tls;
    t->alike = alike;
    t->unsure = 0;
    t->same_now = alike && t->checked.serial == L->serial &&
                  t->checked.size[0] == g->local_size[0] &&
                  t->checked.size[1] == g->local_size[1] &&
                  t->checked.size[2] == g->local_size[2];
    t->launch = L;
    t->buffers = L->buffers;
    t->nbuffers = L->nbuffers;
    t->grp = g;
    t->fibers = fibers;
    t->ls0 = g->local_size[0];
    t->ls1 = g->local_size[1];
    t->serial = (uint64_t)L->serial & 0x1fff;
    t->group = ((g->group_id[2] * g->num_groups[1] + g->group_id[1]) * g->num_groups[0] +
                g->group_id[0] + 1) & 0xffffff;
    if (t->group == 0) t->group = 1;
    if (++t->gen > 0xffffff) t->gen = 1;
    /* the fences of the last group's barriers (cl2c_ck_fences notes each at its phase's
     * entry) forgotten; no more (all 64 took 3% of a 16x16 tile's checked time) */
    const uint64_t noted = t->phase < CL2C_CK_FENCES ? t->phase + 1 : CL2C_CK_FENCES;
    for (uint64_t i = 0; i < noted; ++i) t->fences[i].phase = ~0ull;
    t->phase = t->gphase = t->lphase = t->gsince = t->lsince = 0;
    t->lreads.n = 0;
    t->nlocals = 0;
    t->nprivates = 0;
    t->nevents = t->waits = 0;
    t->nsources = 0;
    for (int i = 0; i < 4; ++i) t->inited[i].gen = 0;    /* none is this group's yet */
    t->local_lo = (const char *)local_block;
    t->lid[0] = t->lid[1] = t->lid[2] = 0;
    cl2c_ck_rewho(t);
    if (local_bytes > t->local_shadow_bytes) {
        free(t->local_shadow);
        t->local_shadow = (uint64_t *)calloc(local_bytes, sizeof(uint64_t));
        t->local_shadow_bytes = t->local_shadow ? local_bytes : 0;
    }
}

static inline void cl2c_ck_local(const char *name, const void *p, size_t size,
                                 unsigned shift) {
    cl2c_ck_thread *t = &cl2c_ck_tls;
    if (t->nlocals == CL2C_CK_MAX_RANGES || size == 0) return;
    cl2c_ck_range *r = cl2c_ck_range_at(&t->locals[t->nlocals++], name, "__local", p, size,
                                        ((uintptr_t)p & 3) == 0 ? shift : 0);
    size_t at = (size_t)(r->lo - t->local_lo);
    /* no shadow: its bounds only (a group of the same accesses found nothing there) */
    r->shadow = t->local_shadow && at + size <= t->local_shadow_bytes && !t->same_now
                    ? t->local_shadow + at
                    : NULL;
}

CL2C_UNUSED static void cl2c_ck_events_end(cl2c_ck_thread *t);

/* At the end of each group. */
static inline void cl2c_ck_group_end(void) {
    cl2c_ck_thread *t = &cl2c_ck_tls;
    if (t->nevents > 0) cl2c_ck_events_end(t);
    if (t->alike && !t->same_now && !t->unsure) {
        t->checked.serial = t->launch->serial;
        for (int d = 0; d < 3; ++d) t->checked.size[d] = t->grp->local_size[d];
    }
    t->launch = NULL;
    t->nbuffers = t->nlocals = 0;
}

static inline int cl2c_ck_stopped(const cl2c_ck_launch *L) { return L->stop; }

static inline int cl2c_ck_end(cl2c_ck_launch *L) {
    cl2c_ck_write_back(L);
    cl2c_ck_release_shadows(L);
    pthread_mutex_destroy(&L->lock);
    cl2c_ck_npending = cl2c_ck_nwritten = 0;
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

static inline void cl2c_ck_who(cl2c_ck_thread *t) {
#ifdef CL2C_FIBER_H
    if (t->fibers && cl2c_fb_tls.cur) {
        t->lid[0] = cl2c_fb_tls.cur->id[0];
        t->lid[1] = cl2c_fb_tls.cur->id[1];
        t->lid[2] = cl2c_fb_tls.cur->id[2];
        if (t->phase != cl2c_fb_tls.phase) cl2c_ck_passed(t, cl2c_fb_tls.phase);
        cl2c_ck_rewho(t);
    }
#else
    (void)t;
#endif
}

/* ---- findings */

__attribute__((format(printf, 2, 3), cold, noinline, unused)) static void
cl2c_ck_finding(cl2c_ck_site *site, const char *fmt, ...) {
    cl2c_ck_thread *t = &cl2c_ck_tls;
    cl2c_ck_launch *L = t->launch;
    if (L == NULL || site->reported == L->serial) return;
    site->reported = L->serial;
    cl2c_ck_who(t);
    const cl2c_workitem *g = t->grp;
    size_t lid[3], group[3], gid[3], rel[3];   /* rel: the global id less the offset */
    for (int d = 0; d < 3; ++d) {
        rel[d] = g->group_id[d] * g->enqueued_local_size[d] + t->lid[d];
        lid[d] = t->lid[d];
        group[d] = g->group_id[d];
    }
    cl2c_ck_as_host(L, g, rel);
    if (L->transposed) {        /* cl2c's own groups, in the kernel's dimensions */
        size_t x = lid[0];
        lid[0] = lid[1];
        lid[1] = x;
        x = group[0];
        group[0] = group[1];
        group[1] = x;
    }
    if (L->loop) lid[1] = group[1] = 0;     /* (an iteration of the host's work-item) */
    for (int d = 0; d < 3; ++d) {
        gid[d] = rel[d] + (L->host ? L->host_offset[d] : g->global_offset[d]);
        const size_t ls = L->asked[d];
        if (ls) {
            lid[d] = rel[d] % ls;
            group[d] = rel[d] / ls;
        }
    }
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
                         lid[2], group[0], group[1], group[2], gid[0], gid[1], gid[2]);
        if (n > 0) L->used += (size_t)n;
        if (L->used >= sizeof L->text) L->used = sizeof L->text - 1;
    }
    if (!L->collect) L->stop = 1;
    pthread_mutex_unlock(&L->lock);
}

/* Whether the site's finding of this launch is made: a racy loop finds the same race
 * on every trip, and the words of a finding need not be put together again. */
static inline int cl2c_ck_reported(const cl2c_ck_thread *t, const cl2c_ck_site *site) {
    return t->launch != NULL &&
           __atomic_load_n(&site->reported, __ATOMIC_RELAXED) == t->launch->serial;
}

/* ---- accesses */

CL2C_UNUSED static inline const cl2c_ck_range *cl2c_ck_find(const cl2c_ck_range *rs, int n,
                                                            const char *b) {
    for (int i = 0; i < n; ++i)
        if ((size_t)(b - rs[i].lo) < rs[i].size) return &rs[i];
    for (int i = 0; i < n; ++i) /* one past the end, as `end[-1]` has it */
        if (b == rs[i].lo + rs[i].size) return &rs[i];
    return NULL;
}

/* The range b lies in: the site's last one, else a search (which sets the hint). */
__attribute__((noinline, unused)) static const cl2c_ck_range *
cl2c_ck_search(const cl2c_ck_range *rs, int n, const char *b, cl2c_ck_site *site) {
    const cl2c_ck_range *r = cl2c_ck_find(rs, n, b);
    if (r != NULL) __atomic_store_n(&site->hint, (int)(r - rs), __ATOMIC_RELAXED);
    return r;
}
static inline const cl2c_ck_range *cl2c_ck_range_of(const cl2c_ck_range *rs, int n,
                                                    const char *b, cl2c_ck_site *site) {
    int h = __atomic_load_n(&site->hint, __ATOMIC_RELAXED);
    if (__builtin_expect(h < n && (size_t)(b - rs[h].lo) < rs[h].size, 1)) return &rs[h];
    return cl2c_ck_search(rs, n, b, site);
}

/* A read of a __local word by me (a work-item's mark), as cl2c_ck_shadow leaves it: its
 * own access stays; after a write or a read of an earlier phase, the reader's mark;
 * after another's read of this phase, several readers'. */
static inline uint64_t cl2c_ck_reread_word(uint64_t old, uint64_t me) {
    if ((old & CL2C_CK_WHO) == me) return old;
    if ((old & CL2C_CK_W) || CL2C_CK_PHASE(old) != CL2C_CK_PHASE(me)) return me | CL2C_CK_INIT;
    return old | CL2C_CK_SEVERAL;
}
static inline uint64_t cl2c_ck_reader(uint64_t me0, size_t llid) {
    return me0 | (uint64_t)(llid & 0xfff) << 24;
}

/* The read marks of m + 1 work-items (local ids from llid on) that each read n bytes
 * of __local memory, the first at offset oa of the words w, the next step bytes on. */
__attribute__((noinline, unused)) static void cl2c_ck_reread(uint64_t *w, unsigned shift,
                                                             uint64_t me0, size_t oa,
                                                             long long step, long long m,
                                                             size_t n, size_t llid) {
    /* all reading the same words (step 0): from the third reader on, a word is several
     * readers' and stays so, so three readers leave what m + 1 do */
    if (step == 0 && m > 2) m = 2;
    if (n == ((size_t)1 << shift) && step == (long long)n && !(oa & (n - 1))) {
        /* a granule each, in a run: one loop that vectorises */
        uint64_t *run = w + (oa >> shift);
        for (long long j = 0; j <= m; ++j)
            run[j] = cl2c_ck_reread_word(run[j], cl2c_ck_reader(me0, llid + (size_t)j));
        return;
    }
    for (long long j = 0; j <= m; ++j) {
        const uint64_t me = cl2c_ck_reader(me0, llid + (size_t)j);
        const size_t at = oa + (size_t)(j * step);
        for (size_t i = at >> shift; i <= (at + n - 1) >> shift; ++i)
            w[i] = cl2c_ck_reread_word(w[i], me);
    }
}
/* The pending read marks written (t->lreads), before anything else reads or writes the
 * __local shadow in this phase: then it finds what the reads' checks would have left.
 * Out of line: every checked __local access asks first (cl2c_ck_lreads_flush), and an
 * inlined body made that a call with a long prologue (5% of a tiled stencil's checked
 * time at one thread). */
__attribute__((noinline, unused)) static void cl2c_ck_lreads_write(cl2c_ck_thread *t) {
    const size_t n = t->lreads.n;
    t->lreads.n = 0;
    const unsigned shift = t->lreads.shift;
    const size_t oa = t->lreads.oa, llid = t->lreads.llid;
    const long long m = t->lreads.m;
    if (t->lreads.step == 0 && n == (size_t)1 << shift && !(oa & (n - 1))) {
        /* rows each reading one word, run words one after the other: a loop that
         * vectorises (the third reader on leaves what the third left) */
        uint64_t *w = t->lreads.w + (oa >> shift);
        const uint64_t me0 = t->local_me0;
        const size_t run = t->lreads.run;
        for (size_t i = 0; i < run; ++i) {
            uint64_t v = cl2c_ck_reread_word(w[i], cl2c_ck_reader(me0, llid));
            if (m >= 1) v = cl2c_ck_reread_word(v, cl2c_ck_reader(me0, llid + 1));
            if (m >= 2) v = cl2c_ck_reread_word(v, cl2c_ck_reader(me0, llid + 2));
            w[i] = v;
        }
        return;
    }
    for (size_t i = 0; i < t->lreads.run; ++i)
        cl2c_ck_reread(t->lreads.w, shift, t->local_me0, oa + i * n, t->lreads.step, m, n,
                       llid);
}
static inline void cl2c_ck_lreads_flush(cl2c_ck_thread *t) {
    if (__builtin_expect(t->lreads.n != 0, 0)) cl2c_ck_lreads_write(t);
}

/* Whether the granule at offset at of r, whose read mark old is of several readers,
 * lies in an element of an async copy's source (cl2c_ck_span) of the phase of old. */
static int cl2c_ck_copy_source(const cl2c_ck_thread *t, const cl2c_ck_range *r, size_t at,
                               uint64_t old) {
    const size_t g = (size_t)1 << r->shift;
    for (int i = 0; i < t->nsources; ++i) {
        const size_t off = t->sources[i].off, step = t->sources[i].step;
        if (t->sources[i].lo != r->lo || CL2C_CK_PHASE(t->sources[i].mark) != CL2C_CK_PHASE(old) ||
            at + g <= off || at >= t->sources[i].end)
            continue;
        const size_t k = at > off ? (at - off) / step : 0;    /* the element at or before */
        const size_t next = off + (k + 1) * step;
        if (off + k * step + t->sources[i].elem > at ||
            (next < at + g && next < t->sources[i].end))
            return 1;
    }
    return 0;
}

/* Every granule the access touches, against its shadow word. */
__attribute__((noinline, unused)) static void cl2c_ck_shadow(cl2c_ck_thread *t,
                                                             const cl2c_ck_range *r,
                                                             size_t off, size_t n,
                                                             unsigned flags,
                                                             cl2c_ck_site *site, int local,
                                                             const void *value) {
    cl2c_ck_who(t);
    if (local) cl2c_ck_lreads_flush(t);
    const int by_copy = (flags & CL2C_CK_BY_COPY) != 0;
    uint64_t me = by_copy ? (local ? t->local_me0 : t->me0) | CL2C_CK_COPY
                          : local ? t->local_me : t->me;
    size_t first = off >> r->shift, last = (off + n - 1) >> r->shift;
    for (size_t i = first; i <= last; ++i) {
        uint64_t *s = &r->shadow[i];
        uint64_t old = __atomic_load_n(s, __ATOMIC_RELAXED);
        if (local ? CL2C_CK_GROUP(old) != CL2C_CK_GROUP(me)
                  : CL2C_CK_SERIAL(old) != CL2C_CK_SERIAL(me))
            old = 0; /* stale */
        if (!local && old != 0 && !(old & CL2C_CK_INIT)) {
            /* no byte of it written before this launch, nor in it (cl2c_ck_buffer): a
             * read or an update is a finding (an async copy's read is not: a tile's
             * padding need not hold data; nor an atomic's: atomic_xchg need not read) */
            const int found = (flags & CL2C_CK_READ) && !by_copy && !(flags & CL2C_CK_ATOMIC_);
            if (found)
                cl2c_ck_finding(site,
                                "read of uninitialized %s memory: '%s' at offset %zu, "
                                "which neither the host nor a kernel wrote", r->space,
                                r->name, i << r->shift);
            if (!(flags & CL2C_CK_WRITE))
                continue;   /* a read leaves it unwritten, for the next launch too */
            old = 0;
        }
        uint64_t who = old & CL2C_CK_WHO;
        int conflict = who != 0 && who != me &&
                       (CL2C_CK_GROUP(who) != CL2C_CK_GROUP(me) ||
                        CL2C_CK_PHASE(who) == CL2C_CK_PHASE(me));
        size_t at = i << r->shift;
        /* the same value stored again: a uniform store, not reported */
        int same = (flags & CL2C_CK_WRITE) && (old & CL2C_CK_W) && value != NULL &&
                   memcmp((const char *)r->lo + off, value, n) == 0;
        /* two atomic functions race with nothing; an atomic and a plain access do */
        const int atomic = (flags & CL2C_CK_ATOMIC_) != 0, both = atomic && (old & CL2C_CK_ATOM);
        if (conflict && !same && !both && ((flags & CL2C_CK_WRITE) || (old & CL2C_CK_W)) &&
            !cl2c_ck_reported(t, site)) {
            const char *did = old & CL2C_CK_ATOM ? "accessed atomically"
                              : old & CL2C_CK_W  ? "wrote" : "read";
            const char *does = atomic ? "atomic operation"
                               : flags & CL2C_CK_WRITE ? "write"
                               : by_copy ? "async copy's read" : "read";
            size_t other_group = (size_t)CL2C_CK_GROUP(who) - 1, other = CL2C_CK_LID(who);
            int same_group = CL2C_CK_GROUP(who) == CL2C_CK_GROUP(me);
            const int several = cl2c_ck_several(old, me) || cl2c_ck_atomics(old, me);
            if (!several && !local && t->launch && t->launch->asked[0])
                same_group = cl2c_ck_asked_ids(t, who, &other_group, &other);
            if (several && same_group && cl2c_ck_copy_source(t, r, at, old))
                cl2c_ck_finding(site,
                                "data race: %s of %s '%s' at offset %zu, which an async copy "
                                "reads: before the wait_group_events for its event", does,
                                r->space, r->name, at);
            else if (several)
                cl2c_ck_finding(site,
                                "data race: %s of %s '%s' at offset %zu, which several "
                                "work-items of %s %s %s", does, r->space, r->name, at,
                                same_group ? "the group" : "other groups", did,
                                same_group ? cl2c_ck_unfenced(t, local) : "in this launch");
            else if (same_group && (old & CL2C_CK_W) && CL2C_CK_LID(who) == 0xfff)
                cl2c_ck_finding(site,
                                "data race: %s of %s '%s' at offset %zu, which an async copy "
                                "fills: before the wait_group_events for its event", does,
                                r->space, r->name, at);
            else if (!same_group)
                cl2c_ck_finding(site,
                                "data race: %s of %s '%s' at offset %zu, which a work-item "
                                "of another group (linear id %u) %s in this launch",
                                does, r->space, r->name, at, (unsigned)other_group, did);
            else
                cl2c_ck_finding(site,
                                "data race: %s of %s '%s' at offset %zu, which work-item "
                                "(local linear id %u) %s %s", does, r->space, r->name, at,
                                (unsigned)other, did, cl2c_ck_unfenced(t, local));
        }
        if (local && (flags & CL2C_CK_READ) && !by_copy && !(old & CL2C_CK_INIT))
            cl2c_ck_finding(site,
                            CL2C_CK_UNWRITTEN_LOCAL, r->space, r->name, at);
        uint64_t mark = old;
        if (both && conflict && who != me && CL2C_CK_GROUP(who) != CL2C_CK_GROUP(me))
            mark = (old & ~0xffffffull) | CL2C_CK_SEVERAL;  /* atomics of several groups */
        else if (both && conflict && who != me)
            mark = old | CL2C_CK_SEVERAL;                    /* ...of the group's work-items */
        else if (atomic && who == me && old != 0 && !(old & CL2C_CK_ATOM))
            ;   /* its own plain access stays: another's atomic races with it */
        else if (atomic)
            mark = me | CL2C_CK_ATOM | CL2C_CK_W | CL2C_CK_INIT;
        else if (flags & CL2C_CK_WRITE)
            mark = me | CL2C_CK_W | CL2C_CK_INIT;
        else if (who == me || cl2c_ck_several(old, me))
            ;   /* its own read or write stays one; several readers stay several */
        else if (old != 0 && !(old & CL2C_CK_W) && CL2C_CK_GROUP(who) != CL2C_CK_GROUP(me))
            mark = (old & ~0xffffffull) | CL2C_CK_SEVERAL;       /* groups (__global) */
        else if (old != 0 && !(old & CL2C_CK_W) && CL2C_CK_PHASE(who) == CL2C_CK_PHASE(me))
            mark = old | CL2C_CK_SEVERAL;                        /* of the group */
        else    /* the first access, or after a write or a read of an earlier phase */
            mark = me | (old & CL2C_CK_INIT) | (local ? 0 : CL2C_CK_INIT);
        if (mark != old) {
            __atomic_store_n(s, mark, __ATOMIC_RELAXED);
            if (local) t->local_slow = t->local_me0;
        }
    }
}

__attribute__((cold, noinline, unused)) static void *cl2c_ck_out(const cl2c_ck_range *r, const char *p,
                                                         size_t n, unsigned flags,
                                                         cl2c_ck_site *site) {
    const char *what = flags & CL2C_CK_ATOMIC_ ? "atomic operation"
                       : flags & CL2C_CK_WRITE ? "write" : "read";
    if (r == NULL)          /* (an argument's range for a NULL pointer: cl2c_ck_arg_size) */
        cl2c_ck_finding(site, "NULL pointer dereference: %s of %zu bytes at address 0x%zx",
                        what, n, (size_t)(uintptr_t)p);
    else
        cl2c_ck_finding(site,
                        "out-of-bounds %s of %zu bytes at offset %lld of %s '%s' (%zu bytes)",
                        what, n, (long long)(p - r->lo), r->space, r->name, r->size);
    /* The access goes to scratch memory instead: nothing outside the buffers changes. */
    static _Thread_local char big[4096] __attribute__((aligned(64)));
    memset(big, 0, n < sizeof big ? n : sizeof big);
    return n <= sizeof big ? (void *)big : NULL;
}

/* An access to memory with no shadow (r may be NULL: none holds p): a write to a buffer
 * the host made read-only, or a dereference of a NULL pointer, is a finding (the
 * access then goes to scratch memory); else nothing is checked here. */
__attribute__((cold, noinline, unused)) static void *cl2c_ck_unshadowed_(const cl2c_ck_range *r,
                                                                 void *p, size_t n,
                                                                 unsigned flags,
                                                                 cl2c_ck_site *site) {
    if (r == NULL)
        return cl2c_ck_out(NULL, (const char *)p, n, flags, site);
    cl2c_ck_finding(site, "%s to read-only %s '%s' at offset %zu: the host gave it read-only",
                    flags & CL2C_CK_ATOMIC_ ? "atomic operation" : "write", r->space, r->name,
                    (size_t)((const char *)p - r->lo));
    static _Thread_local char scratch[4096] __attribute__((aligned(64)));
    return n <= sizeof scratch ? (void *)scratch : NULL;
}
static inline void *cl2c_ck_unshadowed(const cl2c_ck_range *r, void *p, size_t n,
                                       unsigned flags, cl2c_ck_site *site) {
    if (r == NULL ? (uintptr_t)p < CL2C_CK_NULL_PAGE : (flags & CL2C_CK_WRITE) && r->readonly)
        return cl2c_ck_unshadowed_(r, p, n, flags, site);
    return p;
}

/* The shadow word of an access at offset off of r, whose shadow and granule the caller
 * read. The common cases stay here, a few compares of values read once (no strict
 * aliasing: a store would make GCC read a field again): the running work-item's own
 * granule again, or a granule only read so far. */
static inline void *cl2c_ck_granule(cl2c_ck_thread *t, const cl2c_ck_range *r,
                                    uint64_t *shadow, unsigned shift, size_t off, void *p,
                                    size_t n, unsigned flags, int local, cl2c_ck_site *site,
                                    const void *value) {
    const size_t g = (size_t)1 << shift;
    if (local) cl2c_ck_lreads_flush(t);
    if (__builtin_expect(!t->fibers && (off & (g - 1)) + n <= g && n, 1)) {
        /* one granule */
        uint64_t *s = &shadow[off >> shift];
        uint64_t old = *s;
        uint64_t me = local ? t->local_me : t->me;
        int stale = local ? CL2C_CK_GROUP(old) != CL2C_CK_GROUP(me)
                          : CL2C_CK_SERIAL(old) != CL2C_CK_SERIAL(me) || old == 0;
        /* the last access was this group's in an earlier barrier phase, or this
         * work-item's: no race, whatever either did (cl2c_ck_shadow's rule) */
        int quiet = !stale && CL2C_CK_GROUP(old) == CL2C_CK_GROUP(me) &&
                    (CL2C_CK_PHASE(old) != CL2C_CK_PHASE(me) ||
                     CL2C_CK_LID(old) == CL2C_CK_LID(me));
        if (flags & CL2C_CK_WRITE) {
            if (old == (me | CL2C_CK_W | CL2C_CK_INIT)) return p;
            /* (a __global word never written: as stale, for a store) */
            /* (or a race this site reported in this launch: a racy loop, collected, need
             * not put its finding together on every trip; cl2c_ck_shadow would leave the
             * same mark) */
            if (stale || quiet || (!local && !(old & CL2C_CK_INIT) && !(flags & CL2C_CK_READ)) ||
                (!(flags & (CL2C_CK_ATOMIC_ | CL2C_CK_BY_COPY)) && cl2c_ck_reported(t, site))) {
                __atomic_store_n(s, me | CL2C_CK_W | CL2C_CK_INIT, __ATOMIC_RELAXED);
                if (local) t->local_slow = t->local_me0;
                return p;
            }
        } else if (!stale && (old & CL2C_CK_INIT)) {
            if ((old & CL2C_CK_WHO) == me) return p; /* its own read or write: stays */
            if (!(old & CL2C_CK_W)) {
                /* read only so far: by several already, or cl2c_ck_shadow says so */
                if (cl2c_ck_several(old, me)) return p;
            } else if (quiet) {
                __atomic_store_n(s, me | CL2C_CK_INIT, __ATOMIC_RELAXED);
                if (local) t->local_slow = t->local_me0;
                return p;
            }
        } else if (stale && !local) {
            __atomic_store_n(s, me | CL2C_CK_INIT, __ATOMIC_RELAXED);
            return p;
        }
    }
    cl2c_ck_shadow(t, r, off, n ? n : 1, flags, site, local, value);
    return p;
}

/* An access of n bytes at p, whose pointer came from base (NULL: from p itself); value:
 * what a store writes, else NULL. */
static inline void *cl2c_ck_access(cl2c_ck_thread *t, const void *base, void *p, size_t n,
                                   unsigned flags, int local, cl2c_ck_site *site,
                                   const void *value) {
    const char *b = (const char *)(base ? base : p), *a = (const char *)p;
    const cl2c_ck_range *r = local ? cl2c_ck_range_of(t->locals, t->nlocals, b, site)
                                   : cl2c_ck_range_of(t->buffers, t->nbuffers, b, site);
    if (r == NULL) return cl2c_ck_unshadowed(NULL, p, n, flags, site);
    const size_t size = r->size;
    const size_t off = (size_t)(a - r->lo); /* huge below the range */
    if (__builtin_expect(n > size || off > size - n, 0))
        return cl2c_ck_out(r, a, n, flags, site);
    uint64_t *const shadow = r->shadow;
    if (shadow == NULL) return cl2c_ck_unshadowed(r, p, n, flags, site);
    return cl2c_ck_granule(t, r, shadow, r->shift, off, p, n, flags, local, site, value);
}

#define CL2C_CK_STORE(base, p, local, site, ...)                                            \
    __extension__({                                                                          \
        __typeof__(p) cl2c_ck_p_ = (p);                                                      \
        __typeof__(*cl2c_ck_p_) cl2c_ck_v_ = (__VA_ARGS__);                                  \
        cl2c_ck_p_ = (__typeof__(p))cl2c_ck_access(cl2c_ck_t, (const void *)(base),          \
                                                   (void *)cl2c_ck_p_, sizeof cl2c_ck_v_,    \
                                                   CL2C_CK_WRITE, (local), (site),           \
                                                   &cl2c_ck_v_);                             \
        *cl2c_ck_p_ = cl2c_ck_v_;                                                            \
    })
#define CL2C_CK_ACCESS(base, p, flags, local, site)                                          \
    ((__typeof__(p))cl2c_ck_access(cl2c_ck_t, (const void *)(base), (void *)(p), sizeof(*(p)), \
                                   (flags), (local), (site), NULL))

/* An atomic function's object at p: its bounds, and its shadow words marked atomic:
 * atomics do not race with each other, but a plain access of another work-item in the
 * same barrier phase (__global: in the same launch) races with one; out of bounds,
 * scratch memory. */
static inline void *cl2c_ck_atomic(cl2c_ck_thread *t, const void *base, const volatile void *p,
                                   size_t n, int local, cl2c_ck_site *site) {
    const char *a = (const char *)p, *b = base ? (const char *)base : a;
    const cl2c_ck_range *r = local ? cl2c_ck_range_of(t->locals, t->nlocals, b, site)
                                   : cl2c_ck_range_of(t->buffers, t->nbuffers, b, site);
    const unsigned flags = CL2C_CK_READ | CL2C_CK_WRITE | CL2C_CK_ATOMIC_;
    if (r == NULL) return cl2c_ck_unshadowed(NULL, (void *)a, n, flags, site);
    const size_t off = (size_t)(a - r->lo);
    if (n > r->size || off > r->size - n)
        return cl2c_ck_out(r, a, n, flags, site);
    if (r->shadow == NULL) return cl2c_ck_unshadowed(r, (void *)a, n, flags, site);
    {
        if (local) cl2c_ck_lreads_flush(t);
        if (!t->fibers && (off & (((size_t)1 << r->shift) - 1)) + n <= ((size_t)1 << r->shift)) {
            /* the common case: the granule's last access was an atomic of this work-item,
             * or of several of this phase or launch (a counter all update) */
            const uint64_t old = __atomic_load_n(&r->shadow[off >> r->shift], __ATOMIC_RELAXED);
            const uint64_t me = local ? t->local_me : t->me;
            const int fresh = local ? CL2C_CK_GROUP(old) == CL2C_CK_GROUP(me)
                                    : CL2C_CK_SERIAL(old) == CL2C_CK_SERIAL(me) && old != 0;
            if (fresh && (old & CL2C_CK_ATOM) &&
                ((old & CL2C_CK_WHO) == me || cl2c_ck_atomics(old, me)))
                return (void *)a;
        }
        cl2c_ck_shadow(t, r, off, n ? n : 1, flags, site, local, NULL);
    }
    return (void *)a;
}
#define CL2C_CK_ATOMIC(base, p, local, site)                                                 \
    ((__typeof__(p))cl2c_ck_atomic(cl2c_ck_t, (const void *)(base), (p), sizeof *(p),       \
                                   (local), (site)))

/* ---- pointers into private memory (cl2c/checking/private_bounds.py): bounds only.
 * A private variable that a pointer may point into is registered where it is declared
 * (again at each pass of a loop: it moves up to be the most recent); the oldest goes
 * when there are too many. Stack frames nest, so the most recent variable holding an
 * address is the live one there (until the group ends, variables of frames that
 * returned stay, below the live ones that took their place). */
static inline void cl2c_ck_private(cl2c_ck_thread *t, const char *name, const void *p,
                                   size_t size) {
    const char *lo = (const char *)p;
    int n = t->nprivates, i = n - 1;
    if (i >= 0 && t->privates[i].lo == lo) {        /* the most recent: in place */
        t->privates[i].name = name;
        t->privates[i].size = size;
        return;
    }
    while (i >= 0 && t->privates[i].lo != lo) --i;
    if (i < 0 && n == CL2C_CK_MAX_PRIVATES) i = 0;
    if (i >= 0) {
        memmove(&t->privates[i], &t->privates[i + 1], (size_t)(n - 1 - i) * sizeof *t->privates);
        n--;
    }
    cl2c_ck_range_at(&t->privates[n], name, "__private", lo, size, 0);
    t->nprivates = n + 1;
}

/* An access of n bytes at p through a pointer into private memory whose value is base:
 * against the most recent registered variable that holds base; out of bounds, scratch
 * memory. None holds it: not checked. */
static inline void *cl2c_ck_private_access(cl2c_ck_thread *t, const void *base, void *p,
                                           size_t n, unsigned flags, cl2c_ck_site *site) {
    const char *b = (const char *)(base ? base : p), *a = (const char *)p;
    for (int i = t->nprivates - 1; i >= 0; --i) {
        const cl2c_ck_range *r = &t->privates[i];
        if ((size_t)(b - r->lo) < r->size) {
            if (__builtin_expect(n > r->size || (size_t)(a - r->lo) > r->size - n, 0))
                return cl2c_ck_out(r, a, n, flags, site);
            return p;
        }
    }
    return p;
}
#define CL2C_CK_PRIVATE(base, p, flags, site)                                                \
    ((__typeof__(p))cl2c_ck_private_access(cl2c_ck_t, (const void *)(base), (void *)(p),    \
                                           sizeof(*(p)), (flags), (site)))

/* An access through a generic pointer (OpenCL C 2.0): as one through a pointer into the
 * buffer, __local variable or private variable that holds base, whichever does. */
static inline void *cl2c_ck_generic_access(cl2c_ck_thread *t, const void *base, void *p,
                                           size_t n, unsigned flags, cl2c_ck_site *site,
                                           const void *value) {
    const char *b = (const char *)(base ? base : p);
    if (cl2c_ck_find(t->buffers, t->nbuffers, b) != NULL)
        return cl2c_ck_access(t, base, p, n, flags, 0, site, value);
    if (cl2c_ck_find(t->locals, t->nlocals, b) != NULL)
        return cl2c_ck_access(t, base, p, n, flags, 1, site, value);
    return cl2c_ck_private_access(t, base, p, n, flags, site);
}
#define CL2C_CK_GENERIC(base, p, flags, site)                                                \
    ((__typeof__(p))cl2c_ck_generic_access(cl2c_ck_t, (const void *)(base), (void *)(p),    \
                                           sizeof(*(p)), (flags), (site), NULL))
#define CL2C_CK_GENERIC_STORE(base, p, site, ...)                                            \
    __extension__({                                                                          \
        __typeof__(p) cl2c_ck_p_ = (p);                                                      \
        __typeof__(*cl2c_ck_p_) cl2c_ck_v_ = (__VA_ARGS__);                                  \
        cl2c_ck_p_ = (__typeof__(p))cl2c_ck_generic_access(                                  \
            cl2c_ck_t, (const void *)(base), (void *)cl2c_ck_p_, sizeof cl2c_ck_v_,          \
            CL2C_CK_WRITE, (site), &cl2c_ck_v_);                                             \
        *cl2c_ck_p_ = cl2c_ck_v_;                                                            \
    })

/* A vector load or store through a generic pointer: the check of CL2C_CK_VLOAD and
 * CL2C_CK_VSTORE, where the memory that base points into decides, not `local`. */
static inline void *cl2c_ck_generic_span(cl2c_ck_thread *t, const void *base, void *p,
                                         size_t n, unsigned flags, int local,
                                         cl2c_ck_site *site, const void *value) {
    (void)local;
    return cl2c_ck_generic_access(t, base, p, n, flags, site, value);
}

/* An atomic function's object through a generic pointer: its bounds, in the buffer,
 * __local variable or private variable that holds base. */
static inline void *cl2c_ck_generic_atomic(cl2c_ck_thread *t, const void *base,
                                           const volatile void *p, size_t n,
                                           cl2c_ck_site *site) {
    const char *b = base ? (const char *)base : (const char *)p;
    if (cl2c_ck_find(t->buffers, t->nbuffers, b) != NULL)
        return cl2c_ck_atomic(t, base, p, n, 0, site);
    if (cl2c_ck_find(t->locals, t->nlocals, b) != NULL)
        return cl2c_ck_atomic(t, base, p, n, 1, site);
    return cl2c_ck_private_access(t, base, (void *)p, n,
                                  CL2C_CK_READ | CL2C_CK_WRITE | CL2C_CK_ATOMIC_, site);
}
#define CL2C_CK_GENERIC_ATOMIC(base, p, site)                                                \
    ((__typeof__(p))cl2c_ck_generic_atomic(cl2c_ck_t, (const void *)(base), (p), sizeof *(p), \
                                           (site)))

/* A buffer argument of a kernel that never changes it, found once per call of the
 * function (cl2c_ck_arg): its accesses (CL2C_CK_ARG) compare with these copies, which
 * stay in registers and out of the loops. */
typedef struct cl2c_ck_argr {
    const char *lo;
    size_t size;
    uint64_t *shadow;
    unsigned shift;
    const cl2c_ck_range *r;
} cl2c_ck_argr;

/* Argument k's range: the one its value (base) lies in, as cl2c_ck_access finds it (k
 * unused: two arguments may be one buffer); NULL: nothing is checked. */
static inline const cl2c_ck_range *cl2c_ck_arg_range(unsigned k, const void *base) {
    (void)k;
    return cl2c_ck_find(cl2c_ck_tls.buffers, cl2c_ck_tls.nbuffers, (const char *)base);
}
/* A __local variable's range, by its address (k unused). */
static inline const cl2c_ck_range *cl2c_ck_var_range(unsigned k, const void *var) {
    (void)k;
    return cl2c_ck_find(cl2c_ck_tls.locals, cl2c_ck_tls.nlocals, (const char *)var);
}
/* Each field a function of its own that says it is const, and returns a scalar (in a
 * register): the ranges stay for the whole of a group and a kernel's function runs
 * within one group, so GCC computes them once, out of the work-item loops of the loops
 * schedule (a struct returned in memory would keep the calls in the loop). */
#define CL2C_CK_FIELD(of, field, type, none)                                                 \
    __attribute__((const, noinline, unused)) static type cl2c_ck_##of##_##field(             \
        unsigned k, const void *base) {                                                      \
        const cl2c_ck_range *r = cl2c_ck_##of##_range(k, base);                              \
        return r ? (type)r->field : (none);                                                  \
    }
CL2C_CK_FIELD(arg, lo, const char *, NULL)
/* an argument that is NULL: size 0, so that every access through it is a finding */
__attribute__((const, noinline, unused)) static size_t cl2c_ck_arg_size(unsigned k,
                                                                        const void *base) {
    const cl2c_ck_range *r = cl2c_ck_arg_range(k, base);
    return r ? r->size : base == NULL ? 0 : SIZE_MAX;
}
CL2C_CK_FIELD(arg, shadow, uint64_t *, NULL)
CL2C_CK_FIELD(arg, shift, unsigned, 0)
CL2C_CK_FIELD(var, lo, const char *, NULL)
CL2C_CK_FIELD(var, size, size_t, SIZE_MAX)
CL2C_CK_FIELD(var, shadow, uint64_t *, NULL)
CL2C_CK_FIELD(var, shift, unsigned, 0)
__attribute__((const, noinline, unused)) static const cl2c_ck_range *
cl2c_ck_arg_r(unsigned k, const void *base) { return cl2c_ck_arg_range(k, base); }
__attribute__((const, noinline, unused)) static const cl2c_ck_range *
cl2c_ck_var_r(unsigned k, const void *base) { return cl2c_ck_var_range(k, base); }
#define CL2C_CK_RANGE(of, k, base)                                                           \
    ((cl2c_ck_argr){cl2c_ck_##of##_lo((k), (base)), cl2c_ck_##of##_size((k), (base)),        \
                    cl2c_ck_##of##_shadow((k), (base)), cl2c_ck_##of##_shift((k), (base)),   \
                    cl2c_ck_##of##_r((k), (base))})
/* Kernel argument k, whose value is base; a kernel-scope __local variable at var. */
#define cl2c_ck_arg(t, k, base) ((void)(t), CL2C_CK_RANGE(arg, (k), (const void *)(base)))
#define cl2c_ck_local_var(t, at) ((void)(t), CL2C_CK_RANGE(var, 0u, (const void *)(at)))

static inline void *cl2c_ck_arg_access(cl2c_ck_thread *t, cl2c_ck_argr A, void *p, size_t n,
                                       unsigned flags, int local, cl2c_ck_site *site,
                                       const void *value) {
    const size_t off = (uintptr_t)p - (uintptr_t)A.lo;
    if (__builtin_expect(n > A.size || off > A.size - n, 0))
        return cl2c_ck_out(A.r, (const char *)p, n, flags, site);
    if (A.shadow == NULL) return A.r ? cl2c_ck_unshadowed(A.r, p, n, flags, site) : p;
    return cl2c_ck_granule(t, A.r, A.shadow, A.shift, off, p, n, flags, local, site, value);
}
#define CL2C_CK_ARG(A, p, flags, local, site)                                                \
    ((__typeof__(p))cl2c_ck_arg_access(cl2c_ck_t, (A), (void *)(p), sizeof(*(p)), (flags),  \
                                       (local), (site), NULL))
#define CL2C_CK_ARG_STORE(A, p, local, site, ...)                                            \
    __extension__({                                                                          \
        __typeof__(p) cl2c_ck_p_ = (p);                                                      \
        __typeof__(*cl2c_ck_p_) cl2c_ck_v_ = (__VA_ARGS__);                                  \
        cl2c_ck_p_ = (__typeof__(p))cl2c_ck_arg_access(cl2c_ck_t, (A), (void *)cl2c_ck_p_,   \
                                                       sizeof cl2c_ck_v_, CL2C_CK_WRITE,     \
                                                       (local), (site), &cl2c_ck_v_);        \
        *cl2c_ck_p_ = cl2c_ck_v_;                                                            \
    })

/* An atomic function's object (cl2c_ck_atomic) through a range found once (a kernel's unchanged buffer argument, a
 * kernel-scope __local variable: ranges.py), whose common case stays inline: a
 * histogram's __local bins take one compare of a shadow word per atomic. */
__attribute__((noinline, unused)) static void *cl2c_ck_arg_atomic_(cl2c_ck_thread *t,
                                                                   cl2c_ck_argr A, void *p,
                                                                   size_t n, int local,
                                                                   cl2c_ck_site *site) {
    const unsigned flags = CL2C_CK_READ | CL2C_CK_WRITE | CL2C_CK_ATOMIC_;
    if (A.r == NULL) return cl2c_ck_out(NULL, (const char *)p, n, flags, site);
    if (A.shadow == NULL) return cl2c_ck_unshadowed(A.r, p, n, flags, site);
    cl2c_ck_shadow(t, A.r, (size_t)((const char *)p - A.lo), n ? n : 1, flags, site, local,
                   NULL);
    return p;
}
static inline void *cl2c_ck_arg_atomic(cl2c_ck_thread *t, cl2c_ck_argr A,
                                       const volatile void *q, size_t n, int local,
                                       cl2c_ck_site *site) {
    void *p = (void *)q;
    const size_t off = (uintptr_t)p - (uintptr_t)A.lo;
    if (__builtin_expect(n > A.size || off > A.size - n, 0))
        return cl2c_ck_out(A.r, (const char *)p, n,
                           CL2C_CK_READ | CL2C_CK_WRITE | CL2C_CK_ATOMIC_, site);
    if (__builtin_expect(A.shadow != NULL && !t->fibers && !(local && t->lreads.n) &&
                         (off & (((size_t)1 << A.shift) - 1)) + n <= ((size_t)1 << A.shift), 1)) {
        const uint64_t old = __atomic_load_n(&A.shadow[off >> A.shift], __ATOMIC_RELAXED);
        const uint64_t me = local ? t->local_me : t->me;
        const int fresh = local ? CL2C_CK_GROUP(old) == CL2C_CK_GROUP(me)
                                : CL2C_CK_SERIAL(old) == CL2C_CK_SERIAL(me) && old != 0;
        if (fresh && (old & CL2C_CK_ATOM) &&
            ((old & CL2C_CK_WHO) == me || cl2c_ck_atomics(old, me)))
            return p;
    }
    if (A.shadow == NULL && A.r != NULL && !A.r->readonly) return p;
    return cl2c_ck_arg_atomic_(t, A, p, n, local, site);
}
#define CL2C_CK_ARG_ATOMIC(A, p, local, site)                                                \
    ((__typeof__(p))cl2c_ck_arg_atomic(cl2c_ck_t, (A), (p), sizeof *(p), (local), (site)))
/* A read through an argument the kernel never writes: its range has a shadow only
 * where another argument is the same buffer, so that path is cold (GCC then keeps the
 * loop's values in registers across it). */
__attribute__((cold, noinline, unused)) static void *
cl2c_ck_granule_cold(cl2c_ck_thread *t, cl2c_ck_argr A, void *p, size_t n, cl2c_ck_site *site) {
    return cl2c_ck_granule(t, A.r, A.shadow, A.shift, (uintptr_t)p - (uintptr_t)A.lo, p, n,
                           CL2C_CK_READ, 0, site, NULL);
}
static inline void *cl2c_ck_arg_read(cl2c_ck_thread *t, cl2c_ck_argr A, void *p, size_t n,
                                     cl2c_ck_site *site) {
    const size_t off = (uintptr_t)p - (uintptr_t)A.lo;
    if (__builtin_expect(n > A.size || off > A.size - n, 0))
        return cl2c_ck_out(A.r, (const char *)p, n, CL2C_CK_READ, site);
    if (__builtin_expect(A.shadow != NULL, 0)) return cl2c_ck_granule_cold(t, A, p, n, site);
    return p;
}
#define CL2C_CK_ARG_READ(A, p, site)                                                         \
    ((__typeof__(p))cl2c_ck_arg_read(cl2c_ck_t, (A), (void *)(p), sizeof(*(p)), (site)))

/* Vector loads and stores: the n elements at p + off stride as one access, checked by
 * check(r, ...): cl2c_ck_access with r the base pointer, cl2c_ck_arg_access with r an
 * argument's range (cl2c_ck_arg), or cl2c_ck_arg_read_ for an argument the kernel never
 * writes. Out of bounds, the access goes to scratch memory. */
#define cl2c_ck_arg_read_(t, A, p, n, flags, local, site, value) cl2c_ck_arg_read(t, A, p, n, site)
/* vloadn, vload_half and vloada_half: f(off, p) */
#define CL2C_CK_VLOAD(check, r, f, off, p, n, stride, local, site)                          \
    __extension__({                                                                          \
        __typeof__(p) cl2c_ck_vp_ = (p) + (size_t)(off) * (stride);                          \
        f(0, (__typeof__(p))check(cl2c_ck_t, (r), (void *)cl2c_ck_vp_,                       \
                                  (n) * sizeof *cl2c_ck_vp_, CL2C_CK_READ, (local), (site),  \
                                  NULL));                                                    \
    })
/* vstoren, vstore_half and vstorea_half: f(v, off, p); same: v's bytes are what it
 * stores (no conversion), for the uniform-store rule. v last, as the variable
 * arguments: a vector literal's braces do not protect its commas. */
#define CL2C_CK_VSTORE(check, r, f, off, p, n, stride, same, local, site, ...)              \
    __extension__({                                                                          \
        __typeof__(__VA_ARGS__) cl2c_ck_vv_ = (__VA_ARGS__);                                 \
        __typeof__(p) cl2c_ck_vp_ = (p) + (size_t)(off) * (stride);                          \
        f(cl2c_ck_vv_, 0,                                                                    \
          (__typeof__(p))check(cl2c_ck_t, (r), (void *)cl2c_ck_vp_, (n) * sizeof *cl2c_ck_vp_, \
                               CL2C_CK_WRITE, (local), (site),                               \
                               (same) ? (const void *)&cl2c_ck_vv_ : NULL));                 \
    })

#include "check_box.h"

/* A read of __local memory in a group like the model (alike 4, no shadow): whether the
 * model had written its words by this phase (cl2c_ck_record_words). */
__attribute__((noinline, unused)) static void *cl2c_ck_read_recalled(cl2c_ck_thread *t,
                                                                   cl2c_ck_argr A, void *p,
                                                                   size_t off, size_t n,
                                                                   cl2c_ck_site *site) {
    const struct cl2c_ck_inited_ *s = cl2c_ck_recorded(t, A);
    const size_t lo = off >> A.shift, hi = (off + (n ? n : 1) - 1) >> A.shift;
    if (s == NULL || cl2c_ck_bits_all(s->bits, lo, hi)) return p;
    size_t at = lo;
    while (at < hi && (s->bits[at >> 6] >> (at & 63) & 1)) ++at;
    cl2c_ck_finding(site,
                    CL2C_CK_UNWRITTEN_LOCAL, A.r->space, A.r->name, at << A.shift);
    return p;
}

/* A read of a __local variable in a barrier phase that writes none of it
 * (cl2c/checking/phases.py): it races with nothing, so it asks only that a
 * work-item of this group wrote the memory (cl2c_ck_shadow says what else). */
static inline void *cl2c_ck_local_read(cl2c_ck_thread *t, cl2c_ck_argr A, void *p, size_t n,
                                       cl2c_ck_site *site) {
    const size_t off = (uintptr_t)p - (uintptr_t)A.lo;
    if (__builtin_expect(n > A.size || off > A.size - n, 0))
        return cl2c_ck_out(A.r, (const char *)p, n, CL2C_CK_READ, site);
    if (A.shadow == NULL)
        return t->same_now && (t->alike & 4) ? cl2c_ck_read_recalled(t, A, p, off, n, site) : p;
    const size_t g = (size_t)1 << A.shift;
    if (__builtin_expect(!t->fibers && (off & (g - 1)) + n <= g, 1)) {
        uint64_t old = A.shadow[off >> A.shift];
        if (__builtin_expect(((old ^ t->local_me) & 0xffffffull) == 0 && (old & CL2C_CK_INIT), 1))
            return p;
    }
    cl2c_ck_shadow(t, A.r, off, n ? n : 1, CL2C_CK_READ, site, 1, NULL);
    return p;
}
#define CL2C_CK_LREAD(A, p, site)                                                            \
    ((__typeof__(p))cl2c_ck_local_read(cl2c_ck_t, (A), (void *)(p), sizeof(*(p)), (site)))

/* An atomic on a __local variable in a barrier phase that touches it only with atomics
 * (cl2c/checking/phases.py): it races with nothing (two atomics do not), so it asks
 * only that a work-item of this group wrote the memory; else the full check. */
__attribute__((noinline, unused)) static void *
cl2c_ck_local_atomic_(cl2c_ck_thread *t, cl2c_ck_argr A, void *p, size_t off, size_t n,
                      cl2c_ck_site *site) {
    const size_t g = (size_t)1 << A.shift;
    if (A.shadow != NULL && !t->fibers) {
        /* once the phase's atomics have cost as much as looking at every word, look:
         * where the group wrote all of the variable, the rest of the phase's atomics
         * on it need their bounds only */
        cl2c_ck_range *r = (cl2c_ck_range *)A.r;      /* the thread's own */
        const uint64_t key = t->local_me0;
        const size_t words = ((A.size - 1) >> A.shift) + 1;
        if (r->tries_in != key) {
            r->tries_in = key;
            r->tries = 0;
        }
        if (r->tries != (size_t)-1 && ++r->tries * 8 >= words) {
            r->tries = (size_t)-1;                     /* (once a phase) */
            size_t i = 0;
            while (i < words && ((A.shadow[i] ^ key) & 0xffffffull) == 0 &&
                   (A.shadow[i] & CL2C_CK_INIT))
                ++i;
            if (i == words) {
                r->all_set = key;
                return p;
            }
        }
        if ((off & (g - 1)) + n <= g) {
            const uint64_t old = A.shadow[off >> A.shift];
            if (((old ^ key) & 0xffffffull) == 0 && (old & CL2C_CK_INIT)) return p;
        }
    }
    return cl2c_ck_arg_atomic(t, A, p, n, 1, site);
}
/* Where p is the variable or an element of it whose indices were checked (CL2C_CK_INDEX:
 * an index out of bounds is reported and becomes 0): p is in bounds. */
static inline void *cl2c_ck_local_atomic_in(cl2c_ck_thread *t, cl2c_ck_argr A,
                                            const volatile void *q, size_t n,
                                            cl2c_ck_site *site) {
    void *p = (void *)q;
    if (__builtin_expect(A.r != NULL && A.r->all_set == t->local_me0, 1)) return p;
    if (A.shadow == NULL && A.r != NULL) return p;      /* (bounds only: alike groups) */
    return cl2c_ck_local_atomic_(t, A, p, (uintptr_t)p - (uintptr_t)A.lo, n, site);
}
static inline void *cl2c_ck_local_atomic(cl2c_ck_thread *t, cl2c_ck_argr A,
                                         const volatile void *q, size_t n, cl2c_ck_site *site) {
    void *p = (void *)q;
    const size_t off = (uintptr_t)p - (uintptr_t)A.lo;
    if (__builtin_expect(n > A.size || off > A.size - n, 0))
        return cl2c_ck_out(A.r, (const char *)p, n,
                           CL2C_CK_READ | CL2C_CK_WRITE | CL2C_CK_ATOMIC_, site);
    return cl2c_ck_local_atomic_in(t, A, q, n, site);
}
#define CL2C_CK_LATOMIC(A, p, site)                                                          \
    ((__typeof__(p))cl2c_ck_local_atomic(cl2c_ck_t, (A), (p), sizeof *(p), (site)))
#define CL2C_CK_LATOMIC_IN(A, p, site)                                                       \
    ((__typeof__(p))cl2c_ck_local_atomic_in(cl2c_ck_t, (A), (p), sizeof *(p), (site)))

/* An async copy's n elements of elem bytes at p, each stride elements after the one
 * before: bounds, and the group's copy (no work-item in particular: local id 0xfff)
 * as the one that accesses them until the wait. Its destination (fill) counts as
 * written by it, its source as read by it (a mark of several readers, which a write of
 * any work-item in the phase races with; t->sources tells such a race apart): the
 * accesses of work-items before the wait race with the copy. Work-item 0 marks them. */
CL2C_UNUSED static void *cl2c_ck_span(void *p, size_t elem, size_t n, size_t stride, int fill,
                                      cl2c_ck_site *site) {
    cl2c_ck_thread *t = &cl2c_ck_tls;
    const char *a = (const char *)p;
    int local = 1;
    const cl2c_ck_range *r = cl2c_ck_find(t->locals, t->nlocals, a);
    if (r == NULL) {
        local = 0;
        r = cl2c_ck_find(t->buffers, t->nbuffers, a);
    }
    if (r == NULL || n == 0 || elem == 0) return p;
    if (stride == 0) stride = 1;
    const size_t off = (size_t)(a - r->lo), step = stride * elem;
    const size_t bytes = (n - 1) * step + elem;
    if ((n - 1) > r->size / step || bytes > r->size || off > r->size - bytes) {
        cl2c_ck_finding(site, "out-of-bounds async copy of %zu bytes at offset %zu of %s '%s' "
                        "(%zu bytes)", bytes, off, r->space, r->name, r->size);
        return p;
    }
    if (r->shadow == NULL || (fill && r->readonly)) return p;
    cl2c_ck_who(t);
    /* the copy is made once, at work-item 0's call (async.h): so are its marks. (Had
     * each call marked the source, a work-item's write between two calls would be
     * found from either side, whichever of two groups came first.) */
    if ((t->lid[0] | t->lid[1] | t->lid[2]) != 0) return p;
    if (local) cl2c_ck_lreads_flush(t);
    const uint64_t copy = (local ? t->local_me0 : t->me0) | CL2C_CK_COPY;
    if (!fill) {
        if (t->nsources < CL2C_CK_MAX_EVENTS) {
            t->sources[t->nsources].lo = r->lo;
            t->sources[t->nsources].off = off;
            t->sources[t->nsources].end = off + bytes;
            t->sources[t->nsources].step = step;
            t->sources[t->nsources].elem = elem;
            t->sources[t->nsources].mark = copy;
            t->nsources++;
        }
        const size_t run = stride == 1 ? bytes : elem, runs = stride == 1 ? 1 : n;
        for (size_t i = 0; i < runs; ++i)
            cl2c_ck_shadow(t, r, off + i * step, run, CL2C_CK_READ | CL2C_CK_BY_COPY, site,
                           local, NULL);
        return p;
    }
    /* written by the group's copy in this barrier phase: any access of a work-item
     * before the wait (the next phase) races with it; a __global destination's also
     * other groups' accesses in the launch */
    const uint64_t mark = CL2C_CK_INIT | CL2C_CK_W | copy;
    for (size_t e = 0; e < n; ++e) {
        const size_t at = off + e * step;
        for (size_t i = at >> r->shift; i <= (at + elem - 1) >> r->shift; ++i)
            __atomic_store_n(&r->shadow[i], mark, __ATOMIC_RELAXED);
    }
    if (local) t->local_slow = t->local_me0;
    return p;
}
#define CL2C_CK_FILLED(dst, n, stride, site)                                                 \
    ((__typeof__(&*(dst)))cl2c_ck_span((void *)(dst), sizeof(*(dst)), (size_t)(n),          \
                                       (size_t)(stride), 1, (site)))
#define CL2C_CK_SOURCE(src, n, stride, site)                                                 \
    ((__typeof__(&*(src)))cl2c_ck_span((void *)(src), sizeof(*(src)), (size_t)(n),          \
                                       (size_t)(stride), 0, (site)))

/* Before a barrier (each work-item): the memory its fences order (cl2c_ck_passed). */
CL2C_UNUSED static void cl2c_ck_fences(unsigned flags) {
    cl2c_ck_thread *t = &cl2c_ck_tls;
    cl2c_ck_who(t);
    t->fences[t->phase % CL2C_CK_FENCES].phase = t->phase;
    t->fences[t->phase % CL2C_CK_FENCES].flags = flags;
}

/* ---- async copies' events (spec 6.13.10): a copy must be reached by every work-item of
 * the group, and its event waited for (wait_group_events) before the kernel ends; a wait
 * is for events that copies returned. In checking builds a copy that starts an event
 * returns its site's address (the same for every work-item), one that joins an event
 * returns that event; the group's first work-item's copies and waits are followed. */
CL2C_UNUSED static size_t cl2c_ck_copied(size_t returned, cl2c_ck_site *site) {
    cl2c_ck_thread *t = &cl2c_ck_tls;
    const size_t id = returned == 1 ? (size_t)(uintptr_t)site : returned; /* async.h: 1 new */
    if (t->launch == NULL || t->nevents < 0) return id;
    cl2c_ck_who(t);
    int i = 0;
    while (i < t->nevents && t->events[i].id != id) i++;
    if (i == t->nevents) {
        if (i == CL2C_CK_MAX_EVENTS) {
            t->nevents = -1;
            return id;
        }
        t->events[i].id = id;
        t->events[i].site = site;
        t->events[i].reached = t->events[i].copies = 0;
        t->events[i].waited = 0;
        t->nevents++;
    }
    t->events[i].reached++;
    if ((t->lid[0] | t->lid[1] | t->lid[2]) == 0) {
        t->events[i].copies++;
        t->events[i].waited = 0;
    }
    return id;
}
#define CL2C_CK_COPIED(call, site) ((__typeof__(call))cl2c_ck_copied((size_t)(call), (site)))

/* wait_group_events(n, list): before its barrier, each work-item. A wait releases its
 * events (spec 6.13.10): one that a wait before passed, and no copy returned since, is
 * no event to wait for (one list may name it twice: a loop's copies return one). */
CL2C_UNUSED static void cl2c_ck_waited(int n, const size_t *list, cl2c_ck_site *site) {
    cl2c_ck_thread *t = &cl2c_ck_tls;
    if (t->launch == NULL || t->nevents < 0 || list == NULL) return;
    cl2c_ck_who(t);
    if ((t->lid[0] | t->lid[1] | t->lid[2]) != 0) return;
    const int wait = ++t->waits;
    for (int k = 0; k < n; ++k) {
        int i = 0;
        while (i < t->nevents && t->events[i].id != list[k]) i++;
        if (i == t->nevents)
            cl2c_ck_finding(site, "wait for an event that no async copy returned: "
                            "event_list[%d] of wait_group_events", k);
        else if (t->events[i].waited != 0 && t->events[i].waited != wait)
            cl2c_ck_finding(site, "wait for an event already waited for: event_list[%d] of "
                            "wait_group_events, which an earlier wait released and no async "
                            "copy returned since", k);
        else
            t->events[i].waited = wait;
    }
}
#define CL2C_CK_WAITED(n, list, site) cl2c_ck_waited((int)(n), (const size_t *)(list), (site))

/* The group's end: copies that some work-items reached and others not, or not as often,
 * and events not waited for; reported as the group's first work-item's. */
__attribute__((noinline, unused)) static void cl2c_ck_events_end(cl2c_ck_thread *t) {
    if (t->launch == NULL) return;
    const size_t size = t->grp->local_size[0] * t->grp->local_size[1] * t->grp->local_size[2];
    const int fibers = t->fibers;
    t->fibers = 0;
    t->lid[0] = t->lid[1] = t->lid[2] = 0;
    for (int i = 0; i < t->nevents; ++i) {
        if (t->events[i].reached != t->events[i].copies * size)
            cl2c_ck_finding(t->events[i].site,
                            "divergent async copy: reached %zu times by the group's %zu "
                            "work-items, %zu of them by work-item (0,0,0)",
                            t->events[i].reached, size, t->events[i].copies);
        else if (!t->events[i].waited)
            cl2c_ck_finding(t->events[i].site,
                            "unwaited event: the event of this async copy is not passed to "
                            "wait_group_events before the kernel ends");
    }
    t->fibers = fibers;
    t->nevents = 0;
}

/* A buffer argument p whose type needs the alignment align (its pointee's): one not
 * aligned to it (a NumPy view that starts a byte on, a sub-buffer's odd origin) is a
 * finding before any group runs, "misaligned", at the argument's declaration: its
 * vector accesses would fault, its scalar ones read across elements. */
__attribute__((cold, noinline, unused)) static void cl2c_ck_misaligned_arg(
    cl2c_ck_launch *L, const char *name, const void *p, size_t align, cl2c_ck_site *site) {
    pthread_mutex_lock(&L->lock);
    if (L->findings++ < CL2C_CK_MAX_FINDINGS && L->used < sizeof L->text) {
        int n = snprintf(L->text + L->used, sizeof L->text - L->used,
                         "kernel '%s': %s:%d:%d: misaligned buffer argument: '%s' at address "
                         "0x%zx, which its type needs aligned to %zu bytes (at launch, "
                         "before any work-item ran)\n", L->kernel, site->file, site->line,
                         site->col, name, (size_t)(uintptr_t)p, align);
        if (n > 0) L->used += (size_t)n;
        if (L->used >= sizeof L->text) L->used = sizeof L->text - 1;
    }
    if (!L->collect) L->stop = 1;
    pthread_mutex_unlock(&L->lock);
}
static inline void cl2c_ck_aligned_arg(cl2c_ck_launch *L, const char *name, const void *p,
                                       size_t align, cl2c_ck_site *site) {
    if (__builtin_expect((uintptr_t)p & (align - 1), 0))
        cl2c_ck_misaligned_arg(L, name, p, align, site);
}

/* A pointer cast's result p, which must be aligned to its pointee's type (C11
 * 6.3.2.3p7; a vector's alignment is its size): else a finding, "misaligned", and the
 * pointer goes down to the aligned address below (its aligned loads would fault). */
__attribute__((cold, noinline, unused)) static void cl2c_ck_misaligned(const void *p,
                                                                       size_t align,
                                                                       cl2c_ck_site *site) {
    cl2c_ck_thread *t = &cl2c_ck_tls;
    const char *a = (const char *)p;
    const cl2c_ck_range *r = cl2c_ck_find(t->buffers, t->nbuffers, a);
    if (r == NULL) r = cl2c_ck_find(t->locals, t->nlocals, a);
    if (r != NULL)
        cl2c_ck_finding(site, "misaligned pointer: a cast to a type aligned to %zu bytes at "
                        "offset %zu of %s '%s'", align, (size_t)(a - r->lo), r->space, r->name);
    else
        cl2c_ck_finding(site, "misaligned pointer: a cast to a type aligned to %zu bytes at "
                        "address 0x%zx", align, (size_t)(uintptr_t)a);
}
#define CL2C_CK_ALIGNED(p, site)                                                             \
    __extension__({                                                                          \
        __typeof__(p) cl2c_ck_ap_ = (p);                                                     \
        const uintptr_t cl2c_ck_am_ = __alignof__(*cl2c_ck_ap_) - 1;                         \
        if (__builtin_expect((uintptr_t)cl2c_ck_ap_ & cl2c_ck_am_, 0)) {                     \
            cl2c_ck_misaligned((const void *)cl2c_ck_ap_, cl2c_ck_am_ + 1, (site));          \
            cl2c_ck_ap_ = (__typeof__(p))((uintptr_t)cl2c_ck_ap_ & ~cl2c_ck_am_);            \
        }                                                                                    \
        cl2c_ck_ap_;                                                                         \
    })

/* An index of an array of n elements. */
__attribute__((cold, noinline, unused)) static long long cl2c_ck_bad_index(long long i, long long n,
                                                                   cl2c_ck_site *site) {
    cl2c_ck_finding(site, "array index %lld out of bounds of an array of %lld elements", i, n);
    return 0;
}
static inline long long cl2c_ck_index(long long i, long long n, cl2c_ck_site *site) {
    return i >= 0 && i < n ? i : cl2c_ck_bad_index(i, n, site);
}
#define CL2C_CK_INDEX(i, n, site) cl2c_ck_index((long long)(i), (n), (site))
/* An index whose operands' types keep it in bounds (a uchar index of an array of 256, or
 * 256 + one of 768): nothing to check, said for the passes after (checking/accesses.py). */
#define CL2C_CK_WITHIN(i) (i)

/* A coordinate of an image access that the spec leaves undefined outside the image
 * (6.12.14.3 and 6.12.14.4): a write's, or a read's without a sampler (which reads as
 * CLK_ADDRESS_NONE does). CL2C_CK_PIXEL(c, extent, axis, write, image, site) is c,
 * reported where it lies outside [0, extent) (axis: 0 x, 1 y, 2 z, 3 the layer of an
 * array); the access then goes on as without checking (images.h stores nothing outside
 * the image, and reads some pixel). */
__attribute__((cold, noinline, unused)) static void
cl2c_ck_pixel_out(long long c, long long extent, int axis, int write, const char *image,
                  cl2c_ck_site *site) {
    static const char *const names[] = {"x", "y", "z", "layer"};
    cl2c_ck_finding(site, "out-of-bounds image %s: %s = %lld is outside image '%s' "
                          "(%s 0 to %lld)", write ? "write" : "read",
                    names[axis & 3], c, image, axis == 3 ? "layers" : "pixels", extent - 1);
}
static inline long long cl2c_ck_pixel(long long c, long long extent, int axis, int write,
                                      const char *image, cl2c_ck_site *site) {
    if (__builtin_expect((unsigned long long)c >= (unsigned long long)extent, 0))
        cl2c_ck_pixel_out(c, extent, axis, write, image, site);
    return c;
}
#define CL2C_CK_PIXEL(c, extent, axis, write, image, site)                                   \
    ((__typeof__(c))cl2c_ck_pixel((long long)(c), (long long)(extent), (axis), (write),     \
                                  (image), (site)))

/* ...and the components of a vector coordinate that is neither a literal nor a variable,
 * evaluated once (e: the extents, a: the axes after x). */
#define CL2C_CK_PIXELS2(c, e0, e1, a1, write, image, site)                                   \
    __extension__({                                                                          \
        __typeof__(c) cl2c_ck_c_ = (c);                                                      \
        cl2c_ck_pixel(cl2c_ck_c_.s[0], (long long)(e0), 0, (write), (image), (site));       \
        cl2c_ck_pixel(cl2c_ck_c_.s[1], (long long)(e1), (a1), (write), (image), (site));    \
        cl2c_ck_c_;                                                                          \
    })
#define CL2C_CK_PIXELS3(c, e0, e1, e2, a1, a2, write, image, site)                           \
    __extension__({                                                                          \
        __typeof__(c) cl2c_ck_c_ = (c);                                                      \
        cl2c_ck_pixel(cl2c_ck_c_.s[0], (long long)(e0), 0, (write), (image), (site));       \
        cl2c_ck_pixel(cl2c_ck_c_.s[1], (long long)(e1), (a1), (write), (image), (site));    \
        cl2c_ck_pixel(cl2c_ck_c_.s[2], (long long)(e2), (a2), (write), (image), (site));    \
        cl2c_ck_c_;                                                                          \
    })

/* An integer divisor: zero is reported (the division then gives some value, as it does
 * without checking). */
__attribute__((cold, noinline, unused)) static void cl2c_ck_zero(cl2c_ck_site *site) {
    cl2c_ck_finding(site, "integer division by zero");
}
#define CL2C_CK_DIVISOR(d, site)                                                             \
    __extension__({                                                                          \
        __typeof__(d) cl2c_ck_d_ = (d);                                                      \
        if (cl2c_ck_d_ == 0) cl2c_ck_zero(site);                                             \
        cl2c_ck_d_;                                                                          \
    })

#endif
