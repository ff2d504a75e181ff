/* Buffers and sub-buffers: creation with every flag, retain, release (the destructor
 * callbacks), info. A buffer's storage is host memory: CL_MEM_USE_HOST_PTR uses the
 * host's own, without a copy; the others are allocated, aligned as the device
 * promises (CL_DEVICE_MEM_BASE_ADDR_ALIGN). Images are memory objects too (image.c):
 * what is said here of the object, its references and its storage holds for them. */
#include "icd.h"
#include "device_facts.h"

static const cl_mem_flags access_flags = CL2C_MEM_ACCESS_FLAGS;
static const cl_mem_flags host_access_flags = CL2C_MEM_HOST_ACCESS_FLAGS;
static const cl_mem_flags host_ptr_flags = CL2C_MEM_HOST_PTR_FLAGS;

static bool more_than_one(cl_mem_flags bits)
{
    return (bits & (bits - 1)) != 0;
}

bool cl2c_valid_mem_flags(cl_mem_flags flags)
{
    const cl_mem_flags known = access_flags | host_access_flags | host_ptr_flags |
        CL_MEM_KERNEL_READ_AND_WRITE;
    return !(flags & ~known) && !more_than_one(flags & access_flags) &&
           !more_than_one(flags & host_access_flags) &&
           !((flags & CL_MEM_USE_HOST_PTR) &&
             (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)));
}

static cl_ulong max_alloc(void)
{
    cl_ulong v = 0;
    cl2c_clGetDeviceInfo(&cl2c_the_device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof v, &v, NULL);
    return v;
}

cl_mem cl2c_mem_new(cl_context context, cl_mem_flags flags, size_t size)
{
    cl_mem m = cl2c_object_new(CL2C_MAGIC_MEM, sizeof *m);
    if (!m)
        return NULL;
    m->context = context;
    atomic_fetch_add(&context->obj.refs, 1);
    m->type = CL_MEM_OBJECT_BUFFER;
    m->flags = flags;
    m->size = size;
    return m;
}

bool cl2c_mem_place(cl_mem m, void *host_ptr, size_t bytes)
{
    if (m->flags & CL_MEM_USE_HOST_PTR) {
        m->data = host_ptr;
        m->host_ptr = host_ptr;
        return true;
    }
    size_t rounded = (bytes + CL2C_STORAGE_ALIGN - 1) / CL2C_STORAGE_ALIGN *
                     CL2C_STORAGE_ALIGN;
    m->data = aligned_alloc(CL2C_STORAGE_ALIGN, rounded);
    m->owns_data = m->data != NULL;
    return m->data != NULL;
}

static cl_mem create_buffer(cl_context context, cl_mem_flags flags, size_t size,
                            void *host_ptr, cl_int *errcode_ret)
{
    if (!cl2c_is(context, CL2C_MAGIC_CONTEXT))
        return cl2c_fail(errcode_ret, CL_INVALID_CONTEXT);
    if (!cl2c_valid_mem_flags(flags))
        return cl2c_fail(errcode_ret, CL_INVALID_VALUE);
    if (size == 0 || size > max_alloc())
        return cl2c_fail(errcode_ret, CL_INVALID_BUFFER_SIZE);
    bool wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
    if (wants_ptr != (host_ptr != NULL))
        return cl2c_fail(errcode_ret, CL_INVALID_HOST_PTR);
    if (!(flags & access_flags))
        flags |= CL_MEM_READ_WRITE;   /* the default, reported as such (as PoCL) */
    cl_mem m = cl2c_mem_new(context, flags, size);
    if (!m)
        return cl2c_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    if (!cl2c_mem_place(m, host_ptr, size)) {
        cl2c_mem_release(m);
        return cl2c_fail(errcode_ret, CL_MEM_OBJECT_ALLOCATION_FAILURE);
    }
    if (flags & CL_MEM_COPY_HOST_PTR)
        memcpy(m->data, host_ptr, size);
    else if (!(flags & CL_MEM_USE_HOST_PTR))
        cl2c_written_follow(m);       /* no data yet (the host's memory has some) */
    if (errcode_ret)
        *errcode_ret = CL_SUCCESS;
    return m;
}

cl_mem CL2C_API(clCreateBuffer)(cl_context context, cl_mem_flags flags, size_t size,
                                void *host_ptr, cl_int *errcode_ret)
{
    return create_buffer(context, flags, size, host_ptr, errcode_ret);
}

cl_mem CL2C_API(clCreateBufferWithProperties)(cl_context context,
                                              const cl_mem_properties *properties,
                                              cl_mem_flags flags, size_t size,
                                              void *host_ptr, cl_int *errcode_ret)
{
    /* no buffer property is defined by OpenCL 3.0 itself */
    if (properties && properties[0] != 0)
        return cl2c_fail(errcode_ret, CL_INVALID_PROPERTY);
    cl_mem m = create_buffer(context, flags, size, host_ptr, errcode_ret);
    if (m && properties)
        m->has_properties = true;
    return m;
}

cl_mem CL2C_API(clCreateSubBuffer)(cl_mem buffer, cl_mem_flags flags,
                                   cl_buffer_create_type buffer_create_type,
                                   const void *buffer_create_info, cl_int *errcode_ret)
{
    if (!cl2c_is(buffer, CL2C_MAGIC_MEM) || buffer->type != CL_MEM_OBJECT_BUFFER ||
        buffer->parent)
        return cl2c_fail(errcode_ret, CL_INVALID_MEM_OBJECT);
    if (!cl2c_valid_mem_flags(flags) || (flags & host_ptr_flags) ||
        buffer_create_type != CL_BUFFER_CREATE_TYPE_REGION || !buffer_create_info)
        return cl2c_fail(errcode_ret, CL_INVALID_VALUE);
    /* what the buffer forbids, the sub-buffer may not ask (spec 5.2.1) */
    cl_mem_flags parent = buffer->flags;
    if (((parent & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
        ((parent & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
        ((parent & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)) ||
        ((parent & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)) ||
        ((parent & CL_MEM_HOST_NO_ACCESS) &&
         (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))))
        return cl2c_fail(errcode_ret, CL_INVALID_VALUE);
    const cl_buffer_region *region = buffer_create_info;
    if (region->size == 0)
        return cl2c_fail(errcode_ret, CL_INVALID_BUFFER_SIZE);
    if (region->origin > buffer->size || region->size > buffer->size - region->origin)
        return cl2c_fail(errcode_ret, CL_INVALID_VALUE);
    if (region->origin % CL2C_STORAGE_ALIGN)
        return cl2c_fail(errcode_ret, CL_MISALIGNED_SUB_BUFFER_OFFSET);
    /* inherited: the access flags not given, the host access, the host pointer's */
    if (!(flags & access_flags))
        flags |= parent & access_flags;
    if (!(flags & host_access_flags))
        flags |= parent & host_access_flags;
    flags |= parent & host_ptr_flags;
    cl_mem m = cl2c_mem_new(buffer->context, flags, region->size);
    if (!m)
        return cl2c_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    m->parent = buffer;
    atomic_fetch_add(&buffer->obj.refs, 1);
    m->offset = region->origin;
    m->data = buffer->data + region->origin;
    if (buffer->host_ptr)
        m->host_ptr = (unsigned char *)buffer->host_ptr + region->origin;
    if (errcode_ret)
        *errcode_ret = CL_SUCCESS;
    return m;
}

cl_int CL2C_API(clRetainMemObject)(cl_mem memobj)
{
    if (!cl2c_is(memobj, CL2C_MAGIC_MEM))
        return CL_INVALID_MEM_OBJECT;
    atomic_fetch_add(&memobj->obj.refs, 1);
    return CL_SUCCESS;
}

void cl2c_mem_release(cl_mem m)
{
    if (!cl2c_object_release(&m->obj))
        return;
    /* the callbacks last registered run first, before the storage goes (spec 5.5.4) */
    for (struct cl2c_destructor *d = m->destructors, *next; d; d = next) {
        next = d->next;
        d->mem_notify(m, d->user_data);
        free(d);
    }
    free(m->maps);
    free(m->written);
    free(m->image);
    if (m->owns_data)
        free(m->data);
    if (m->parent)
        cl2c_mem_release(m->parent);
    cl2c_context_release(m->context);
    cl2c_object_free(m);
}

cl_int CL2C_API(clReleaseMemObject)(cl_mem memobj)
{
    if (!cl2c_is(memobj, CL2C_MAGIC_MEM))
        return CL_INVALID_MEM_OBJECT;
    cl2c_mem_release(memobj);
    return CL_SUCCESS;
}

cl_int CL2C_API(clSetMemObjectDestructorCallback)(cl_mem memobj, cl2c_mem_notify pfn_notify,
                                                  void *user_data)
{
    if (!cl2c_is(memobj, CL2C_MAGIC_MEM))
        return CL_INVALID_MEM_OBJECT;
    if (!pfn_notify)
        return CL_INVALID_VALUE;
    struct cl2c_destructor *d = calloc(1, sizeof *d);
    if (!d)
        return CL_OUT_OF_HOST_MEMORY;
    d->mem_notify = pfn_notify;
    d->user_data = user_data;
    pthread_mutex_lock(&cl2c_lock);
    d->next = memobj->destructors;
    memobj->destructors = d;
    pthread_mutex_unlock(&cl2c_lock);
    return CL_SUCCESS;
}

cl_int CL2C_API(clGetMemObjectInfo)(cl_mem memobj, cl_mem_info param_name,
                                    size_t param_value_size, void *param_value,
                                    size_t *param_value_size_ret)
{
    cl_mem m = memobj;
    if (!cl2c_is(m, CL2C_MAGIC_MEM))
        return CL_INVALID_MEM_OBJECT;
    switch (param_name) {
    case CL_MEM_TYPE: CL2C_ANSWER(cl_mem_object_type, m->type);
    case CL_MEM_FLAGS: CL2C_ANSWER(cl_mem_flags, m->flags);
    case CL_MEM_SIZE: CL2C_ANSWER(size_t, m->size);
    case CL_MEM_HOST_PTR: CL2C_ANSWER(void *, m->host_ptr);
    case CL_MEM_MAP_COUNT: {
        pthread_mutex_lock(&cl2c_lock);
        cl_uint count = m->map_count;
        pthread_mutex_unlock(&cl2c_lock);
        CL2C_ANSWER(cl_uint, count);
    }
    case CL_MEM_REFERENCE_COUNT: CL2C_ANSWER(cl_uint, atomic_load(&m->obj.refs));
    case CL_MEM_CONTEXT: CL2C_ANSWER(cl_context, m->context);
    case CL_MEM_ASSOCIATED_MEMOBJECT: CL2C_ANSWER(cl_mem, m->parent);
    case CL_MEM_OFFSET: CL2C_ANSWER(size_t, m->offset);
    }
    if (cl2c_api_version() == 30) {
        switch (param_name) {
        case CL_MEM_USES_SVM_POINTER: CL2C_ANSWER(cl_bool, CL_FALSE);
        case CL_MEM_PROPERTIES: {
            cl_mem_properties none = 0;      /* the empty list given, or no list */
            CL2C_ANSWER_ARRAY(&none, m->has_properties ? sizeof none : 0);
        }
        }
    }
    return CL_INVALID_VALUE;
}
