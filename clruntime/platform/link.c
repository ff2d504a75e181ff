/* Separate compilation: clCompileProgram and clLinkProgram, through the build service
 * (build.c) as clBuildProgram is.
 *
 * A compiled object is a program binary (cl2c/binary.py's format, INFO's kind=object)
 * holding its source with the headers embedded into it (input_headers, by the names
 * header_include_names gives them) and its options: the service checks the source
 * (errors show at compile time) and translates nothing. A library (-create-library)
 * holds the units of its inputs. Linking translates the units together into one
 * program (cl2c/link.py: each unit preprocessed alone, then one translation), and
 * loads it as clBuildProgram loads a build. The binaries are CL_PROGRAM_BINARIES, so a
 * compiled object goes through clCreateProgramWithBinary and links there. */
#define _GNU_SOURCE
#include <stdio.h>

#include "icd.h"
#include "build_facts.h"

/* Whether `p` is units to link: a compiled object or a library. */
static bool linkable(cl_program p)
{
    return p->binary && (p->binary_type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT ||
                         p->binary_type == CL_PROGRAM_BINARY_TYPE_LIBRARY);
}

/* Start a build of `p` with `options`: the log and status reset. */
static void begin(cl_program p, const char *options)
{
    cl2c_program_unload(p);
    free(p->options);
    free(p->log);
    p->log = NULL;
    p->options = strdup(options);
    p->status = CL_BUILD_IN_PROGRESS;
    free(p->binary);                   /* what it was built into before is gone */
    p->binary = NULL;
    p->binary_size = 0;
    p->binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
}

/* The embedded headers as the service reads them: each name and text ended by a NUL. */
static char *headers_file(cl_uint n, const cl_program *headers, const char **names,
                          size_t *size)
{
    size_t total = 0;
    for (cl_uint i = 0; i < n; i++)
        total += strlen(names[i]) + strlen(headers[i]->source) + 2;
    char *data = malloc(total ? total : 1), *at = data;
    for (cl_uint i = 0; data && i < n; i++) {
        at = stpcpy(at, names[i]) + 1;
        at = stpcpy(at, headers[i]->source) + 1;
    }
    *size = total;
    return data;
}

/* A cached binary's build log into p's. */
static void log_of(cl_program p, const unsigned char *binary, size_t size)
{
    size_t n;
    const unsigned char *blog = cl2c_binary_section(binary, size, CL2C_BINARY_TAG_BUILD_LOG, &n);
    char *text = blog && n ? strndup((const char *)blog, n) : NULL;
    if (text)
        cl2c_program_log(p, text);
    free(text);
}

/* The compile's cache entry (its path in `path`; false: no cache), and its binary where
 * one is there: the key is the source, options and embedded headers. */
static bool cached_compile(cl_program p, const char *options, cl_uint num_headers,
                           const cl_program *headers, const char **names, char path[4200],
                           unsigned char **binary, size_t *size)
{
    const char **texts = calloc(3 + 2 * (size_t)num_headers, sizeof *texts);
    if (!texts)
        return *binary = NULL, false;
    size_t n = 0;
    texts[n++] = "compile";
    texts[n++] = p->source;
    texts[n++] = options;
    for (cl_uint i = 0; i < num_headers; i++) {
        texts[n++] = names[i];
        texts[n++] = headers[i]->source;
    }
    bool cache = cl2c_cache_find(texts, n, true, path, binary, size);
    free(texts);
    return cache;
}

/* Whether a compile may read files (an #include of a file not among the embedded
 * headers): its failure is not kept, as a header may be mended. */
static bool reads_files(cl_program p, cl_uint num_headers, const cl_program *headers)
{
    bool reads = strstr(p->source, CL2C_CACHE_INCLUDE) != NULL;
    for (cl_uint i = 0; i < num_headers; i++)
        reads |= strstr(headers[i]->source, CL2C_CACHE_INCLUDE) != NULL;
    return reads;
}

static cl_int compile(cl_program p, const char *options, cl_uint num_headers,
                      const cl_program *headers, const char **names)
{
    char cached[4200];
    unsigned char *binary = NULL;
    size_t size = 0;
    bool cache = cached_compile(p, options, num_headers, headers, names, cached, &binary,
                                &size);
    cl_int failed = cache && !binary ? cl2c_cache_failed(cached, p, CL_COMPILE_PROGRAM_FAILURE,
                                                         CL_INVALID_COMPILER_OPTIONS)
                                     : CL_SUCCESS;
    if (failed != CL_SUCCESS)
        return failed;                 /* failed before: the same error and log at once */
    if (binary) {
        log_of(p, binary, size);
        p->binary = binary;
        p->binary_size = size;
        p->binary_type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
        return CL_SUCCESS;
    }
    char dir[4096];
    if (!cl2c_scratch_make(dir)) {
        cl2c_program_log(p, "cl2c: cannot make a temporary folder for the compile");
        return CL_COMPILE_PROGRAM_FAILURE;
    }
    char source[4200], scratch[4200], log[4200], header_arg[4200];
    snprintf(source, sizeof source, "%s/source.cl", dir);
    snprintf(scratch, sizeof scratch, "%s/object.bin", dir);
    snprintf(log, sizeof log, "--log=%s/log", dir);
    snprintf(header_arg, sizeof header_arg, "--headers=%s/headers", dir);
    const char *output = cache ? cached : scratch;
    char *header_data = headers_file(num_headers, headers, names, &size);
    char *opt = cl2c_option_argument(options);
    cl_int err = CL_OUT_OF_HOST_MEMORY;
    if (header_data && opt) {
        if (!cl2c_scratch_write(dir, "source.cl", p->source, strlen(p->source)) ||
                !cl2c_scratch_write(dir, "headers", header_data, size)) {
            cl2c_program_log(p, "cl2c: cannot write the source to a temporary folder");
            err = CL_COMPILE_PROGRAM_FAILURE;
        } else {
            const char *args[] = {"--compile", "--source", source, "--output", output, log,
                                  opt, "--filename=" CL2C_SOURCE_NAME,
                                  num_headers ? header_arg : NULL, NULL};
            err = cl2c_service(p, dir, args, output,
                               cache && !reads_files(p, num_headers, headers),
                               CL_COMPILE_PROGRAM_FAILURE, CL_INVALID_COMPILER_OPTIONS,
                               &binary, &size);
            if (err == CL_SUCCESS) {
                if (cache)
                    cl2c_cache_written(cached);
                p->binary = binary;
                p->binary_size = size;
                p->binary_type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
            }
        }
    }
    free(header_data);
    free(opt);
    cl2c_scratch_remove(dir);
    return err;
}

cl_int CL2C_API(clCompileProgram)(cl_program program, cl_uint num_devices,
                                  const cl_device_id *device_list, const char *options,
                                  cl_uint num_input_headers, const cl_program *input_headers,
                                  const char **header_include_names,
                                  cl2c_program_notify pfn_notify, void *user_data)
{
    if (!cl2c_is(program, CL2C_MAGIC_PROGRAM))
        return CL_INVALID_PROGRAM;
    cl_int err = cl2c_check_devices(num_devices, device_list, true);
    if (err != CL_SUCCESS)
        return err;
    if ((num_input_headers == 0) != (input_headers == NULL) ||
            (num_input_headers == 0) != (header_include_names == NULL))
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < num_input_headers; i++) {
        if (!header_include_names[i] || !*header_include_names[i])
            return CL_INVALID_VALUE;
        if (!cl2c_is(input_headers[i], CL2C_MAGIC_PROGRAM))
            return CL_INVALID_PROGRAM;
        if (input_headers[i]->from_binary || !input_headers[i]->source)
            return CL_INVALID_VALUE;   /* a header is a program made from its source */
    }
    if (!pfn_notify && user_data)
        return CL_INVALID_VALUE;
    if (program->from_binary || !program->source)
        return CL_INVALID_OPERATION;   /* no source to compile */
    if (atomic_load(&program->kernels) != 0)
        return CL_INVALID_OPERATION;   /* kernels are attached to the program */
    if (atomic_exchange(&program->building, true))
        return CL_INVALID_OPERATION;   /* another thread builds it now */
    begin(program, options ? options : "");
    err = compile(program, options ? options : "", num_input_headers, input_headers,
                  header_include_names);
    program->status = err == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
    atomic_store(&program->building, false);
    if (pfn_notify)
        pfn_notify(program, user_data);
    return err;
}

/* The link's cache entry (its path in `path`; false: no cache), and its binary where
 * one is there: the key is the options and each input binary's sha256. */
static bool cached_link(const char *options, cl_uint n, const cl_program *inputs,
                        char path[4200], unsigned char **binary, size_t *size)
{
    const char **texts = calloc(2 + (size_t)n, sizeof *texts);
    char (*digests)[65] = calloc(n, sizeof *digests);
    bool cache = false;
    *binary = NULL;
    if (texts && digests) {
        texts[0] = "link";
        texts[1] = options;
        for (cl_uint i = 0; i < n; i++) {
            struct cl2c_sha256 s;
            unsigned char digest[32];
            cl2c_sha256_init(&s);
            cl2c_sha256_update(&s, inputs[i]->binary, inputs[i]->binary_size);
            cl2c_sha256_final(&s, digest);
            for (int j = 0; j < 32; j++)
                snprintf(digests[i] + 2 * j, 3, "%02x", digest[j]);
            texts[2 + i] = digests[i];
        }
        cache = cl2c_cache_find(texts, 2 + (size_t)n, true, path, binary, size);
    }
    free(texts);
    free(digests);
    return cache;
}

/* A linked binary into `p`: a library's kept, an executable's loaded. */
static cl_int take_linked(cl_program p, unsigned char *binary, size_t size)
{
    char *kind = cl2c_binary_fact(binary, size, "kind");
    bool library = kind && strcmp(kind, "library") == 0;
    free(kind);
    if (library) {
        free(p->binary);
        p->binary = binary;
        p->binary_size = size;
        p->binary_type = CL_PROGRAM_BINARY_TYPE_LIBRARY;
        return CL_SUCCESS;
    }
    cl_int err = cl2c_program_load(p, binary, size);
    return err == CL_SUCCESS || err == CL_OUT_OF_HOST_MEMORY ? err : CL_LINK_PROGRAM_FAILURE;
}

/* Link `inputs` into `p`: an executable loaded, or a library's binary. */
static cl_int link_units(cl_program p, const char *options, cl_uint n,
                         const cl_program *inputs)
{
    char cached[4200];
    unsigned char *binary = NULL;
    size_t size = 0;
    bool cache = cached_link(options, n, inputs, cached, &binary, &size);
    cl_int failed = cache && !binary ? cl2c_cache_failed(cached, p, CL_LINK_PROGRAM_FAILURE,
                                                         CL_INVALID_LINKER_OPTIONS)
                                     : CL_SUCCESS;
    if (failed != CL_SUCCESS)
        return failed;                 /* failed before: the same error and log at once */
    if (binary) {
        log_of(p, binary, size);
        return take_linked(p, binary, size);
    }
    char dir[4096];
    if (!cl2c_scratch_make(dir)) {
        cl2c_program_log(p, "cl2c: cannot make a temporary folder for the link");
        return CL_LINK_PROGRAM_FAILURE;
    }
    char scratch[4200], log[4200];
    snprintf(scratch, sizeof scratch, "%s/program.bin", dir);
    snprintf(log, sizeof log, "--log=%s/log", dir);
    const char *output = cache ? cached : scratch;
    char *opt = cl2c_option_argument(options);
    const char **args = calloc(n + 6, sizeof *args);
    char **paths = calloc(n, sizeof *paths);
    cl_int err = opt && args && paths ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    size_t k = 0;
    if (err == CL_SUCCESS)
        args[k++] = "--link";
    for (cl_uint i = 0; err == CL_SUCCESS && i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "input%u.bin", i + 1);
        paths[i] = malloc(strlen(dir) + sizeof name + 1);
        if (!paths[i]) {
            err = CL_OUT_OF_HOST_MEMORY;
        } else if (!cl2c_scratch_write(dir, name, inputs[i]->binary, inputs[i]->binary_size)) {
            cl2c_program_log(p, "cl2c: cannot write an input to a temporary folder");
            err = CL_LINK_PROGRAM_FAILURE;
        } else {
            sprintf(paths[i], "%s/%s", dir, name);
            args[k++] = paths[i];
        }
    }
    if (err == CL_SUCCESS) {
        args[k++] = "--output";
        args[k++] = output;
        args[k++] = log;
        args[k++] = opt;
        /* a link reads only its inputs' binaries, which are in its key */
        err = cl2c_service(p, dir, args, output, cache, CL_LINK_PROGRAM_FAILURE,
                           CL_INVALID_LINKER_OPTIONS, &binary, &size);
        if (err == CL_SUCCESS) {
            if (cache)
                cl2c_cache_written(cached);
            err = take_linked(p, binary, size);
        }
    }
    for (cl_uint i = 0; paths && i < n; i++)
        free(paths[i]);
    free(paths);
    free(args);
    free(opt);
    cl2c_scratch_remove(dir);
    return err;
}

cl_int cl2c_program_link_alone(cl_program p, const char *options)
{
    cl_int err = link_units(p, options, 1, &p);
    if (err == CL_SUCCESS && p->binary_type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE) {
        cl2c_program_log(p, "cl2c: -create-library makes no executable");
        return CL_INVALID_BUILD_OPTIONS;
    }
    return err == CL_LINK_PROGRAM_FAILURE ? CL_BUILD_PROGRAM_FAILURE
         : err == CL_INVALID_LINKER_OPTIONS ? CL_INVALID_BUILD_OPTIONS : err;
}

cl_program CL2C_API(clLinkProgram)(cl_context context, cl_uint num_devices,
                                  const cl_device_id *device_list, const char *options,
                                  cl_uint num_input_programs, const cl_program *input_programs,
                                  cl2c_program_notify pfn_notify, void *user_data,
                                  cl_int *errcode_ret)
{
    if (!cl2c_is(context, CL2C_MAGIC_CONTEXT))
        return cl2c_fail(errcode_ret, CL_INVALID_CONTEXT);
    cl_int err = cl2c_check_devices(num_devices, device_list, true);
    if (err != CL_SUCCESS)
        return cl2c_fail(errcode_ret, err);
    if (num_input_programs == 0 || !input_programs)
        return cl2c_fail(errcode_ret, CL_INVALID_VALUE);
    if (!pfn_notify && user_data)
        return cl2c_fail(errcode_ret, CL_INVALID_VALUE);
    for (cl_uint i = 0; i < num_input_programs; i++)
        if (!cl2c_is(input_programs[i], CL2C_MAGIC_PROGRAM))
            return cl2c_fail(errcode_ret, CL_INVALID_PROGRAM);
    for (cl_uint i = 0; i < num_input_programs; i++)
        if (!linkable(input_programs[i]) || atomic_load(&input_programs[i]->building))
            return cl2c_fail(errcode_ret, CL_INVALID_OPERATION);   /* not compiled (yet) */
    cl_program p = cl2c_program_new(context);
    if (!p)
        return cl2c_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    begin(p, options ? options : "");
    err = link_units(p, options ? options : "", num_input_programs, input_programs);
    if (err == CL_INVALID_LINKER_OPTIONS || err == CL_OUT_OF_HOST_MEMORY) {
        cl2c_program_release(p);       /* the link could not begin: no program */
        return cl2c_fail(errcode_ret, err);
    }
    /* a link that began gives its program, failed or not: its log says why */
    p->status = err == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
    if (pfn_notify)
        pfn_notify(p, user_data);
    if (errcode_ret)
        *errcode_ret = err;
    return p;
}
