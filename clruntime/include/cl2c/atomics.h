/* Atomic functions of OpenCL 1.1/1.2 (spec 1.2 6.12.11) and the atom_* functions of
 * the cl_khr_{global,local}_int32_{base,extended}_atomics and
 * cl_khr_int64_{base,extended}_atomics extensions. Each returns the value *p had
 * before it.
 *
 * __global: work-groups run on several OpenMP threads, so these are real atomic
 * read-modify-writes, with relaxed ordering. OpenCL 1.x promises atomicity and no
 * ordering (its spec has no memory model); the 2.0 memory model treats these
 * functions as relaxed, and PoCL and libclc implement them as relaxed too.
 * Ordering is what mem_fence is for (fence.h). On x86-64 a relaxed and a seq_cst
 * read-modify-write are the same lock-prefixed instruction; relaxed only leaves
 * the compiler free to move unrelated memory accesses around it.
 *
 * __local: a work-group runs on one thread, one work-item after another, so
 * nothing else can touch its __local memory in between: a plain read-modify-write
 * is atomic there (and about 15% faster on a local histogram). Arithmetic wraps
 * (it is done in the unsigned type), as the spec's two's complement asks.
 *
 * The pointer parameters are volatile-qualified, as the spec's are, so that
 * kernels may pass volatile pointers; the __local versions access the object
 * through a plain pointer, since volatile buys nothing on memory only one thread
 * sees. */
#ifndef CL2C_ATOMICS_H
#define CL2C_ATOMICS_H

#include "scalars.h"

#if defined(__GNUC__) || defined(__clang__)
#define CL2C_AT_FETCH(OP, T, p, v) __atomic_fetch_##OP((p), (v), __ATOMIC_RELAXED)
#define CL2C_AT_XCHG(T, p, v) __atomic_exchange_n((p), (v), __ATOMIC_RELAXED)
#define CL2C_AT_LOAD(T, p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define CL2C_AT_CAS(T, p, expected, v) /* on failure, *expected becomes *p */            \
    __atomic_compare_exchange_n((p), (expected), (v), 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)
#else
#include <stdatomic.h>
#define CL2C_AT_FETCH(OP, T, p, v)                                                       \
    atomic_fetch_##OP##_explicit((volatile _Atomic T *)(p), (v), memory_order_relaxed)
#define CL2C_AT_XCHG(T, p, v)                                                            \
    atomic_exchange_explicit((volatile _Atomic T *)(p), (v), memory_order_relaxed)
#define CL2C_AT_LOAD(T, p) atomic_load_explicit((volatile _Atomic T *)(p), memory_order_relaxed)
#define CL2C_AT_CAS(T, p, expected, v)                                                   \
    atomic_compare_exchange_strong_explicit((volatile _Atomic T *)(p), (expected), (v),     \
                                            memory_order_relaxed, memory_order_relaxed)
#endif

/* ---- __global (and generic or private pointers): real atomics ---------------------- */
#define CL2C_ATOMIC_GLOBAL_FETCH(NAME, OP, T)                                              \
    CL2C_INLINE cl2c_##T cl2c_atomic_##NAME##_global_##T(volatile cl2c_##T *p, cl2c_##T v) { \
        return CL2C_AT_FETCH(OP, cl2c_##T, p, v);                                        \
    }
/* min and max: a compare-and-swap loop (GCC has no fetch_min). */
#define CL2C_ATOMIC_GLOBAL_MINMAX(NAME, CMP, T)                                            \
    CL2C_INLINE cl2c_##T cl2c_atomic_##NAME##_global_##T(volatile cl2c_##T *p, cl2c_##T v) { \
        cl2c_##T old = CL2C_AT_LOAD(cl2c_##T, p);                                        \
        while (v CMP old && !CL2C_AT_CAS(cl2c_##T, p, &old, v)) {                        \
        }                                                                                \
        return old;                                                                      \
    }
#define CL2C_ATOMICS_GLOBAL(T)                                                             \
    CL2C_ATOMIC_GLOBAL_FETCH(add, add, T)                                                \
    CL2C_ATOMIC_GLOBAL_FETCH(sub, sub, T)                                                \
    CL2C_ATOMIC_GLOBAL_FETCH(and, and, T)                                                \
    CL2C_ATOMIC_GLOBAL_FETCH(or, or, T)                                                  \
    CL2C_ATOMIC_GLOBAL_FETCH(xor, xor, T)                                                \
    CL2C_ATOMIC_GLOBAL_MINMAX(min, <, T)                                                 \
    CL2C_ATOMIC_GLOBAL_MINMAX(max, >, T)                                                 \
    CL2C_INLINE cl2c_##T cl2c_atomic_xchg_global_##T(volatile cl2c_##T *p, cl2c_##T v) {  \
        return CL2C_AT_XCHG(cl2c_##T, p, v);                                             \
    }                                                                                    \
    CL2C_INLINE cl2c_##T cl2c_atomic_inc_global_##T(volatile cl2c_##T *p) {               \
        return CL2C_AT_FETCH(add, cl2c_##T, p, (cl2c_##T)1);                             \
    }                                                                                    \
    CL2C_INLINE cl2c_##T cl2c_atomic_dec_global_##T(volatile cl2c_##T *p) {               \
        return CL2C_AT_FETCH(sub, cl2c_##T, p, (cl2c_##T)1);                             \
    }                                                                                    \
    CL2C_INLINE cl2c_##T cl2c_atomic_cmpxchg_global_##T(volatile cl2c_##T *p, cl2c_##T cmp, \
                                                        cl2c_##T v) {                    \
        CL2C_AT_CAS(cl2c_##T, p, &cmp, v);                                               \
        return cmp;                                                                      \
    }

/* ---- __local: plain read-modify-writes ---------------------------------------------- */
#define CL2C_ATOMIC_LOCAL_OP(NAME, T, UT, NEW)                                             \
    CL2C_INLINE cl2c_##T cl2c_atomic_##NAME##_local_##T(volatile cl2c_##T *vp, cl2c_##T v) { \
        cl2c_##T *p = (cl2c_##T *)vp, old = *p;                                          \
        *p = (NEW);                                                                      \
        return old;                                                                      \
    }
#define CL2C_ATOMICS_LOCAL(T, UT)                                                          \
    CL2C_ATOMIC_LOCAL_OP(add, T, UT, (cl2c_##T)((cl2c_##UT)old + (cl2c_##UT)v))            \
    CL2C_ATOMIC_LOCAL_OP(sub, T, UT, (cl2c_##T)((cl2c_##UT)old - (cl2c_##UT)v))            \
    CL2C_ATOMIC_LOCAL_OP(and, T, UT, old & v)                                            \
    CL2C_ATOMIC_LOCAL_OP(or, T, UT, old | v)                                             \
    CL2C_ATOMIC_LOCAL_OP(xor, T, UT, old ^ v)                                            \
    CL2C_ATOMIC_LOCAL_OP(min, T, UT, v < old ? v : old)                                  \
    CL2C_ATOMIC_LOCAL_OP(max, T, UT, v > old ? v : old)                                  \
    CL2C_ATOMIC_LOCAL_OP(xchg, T, UT, v)                                                 \
    CL2C_INLINE cl2c_##T cl2c_atomic_inc_local_##T(volatile cl2c_##T *p) {                \
        return cl2c_atomic_add_local_##T(p, 1);                                          \
    }                                                                                    \
    CL2C_INLINE cl2c_##T cl2c_atomic_dec_local_##T(volatile cl2c_##T *p) {                \
        return cl2c_atomic_sub_local_##T(p, 1);                                          \
    }                                                                                    \
    CL2C_INLINE cl2c_##T cl2c_atomic_cmpxchg_local_##T(volatile cl2c_##T *vp, cl2c_##T cmp, \
                                                       cl2c_##T v) {                     \
        cl2c_##T *p = (cl2c_##T *)vp, old = *p;                                          \
        *p = old == cmp ? v : old;                                                       \
        return old;                                                                      \
    }

CL2C_ATOMICS_GLOBAL(int)
CL2C_ATOMICS_GLOBAL(uint)
CL2C_ATOMICS_GLOBAL(long)
CL2C_ATOMICS_GLOBAL(ulong)
CL2C_ATOMICS_LOCAL(int, uint)
CL2C_ATOMICS_LOCAL(uint, uint)
CL2C_ATOMICS_LOCAL(long, ulong)
CL2C_ATOMICS_LOCAL(ulong, ulong)

/* atomic_xchg on float (OpenCL 1.1): the generic __atomic_exchange takes any type. */
#if defined(__GNUC__) || defined(__clang__)
CL2C_INLINE cl2c_float cl2c_atomic_xchg_global_float(volatile cl2c_float *p, cl2c_float v) {
    cl2c_float old;
    __atomic_exchange(p, &v, &old, __ATOMIC_RELAXED);
    return old;
}
#else
CL2C_INLINE cl2c_float cl2c_atomic_xchg_global_float(volatile cl2c_float *p, cl2c_float v) {
    return CL2C_AT_XCHG(cl2c_float, p, v);
}
#endif
CL2C_INLINE cl2c_float cl2c_atomic_xchg_local_float(volatile cl2c_float *vp, cl2c_float v) {
    cl2c_float *p = (cl2c_float *)vp, old = *p;
    *p = v;
    return old;
}

#endif
