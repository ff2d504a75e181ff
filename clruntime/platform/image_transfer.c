/* Commands on images: read, write, copy (to an image, to and from a buffer), fill and
 * map. An image's region in pixels is a rect of bytes in its storage (its element size
 * times x, its row and slice pitches), so the commands are the buffers' rect commands
 * (transfer.c's run functions); a 1D image array's layers are its rows. A fill
 * converts its colour to one pixel with the kernels' own conversions (images.h), then
 * repeats it. Unmapping is clEnqueueUnmapMemObject's (transfer.c). */
#include "icd.h"
#include <cl2c/images.h>

static cl_int check_image(cl_command_queue q, cl_mem m)
{
    if (!cl2c_is(m, CL2C_MAGIC_MEM) || !m->image)
        return CL_INVALID_MEM_OBJECT;
    return m->context == q->context ? CL_SUCCESS : CL_INVALID_CONTEXT;
}

/* The sizes of `m` as (x, y, z): a 1D array's layers are its y, a 2D array's its z. */
static void extent(cl_mem m, size_t size[3])
{
    const cl2c_image *v = m->image;
    size[0] = v->width;
    size[1] = m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? v->array_size
              : v->height ? v->height : 1;
    size[2] = m->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? v->array_size
              : v->depth ? v->depth : 1;
}

/* The spec's rules of an origin and a region in `m` (CL_INVALID_VALUE): not NULL, no
 * size 0, within the image, and the coordinates its type has not 0 (1 for a region). */
static cl_int check_box(cl_mem m, const size_t *origin, const size_t *region)
{
    if (!origin || !region)
        return CL_INVALID_VALUE;
    size_t size[3];
    extent(m, size);
    for (int d = 0; d < 3; d++)
        if (region[d] == 0 || origin[d] > size[d] || region[d] > size[d] - origin[d])
            return CL_INVALID_VALUE;
    return CL_SUCCESS;
}

/* What every command on one image checks first: its queue and wait list, the image, and
 * the box of pixels. */
static cl_int check_image_command(cl_command_queue q, cl_uint num_events,
                                  const cl_event *waits, cl_mem image,
                                  const size_t *origin, const size_t *region)
{
    cl_int err = cl2c_check_enqueue(q, num_events, waits);
    if (err == CL_SUCCESS)
        err = check_image(q, image);
    if (err == CL_SUCCESS)
        err = check_box(image, origin, region);
    return err;
}

/* One side of a rect command for a box of `m`: its byte origin, the region's bytes and
 * its pitches. A 1D array's rows are its layers: its row pitch is its layer pitch. */
static void image_side(cl_mem m, const size_t *origin, const size_t *region,
                       size_t out_origin[3], size_t out_region[3], size_t pitch[2])
{
    const cl2c_image *v = m->image;
    out_origin[0] = origin[0] * v->element_size;
    out_region[0] = region[0] * v->element_size;
    for (int d = 1; d < 3; d++) {
        out_origin[d] = origin[d];
        out_region[d] = region[d];
    }
    if (m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY) {
        pitch[0] = v->slice_pitch;
        pitch[1] = v->slice_pitch * v->array_size;
    } else {
        pitch[0] = v->row_pitch;
        pitch[1] = v->slice_pitch ? v->slice_pitch : v->row_pitch * (v->height ? v->height : 1);
    }
}

static void set_side(struct cl2c_command *c, int side, const size_t origin[3],
                     const size_t pitch[2])
{
    for (int i = 0; i < 3; i++)
        c->origin[side][i] = origin[i];
    c->pitch[side][0] = pitch[0];
    c->pitch[side][1] = pitch[1];
}

/* ---- read and write ---- */

/* A read or a write between an image and host memory: `host_side` is the host's side
 * of the rect (1 for a read, 0 for a write). */
static cl_int host_transfer(cl_command_queue q, cl_mem image, cl_bool blocking,
                            const size_t *origin, const size_t *region, size_t row_pitch,
                            size_t slice_pitch, void *ptr, cl_mem_flags forbidden,
                            cl_command_type type, cl2c_run run, int host_side,
                            cl_uint num_events, const cl_event *waits, cl_event *event)
{
    cl_int err = check_image_command(q, num_events, waits, image, origin, region);
    if (err != CL_SUCCESS)
        return err;
    size_t at[3], bytes[3], pitch[2];
    image_side(image, origin, region, at, bytes, pitch);
    /* the host's pitches: 0 is tight; a 1D array's layer pitch is its slice_pitch,
     * which is the rect's row pitch (its layers are its rows) */
    size_t row = row_pitch ? row_pitch : bytes[0];
    bool layers = image->type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    size_t plane = layers ? row : row * region[1];
    size_t slice = slice_pitch ? slice_pitch : plane;
    if (!ptr || row < bytes[0] || slice < plane)
        return CL_INVALID_VALUE;
    if (layers)
        row = slice;
    if (image->flags & forbidden)
        return CL_INVALID_OPERATION;
    struct cl2c_command *c = cl2c_command_new(q, type, num_events, waits);
    if (!c)
        return CL_OUT_OF_HOST_MEMORY;
    c->run = run;
    cl2c_command_use(c, 0, image);
    static const size_t zero[3] = {0, 0, 0};
    set_side(c, 1 - host_side, at, pitch);
    set_side(c, host_side, zero, (size_t[2]){row, slice});
    for (int i = 0; i < 3; i++)
        c->region[i] = bytes[i];
    c->ptr = ptr;
    return cl2c_enqueue(c, event, blocking);
}

cl_int CL2C_API(clEnqueueReadImage)(cl_command_queue command_queue, cl_mem image,
                                    cl_bool blocking_read, const size_t *origin,
                                    const size_t *region, size_t row_pitch,
                                    size_t slice_pitch, void *ptr,
                                    cl_uint num_events_in_wait_list,
                                    const cl_event *event_wait_list, cl_event *event)
{
    return host_transfer(command_queue, image, blocking_read, origin, region, row_pitch,
                         slice_pitch, ptr, CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS,
                         CL_COMMAND_READ_IMAGE, cl2c_run_read_rect, 1,
                         num_events_in_wait_list, event_wait_list, event);
}

cl_int CL2C_API(clEnqueueWriteImage)(cl_command_queue command_queue, cl_mem image,
                                     cl_bool blocking_write, const size_t *origin,
                                     const size_t *region, size_t input_row_pitch,
                                     size_t input_slice_pitch, const void *ptr,
                                     cl_uint num_events_in_wait_list,
                                     const cl_event *event_wait_list, cl_event *event)
{
    /* (the host memory is only read from) */
    return host_transfer(command_queue, image, blocking_write, origin, region,
                         input_row_pitch, input_slice_pitch, (void *)(uintptr_t)ptr,
                         CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS,
                         CL_COMMAND_WRITE_IMAGE, cl2c_run_write_rect, 0,
                         num_events_in_wait_list, event_wait_list, event);
}

/* ---- copies ---- */

static bool boxes_overlap(const size_t *a, const size_t *b, const size_t *region)
{
    for (int d = 0; d < 3; d++)
        if (a[d] + region[d] <= b[d] || b[d] + region[d] <= a[d])
            return false;
    return true;
}

cl_int CL2C_API(clEnqueueCopyImage)(cl_command_queue command_queue, cl_mem src_image,
                                    cl_mem dst_image, const size_t *src_origin,
                                    const size_t *dst_origin, const size_t *region,
                                    cl_uint num_events_in_wait_list,
                                    const cl_event *event_wait_list, cl_event *event)
{
    cl_int err = cl2c_check_enqueue(command_queue, num_events_in_wait_list, event_wait_list);
    if (err == CL_SUCCESS)
        err = check_image(command_queue, src_image);
    if (err == CL_SUCCESS)
        err = check_image(command_queue, dst_image);
    if (err != CL_SUCCESS)
        return err;
    if (src_image->format.image_channel_order != dst_image->format.image_channel_order ||
        src_image->format.image_channel_data_type != dst_image->format.image_channel_data_type)
        return CL_IMAGE_FORMAT_MISMATCH;
    err = check_box(src_image, src_origin, region);
    if (err == CL_SUCCESS)
        err = check_box(dst_image, dst_origin, region);
    if (err != CL_SUCCESS)
        return err;
    if (src_image->data == dst_image->data && boxes_overlap(src_origin, dst_origin, region))
        return CL_MEM_COPY_OVERLAP;
    struct cl2c_command *c = cl2c_command_new(command_queue, CL_COMMAND_COPY_IMAGE,
                                              num_events_in_wait_list, event_wait_list);
    if (!c)
        return CL_OUT_OF_HOST_MEMORY;
    c->run = cl2c_run_copy_rect;
    cl2c_command_use(c, 0, src_image);
    cl2c_command_use(c, 1, dst_image);
    size_t at[2][3], bytes[3], pitch[2][2];
    image_side(src_image, src_origin, region, at[0], c->region, pitch[0]);
    image_side(dst_image, dst_origin, region, at[1], bytes, pitch[1]);
    set_side(c, 0, at[0], pitch[0]);
    set_side(c, 1, at[1], pitch[1]);
    return cl2c_enqueue(c, event, false);
}

/* A copy between an image and a buffer: the buffer's side is tight from `offset`. */
static cl_int buffer_image_copy(cl_command_queue q, cl_mem image, cl_mem buffer,
                                const size_t *origin, const size_t *region, size_t offset,
                                bool to_buffer, cl_uint n, const cl_event *waits,
                                cl_event *event)
{
    cl_int err = cl2c_check_enqueue(q, n, waits);
    if (err != CL_SUCCESS)
        return err;
    cl_mem first = to_buffer ? image : buffer, second = to_buffer ? buffer : image;
    for (int i = 0; i < 2; i++) {
        cl_mem m = i == 0 ? first : second;
        if (m == image)
            err = check_image(q, m);
        else if (!cl2c_is(m, CL2C_MAGIC_MEM) || m->type != CL_MEM_OBJECT_BUFFER)
            err = CL_INVALID_MEM_OBJECT;
        else
            err = m->context == q->context ? CL_SUCCESS : CL_INVALID_CONTEXT;
        if (err != CL_SUCCESS)
            return err;
    }
    err = check_box(image, origin, region);
    if (err != CL_SUCCESS)
        return err;
    size_t at[3], bytes[3], pitch[2];
    image_side(image, origin, region, at, bytes, pitch);
    size_t total = bytes[0] * bytes[1] * bytes[2];
    if (offset > buffer->size || total > buffer->size - offset)
        return CL_INVALID_VALUE;
    /* an image1d_buffer_t and its own buffer share their storage */
    if (image->parent == buffer)
        return CL_MEM_COPY_OVERLAP;
    struct cl2c_command *c = cl2c_command_new(q, to_buffer ? CL_COMMAND_COPY_IMAGE_TO_BUFFER
                                                           : CL_COMMAND_COPY_BUFFER_TO_IMAGE,
                                              n, waits);
    if (!c)
        return CL_OUT_OF_HOST_MEMORY;
    c->run = cl2c_run_copy_rect;
    cl2c_command_use(c, 0, first);
    cl2c_command_use(c, 1, second);
    const size_t buffer_at[3] = {offset, 0, 0};
    const size_t buffer_pitch[2] = {bytes[0], bytes[0] * bytes[1]};
    set_side(c, to_buffer ? 0 : 1, at, pitch);
    set_side(c, to_buffer ? 1 : 0, buffer_at, buffer_pitch);
    for (int i = 0; i < 3; i++)
        c->region[i] = bytes[i];
    return cl2c_enqueue(c, event, false);
}

cl_int CL2C_API(clEnqueueCopyImageToBuffer)(cl_command_queue command_queue, cl_mem src_image,
                                            cl_mem dst_buffer, const size_t *src_origin,
                                            const size_t *region, size_t dst_offset,
                                            cl_uint num_events_in_wait_list,
                                            const cl_event *event_wait_list, cl_event *event)
{
    return buffer_image_copy(command_queue, src_image, dst_buffer, src_origin, region,
                             dst_offset, true, num_events_in_wait_list, event_wait_list,
                             event);
}

cl_int CL2C_API(clEnqueueCopyBufferToImage)(cl_command_queue command_queue, cl_mem src_buffer,
                                            cl_mem dst_image, size_t src_offset,
                                            const size_t *dst_origin, const size_t *region,
                                            cl_uint num_events_in_wait_list,
                                            const cl_event *event_wait_list, cl_event *event)
{
    return buffer_image_copy(command_queue, dst_image, src_buffer, dst_origin, region,
                             src_offset, false, num_events_in_wait_list, event_wait_list,
                             event);
}

/* ---- fill ---- */

static void run_fill_image(struct cl2c_command *c)
{
    unsigned char *data = c->mem[0]->data;
    size_t pixel = c->pattern_size;
    for (size_t z = 0; z < c->region[2]; z++)
        for (size_t y = 0; y < c->region[1]; y++) {
            unsigned char *row = data + (c->origin[0][2] + z) * c->pitch[0][1] +
                                 (c->origin[0][1] + y) * c->pitch[0][0] + c->origin[0][0];
            for (size_t x = 0; x < c->region[0]; x += pixel)
                memcpy(row + x, c->pattern, pixel);
        }
    cl2c_written_mark(c->mem[0], 0, 0);       /* (an image's buffer: all of it) */
}

cl_int CL2C_API(clEnqueueFillImage)(cl_command_queue command_queue, cl_mem image,
                                    const void *fill_color, const size_t *origin,
                                    const size_t *region, cl_uint num_events_in_wait_list,
                                    const cl_event *event_wait_list, cl_event *event)
{
    cl_int err = check_image_command(command_queue, num_events_in_wait_list,
                                     event_wait_list, image, origin, region);
    if (err != CL_SUCCESS)
        return err;
    if (!fill_color)
        return CL_INVALID_VALUE;
    struct cl2c_command *c = cl2c_command_new(command_queue, CL_COMMAND_FILL_IMAGE,
                                              num_events_in_wait_list, event_wait_list);
    if (!c)
        return CL_OUT_OF_HOST_MEMORY;
    /* the colour is a float4, an int4 or a uint4 as the type reads: the pixel is what
     * write_imagef, write_imagei or write_imageui would store */
    const cl2c_image *v = image->image;
    switch (v->channel_data_type) {
    case CL2C_SIGNED_INT8: case CL2C_SIGNED_INT16: case CL2C_SIGNED_INT32:
    case CL2C_UNSIGNED_INT8: case CL2C_UNSIGNED_INT16: case CL2C_UNSIGNED_INT32: {
        cl2c_uint4 color;
        memcpy(&color, fill_color, sizeof color);
        bool is_signed = v->channel_data_type <= CL2C_SIGNED_INT32;
        cl2c_img_encode_i_(v, c->pattern, color, is_signed);
        break;
    }
    default: {
        cl2c_float4 color;
        memcpy(&color, fill_color, sizeof color);
        cl2c_img_encode_f_(v, c->pattern, color);
        break;
    }
    }
    c->pattern_size = v->element_size;
    c->run = run_fill_image;
    cl2c_command_use(c, 0, image);
    size_t at[3], pitch[2];
    image_side(image, origin, region, at, c->region, pitch);
    set_side(c, 0, at, pitch);
    return cl2c_enqueue(c, event, false);
}

/* ---- map ---- */

void *CL2C_API(clEnqueueMapImage)(cl_command_queue command_queue, cl_mem image,
                                  cl_bool blocking_map, cl_map_flags map_flags,
                                  const size_t *origin, const size_t *region,
                                  size_t *image_row_pitch, size_t *image_slice_pitch,
                                  cl_uint num_events_in_wait_list,
                                  const cl_event *event_wait_list, cl_event *event,
                                  cl_int *errcode_ret)
{
    cl_int err = check_image_command(command_queue, num_events_in_wait_list,
                                     event_wait_list, image, origin, region);
    if (err != CL_SUCCESS)
        return cl2c_fail(errcode_ret, err);
    cl_mem_object_type t = image->type;
    bool sliced = t == CL_MEM_OBJECT_IMAGE3D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                  t == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    if (!image_row_pitch || (sliced && !image_slice_pitch) || (map_flags & ~known) ||
        ((map_flags & CL_MAP_WRITE_INVALIDATE_REGION) &&
         (map_flags & (CL_MAP_READ | CL_MAP_WRITE))))
        return cl2c_fail(errcode_ret, CL_INVALID_VALUE);
    if (((map_flags & CL_MAP_READ) &&
         (image->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS))) ||
        ((map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
         (image->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS))))
        return cl2c_fail(errcode_ret, CL_INVALID_OPERATION);
    struct cl2c_command *c = cl2c_command_new(command_queue, CL_COMMAND_MAP_IMAGE,
                                              num_events_in_wait_list, event_wait_list);
    if (!c)
        return cl2c_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    cl2c_command_use(c, 0, image);
    /* the storage is host memory: the pointer is the pixels' own, at their pitches */
    size_t at[3], bytes[3], pitch[2];
    image_side(image, origin, region, at, bytes, pitch);
    void *mapped = image->data + at[2] * pitch[1] + at[1] * pitch[0] + at[0];
    if (map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))
        cl2c_written_mark(image, 0, 0);       /* (an image's buffer: all of it) */
    if (!cl2c_map_add(image, mapped)) {
        cl2c_command_free(c);
        return cl2c_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    }
    err = cl2c_enqueue(c, event, blocking_map);
    if (err != CL_SUCCESS) {
        cl2c_map_drop(image, mapped);
        return cl2c_fail(errcode_ret, err);
    }
    /* the slice pitch of a 3D image's slices, and of an array's layers (a 1D array's
     * too, whose layers image_side steps by pitch[0]) */
    *image_row_pitch = image->image->row_pitch;
    if (image_slice_pitch)
        *image_slice_pitch = sliced ? image->image->slice_pitch : 0;
    if (errcode_ret)
        *errcode_ret = CL_SUCCESS;
    return mapped;
}
