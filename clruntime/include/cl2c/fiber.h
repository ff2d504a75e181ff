/* Work-items of one OpenCL work-group as fibers, so that barrier() can suspend them.
 *
 * Design
 * ------
 * cl2c_fiber_run_group() runs fn(ctx, l0, l1, l2) for every local id of a group (l0 fastest)
 * on the calling thread, each work-item on its own stack. The fibers form a ring in local-id
 * order; cl2c_fiber_barrier() saves the running work-item and switches DIRECTLY to the next
 * one in the ring (no scheduler in between). Because a turn around the ring advances every
 * work-item exactly one barrier phase, a work-item is resumed only after all the others have
 * reached the same barrier: the barrier needs no counter at all (one load, one store and one
 * context switch per work-item per barrier). A work-item that returns is unlinked from the
 * ring, so finished work-items no longer take part; the last one to finish switches back to
 * the thread's own context, and run_group returns.
 *
 * Context switch: fiber_switch.h (hand-written for x86-64 and AArch64; getcontext/
 * makecontext/swapcontext elsewhere, or everywhere with -DCL2C_FIBER_UCONTEXT).
 * Measured on the 2-core Zen 3 (gcc 12 -O2, best of 200 runs, tests/c/fiber/): a barrier with
 * 2 work-items, i.e. one switch, 2.8 ns; with 256 work-items 4-5 ns per work-item per barrier
 * (the next-but-one stack is prefetched, as 256 stacks do not fit in L1); starting and
 * finishing a work-item about 20 ns. ucontext: 260-300 ns per switch.
 * Saving the FPU control words too (-DCL2C_FIBER_SAVE_FPU_CONTROL) makes a switch 6.5 ns.
 * In a shared object (cl2c's -fPIC build) each barrier also reads the thread state through
 * one __tls_get_addr call, about +1.5 ns; on x86-64 -mtls-dialect=gnu2 takes that away.
 *
 * With check != 0 each barrier phase also records the first work-item to reach a barrier
 * (and its line) and the first to finish; a second line, or a finish and a barrier in the
 * same phase, is barrier divergence: the message is kept (cl2c_fiber_last_error) and the
 * thread switches straight back to run_group, which returns CL2C_BARRIER_DIVERGENCE.
 * The suspended work-items of that group are dropped (their stacks are simply reused).
 *
 * Memory: all state is per thread (_Thread_local): each OpenMP thread runs one group at a
 * time. Stacks are pooled per thread: one mmap holds every stack of the pool, each with a
 * PROT_NONE guard (CL2C_FIBER_GUARD_SIZE, 64 KiB of address space, no memory) below it; the
 * pool is made at the thread's first group, reused by later groups and launches, and remade
 * larger when a bigger group or stack size comes. It is freed when the thread exits (a
 * pthread key destructor), the main thread's at exit or dlclose. Stack tops are staggered
 * by 64 bytes per work-item so that 256 stacks do not all map to the same L1 sets.
 *
 * Stack size: the stack_size argument, or if it is 0 CL2C_FIBER_STACK_SIZE from the
 * environment (bytes, or a number with K, M or G), or 64 KiB. A CL2C_FIBER_STACK_SIZE larger
 * than a non-zero argument also wins, so that the overflow message's advice always works.
 *
 * Overflow: a SIGSEGV handler is installed once (per translation unit, see below) on an
 * alternate signal stack, which each thread gets with its pool unless it already has one. A
 * fault inside a fiber guard prints "cl2c: fiber stack overflow in kernel 'K' (work-item
 * stack of N bytes; raise it with CL2C_FIBER_STACK_SIZE)" with write(2) and aborts; any
 * other fault goes to the handler installed before (or to the default action: a core dump).
 * The handler reads no thread-local storage: pools are listed in a lock-free static table.
 * A single stack frame bigger than the guard can jump over it: build kernels with
 * -fstack-clash-protection to make every large frame probe its pages in order.
 *
 * Header-only: every definition is static, so the header can be included in several
 * translation units and the generated C of several .cl files linked into one program. Each
 * translation unit then has its own thread state, pools and handler (the handlers chain).
 * (The Python loader's libraries compile the out-of-line part once, into an object each
 * library links with hidden symbols: linkage.h. Each library still has its own.)
 * Only one run_group may be active per thread per translation unit at a time (a nested call
 * returns CL2C_INVALID_OPERATION).
 *
 * Rules for code running in a fiber: no OpenMP construct (parallel, critical, locks...) may
 * span a barrier, because the thread's OpenMP state is not switched with the fiber;
 * `#pragma omp simd` is fine. The functions here are not async-signal-safe; never call them
 * from a signal handler. A signal that arrives while a fiber runs is handled on that fiber's
 * stack (unless SA_ONSTACK), so the stack must have room for it. Sanitizers (ASan, TSan) and
 * CET shadow stacks do not know about the switch.
 *
 * Feature macros: this header needs POSIX and BSD declarations (mmap with MAP_ANONYMOUS,
 * sigaction, sigaltstack). If no system header has been included yet it asks for them itself
 * (_DEFAULT_SOURCE); otherwise compile with -D_DEFAULT_SOURCE or -D_GNU_SOURCE, or include
 * this header first.
 */
#ifndef CL2C_FIBER_H
#define CL2C_FIBER_H

#if !defined(_FEATURES_H) && !defined(_GNU_SOURCE) && !defined(_DEFAULT_SOURCE) && \
    !defined(_POSIX_C_SOURCE) && !defined(_XOPEN_SOURCE) && !defined(_BSD_SOURCE)
#define _DEFAULT_SOURCE 1
#endif

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fiber_switch.h"

#if !defined(MAP_ANONYMOUS) || !defined(SA_ONSTACK) || !defined(SS_DISABLE)
#error "cl2c/fiber.h needs POSIX/BSD declarations: compile with -D_DEFAULT_SOURCE (or -D_GNU_SOURCE), or include <cl2c/fiber.h> before any other header"
#endif

/* ------------------------------------------------------------------ public interface -- */

/* Error codes (errors.h): OpenCL's where one fits (CL2C_OUT_OF_RESOURCES: stacks;
 * CL2C_INVALID_VALUE: a null fn; CL2C_INVALID_WORK_GROUP_SIZE; CL2C_INVALID_OPERATION:
 * nested), and cl2c's own CL2C_BARRIER_DIVERGENCE: work-items disagree on barriers. */
#include "errors.h"
#include "linkage.h"

#ifndef CL2C_FIBER_DEFAULT_STACK_SIZE
#define CL2C_FIBER_DEFAULT_STACK_SIZE ((size_t)64 << 10)
#endif
#ifndef CL2C_FIBER_MIN_STACK_SIZE
#define CL2C_FIBER_MIN_STACK_SIZE ((size_t)16 << 10)
#endif
#ifndef CL2C_FIBER_GUARD_SIZE
#define CL2C_FIBER_GUARD_SIZE ((size_t)64 << 10)
#endif
/* Pools (threads) per translation unit whose guards the SIGSEGV handler knows. A pool
 * beyond this still works; its overflow is then an ordinary segmentation fault. */
#ifndef CL2C_FIBER_MAX_POOLS
#define CL2C_FIBER_MAX_POOLS 256
#endif
#ifndef CL2C_FIBER_ALTSTACK_SIZE
#define CL2C_FIBER_ALTSTACK_SIZE ((size_t)64 << 10)
#endif

/* Sanitizers (-cl2c-sanitize): each switch tells them which stack runs next. */
#if defined(__SANITIZE_ADDRESS__)
#define CL2C_FB_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CL2C_FB_ASAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define CL2C_FB_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CL2C_FB_TSAN 1
#endif
#endif
#ifdef CL2C_FB_ASAN
#include <sanitizer/common_interface_defs.h>
#endif
#ifdef CL2C_FB_TSAN
#include <sanitizer/tsan_interface.h>
#endif

/* The body of one work-item. */
typedef void (*cl2c_fiber_fn)(void *ctx, size_t l0, size_t l1, size_t l2);

/* Runs fn(ctx, l0, l1, l2) for every local id of an ls0 x ls1 x ls2 group, each work-item a
 * fiber, on the calling thread; returns 0 or one of the negative codes above.
 * stack_size: bytes per work-item, 0 for the default. check: detect barrier divergence. */
CL2C_RT int cl2c_fiber_run_group(const char *kernel_name, cl2c_fiber_fn fn, void *ctx,
                                 size_t ls0, size_t ls1, size_t ls2, size_t stack_size,
                                 int check);
/* Called by a work-item, at any call depth: waits until every unfinished work-item of the
 * group has reached a barrier. barrier_line names the barrier in divergence messages. */
static inline void cl2c_fiber_barrier(int barrier_line);
/* The message of the last failure of run_group on this thread ("" if none; a success does
 * not clear it). Read it on the thread that got the error code. */
static inline const char *cl2c_fiber_last_error(void);

/* ------------------------------------------------------------------ implementation -- */

/* Stack tops are staggered by 64 bytes * (index % 64): this much extra per stack. */
#define CL2C_FB_COLOR_SPAN ((size_t)64 * 64)

struct cl2c_fb_fiber {
    cl2c_fb_ctx ctx; /* first: the hot fields share a line */
    struct cl2c_fb_fiber *next, *prev;
    size_t id[3];
#ifdef CL2C_FB_ASAN
    const void *stack_lo;
    size_t stack_size;
#endif
#ifdef CL2C_FB_TSAN
    void *tsan;
#endif
};

struct cl2c_fb_thread {
    /* the running group */
    struct cl2c_fb_fiber *cur; /* running work-item; NULL outside run_group */
    int check;
    int status;
    cl2c_fiber_fn fn;
    void *arg;
    const char *kernel;
    size_t live;
    /* checking mode: the current barrier phase */
    size_t ph_size, ph_arrived;
    size_t phase; /* barrier phases passed (cl2c/check.h) */
    struct cl2c_fb_fiber *ph_waiter, *ph_finished;
    int ph_line;
    /* the pool */
    struct cl2c_fb_fiber *fibers;
    size_t capacity;     /* fibers and stacks */
    unsigned char *map;  /* capacity * stride bytes */
    size_t map_size, stride, guard, stack;
    int slot;            /* index + 1 in cl2c_fb_ranges, 0 = none */
    int thread_ready;    /* key destructor, alternate stack and slot are set up */
    void *altstack;
    size_t altstack_size;
    cl2c_fb_ctx main;    /* the thread's own context while a group runs */
#ifdef CL2C_FB_ASAN
    const void *main_lo; /* the thread's own stack, as the first fiber learns it */
    size_t main_size;
#endif
#ifdef CL2C_FB_TSAN
    void *tsan_main;
#endif
    char error[400];
};

/* The thread's state, which the barrier below, spaces.h and check.h read inline. */
CL2C_RT_SHARED_THREAD struct cl2c_fb_thread cl2c_fb_tls;

/* What the inline code below calls out of line (linkage.h). */
__attribute__((noinline)) CL2C_RT void
cl2c_fb_check_barrier(struct cl2c_fb_thread *t, struct cl2c_fb_fiber *f, int line);
__attribute__((noreturn, noinline, cold)) CL2C_RT void cl2c_fb_no_group(void);

static inline const char *cl2c_fiber_last_error(void) { return cl2c_fb_tls.error; }

/* After the fault guard jumped out of a fiber of this thread: the group is abandoned (its
 * stacks are reused by the next). */
static inline void cl2c_fiber_abandon(void) { cl2c_fb_tls.cur = NULL; }

/* Switch from context `from` to fiber `to` (NULL: the thread's own context); `exiting`:
 * the fiber switched from never runs again. Without sanitizers, cl2c_fb_switch. */
static inline __attribute__((always_inline)) void cl2c_fb_go(struct cl2c_fb_thread *t,
                                                             cl2c_fb_ctx *from,
                                                             struct cl2c_fb_fiber *to,
                                                             int exiting) {
#ifdef CL2C_FB_ASAN
    void *fake = NULL;
    __sanitizer_start_switch_fiber(exiting ? NULL : &fake, to ? to->stack_lo : t->main_lo,
                                   to ? to->stack_size : t->main_size);
#endif
#ifdef CL2C_FB_TSAN
    __tsan_switch_to_fiber(to ? to->tsan : t->tsan_main, 0);
#endif
    (void)exiting;
    cl2c_fb_switch(from, to ? &to->ctx : &t->main);
#ifdef CL2C_FB_ASAN
    __sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
}

static inline void cl2c_fiber_barrier(int barrier_line) {
    struct cl2c_fb_thread *t = &cl2c_fb_tls;
    /* In a shared object &cl2c_fb_tls is a __tls_get_addr call, which gcc would rather make
     * twice than keep the address across a call: hide where the value came from. */
    __asm__("" : "+r"(t));
    struct cl2c_fb_fiber *f = t->cur;
    if (__builtin_expect(f == NULL, 0)) cl2c_fb_no_group();
    if (__builtin_expect(t->check, 0)) cl2c_fb_check_barrier(t, f, barrier_line);
    struct cl2c_fb_fiber *n = f->next;
    if (n == f) return; /* the only work-item left */
    t->cur = n;
#ifdef CL2C_FB_CTX_STACK
    /* 256 stacks do not stay in L1: start loading the saved registers of the work-item
     * after next (it halves the cost of a barrier with 256 work-items). */
    __builtin_prefetch(CL2C_FB_CTX_STACK(&n->next->next->ctx));
#endif
    cl2c_fb_go(t, &f->ctx, n, 0);
}

#if CL2C_RT_BODIES      /* out of line: linkage.h */
CL2C_RT _Thread_local struct cl2c_fb_thread cl2c_fb_tls;

/* Guard areas of every pool of this translation unit, for the SIGSEGV handler: lo == 0 is
 * an empty entry. Written by the owning thread only, read by the handler with atomics. */
struct cl2c_fb_range {
    atomic_int taken;
    _Atomic uintptr_t lo, hi;
    _Atomic size_t stride, guard, stack;
    _Atomic(const char *) kernel;
};
CL2C_RT struct cl2c_fb_range cl2c_fb_ranges[CL2C_FIBER_MAX_POOLS];

CL2C_RT pthread_once_t cl2c_fb_once = PTHREAD_ONCE_INIT;
CL2C_RT pthread_key_t cl2c_fb_key;
CL2C_RT int cl2c_fb_key_ok;
CL2C_RT struct sigaction cl2c_fb_old_segv;
CL2C_RT atomic_int cl2c_fb_handler_on;
CL2C_RT _Atomic size_t cl2c_fb_env_cache; /* 0 unread, 1 unset or invalid, else bytes */

/* ---- errors */

__attribute__((format(printf, 2, 3))) CL2C_RT void cl2c_fb_set_error(struct cl2c_fb_thread *t, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->error, sizeof t->error, fmt, ap);
    va_end(ap);
}

/* ---- the SIGSEGV handler (async-signal-safe: atomics, write, sigaction, abort) */

CL2C_RT void cl2c_fb_put(char **p, char *end, const char *s) {
    while (*s && *p < end) *(*p)++ = *s++;
}

CL2C_RT void cl2c_fb_put_size(char **p, char *end, size_t v) {
    char digits[24];
    int n = 0;
    do digits[n++] = (char)('0' + v % 10); while ((v /= 10) && n < 24);
    while (n > 0 && *p < end) *(*p)++ = digits[--n];
}

/* A launch's fault guard (faults.h), when one is armed on this thread: it takes the fault
 * (and does not return); 0 where none is. Set by faults.h, which sees this header. */
CL2C_RT int (*cl2c_fb_guard_hook)(int sig, siginfo_t *si, void *uc);

/* The pool of fiber stacks whose guard pages hold address ``a`` (a stack overflow), or
 * NULL. Async-signal-safe. */
CL2C_RT struct cl2c_fb_range *cl2c_fb_guard_range(uintptr_t a) {
    for (int i = 0; i < CL2C_FIBER_MAX_POOLS; ++i) {
        struct cl2c_fb_range *r = &cl2c_fb_ranges[i];
        uintptr_t lo = atomic_load_explicit(&r->lo, memory_order_acquire);
        if (!lo || a < lo || a >= atomic_load_explicit(&r->hi, memory_order_relaxed)) continue;
        size_t stride = atomic_load_explicit(&r->stride, memory_order_relaxed);
        size_t guard = atomic_load_explicit(&r->guard, memory_order_relaxed);
        if (stride && (a - lo) % stride < guard)
            return r;
    }
    return NULL;
}

/* What the fault guard (faults.h) adds to the message of a fault in a fiber: the
 * work-item, and whether its stack overflowed. Async-signal-safe (reads this thread's
 * state, as the guard's handler does). */
CL2C_RT void cl2c_fb_fault_note(uintptr_t a, char *buf, size_t cap) {
    char *p = buf, *end = buf + cap - 1;
    const struct cl2c_fb_fiber *f = cl2c_fb_tls.cur;
    if (f != NULL) {
        cl2c_fb_put(&p, end, ", work-item with local id (");
        for (int d = 0; d < 3; ++d) {
            cl2c_fb_put_size(&p, end, f->id[d]);
            cl2c_fb_put(&p, end, d < 2 ? "," : ")");
        }
    }
    struct cl2c_fb_range *r = f != NULL ? cl2c_fb_guard_range(a) : NULL;
    if (r != NULL) {
        cl2c_fb_put(&p, end, ": its fiber stack overflowed (");
        cl2c_fb_put_size(&p, end, atomic_load_explicit(&r->stack, memory_order_relaxed));
        cl2c_fb_put(&p, end, " bytes; raise it with CL2C_FIBER_STACK_SIZE)");
    }
    *p = 0;
}

CL2C_RT void cl2c_fb_segv(int sig, siginfo_t *si, void *uc) {
    if (cl2c_fb_guard_hook != NULL && cl2c_fb_guard_hook(sig, si, uc))
        return;
    uintptr_t a = (uintptr_t)si->si_addr;
    struct cl2c_fb_range *r = cl2c_fb_guard_range(a);
    if (r != NULL) {
        const char *k = atomic_load_explicit(&r->kernel, memory_order_relaxed);
        char msg[512], *p = msg, *end = msg + sizeof msg;
        cl2c_fb_put(&p, end, "cl2c: fiber stack overflow in kernel '");
        cl2c_fb_put(&p, end, k ? k : "?");
        cl2c_fb_put(&p, end, "' (work-item stack of ");
        cl2c_fb_put_size(&p, end, atomic_load_explicit(&r->stack, memory_order_relaxed));
        cl2c_fb_put(&p, end, " bytes; raise it with CL2C_FIBER_STACK_SIZE)\n");
        ssize_t written = write(2, msg, (size_t)(p - msg));
        (void)written;
        abort();
    }
    /* Not ours: whatever was there before. */
    struct sigaction *o = &cl2c_fb_old_segv;
    if ((o->sa_flags & SA_SIGINFO) && o->sa_sigaction) {
        o->sa_sigaction(sig, si, uc);
        return;
    }
    if (!(o->sa_flags & SA_SIGINFO) && o->sa_handler != SIG_DFL && o->sa_handler != SIG_IGN) {
        o->sa_handler(sig);
        return;
    }
    /* The default action: reinstall it and let the faulting instruction run again (a real
     * fault then dumps core as usual); a signal that was sent is raised again. */
    struct sigaction d;
    memset(&d, 0, sizeof d);
    d.sa_handler = SIG_DFL;
    sigemptyset(&d.sa_mask);
    sigaction(sig, &d, NULL);
    if (si->si_code <= 0) raise(sig);
}

CL2C_RT void cl2c_fb_pool_free(struct cl2c_fb_thread *t);

CL2C_RT void cl2c_fb_thread_exit(void *p) {
    struct cl2c_fb_thread *t = (struct cl2c_fb_thread *)p;
    cl2c_fb_pool_free(t);
    if (t->slot) {
        atomic_store_explicit(&cl2c_fb_ranges[t->slot - 1].taken, 0, memory_order_release);
        t->slot = 0;
    }
    if (t->altstack) {
        stack_t cur;
        if (sigaltstack(NULL, &cur) == 0 && cur.ss_sp == t->altstack) {
            if (cur.ss_flags & SS_ONSTACK) return; /* exiting from a handler: keep it */
            stack_t off;
            memset(&off, 0, sizeof off);
            off.ss_flags = SS_DISABLE;
            sigaltstack(&off, NULL);
        }
        munmap(t->altstack, t->altstack_size);
        t->altstack = NULL;
    }
    t->thread_ready = 0;
}

CL2C_RT void cl2c_fb_once_init(void) {
    cl2c_fb_key_ok = pthread_key_create(&cl2c_fb_key, cl2c_fb_thread_exit) == 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = cl2c_fb_segv;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSEGV, &sa, &cl2c_fb_old_segv) == 0)
        atomic_store_explicit(&cl2c_fb_handler_on, 1, memory_order_release);
}

/* When the program (or a dlopen'ed module holding this code) is unloaded: take the handler
 * out if it is still the one installed, stop the key destructor from calling into unloaded
 * code, free this thread's pool. Pools of other live threads are then left mapped. */
__attribute__((destructor)) CL2C_RT void cl2c_fb_unload(void) {
    if (atomic_load_explicit(&cl2c_fb_handler_on, memory_order_acquire)) {
        struct sigaction cur;
        if (sigaction(SIGSEGV, NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) &&
            cur.sa_sigaction == cl2c_fb_segv)
            sigaction(SIGSEGV, &cl2c_fb_old_segv, NULL);
    }
    if (cl2c_fb_key_ok) {
        pthread_key_delete(cl2c_fb_key);
        cl2c_fb_key_ok = 0;
        if (cl2c_fb_tls.thread_ready && !cl2c_fb_tls.cur) cl2c_fb_thread_exit(&cl2c_fb_tls);
    }
}

/* Per thread, once: key destructor, alternate signal stack, guard table slot. */
CL2C_RT void cl2c_fb_thread_setup(struct cl2c_fb_thread *t) {
    if (cl2c_fb_key_ok) pthread_setspecific(cl2c_fb_key, t);
    stack_t cur;
    if (sigaltstack(NULL, &cur) == 0 && (cur.ss_flags & SS_DISABLE)) {
        size_t size = CL2C_FIBER_ALTSTACK_SIZE;
        if (size < (size_t)MINSIGSTKSZ * 4) size = (size_t)MINSIGSTKSZ * 4;
        void *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m != MAP_FAILED) {
            stack_t ss;
            memset(&ss, 0, sizeof ss);
            ss.ss_sp = m;
            ss.ss_size = size;
            if (sigaltstack(&ss, NULL) == 0) {
                t->altstack = m;
                t->altstack_size = size;
            } else {
                munmap(m, size);
            }
        }
    } /* else: keep the alternate stack the thread already has */
    for (int i = 0; i < CL2C_FIBER_MAX_POOLS && !t->slot; ++i) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&cl2c_fb_ranges[i].taken, &expected, 1))
            t->slot = i + 1;
    }
    t->thread_ready = 1;
}

/* ---- the pool */

CL2C_RT void cl2c_fb_pool_free(struct cl2c_fb_thread *t) {
    if (t->slot) atomic_store_explicit(&cl2c_fb_ranges[t->slot - 1].lo, 0, memory_order_release);
    if (t->map) munmap(t->map, t->map_size);
    free(t->fibers);
    t->map = NULL;
    t->fibers = NULL;
    t->map_size = t->stride = t->stack = t->capacity = 0;
}

/* Make sure the pool has n stacks of at least `stack` usable bytes. */
CL2C_RT int cl2c_fb_pool_reserve(struct cl2c_fb_thread *t, size_t n, size_t stack,
                                const char *kernel) {
    if (n <= t->capacity && stack <= t->stack) return 0;
    if (n < t->capacity) n = t->capacity;
    if (stack < t->stack) stack = t->stack;
    long pg = sysconf(_SC_PAGESIZE);
    size_t page = pg > 0 ? (size_t)pg : 4096;
    size_t guard = (CL2C_FIBER_GUARD_SIZE + page - 1) / page * page;
    size_t usable = (stack + CL2C_FB_COLOR_SPAN + page - 1) / page * page;
    size_t stride = guard + usable;
    if (usable < stack || n > SIZE_MAX / stride || n > SIZE_MAX / sizeof(struct cl2c_fb_fiber)) {
        cl2c_fb_set_error(t, "kernel '%s': %zu work-item stacks of %zu bytes do not fit in the "
                          "address space", kernel, n, stack);
        return CL2C_OUT_OF_RESOURCES;
    }
    cl2c_fb_pool_free(t);
    size_t size = n * stride;
    int flags = MAP_PRIVATE | MAP_ANONYMOUS;
#ifdef MAP_NORESERVE
    flags |= MAP_NORESERVE;
#endif
#ifdef MAP_STACK
    flags |= MAP_STACK;
#endif
    void *m = mmap(NULL, size, PROT_NONE, flags, -1, 0);
    struct cl2c_fb_fiber *fibers =
        (struct cl2c_fb_fiber *)calloc(n, sizeof(struct cl2c_fb_fiber));
    if (m == MAP_FAILED || !fibers) {
        int e = errno;
        if (m != MAP_FAILED) munmap(m, size);
        free(fibers);
        cl2c_fb_set_error(t, "kernel '%s': cannot allocate %zu work-item stacks of %zu bytes "
                          "(%zu bytes of address space, errno %d)", kernel, n, stack, size, e);
        return CL2C_OUT_OF_RESOURCES;
    }
    unsigned char *base = (unsigned char *)m;
    for (size_t i = 0; i < n; ++i) {
        if (mprotect(base + i * stride + guard, usable, PROT_READ | PROT_WRITE) != 0) {
            int e = errno;
            munmap(m, size);
            free(fibers);
            cl2c_fb_set_error(t, "kernel '%s': cannot map work-item stack %zu of %zu (errno %d%s)",
                              kernel, i, n, e,
                              e == ENOMEM ? "; each stack and its guard are two memory "
                                            "mappings: see vm.max_map_count" : "");
            return CL2C_OUT_OF_RESOURCES;
        }
    }
    for (size_t i = 0; i < n; ++i) {
        if (cl2c_fb_prepare(&fibers[i].ctx) != 0) {
            munmap(m, size);
            free(fibers);
            cl2c_fb_set_error(t, "kernel '%s': cannot make a fiber context", kernel);
            return CL2C_OUT_OF_RESOURCES;
        }
    }
    t->map = base;
    t->map_size = size;
    t->fibers = fibers;
    t->capacity = n;
    t->stride = stride;
    t->guard = guard;
    t->stack = stack;
    if (t->slot) {
        struct cl2c_fb_range *r = &cl2c_fb_ranges[t->slot - 1];
        atomic_store_explicit(&r->stride, stride, memory_order_relaxed);
        atomic_store_explicit(&r->guard, guard, memory_order_relaxed);
        atomic_store_explicit(&r->stack, stack, memory_order_relaxed);
        atomic_store_explicit(&r->hi, (uintptr_t)base + size, memory_order_relaxed);
        atomic_store_explicit(&r->lo, (uintptr_t)base, memory_order_release);
    }
    return 0;
}

/* ---- stack size */

CL2C_RT size_t cl2c_fb_env_stack_size(void) {
    size_t v = atomic_load_explicit(&cl2c_fb_env_cache, memory_order_relaxed);
    if (v) return v == 1 ? 0 : v;
    const char *s = getenv("CL2C_FIBER_STACK_SIZE");
    v = 1;
    if (s && *s) {
        size_t x = 0;
        const char *p = s;
        int ok = *p >= '0' && *p <= '9';
        while (ok && *p >= '0' && *p <= '9') {
            if (x > (SIZE_MAX - 9) / 10) ok = 0;
            x = x * 10 + (size_t)(*p++ - '0');
        }
        unsigned shift = 0;
        if (*p == 'k' || *p == 'K') shift = 10;
        else if (*p == 'm' || *p == 'M') shift = 20;
        else if (*p == 'g' || *p == 'G') shift = 30;
        if (shift) ++p;
        if (shift && (*p == 'b' || *p == 'B')) ++p;
        if (*p || (shift && x > (SIZE_MAX >> shift))) ok = 0;
        if (ok && x) v = x << shift;
        if (v == 1) {
            char msg[160];
            int len = snprintf(msg, sizeof msg, "cl2c: ignoring CL2C_FIBER_STACK_SIZE='%.40s' "
                               "(expected bytes, or a number with K, M or G)\n", s);
            if (len > 0) fputs(msg, stderr);
        }
    }
    atomic_store_explicit(&cl2c_fb_env_cache, v, memory_order_relaxed);
    return v == 1 ? 0 : v;
}

CL2C_RT size_t cl2c_fb_stack_size(size_t requested) {
    size_t env = cl2c_fb_env_stack_size();
    size_t s = requested ? requested : env ? env : CL2C_FIBER_DEFAULT_STACK_SIZE;
    if (env > s) s = env;
    if (s < CL2C_FIBER_MIN_STACK_SIZE) s = CL2C_FIBER_MIN_STACK_SIZE;
    if (s > SIZE_MAX / 2) s = SIZE_MAX / 2;
    return (s + 15) & ~(size_t)15;
}

/* ---- running a group */

__attribute__((noreturn, noinline)) CL2C_RT void cl2c_fb_diverged(struct cl2c_fb_thread *t) {
    t->status = CL2C_BARRIER_DIVERGENCE;
    cl2c_fb_go(t, &t->cur->ctx, NULL, 1);
    abort(); /* a dropped work-item is never resumed */
}

CL2C_RT void cl2c_fb_new_phase(struct cl2c_fb_thread *t) {
    t->phase++;
    t->ph_arrived = 0;
    t->ph_size = t->live;
    t->ph_waiter = t->ph_finished = NULL;
}

__attribute__((noinline)) CL2C_RT void cl2c_fb_check_barrier(struct cl2c_fb_thread *t,
                                                            struct cl2c_fb_fiber *f, int line) {
    if (t->ph_finished) {
        const size_t *a = t->ph_finished->id, *b = f->id;
        cl2c_fb_set_error(t, "kernel '%s': barrier divergence: work-item (%zu,%zu,%zu) finished "
                          "while work-item (%zu,%zu,%zu) waits at the barrier at line %d",
                          t->kernel, a[0], a[1], a[2], b[0], b[1], b[2], line);
        cl2c_fb_diverged(t);
    }
    if (!t->ph_waiter) {
        t->ph_waiter = f;
        t->ph_line = line;
    } else if (line != t->ph_line) {
        const size_t *a = f->id, *b = t->ph_waiter->id;
        cl2c_fb_set_error(t, "kernel '%s': barrier divergence: work-item (%zu,%zu,%zu) reached "
                          "the barrier at line %d while work-item (%zu,%zu,%zu) reached the "
                          "barrier at line %d", t->kernel, a[0], a[1], a[2], line, b[0], b[1],
                          b[2], t->ph_line);
        cl2c_fb_diverged(t);
    }
    if (++t->ph_arrived == t->ph_size) cl2c_fb_new_phase(t);
}

CL2C_RT void cl2c_fb_check_finish(struct cl2c_fb_thread *t, struct cl2c_fb_fiber *f) {
    if (t->ph_waiter) {
        const size_t *a = f->id, *b = t->ph_waiter->id;
        cl2c_fb_set_error(t, "kernel '%s': barrier divergence: work-item (%zu,%zu,%zu) finished "
                          "while work-item (%zu,%zu,%zu) waits at the barrier at line %d",
                          t->kernel, a[0], a[1], a[2], b[0], b[1], b[2], t->ph_line);
        cl2c_fb_diverged(t);
    }
    if (!t->ph_finished) t->ph_finished = f;
    if (++t->ph_arrived == t->ph_size) cl2c_fb_new_phase(t);
}

/* Every fiber starts here (through the first switch into it) and never returns. */
CL2C_RT void cl2c_fb_entry(void) {
    struct cl2c_fb_thread *t = &cl2c_fb_tls;
    struct cl2c_fb_fiber *f = t->cur;
#ifdef CL2C_FB_ASAN
    {
        const void *lo;
        size_t size;
        __sanitizer_finish_switch_fiber(NULL, &lo, &size);
        if (t->main_lo == NULL) { /* the first fiber: run_group switched from its stack */
            t->main_lo = lo;
            t->main_size = size;
        }
    }
#endif
    t->fn(t->arg, f->id[0], f->id[1], f->id[2]);
    t->live--;
    if (t->check) cl2c_fb_check_finish(t, f);
    struct cl2c_fb_fiber *n = f->next;
    if (n == f) {
        cl2c_fb_go(t, &f->ctx, NULL, 1); /* the last one: back to run_group */
    } else {
        f->prev->next = n;
        n->prev = f->prev;
        t->cur = n;
        cl2c_fb_go(t, &f->ctx, n, 1);
    }
    abort(); /* a finished work-item is never resumed */
}

__attribute__((noreturn, noinline, cold)) CL2C_RT void cl2c_fb_no_group(void) {
    static const char msg[] = "cl2c: barrier() called outside a work-group run by "
                              "cl2c_fiber_run_group\n";
    ssize_t r = write(2, msg, sizeof msg - 1);
    (void)r;
    abort();
}

CL2C_RT int cl2c_fiber_run_group(const char *kernel_name, cl2c_fiber_fn fn, void *ctx,
                                 size_t ls0, size_t ls1, size_t ls2, size_t stack_size,
                                 int check) {
    struct cl2c_fb_thread *t = &cl2c_fb_tls;
    const char *k = kernel_name ? kernel_name : "?";
    if (t->cur) {
        cl2c_fb_set_error(t, "kernel '%s': cl2c_fiber_run_group called from inside a work-item "
                          "of kernel '%s'", k, t->kernel);
        return CL2C_INVALID_OPERATION;
    }
    if (!fn) {
        cl2c_fb_set_error(t, "kernel '%s': no work-item function", k);
        return CL2C_INVALID_VALUE;
    }
    size_t n = ls0 * ls1;
    if (!ls0 || !ls1 || !ls2 || n / ls1 != ls0 || n > SIZE_MAX / ls2) {
        cl2c_fb_set_error(t, "kernel '%s': invalid work-group size (%zu,%zu,%zu)", k, ls0, ls1,
                          ls2);
        return CL2C_INVALID_WORK_GROUP_SIZE;
    }
    n *= ls2;
    size_t stack = cl2c_fb_stack_size(stack_size);
    if (!t->thread_ready) {
        pthread_once(&cl2c_fb_once, cl2c_fb_once_init);
        cl2c_fb_thread_setup(t);
    }
    int err = cl2c_fb_pool_reserve(t, n, stack, k);
    if (err) return err;
    if (t->slot)
        atomic_store_explicit(&cl2c_fb_ranges[t->slot - 1].kernel, k, memory_order_relaxed);

    t->fn = fn;
    t->arg = ctx;
    t->kernel = k;
    t->check = check != 0;
    t->status = CL2C_SUCCESS;
    t->live = n;
    cl2c_fb_new_phase(t);

    struct cl2c_fb_fiber *fb = t->fibers;
    unsigned char *top = t->map + t->stride; /* top of stack 0 */
    size_t l0 = 0, l1 = 0, l2 = 0;
    for (size_t i = 0; i < n; ++i, top += t->stride) {
        struct cl2c_fb_fiber *f = &fb[i];
        f->id[0] = l0;
        f->id[1] = l1;
        f->id[2] = l2;
        f->next = &fb[i + 1 == n ? 0 : i + 1];
        f->prev = &fb[i == 0 ? n - 1 : i - 1];
        cl2c_fb_init(&f->ctx, top - t->stride + t->guard, top - (i & 63) * 64, cl2c_fb_entry);
#ifdef CL2C_FB_ASAN
        f->stack_lo = top - t->stride + t->guard;
        f->stack_size = t->stride - t->guard;
#endif
#ifdef CL2C_FB_TSAN
        f->tsan = __tsan_create_fiber(0);
#endif
        if (++l0 == ls0) {
            l0 = 0;
            if (++l1 == ls1) {
                l1 = 0;
                ++l2;
            }
        }
    }
    t->cur = &fb[0];
#ifdef CL2C_FB_ASAN
    t->main_lo = NULL;
#endif
#ifdef CL2C_FB_TSAN
    t->tsan_main = __tsan_get_current_fiber();
#endif
    cl2c_fb_go(t, &t->main, &fb[0], 0);
    t->cur = NULL;
#ifdef CL2C_FB_TSAN
    for (size_t i = 0; i < n; ++i) __tsan_destroy_fiber(fb[i].tsan);
#endif
    return t->status;
}

#endif  /* CL2C_RT_BODIES */

#endif
