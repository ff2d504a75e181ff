/* The context switch under cl2c/fiber.h: one fiber context type and three operations.
 *
 *   cl2c_fb_ctx                   a suspended fiber (or the thread's own context)
 *   cl2c_fb_switch(from, to)      save the running context into *from, resume *to
 *   cl2c_fb_prepare(c)            once per context object, before its first cl2c_fb_init
 *   cl2c_fb_init(c, lo, top, fn)  make *c start fn() on the stack [lo, top) when switched to;
 *                                 fn must never return (it ends by switching away)
 *   CL2C_FB_CTX_STACK(c)          (asm back ends only) where *c's saved registers lie
 *
 * Back ends (CL2C_FIBER_BACKEND names the one in use):
 *   x86-64 (System V)  a hand-written switch in a naked function: push the callee-saved
 *                      rbx rbp r12-r15, store rsp, load the other rsp, pop, ret. 14
 *                      instructions, no system call, no FPU state.
 *   AArch64 (AAPCS64)  gcc 12 has no naked functions on AArch64, so the switch is an extended
 *                      asm statement in a noinline function that names x19-x28, x30 and
 *                      d8-d15 as clobbered: the compiler's own prologue/epilogue saves and
 *                      restores exactly the callee-saved registers, and the asm only saves
 *                      sp, fp (x29) and a resume address into the context and jumps to the
 *                      other one's. It needs no symbol of its own, so it is LTO-safe.
 *   ucontext           getcontext/makecontext/swapcontext, for every other architecture, or
 *                      everywhere with -DCL2C_FIBER_UCONTEXT. About 30x slower: glibc's
 *                      swapcontext saves the FPU environment and makes an rt_sigprocmask
 *                      system call on every switch.
 *
 * Floating-point control state (x87 control word, MXCSR; FPCR on AArch64) is callee-saved
 * by both ABIs but is NOT switched by default: every fiber of a work-group and the thread
 * that runs the group execute the same translated kernel, which never changes rounding or
 * exception modes (OpenCL C has no fesetround), so the state is the same in every context
 * and switching it would only cost time (ldmxcsr and fldcw are serialising on many cores).
 * -DCL2C_FIBER_SAVE_FPU_CONTROL switches MXCSR and the x87 control word on x86-64 (kernels
 * that change them between barriers; ucontext always does).
 *
 * The switch functions are static, noinline and (gcc) noipa: noipa stops gcc's
 * interprocedural register allocation from assuming that a call to the switch leaves
 * caller-saved registers intact: it does not, it returns in another fiber. No symbol with
 * external linkage is defined, so the header can be included in any number of translation
 * units of one program. */
#ifndef CL2C_FIBER_SWITCH_H
#define CL2C_FIBER_SWITCH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__) && !defined(__clang__)
#define CL2C_FB_NOIPA __attribute__((noinline, noipa, unused))
#else
#define CL2C_FB_NOIPA __attribute__((noinline, unused))
#endif

typedef void (*cl2c_fb_entry_fn)(void);

#if !defined(CL2C_FIBER_UCONTEXT) && (defined(__GNUC__) || defined(__clang__)) && \
    defined(__x86_64__) && !defined(__ILP32__)
/* ------------------------------------------------------------------ x86-64 System V -- */
#define CL2C_FIBER_BACKEND "x86-64 asm"
typedef struct cl2c_fb_ctx { void *sp; } cl2c_fb_ctx;

#ifdef CL2C_FIBER_SAVE_FPU_CONTROL
#define CL2C_FB_X86_SAVE_FPU "subq $8, %rsp\n\tstmxcsr (%rsp)\n\tfnstcw 4(%rsp)\n\t"
#define CL2C_FB_X86_LOAD_FPU "ldmxcsr (%rsp)\n\tfldcw 4(%rsp)\n\taddq $8, %rsp\n\t"
#define CL2C_FB_X86_FPU_WORDS 1
#else
#define CL2C_FB_X86_SAVE_FPU ""
#define CL2C_FB_X86_LOAD_FPU ""
#define CL2C_FB_X86_FPU_WORDS 0
#endif

/* rdi = where to store this context's rsp, rsi = the rsp to resume. The frame left on a
 * suspended stack, from its saved rsp up: [mxcsr|fcw], r15, r14, r13, r12, rbx, rbp,
 * return address. */
__attribute__((naked)) CL2C_FB_NOIPA static void
cl2c_fb_switch_x86(void **save __attribute__((unused)), void *load __attribute__((unused))) {
    __asm__("pushq %rbp\n\t"
            "pushq %rbx\n\t"
            "pushq %r12\n\t"
            "pushq %r13\n\t"
            "pushq %r14\n\t"
            "pushq %r15\n\t"
            CL2C_FB_X86_SAVE_FPU
            "movq %rsp, (%rdi)\n\t"
            "movq %rsi, %rsp\n\t"
            CL2C_FB_X86_LOAD_FPU
            "popq %r15\n\t"
            "popq %r14\n\t"
            "popq %r13\n\t"
            "popq %r12\n\t"
            "popq %rbx\n\t"
            "popq %rbp\n\t"
            "ret\n\t");
}

static inline void cl2c_fb_switch(cl2c_fb_ctx *from, cl2c_fb_ctx *to) {
    cl2c_fb_switch_x86(&from->sp, to->sp);
}

/* Where a suspended context keeps its registers (for prefetching). */
#define CL2C_FB_CTX_STACK(c) ((c)->sp)

static inline int cl2c_fb_prepare(cl2c_fb_ctx *c) { c->sp = NULL; return 0; }

static inline void cl2c_fb_init(cl2c_fb_ctx *c, void *lo, void *top, cl2c_fb_entry_fn fn) {
    (void)lo;
    /* top rounded down to 16; a zero "return address" at top-8 ends backtraces, and the
     * entry function then starts with rsp = top-8, as right after a call. */
    uintptr_t t = (uintptr_t)top & ~(uintptr_t)15;
    uint64_t *sp = (uint64_t *)(t - 8) - 7 - CL2C_FB_X86_FPU_WORDS;
    uint64_t *w = sp;
#ifdef CL2C_FIBER_SAVE_FPU_CONTROL
    {
        uint32_t mxcsr;
        uint16_t fcw;
        __asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
        __asm__ volatile("fnstcw %0" : "=m"(fcw));
        *w++ = (uint64_t)mxcsr | ((uint64_t)fcw << 32);
    }
#endif
    for (int i = 0; i < 6; ++i) *w++ = 0; /* r15 r14 r13 r12 rbx rbp */
    memcpy(w++, &fn, sizeof fn);          /* where the first switch "returns" */
    *w = 0;                               /* the entry function's return address */
    c->sp = sp;
}

#elif !defined(CL2C_FIBER_UCONTEXT) && (defined(__GNUC__) || defined(__clang__)) && \
    defined(__aarch64__) && !defined(__ILP32__)
/* ------------------------------------------------------------------ AArch64 AAPCS64 -- */
#define CL2C_FIBER_BACKEND "aarch64 asm"
typedef struct cl2c_fb_ctx { void *sp, *pc, *fp; } cl2c_fb_ctx;

/* Saves sp, resume address and x29 into *from and jumps to *to's. The jump goes through
 * x16/x17 ("br x16" may land on a BTI "c" pad, as a new fiber's entry function has under
 * -mbranch-protection) and the resume point starts with "bti j" (hint #36, a no-op where
 * BTI is absent), so the switch works in BTI-enforced programs. x30 is cleared before
 * jumping so that a new fiber's backtrace ends at its entry function. */
CL2C_FB_NOIPA static void cl2c_fb_switch(cl2c_fb_ctx *from, cl2c_fb_ctx *to) {
    __asm__ volatile("adr x16, 1f\n\t"
                     "mov x17, sp\n\t"
                     "stp x17, x16, [%0]\n\t"
                     "str x29, [%0, #16]\n\t"
                     "ldp x17, x16, [%1]\n\t"
                     "ldr x29, [%1, #16]\n\t"
                     "mov sp, x17\n\t"
                     "mov x30, xzr\n\t"
                     "br x16\n"
                     "1:\n\t"
                     "hint #36\n\t"
                     :
                     : "r"(from), "r"(to)
                     : "memory", "cc", "x16", "x17", "x19", "x20", "x21", "x22", "x23",
                       "x24", "x25", "x26", "x27", "x28", "x30", "v8", "v9", "v10", "v11",
                       "v12", "v13", "v14", "v15");
}

#define CL2C_FB_CTX_STACK(c) ((c)->sp)

static inline int cl2c_fb_prepare(cl2c_fb_ctx *c) { c->sp = c->pc = c->fp = NULL; return 0; }

static inline void cl2c_fb_init(cl2c_fb_ctx *c, void *lo, void *top, cl2c_fb_entry_fn fn) {
    (void)lo;
    c->sp = (void *)((uintptr_t)top & ~(uintptr_t)15);
    memcpy(&c->pc, &fn, sizeof fn);
    c->fp = NULL; /* frame chain ends here */
}

#else
/* ------------------------------------------------------------------------ ucontext -- */
#define CL2C_FIBER_BACKEND "ucontext"
#define CL2C_FIBER_USES_UCONTEXT 1
#include <ucontext.h>
typedef struct cl2c_fb_ctx { ucontext_t uc; } cl2c_fb_ctx;

static inline void cl2c_fb_switch(cl2c_fb_ctx *from, cl2c_fb_ctx *to) {
    swapcontext(&from->uc, &to->uc);
}

/* getcontext is a system call (it reads the signal mask): once per context object, when a
 * pool is made, not at every work-group. makecontext then only resets registers. The
 * object must not move afterwards (glibc's ucontext_t points into itself). */
static inline int cl2c_fb_prepare(cl2c_fb_ctx *c) { return getcontext(&c->uc); }

static inline void cl2c_fb_init(cl2c_fb_ctx *c, void *lo, void *top, cl2c_fb_entry_fn fn) {
    c->uc.uc_stack.ss_sp = lo;
    c->uc.uc_stack.ss_size = (size_t)((char *)top - (char *)lo) & ~(size_t)15;
    c->uc.uc_stack.ss_flags = 0;
    c->uc.uc_link = NULL;
    makecontext(&c->uc, fn, 0);
}
#endif

#endif
