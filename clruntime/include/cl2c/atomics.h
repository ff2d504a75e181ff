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

/* ---- the C11 atomics of OpenCL C 2.0 (spec 6.13.11) -------------------------------------
 * On the atomic types (atomic_int, ...), which are their value types in C (the same
 * size and alignment: a host's int32 buffer is an atomic_int array). The functions of
 * each <name>: cl2c_<name>_{global,local}_T, and cl2c_<name>_explicit_{global,local}_T
 * with memory orders, ..._scope with a memory scope too.
 *
 * __global and generic pointers: real atomics, every one seq_cst, whatever order and
 * scope the kernel asks for. The spec allows an order stronger than the one asked, and
 * seq_cst is one behaviour to test; on x86-64 only a store costs more (an xchg for a
 * mov). A scope only narrows who must see an operation: a wider one is always right.
 * __local pointers: plain reads and writes, as for the 1.x functions above (one thread
 * runs a work-group). compare_exchange_weak never fails spuriously here; the spec
 * allows a weak one to, and does not require it.
 *
 * The orders and scopes are C constants (fence.h). */

/* the atomic types' value types of OpenCL's size names */
typedef size_t cl2c_size_t;
typedef ptrdiff_t cl2c_ptrdiff_t;
typedef intptr_t cl2c_intptr_t;
typedef uintptr_t cl2c_uintptr_t;

#if defined(__GNUC__) || defined(__clang__)
/* the generic forms: they take float and double too */
#define CL2C_SC_LOAD(T, p, out) __atomic_load((p), &(out), __ATOMIC_SEQ_CST)
#define CL2C_SC_STORE(T, p, v) __atomic_store((p), &(v), __ATOMIC_SEQ_CST)
#define CL2C_SC_XCHG(T, p, v, old) __atomic_exchange((p), &(v), &(old), __ATOMIC_SEQ_CST)
#define CL2C_SC_CAS(T, p, expected, v)                                                   \
    __atomic_compare_exchange((p), (expected), &(v), 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)
#define CL2C_SC_FETCH(OP, T, p, v) __atomic_fetch_##OP((p), (v), __ATOMIC_SEQ_CST)
#else
#define CL2C_SC_LOAD(T, p, out) ((out) = atomic_load((volatile _Atomic T *)(p)))
#define CL2C_SC_STORE(T, p, v) atomic_store((volatile _Atomic T *)(p), (v))
#define CL2C_SC_XCHG(T, p, v, old) ((old) = atomic_exchange((volatile _Atomic T *)(p), (v)))
#define CL2C_SC_CAS(T, p, expected, v)                                                   \
    atomic_compare_exchange_strong((volatile _Atomic T *)(p), (expected), (v))
#define CL2C_SC_FETCH(OP, T, p, v) atomic_fetch_##OP((volatile _Atomic T *)(p), (v))
#endif

/* <name> and its two _explicit forms, from the body B of the plain one (which sees
 * the object p and the parameters PARAMS, named in ARGS). RET is `return`, or nothing
 * for a void R (C forbids `return f();` in a void function). */
#define CL2C_C11_FUNCTIONS(NAME, SPACE, T, R, RET, PARAMS, ARGS, B)                       \
    CL2C_INLINE R cl2c_##NAME##_##SPACE##_##T(volatile cl2c_##T *p PARAMS) B              \
    CL2C_INLINE R cl2c_##NAME##_explicit_##SPACE##_##T(volatile cl2c_##T *p PARAMS,       \
                                                        int order) {                       \
        (void)order;                                                                       \
        RET cl2c_##NAME##_##SPACE##_##T(p ARGS);                               \
    }                                                                                      \
    CL2C_INLINE R cl2c_##NAME##_explicit_##SPACE##_##T##_scope(                           \
        volatile cl2c_##T *p PARAMS, int order, int scope) {                               \
        (void)order, (void)scope;                                                          \
        RET cl2c_##NAME##_##SPACE##_##T(p ARGS);                               \
    }
/* compare_exchange: two orders (success, failure) */
#define CL2C_C11_CAS_FUNCTIONS(NAME, SPACE, T)                                             \
    CL2C_INLINE _Bool cl2c_##NAME##_explicit_##SPACE##_##T(                               \
        volatile cl2c_##T *p, cl2c_##T *expected, cl2c_##T v, int success, int failure) {  \
        (void)success, (void)failure;                                                      \
        return cl2c_##NAME##_##SPACE##_##T(p, expected, v);                                \
    }                                                                                      \
    CL2C_INLINE _Bool cl2c_##NAME##_explicit_##SPACE##_##T##_scope(                       \
        volatile cl2c_##T *p, cl2c_##T *expected, cl2c_##T v, int success, int failure,    \
        int scope) {                                                                       \
        (void)success, (void)failure, (void)scope;                                         \
        return cl2c_##NAME##_##SPACE##_##T(p, expected, v);                                \
    }
#define CL2C_COMMA ,

/* atomic_init is a plain store in both spaces: the object's value before it is shared */
#define CL2C_C11_ANY_GLOBAL(T)                                                             \
    CL2C_INLINE void cl2c_atomic_init_global_##T(volatile cl2c_##T *p, cl2c_##T v) {       \
        *p = v;                                                                            \
    }                                                                                      \
    CL2C_C11_FUNCTIONS(atomic_store, global, T, void, , CL2C_COMMA cl2c_##T v,             \
                       CL2C_COMMA v, { CL2C_SC_STORE(cl2c_##T, p, v); })                   \
    CL2C_C11_FUNCTIONS(atomic_load, global, T, cl2c_##T, return, , , {                            \
        cl2c_##T out;                                                                      \
        CL2C_SC_LOAD(cl2c_##T, p, out);                                                    \
        return out;                                                                        \
    })                                                                                     \
    CL2C_C11_FUNCTIONS(atomic_exchange, global, T, cl2c_##T, return, CL2C_COMMA cl2c_##T v,      \
                       CL2C_COMMA v, {                                                     \
                           cl2c_##T old;                                                   \
                           CL2C_SC_XCHG(cl2c_##T, p, v, old);                              \
                           return old;                                                     \
                       })                                                                  \
    CL2C_INLINE _Bool cl2c_atomic_compare_exchange_strong_global_##T(                     \
        volatile cl2c_##T *p, cl2c_##T *expected, cl2c_##T v) {                            \
        return CL2C_SC_CAS(cl2c_##T, p, expected, v);                                      \
    }                                                                                      \
    CL2C_INLINE _Bool cl2c_atomic_compare_exchange_weak_global_##T(                       \
        volatile cl2c_##T *p, cl2c_##T *expected, cl2c_##T v) {                            \
        return CL2C_SC_CAS(cl2c_##T, p, expected, v);                                      \
    }                                                                                      \
    CL2C_C11_CAS_FUNCTIONS(atomic_compare_exchange_strong, global, T)                      \
    CL2C_C11_CAS_FUNCTIONS(atomic_compare_exchange_weak, global, T)

#define CL2C_C11_ANY_LOCAL(T)                                                              \
    CL2C_INLINE void cl2c_atomic_init_local_##T(volatile cl2c_##T *p, cl2c_##T v) {        \
        *(cl2c_##T *)p = v;                                                                \
    }                                                                                      \
    CL2C_C11_FUNCTIONS(atomic_store, local, T, void, , CL2C_COMMA cl2c_##T v, CL2C_COMMA v, \
                       { *(cl2c_##T *)p = v; })                                            \
    CL2C_C11_FUNCTIONS(atomic_load, local, T, cl2c_##T, return, , , { return *(cl2c_##T *)p; })   \
    CL2C_C11_FUNCTIONS(atomic_exchange, local, T, cl2c_##T, return, CL2C_COMMA cl2c_##T v,       \
                       CL2C_COMMA v, {                                                     \
                           cl2c_##T old = *(cl2c_##T *)p;                                  \
                           *(cl2c_##T *)p = v;                                             \
                           return old;                                                     \
                       })                                                                  \
    CL2C_INLINE _Bool cl2c_atomic_compare_exchange_strong_local_##T(                      \
        volatile cl2c_##T *vp, cl2c_##T *expected, cl2c_##T v) {                           \
        cl2c_##T *p = (cl2c_##T *)vp;                                                      \
        /* bitwise, as C11's compare_exchange (a float NaN equals itself) */               \
        if (memcmp(p, expected, sizeof *p) == 0) {                                         \
            *p = v;                                                                        \
            return 1;                                                                      \
        }                                                                                  \
        *expected = *p;                                                                    \
        return 0;                                                                          \
    }                                                                                      \
    CL2C_INLINE _Bool cl2c_atomic_compare_exchange_weak_local_##T(                        \
        volatile cl2c_##T *p, cl2c_##T *expected, cl2c_##T v) {                            \
        return cl2c_atomic_compare_exchange_strong_local_##T(p, expected, v);              \
    }                                                                                      \
    CL2C_C11_CAS_FUNCTIONS(atomic_compare_exchange_strong, local, T)                       \
    CL2C_C11_CAS_FUNCTIONS(atomic_compare_exchange_weak, local, T)

/* fetch_<op> on the integer atomic types; arithmetic wraps (GCC's __atomic_fetch_add
 * does; the __local ones compute in the unsigned type UT) */
#define CL2C_C11_FETCH_GLOBAL(OP, T)                                                       \
    CL2C_C11_FUNCTIONS(atomic_fetch_##OP, global, T, cl2c_##T, return, CL2C_COMMA cl2c_##T v,    \
                       CL2C_COMMA v, { return CL2C_SC_FETCH(OP, cl2c_##T, p, v); })
#define CL2C_C11_MINMAX_GLOBAL(OP, CMP, T)                                                 \
    CL2C_C11_FUNCTIONS(atomic_fetch_##OP, global, T, cl2c_##T, return, CL2C_COMMA cl2c_##T v,    \
                       CL2C_COMMA v, {                                                     \
                           cl2c_##T old;                                                   \
                           CL2C_SC_LOAD(cl2c_##T, p, old);                                 \
                           while (v CMP old && !CL2C_SC_CAS(cl2c_##T, p, &old, v)) {       \
                           }                                                               \
                           return old;                                                     \
                       })
#define CL2C_C11_FETCH_LOCAL(OP, T, NEW)                                                   \
    CL2C_C11_FUNCTIONS(atomic_fetch_##OP, local, T, cl2c_##T, return, CL2C_COMMA cl2c_##T v,     \
                       CL2C_COMMA v, {                                                     \
                           cl2c_##T old = *(cl2c_##T *)p;                                  \
                           *(cl2c_##T *)p = (NEW);                                         \
                           return old;                                                     \
                       })
#define CL2C_C11_INTEGER(T, UT)                                                            \
    CL2C_C11_FETCH_GLOBAL(add, T)                                                          \
    CL2C_C11_FETCH_GLOBAL(sub, T)                                                          \
    CL2C_C11_FETCH_GLOBAL(or, T)                                                           \
    CL2C_C11_FETCH_GLOBAL(xor, T)                                                          \
    CL2C_C11_FETCH_GLOBAL(and, T)                                                          \
    CL2C_C11_MINMAX_GLOBAL(min, <, T)                                                      \
    CL2C_C11_MINMAX_GLOBAL(max, >, T)                                                      \
    CL2C_C11_FETCH_LOCAL(add, T, (cl2c_##T)((UT)old + (UT)v))                              \
    CL2C_C11_FETCH_LOCAL(sub, T, (cl2c_##T)((UT)old - (UT)v))                              \
    CL2C_C11_FETCH_LOCAL(or, T, old | v)                                                   \
    CL2C_C11_FETCH_LOCAL(xor, T, old ^ v)                                                  \
    CL2C_C11_FETCH_LOCAL(and, T, old & v)                                                  \
    CL2C_C11_FETCH_LOCAL(min, T, v < old ? v : old)                                        \
    CL2C_C11_FETCH_LOCAL(max, T, v > old ? v : old)

#define CL2C_C11_ATOMIC(T)                                                                 \
    CL2C_C11_ANY_GLOBAL(T)                                                                 \
    CL2C_C11_ANY_LOCAL(T)
CL2C_C11_ATOMIC(int)
CL2C_C11_ATOMIC(uint)
CL2C_C11_ATOMIC(long)
CL2C_C11_ATOMIC(ulong)
CL2C_C11_ATOMIC(float)
CL2C_C11_ATOMIC(double)
CL2C_C11_ATOMIC(intptr_t)
CL2C_C11_ATOMIC(uintptr_t)
CL2C_C11_ATOMIC(size_t)
CL2C_C11_ATOMIC(ptrdiff_t)
CL2C_C11_INTEGER(int, cl2c_uint)
CL2C_C11_INTEGER(uint, cl2c_uint)
CL2C_C11_INTEGER(long, cl2c_ulong)
CL2C_C11_INTEGER(ulong, cl2c_ulong)
CL2C_C11_INTEGER(intptr_t, uintptr_t)
CL2C_C11_INTEGER(uintptr_t, uintptr_t)
CL2C_C11_INTEGER(size_t, size_t)
CL2C_C11_INTEGER(ptrdiff_t, size_t)

/* atomic_flag (an atomic_int, as in clang): test_and_set sets it to 1 and says whether
 * it was set; clear sets it to 0 */
CL2C_C11_FUNCTIONS(atomic_flag_test_and_set, global, int, _Bool, return, , ,
                   { return cl2c_atomic_exchange_global_int(p, 1) != 0; })
CL2C_C11_FUNCTIONS(atomic_flag_clear, global, int, void, , , ,
                   { cl2c_atomic_store_global_int(p, 0); })
CL2C_C11_FUNCTIONS(atomic_flag_test_and_set, local, int, _Bool, return, , ,
                   { return cl2c_atomic_exchange_local_int(p, 1) != 0; })
CL2C_C11_FUNCTIONS(atomic_flag_clear, local, int, void, , , ,
                   { cl2c_atomic_store_local_int(p, 0); })

#endif
