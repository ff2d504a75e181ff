/* Work-item functions (spec 6.12.1).
 *
 * A cl2c_workitem describes one work-item: the NDRange (copied by value so that the
 * C compiler can keep it in registers), its work-group and its local id. The
 * schedules build one per group and change only local_id per work-item. */
#ifndef CL2C_WORKITEM_H
#define CL2C_WORKITEM_H

#include "scalars.h"

typedef struct cl2c_workitem {
    cl2c_uint work_dim;
    size_t global_size[3];
    size_t enqueued_local_size[3];
    size_t global_offset[3];
    size_t num_groups[3];
    size_t group_id[3];
    size_t local_size[3]; /* of this group: smaller for the last one of a non-uniform range */
    void *globals;        /* the program's __global variables (CL2C_G in generated code) */
} cl2c_workitem;

/* A function that runs on behalf of one work-item takes the group it belongs
 * to and its local id, as scalars so that a loop over work-items vectorises. */
#define CL2C_WI_PARAMS                                                             \
    CL2C_UNUSED const cl2c_workitem *cl2c_wi, CL2C_UNUSED size_t cl2c_l0,          \
        CL2C_UNUSED size_t cl2c_l1, CL2C_UNUSED size_t cl2c_l2
#define CL2C_WI cl2c_wi, cl2c_l0, cl2c_l1, cl2c_l2
/* A kernel's interleaved function (workgroup/passes/interleaving.py): up to three more work-items,
 * at cl2c_l0_2 .. cl2c_l0_4, each CL2C_WAY_BLOCK work-items after the one before (16
 * floats: an AVX-512 vector) */
#define CL2C_WI_2 cl2c_wi, cl2c_l0_2, cl2c_l1, cl2c_l2
#define CL2C_WI_3 cl2c_wi, cl2c_l0_3, cl2c_l1, cl2c_l2
#define CL2C_WI_4 cl2c_wi, cl2c_l0_4, cl2c_l1, cl2c_l2
#define CL2C_WAY_BLOCK 16
#define CL2C_WI_ARGS const cl2c_workitem *w, size_t l0, size_t l1, size_t l2

CL2C_INLINE size_t cl2c_lid_(size_t l0, size_t l1, size_t l2, cl2c_uint d) {
    return d == 0 ? l0 : d == 1 ? l1 : d == 2 ? l2 : 0;
}
CL2C_INLINE cl2c_uint cl2c_get_work_dim(CL2C_WI_ARGS) {
    (void)l0, (void)l1, (void)l2;
    return w->work_dim;
}
CL2C_INLINE size_t cl2c_get_global_size(CL2C_WI_ARGS, cl2c_uint d) {
    (void)l0, (void)l1, (void)l2;
    return d < 3 ? w->global_size[d] : 1;
}
CL2C_INLINE size_t cl2c_get_local_size(CL2C_WI_ARGS, cl2c_uint d) {
    (void)l0, (void)l1, (void)l2;
    return d < 3 ? w->local_size[d] : 1;
}
CL2C_INLINE size_t cl2c_get_enqueued_local_size(CL2C_WI_ARGS, cl2c_uint d) {
    (void)l0, (void)l1, (void)l2;
    return d < 3 ? w->enqueued_local_size[d] : 1;
}
CL2C_INLINE size_t cl2c_get_num_groups(CL2C_WI_ARGS, cl2c_uint d) {
    (void)l0, (void)l1, (void)l2;
    return d < 3 ? w->num_groups[d] : 1;
}
CL2C_INLINE size_t cl2c_get_group_id(CL2C_WI_ARGS, cl2c_uint d) {
    (void)l0, (void)l1, (void)l2;
    return d < 3 ? w->group_id[d] : 0;
}
CL2C_INLINE size_t cl2c_get_global_offset(CL2C_WI_ARGS, cl2c_uint d) {
    (void)l0, (void)l1, (void)l2;
    return d < 3 ? w->global_offset[d] : 0;
}
CL2C_INLINE size_t cl2c_get_local_id(CL2C_WI_ARGS, cl2c_uint d) {
    (void)w;
    return cl2c_lid_(l0, l1, l2, d);
}
CL2C_INLINE size_t cl2c_get_global_id(CL2C_WI_ARGS, cl2c_uint d) {
    return d < 3 ? w->group_id[d] * w->enqueued_local_size[d] + cl2c_lid_(l0, l1, l2, d) +
                       w->global_offset[d]
                 : 0;
}
CL2C_INLINE size_t cl2c_get_global_linear_id(CL2C_WI_ARGS) {
    size_t g0 = cl2c_get_global_id(w, l0, l1, l2, 0) - w->global_offset[0];
    size_t g1 = cl2c_get_global_id(w, l0, l1, l2, 1) - w->global_offset[1];
    size_t g2 = cl2c_get_global_id(w, l0, l1, l2, 2) - w->global_offset[2];
    return (g2 * w->global_size[1] + g1) * w->global_size[0] + g0;
}
CL2C_INLINE size_t cl2c_get_local_linear_id(CL2C_WI_ARGS) {
    return (l2 * w->local_size[1] + l1) * w->local_size[0] + l0;
}

/* cl_khr_subgroups: a sub-group is the whole work-group (README). */
CL2C_INLINE cl2c_uint cl2c_get_sub_group_size(CL2C_WI_ARGS) {
    (void)l0, (void)l1, (void)l2;
    return (cl2c_uint)(w->local_size[0] * w->local_size[1] * w->local_size[2]);
}
CL2C_INLINE cl2c_uint cl2c_get_max_sub_group_size(CL2C_WI_ARGS) {
    (void)l0, (void)l1, (void)l2;
    return (cl2c_uint)(w->enqueued_local_size[0] * w->enqueued_local_size[1] *
                       w->enqueued_local_size[2]);
}
CL2C_INLINE cl2c_uint cl2c_get_num_sub_groups(CL2C_WI_ARGS) {
    (void)w, (void)l0, (void)l1, (void)l2;
    return 1;
}
CL2C_INLINE cl2c_uint cl2c_get_enqueued_num_sub_groups(CL2C_WI_ARGS) {
    (void)w, (void)l0, (void)l1, (void)l2;
    return 1;
}
CL2C_INLINE cl2c_uint cl2c_get_sub_group_id(CL2C_WI_ARGS) {
    (void)w, (void)l0, (void)l1, (void)l2;
    return 0;
}
CL2C_INLINE cl2c_uint cl2c_get_sub_group_local_id(CL2C_WI_ARGS) {
    return (cl2c_uint)cl2c_get_local_linear_id(w, l0, l1, l2);
}

/* Work-group (g0, g1, g2) of a resolved range, into *w, a copy of the range that a thread
 * made once for all its groups: only the group's id and size change, no copy of the whole
 * description a group. One field at a time, out of line: GCC's vectorisers made pairs of
 * them 16-byte stores (and loads of pairs of 8-byte stores) that the group's 8-byte loads
 * then waited on. bench/group_cost.py, groups of 16 on a Zen 5 core: 10.5 -> 8.4 ns a
 * group, with faults.h's guard state found once a thread. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-slp-vectorize", "no-tree-loop-vectorize")))
#endif
static inline void cl2c_group_set(cl2c_workitem *w, const cl2c_workitem *range, size_t g0,
                                  size_t g1, size_t g2) {
    const size_t g[3] = {g0, g1, g2};
    for (int d = 0; d < 3; ++d) {
        const size_t first = g[d] * range->enqueued_local_size[d];
        const size_t left = range->global_size[d] - first;
        w->group_id[d] = g[d];
        w->local_size[d] = left < range->enqueued_local_size[d] ? left : range->enqueued_local_size[d];
    }
}

/* The group `at` places after (0,0,0), dimension 0 fastest. */
static inline void cl2c_group_of(const cl2c_workitem *range, size_t at, size_t *g0, size_t *g1,
                                 size_t *g2) {
    *g0 = at % range->num_groups[0];
    at /= range->num_groups[0];
    *g1 = at % range->num_groups[1];
    *g2 = at / range->num_groups[1];
}

/* The group after (g0, g1, g2), without cl2c_group_of's divisions. */
static inline void cl2c_group_next(const cl2c_workitem *range, size_t *g0, size_t *g1,
                                   size_t *g2) {
    if (++*g0 == range->num_groups[0]) {
        *g0 = 0;
        if (++*g1 == range->num_groups[1]) {
            *g1 = 0;
            ++*g2;
        }
    }
}

#endif
