/* Kernels: made from a built program's cl2c_kernel_info (cl2c/host.h), their
 * arguments, the info queries, and their launches (clEnqueueNDRangeKernel,
 * clEnqueueTask) as queue commands that call the kernel's cl2c_argv_<k> entry.
 *
 * clSetKernelArg and clGetKernelInfo are hot (PyOpenCL calls them for every launch):
 * each argument has its bytes at a fixed offset of one block, set with a memcpy. A
 * launch copies that block (the arguments as they were at the enqueue), retains the
 * buffers it names and the kernel, and frees them when the command is done. */
#include <stdio.h>

#include "icd.h"
#include "device_facts.h"
#include <cl2c/host.h>

/* What a buffer argument keeps: its object (NULL for a NULL buffer). Its bytes in the
 * block are the storage pointer, filled in at each enqueue; an image argument's, the
 * pointer to its cl2c_image; a sampler's, its CLK_* flags. */
static size_t arg_bytes(const cl2c_arg_info *a)
{
    switch (a->kind) {
    case CL2C_ARG_BUFFER: return sizeof(void *);
    case CL2C_ARG_LOCAL: return sizeof(size_t);
    default: return a->size;
    }
}

/* Where an argument's value may start: its type's alignment, which the kernel's C
 * assumes as it reads it (a long4 by value with an aligned 32-byte load): at most the
 * storage alignment, and a power of two no smaller than the alignment of any type of
 * its size. */
static size_t arg_align(size_t bytes)
{
    size_t align = 16;
    while (align < bytes && align < CL2C_STORAGE_ALIGN)
        align *= 2;
    return align;
}

static cl_kernel new_kernel(cl_program program, const cl2c_kernel_info *info)
{
    cl_kernel k = cl2c_object_new(CL2C_MAGIC_KERNEL, sizeof *k);
    if (!k)
        return NULL;
    k->program = program;
    k->info = info;
    k->num_args = info->num_args;
    k->unset = info->num_args;
    k->offsets = calloc(info->num_args + 1, sizeof *k->offsets);
    k->mems = calloc(info->num_args + 1, sizeof *k->mems);
    k->set = calloc(info->num_args + 1, sizeof *k->set);
    size_t at = 0;
    for (cl_uint i = 0; i < info->num_args; i++) {
        size_t align = arg_align(arg_bytes(&info->args[i]));
        at = (at + align - 1) / align * align;
        if (k->offsets)
            k->offsets[i] = at;
        at += arg_bytes(&info->args[i]);
    }
    k->values_size = at;
    k->values = aligned_alloc(CL2C_STORAGE_ALIGN, (at / CL2C_STORAGE_ALIGN + 1) *
                                                  CL2C_STORAGE_ALIGN);
    if (!k->offsets || !k->mems || !k->set || !k->values) {
        free(k->offsets);
        free(k->mems);
        free(k->set);
        free(k->values);
        cl2c_object_free(k);
        return NULL;
    }
    atomic_fetch_add(&program->obj.refs, 1);
    atomic_fetch_add(&program->kernels, 1);
    return k;
}

void cl2c_kernel_release(cl_kernel k)
{
    if (!cl2c_object_release(&k->obj))
        return;
    atomic_fetch_sub(&k->program->kernels, 1);
    cl2c_program_release(k->program);
    free(k->offsets);
    free(k->mems);
    free(k->set);
    free(k->values);
    cl2c_object_free(k);
}

static cl_int built(cl_program program)
{
    if (!cl2c_is(program, CL2C_MAGIC_PROGRAM))
        return CL_INVALID_PROGRAM;
    return program->info ? CL_SUCCESS : CL_INVALID_PROGRAM_EXECUTABLE;
}

cl_kernel CL2C_API(clCreateKernel)(cl_program program, const char *kernel_name,
                                   cl_int *errcode_ret)
{
    cl_int err = built(program);
    if (err != CL_SUCCESS)
        return cl2c_fail(errcode_ret, err);
    if (!kernel_name)
        return cl2c_fail(errcode_ret, CL_INVALID_VALUE);
    const cl2c_kernel_info *info = cl2c_find_kernel(program->info, kernel_name);
    if (!info)
        return cl2c_fail(errcode_ret, CL_INVALID_KERNEL_NAME);
    cl_kernel k = new_kernel(program, info);
    if (!k)
        return cl2c_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    if (errcode_ret)
        *errcode_ret = CL_SUCCESS;
    return k;
}

cl_int CL2C_API(clCreateKernelsInProgram)(cl_program program, cl_uint num_kernels,
                                          cl_kernel *kernels, cl_uint *num_kernels_ret)
{
    cl_int err = built(program);
    if (err != CL_SUCCESS)
        return err;
    cl_uint n = program->info->num_kernels;
    if (kernels && num_kernels < n)
        return CL_INVALID_VALUE;
    if (kernels) {
        for (cl_uint i = 0; i < n; i++) {
            kernels[i] = new_kernel(program, program->info->kernels[i]);
            if (!kernels[i]) {
                while (i--)
                    cl2c_kernel_release(kernels[i]);
                return CL_OUT_OF_HOST_MEMORY;
            }
        }
    }
    if (num_kernels_ret)
        *num_kernels_ret = n;
    return CL_SUCCESS;
}

cl_kernel CL2C_API(clCloneKernel)(cl_kernel source_kernel, cl_int *errcode_ret)
{
    if (!cl2c_is(source_kernel, CL2C_MAGIC_KERNEL))
        return cl2c_fail(errcode_ret, CL_INVALID_KERNEL);
    cl_kernel k = new_kernel(source_kernel->program, source_kernel->info);
    if (!k)
        return cl2c_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    memcpy(k->values, source_kernel->values, source_kernel->values_size);
    memcpy(k->mems, source_kernel->mems, k->num_args * sizeof *k->mems);
    memcpy(k->set, source_kernel->set, k->num_args * sizeof *k->set);
    k->unset = source_kernel->unset;
    if (errcode_ret)
        *errcode_ret = CL_SUCCESS;
    return k;
}

cl_int CL2C_API(clRetainKernel)(cl_kernel kernel)
{
    if (!cl2c_is(kernel, CL2C_MAGIC_KERNEL))
        return CL_INVALID_KERNEL;
    atomic_fetch_add(&kernel->obj.refs, 1);
    return CL_SUCCESS;
}

cl_int CL2C_API(clReleaseKernel)(cl_kernel kernel)
{
    if (!cl2c_is(kernel, CL2C_MAGIC_KERNEL))
        return CL_INVALID_KERNEL;
    cl2c_kernel_release(kernel);
    return CL_SUCCESS;
}

/* The image type a kernel's image argument names ("image2d_t", "image2d_depth_t"). */
static cl_mem_object_type image_arg_type(const char *type_name)
{
    static const struct { const char *name; cl_mem_object_type type; } types[] = {
        {"image1d_buffer_t", CL_MEM_OBJECT_IMAGE1D_BUFFER},
        {"image1d_array_t", CL_MEM_OBJECT_IMAGE1D_ARRAY},
        {"image1d_t", CL_MEM_OBJECT_IMAGE1D},
        {"image2d_array_depth_t", CL_MEM_OBJECT_IMAGE2D_ARRAY},
        {"image2d_array_t", CL_MEM_OBJECT_IMAGE2D_ARRAY},
        {"image2d_depth_t", CL_MEM_OBJECT_IMAGE2D},
        {"image2d_t", CL_MEM_OBJECT_IMAGE2D},
        {"image3d_t", CL_MEM_OBJECT_IMAGE3D}};
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (strstr(type_name, types[i].name))
            return types[i].type;
    return 0;
}

/* An image for an image argument: of its type, a depth image for a depth argument
 * only, and not an image the kernel's access contradicts (CL_INVALID_ARG_VALUE). */
static cl_int check_image_arg(const cl2c_arg_info *a, cl_mem m)
{
    bool depth_arg = strstr(a->type_name, "depth") != NULL;
    if (image_arg_type(a->type_name) != m->type ||
        depth_arg != (m->format.image_channel_order == CL_DEPTH))
        return CL_INVALID_ARG_VALUE;
    if (a->writes ? (m->flags & CL_MEM_READ_ONLY) : (m->flags & CL_MEM_WRITE_ONLY))
        return CL_INVALID_ARG_VALUE;
    return CL_SUCCESS;
}

cl_int CL2C_API(clSetKernelArg)(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                                const void *arg_value)
{
    if (!cl2c_is(kernel, CL2C_MAGIC_KERNEL))
        return CL_INVALID_KERNEL;
    if (arg_index >= kernel->num_args)
        return CL_INVALID_ARG_INDEX;
    const cl2c_arg_info *a = &kernel->info->args[arg_index];
    unsigned char *to = kernel->values + kernel->offsets[arg_index];
    switch (a->kind) {
    case CL2C_ARG_BUFFER: {
        if (arg_size != sizeof(cl_mem))
            return CL_INVALID_ARG_SIZE;
        cl_mem m = arg_value ? *(const cl_mem *)arg_value : NULL;
        if (m && (!cl2c_is(m, CL2C_MAGIC_MEM) || m->image))
            return CL_INVALID_MEM_OBJECT;
        if (m && m->context != kernel->program->context)
            return CL_INVALID_MEM_OBJECT;
        kernel->mems[arg_index] = m;
        break;
    }
    case CL2C_ARG_LOCAL:
        if (arg_value)
            return CL_INVALID_ARG_VALUE;
        if (arg_size == 0)
            return CL_INVALID_ARG_SIZE;
        memcpy(to, &arg_size, sizeof arg_size);
        break;
    case CL2C_ARG_VALUE:
        if (arg_size != a->size)
            return CL_INVALID_ARG_SIZE;
        if (!arg_value)
            return CL_INVALID_ARG_VALUE;
        memcpy(to, arg_value, arg_size);
        break;
    case CL2C_ARG_IMAGE: {
        if (arg_size != sizeof(cl_mem))
            return CL_INVALID_ARG_SIZE;
        if (!arg_value)                        /* no NULL image, as no NULL value */
            return CL_INVALID_ARG_VALUE;
        cl_mem m = *(const cl_mem *)arg_value;
        if (!cl2c_is(m, CL2C_MAGIC_MEM) || !m->image ||
            m->context != kernel->program->context)
            return CL_INVALID_MEM_OBJECT;
        cl_int err = check_image_arg(a, m);
        if (err != CL_SUCCESS)
            return err;
        kernel->mems[arg_index] = m;
        break;
    }
    case CL2C_ARG_SAMPLER: {
        if (arg_size != sizeof(cl_sampler))
            return CL_INVALID_ARG_SIZE;
        if (!arg_value)
            return CL_INVALID_ARG_VALUE;
        cl_sampler s = *(const cl_sampler *)arg_value;
        if (!cl2c_is(s, CL2C_MAGIC_SAMPLER) || s->context != kernel->program->context)
            return CL_INVALID_SAMPLER;
        cl2c_sampler_t flags = s->flags;       /* the value is all a kernel needs */
        memcpy(to, &flags, sizeof flags);
        break;
    }
    default:
        return CL_INVALID_MEM_OBJECT;
    }
    if (!kernel->set[arg_index]) {
        kernel->set[arg_index] = true;
        kernel->unset--;
    }
    return CL_SUCCESS;
}

cl_int CL2C_API(clGetKernelInfo)(cl_kernel kernel, cl_kernel_info param_name,
                                 size_t param_value_size, void *param_value,
                                 size_t *param_value_size_ret)
{
    if (!cl2c_is(kernel, CL2C_MAGIC_KERNEL))
        return CL_INVALID_KERNEL;
    switch (param_name) {
    case CL_KERNEL_FUNCTION_NAME: CL2C_ANSWER_STRING(kernel->info->name);
    case CL_KERNEL_NUM_ARGS: CL2C_ANSWER(cl_uint, kernel->num_args);
    case CL_KERNEL_REFERENCE_COUNT: CL2C_ANSWER(cl_uint, atomic_load(&kernel->obj.refs));
    case CL_KERNEL_CONTEXT: CL2C_ANSWER(cl_context, kernel->program->context);
    case CL_KERNEL_PROGRAM: CL2C_ANSWER(cl_program, kernel->program);
    case CL_KERNEL_ATTRIBUTES: CL2C_ANSWER_STRING(kernel->info->attributes);
    default:
        return CL_INVALID_VALUE;
    }
}

cl_int CL2C_API(clGetKernelArgInfo)(cl_kernel kernel, cl_uint arg_indx,
                                    cl_kernel_arg_info param_name, size_t param_value_size,
                                    void *param_value, size_t *param_value_size_ret)
{
    if (!cl2c_is(kernel, CL2C_MAGIC_KERNEL))
        return CL_INVALID_KERNEL;
    if (arg_indx >= kernel->num_args)
        return CL_INVALID_ARG_INDEX;
    const cl2c_arg_info *a = &kernel->info->args[arg_indx];
    switch (param_name) {
    case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
        CL2C_ANSWER(cl_kernel_arg_address_qualifier, a->address_space);
    case CL_KERNEL_ARG_ACCESS_QUALIFIER:
        /* an image's, as the arguments' info has it (host.h) */
        CL2C_ANSWER(cl_kernel_arg_access_qualifier,
                    a->kind != CL2C_ARG_IMAGE ? CL_KERNEL_ARG_ACCESS_NONE
                    : a->writes == 2 ? CL_KERNEL_ARG_ACCESS_READ_WRITE
                    : a->writes ? CL_KERNEL_ARG_ACCESS_WRITE_ONLY
                                : CL_KERNEL_ARG_ACCESS_READ_ONLY);
    case CL_KERNEL_ARG_TYPE_NAME: CL2C_ANSWER_STRING(a->type_name);
    case CL_KERNEL_ARG_TYPE_QUALIFIER: {
        /* the spec: a pointer's qualifiers, const and volatile its pointee's, restrict
         * its own (a value's const is not told, as the CTS's get_kernel_arg_info
         * checks), and a __constant pointer's pointee is const */
        bool pointer = a->kind == CL2C_ARG_BUFFER || a->kind == CL2C_ARG_LOCAL;
        cl_kernel_arg_type_qualifier q = CL_KERNEL_ARG_TYPE_NONE;
        if (pointer && (a->is_const || a->address_space == CL2C_ADDRESS_CONSTANT))
            q |= CL_KERNEL_ARG_TYPE_CONST;
        if (pointer && a->is_volatile)
            q |= CL_KERNEL_ARG_TYPE_VOLATILE;
        if (pointer && a->is_restrict)
            q |= CL_KERNEL_ARG_TYPE_RESTRICT;
        CL2C_ANSWER(cl_kernel_arg_type_qualifier, q);
    }
    case CL_KERNEL_ARG_NAME: CL2C_ANSWER_STRING(a->name);
    default:
        return CL_INVALID_VALUE;
    }
}

/* The __local bytes of a group: its kernel-scope __local variables' and those the
 * arguments set ask for (as PoCL answers CL_KERNEL_LOCAL_MEM_SIZE). */
static cl_ulong local_bytes(cl_kernel k)
{
    cl_ulong total = k->info->local_mem_size;
    for (cl_uint i = 0; i < k->num_args; i++)
        if (k->info->args[i].kind == CL2C_ARG_LOCAL && k->set[i]) {
            size_t n;
            memcpy(&n, k->values + k->offsets[i], sizeof n);
            total += n;
        }
    return total;
}

static size_t max_work_group_size(void)
{
    return cl2c_api_version() >= 30 ? CL2C_MAX_WORK_GROUP_SIZE_30 : CL2C_MAX_WORK_GROUP_SIZE_12;
}

cl_int CL2C_API(clGetKernelWorkGroupInfo)(cl_kernel kernel, cl_device_id device,
                                          cl_kernel_work_group_info param_name,
                                          size_t param_value_size, void *param_value,
                                          size_t *param_value_size_ret)
{
    if (!cl2c_is(kernel, CL2C_MAGIC_KERNEL))
        return CL_INVALID_KERNEL;
    if (device && device != &cl2c_the_device)
        return CL_INVALID_DEVICE;
    const size_t *reqd = kernel->info->reqd_work_group_size;
    switch (param_name) {
    case CL_KERNEL_WORK_GROUP_SIZE:
        CL2C_ANSWER(size_t, reqd[0] ? reqd[0] * reqd[1] * reqd[2] : max_work_group_size());
    case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
        size_t sizes[3] = {reqd[0], reqd[1], reqd[2]};
        CL2C_ANSWER_ARRAY(sizes, sizeof sizes);
    }
    case CL_KERNEL_LOCAL_MEM_SIZE: CL2C_ANSWER(cl_ulong, local_bytes(kernel));
    case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:      /* (device_model.py says why) */
        CL2C_ANSWER(size_t, cl2c_api_version() >= 30 ? CL2C_PREFERRED_MULTIPLE_30
                                                     : CL2C_PREFERRED_MULTIPLE_12);
    case CL_KERNEL_PRIVATE_MEM_SIZE: CL2C_ANSWER(cl_ulong, 0);
    case CL_KERNEL_GLOBAL_WORK_SIZE:
        return CL_INVALID_VALUE;          /* only for custom devices and built-in kernels */
    default:
        return CL_INVALID_VALUE;
    }
}

/* ---- launches ---- */

/* What a launch command carries: the range, the arguments' bytes as they were at the
 * enqueue and the pointers to each, the buffers held alive, the kernel. */
struct launch {
    cl_kernel kernel;                 /* retained */
    cl2c_range range;
    cl_uint num_mems;
    cl_mem *mems;                     /* retained */
    void **argv;
    unsigned char *values;
    size_t *check_sizes;              /* a checking build's: each argument's buffer bytes */
    cl_mem *arg_mems;                 /* each argument's memory object, NULL for others */
};

/* What check.h's cl2c_check_sizes marks a buffer the kernel may not write with
 * (its CL2C_CHECK_READ_ONLY: the top bit). */
#define CHECK_READ_ONLY ((size_t)1 << (sizeof(size_t) * 8 - 1))

/* A checking build's findings of the launch just run: to the context's callback, or
 * else to stderr (as cl2c.Program warns). */
static void report_findings(cl_program p)
{
    const char *text = p->check_findings();
    if (!text || !*text)
        return;
    if (p->context->notify)
        p->context->notify(text, NULL, 0, p->context->notify_data);
    else
        fprintf(stderr, "cl2c: %s\n", text);
}

static void free_launch(void *work)
{
    struct launch *l = work;
    for (cl_uint i = 0; i < l->num_mems; i++)
        cl2c_mem_release(l->mems[i]);
    cl2c_kernel_release(l->kernel);
    free(l);
}

/* A buffer whose storage starts where the kernel's C may not read it runs on an aligned
 * copy: a CL_MEM_USE_HOST_PTR buffer keeps the host's pointer, which may be 16 bytes past
 * a line, and a kernel that reads a float16 * (or casts its float * to one) loads 64
 * aligned bytes at a time. OpenCL gives any buffer to any kernel, so the launch places
 * it (as the Python loader places arrays): every argument naming that buffer gets the
 * copy, written back where one of them may write. NULL where none needs it;
 * `*failed` where a copy could not be made. */
static void **place_buffers(struct launch *l, bool *failed)
{
    cl_uint n = l->kernel->num_args;
    const cl2c_arg_info *args = l->kernel->info->args;
    void **copies = NULL;
    *failed = false;
    for (cl_uint i = 0; i < n; i++) {
        cl_mem m = l->arg_mems[i];
        if (!m || args[i].kind != CL2C_ARG_BUFFER || args[i].align <= 1 ||
            (uintptr_t)m->data % args[i].align == 0)
            continue;
        if (!copies && !(copies = calloc(n, sizeof *copies))) {
            *failed = true;
            return NULL;
        }
        if (copies[i])
            continue;                     /* an earlier argument named it too */
        size_t align = args[i].align > CL2C_STORAGE_ALIGN ? args[i].align
                                                           : CL2C_STORAGE_ALIGN;
        void *copy = aligned_alloc(align, (m->size + align - 1) / align * align);
        if (!copy) {
            *failed = true;
            break;
        }
        memcpy(copy, m->data, m->size);
        for (cl_uint j = 0; j < n; j++)
            if (l->arg_mems[j] == m) {
                copies[j] = copy;
                memcpy(l->argv[j], &copy, sizeof copy);
            }
    }
    return copies;
}

/* After the launch: each copy back to its buffer where an argument naming it may
 * write (unless the copy failed, and the kernel did not run), then freed. */
static void unplace_buffers(struct launch *l, void **copies, bool write_back)
{
    cl_uint n = l->kernel->num_args;
    for (cl_uint i = 0; i < n; i++) {
        void *copy = copies[i];
        if (!copy)
            continue;
        bool writes = false;
        for (cl_uint j = i; j < n; j++)
            if (copies[j] == copy) {
                writes |= l->kernel->info->args[j].writes != 0;
                copies[j] = NULL;
            }
        if (write_back && writes)
            memcpy(l->arg_mems[i]->data, copy, l->arg_mems[i]->size);
        free(copy);
    }
    free(copies);
}

static void run_launch(struct cl2c_command *c)
{
    struct launch *l = c->work;
    if (l->range.global_size[0] == 0)
        return;                           /* a global size of 0 (2.1+): nothing to run */
    cl_program p = l->kernel->program;
    cl_uint n = l->kernel->num_args;
    bool failed;
    void **copies = place_buffers(l, &failed);
    if (failed) {
        if (copies)
            unplace_buffers(l, copies, false);
        c->status = CL_OUT_OF_HOST_MEMORY;
        return;
    }
    bool follow = l->check_sizes && p->check_written;   /* (what a checking launch reads) */
    if (l->check_sizes)
        p->check_sizes(l->check_sizes, n);
    if (follow) {
        unsigned char *maps[64] = {NULL};
        for (cl_uint i = 0; i < n && i < 64; i++)
            maps[i] = l->arg_mems[i] ? cl2c_written_map(l->arg_mems[i]) : NULL;
        p->check_written(maps, n < 64 ? n : 64);
    }
    int status = l->kernel->info->launch(&l->range, l->argv);
    if (copies)
        unplace_buffers(l, copies, true);
    /* what the launch wrote: a checking build set its bits; else each argument it may
     * write counts as written whole */
    for (cl_uint i = 0; i < n; i++) {
        cl_mem m = l->arg_mems[i];
        if (m && follow && i < 64 && m->type == CL_MEM_OBJECT_BUFFER)
            cl2c_written_recount(m);
        else if (m && l->kernel->info->args[i].writes)
            cl2c_written_by_kernel(m);
    }
    if (l->check_sizes) {
        report_findings(p);
        cl2c_shadows_after_launch(p);
    }
    c->status = status == CL2C_SUCCESS ? CL_SUCCESS : status < 0 ? status : CL_OUT_OF_RESOURCES;
}

static size_t max_item_size(unsigned d)
{
    static size_t sizes[3];
    static atomic_bool known;
    if (!atomic_load(&known)) {
        cl2c_clGetDeviceInfo(&cl2c_the_device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof sizes,
                             sizes, NULL);
        atomic_store(&known, true);
    }
    return sizes[d];
}

/* The spec's checks of an NDRange for kernel `k` (clEnqueueNDRangeKernel's errors). */
static cl_int check_range(cl_kernel k, cl_uint work_dim, const size_t *offset,
                          const size_t *global, const size_t *local, bool *empty)
{
    if (work_dim < 1 || work_dim > 3)
        return CL_INVALID_WORK_DIMENSION;
    if (!global)
        return CL_INVALID_GLOBAL_WORK_SIZE;
    const size_t *reqd = k->info->reqd_work_group_size;
    bool has_reqd = reqd[0] || reqd[1] || reqd[2];
    bool non_uniform = k->info->non_uniform && !k->program->uniform;
    size_t total = 1;
    *empty = false;
    for (cl_uint d = 0; d < work_dim; d++) {
        if (global[d] == 0) {
            if (cl2c_api_version() < 21)
                return CL_INVALID_GLOBAL_WORK_SIZE;
            *empty = true;                /* 2.1+: a launch of nothing succeeds */
        }
        if (offset && offset[d] + global[d] < offset[d])
            return CL_INVALID_GLOBAL_OFFSET;
        if (!local)
            continue;
        if (local[d] == 0 || (has_reqd && local[d] != reqd[d]))
            return CL_INVALID_WORK_GROUP_SIZE;
        if (!non_uniform && global[d] % local[d] != 0)
            return CL_INVALID_WORK_GROUP_SIZE;
        if (local[d] > max_item_size(d))
            return CL_INVALID_WORK_ITEM_SIZE;
        total *= local[d];
    }
    if (has_reqd && !local) {
        for (cl_uint d = 0; d < work_dim; d++)     /* the required size must fit */
            if (!non_uniform && global[d] % reqd[d] != 0)
                return CL_INVALID_WORK_GROUP_SIZE;
    }
    if (total > max_work_group_size())
        return CL_INVALID_WORK_GROUP_SIZE;
    return CL_SUCCESS;
}

static cl_int enqueue_kernel(cl_command_queue q, cl_kernel k, cl_command_type type,
                             cl_uint work_dim, const size_t *offset, const size_t *global,
                             const size_t *local, cl_uint num_waits, const cl_event *waits,
                             cl_event *event)
{
    cl_int err = cl2c_check_enqueue(q, 0, NULL);
    if (err != CL_SUCCESS)
        return err;
    if (!cl2c_is(k, CL2C_MAGIC_KERNEL))
        return CL_INVALID_KERNEL;
    if (k->program->context != q->context)
        return CL_INVALID_CONTEXT;
    bool empty;
    err = check_range(k, work_dim, offset, global, local, &empty);
    if (err != CL_SUCCESS)
        return err;
    if (k->unset)
        return CL_INVALID_KERNEL_ARGS;
    err = cl2c_check_wait_list(q->context, num_waits, waits);
    if (err != CL_SUCCESS)
        return err;
    if (local_bytes(k) > (cl2c_api_version() >= 30 ? CL2C_LOCAL_MEM_SIZE_30
                                                   : CL2C_LOCAL_MEM_SIZE_12))
        return CL_OUT_OF_RESOURCES;
    cl_uint n = k->num_args, buffers = 0;
    for (cl_uint i = 0; i < n; i++)
        buffers += k->mems[i] != NULL;
    /* one allocation: the struct, the buffers, the pointers, the values */
    size_t at_mems = (sizeof(struct launch) + 15) / 16 * 16;
    size_t at_argv = at_mems + buffers * sizeof(cl_mem);
    size_t at_values = (at_argv + n * sizeof(void *) + CL2C_STORAGE_ALIGN - 1) /
                       CL2C_STORAGE_ALIGN * CL2C_STORAGE_ALIGN;     /* as k->values */
    size_t at_sizes = (at_values + k->values_size + 15) / 16 * 16;
    bool checking = k->program->check_sizes != NULL;
    size_t at_arg_mems = at_sizes + (checking ? n * sizeof(size_t) : 0);
    size_t bytes = at_arg_mems + n * sizeof(cl_mem);
    struct launch *l = aligned_alloc(CL2C_STORAGE_ALIGN, (bytes / CL2C_STORAGE_ALIGN + 1) *
                                                         CL2C_STORAGE_ALIGN);
    struct cl2c_command *c = l ? cl2c_command_new(q, type, num_waits, waits) : NULL;
    if (!c) {
        free(l);
        return CL_OUT_OF_HOST_MEMORY;
    }
    l->kernel = k;
    atomic_fetch_add(&k->obj.refs, 1);
    l->range = cl2c_range_make(work_dim, global, local, offset);
    if (empty)
        l->range.global_size[0] = 0;
    l->mems = (cl_mem *)((char *)l + at_mems);
    l->argv = (void **)((char *)l + at_argv);
    l->values = (unsigned char *)l + at_values;
    l->check_sizes = checking ? (size_t *)((char *)l + at_sizes) : NULL;
    l->arg_mems = (cl_mem *)((char *)l + at_arg_mems);
    memset(l->arg_mems, 0, n * sizeof(cl_mem));
    if (checking)
        memset(l->check_sizes, 0, n * sizeof(size_t));
    memcpy(l->values, k->values, k->values_size);
    l->num_mems = 0;
    for (cl_uint i = 0; i < n; i++) {
        unsigned char *value = l->values + k->offsets[i];
        l->argv[i] = value;
        cl2c_arg_kind kind = k->info->args[i].kind;
        if (kind != CL2C_ARG_BUFFER && kind != CL2C_ARG_IMAGE)
            continue;
        cl_mem m = k->mems[i];
        /* a buffer is its storage, an image the description it carries */
        void *data = !m ? NULL : kind == CL2C_ARG_IMAGE ? (void *)m->image : (void *)m->data;
        memcpy(value, &data, sizeof data);
        if (checking)             /* a buffer's bytes, for the bounds checks */
            l->check_sizes[i] = !m || kind != CL2C_ARG_BUFFER ? 0
                : m->size | (m->flags & CL_MEM_READ_ONLY ? CHECK_READ_ONLY : 0);
        if (m) {
            atomic_fetch_add(&m->obj.refs, 1);
            l->mems[l->num_mems++] = m;
            l->arg_mems[i] = m;
        }
    }
    c->work = l;
    c->free_work = free_launch;
    c->run = run_launch;
    return cl2c_enqueue(c, event, false);
}

cl_int CL2C_API(clEnqueueNDRangeKernel)(cl_command_queue command_queue, cl_kernel kernel,
                                        cl_uint work_dim, const size_t *global_work_offset,
                                        const size_t *global_work_size,
                                        const size_t *local_work_size,
                                        cl_uint num_events_in_wait_list,
                                        const cl_event *event_wait_list, cl_event *event)
{
    return enqueue_kernel(command_queue, kernel, CL_COMMAND_NDRANGE_KERNEL, work_dim,
                          global_work_offset, global_work_size, local_work_size,
                          num_events_in_wait_list, event_wait_list, event);
}

cl_int CL2C_API(clEnqueueTask)(cl_command_queue command_queue, cl_kernel kernel,
                               cl_uint num_events_in_wait_list,
                               const cl_event *event_wait_list, cl_event *event)
{
    static const size_t one[1] = {1};
    return enqueue_kernel(command_queue, kernel, CL_COMMAND_TASK, 1, NULL, one, one,
                          num_events_in_wait_list, event_wait_list, event);
}
