/* Programs: from source or from a cl2c program binary, retain/release, the info
 * queries, and loading a built binary's shared library (its kernels are what the
 * generated cl2c_program_info lists: cl2c/host.h). Building is build.c's. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "icd.h"
#include "build_facts.h"
#include <cl2c/host.h>

cl_program cl2c_program_new(cl_context context)
{
    cl_program p = cl2c_object_new(CL2C_MAGIC_PROGRAM, sizeof *p);
    if (!p)
        return NULL;
    p->context = context;
    atomic_fetch_add(&context->obj.refs, 1);
    p->status = CL_BUILD_NONE;
    p->binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
    return p;
}

void cl2c_program_unload(cl_program p)
{
    cl2c_shadows_forget(p);
    if (p->library)
        dlclose(p->library);
    p->library = NULL;
    p->info = NULL;
    p->check_sizes = NULL;
    p->check_written = NULL;
    p->check_findings = NULL;
    p->check_idle_bytes = NULL;
    p->check_trim = NULL;
    free(p->kernel_names);
    p->kernel_names = NULL;
}

void cl2c_program_release(cl_program p)
{
    if (!cl2c_object_release(&p->obj))
        return;
    cl2c_program_unload(p);
    free(p->source);
    free(p->binary);
    free(p->options);
    free(p->log);
    cl2c_context_release(p->context);
    cl2c_object_free(p);
}

/* A checking build's entry points (templates/metadata.c.j2: <symbol>_check_sizes and
 * <symbol>_check_findings), where the library has them. */
static void find_check_entries(cl_program p, void *handle, const char *symbol)
{
    char name[512];
    snprintf(name, sizeof name, "%s_check_sizes", symbol);
    *(void **)&p->check_sizes = dlsym(handle, name);
    snprintf(name, sizeof name, "%s_check_findings", symbol);
    *(void **)&p->check_findings = dlsym(handle, name);
    snprintf(name, sizeof name, "%s_check_written", symbol);
    *(void **)&p->check_written = dlsym(handle, name);
    snprintf(name, sizeof name, "%s_check_idle_bytes", symbol);
    *(void **)&p->check_idle_bytes = dlsym(handle, name);
    snprintf(name, sizeof name, "%s_check_trim", symbol);
    *(void **)&p->check_trim = dlsym(handle, name);
    if (!p->check_idle_bytes || !p->check_trim)
        p->check_idle_bytes = NULL, p->check_trim = NULL;
    if (!p->check_sizes || !p->check_findings)
        p->check_sizes = NULL, p->check_findings = NULL;
}

void cl2c_program_log(cl_program p, const char *text)
{
    size_t have = p->log ? strlen(p->log) : 0, add = strlen(text);
    char *log = realloc(p->log, have + add + 2);
    if (!log)
        return;
    memcpy(log + have, text, add + 1);
    if (add && text[add - 1] != '\n')
        strcpy(log + have + add, "\n");
    p->log = log;
}

cl_program CL2C_API(clCreateProgramWithSource)(cl_context context, cl_uint count,
                                              const char **strings, const size_t *lengths,
                                              cl_int *errcode_ret)
{
    if (!cl2c_is(context, CL2C_MAGIC_CONTEXT))
        return cl2c_fail(errcode_ret, CL_INVALID_CONTEXT);
    if (count == 0 || !strings)
        return cl2c_fail(errcode_ret, CL_INVALID_VALUE);
    size_t total = 0;
    for (cl_uint i = 0; i < count; i++) {
        if (!strings[i])
            return cl2c_fail(errcode_ret, CL_INVALID_VALUE);
        total += lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
    }
    cl_program p = cl2c_program_new(context);
    char *source = p ? malloc(total + 1) : NULL;
    if (!source) {
        if (p)
            cl2c_program_release(p);
        return cl2c_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    }
    size_t at = 0;
    for (cl_uint i = 0; i < count; i++) {
        size_t n = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
        memcpy(source + at, strings[i], n);
        at += n;
    }
    source[at] = '\0';
    p->source = source;
    if (errcode_ret)
        *errcode_ret = CL_SUCCESS;
    return p;
}

cl_int cl2c_check_devices(cl_uint n, const cl_device_id *devices, bool may_be_empty)
{
    if ((n == 0) != (devices == NULL) || (n == 0 && !may_be_empty))
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < n; i++)
        if (devices[i] != &cl2c_the_device)
            return CL_INVALID_DEVICE;
    return CL_SUCCESS;
}

/* What a usable binary holds: an executable (its library), a compiled object or a
 * library (units to link: INFO's kind), or neither (a source alone). */
static cl_program_binary_type binary_kind(const unsigned char *binary, size_t size)
{
    size_t n;
    char *kind = cl2c_binary_fact(binary, size, "kind");
    cl_program_binary_type type =
        kind && strcmp(kind, "object") == 0 ? CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT
        : kind && strcmp(kind, "library") == 0 ? CL_PROGRAM_BINARY_TYPE_LIBRARY
        : cl2c_binary_section(binary, size, CL2C_BINARY_TAG_LIBRARY_SHARED, &n)
            ? CL_PROGRAM_BINARY_TYPE_EXECUTABLE : CL_PROGRAM_BINARY_TYPE_NONE;
    free(kind);
    return type;
}

cl_program CL2C_API(clCreateProgramWithBinary)(cl_context context, cl_uint num_devices,
                                              const cl_device_id *device_list,
                                              const size_t *lengths,
                                              const unsigned char **binaries,
                                              cl_int *binary_status, cl_int *errcode_ret)
{
    if (!cl2c_is(context, CL2C_MAGIC_CONTEXT))
        return cl2c_fail(errcode_ret, CL_INVALID_CONTEXT);
    cl_int err = cl2c_check_devices(num_devices, device_list, false);
    if (err != CL_SUCCESS)
        return cl2c_fail(errcode_ret, err);
    if (!lengths || !binaries)
        return cl2c_fail(errcode_ret, CL_INVALID_VALUE);
    for (cl_uint i = 0; i < num_devices; i++)
        if (!lengths[i] || !binaries[i]) {
            if (binary_status)
                binary_status[i] = CL_INVALID_VALUE;
            return cl2c_fail(errcode_ret, CL_INVALID_VALUE);
        }
    /* one device: every entry names it, each binary is checked, the first kept */
    char why[256];
    bool all_usable = true;
    for (cl_uint i = 0; i < num_devices; i++) {
        bool usable = cl2c_binary_usable(binaries[i], lengths[i], why, sizeof why);
        if (binary_status)
            binary_status[i] = usable ? CL_SUCCESS : CL_INVALID_BINARY;
        all_usable &= usable;
    }
    if (!all_usable)
        return cl2c_fail(errcode_ret, CL_INVALID_BINARY);
    cl_program p = cl2c_program_new(context);
    unsigned char *copy = p ? malloc(lengths[0]) : NULL;
    if (!copy) {
        if (p)
            cl2c_program_release(p);
        return cl2c_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    }
    memcpy(copy, binaries[0], lengths[0]);
    p->binary = copy;
    p->binary_size = lengths[0];
    p->from_binary = true;
    size_t n;
    const unsigned char *src = cl2c_binary_section(copy, lengths[0], CL2C_BINARY_TAG_SOURCE, &n);
    if (src)
        p->source = strndup((const char *)src, n);
    p->binary_type = binary_kind(copy, lengths[0]);
    if (errcode_ret)
        *errcode_ret = CL_SUCCESS;
    return p;
}

cl_int CL2C_API(clRetainProgram)(cl_program program)
{
    if (!cl2c_is(program, CL2C_MAGIC_PROGRAM))
        return CL_INVALID_PROGRAM;
    atomic_fetch_add(&program->obj.refs, 1);
    return CL_SUCCESS;
}

cl_int CL2C_API(clReleaseProgram)(cl_program program)
{
    if (!cl2c_is(program, CL2C_MAGIC_PROGRAM))
        return CL_INVALID_PROGRAM;
    cl2c_program_release(program);
    return CL_SUCCESS;
}

cl_int CL2C_API(clBuildProgram)(cl_program program, cl_uint num_devices,
                                const cl_device_id *device_list, const char *options,
                                cl2c_program_notify pfn_notify, void *user_data)
{
    if (!cl2c_is(program, CL2C_MAGIC_PROGRAM))
        return CL_INVALID_PROGRAM;
    cl_int err = cl2c_check_devices(num_devices, device_list, true);
    if (err != CL_SUCCESS)
        return err;
    if (!pfn_notify && user_data)
        return CL_INVALID_VALUE;
    if (atomic_load(&program->kernels) != 0)
        return CL_INVALID_OPERATION;   /* kernels are attached to the program */
    if (atomic_exchange(&program->building, true))
        return CL_INVALID_OPERATION;   /* another thread builds it now */
    err = cl2c_program_build(program, options ? options : "");
    atomic_store(&program->building, false);
    if (pfn_notify)
        pfn_notify(program, user_data);
    return err;
}

/* dlopen() a library's bytes: written to a file of a fresh private folder, opened, and
 * removed. A name of its own each time: dlopen() takes a name it has loaded before for
 * that library, so a reused one (a memory file's /proc/self/fd/N, whose number comes
 * back once closed) would give an earlier program's kernels. */
static void *open_library(const unsigned char *bytes, size_t n, char *why, size_t room)
{
    static atomic_uint count;
    const char *tmp = getenv("TMPDIR");
    char dir[4096], path[4200];
    snprintf(dir, sizeof dir, "%s/cl2c-program-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        snprintf(why, room, "cannot make a temporary folder: %s", strerror(errno));
        return NULL;
    }
    snprintf(path, sizeof path, "%s/program%u.so", dir, atomic_fetch_add(&count, 1));
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0700);
    bool written = fd >= 0;
    for (size_t at = 0; written && at < n;) {
        ssize_t w = write(fd, bytes + at, n - at);
        written = w > 0;
        at += written ? (size_t)w : 0;
    }
    if (fd >= 0)
        close(fd);
    void *handle = written ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
    if (!handle)
        snprintf(why, room, "%s", written ? dlerror() : strerror(errno));
    unlink(path);
    rmdir(dir);
    return handle;
}

/* The OpenMP runtime that programs' libraries load stays loaded: its idle threads
 * would run unmapped code once the last program's dlclose() unloaded it (a crash at the
 * host's exit, after it released its programs). */
static void keep_openmp_runtime(void)
{
    static const char *const runtimes[] = {"libgomp.so.1", "libomp.so.5", "libomp.so",
                                           "libiomp5.so", NULL};
    for (int i = 0; runtimes[i]; i++)
        dlopen(runtimes[i], RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
}

/* The library of a usable binary, loaded. */
cl_int cl2c_program_load(cl_program p, unsigned char *binary, size_t size)
{
    cl2c_program_unload(p);
    if (p->binary != binary)
        free(p->binary);
    p->binary = binary;
    p->binary_size = size;
    size_t n;
    const unsigned char *lib = cl2c_binary_section(binary, size, CL2C_BINARY_TAG_LIBRARY_SHARED,
                                                   &n);
    char *symbol = cl2c_binary_fact(binary, size, "program_symbol");
    if (!lib || !symbol) {
        free(symbol);
        cl2c_program_log(p, "cl2c: the program binary holds no shared library (built "
                            "with --library extension?)");
        return CL_INVALID_BINARY;
    }
    char why[512];
    void *handle = open_library(lib, n, why, sizeof why);
    if (!handle) {
        char message[600];
        snprintf(message, sizeof message, "cl2c: the program's library does not load: %s", why);
        cl2c_program_log(p, message);
        free(symbol);
        return CL_BUILD_PROGRAM_FAILURE;
    }
    keep_openmp_runtime();
    const cl2c_program_info *info = dlsym(handle, symbol);
    find_check_entries(p, handle, symbol);
    free(symbol);
    if (!info) {
        dlclose(handle);
        cl2c_program_log(p, "cl2c: the program's library lacks its cl2c_program_info");
        return CL_INVALID_BINARY;
    }
    size_t names = 1;
    for (unsigned i = 0; i < info->num_kernels; i++)
        names += strlen(info->kernels[i]->name) + 1;
    p->kernel_names = calloc(1, names);
    if (!p->kernel_names) {
        dlclose(handle);
        return CL_OUT_OF_HOST_MEMORY;
    }
    for (unsigned i = 0; i < info->num_kernels; i++) {
        if (i)
            strcat(p->kernel_names, ";");
        strcat(p->kernel_names, info->kernels[i]->name);
    }
    /* OpenCL C 2.0's non-uniform work-groups, unless the options ask for uniform ones */
    const unsigned char *opts = cl2c_binary_section(binary, size, CL2C_BINARY_TAG_OPTIONS, &n);
    char *options = opts ? strndup((const char *)opts, n) : NULL;
    p->uniform = options && strstr(options, "-cl-uniform-work-group-size");
    free(options);
    p->library = handle;
    p->info = info;
    p->binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    p->status = CL_BUILD_SUCCESS;
    return CL_SUCCESS;
}

cl_int CL2C_API(clGetProgramInfo)(cl_program program, cl_program_info param_name,
                                  size_t param_value_size, void *param_value,
                                  size_t *param_value_size_ret)
{
    if (!cl2c_is(program, CL2C_MAGIC_PROGRAM))
        return CL_INVALID_PROGRAM;
    cl_program p = program;
    switch (param_name) {
    case CL_PROGRAM_REFERENCE_COUNT: CL2C_ANSWER(cl_uint, atomic_load(&p->obj.refs));
    case CL_PROGRAM_CONTEXT: CL2C_ANSWER(cl_context, p->context);
    case CL_PROGRAM_NUM_DEVICES: CL2C_ANSWER(cl_uint, 1);
    case CL_PROGRAM_DEVICES: CL2C_ANSWER(cl_device_id, &cl2c_the_device);
    case CL_PROGRAM_SOURCE: CL2C_ANSWER_STRING(p->source ? p->source : "");
    case CL_PROGRAM_IL:
        if (cl2c_api_version() < 21)
            return CL_INVALID_VALUE;
        CL2C_ANSWER_ARRAY(NULL, 0);
    case CL_PROGRAM_BINARY_SIZES: CL2C_ANSWER(size_t, p->binary ? p->binary_size : 0);
    case CL_PROGRAM_BINARIES: {
        /* an array of one pointer, to where the host wants the binary */
        if (param_value_size_ret)
            *param_value_size_ret = sizeof(unsigned char *);
        if (!param_value)
            return CL_SUCCESS;
        if (param_value_size < sizeof(unsigned char *))
            return CL_INVALID_VALUE;
        unsigned char *to = *(unsigned char **)param_value;
        if (to && p->binary)
            memcpy(to, p->binary, p->binary_size);
        return CL_SUCCESS;
    }
    case CL_PROGRAM_NUM_KERNELS:
        if (!p->info)
            return CL_INVALID_PROGRAM_EXECUTABLE;
        CL2C_ANSWER(size_t, p->info->num_kernels);
    case CL_PROGRAM_KERNEL_NAMES:
        if (!p->info)
            return CL_INVALID_PROGRAM_EXECUTABLE;
        CL2C_ANSWER_STRING(p->kernel_names);
    case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
    case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
        if (cl2c_api_version() < 22)
            return CL_INVALID_VALUE;
        CL2C_ANSWER(cl_bool, 0);
    default:
        return CL_INVALID_VALUE;
    }
}

cl_int CL2C_API(clGetProgramBuildInfo)(cl_program program, cl_device_id device,
                                       cl_program_build_info param_name,
                                       size_t param_value_size, void *param_value,
                                       size_t *param_value_size_ret)
{
    if (!cl2c_is(program, CL2C_MAGIC_PROGRAM))
        return CL_INVALID_PROGRAM;
    if (device != &cl2c_the_device)
        return CL_INVALID_DEVICE;
    cl_program p = program;
    switch (param_name) {
    case CL_PROGRAM_BUILD_STATUS: CL2C_ANSWER(cl_build_status, p->status);
    case CL_PROGRAM_BUILD_OPTIONS: CL2C_ANSWER_STRING(p->options ? p->options : "");
    case CL_PROGRAM_BUILD_LOG: CL2C_ANSWER_STRING(p->log ? p->log : "");
    case CL_PROGRAM_BINARY_TYPE: CL2C_ANSWER(cl_program_binary_type, p->binary_type);
    case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE:
        if (cl2c_api_version() < 20)
            return CL_INVALID_VALUE;
        CL2C_ANSWER(size_t, p->info ? p->info->globals_size : 0);
    default:
        return CL_INVALID_VALUE;
    }
}
