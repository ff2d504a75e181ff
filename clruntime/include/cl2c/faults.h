/* Faults and interrupts during a launch: a kernel fault must not kill its host
 * silently, and Ctrl-C must stop an endless kernel.
 *
 * While launches run, SIGSEGV, SIGBUS and SIGFPE raised by kernel code end the launch
 * with CL2C_KERNEL_FAULT (host.h) instead of killing the process: each thread that runs
 * work-groups makes one setjmp before its first, which its handler (on an alternate
 * signal stack of that thread) jumps back to; the groups not yet run are skipped. SIGINT
 * is passed on to the handler it replaced (Python's, which then raises KeyboardInterrupt;
 * for a C host whose SIGINT was the default, it is raised again once the handlers are
 * back) and stops the launch with CL2C_INTERRUPTED: the groups not started are skipped,
 * and the threads running groups jump out (a group may never end). The handlers are
 * installed while at least one launch of this file runs, and the previous ones put back
 * after.
 *
 * In the fibers schedule the jump leaves the group's fibers (cl2c_fiber_abandon): the
 * message names the work-item too (its local id), and says so when its fiber's stack
 * overflowed; fiber.h's own SIGSEGV handler hands such faults to the guard.
 *
 * Not contained: a fault outside a work-group cl2c can stop (in the runtime's own code)
 * goes to the handler before (Python's faulthandler, say), or, where that is the
 * default, cl2c writes what happened to stderr and the process ends with the signal. The state is per translated file: two
 * files launching at once on two host threads may put each other's handlers back
 * early. A fault or an interrupt may leave buffers half-written (as on a device), and
 * an interrupt that lands in a kernel's printf may leave its stream locked.
 */
#ifndef CL2C_FAULTS_H
#define CL2C_FAULTS_H

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host.h"
#include "linkage.h"
#include "workgroup.h"

/* The jump back to a thread's groups: POSIX's, made once a thread and launch. It does not
 * restore the signal mask: the handler runs with SA_NODEFER. (Not GCC's __builtin_setjmp:
 * GCC 12 dropped the path back from it in the function that an OpenMP region becomes,
 * where nothing that GCC sees can jump.) */
typedef sigjmp_buf cl2c_jmp_buf;
#define cl2c_setjmp(jb) sigsetjmp(jb, 0)
#define cl2c_longjmp_(jb) siglongjmp(jb, 1)

typedef struct cl2c_guard {
    const char *kernel;
    int contain;                    /* faults too, not only SIGINT */
    volatile sig_atomic_t stop;     /* a group faulted: skip the rest */
    int signo;                      /* the first fault's signal, and its group */
    size_t group[3];
    char note[200];                 /* the fibers schedule's: work-item, stack overflow */
} cl2c_guard;

enum { CL2C_GUARD_SIGNALS_ = 4 };

/* The threads that have run groups (a slot each, the first 256), and whether they run
 * groups now: SIGINT is passed on to those, so that a group that never ends stops too.
 * A cache line each: when every group set and cleared its thread's `armed`, slots that
 * shared a line made each group wait for the line to come back from another core
 * (bench/group_cost.py: 131072 groups of 16 took 2.4 ms on 16 threads, then 0.58 ms). */
enum { CL2C_GUARD_SLOTS_ = 256 };
typedef struct cl2c_guard_slot_ {
    _Alignas(64) _Atomic(pthread_t) thread;
    atomic_int armed;
} cl2c_guard_slot_;

/* Per thread: where a fault of its groups goes, and which group runs. Volatile: only the
 * handler reads them, and a compiler that sees no read removes the stores. */
typedef struct cl2c_guard_thread {
    cl2c_jmp_buf *volatile jmp;
    volatile size_t group[3];
    int stack_ready;
    int slot;                                          /* index + 1; 0: none */
} cl2c_guard_thread;

/* What a launch's inline code (below, templates/groups.c.j2) reads of the guard's state,
 * and calls of its out-of-line code (linkage.h). */
CL2C_RT_SHARED volatile sig_atomic_t cl2c_guard_interrupted_;
CL2C_RT_SHARED cl2c_guard_slot_ cl2c_guard_slots_[CL2C_GUARD_SLOTS_];
__attribute__((noinline)) CL2C_RT cl2c_guard_thread *cl2c_guard_this_thread(void);
CL2C_RT void cl2c_guard_thread_setup_(void);
__attribute__((noinline)) CL2C_RT void
cl2c_guard_begin(cl2c_guard *g, const char *kernel, int contain);
__attribute__((cold, noinline)) CL2C_RT void
cl2c_guard_faulted(cl2c_guard *g, cl2c_guard_thread *self);
__attribute__((noinline)) CL2C_RT int cl2c_guard_end(cl2c_guard *g);

static inline int cl2c_guard_stopped(const cl2c_guard *g) {
    return g->stop || cl2c_guard_interrupted_;
}

/* Before a thread's first work-group: faults of this thread (`self`,
 * cl2c_guard_this_thread's) jump to `jb`. */
static inline void cl2c_guard_arm(cl2c_guard_thread *self, cl2c_jmp_buf *jb) {
    if (!self->stack_ready)
        cl2c_guard_thread_setup_();
    self->jmp = jb;
    if (self->slot)
        atomic_store_explicit(&cl2c_guard_slots_[self->slot - 1].armed, 1,
                              memory_order_relaxed);
}

/* At the start of each work-group: which one a fault is in. */
static inline void cl2c_guard_at(cl2c_guard_thread *self, size_t g0, size_t g1, size_t g2) {
    self->group[0] = g0;
    self->group[1] = g1;
    self->group[2] = g2;
}

static inline void cl2c_guard_disarm(cl2c_guard_thread *self) {
    self->jmp = NULL;
    if (self->slot)
        atomic_store_explicit(&cl2c_guard_slots_[self->slot - 1].armed, 0,
                              memory_order_relaxed);
}

#if CL2C_RT_BODIES      /* out of line: linkage.h */
CL2C_RT const int cl2c_guard_signals_[CL2C_GUARD_SIGNALS_] = {SIGSEGV, SIGBUS, SIGFPE, SIGINT};
CL2C_RT struct sigaction cl2c_guard_prev_[CL2C_GUARD_SIGNALS_];
CL2C_RT pthread_mutex_t cl2c_guard_lock_ = PTHREAD_MUTEX_INITIALIZER;
CL2C_RT int cl2c_guard_users_[2];   /* launches: all of them, those containing faults */
CL2C_RT volatile sig_atomic_t cl2c_guard_interrupted_;
CL2C_RT cl2c_guard_slot_ cl2c_guard_slots_[CL2C_GUARD_SLOTS_];
CL2C_RT atomic_int cl2c_guard_slots_taken_;
CL2C_RT _Thread_local cl2c_guard_thread cl2c_guard_tls_;
CL2C_RT _Thread_local volatile sig_atomic_t cl2c_guard_signo_;
CL2C_RT _Thread_local char cl2c_guard_note_[200];      /* cl2c_fb_fault_note's */

/* This thread's state, which templates/groups.c.j2 finds once per thread and launch,
 * before its group loop: the address of a _Thread_local in a shared object costs a call
 * of __tls_get_addr, and arming and disarming each group made two or three. Out of line:
 * inlined, the group loop paid for it again (bench/group_cost.py on a Zen 5 core: 10.5
 * against 8.6 ns a group). */
__attribute__((noinline)) CL2C_RT cl2c_guard_thread *cl2c_guard_this_thread(void) {
    return &cl2c_guard_tls_;
}

CL2C_RT void cl2c_guard_say_(const char *s) {
    ssize_t rc = write(2, s, strlen(s));
    (void)rc;
}

/* Hand a signal on to the handler that was there before. */
CL2C_RT void cl2c_guard_chain_(int i, int sig, siginfo_t *info, void *context) {
    const struct sigaction *prev = &cl2c_guard_prev_[i];
    if (prev->sa_flags & SA_SIGINFO) {
        prev->sa_sigaction(sig, info, context);
    } else if (prev->sa_handler != SIG_DFL && prev->sa_handler != SIG_IGN) {
        prev->sa_handler(sig);
    } else if (sig != SIGINT) {
        /* The default: die of the signal, which the faulting instruction raises again
         * once this handler returns. */
        cl2c_guard_say_("cl2c: a fault in a kernel launch, outside any work-group cl2c can "
                        "stop (the runtime's own code): the process ends\n");
        signal(sig, SIG_DFL);
    }
}

CL2C_RT void cl2c_guard_handler_(int sig, siginfo_t *info, void *context) {
    int i = 0;
    while (i < CL2C_GUARD_SIGNALS_ - 1 && cl2c_guard_signals_[i] != sig)
        ++i;
    cl2c_jmp_buf *jb = cl2c_guard_tls_.jmp;
    if (sig == SIGINT) {
        if (cl2c_guard_prev_[i].sa_handler == SIG_IGN)
            return;             /* ignored by the host (this was installed for a moment) */
        cl2c_guard_interrupted_ = 1;
        if (info == NULL || info->si_code != SI_TKILL) {     /* not one passed on below */
            cl2c_guard_chain_(i, sig, info, context);
            int taken = atomic_load(&cl2c_guard_slots_taken_);
            for (int s = 0; s < taken && s < CL2C_GUARD_SLOTS_; ++s)
                if (s + 1 != cl2c_guard_tls_.slot && atomic_load(&cl2c_guard_slots_[s].armed))
                    pthread_kill(atomic_load(&cl2c_guard_slots_[s].thread), SIGINT);
        }
        if (jb == NULL)
            return;             /* between groups: the loop sees the flag */
    } else if (jb == NULL || (info != NULL && info->si_code <= 0)) {   /* not the kernel's */
        cl2c_guard_chain_(i, sig, info, context);
        return;
    }
    /* out of the group: a fault of the kernel's, or SIGINT in a group that may never end */
    cl2c_guard_tls_.jmp = NULL;
    cl2c_guard_signo_ = sig;
    cl2c_fb_fault_note(info != NULL ? (uintptr_t)info->si_addr : 0, cl2c_guard_note_,
                       sizeof cl2c_guard_note_);
    cl2c_longjmp_(*jb);
}

/* fiber.h's SIGSEGV handler asks first: a fault while a group of this thread is armed
 * is the guard's (this does not return then). */
CL2C_RT int cl2c_guard_fiber_hook_(int sig, siginfo_t *info, void *context) {
    if (cl2c_guard_tls_.jmp == NULL || (info != NULL && info->si_code <= 0))
        return 0;
    /* fiber.h's handler runs with the signal blocked, and the jump does not restore the
     * mask: unblock it, or the thread's next fault kills the process */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    cl2c_guard_handler_(sig, info, context);
    return 1;
}

/* An alternate signal stack for this thread where it has none, so that a stack
 * overflow can be reported too (kept for the thread's life). */
CL2C_RT void cl2c_guard_thread_setup_(void) {
    cl2c_guard_tls_.stack_ready = 1;
    int s = atomic_fetch_add(&cl2c_guard_slots_taken_, 1);
    if (s < CL2C_GUARD_SLOTS_) {
        atomic_store(&cl2c_guard_slots_[s].thread, pthread_self());
        cl2c_guard_tls_.slot = s + 1;
    }
    stack_t old;
    if (sigaltstack(NULL, &old) == 0 && !(old.ss_flags & SS_DISABLE))
        return;
    stack_t ss;
    memset(&ss, 0, sizeof ss);
    ss.ss_size = 64 * 1024;
    ss.ss_sp = malloc(ss.ss_size);
    if (ss.ss_sp != NULL && sigaltstack(&ss, NULL) != 0)
        free(ss.ss_sp);
}

CL2C_RT void cl2c_guard_install_(int first, int last) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = cl2c_guard_handler_;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;   /* NODEFER: jumped out of */
    sigemptyset(&sa.sa_mask);
    /* one system call a signal: a launch's cost is mostly these (about 0.2 us each) */
    for (int i = first; i <= last; ++i) {
        sigaction(cl2c_guard_signals_[i], &sa, &cl2c_guard_prev_[i]);
        if (cl2c_guard_signals_[i] == SIGINT && cl2c_guard_prev_[i].sa_handler == SIG_IGN)
            sigaction(SIGINT, &cl2c_guard_prev_[i], NULL);  /* an ignored SIGINT stays so */
    }
}

CL2C_RT void cl2c_guard_restore_(int first, int last) {
    for (int i = first; i <= last; ++i)
        sigaction(cl2c_guard_signals_[i], &cl2c_guard_prev_[i], NULL);
}

/* Before a launch. `contain`: faults too, not only SIGINT. */
__attribute__((noinline)) CL2C_RT void
cl2c_guard_begin(cl2c_guard *g, const char *kernel, int contain) {
    g->kernel = kernel;
    g->contain = contain;
    g->stop = 0;
    g->signo = 0;
    g->note[0] = 0;
    cl2c_fb_guard_hook = cl2c_guard_fiber_hook_;
    pthread_mutex_lock(&cl2c_guard_lock_);
    if (cl2c_guard_users_[0]++ == 0) {
        cl2c_guard_interrupted_ = 0;
        cl2c_guard_install_(CL2C_GUARD_SIGNALS_ - 1, CL2C_GUARD_SIGNALS_ - 1);
    }
    if (contain && cl2c_guard_users_[1]++ == 0)
        cl2c_guard_install_(0, CL2C_GUARD_SIGNALS_ - 2);
    pthread_mutex_unlock(&cl2c_guard_lock_);
}

/* Back from a fault of this thread's group: the launch stops. */
__attribute__((cold, noinline)) CL2C_RT void
cl2c_guard_faulted(cl2c_guard *g, cl2c_guard_thread *self) {
    cl2c_guard_disarm(self);
    if (cl2c_guard_signo_ == SIGINT)
        return;                 /* interrupted, not faulted: cl2c_guard_interrupted_ */
#pragma omp critical(cl2c_guard)
    if (!g->stop) {
        g->signo = cl2c_guard_signo_;
        for (int d = 0; d < 3; ++d)
            g->group[d] = self->group[d];
        memcpy(g->note, cl2c_guard_note_, sizeof g->note);
        g->stop = 1;
    }
}

/* After the launch: the handlers back, and its status (the message of a fault is the
 * calling thread's last error, cl2c_fiber_last_error). */
__attribute__((noinline)) CL2C_RT int cl2c_guard_end(cl2c_guard *g) {
    int interrupted = cl2c_guard_interrupted_, reraise = 0;
    pthread_mutex_lock(&cl2c_guard_lock_);
    if (g->contain && --cl2c_guard_users_[1] == 0)
        cl2c_guard_restore_(0, CL2C_GUARD_SIGNALS_ - 2);
    if (--cl2c_guard_users_[0] == 0) {
        cl2c_guard_restore_(CL2C_GUARD_SIGNALS_ - 1, CL2C_GUARD_SIGNALS_ - 1);
        reraise = interrupted && cl2c_guard_prev_[CL2C_GUARD_SIGNALS_ - 1].sa_handler == SIG_DFL;
    }
    pthread_mutex_unlock(&cl2c_guard_lock_);
    if (g->signo != 0) {
        const char *what = g->signo == SIGFPE ? "SIGFPE, an arithmetic fault"
                         : g->signo == SIGBUS ? "SIGBUS, a bad memory access"
                         : strstr(g->note, "overflowed") ? "SIGSEGV"
                         : "SIGSEGV, a memory access outside any mapping (an index past a buffer?)";
        char message[400];
        snprintf(message, sizeof message, "kernel '%s': %s in work-group (%zu,%zu,%zu)%s; the "
                 "launch stopped, buffers may be partly written", g->kernel, what,
                 g->group[0], g->group[1], g->group[2], g->note);
        cl2c_fiber_report(message);
        return CL2C_KERNEL_FAULT;
    }
    if (interrupted) {
        if (reraise)
            raise(SIGINT);
        return CL2C_INTERRUPTED;
    }
    return CL2C_SUCCESS;
}

#endif  /* CL2C_RT_BODIES */

#endif
