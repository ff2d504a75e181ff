/* Explicit memory fences (spec 1.2 6.12.9): mem_fence, read_mem_fence, write_mem_fence.
 *
 * They order the memory accesses of one work-item; they wait for nobody.
 * - CLK_GLOBAL_MEM_FENCE: __global memory is shared with the work-items of other
 *   groups, which run on other threads, so this is a thread fence: mem_fence
 *   orders loads and stores both ways, store-to-load included (seq_cst: mfence on
 *   x86-64); read_mem_fence orders loads (acquire), write_mem_fence stores
 *   (release), which on x86-64 cost no instruction, only the compiler's
 *   reordering, as loads and stores are already ordered among themselves there.
 * - CLK_LOCAL_MEM_FENCE alone: a work-group runs on one thread, and no other
 *   thread sees its __local memory, so a compiler barrier is enough.
 * The flags are almost always constants, so the test folds away. */
#ifndef CL2C_FENCE_H
#define CL2C_FENCE_H

#include "scalars.h"

#define CL2C_LOCAL_MEM_FENCE 1u
#define CL2C_GLOBAL_MEM_FENCE 2u

/* OpenCL C 2.0's memory orders and scopes as C constants: memory_order_relaxed is
 * CL2C_MEMORY_ORDER_RELAXED (cl2c/builtins.py CONSTANTS); the values are clang's. Here,
 * not in atomics.h, since a program may use them without an atomic function (and
 * atomic_work_item_fence takes them). */
#define CL2C_MEMORY_ORDER_RELAXED 0
#define CL2C_MEMORY_ORDER_ACQUIRE 2
#define CL2C_MEMORY_ORDER_RELEASE 3
#define CL2C_MEMORY_ORDER_ACQ_REL 4
#define CL2C_MEMORY_ORDER_SEQ_CST 5
#define CL2C_MEMORY_SCOPE_WORK_ITEM 0
#define CL2C_MEMORY_SCOPE_WORK_GROUP 1
#define CL2C_MEMORY_SCOPE_DEVICE 2
#define CL2C_MEMORY_SCOPE_ALL_SVM_DEVICES 3
#define CL2C_MEMORY_SCOPE_ALL_DEVICES 3
#define CL2C_MEMORY_SCOPE_SUB_GROUP 4

#if defined(__GNUC__) || defined(__clang__)
#define CL2C_THREAD_FENCE(ORDER) __atomic_thread_fence(__ATOMIC_##ORDER)
#define CL2C_COMPILER_FENCE() __atomic_signal_fence(__ATOMIC_SEQ_CST)
#else
#include <stdatomic.h>
#define CL2C_ORDER_SEQ_CST memory_order_seq_cst
#define CL2C_ORDER_ACQUIRE memory_order_acquire
#define CL2C_ORDER_RELEASE memory_order_release
#define CL2C_THREAD_FENCE(ORDER) atomic_thread_fence(CL2C_ORDER_##ORDER)
#define CL2C_COMPILER_FENCE() atomic_signal_fence(memory_order_seq_cst)
#endif

#define CL2C_FENCE_FUNCTION(NAME, ORDER)                                                   \
    CL2C_INLINE void cl2c_##NAME(cl2c_uint flags) {                                      \
        if (flags & CL2C_GLOBAL_MEM_FENCE)                                               \
            CL2C_THREAD_FENCE(ORDER);                                                    \
        else                                                                             \
            CL2C_COMPILER_FENCE();                                                       \
    }
CL2C_FENCE_FUNCTION(mem_fence, SEQ_CST)
CL2C_FENCE_FUNCTION(read_mem_fence, ACQUIRE)
CL2C_FENCE_FUNCTION(write_mem_fence, RELEASE)

/* atomic_work_item_fence(flags, order, scope) of OpenCL C 2.0 (6.13.11.2): as mem_fence,
 * seq_cst whatever the order (a stronger one is always allowed), and nothing at all for
 * memory_order_relaxed (CL2C_MEMORY_ORDER_RELAXED, 0), which orders nothing. A wider
 * scope than asked is right too. */
CL2C_INLINE void cl2c_atomic_work_item_fence(cl2c_uint flags, int order, int scope) {
    (void)scope;
    if (order != 0)
        cl2c_mem_fence(flags);
}

#endif
