/* The C11 atomics of OpenCL C 2.0 (spec 6.13.11), for tests/test_atomics_c11.py: PoCL
 * builds them under -cl-std=CL3.0, cl2c under CL2.0 and CL3.0. */

/* fetch_<op> on ncells cells, work-item i on cell i % ncells; the old value comes back.
 * int and uint call the plain function, long the _explicit one with an order, ulong the
 * one with an order and a scope. (The operations go through the macros as fetch_min,
 * never as min, which some OpenCL headers define as a macro.) */
#define FETCH(NAME, T, CALL)                                                             \
    kernel void NAME##_##T(global atomic_##T *cells, global const T *v, global T *old,   \
                           uint ncells) {                                                \
        size_t i = get_global_id(0);                                                     \
        old[i] = CALL;                                                                   \
    }
#define PLAIN(NAME) atomic_##NAME(cells + i % ncells, v[i])
#define ORDERED(NAME) atomic_##NAME##_explicit(cells + i % ncells, v[i], memory_order_relaxed)
#define SCOPED(NAME)                                                                     \
    atomic_##NAME##_explicit(cells + i % ncells, v[i], memory_order_acq_rel,             \
                             memory_scope_device)
#define FETCH_ALL(NAME)                                                                  \
    FETCH(NAME, int, PLAIN(NAME))                                                        \
    FETCH(NAME, uint, PLAIN(NAME))                                                       \
    FETCH(NAME, long, ORDERED(NAME))                                                     \
    FETCH(NAME, ulong, SCOPED(NAME))
FETCH_ALL(fetch_add)
FETCH_ALL(fetch_sub)
FETCH_ALL(fetch_or)
FETCH_ALL(fetch_xor)
FETCH_ALL(fetch_and)
FETCH_ALL(fetch_min)
FETCH_ALL(fetch_max)

/* exchange, load and store */
kernel void exchange_int(global atomic_int *cells, global const int *v, global int *old,
                         uint ncells) {
    size_t i = get_global_id(0);
    old[i] = atomic_exchange(cells + i % ncells, v[i]);
}
kernel void exchange_float(global atomic_float *cells, global const float *v,
                           global float *old, uint ncells) {
    size_t i = get_global_id(0);
    old[i] = atomic_exchange_explicit(cells + i % ncells, v[i], memory_order_seq_cst);
}
kernel void load_store(global atomic_long *a, global long *seen) {
    size_t i = get_global_id(0);
    if (i % 2)
        atomic_init(a + i, -(long)i);
    else
        atomic_store_explicit(a + i, (long)i * 3, memory_order_release,
                              memory_scope_device);
    seen[i] = atomic_load_explicit(a + i, memory_order_acquire);
}

/* read-modify-writes by compare-and-swap loops: a float sum (the values are small
 * integers, so any order gives the same sum) and a long one */
kernel void float_sum_cas(global atomic_float *sums, global const float *v, uint nsums) {
    size_t i = get_global_id(0);
    global atomic_float *s = sums + i % nsums;
    float expected = atomic_load(s);
    while (!atomic_compare_exchange_weak(s, &expected, expected + v[i]))
        ;
}
kernel void long_sum_cas(global atomic_long *sums, global const long *v, uint nsums) {
    size_t i = get_global_id(0);
    global atomic_long *s = sums + i % nsums;
    long expected = atomic_load_explicit(s, memory_order_relaxed);
    while (!atomic_compare_exchange_strong_explicit(s, &expected, expected + v[i],
                                                     memory_order_acq_rel,
                                                     memory_order_relaxed,
                                                     memory_scope_device))
        ;
}
/* compare_exchange_strong once: it succeeds exactly when the cell holds `expect`, and
 * otherwise writes the cell's value into `expected` */
kernel void compare_exchange_once(global atomic_uint *cells, global const uint *expect,
                                  global const uint *desired, global uint *seen,
                                  global int *won) {
    size_t i = get_global_id(0);
    uint e = expect[i];
    won[i] = atomic_compare_exchange_strong(cells + i, &e, desired[i]);
    seen[i] = e;
}

/* a spinlock on an atomic_flag: each work-item takes it, counts in plain memory and
 * gives it back (every work-item that holds it releases it: no group waits for
 * another); `inside` counts the holders, which must be one at a time */
kernel void spinlock(global atomic_flag *lock, global int *plain, global atomic_int *inside,
                     global int *overlaps) {
    while (atomic_flag_test_and_set_explicit(lock, memory_order_acquire, memory_scope_device))
        ;
    if (atomic_fetch_add(inside, 1) != 0)
        ++*overlaps;
    *plain = *plain + 1;
    atomic_fetch_sub(inside, 1);
    atomic_flag_clear_explicit(lock, memory_order_release, memory_scope_device);
}

/* __local atomics, with barriers between the phases: each group's sum, maximum and the
 * OR of the bits its values select, through __local atomic_int objects and through
 * generic pointers to them; every work-item reads the group's results back */
#if __OPENCL_C_VERSION__ == 200 || defined(__opencl_c_generic_address_space)
void add_generic(volatile generic atomic_int *p, int x) {
    atomic_fetch_add_explicit(p, x, memory_order_relaxed, memory_scope_work_group);
}
/* a counter reached through generic pointers, global ones here */
kernel void generic_count(global atomic_int *counter) {
    add_generic(counter, 1);
}
#else /* PoCL's OpenCL C 3.0 has no generic address space */
#define add_generic(p, x)                                                                \
    atomic_fetch_add_explicit(p, x, memory_order_relaxed, memory_scope_work_group)
#endif
kernel void local_atomics(global const int *v, global int *out, global int *olds,
                          local atomic_int *scratch) {
    local atomic_int sum, hi;
    local atomic_uint bits;
    size_t l = get_local_id(0), g = get_group_id(0), i = get_global_id(0);
    if (l == 0) {
        atomic_init(&sum, 0);
        atomic_store(&hi, INT_MIN);
        atomic_store_explicit(&bits, 0u, memory_order_relaxed);
        atomic_init(scratch, 0);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int x = v[i];
    olds[i] = atomic_fetch_add(&sum, x);
    atomic_fetch_max(&hi, x);
    atomic_fetch_or_explicit(&bits, 1u << (x & 31), memory_order_relaxed,
                             memory_scope_work_group);
    add_generic(scratch, 1);
    atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_release,
                           memory_scope_work_group);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == get_local_size(0) - 1) {
        out[4 * g] = atomic_load(&sum);
        out[4 * g + 1] = atomic_load(&hi);
        out[4 * g + 2] = (int)atomic_load(&bits);
        out[4 * g + 3] = atomic_load(scratch);
    }
}

