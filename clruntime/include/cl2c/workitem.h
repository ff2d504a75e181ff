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
    size_t local_id[3];
} cl2c_workitem;

CL2C_INLINE cl2c_uint cl2c_get_work_dim(const cl2c_workitem *w) { return w->work_dim; }
CL2C_INLINE size_t cl2c_get_global_size(const cl2c_workitem *w, cl2c_uint d) {
    return d < 3 ? w->global_size[d] : 1;
}
CL2C_INLINE size_t cl2c_get_local_size(const cl2c_workitem *w, cl2c_uint d) {
    return d < 3 ? w->local_size[d] : 1;
}
CL2C_INLINE size_t cl2c_get_enqueued_local_size(const cl2c_workitem *w, cl2c_uint d) {
    return d < 3 ? w->enqueued_local_size[d] : 1;
}
CL2C_INLINE size_t cl2c_get_num_groups(const cl2c_workitem *w, cl2c_uint d) {
    return d < 3 ? w->num_groups[d] : 1;
}
CL2C_INLINE size_t cl2c_get_group_id(const cl2c_workitem *w, cl2c_uint d) {
    return d < 3 ? w->group_id[d] : 0;
}
CL2C_INLINE size_t cl2c_get_global_offset(const cl2c_workitem *w, cl2c_uint d) {
    return d < 3 ? w->global_offset[d] : 0;
}
CL2C_INLINE size_t cl2c_get_local_id(const cl2c_workitem *w, cl2c_uint d) {
    return d < 3 ? w->local_id[d] : 0;
}
CL2C_INLINE size_t cl2c_get_global_id(const cl2c_workitem *w, cl2c_uint d) {
    return d < 3 ? w->group_id[d] * w->enqueued_local_size[d] + w->local_id[d] +
                       w->global_offset[d]
                 : 0;
}
CL2C_INLINE size_t cl2c_get_global_linear_id(const cl2c_workitem *w) {
    size_t g0 = cl2c_get_global_id(w, 0) - w->global_offset[0];
    size_t g1 = cl2c_get_global_id(w, 1) - w->global_offset[1];
    size_t g2 = cl2c_get_global_id(w, 2) - w->global_offset[2];
    return (g2 * w->global_size[1] + g1) * w->global_size[0] + g0;
}
CL2C_INLINE size_t cl2c_get_local_linear_id(const cl2c_workitem *w) {
    return (w->local_id[2] * w->local_size[1] + w->local_id[1]) * w->local_size[0] +
           w->local_id[0];
}

/* The work-item description of group (g0, g1, g2). */
CL2C_INLINE cl2c_workitem cl2c_group(const cl2c_workitem *range, size_t g0, size_t g1, size_t g2) {
    cl2c_workitem w = *range;
    size_t g[3] = {g0, g1, g2};
    for (int d = 0; d < 3; ++d) {
        size_t first = g[d] * w.enqueued_local_size[d];
        size_t left = w.global_size[d] - first;
        w.group_id[d] = g[d];
        w.local_size[d] = left < w.enqueued_local_size[d] ? left : w.enqueued_local_size[d];
        w.local_id[d] = 0;
    }
    return w;
}

#endif
