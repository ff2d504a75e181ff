/* Samplers: clCreateSampler (1.x), clCreateSamplerWithProperties (2.0+), retain,
 * release, info. A sampler's whole state is the CLK_* flags a kernel's sampler_t holds
 * (cl2c/host.h's CL2C_NORMALIZED_COORDS, CL2C_ADDRESS_*, CL2C_FILTER_*): clSetKernelArg
 * copies them into the argument (kernel.c), so a launch needs no reference to it. */
#include "icd.h"
#include <cl2c/host.h>

/* The CLK_* flags of a valid (addressing, filter) pair; false for a value the spec
 * does not define. */
static bool sampler_flags(cl_bool normalized, cl_addressing_mode addressing,
                          cl_filter_mode filter, cl_uint *flags)
{
    static const cl_uint address[] = {CL2C_ADDRESS_NONE, CL2C_ADDRESS_CLAMP_TO_EDGE,
                                      CL2C_ADDRESS_CLAMP, CL2C_ADDRESS_REPEAT,
                                      CL2C_ADDRESS_MIRRORED_REPEAT};
    if (addressing < CL_ADDRESS_NONE || addressing > CL_ADDRESS_MIRRORED_REPEAT ||
        (filter != CL_FILTER_NEAREST && filter != CL_FILTER_LINEAR) ||
        (normalized != CL_TRUE && normalized != CL_FALSE))
        return false;
    *flags = (normalized ? CL2C_NORMALIZED_COORDS : 0) |
             address[addressing - CL_ADDRESS_NONE] |
             (filter == CL_FILTER_LINEAR ? CL2C_FILTER_LINEAR : CL2C_FILTER_NEAREST);
    return true;
}

static cl_sampler create_sampler(cl_context context, cl_bool normalized,
                                 cl_addressing_mode addressing, cl_filter_mode filter,
                                 cl_int *errcode_ret)
{
    if (!cl2c_is(context, CL2C_MAGIC_CONTEXT))
        return cl2c_fail(errcode_ret, CL_INVALID_CONTEXT);
    cl_uint flags;
    /* repeat and mirrored repeat are defined for normalized coordinates only: the
     * pair is "a combination that is not valid" (PoCL refuses it too) */
    if (!sampler_flags(normalized, addressing, filter, &flags) ||
        (!normalized && (addressing == CL_ADDRESS_REPEAT ||
                         addressing == CL_ADDRESS_MIRRORED_REPEAT)))
        return cl2c_fail(errcode_ret, CL_INVALID_VALUE);
    cl_sampler s = cl2c_object_new(CL2C_MAGIC_SAMPLER, sizeof *s);
    if (!s)
        return cl2c_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    s->context = context;
    atomic_fetch_add(&context->obj.refs, 1);
    s->normalized_coords = normalized;
    s->addressing_mode = addressing;
    s->filter_mode = filter;
    s->flags = flags;
    if (errcode_ret)
        *errcode_ret = CL_SUCCESS;
    return s;
}

cl_sampler CL2C_API(clCreateSampler)(cl_context context, cl_bool normalized_coords,
                                     cl_addressing_mode addressing_mode,
                                     cl_filter_mode filter_mode, cl_int *errcode_ret)
{
    return create_sampler(context, normalized_coords, addressing_mode, filter_mode,
                          errcode_ret);
}

cl_sampler CL2C_API(clCreateSamplerWithProperties)(cl_context context,
                                                   const cl_sampler_properties *properties,
                                                   cl_int *errcode_ret)
{
    /* the defaults: normalized coordinates, CL_ADDRESS_CLAMP, nearest (spec 5.7.1) */
    cl_bool normalized = CL_TRUE;
    cl_addressing_mode addressing = CL_ADDRESS_CLAMP;
    cl_filter_mode filter = CL_FILTER_NEAREST;
    bool seen[3] = {false, false, false};
    cl_uint n = 0;
    for (; properties && properties[n]; n += 2) {
        if (n + 2 >= 8)
            return cl2c_fail(errcode_ret, CL_INVALID_VALUE);
        int which;
        switch (properties[n]) {
        case CL_SAMPLER_NORMALIZED_COORDS: which = 0; normalized = (cl_bool)properties[n + 1];
            break;
        case CL_SAMPLER_ADDRESSING_MODE: which = 1;
            addressing = (cl_addressing_mode)properties[n + 1]; break;
        case CL_SAMPLER_FILTER_MODE: which = 2; filter = (cl_filter_mode)properties[n + 1];
            break;
        default:
            return cl2c_fail(errcode_ret, CL_INVALID_VALUE);
        }
        if (seen[which])                       /* a property given twice */
            return cl2c_fail(errcode_ret, CL_INVALID_VALUE);
        seen[which] = true;
    }
    cl_sampler s = create_sampler(context, normalized, addressing, filter, errcode_ret);
    if (s && properties) {
        memcpy(s->properties, properties, (n + 1) * sizeof *properties);
        s->num_properties = n + 1;
    }
    return s;
}

cl_int CL2C_API(clRetainSampler)(cl_sampler sampler)
{
    if (!cl2c_is(sampler, CL2C_MAGIC_SAMPLER))
        return CL_INVALID_SAMPLER;
    atomic_fetch_add(&sampler->obj.refs, 1);
    return CL_SUCCESS;
}

cl_int CL2C_API(clReleaseSampler)(cl_sampler sampler)
{
    if (!cl2c_is(sampler, CL2C_MAGIC_SAMPLER))
        return CL_INVALID_SAMPLER;
    if (cl2c_object_release(&sampler->obj)) {
        cl2c_context_release(sampler->context);
        cl2c_object_free(sampler);
    }
    return CL_SUCCESS;
}

cl_int CL2C_API(clGetSamplerInfo)(cl_sampler sampler, cl_sampler_info param_name,
                                  size_t param_value_size, void *param_value,
                                  size_t *param_value_size_ret)
{
    cl_sampler s = sampler;
    if (!cl2c_is(s, CL2C_MAGIC_SAMPLER))
        return CL_INVALID_SAMPLER;
    switch (param_name) {
    case CL_SAMPLER_REFERENCE_COUNT: CL2C_ANSWER(cl_uint, atomic_load(&s->obj.refs));
    case CL_SAMPLER_CONTEXT: CL2C_ANSWER(cl_context, s->context);
    case CL_SAMPLER_NORMALIZED_COORDS: CL2C_ANSWER(cl_bool, s->normalized_coords);
    case CL_SAMPLER_ADDRESSING_MODE: CL2C_ANSWER(cl_addressing_mode, s->addressing_mode);
    case CL_SAMPLER_FILTER_MODE: CL2C_ANSWER(cl_filter_mode, s->filter_mode);
    }
    if (cl2c_api_version() == 30 && param_name == CL_SAMPLER_PROPERTIES)
        CL2C_ANSWER_ARRAY(s->properties, s->num_properties * sizeof *s->properties);
    return CL_INVALID_VALUE;
}
