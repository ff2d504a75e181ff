/* Contexts: clCreateContext, clCreateContextFromType, retain, release, info, and the
 * destructor callbacks. A context holds the one device; the queues, buffers and events
 * made in it hold a reference to it. */
#include "icd.h"

/* Check a property list (CL_CONTEXT_PLATFORM, CL_CONTEXT_INTEROP_USER_SYNC) and keep a
 * copy for CL_CONTEXT_PROPERTIES. */
static cl_int read_properties(cl_context c, const cl_context_properties *properties)
{
    c->num_properties = 0;
    if (!properties)
        return CL_SUCCESS;
    cl_uint n = 0;
    bool seen_platform = false, seen_sync = false;
    for (; properties[n] != 0; n += 2) {
        if (n + 3 > CL2C_MAX_CONTEXT_PROPERTIES)
            return CL_INVALID_PROPERTY;
        switch (properties[n]) {
        case CL_CONTEXT_PLATFORM:
            if (seen_platform)
                return CL_INVALID_PROPERTY;
            seen_platform = true;
            if ((cl_platform_id)properties[n + 1] != &cl2c_the_platform)
                return CL_INVALID_PLATFORM;
            break;
        case CL_CONTEXT_INTEROP_USER_SYNC:
            if (seen_sync)
                return CL_INVALID_PROPERTY;
            seen_sync = true;
            break;
        default:
            return CL_INVALID_PROPERTY;
        }
    }
    memcpy(c->properties, properties, (n + 1) * sizeof properties[0]);
    c->num_properties = n + 1;
    return CL_SUCCESS;
}

static cl_context new_context(const cl_context_properties *properties,
                              cl2c_context_notify pfn_notify, void *user_data,
                              cl_int *errcode_ret)
{
    if (!pfn_notify && user_data)
        return cl2c_fail(errcode_ret, CL_INVALID_VALUE);
    cl_context c = cl2c_object_new(CL2C_MAGIC_CONTEXT, sizeof *c);
    if (!c)
        return cl2c_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    cl_int err = read_properties(c, properties);
    if (err != CL_SUCCESS) {
        cl2c_object_free(c);
        return cl2c_fail(errcode_ret, err);
    }
    c->notify = pfn_notify;
    c->notify_data = user_data;
    if (errcode_ret)
        *errcode_ret = CL_SUCCESS;
    return c;
}

cl_context CL2C_API(clCreateContext)(const cl_context_properties *properties,
                                     cl_uint num_devices, const cl_device_id *devices,
                                     cl2c_context_notify pfn_notify, void *user_data,
                                     cl_int *errcode_ret)
{
    if (num_devices == 0 || devices == NULL)
        return cl2c_fail(errcode_ret, CL_INVALID_VALUE);
    for (cl_uint i = 0; i < num_devices; i++)
        if (devices[i] != &cl2c_the_device)
            return cl2c_fail(errcode_ret, CL_INVALID_DEVICE);
    return new_context(properties, pfn_notify, user_data, errcode_ret);
}

cl_context CL2C_API(clCreateContextFromType)(const cl_context_properties *properties,
                                             cl_device_type device_type,
                                             cl2c_context_notify pfn_notify,
                                             void *user_data, cl_int *errcode_ret)
{
    cl_uint n = 0;
    cl_int err = cl2c_clGetDeviceIDs(NULL, device_type, 0, NULL, &n);
    if (err != CL_SUCCESS)
        return cl2c_fail(errcode_ret, err);
    return new_context(properties, pfn_notify, user_data, errcode_ret);
}

cl_int CL2C_API(clRetainContext)(cl_context context)
{
    if (!cl2c_is(context, CL2C_MAGIC_CONTEXT))
        return CL_INVALID_CONTEXT;
    atomic_fetch_add(&context->obj.refs, 1);
    return CL_SUCCESS;
}

void cl2c_context_release(cl_context c)
{
    if (!cl2c_object_release(&c->obj))
        return;
    /* the callbacks last registered run first (spec 5.1.2) */
    for (struct cl2c_destructor *d = c->destructors, *next; d; d = next) {
        next = d->next;
        d->context_notify(c, d->user_data);
        free(d);
    }
    cl2c_object_free(c);
}

cl_int CL2C_API(clReleaseContext)(cl_context context)
{
    if (!cl2c_is(context, CL2C_MAGIC_CONTEXT))
        return CL_INVALID_CONTEXT;
    cl2c_context_release(context);
    return CL_SUCCESS;
}

cl_int CL2C_API(clGetContextInfo)(cl_context context, cl_context_info param_name,
                                  size_t param_value_size, void *param_value,
                                  size_t *param_value_size_ret)
{
    if (!cl2c_is(context, CL2C_MAGIC_CONTEXT))
        return CL_INVALID_CONTEXT;
    switch (param_name) {
    case CL_CONTEXT_REFERENCE_COUNT:
        CL2C_ANSWER(cl_uint, atomic_load(&context->obj.refs));
    case CL_CONTEXT_NUM_DEVICES: CL2C_ANSWER(cl_uint, 1);
    case CL_CONTEXT_DEVICES: CL2C_ANSWER(cl_device_id, &cl2c_the_device);
    case CL_CONTEXT_PROPERTIES:
        CL2C_ANSWER_ARRAY(context->properties,
                          context->num_properties * sizeof context->properties[0]);
    }
    return CL_INVALID_VALUE;
}

cl_int CL2C_API(clSetContextDestructorCallback)(cl_context context,
                                                cl2c_context_destructor_notify pfn_notify,
                                                void *user_data)
{
    if (!cl2c_is(context, CL2C_MAGIC_CONTEXT))
        return CL_INVALID_CONTEXT;
    if (!pfn_notify)
        return CL_INVALID_VALUE;
    struct cl2c_destructor *d = calloc(1, sizeof *d);
    if (!d)
        return CL_OUT_OF_HOST_MEMORY;
    d->context_notify = pfn_notify;
    d->user_data = user_data;
    pthread_mutex_lock(&cl2c_lock);
    d->next = context->destructors;
    context->destructors = d;
    pthread_mutex_unlock(&cl2c_lock);
    return CL_SUCCESS;
}
