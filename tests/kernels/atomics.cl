/* Atomic functions (OpenCL 1.2 6.12.11 and the cl_khr_*_atomics extensions),
 * explicit memory fences (6.12.9), async copies and prefetch (6.12.10).
 * tests/test_atomics.py runs every kernel here through cl2c and PoCL. */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

/* ---- every function, through helper functions ------------------------------------
 * Work-item i applies operation `op` to cells[i % ncells], with operand a[i] (and
 * b[i], the value compared by cmpxchg) and stores the old value it returns. With
 * ncells = the number of work-items no two work-items share a cell; with a few
 * cells they contend. */
#define APPLY(NAME, P, T, SPACE)                                                    \
    T NAME(volatile SPACE T *p, int op, T a, T b) {                                 \
        switch (op) {                                                               \
        case 0: return P##add(p, a);                                                \
        case 1: return P##sub(p, a);                                                \
        case 2: return P##xchg(p, a);                                               \
        case 3: return P##inc(p);                                                   \
        case 4: return P##dec(p);                                                   \
        case 5: return P##cmpxchg(p, b, a);                                         \
        case 6: return P##min(p, a);                                                \
        case 7: return P##max(p, a);                                                \
        case 8: return P##and(p, a);                                                \
        case 9: return P##or(p, a);                                                 \
        default: return P##xor(p, a);                                               \
        }                                                                           \
    }

#define GLOBAL_KERNEL(NAME, P, T)                                                   \
    APPLY(apply_##NAME, P, T, __global)                                             \
    __kernel void NAME(volatile __global T *cells, __global const T *a,             \
                       __global const T *b, __global T *olds, uint ncells, int op) { \
        size_t i = get_global_id(0);                                                \
        olds[i] = apply_##NAME(&cells[i % ncells], op, a[i], b[i]);                 \
    }

/* __local: each work-item works on its own slot (a group's work-items share no
 * slot: without a barrier, one could not see another's). */
#define LOCAL_KERNEL(NAME, P, T)                                                    \
    APPLY(apply_##NAME, P, T, __local)                                              \
    __kernel void NAME(__global T *cells, __global const T *a, __global const T *b, \
                       __global T *olds, int op, __local T *slots) {                \
        size_t i = get_global_id(0), l = get_local_id(0);                           \
        slots[l] = cells[i];                                                        \
        olds[i] = apply_##NAME(&slots[l], op, a[i], b[i]);                          \
        cells[i] = slots[l];                                                        \
    }

GLOBAL_KERNEL(atomic_global_int, atomic_, int)
GLOBAL_KERNEL(atomic_global_uint, atomic_, uint)
GLOBAL_KERNEL(atom_global_int, atom_, int)
GLOBAL_KERNEL(atom_global_uint, atom_, uint)
GLOBAL_KERNEL(atom_global_long, atom_, long)
GLOBAL_KERNEL(atom_global_ulong, atom_, ulong)
LOCAL_KERNEL(atomic_local_int, atomic_, int)
LOCAL_KERNEL(atomic_local_uint, atomic_, uint)
LOCAL_KERNEL(atom_local_int, atom_, int)
LOCAL_KERNEL(atom_local_ulong, atom_, ulong)

/* atomic_xchg on float (OpenCL 1.1), in both address spaces. */
__kernel void xchg_float(volatile __global float *cells, __global const float *a,
                         __global float *olds, __global float *local_olds, uint ncells,
                         __local float *slots) {
    size_t i = get_global_id(0), l = get_local_id(0);
    olds[i] = atomic_xchg(&cells[i % ncells], a[i]);
    slots[l] = a[i];
    local_olds[i] = atomic_xchg(slots + l, 0.5f) + slots[l];
}

/* ---- many work-groups on one counter, and a global histogram -------------------- */
__kernel void count(volatile __global uint *counter, __global uint *olds) {
    olds[get_global_id(0)] = atomic_inc(counter);
}

__kernel void histogram(__global const uchar *data, volatile __global uint *bins) {
    atomic_inc(&bins[data[get_global_id(0)]]);
}

/* A float add made of atomic_cmpxchg on the bits (no lock, no spinning on a flag). */
void atomic_add_float(volatile __global float *p, float v) {
    volatile __global int *bits = (volatile __global int *)p;
    int seen, old = *bits;
    do {
        seen = old;
        old = atomic_cmpxchg(bits, seen, as_int(as_float(seen) + v));
    } while (old != seen);
}

__kernel void float_sums(volatile __global float *sums, __global const float *x,
                         uint nsums) {
    size_t i = get_global_id(0);
    atomic_add_float(&sums[i % nsums], x[i]);
}

/* A shared __local counter, never initialised (that would need a barrier): the
 * values atomic_inc returns in a group are still n consecutive numbers. */
__kernel void local_counter(__global uint *olds) {
    __local uint counter;
    olds[get_global_id(0)] = atomic_inc(&counter);
}

/* ---- fences ----------------------------------------------------------------------- */
__kernel void fences(__global int *out, __local int *scratch) {
    size_t i = get_global_id(0), l = get_local_id(0);
    out[i] = (int)i;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    write_mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    scratch[l] = out[i] * 2;
    read_mem_fence(CLK_LOCAL_MEM_FENCE);
    cl_mem_fence_flags flags = CLK_LOCAL_MEM_FENCE;
    mem_fence(flags);
    read_mem_fence(CLK_GLOBAL_MEM_FENCE);
    write_mem_fence(CLK_LOCAL_MEM_FENCE);
    out[i] = scratch[l] + 1;
}

/* ---- async copies ------------------------------------------------------------------
 * Each group copies its tile of 2 * local-size elements from src into __local
 * memory, each work-item reads two elements of it after wait_group_events, and
 * the tile goes back out to dst. */
#define ASYNC_COPY(T)                                                               \
    __kernel void async_copy_##T(__global const T *src, __global T *dst,            \
                                 __global T *out, __local T *tile) {                \
        size_t n = 2 * get_local_size(0), g = get_group_id(0), l = get_local_id(0); \
        prefetch(src + g * n, n);                                                   \
        event_t e = async_work_group_copy(tile, src + g * n, n, 0);                 \
        wait_group_events(1, &e);                                                   \
        out[g * n + l] = tile[l];                                                   \
        out[g * n + n - 1 - l] = tile[n - 1 - l];                                   \
        e = async_work_group_copy(dst + g * n, (__local const T *)tile, n, 0);      \
        wait_group_events(1, &e);                                                   \
    }
ASYNC_COPY(char)
ASYNC_COPY(ushort)
ASYNC_COPY(int)
ASYNC_COPY(ulong)
ASYNC_COPY(float)
ASYNC_COPY(double)
ASYNC_COPY(uchar16)
ASYNC_COPY(int2)
ASYNC_COPY(float3)
ASYNC_COPY(float4)
ASYNC_COPY(double8)

/* Strided copies on an n x n matrix: group g gathers column g into __local memory
 * and copies row g beside it (two events, waited on as an array), writes the
 * column out as row g of the transpose (each work-item some of it, after the
 * wait), then scatters it into column n-1-g of dst and copies the row back out,
 * both under one event. */
#define ASYNC_STRIDED(T)                                                            \
    __kernel void async_strided_##T(__global const T *src, __global T *dst,         \
                                    __global T *transposed, __global T *rows,       \
                                    __local T *column, __local T *row, uint n) {    \
        size_t g = get_group_id(0);                                                 \
        event_t events[2];                                                          \
        events[0] = async_work_group_strided_copy(column, src + g, n, n, 0);        \
        events[1] = (event_t)0;                                                     \
        events[1] = async_work_group_copy(row, src + g * n, n, events[1]);          \
        wait_group_events(2, events);                                               \
        for (size_t r = get_local_id(0); r < n; r += get_local_size(0))             \
            transposed[g * n + r] = column[r];                                      \
        event_t e = async_work_group_strided_copy(dst + (n - 1 - g), column, n, n, 0); \
        e = async_work_group_copy(rows + g * n, row, n, e);                         \
        wait_group_events(1, &e);                                                   \
    }
ASYNC_STRIDED(int)
ASYNC_STRIDED(float2)
ASYNC_STRIDED(short3)
