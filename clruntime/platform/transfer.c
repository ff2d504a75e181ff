/* Commands on buffers: read, write, copy, fill, their rect forms, map and unmap,
 * migrate; and the commands that only order others: markers, barriers, waits. Each
 * checks its arguments as the spec lists them, then queues a command whose run
 * function does the work on the queue's worker. */
#include "icd.h"

/* ---- the run functions ---- */

static void run_read(struct cl2c_command *c)
{
    memcpy(c->ptr, c->mem[0]->data + c->offset[0], c->size);
}

static void run_write(struct cl2c_command *c)
{
    memcpy(c->mem[0]->data + c->offset[0], c->ptr, c->size);
    cl2c_written_mark(c->mem[0], c->offset[0], c->size);
}

static void run_copy(struct cl2c_command *c)
{
    memmove(c->mem[1]->data + c->offset[1], c->mem[0]->data + c->offset[0], c->size);
    cl2c_written_copy(c->mem[0], c->offset[0], c->mem[1], c->offset[1], c->size);
}

static void run_fill(struct cl2c_command *c)
{
    unsigned char *at = c->mem[0]->data + c->offset[0];
    for (size_t done = 0; done < c->size; done += c->pattern_size)
        memcpy(at + done, c->pattern, c->pattern_size);
    cl2c_written_mark(c->mem[0], c->offset[0], c->size);
}

/* The byte offsets of row (y, z) of a rect command on each side: [0] the source, [1]
 * the destination, each with its origin and (row, slice) pitches. */
static void rect_row(const struct cl2c_command *c, size_t y, size_t z, size_t at[2])
{
    for (int side = 0; side < 2; side++)
        at[side] = (c->origin[side][2] + z) * c->pitch[side][1] +
                   (c->origin[side][1] + y) * c->pitch[side][0] + c->origin[side][0];
}

/* A rect transfer between two byte spaces. */
static void copy_rect(unsigned char *dst, const unsigned char *src, struct cl2c_command *c)
{
    size_t at[2];
    for (size_t z = 0; z < c->region[2]; z++)
        for (size_t y = 0; y < c->region[1]; y++) {
            rect_row(c, y, z, at);
            memmove(dst + at[1], src + at[0], c->region[0]);
        }
}

void cl2c_run_read_rect(struct cl2c_command *c)
{
    copy_rect(c->ptr, c->mem[0]->data, c);
}

/* What a rect command's rows into memory object `to` (side 1) wrote there, from `from`
 * (side 0; NULL: host memory, which holds data). */
static void rect_written(cl_mem from, cl_mem to, const struct cl2c_command *c)
{
    size_t at[2];
    for (size_t z = 0; z < c->region[2]; z++)
        for (size_t y = 0; y < c->region[1]; y++) {
            rect_row(c, y, z, at);
            if (from)
                cl2c_written_copy(from, at[0], to, at[1], c->region[0]);
            else
                cl2c_written_mark(to, at[1], c->region[0]);
        }
}

void cl2c_run_write_rect(struct cl2c_command *c)
{
    copy_rect(c->mem[0]->data, c->ptr, c);
    rect_written(NULL, c->mem[0], c);
}

void cl2c_run_copy_rect(struct cl2c_command *c)
{
    copy_rect(c->mem[1]->data, c->mem[0]->data, c);
    rect_written(c->mem[0], c->mem[1], c);
}

/* Record a mapping of `m` at `p` (false: out of memory). */
bool cl2c_map_add(cl_mem m, void *p)
{
    bool ok = true;
    pthread_mutex_lock(&cl2c_lock);
    if (m->map_count == m->map_room) {
        cl_uint room = m->map_room ? 2 * m->map_room : 4;
        void **maps = realloc(m->maps, room * sizeof *maps);
        if (maps) {
            m->maps = maps;
            m->map_room = room;
        }
        ok = maps != NULL;
    }
    if (ok)
        m->maps[m->map_count++] = p;
    pthread_mutex_unlock(&cl2c_lock);
    return ok;
}

/* Take back a mapping of `m` at `p`; false where there is none. An unmap ends it
 * at once (not when its command runs): unmapping it twice is the caller's error. */
bool cl2c_map_drop(cl_mem m, void *p)
{
    bool found = false;
    pthread_mutex_lock(&cl2c_lock);
    for (cl_uint i = m->map_count; i-- > 0;)
        if (m->maps[i] == p) {
            m->maps[i] = m->maps[--m->map_count];
            found = true;
            break;
        }
    pthread_mutex_unlock(&cl2c_lock);
    return found;
}

/* ---- checks ---- */

static cl_int check_buffer(cl_command_queue q, cl_mem m)
{
    if (!cl2c_is(m, CL2C_MAGIC_MEM) || m->type != CL_MEM_OBJECT_BUFFER)
        return CL_INVALID_MEM_OBJECT;
    return m->context == q->context ? CL_SUCCESS : CL_INVALID_CONTEXT;
}

static bool in_bounds(cl_mem m, size_t offset, size_t size)
{
    return offset <= m->size && size <= m->size - offset;
}

#define NEW_COMMAND(c, q, type, n, waits) \
    struct cl2c_command *c = cl2c_command_new((q), (type), (n), (waits)); \
    if (!c) \
        return CL_OUT_OF_HOST_MEMORY

/* ---- read, write, copy, fill ---- */

/* A read or a write between a buffer and host memory: the checks they share, then the
 * command. ``forbidden``: the host-access flags that refuse it. */
static cl_int enqueue_host_copy(cl_command_queue q, cl_mem buffer, cl_bool blocking,
                                size_t offset, size_t cb, void *ptr, cl_mem_flags forbidden,
                                cl_command_type type, cl2c_run run,
                                cl_uint num_events, const cl_event *waits, cl_event *event)
{
    cl_int err = cl2c_check_enqueue(q, num_events, waits);
    if (err == CL_SUCCESS)
        err = check_buffer(q, buffer);
    if (err != CL_SUCCESS)
        return err;
    if (!ptr || !in_bounds(buffer, offset, cb))
        return CL_INVALID_VALUE;
    if (buffer->flags & forbidden)
        return CL_INVALID_OPERATION;
    NEW_COMMAND(c, q, type, num_events, waits);
    c->run = run;
    cl2c_command_use(c, 0, buffer);
    c->offset[0] = offset;
    c->size = cb;
    c->ptr = ptr;
    return cl2c_enqueue(c, event, blocking);
}

cl_int CL2C_API(clEnqueueReadBuffer)(cl_command_queue command_queue, cl_mem buffer,
                                     cl_bool blocking_read, size_t offset, size_t cb,
                                     void *ptr, cl_uint num_events_in_wait_list,
                                     const cl_event *event_wait_list, cl_event *event)
{
    return enqueue_host_copy(command_queue, buffer, blocking_read, offset, cb, ptr,
                             CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS,
                             CL_COMMAND_READ_BUFFER, run_read, num_events_in_wait_list,
                             event_wait_list, event);
}

cl_int CL2C_API(clEnqueueWriteBuffer)(cl_command_queue command_queue, cl_mem buffer,
                                      cl_bool blocking_write, size_t offset, size_t cb,
                                      const void *ptr, cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event)
{
    /* (the host memory is only read from) */
    return enqueue_host_copy(command_queue, buffer, blocking_write, offset, cb,
                             (void *)(uintptr_t)ptr,
                             CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS,
                             CL_COMMAND_WRITE_BUFFER, run_write, num_events_in_wait_list,
                             event_wait_list, event);
}

static bool overlap(const unsigned char *a, const unsigned char *b, size_t size)
{
    return size && a < b + size && b < a + size;
}

cl_int CL2C_API(clEnqueueCopyBuffer)(cl_command_queue command_queue, cl_mem src_buffer,
                                     cl_mem dst_buffer, size_t src_offset, size_t dst_offset,
                                     size_t cb, cl_uint num_events_in_wait_list,
                                     const cl_event *event_wait_list, cl_event *event)
{
    cl_int err = cl2c_check_enqueue(command_queue, num_events_in_wait_list, event_wait_list);
    if (err == CL_SUCCESS)
        err = check_buffer(command_queue, src_buffer);
    if (err == CL_SUCCESS)
        err = check_buffer(command_queue, dst_buffer);
    if (err != CL_SUCCESS)
        return err;
    if (!in_bounds(src_buffer, src_offset, cb) || !in_bounds(dst_buffer, dst_offset, cb))
        return CL_INVALID_VALUE;
    /* a buffer and its sub-buffers share storage: overlap is by address */
    if (overlap(src_buffer->data + src_offset, dst_buffer->data + dst_offset, cb))
        return CL_MEM_COPY_OVERLAP;
    NEW_COMMAND(c, command_queue, CL_COMMAND_COPY_BUFFER, num_events_in_wait_list,
                event_wait_list);
    c->run = run_copy;
    cl2c_command_use(c, 0, src_buffer);
    cl2c_command_use(c, 1, dst_buffer);
    c->offset[0] = src_offset;
    c->offset[1] = dst_offset;
    c->size = cb;
    return cl2c_enqueue(c, event, false);
}

cl_int CL2C_API(clEnqueueFillBuffer)(cl_command_queue command_queue, cl_mem buffer,
                                     const void *pattern, size_t pattern_size, size_t offset,
                                     size_t cb, cl_uint num_events_in_wait_list,
                                     const cl_event *event_wait_list, cl_event *event)
{
    cl_int err = cl2c_check_enqueue(command_queue, num_events_in_wait_list, event_wait_list);
    if (err == CL_SUCCESS)
        err = check_buffer(command_queue, buffer);
    if (err != CL_SUCCESS)
        return err;
    /* a pattern is one of the types' sizes, 1 to 128 bytes (a power of two) */
    if (!pattern || pattern_size == 0 || pattern_size > 128 ||
        (pattern_size & (pattern_size - 1)) || offset % pattern_size || cb % pattern_size ||
        !in_bounds(buffer, offset, cb))
        return CL_INVALID_VALUE;
    NEW_COMMAND(c, command_queue, CL_COMMAND_FILL_BUFFER, num_events_in_wait_list,
                event_wait_list);
    c->run = run_fill;
    cl2c_command_use(c, 0, buffer);
    c->offset[0] = offset;
    c->size = cb;
    memcpy(c->pattern, pattern, pattern_size);   /* the caller may reuse it at once */
    c->pattern_size = pattern_size;
    return cl2c_enqueue(c, event, false);
}

/* ---- the rect forms ---- */

/* Default the pitches of one side as the spec does and check them (CL_INVALID_VALUE);
 * `limit`: the bytes that side holds (a buffer's size), or 0 for host memory. */
static cl_int rect_side(const size_t *origin, const size_t *region, size_t *row,
                        size_t *slice, size_t limit)
{
    if (*row == 0)
        *row = region[0];
    size_t plane;                     /* the bytes of one slice's rows */
    if (__builtin_mul_overflow(region[1], *row, &plane))
        return CL_INVALID_VALUE;
    if (*slice == 0)
        *slice = plane;
    if (*row < region[0] || *slice < plane || *slice % *row)
        return CL_INVALID_VALUE;
    /* the byte after the last one, computed without wrapping around */
    size_t z, y, last;
    bool wraps = __builtin_add_overflow(origin[2], region[2] - 1, &z) ||
                 __builtin_mul_overflow(z, *slice, &z) ||
                 __builtin_add_overflow(origin[1], region[1] - 1, &y) ||
                 __builtin_mul_overflow(y, *row, &y) ||
                 __builtin_add_overflow(z, y, &last) ||
                 __builtin_add_overflow(last, origin[0], &last) ||
                 __builtin_add_overflow(last, region[0], &last);
    return wraps || (limit && last > limit) ? CL_INVALID_VALUE : CL_SUCCESS;
}

static cl_int rect_command(cl_command_queue q, cl_command_type type, cl_mem buffer,
                           cl_mem other, const size_t *origin0, const size_t *origin1,
                           const size_t *region, size_t row0, size_t slice0, size_t row1,
                           size_t slice1, void *ptr, cl_uint n, const cl_event *waits,
                           struct cl2c_command **out)
{
    cl_int err = cl2c_check_enqueue(q, n, waits);
    if (err == CL_SUCCESS)
        err = check_buffer(q, buffer);
    if (err == CL_SUCCESS && other)
        err = check_buffer(q, other);
    if (err != CL_SUCCESS)
        return err;
    if (!origin0 || !origin1 || !region || region[0] == 0 || region[1] == 0 ||
        region[2] == 0 || (!other && !ptr))
        return CL_INVALID_VALUE;
    bool to_buffer = type == CL_COMMAND_WRITE_BUFFER_RECT;
    /* side 0 is the source, side 1 the destination */
    size_t limit0 = to_buffer ? 0 : buffer->size;
    size_t limit1 = other ? other->size : to_buffer ? buffer->size : 0;
    err = rect_side(origin0, region, &row0, &slice0, limit0);
    if (err == CL_SUCCESS)
        err = rect_side(origin1, region, &row1, &slice1, limit1);
    if (err != CL_SUCCESS)
        return err;
    struct cl2c_command *c = cl2c_command_new(q, type, n, waits);
    if (!c)
        return CL_OUT_OF_HOST_MEMORY;
    cl2c_command_use(c, 0, buffer);
    if (other)
        cl2c_command_use(c, 1, other);
    for (int i = 0; i < 3; i++) {
        c->origin[0][i] = origin0[i];
        c->origin[1][i] = origin1[i];
        c->region[i] = region[i];
    }
    c->pitch[0][0] = row0;
    c->pitch[0][1] = slice0;
    c->pitch[1][0] = row1;
    c->pitch[1][1] = slice1;
    c->ptr = ptr;
    *out = c;
    return CL_SUCCESS;
}

cl_int CL2C_API(clEnqueueReadBufferRect)(cl_command_queue command_queue, cl_mem buffer,
                                         cl_bool blocking_read, const size_t *buffer_origin,
                                         const size_t *host_origin, const size_t *region,
                                         size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                         size_t host_row_pitch, size_t host_slice_pitch,
                                         void *ptr, cl_uint num_events_in_wait_list,
                                         const cl_event *event_wait_list, cl_event *event)
{
    if (cl2c_is(buffer, CL2C_MAGIC_MEM) &&
        (buffer->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)))
        return CL_INVALID_OPERATION;
    struct cl2c_command *c;
    cl_int err = rect_command(command_queue, CL_COMMAND_READ_BUFFER_RECT, buffer, NULL,
                              buffer_origin, host_origin, region, buffer_row_pitch,
                              buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr,
                              num_events_in_wait_list, event_wait_list, &c);
    if (err != CL_SUCCESS)
        return err;
    c->run = cl2c_run_read_rect;
    return cl2c_enqueue(c, event, blocking_read);
}

cl_int CL2C_API(clEnqueueWriteBufferRect)(cl_command_queue command_queue, cl_mem buffer,
                                          cl_bool blocking_read, const size_t *buffer_origin,
                                          const size_t *host_origin, const size_t *region,
                                          size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                          size_t host_row_pitch, size_t host_slice_pitch,
                                          const void *ptr, cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list, cl_event *event)
{
    if (cl2c_is(buffer, CL2C_MAGIC_MEM) &&
        (buffer->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)))
        return CL_INVALID_OPERATION;
    struct cl2c_command *c;
    /* the host is the source (side 0), the buffer the destination */
    cl_int err = rect_command(command_queue, CL_COMMAND_WRITE_BUFFER_RECT, buffer, NULL,
                              host_origin, buffer_origin, region, host_row_pitch,
                              host_slice_pitch, buffer_row_pitch, buffer_slice_pitch,
                              (void *)(uintptr_t)ptr, num_events_in_wait_list,
                              event_wait_list, &c);
    if (err != CL_SUCCESS)
        return err;
    c->run = cl2c_run_write_rect;
    return cl2c_enqueue(c, event, blocking_read);
}

/* Whether a copy rect's two sides, in the same storage, share a byte: the spec's test
 * (its appendix's check_copy_overlap). Where the pitches agree, rects whose byte spans
 * meet may still be apart: every byte of a side lies, modulo the row pitch, within
 * region[0] of its start, and modulo the slice pitch within one slice's extent of it;
 * sides whose such intervals are disjoint share no byte. */
static bool rects_overlap(const struct cl2c_command *c)
{
    size_t start[2], end[2];
    for (int s = 0; s < 2; s++) {
        start[s] = c->origin[s][2] * c->pitch[s][1] + c->origin[s][1] * c->pitch[s][0] +
                   c->origin[s][0];
        end[s] = (c->origin[s][2] + c->region[2] - 1) * c->pitch[s][1] +
                 (c->origin[s][1] + c->region[1] - 1) * c->pitch[s][0] +
                 c->origin[s][0] + c->region[0];
    }
    if (end[0] <= start[1] || end[1] <= start[0])
        return false;
    size_t row = c->pitch[0][0], slice = c->pitch[0][1];
    if (row != c->pitch[1][0] || slice != c->pitch[1][1])
        return true;                    /* the spans meet: assume the bytes do */
    size_t extents[2][2] = {{row, c->region[0]},
                            {slice, (c->region[1] - 1) * row + c->region[0]}};
    for (int k = 0; k < 2; k++) {
        size_t period = extents[k][0], width = extents[k][1];
        size_t a = start[0] % period, b = start[1] % period;
        if ((b >= a + width && b + width <= a + period) ||
            (a >= b + width && a + width <= b + period))
            return false;
    }
    return true;
}

cl_int CL2C_API(clEnqueueCopyBufferRect)(cl_command_queue command_queue, cl_mem src_buffer,
                                         cl_mem dst_buffer, const size_t *src_origin,
                                         const size_t *dst_origin, const size_t *region,
                                         size_t src_row_pitch, size_t src_slice_pitch,
                                         size_t dst_row_pitch, size_t dst_slice_pitch,
                                         cl_uint num_events_in_wait_list,
                                         const cl_event *event_wait_list, cl_event *event)
{
    if (!cl2c_is(dst_buffer, CL2C_MAGIC_MEM))
        return cl2c_is(command_queue, CL2C_MAGIC_QUEUE) ? CL_INVALID_MEM_OBJECT
                                                        : CL_INVALID_COMMAND_QUEUE;
    struct cl2c_command *c;
    cl_int err = rect_command(command_queue, CL_COMMAND_COPY_BUFFER_RECT, src_buffer,
                              dst_buffer, src_origin, dst_origin, region, src_row_pitch,
                              src_slice_pitch, dst_row_pitch, dst_slice_pitch, NULL,
                              num_events_in_wait_list, event_wait_list, &c);
    if (err != CL_SUCCESS)
        return err;
    if (src_buffer->data == dst_buffer->data && rects_overlap(c)) {
        cl2c_command_free(c);
        return CL_MEM_COPY_OVERLAP;
    }
    c->run = cl2c_run_copy_rect;
    return cl2c_enqueue(c, event, false);
}

/* ---- map and unmap ---- */

void *CL2C_API(clEnqueueMapBuffer)(cl_command_queue command_queue, cl_mem buffer,
                                   cl_bool blocking_map, cl_map_flags map_flags,
                                   size_t offset, size_t cb, cl_uint num_events_in_wait_list,
                                   const cl_event *event_wait_list, cl_event *event,
                                   cl_int *errcode_ret)
{
    cl_int err = cl2c_check_enqueue(command_queue, num_events_in_wait_list, event_wait_list);
    if (err == CL_SUCCESS)
        err = check_buffer(command_queue, buffer);
    if (err != CL_SUCCESS)
        return cl2c_fail(errcode_ret, err);
    const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    if (cb == 0 || !in_bounds(buffer, offset, cb) || (map_flags & ~known) ||
        ((map_flags & CL_MAP_WRITE_INVALIDATE_REGION) &&
         (map_flags & (CL_MAP_READ | CL_MAP_WRITE))))
        return cl2c_fail(errcode_ret, CL_INVALID_VALUE);
    if (((map_flags & CL_MAP_READ) &&
         (buffer->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS))) ||
        ((map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
         (buffer->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS))))
        return cl2c_fail(errcode_ret, CL_INVALID_OPERATION);
    struct cl2c_command *c = cl2c_command_new(command_queue, CL_COMMAND_MAP_BUFFER,
                                              num_events_in_wait_list, event_wait_list);
    if (!c)
        return cl2c_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    cl2c_command_use(c, 0, buffer);
    /* the storage is host memory (the host's own for USE_HOST_PTR): mapping it is
     * only ordering, and the pointer is the data's */
    void *mapped = buffer->data + offset;
    if (map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))
        cl2c_written_mark(buffer, offset, cb);   /* what the host writes there */
    if (!cl2c_map_add(buffer, mapped)) {
        cl2c_command_free(c);
        return cl2c_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    }
    err = cl2c_enqueue(c, event, blocking_map);
    if (err != CL_SUCCESS) {          /* no pointer for the caller to unmap */
        cl2c_map_drop(buffer, mapped);
        return cl2c_fail(errcode_ret, err);
    }
    if (errcode_ret)
        *errcode_ret = CL_SUCCESS;
    return mapped;
}

cl_int CL2C_API(clEnqueueUnmapMemObject)(cl_command_queue command_queue, cl_mem memobj,
                                         void *mapped_ptr, cl_uint num_events_in_wait_list,
                                         const cl_event *event_wait_list, cl_event *event)
{
    cl_int err = cl2c_check_enqueue(command_queue, num_events_in_wait_list, event_wait_list);
    if (err != CL_SUCCESS)
        return err;
    if (!cl2c_is(memobj, CL2C_MAGIC_MEM))     /* a buffer or an image */
        return CL_INVALID_MEM_OBJECT;
    if (memobj->context != command_queue->context)
        return CL_INVALID_CONTEXT;
    NEW_COMMAND(c, command_queue, CL_COMMAND_UNMAP_MEM_OBJECT, num_events_in_wait_list,
                event_wait_list);
    if (!mapped_ptr || !cl2c_map_drop(memobj, mapped_ptr)) {
        cl2c_command_free(c);
        return CL_INVALID_VALUE;
    }
    cl2c_command_use(c, 0, memobj);
    return cl2c_enqueue(c, event, false);
}

cl_int CL2C_API(clEnqueueMigrateMemObjects)(cl_command_queue command_queue,
                                            cl_uint num_mem_objects, const cl_mem *mem_objects,
                                            cl_mem_migration_flags flags,
                                            cl_uint num_events_in_wait_list,
                                            const cl_event *event_wait_list, cl_event *event)
{
    cl_int err = cl2c_check_enqueue(command_queue, num_events_in_wait_list, event_wait_list);
    if (err != CL_SUCCESS)
        return err;
    if (num_mem_objects == 0 || !mem_objects ||
        (flags & ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST |
                                           CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)))
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < num_mem_objects; i++) {
        if (!cl2c_is(mem_objects[i], CL2C_MAGIC_MEM))
            return CL_INVALID_MEM_OBJECT;
        if (mem_objects[i]->context != command_queue->context)
            return CL_INVALID_CONTEXT;
    }
    /* one memory, the host's: nothing moves */
    NEW_COMMAND(c, command_queue, CL_COMMAND_MIGRATE_MEM_OBJECTS, num_events_in_wait_list,
                event_wait_list);
    return cl2c_enqueue(c, event, false);
}

/* ---- markers, barriers, waits: a command that runs nothing orders the others ---- */

static cl_int empty_command(cl_command_queue q, cl_command_type type, cl_uint n,
                            const cl_event *waits, cl_event *event)
{
    cl_int err = cl2c_check_enqueue(q, n, waits);
    if (err != CL_SUCCESS)
        return err;
    NEW_COMMAND(c, q, type, n, waits);
    return cl2c_enqueue(c, event, false);
}

cl_int CL2C_API(clEnqueueMarkerWithWaitList)(cl_command_queue command_queue,
                                             cl_uint num_events_in_wait_list,
                                             const cl_event *event_wait_list, cl_event *event)
{
    return empty_command(command_queue, CL_COMMAND_MARKER, num_events_in_wait_list,
                         event_wait_list, event);
}

cl_int CL2C_API(clEnqueueBarrierWithWaitList)(cl_command_queue command_queue,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event *event_wait_list,
                                              cl_event *event)
{
    return empty_command(command_queue, CL_COMMAND_BARRIER, num_events_in_wait_list,
                         event_wait_list, event);
}

cl_int CL2C_API(clEnqueueMarker)(cl_command_queue command_queue, cl_event *event)
{
    if (!event)
        return cl2c_is(command_queue, CL2C_MAGIC_QUEUE) ? CL_INVALID_VALUE
                                                        : CL_INVALID_COMMAND_QUEUE;
    return empty_command(command_queue, CL_COMMAND_MARKER, 0, NULL, event);
}

cl_int CL2C_API(clEnqueueBarrier)(cl_command_queue command_queue)
{
    return empty_command(command_queue, CL_COMMAND_BARRIER, 0, NULL, NULL);
}

cl_int CL2C_API(clEnqueueWaitForEvents)(cl_command_queue command_queue, cl_uint num_events,
                                        const cl_event *event_list)
{
    if (!cl2c_is(command_queue, CL2C_MAGIC_QUEUE))
        return CL_INVALID_COMMAND_QUEUE;
    if (num_events == 0 || !event_list)
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < num_events; i++)
        if (!cl2c_is(event_list[i], CL2C_MAGIC_EVENT))
            return CL_INVALID_EVENT;
    return empty_command(command_queue, CL_COMMAND_BARRIER, num_events, event_list, NULL);
}
