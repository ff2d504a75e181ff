/* Checking mode (-cl2c-check): the tests and shadow marks of fast versions of
 * checked work-item loops (cl2c/workgroup/passes/check_versions.py). Included by check.h,
 * whose thread state, ranges and shadow words they use. */
#ifndef CL2C_CHECK_BOX_H
#define CL2C_CHECK_BOX_H

/* ---- fast versions of checked work-item loops (cl2c/workgroup/passes/check_versions.py)
 *
 * A loop's test looks at its work-items as a box of `axes` axes (a uniform loop around
 * the group's rows, the rows, the work-item loop; outermost first), count[a] values
 * each, at points of the box: 0 the origin, 1 + a the second value along axis a, then
 * each corner (bit a of c: axis a at its last value) at 1 + axes + c. An access's
 * address (or an index) is affine in the axes; its values at those points (v) say where
 * all of them lie. */

/* A box's steps (bytes from its origin to its second point along each axis, 0 along an
 * axis of one point) and counts, as (l2, l1, l0): 1 to 3 axes fill the last ones. */
static inline void cl2c_ck_box_axes(const char *const *at, int axes, const long long *count,
                                    long long *s, long long *c) {
    for (int a = 0; a < 3; ++a) {
        s[a] = 0;
        c[a] = 1;
    }
    for (int a = 0; a < axes; ++a) {
        s[3 - axes + a] = count[a] > 1 ? (long long)((uintptr_t)at[1 + a] - (uintptr_t)at[0]) : 0;
        c[3 - axes + a] = count[a];
    }
}
/* The value of an axis from first to end at code c of a point (0: first, 1: second, 2:
 * last). */
static inline int cl2c_ck_point(int first, int end, int c) {
    return c == 0 ? first : c == 1 ? (first + 1 < end ? first + 1 : first) : end - 1;
}
/* A box with no work-item (any axis empty): nothing to test. */
static inline int cl2c_ck_box_empty(int axes, const long long *count) {
    for (int a = 0; a < axes; ++a)
        if (count[a] <= 0) return 1;
    return 0;
}
/* Whether a box has work-items enough (least) for its test and marks to cost less than
 * the checks they spare: below 8, its checked loop runs (a tree reduction's last
 * halving steps; 10% of its checked time at one thread, bench/check_cost.py); below 32
 * where the loop has guards, whose tests cost more (a 16x16 tile's halo rows of 14
 * work-items ran 5-10% slower fast than checked). */
static inline int cl2c_ck_box_worth(int axes, const long long *count, long long least) {
    long long items = 1;
    for (int a = 0; a < axes; ++a) {
        if (count[a] <= 0) return 0;            /* (two negative counts: no product) */
        items *= count[a];
    }
    return items >= least;
}
/* Whether every value of the box lies in [lo, hi] (unsigned, wrapping): each corner
 * does, and along each axis the last value is count - 1 steps of the second's from the
 * origin (the arithmetic does not wrap between). */
static inline int cl2c_ck_box_within(const unsigned long long *v, int axes,
                                     const long long *count, unsigned long long lo,
                                     unsigned long long hi) {
    for (int c = 0; c < 1 << axes; ++c)
        if (v[1 + axes + c] - lo > hi - lo) return 0;
    for (int a = 0; a < axes; ++a)
        if (v[1 + axes + (1 << a)] - v[0] != (unsigned long long)(count[a] - 1) * (v[1 + a] - v[0]))
            return 0;
    return 1;
}
static inline int cl2c_ck_box_spans(cl2c_ck_argr A, const char *const *at, int axes,
                                    const long long *count, size_t n) {
    unsigned long long v[1 + 4 + 16];
    if (axes > 4 || n > A.size) return 0;
    for (int p = 0; p < 1 + axes + (1 << axes); ++p) v[p] = (uintptr_t)at[p];
    return cl2c_ck_box_within(v, axes, count, (uintptr_t)A.lo, (uintptr_t)A.lo + (A.size - n));
}
/* The lowest and highest offsets of the box's accesses in A (corners). */
static inline void cl2c_ck_box_bounds(cl2c_ck_argr A, const char *const *at, int axes,
                                      size_t *lo, size_t *hi) {
    *lo = SIZE_MAX;
    *hi = 0;
    for (int c = 0; c < 1 << axes; ++c) {
        const size_t o = (uintptr_t)at[1 + axes + c] - (uintptr_t)A.lo;
        if (o < *lo) *lo = o;
        if (o > *hi) *hi = o;
    }
}
/* ---- the summary of the __local shadow (t->lsum): what the marks below left, so that
 * the tests need not read the words one by one (a tree reduction's halving steps spent
 * a third of their checked time there). It answers only where it is sure: no checked
 * access changed a __local word in this phase (t->local_slow), and it knows this group
 * and phase; else the words are read. Indices are of t->local_shadow's words. */
static inline size_t cl2c_ck_lword(const cl2c_ck_thread *t, cl2c_ck_argr A, size_t off) {
    return (size_t)(A.shadow - t->local_shadow) + (off >> A.shift);
}
/* No word from lo to hi was accessed in this phase. */
static inline int cl2c_ck_lsum_untouched(const cl2c_ck_thread *t, size_t lo, size_t hi) {
    return t->local_slow != t->local_me0 &&
           (t->lsum.now != t->local_me0 || hi < t->lsum.plo || lo >= t->lsum.phi);
}
/* ...and each was written by this group (in an earlier phase, then). */
static inline int cl2c_ck_lsum_earlier(const cl2c_ck_thread *t, size_t lo, size_t hi) {
    return t->lsum.gen == CL2C_CK_GROUP(t->local_me0) && lo >= t->lsum.wlo &&
           hi < t->lsum.whi && cl2c_ck_lsum_untouched(t, lo, hi);
}
/* The marks of words lo to hi (some of them, where !all) in this phase; wrote: all
 * written. */
static inline void cl2c_ck_lsum_mark(cl2c_ck_thread *t, size_t lo, size_t hi, int wrote) {
    if (t->lsum.now != t->local_me0) {
        t->lsum.now = t->local_me0;
        t->lsum.plo = lo;
        t->lsum.phi = hi + 1;
    } else {
        if (lo < t->lsum.plo) t->lsum.plo = lo;
        if (hi + 1 > t->lsum.phi) t->lsum.phi = hi + 1;
    }
    if (!wrote) return;
    const uint64_t gen = CL2C_CK_GROUP(t->local_me0);
    if (t->lsum.gen == gen && lo <= t->lsum.whi && hi + 1 >= t->lsum.wlo) {
        if (lo < t->lsum.wlo) t->lsum.wlo = lo;     /* they meet: one run */
        if (hi + 1 > t->lsum.whi) t->lsum.whi = hi + 1;
    } else if (t->lsum.gen != gen || hi + 1 - lo > t->lsum.whi - t->lsum.wlo) {
        t->lsum.gen = gen;                          /* else the longer run */
        t->lsum.wlo = lo;
        t->lsum.whi = hi + 1;
    }
}
/* The words a mark of m + 1 work-items' n bytes, the first at offset oa, the next
 * step bytes on, reaches (lowest, highest). */
static inline void cl2c_ck_lsum_marked(cl2c_ck_thread *t, cl2c_ck_argr A, size_t oa,
                                       long long step, long long m, size_t n, int wrote) {
    if (m < 0 || n == 0) return;            /* an empty box's: no mark */
    const size_t last = oa + (size_t)(m * step);
    const size_t lo = step < 0 ? last : oa, hi = (step < 0 ? oa : last) + n - 1;
    cl2c_ck_lsum_mark(t, cl2c_ck_lword(t, A, lo), cl2c_ck_lword(t, A, hi), wrote);
}
/* Bounds-only reads (CL2C_CK_ARG_READ): in range. A range with a shadow (another
 * argument is the same buffer) is no fast case. */
static inline int cl2c_ck_box_in_range(cl2c_ck_argr A, const char *const *at, int axes,
                                       const long long *count, size_t n) {
    return A.shadow == NULL && cl2c_ck_box_spans(A, at, axes, count, n);
}
/* Atomics on elements of __local variable A in bounds, in a phase that touches it only
 * with atomics (CL2C_CK_LATOMIC_IN), at any address: they find nothing where this group
 * wrote every word of A (found once a phase, as cl2c_ck_local_atomic_ does). */
static inline int cl2c_ck_box_whole(cl2c_ck_thread *t, cl2c_ck_argr A) {
    if (A.r == NULL || t->fibers) return 0;
    if (A.shadow == NULL || A.r->all_set == t->local_me0) return 1;
    cl2c_ck_lreads_flush(t);
    if (!cl2c_ck_all_written(A.shadow, ((A.size - 1) >> A.shift) + 1, t->local_me0))
        return 0;
    ((cl2c_ck_range *)A.r)->all_set = t->local_me0;  /* (the thread's own) */
    return 1;
}
/* Checked indices (CL2C_CK_INDEX): all within an array of n elements. */
static inline int cl2c_ck_box_index(const long long *v, int axes, const long long *count,
                                    long long n) {
    unsigned long long u[1 + 4 + 16];
    if (axes > 4 || n <= 0) return 0;
    for (int p = 0; p < 1 + axes + (1 << axes); ++p) u[p] = (unsigned long long)v[p];
    return cl2c_ck_box_within(u, axes, count, 0, (unsigned long long)(n - 1));
}
/* A guard (``if (a < b) store;``, check_versions.py) over the box, where v holds a - b
 * at its points (as long long) and op is the comparison (0 <, 1 <=, 2 >, 3 >=, 4 ==):
 * 1 where it holds all over the box, 0 where it holds nowhere, -1 else (or where the
 * differences are not affine: the arithmetic wrapped). */
static inline int cl2c_ck_box_guard(const long long *v, int axes, const long long *count,
                                    int op) {
    unsigned long long u[1 + 4 + 16];
    if (axes > 4) return -1;
    for (int p = 0; p < 1 + axes + (1 << axes); ++p) u[p] = (unsigned long long)v[p];
    /* where a - b lies: below 0, at 0, above it */
#define CL2C_CK_IN(lo, hi) \
    cl2c_ck_box_within(u, axes, count, (unsigned long long)(lo), (unsigned long long)(hi))
    const int below = CL2C_CK_IN(LLONG_MIN, -1), upto = CL2C_CK_IN(LLONG_MIN, 0),
              above = CL2C_CK_IN(1, LLONG_MAX), from = CL2C_CK_IN(0, LLONG_MAX),
              zero = CL2C_CK_IN(0, 0);
#undef CL2C_CK_IN
    switch (op) {
    case 0: return below ? 1 : from ? 0 : -1;
    case 1: return upto ? 1 : above ? 0 : -1;
    case 2: return above ? 1 : upto ? 0 : -1;
    case 3: return from ? 1 : below ? 0 : -1;
    default: return zero ? 1 : below || above ? 0 : -1;
    }
}
/* Whether each work-item of a box (steps s, counts c, over k <= 4 axes) has granules
 * of its own (g bytes each) for the n bytes it accesses: the steps, smallest first,
 * each past the extent of those before, and whole granules. */
static inline int cl2c_ck_box_own(const long long *s, const long long *c, int k, size_t n,
                                  size_t g) {
    long long extent = (long long)n;
    int used[4] = {0, 0, 0, 0};
    for (int r = 0; r < k; ++r) {
        int best = -1;
        for (int a = 0; a < k; ++a)
            if (!used[a] && (best < 0 || llabs(s[a]) < llabs(s[best]))) best = a;
        used[best] = 1;
        if (c[best] <= 1) continue;
        if (llabs(s[best]) < extent || (s[best] & (long long)(g - 1))) return 0;
        extent += llabs(s[best]) * (c[best] - 1);
    }
    return 1;
}
/* Stores (CL2C_CK_ARG_STORE), one by each work-item of the box (whose axes are the
 * rows and the work-item loop: l2, l1, l0, or l0 alone): in range, in granules of
 * their own, and racing with nothing the shadow words say so far (what
 * cl2c_ck_granule asks of a store: each granule stale, or last accessed by this group
 * in an earlier barrier phase or by the same work-item). cl2c_ck_mark then records
 * each row's stores after its loop, as their checks would have: later accesses find
 * them as checked ones. llid: the origin's local linear id. A range with no shadow has
 * no race checks. The rule in full, where the common case (below) does not hold: */
__attribute__((noinline, unused)) static int
cl2c_ck_box_fresh_rule(const cl2c_ck_thread *t, cl2c_ck_argr A, size_t o, const long long *s,
                       const long long *c, size_t n, int local, size_t llid) {
    const uint64_t me0 = local ? t->local_me0 : t->me0;
    int bad = 0;
    for (long long i2 = 0; i2 < c[0]; ++i2)
        for (long long i1 = 0; i1 < c[1]; ++i1)
            for (long long i0 = 0; i0 < c[2]; ++i0) {
                const size_t id = llid + (size_t)i0 + t->ls0 * ((size_t)i1 + t->ls1 * (size_t)i2);
                const uint64_t me = me0 | (uint64_t)(id & 0xfff) << 24;
                const size_t at = o + (size_t)(i2 * s[0] + i1 * s[1] + i0 * s[2]);
                const uint64_t *w = A.shadow + (at >> A.shift);
                for (size_t k = 0; k < n >> A.shift; ++k) {
                    const uint64_t old = __atomic_load_n(&w[k], __ATOMIC_RELAXED);
                    /* (a __global word never written: as stale, for a store) */
                    const int stale = local ? CL2C_CK_GROUP(old) != CL2C_CK_GROUP(me)
                                            : CL2C_CK_SERIAL(old) != CL2C_CK_SERIAL(me) ||
                                                  !(old & CL2C_CK_INIT);
                    const int quiet = CL2C_CK_GROUP(old) == CL2C_CK_GROUP(me) &&
                                      (CL2C_CK_PHASE(old) != CL2C_CK_PHASE(me) ||
                                       CL2C_CK_LID(old) == CL2C_CK_LID(me));
                    bad |= !stale && !quiet;
                }
            }
    return !bad;
}
static inline int cl2c_ck_box_fresh(cl2c_ck_thread *t, cl2c_ck_argr A,
                                    const char *const *at, int axes, const long long *count,
                                    size_t n, int local, size_t llid) {
    if (!cl2c_ck_box_spans(A, at, axes, count, n) || (axes != 1 && axes != 3)) return 0;
    if (A.shadow == NULL) return A.r == NULL || !A.r->readonly; /* (its writes: a finding) */
    /* steps and counts as (l2, l1, l0) */
    long long s[3], c[3];                /* steps and counts, outermost first */
    cl2c_ck_box_axes(at, axes, count, s, c);
    const size_t o = (uintptr_t)at[0] - (uintptr_t)A.lo, g = (size_t)1 << A.shift;
    if (t->fibers || (o & (g - 1)) || (n & (g - 1))) return 0;
    if (!cl2c_ck_box_own(s, c, 3, n, g)) return 0;
    if (local) {
        size_t lo, hi;
        cl2c_ck_box_bounds(A, at, axes, &lo, &hi);
        if (cl2c_ck_lsum_untouched(t, cl2c_ck_lword(t, A, lo), cl2c_ck_lword(t, A, hi + n - 1)))
            return 1;
        cl2c_ck_lreads_flush(t);            /* the words are read: as checks left them */
    }
    /* the common case, in few operations: no granule touched in this phase by the
     * group, nor in this launch by another (for __local memory: its word is another
     * group's or of an earlier phase; for __global, another launch's, or this group's
     * of an earlier phase) */
    const uint64_t me0 = local ? t->local_me0 : t->me0;
    const uint64_t group = 0xffffffull, phase = 0xfffull << 36, serial = 0x1fffull << 48;
    int touched = 0;
    /* one load a word, and no branch: the runs vectorise. __global words other threads
     * may store meanwhile are read by plain loads, as cl2c_ck_mark stores them: an
     * aligned 8-byte element of a vector load is read whole on x86-64 and AArch64, the
     * old word or the new one, and the loop only ORs what it reads (the Jacobi tile's
     * output spent 18% of its checked time in the atomic loads' scalar loop). */
#define CL2C_CK_TOUCHED(old)                                                                 \
    (local ? (((old) ^ me0) & (group | phase)) == 0                                          \
           : (int)((old) >> 63) & ((((old) ^ me0) & serial) == 0) &                         \
                 (((((old) ^ me0) & group) != 0) | ((((old) ^ me0) & phase) == 0)))
    const size_t per = n >> A.shift;        /* granules a work-item stores */
    for (long long i2 = 0; i2 < c[0]; ++i2)
        for (long long i1 = 0; i1 < c[1]; ++i1) {
            const uint64_t *row = A.shadow + ((o + (size_t)(i2 * s[0] + i1 * s[1])) >> A.shift);
            if (c[2] <= 1 || s[2] == (long long)n) {   /* the row's granules in a run */
                const size_t words = per * (size_t)c[2];
                /* the next group's along the row, most often the next box: its words
                 * are far from the rows of this one, which the CPU's prefetchers do not
                 * follow in runs this short */
                if (!local && words <= 64)
                    for (size_t k = 0; k < words; k += 8) __builtin_prefetch(row + words + k);
                for (size_t k = 0; k < words; ++k) {
                    const uint64_t old = row[k];
                    touched |= CL2C_CK_TOUCHED(old);
                }
                continue;
            }
            for (long long i0 = 0; i0 < c[2]; ++i0) {
                const uint64_t *w = row + (i0 * s[2] >> (int)A.shift);
                for (size_t k = 0; k < per; ++k) {
                    const uint64_t old = w[k];
                    touched |= CL2C_CK_TOUCHED(old);
                }
            }
        }
#undef CL2C_CK_TOUCHED
    return !touched || cl2c_ck_box_fresh_rule(t, A, o, s, c, n, local, llid);
}
/* Whether the box's __local words from lo to hi (offsets) were all written by this
 * group in an earlier barrier phase (or read since): reads of them race with nothing
 * and find them initialised. */
static inline int cl2c_ck_box_earlier(cl2c_ck_thread *t, cl2c_ck_argr A, size_t lo,
                                      size_t hi) {
    if (cl2c_ck_lsum_earlier(t, cl2c_ck_lword(t, A, lo), cl2c_ck_lword(t, A, hi))) return 1;
    cl2c_ck_lreads_flush(t);
    const uint64_t mask = 0xffffffull | 0xfffull << 36, me = t->local_me0 & mask;
    const uint64_t *w = A.shadow;           /* __local: this thread's words (plain) */
    int bad = 0;
    for (size_t i = lo >> A.shift; i <= hi >> A.shift; ++i) {
        const uint64_t old = w[i];
        bad |= (CL2C_CK_GROUP(old) != CL2C_CK_GROUP(me)) | !(old & CL2C_CK_INIT) |
               ((old & (0xfffull << 36)) == (me & (0xfffull << 36)));
    }
    return !bad;
}
/* Reads of __local memory the loop also writes (CL2C_CK_ARG): in range, of words an
 * earlier phase of the group wrote (cl2c_ck_box_apart keeps the loop's own writes
 * away); cl2c_ck_mark_read records them after each row, as their checks would. */
static inline int cl2c_ck_box_reread(cl2c_ck_thread *t, cl2c_ck_argr A, const char *const *at,
                                     int axes, const long long *count, size_t n) {
    if (!cl2c_ck_box_spans(A, at, axes, count, n)) return 0;
    if (A.shadow == NULL) return 1;
    if (t->fibers) return 0;
    size_t lo, hi;
    cl2c_ck_box_bounds(A, at, axes, &lo, &hi);
    return cl2c_ck_box_earlier(t, A, lo, hi + n - 1);
}
/* Updates (``*CL2C_CK_ARG(...) op= v;``, a read and a write) of __local memory, one by
 * each work-item of the box: in range, in granules of their own, of words an earlier
 * phase of the group wrote, or (a box of rows and the work-item loop, as
 * cl2c_ck_box_fresh's) words the same work-item wrote, as `acc[lid] += x` in a loop
 * with no barrier; cl2c_ck_mark records them after each row. llid: the origin's local
 * linear id. */
static inline int cl2c_ck_box_update(cl2c_ck_thread *t, cl2c_ck_argr A, const char *const *at,
                                     int axes, const long long *count, size_t n, size_t llid) {
    if (!cl2c_ck_box_spans(A, at, axes, count, n)) return 0;
    if (A.shadow == NULL) return 1;
    if (t->fibers) return 0;
    /* each work-item's own granules: as cl2c_ck_box_fresh asks of stores */
    long long s[4], c[4];
    const size_t g = (size_t)1 << A.shift;
    if ((((uintptr_t)at[0] - (uintptr_t)A.lo) & (g - 1)) || (n & (g - 1))) return 0;
    for (int a = 0; a < axes; ++a) {
        s[a] = count[a] > 1 ? (long long)((uintptr_t)at[1 + a] - (uintptr_t)at[0]) : 0;
        c[a] = count[a];
    }
    if (!cl2c_ck_box_own(s, c, axes, n, g)) return 0;
    size_t lo, hi;
    cl2c_ck_box_bounds(A, at, axes, &lo, &hi);
    if (cl2c_ck_box_earlier(t, A, lo, hi + n - 1)) return 1;
    if (axes != 1 && axes != 3) return 0;
    /* word by word (cl2c_ck_box_earlier wrote the pending read marks): written, and of an
     * earlier phase of the group or last the same work-item's */
    const long long s2 = axes == 3 ? s[0] : 0, s1 = axes == 3 ? s[1] : 0, s0 = s[axes - 1];
    const long long c2 = axes == 3 ? c[0] : 1, c1 = axes == 3 ? c[1] : 1, c0 = c[axes - 1];
    const size_t o = (uintptr_t)at[0] - (uintptr_t)A.lo, per = n >> A.shift;
    const uint64_t me0 = t->local_me0;
    /* (a lid of all ones reads as several readers': not taken for its own) */
#define CL2C_CK_UPDATABLE(old, id)                                                         \
    ((((old) & CL2C_CK_INIT) != 0) &                                                       \
     ((((((old) ^ me0) & group) == 0) & ((((old) ^ me0) & phase) != 0)) |                  \
      ((((old) & CL2C_CK_WHO) == (me0 | (uint64_t)((id) & 0xfff) << 24)) &                 \
       (((id) & 0xfff) != 0xfff))))
    const uint64_t group = 0xffffffull, phase = 0xfffull << 36;
    int bad = 0;
    for (long long i2 = 0; i2 < c2; ++i2)
        for (long long i1 = 0; i1 < c1; ++i1) {
            const size_t id0 = llid + t->ls0 * ((size_t)i1 + t->ls1 * (size_t)i2);
            const uint64_t *row = A.shadow + ((o + (size_t)(i2 * s2 + i1 * s1)) >> A.shift);
            if (per == 1 && s0 == (long long)n) {   /* a word each, in a run: vectorises */
                for (long long i0 = 0; i0 < c0; ++i0)
                    bad |= !CL2C_CK_UPDATABLE(row[i0], id0 + (size_t)i0);
                continue;
            }
            for (long long i0 = 0; i0 < c0; ++i0) {
                const uint64_t *w = row + (i0 * s0 >> (int)A.shift);
                for (size_t k = 0; k < per; ++k)
                    bad |= !CL2C_CK_UPDATABLE(w[k], id0 + (size_t)i0);
            }
        }
#undef CL2C_CK_UPDATABLE
    return !bad;
}
/* What a loop's writes (a) and another access of the same memory (b) reach do not
 * overlap: no work-item reads or writes what another writes in the loop. Their spans
 * apart, or (a tile's column and its halo's, tile[ly][1] and tile[ly][0]) the same
 * steps along one axis, with the one's elements between the other's. */
static inline int cl2c_ck_box_apart(cl2c_ck_argr A, const char *const *a, const char *const *b,
                                    int axes, size_t na, size_t nb) {
    size_t alo, ahi, blo, bhi;
    cl2c_ck_box_bounds(A, a, axes, &alo, &ahi);
    cl2c_ck_box_bounds(A, b, axes, &blo, &bhi);
    if (ahi + na <= blo || bhi + nb <= alo) return 1;
    long long step = 0;
    for (int x = 0; x < axes; ++x) {
        const long long sa = (long long)((uintptr_t)a[1 + x] - (uintptr_t)a[0]),
                        sb = (long long)((uintptr_t)b[1 + x] - (uintptr_t)b[0]);
        if (sa != sb || (sa != 0 && step != 0)) return 0;
        if (sa != 0) step = sa < 0 ? -sa : sa;
    }
    if (step == 0) return 0;
    /* a's elements at d + k * step from b's (k any integer), d = a0 - b0: apart where
     * the nearest of them, r and r - step, leave room for both */
    const long long d = (long long)((uintptr_t)a[0] - (uintptr_t)b[0]);
    const long long r = ((d % step) + step) % step;
    return r >= (long long)nb && step - r >= (long long)na;
}
/* After a row's fast loop: the reads (cl2c_ck_box_reread) recorded, as their checks
 * would: a word a work-item wrote is next read by the row's work-items in turn. */
static inline void cl2c_ck_mark_read(cl2c_ck_thread *t, cl2c_ck_argr A, const char *a,
                                     const char *b, long long m, size_t n, int local,
                                     size_t llid) {
    (void)local;
    if (A.shadow == NULL || m < 0 || n == 0) return;
    const size_t oa = (uintptr_t)a - (uintptr_t)A.lo;
    const long long step = (long long)((uintptr_t)b - (uintptr_t)a);
    cl2c_ck_lsum_marked(t, A, oa, step, m, n, 0);
    /* written when something in this phase looks at the words, if anything does: a tree
     * reduction's halving steps read words no one touches again before the barrier. The
     * same row's reads of the next element (step 0) join the pending ones */
    if (step == 0 && t->lreads.n == n && t->lreads.step == 0 && t->lreads.w == A.shadow &&
        t->lreads.m == m && t->lreads.llid == llid &&
        oa == t->lreads.oa + t->lreads.run * n) {
        ++t->lreads.run;
        return;
    }
    cl2c_ck_lreads_flush(t);
    t->lreads.w = A.shadow;
    t->lreads.shift = A.shift;
    t->lreads.oa = oa;
    t->lreads.step = step;
    t->lreads.m = m;
    t->lreads.llid = llid;
    t->lreads.run = 1;
    t->lreads.n = n;
}
/* After a row's fast loop: the shadow words of its stores (cl2c_ck_box_fresh), each
 * work-item's as its checked store would have left them (a: the first's address, b:
 * the second's, m + 1 work-items; llid: the first's local linear id). */
/* The shadow words of m + 1 work-items' stores of n bytes, the first at offset oa, the
 * next step bytes on (llid: the first's local linear id), by plain stores: this
 * thread's __local words, or a run of words one a work-item (which vectorise: __global
 * words other threads may read meanwhile, with relaxed atomic loads, are aligned 8-byte
 * elements of a vector store, each written whole on x86-64 and AArch64, so a reader
 * sees the old word or the new one, as with atomic stores). me0: the word but its id. */
static inline void cl2c_ck_mark_plain(cl2c_ck_argr A, size_t oa, long long step, long long m,
                                      size_t n, uint64_t me0, size_t llid) {
    if (n == (size_t)1 << A.shift && step == (long long)n) {
        uint64_t *run = A.shadow + (oa >> A.shift);
        for (long long j = 0; j <= m; ++j)
            run[j] = me0 | (uint64_t)((llid + (size_t)j) & 0xfff) << 24;
        return;
    }
    for (long long j = 0; j <= m; ++j) {
        const uint64_t word = me0 | (uint64_t)((llid + (size_t)j) & 0xfff) << 24;
        uint64_t *w = A.shadow + ((oa + (size_t)(j * step)) >> A.shift);
        for (size_t k = 0; k < n >> A.shift; ++k) w[k] = word;
    }
}
static inline void cl2c_ck_mark(cl2c_ck_thread *t, cl2c_ck_argr A, const char *a,
                                const char *b, long long m, size_t n, int local, size_t llid) {
    if (A.shadow == NULL) return;
    const size_t oa = (uintptr_t)a - (uintptr_t)A.lo;
    const long long step = (long long)((uintptr_t)b - (uintptr_t)a);
    const uint64_t me0 = (local ? t->local_me0 : t->me0) | CL2C_CK_W | CL2C_CK_INIT;
    const size_t g = (size_t)1 << A.shift;
    if (local) {
        cl2c_ck_lreads_flush(t);
        /* every word of the span written where the work-items' whole granules follow
         * each other */
        cl2c_ck_lsum_marked(t, A, oa, step, m, n,
                            step == (long long)n && !(oa & (g - 1)) && !(n & (g - 1)));
    }
    if (local || (n == g && step == (long long)n)) {
        cl2c_ck_mark_plain(A, oa, step, m, n, me0, llid);
        return;
    }
    for (long long j = 0; j <= m; ++j) {
        const uint64_t word = me0 | (uint64_t)((llid + (size_t)j) & 0xfff) << 24;
        uint64_t *w = A.shadow + ((oa + (size_t)(j * step)) >> A.shift);
        for (size_t k = 0; k < n >> A.shift; ++k) __atomic_store_n(&w[k], word, __ATOMIC_RELAXED);
    }
}
/* After a nest's fast loops: the shadow words of a store's box (its test's points at,
 * counts, llid its origin's local linear id; the axes: l2, l1, l0, or l1, l0), each
 * work-item's as cl2c_ck_mark leaves a row's: one run of words where the box's stores
 * follow each other (a tile of __local memory, filled), else row by row. */
static inline void cl2c_ck_mark_box(cl2c_ck_thread *t, cl2c_ck_argr A, const char *const *at,
                                    int axes, const long long *count, size_t n, int local,
                                    size_t llid) {
    if (A.shadow == NULL || cl2c_ck_box_empty(axes, count)) return;
    long long s[3], c[3];                /* steps and counts, outermost first */
    cl2c_ck_box_axes(at, axes, count, s, c);
    if ((c[2] <= 1 || s[2] == (long long)n) && (c[1] <= 1 || s[1] == c[2] * (long long)n) &&
        (c[0] <= 1 || s[0] == c[1] * c[2] * (long long)n) && c[2] == (long long)t->ls0 &&
        (c[1] == (long long)t->ls1 || c[0] <= 1)) {
        /* the box's stores in a run, the work-items' linear ids too */
        cl2c_ck_mark(t, A, at[0], at[0] + n, c[0] * c[1] * c[2] - 1, n, local, llid);
        return;
    }
    const size_t g = (size_t)1 << A.shift;
    if (local && !(n & (g - 1)) && !(((uintptr_t)at[0] - (uintptr_t)A.lo) & (g - 1)) &&
        !(s[2] & (long long)(g - 1))) {
        /* this thread's words, row by row, with one summary of the box (the rows'
         * runs are the first row's and the span: a summary says less than it might,
         * never more), not one a row (a tile's rows spent 4% of its checked time so) */
        cl2c_ck_lreads_flush(t);
        const size_t o = (uintptr_t)at[0] - (uintptr_t)A.lo;
        size_t lo, hi;
        cl2c_ck_box_bounds(A, at, axes, &lo, &hi);
        cl2c_ck_lsum_marked(t, A, o, s[2], c[2] - 1, n, s[2] == (long long)n);
        cl2c_ck_lsum_mark(t, cl2c_ck_lword(t, A, lo), cl2c_ck_lword(t, A, hi + n - 1), 0);
        const uint64_t me0 = t->local_me0 | CL2C_CK_W | CL2C_CK_INIT;
        for (long long i2 = 0; i2 < c[0]; ++i2)
            for (long long i1 = 0; i1 < c[1]; ++i1)
                cl2c_ck_mark_plain(A, o + (size_t)(i2 * s[0] + i1 * s[1]), s[2], c[2] - 1, n,
                                   me0, llid + t->ls0 * ((size_t)i1 + t->ls1 * (size_t)i2));
        return;
    }
    for (long long i2 = 0; i2 < c[0]; ++i2)
        for (long long i1 = 0; i1 < c[1]; ++i1) {
            const char *a = at[0] + i2 * s[0] + i1 * s[1];
            cl2c_ck_mark(t, A, a, a + s[2], c[2] - 1, n, local,
                         llid + t->ls0 * ((size_t)i1 + t->ls1 * (size_t)i2));
        }
}
/* Reads of a __local variable in a barrier phase that writes none of it
 * (CL2C_CK_LREAD): in range, and every granule from the lowest address to the highest
 * written by a work-item of this group (more than the reads may touch: a gap the group
 * did not write sends the loop to its checks). */
static inline int cl2c_ck_inited_in(const cl2c_ck_thread *t, cl2c_ck_argr A, size_t lo,
                                    size_t hi) {
    const uint64_t group = CL2C_CK_GROUP(t->local_me0);
    const uint64_t *w = A.shadow;           /* __local: this thread's words (plain) */
    uint64_t other = 0, all = CL2C_CK_INIT;  /* another group's; all written (vectorises) */
    for (size_t i = lo >> A.shift; i <= hi >> A.shift; ++i) {
        other |= CL2C_CK_GROUP(w[i] ^ group);
        all &= w[i];
    }
    return other == 0 && (all & CL2C_CK_INIT);
}
/* Whether this group wrote all of A: asked once a phase (its reads' phase writes none of
 * A, so the answer stays) and remembered. A yes stays for the rest of the group: no
 * access of the group takes a word's group or its written mark away (the tiled matmul's
 * __local tiles, asked again at every tile, spent 15% of the checked kernel's time).
 * Where the answer is no, the same look also leaves which granules the group wrote, a
 * bit each (mapped): a tile whose halo's corners nothing writes is read in boxes
 * that each cover a corner's span, and the bits answer each row of such a box in a few
 * operations (word by word, the Jacobi tile's reads spent 17% of its checked time). */
__attribute__((noinline, unused)) static int cl2c_ck_inited_slot(cl2c_ck_thread *t,
                                                                cl2c_ck_argr A) {
    unsigned i = 0;
    while (i < 4 && !(t->inited[i].lo == A.lo && t->inited[i].gen == t->gen)) ++i;
    if (i < 4 && (t->inited[i].whole || t->inited[i].phase == t->phase)) return (int)i;
    if (i == 4) {           /* A's slot of an earlier group, else the next one */
        i = 0;
        while (i < 4 && t->inited[i].lo != A.lo) ++i;
        if (i == 4) {
            i = t->inited_next++ % 4;
            t->inited[i].mapped = 0;
        }
    }
    const size_t words = ((A.size - 1) >> A.shift) + 1;
    /* the boxes found written stay where the bits are the same as before */
    int same = t->inited[i].lo == A.lo && t->inited[i].mapped &&
               t->inited[i].words == words && t->inited[i].shift == A.shift;
    t->inited[i].lo = A.lo;
    t->inited[i].gen = t->gen;
    t->inited[i].phase = t->phase;
    t->inited[i].words = words;
    t->inited[i].shift = A.shift;
    t->inited[i].mapped = words <= CL2C_CK_INITED_BITS;
    if (!t->inited[i].mapped) {
        t->inited[i].whole = cl2c_ck_inited_in(t, A, 0, A.size - 1);
        return (int)i;
    }
    uint64_t bits[CL2C_CK_INITED_BITS / 64];
    const int all = cl2c_ck_written_bits(A.shadow, words, CL2C_CK_GROUP(t->local_me0), bits);
    for (size_t b = 0; b < (words + 63) / 64; ++b) {
        same &= t->inited[i].bits[b] == bits[b];
        t->inited[i].bits[b] = bits[b];
    }
    if (!same)
        t->inited[i].boxes = 0;
    t->inited[i].whole = all;
    return (int)i;
}
/* Whether every bit from lo to hi (granules) is set. */
static inline int cl2c_ck_bits_all(const uint64_t *bits, size_t lo, size_t hi) {
    const size_t a = lo >> 6, b = hi >> 6;
    const uint64_t first = ~0ull << (lo & 63), last = ~0ull >> (63 - (hi & 63));
    if (a == b) return (bits[a] & first & last) == (first & last);
    if ((bits[a] & first) != first || (bits[b] & last) != last) return 0;
    for (size_t i = a + 1; i < b; ++i)
        if (bits[i] != ~0ull) return 0;
    return 1;
}
/* Each granule the box's reads touch written by a work-item of this group, as the
 * bitmap of the slot says: a run of bits a row where the row's reads follow each other.
 * The box: its origin's offset o in A, steps s and counts c (cl2c_ck_box_axes). */
static inline int cl2c_ck_box_inited_bits(const struct cl2c_ck_inited_ *slot, cl2c_ck_argr A,
                                          size_t o, const long long *s, const long long *c,
                                          size_t n) {
    const uint64_t *bits = slot->bits;
    for (long long i2 = 0; i2 < c[0]; ++i2)
        for (long long i1 = 0; i1 < c[1]; ++i1) {
            const size_t row = o + (size_t)(i2 * s[0] + i1 * s[1]);
            if (s[2] == (long long)n || c[2] <= 1) {
                if (!cl2c_ck_bits_all(bits, row >> A.shift,
                                      (row + (size_t)c[2] * n - 1) >> A.shift))
                    return 0;
                continue;
            }
            for (long long i0 = 0; i0 < c[2]; ++i0) {
                const size_t off = row + (size_t)(i0 * s[2]);
                if (!cl2c_ck_bits_all(bits, off >> A.shift, (off + n - 1) >> A.shift))
                    return 0;
            }
        }
    return 1;
}
/* cl2c_ck_box_inited_bits, remembered for the slot's bits: the Jacobi tile's four
 * reads of its 16 rows asked again by every group, with the same bits (its halo's
 * corners unwritten), spent 15% of its checked time there. */
static inline int cl2c_ck_box_inited_known(struct cl2c_ck_inited_ *slot, cl2c_ck_argr A,
                                           const char *const *at, int axes,
                                           const long long *count, size_t n) {
    if (axes > 3) return 0;
    long long s[3], c[3];                /* steps and counts, outermost first */
    cl2c_ck_box_axes(at, axes, count, s, c);
    const size_t o = (uintptr_t)at[0] - (uintptr_t)A.lo;
    for (unsigned k = 0; k < slot->boxes; ++k) {
        const struct cl2c_ck_box_ *b = &slot->box[k];
        if (b->o == o && b->n == n && b->s[0] == s[0] && b->s[1] == s[1] &&
            b->s[2] == s[2] && b->c[0] == c[0] && b->c[1] == c[1] && b->c[2] == c[2])
            return 1;
    }
    if (!cl2c_ck_box_inited_bits(slot, A, o, s, c, n)) return 0;
    const unsigned k = slot->boxes;
    if (k < sizeof slot->box / sizeof slot->box[0]) {
        struct cl2c_ck_box_ *b = &slot->box[k];
        b->o = o, b->n = n;
        for (int a = 0; a < 3; ++a)
            b->s[a] = s[a], b->c[a] = c[a];
        slot->boxes = k + 1;
    }
    return 1;
}
/* Each granule the box's reads touch written by a work-item of this group, read one
 * access at a time: where the span from the box's lowest address to its highest holds
 * granules that nothing writes (the corners of a tile's halo, between the rows that a
 * stencil reads). The box lies in A (cl2c_ck_box_spans). */
static inline int cl2c_ck_box_inited_each(const cl2c_ck_thread *t, cl2c_ck_argr A,
                                          const char *const *at, int axes,
                                          const long long *count, size_t n) {
    if (axes > 3) return 0;
    long long s[3], c[3];                /* steps and counts, outermost first */
    cl2c_ck_box_axes(at, axes, count, s, c);
    const uint64_t group = CL2C_CK_GROUP(t->local_me0);
    const size_t o = (uintptr_t)at[0] - (uintptr_t)A.lo, g = (size_t)1 << A.shift;
    const uint64_t *w = A.shadow;           /* __local: this thread's words (plain) */
    int bad = 0;
    for (long long i2 = 0; i2 < c[0]; ++i2)
        for (long long i1 = 0; i1 < c[1]; ++i1) {
            const size_t row = o + (size_t)(i2 * s[0] + i1 * s[1]);
            if (s[2] == (long long)n && !(row & (g - 1)) && !(n & (g - 1))) {
                /* the row's granules in a run (a loop that vectorises) */
                const uint64_t *r = w + (row >> A.shift);
                const size_t words = (size_t)c[2] * (n >> A.shift);
                uint64_t other = 0, all = CL2C_CK_INIT;  /* another group's; all written */
                for (size_t k = 0; k < words; ++k) {
                    other |= CL2C_CK_GROUP(r[k] ^ group);
                    all &= r[k];
                }
                bad |= other != 0 || !(all & CL2C_CK_INIT);
                continue;
            }
            for (long long i0 = 0; i0 < c[2]; ++i0) {
                const size_t off = row + (size_t)(i0 * s[2]);
                for (size_t i = off >> A.shift; i <= (off + n - 1) >> A.shift; ++i)
                    bad |= (CL2C_CK_GROUP(w[i]) != group) | !(w[i] & CL2C_CK_INIT);
            }
        }
    return !bad;
}
/* A group like the model of a kernel whose __local reads vary (alike 4): the words of
 * A that the model had written where this phase began (cl2c_ck_record_words), else
 * NULL. */
static inline struct cl2c_ck_inited_ *cl2c_ck_recorded(cl2c_ck_thread *t, cl2c_ck_argr A) {
    if (t->lphase >= CL2C_CK_RECORDED_PHASES) return NULL;
    for (int i = 0; i < t->nlocals && i < 4; ++i)
        if (t->record[t->lphase][i].lo == A.lo) return &t->record[t->lphase][i];
    return NULL;
}
static inline int cl2c_ck_box_inited(cl2c_ck_thread *t, cl2c_ck_argr A, const char *const *at,
                                     int axes, const long long *count, size_t n) {
    if (!cl2c_ck_box_spans(A, at, axes, count, n)) return 0;
    if (A.shadow == NULL && !(t->same_now && (t->alike & 4))) return 1;
    if (t->fibers) return 0;
    struct cl2c_ck_inited_ *slot = A.shadow != NULL ? &t->inited[cl2c_ck_inited_slot(t, A)]
                                                    : cl2c_ck_recorded(t, A);
    if (slot == NULL) return 0;
    if (slot->whole) return 1;
    if (slot->mapped) return cl2c_ck_box_inited_known(slot, A, at, axes, count, n);
    size_t lo, hi;
    cl2c_ck_box_bounds(A, at, axes, &lo, &hi);
    /* the span's words where they are fewer than the accesses' (a dense box, reads of
     * one word by many), else the accesses' */
    unsigned long long words = ((hi + n - 1) >> A.shift) - (lo >> A.shift) + 1, each = 1;
    for (int a = 0; a < axes; ++a) each *= (unsigned long long)count[a];
    if (axes > 3 || each * ((n + ((size_t)1 << A.shift) - 1) >> A.shift) >= words)
        return cl2c_ck_inited_in(t, A, lo, hi + n - 1) ||
               cl2c_ck_box_inited_each(t, A, at, axes, count, n);
    return cl2c_ck_box_inited_each(t, A, at, axes, count, n);
}

#endif
