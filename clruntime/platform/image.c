/* Images: clCreateImage (1.2) and its 1.1 forms clCreateImage2D/3D, 3.0's
 * clCreateImageWithProperties, the formats (clGetSupportedImageFormats) and
 * clGetImageInfo. An image is a memory object (memory.c) whose storage is host memory,
 * rows after rows, slices after slices, as the kernels' images.h reads it in place: the
 * object carries that description as a cl2c_image (cl2c/host.h), and a kernel's image
 * argument is a pointer to it (kernel.c). A CL_MEM_USE_HOST_PTR image is the host's
 * memory with the host's pitches, without a copy; an image1d_buffer_t is its buffer's
 * storage, and so is a 2D image made from a buffer (cl_khr_image2d_from_buffer, 2.0's
 * core), with the row pitch the host gives (any multiple of a pixel: the device's pitch
 * and base address alignments are 1 pixel, as images.h reads pixels with memcpy). The
 * formats are the spec's pairs of order and type (cl2c/images.py, through
 * device_facts.h). */
#include "icd.h"
#include "device_facts.h"
#include <cl2c/host.h>

static cl_uint format_count(void)
{
    return cl2c_api_version() >= 30 ? CL2C_IMAGE_FORMATS_30 : CL2C_IMAGE_FORMATS_12;
}

/* Whether the spec admits the pair at all (any version): else the format descriptor
 * is invalid, where a pair of a later version is only not supported. */
static bool valid_format(const cl_image_format *f)
{
    for (cl_uint i = 0; i < CL2C_IMAGE_FORMATS_30; i++)
        if (cl2c_image_formats[i].image_channel_order == f->image_channel_order &&
            cl2c_image_formats[i].image_channel_data_type == f->image_channel_data_type)
            return true;
    return false;
}

static bool supported_format(const cl_image_format *f, cl_mem_object_type type)
{
    /* depth images are 2D images and 2D image arrays */
    if (f->image_channel_order == CL_DEPTH && type != CL_MEM_OBJECT_IMAGE2D &&
        type != CL_MEM_OBJECT_IMAGE2D_ARRAY)
        return false;
    for (cl_uint i = 0; i < format_count(); i++)
        if (cl2c_image_formats[i].image_channel_order == f->image_channel_order &&
            cl2c_image_formats[i].image_channel_data_type == f->image_channel_data_type)
            return true;
    return false;
}

static bool is_image_type(cl_mem_object_type t)
{
    return t >= CL_MEM_OBJECT_IMAGE2D && t <= CL_MEM_OBJECT_IMAGE1D_BUFFER;
}

cl_int CL2C_API(clGetSupportedImageFormats)(cl_context context, cl_mem_flags flags,
                                            cl_mem_object_type image_type,
                                            cl_uint num_entries,
                                            cl_image_format *image_formats,
                                            cl_uint *num_image_formats)
{
    if (!cl2c_is(context, CL2C_MAGIC_CONTEXT))
        return CL_INVALID_CONTEXT;
    if (!cl2c_valid_mem_flags(flags) || !is_image_type(image_type) ||
        (num_entries == 0 && image_formats))
        return CL_INVALID_VALUE;
    /* every format is read and written alike, whatever the flags */
    cl_uint n = 0;
    for (cl_uint i = 0; i < format_count(); i++) {
        if (!supported_format(&cl2c_image_formats[i], image_type))
            continue;
        if (image_formats && n < num_entries)
            image_formats[n] = cl2c_image_formats[i];
        n++;
    }
    if (num_image_formats)
        *num_image_formats = n;
    return CL_SUCCESS;
}

/* ---- creation ---- */

/* The sizes an image type has (1: it has that size; the others must be ignored). */
static bool has_height(cl_mem_object_type t)
{
    return t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE3D ||
           t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
}

static bool has_layers(cl_mem_object_type t)
{
    return t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
}

/* Whether the sizes are within the device's limits (else CL_INVALID_IMAGE_SIZE). */
static bool within_limits(const cl_image_desc *d)
{
    switch (d->image_type) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    case CL_MEM_OBJECT_IMAGE2D:
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
        return d->image_width <= CL2C_IMAGE2D_MAX_SIZE &&
               (!has_height(d->image_type) || d->image_height <= CL2C_IMAGE2D_MAX_SIZE) &&
               (!has_layers(d->image_type) || d->image_array_size <= CL2C_IMAGE_MAX_ARRAY_SIZE);
    case CL_MEM_OBJECT_IMAGE3D:
        return d->image_width <= CL2C_IMAGE3D_MAX_SIZE &&
               d->image_height <= CL2C_IMAGE3D_MAX_SIZE &&
               d->image_depth <= CL2C_IMAGE3D_MAX_SIZE;
    default:
        return d->image_width <= CL2C_IMAGE_MAX_BUFFER_SIZE;
    }
}

static cl_ulong max_alloc(void)
{
    cl_ulong v = 0;
    cl2c_clGetDeviceInfo(&cl2c_the_device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof v, &v, NULL);
    return v;
}

/* Copy `rows` rows of `row` bytes, `slices` times, between two pitches. */
static void copy_pixels(unsigned char *dst, size_t dst_row, size_t dst_slice,
                        const unsigned char *src, size_t src_row, size_t src_slice,
                        size_t row, size_t rows, size_t slices)
{
    for (size_t z = 0; z < slices; z++)
        for (size_t y = 0; y < rows; y++)
            memcpy(dst + z * dst_slice + y * dst_row, src + z * src_slice + y * src_row, row);
}

/* The checks of an image1d_buffer_t's buffer and flags; CL_SUCCESS and the flags it
 * inherits in *flags. */
static cl_int check_image_buffer(cl_context context, cl_mem buffer, cl_mem_flags *flags,
                                 size_t bytes)
{
    if (!cl2c_is(buffer, CL2C_MAGIC_MEM) || buffer->type != CL_MEM_OBJECT_BUFFER ||
        buffer->context != context)
        return CL_INVALID_IMAGE_DESCRIPTOR;
    cl_mem_flags f = *flags, parent = buffer->flags;
    /* the buffer's storage is the image's: no host pointer of its own, and no access
     * its buffer forbids (as a sub-buffer) */
    if ((f & CL2C_MEM_HOST_PTR_FLAGS) ||
        ((parent & CL_MEM_WRITE_ONLY) && (f & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
        ((parent & CL_MEM_READ_ONLY) && (f & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
        ((parent & CL_MEM_HOST_WRITE_ONLY) && (f & CL_MEM_HOST_READ_ONLY)) ||
        ((parent & CL_MEM_HOST_READ_ONLY) && (f & CL_MEM_HOST_WRITE_ONLY)) ||
        ((parent & CL_MEM_HOST_NO_ACCESS) &&
         (f & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))))
        return CL_INVALID_VALUE;
    if (bytes > buffer->size)
        return CL_INVALID_IMAGE_SIZE;
    if (!(f & CL2C_MEM_ACCESS_FLAGS))
        f |= parent & CL2C_MEM_ACCESS_FLAGS;
    if (!(f & CL2C_MEM_HOST_ACCESS_FLAGS))
        f |= parent & CL2C_MEM_HOST_ACCESS_FLAGS;
    *flags = f | (parent & CL2C_MEM_HOST_PTR_FLAGS);
    return CL_SUCCESS;
}

/* clCreateImage's checks, in the order the spec lists its errors, then the image. */
static cl_mem create_image(cl_context context, cl_mem_flags flags,
                           const cl_image_format *format, const cl_image_desc *desc,
                           void *host_ptr, cl_int *errcode_ret)
{
    if (!cl2c_is(context, CL2C_MAGIC_CONTEXT))
        return cl2c_fail(errcode_ret, CL_INVALID_CONTEXT);
    if (!cl2c_valid_mem_flags(flags))
        return cl2c_fail(errcode_ret, CL_INVALID_VALUE);
    if (!format || !valid_format(format))
        return cl2c_fail(errcode_ret, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    if (!desc || !is_image_type(desc->image_type))
        return cl2c_fail(errcode_ret, CL_INVALID_IMAGE_DESCRIPTOR);
    cl_mem_object_type type = desc->image_type;
    cl2c_image view;
    /* the sizes the type has; the others are ignored (spec 5.3.1.2) */
    size_t height = has_height(type) ? desc->image_height : 1;
    size_t depth = type == CL_MEM_OBJECT_IMAGE3D ? desc->image_depth : 1;
    size_t layers = has_layers(type) ? desc->image_array_size : 1;
    /* an image made from a buffer: an image1d_buffer_t, or a 2D image whose rows are
     * the buffer's (not one made from another image: 2.0's other channel order) */
    bool from_buffer = type == CL_MEM_OBJECT_IMAGE1D_BUFFER || type == CL_MEM_OBJECT_IMAGE2D;
    if (desc->image_width == 0 || height == 0 || depth == 0 || layers == 0 ||
        desc->num_mip_levels || desc->num_samples ||
        (desc->mem_object && !from_buffer) ||
        (!desc->mem_object && type == CL_MEM_OBJECT_IMAGE1D_BUFFER))
        return cl2c_fail(errcode_ret, CL_INVALID_IMAGE_DESCRIPTOR);
    cl2c_image_init(&view, type, format->image_channel_order,
                    format->image_channel_data_type, desc->image_width, height, depth,
                    layers, NULL);
    size_t element = view.element_size, tight_row = element * desc->image_width;
    /* the pitches: the host's where it gives its memory, else the tight ones */
    size_t row = desc->image_row_pitch, slice = desc->image_slice_pitch;
    bool host_memory = host_ptr != NULL;
    bool buffer_rows = desc->mem_object && type == CL_MEM_OBJECT_IMAGE2D;
    if (!host_memory && ((row && !buffer_rows) || slice))
        return cl2c_fail(errcode_ret, CL_INVALID_IMAGE_DESCRIPTOR);
    if (row == 0)
        row = tight_row;
    /* the bytes of one slice (3D), layer (arrays) or the whole of a 1D or 2D image */
    size_t plane = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? row : row * height;
    if (slice == 0)
        slice = plane;
    if (row < tight_row || row % element || slice < plane || slice % row)
        return cl2c_fail(errcode_ret, CL_INVALID_IMAGE_DESCRIPTOR);
    if (!within_limits(desc))
        return cl2c_fail(errcode_ret, CL_INVALID_IMAGE_SIZE);
    size_t planes = type == CL_MEM_OBJECT_IMAGE3D ? depth : layers;
    size_t bytes = type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE1D ||
                   type == CL_MEM_OBJECT_IMAGE1D_BUFFER ? row * height : slice * planes;
    if (bytes > max_alloc())
        return cl2c_fail(errcode_ret, CL_INVALID_IMAGE_SIZE);
    cl_mem buffer = desc->mem_object;
    if (buffer) {
        if (host_memory)                  /* the buffer's storage is the image's */
            return cl2c_fail(errcode_ret, CL_INVALID_HOST_PTR);
        cl_int err = check_image_buffer(context, buffer, &flags,
                                        buffer_rows ? row * height : tight_row);
        if (err != CL_SUCCESS)
            return cl2c_fail(errcode_ret, err);
    } else {
        bool wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
        if (wants_ptr != host_memory)
            return cl2c_fail(errcode_ret, CL_INVALID_HOST_PTR);
    }
    if (!supported_format(format, type))
        return cl2c_fail(errcode_ret, CL_IMAGE_FORMAT_NOT_SUPPORTED);
    if (!(flags & CL2C_MEM_ACCESS_FLAGS))
        flags |= CL_MEM_READ_WRITE;
    /* an own copy is tight; the host's memory keeps the host's pitches */
    bool own = !buffer && !(flags & CL_MEM_USE_HOST_PTR);
    if (own) {
        row = tight_row;
        slice = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? row : row * height;
        bool flat = type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE1D;
        bytes = flat ? row * height : slice * planes;
    }
    cl_mem m = cl2c_mem_new(context, flags, bytes);
    cl2c_image *image = calloc(1, sizeof *image);
    if (!m || !image) {
        free(image);
        if (m)
            cl2c_mem_release(m);
        return cl2c_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    }
    m->type = type;
    m->format = *format;
    m->image = image;
    *image = view;
    image->row_pitch = row;
    /* the kernels' slice pitch: a 2D image's and a 1D image's is 0 (host.h) */
    image->slice_pitch = has_layers(type) || type == CL_MEM_OBJECT_IMAGE3D ? slice : 0;
    if (buffer) {
        m->parent = buffer;
        atomic_fetch_add(&buffer->obj.refs, 1);
        m->data = buffer->data;
    } else if (!cl2c_mem_place(m, host_ptr, bytes)) {
        cl2c_mem_release(m);
        return cl2c_fail(errcode_ret, CL_MEM_OBJECT_ALLOCATION_FAILURE);
    } else if (flags & CL_MEM_COPY_HOST_PTR) {
        size_t host_slice = desc->image_slice_pitch ? desc->image_slice_pitch : 0;
        size_t host_row = desc->image_row_pitch ? desc->image_row_pitch : tight_row;
        if (type == CL_MEM_OBJECT_IMAGE1D_ARRAY)   /* a layer is a slice */
            copy_pixels(m->data, row, slice, host_ptr, host_row,
                        host_slice ? host_slice : host_row, tight_row, 1, layers);
        else
            copy_pixels(m->data, row, slice, host_ptr, host_row,
                        host_slice ? host_slice : host_row * height, tight_row, height,
                        planes);
    }
    image->data = m->data;
    if (errcode_ret)
        *errcode_ret = CL_SUCCESS;
    return m;
}

cl_mem CL2C_API(clCreateImage)(cl_context context, cl_mem_flags flags,
                               const cl_image_format *image_format,
                               const cl_image_desc *image_desc, void *host_ptr,
                               cl_int *errcode_ret)
{
    return create_image(context, flags, image_format, image_desc, host_ptr, errcode_ret);
}

cl_mem CL2C_API(clCreateImageWithProperties)(cl_context context,
                                             const cl_mem_properties *properties,
                                             cl_mem_flags flags,
                                             const cl_image_format *image_format,
                                             const cl_image_desc *image_desc,
                                             void *host_ptr, cl_int *errcode_ret)
{
    /* no image property is defined by OpenCL 3.0 itself */
    if (properties && properties[0] != 0)
        return cl2c_fail(errcode_ret, CL_INVALID_PROPERTY);
    cl_mem m = create_image(context, flags, image_format, image_desc, host_ptr, errcode_ret);
    if (m && properties)
        m->has_properties = true;
    return m;
}

/* The 1.1 forms: sizes of 0 and pitches against the rules are CL_INVALID_IMAGE_SIZE
 * there (1.1's list), where 1.2's descriptor makes them CL_INVALID_IMAGE_DESCRIPTOR. */
static cl_mem create_image_1_1(cl_context context, cl_mem_flags flags,
                               const cl_image_format *format, const cl_image_desc *desc,
                               void *host_ptr, cl_int *errcode_ret)
{
    cl_int err;
    cl_mem m = create_image(context, flags, format, desc, host_ptr, &err);
    if (err == CL_INVALID_IMAGE_DESCRIPTOR)
        err = CL_INVALID_IMAGE_SIZE;
    if (errcode_ret)
        *errcode_ret = err;
    return m;
}

cl_mem CL2C_API(clCreateImage2D)(cl_context context, cl_mem_flags flags,
                                 const cl_image_format *image_format, size_t image_width,
                                 size_t image_height, size_t image_row_pitch, void *host_ptr,
                                 cl_int *errcode_ret)
{
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = image_width,
                          .image_height = image_height, .image_row_pitch = image_row_pitch};
    return create_image_1_1(context, flags, image_format, &desc, host_ptr, errcode_ret);
}

cl_mem CL2C_API(clCreateImage3D)(cl_context context, cl_mem_flags flags,
                                 const cl_image_format *image_format, size_t image_width,
                                 size_t image_height, size_t image_depth,
                                 size_t image_row_pitch, size_t image_slice_pitch,
                                 void *host_ptr, cl_int *errcode_ret)
{
    /* a depth of 1 is refused too (1.1: "image_depth <= 1") */
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = image_width,
                          .image_height = image_height,
                          .image_depth = image_depth > 1 ? image_depth : 0,
                          .image_row_pitch = image_row_pitch,
                          .image_slice_pitch = image_slice_pitch};
    return create_image_1_1(context, flags, image_format, &desc, host_ptr, errcode_ret);
}

cl_int CL2C_API(clGetImageInfo)(cl_mem image, cl_image_info param_name,
                                size_t param_value_size, void *param_value,
                                size_t *param_value_size_ret)
{
    if (!cl2c_is(image, CL2C_MAGIC_MEM) || !image->image)
        return CL_INVALID_MEM_OBJECT;
    const cl2c_image *v = image->image;
    cl_mem_object_type t = image->type;
    switch (param_name) {
    case CL_IMAGE_FORMAT: CL2C_ANSWER(cl_image_format, image->format);
    case CL_IMAGE_ELEMENT_SIZE: CL2C_ANSWER(size_t, v->element_size);
    case CL_IMAGE_ROW_PITCH: CL2C_ANSWER(size_t, v->row_pitch);
    /* the host's view: a 1D array's layer pitch; 0 for 1D and 2D images */
    case CL_IMAGE_SLICE_PITCH: CL2C_ANSWER(size_t, v->slice_pitch);
    case CL_IMAGE_WIDTH: CL2C_ANSWER(size_t, v->width);
    case CL_IMAGE_HEIGHT: CL2C_ANSWER(size_t, v->height);
    case CL_IMAGE_DEPTH: CL2C_ANSWER(size_t, v->depth);
    case CL_IMAGE_ARRAY_SIZE: CL2C_ANSWER(size_t, has_layers(t) ? v->array_size : 0);
    case CL_IMAGE_BUFFER: CL2C_ANSWER(cl_mem, image->parent);
    case CL_IMAGE_NUM_MIP_LEVELS:
    case CL_IMAGE_NUM_SAMPLES: CL2C_ANSWER(cl_uint, 0);
    default:
        return CL_INVALID_VALUE;
    }
}
