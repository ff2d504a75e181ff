/* Separate compilation on an OpenCL platform named by argv[1] (the test runs it on cl2c
 * and on PoCL and compares what they print): clCompileProgram with embedded headers
 * (nested, in a folder), clLinkProgram of compiled objects and of a library
 * (-create-library), the binary types, a compiled object's binary through
 * clCreateProgramWithBinary and linked, the kernels' results, and the spec's error
 * codes. It prints one line a step; a line that starts with "FAILED" (a check of the
 * platform's own, such as the log's file:line:col on cl2c) fails the test. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond) \
    do { if (!(cond)) { printf("FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond); exit(1); } } \
    while (0)
#define OK(call) CHECK((call) == CL_SUCCESS)
#define IS(code, call) \
    do { cl_int got_ = (call); if (got_ != (code)) { \
        printf("FAILED %s:%d: %s gave %d, not %d\n", __FILE__, __LINE__, #call, got_, code); \
        exit(1); } } while (0)
/* the label first: a platform that crashes on a call is seen to */
#define SAY(label, call) do { printf("%s: ", label); printf("%d\n", (int)(call)); } while (0)

static cl_context ctx;
static cl_device_id device;
static cl_command_queue queue;
static int is_cl2c;

/* the kernel: calls a function of another unit, and a macro of an embedded header */
static const char *kernel_source =
    "#include \"h/my.h\"\n"
    "float twice(float x);\n"
    "__kernel void k(__global float *a)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    a[i] = twice(a[i]) + ADD;\n"
    "}\n";
static const char *my_h = "#include \"inner.h\"\n#define ADD (1.0f + INNER)\n";
static const char *inner_h = "#define INNER 2.0f\n";
static const char *helper_source =
    "#ifndef FACTOR\n#define FACTOR 2\n#endif\n"
    "float twice(float x) { return FACTOR * x; }\n";
static const char *header_error =
    "#define ADD 1.0f\nfloat broken(void) { return undeclared_name; }\n";

static cl_program from_source(const char *source)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    OK(err);
    return p;
}

static char *build_log(cl_program p)
{
    size_t n = 0;
    OK(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n));
    char *log = malloc(n);
    OK(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, n, log, NULL));
    return log;
}

static void show_types(const char *what, cl_program p)
{
    cl_program_binary_type type;
    cl_build_status status;
    OK(clGetProgramBuildInfo(p, device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, NULL));
    OK(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status,
                             NULL));
    printf("%s: binary type %#x, build status %d\n", what, (unsigned)type, status);
}

/* Compile the kernel's source with its headers. */
static cl_program compile_kernel(const char *options)
{
    cl_program p = from_source(kernel_source);
    cl_program headers[] = {from_source(my_h), from_source(inner_h)};
    const char *names[] = {"h/my.h", "h/inner.h"};
    OK(clCompileProgram(p, 1, &device, options, 2, headers, names, NULL, NULL));
    OK(clReleaseProgram(headers[0]));
    OK(clReleaseProgram(headers[1]));
    return p;
}

/* Run k of a linked program over 4 items, print the results. */
static void run(const char *what, cl_program p)
{
    if (!p)
        return;
    cl_int err;
    cl_kernel k = clCreateKernel(p, "k", &err);
    OK(err);
    float data[4] = {1, 2, 3, 4};
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof data,
                                data, &err);
    OK(err);
    OK(clSetKernelArg(k, 0, sizeof buf, &buf));
    size_t global = 4;
    OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL));
    printf("%s: %g %g %g %g\n", what, data[0], data[1], data[2], data[3]);
    OK(clReleaseMemObject(buf));
    OK(clReleaseKernel(k));
}

static unsigned char *binary_of(cl_program p, size_t *size)
{
    OK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof *size, size, NULL));
    CHECK(*size > 0);
    unsigned char *data = malloc(*size);
    OK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof data, &data, NULL));
    return data;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    const char *want = argc > 1 ? argv[1] : "cl2c";
    cl_platform_id platforms[8], platform = NULL;
    cl_uint n;
    OK(clGetPlatformIDs(8, platforms, &n));
    for (cl_uint i = 0; i < n; i++) {
        char name[128];
        OK(clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, NULL));
        if (strcmp(name, want) == 0)
            platform = platforms[i];
    }
    CHECK(platform);
    is_cl2c = strcmp(want, "cl2c") == 0;
    OK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
    cl_int err;
    ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    OK(err);
    queue = clCreateCommandQueue(ctx, device, 0, &err);
    OK(err);

    /* compile: objects, not executables */
    cl_program kernel = compile_kernel("-DUNUSED=1");
    show_types("compiled kernel", kernel);
    size_t count;
    printf("kernels of an object: %d\n",
           clGetProgramInfo(kernel, CL_PROGRAM_NUM_KERNELS, sizeof count, &count, NULL));
    clCreateKernel(kernel, "k", &err);
    printf("a kernel of an object: %d\n", err);
    cl_program helper = from_source(helper_source);
    OK(clCompileProgram(helper, 0, NULL, "-DFACTOR=3", 0, NULL, NULL, NULL, NULL));
    show_types("compiled helper", helper);

    /* link: an executable of the two */
    cl_program inputs[] = {kernel, helper};
    cl_program linked = clLinkProgram(ctx, 1, &device, "", 2, inputs, NULL, NULL, &err);
    printf("link: %d\n", err);
    show_types("linked", linked);
    OK(clGetProgramInfo(linked, CL_PROGRAM_NUM_KERNELS, sizeof count, &count, NULL));
    printf("kernels of the link: %zu\n", count);
    run("linked", linked);
    OK(clReleaseProgram(linked));

    /* a library of the helper, linked with the kernel */
    cl_program library = clLinkProgram(ctx, 0, NULL, "-create-library", 1, &helper, NULL,
                                       NULL, &err);
    printf("library: %d\n", err);
    show_types("library", library);
    inputs[1] = library;
    linked = clLinkProgram(ctx, 1, &device, "", 2, inputs, NULL, NULL, &err);
    printf("link with the library: %d\n", err);
    run("linked with the library", linked);
    if (linked)
        OK(clReleaseProgram(linked));

    /* a compiled object's binary, made a program again and linked */
    size_t size;
    unsigned char *data = binary_of(kernel, &size);
    cl_int status;
    const unsigned char *bins[] = {data};
    cl_program again = clCreateProgramWithBinary(ctx, 1, &device, &size, bins, &status, &err);
    printf("object from its binary: %d %d\n", err, status);
    show_types("object from its binary", again);
    SAY("compile of a binary",
        clCompileProgram(again, 0, NULL, "", 0, NULL, NULL, NULL, NULL));
    inputs[0] = again;
    inputs[1] = helper;
    linked = clLinkProgram(ctx, 0, NULL, NULL, 2, inputs, NULL, NULL, &err);
    printf("link of the binary: %d\n", err);
    run("linked from the binary", linked);
    OK(clReleaseProgram(linked));
    OK(clReleaseProgram(again));
    /* built alone, a compiled object is linked alone (the helper's: no kernels) */
    free(data);
    data = binary_of(helper, &size);
    bins[0] = data;
    again = clCreateProgramWithBinary(ctx, 1, &device, &size, bins, &status, &err);
    OK(err);
    printf("build of an object's binary: %d\n", clBuildProgram(again, 0, NULL, "", NULL, NULL));
    show_types("object's binary built", again);
    OK(clGetProgramInfo(again, CL_PROGRAM_NUM_KERNELS, sizeof count, &count, NULL));
    printf("its kernels: %zu\n", count);
    OK(clReleaseProgram(again));
    free(data);
    /* the library's binary too */
    data = binary_of(library, &size);
    bins[0] = data;
    again = clCreateProgramWithBinary(ctx, 1, &device, &size, bins, &status, &err);
    printf("library from its binary: %d %d\n", err, status);
    show_types("library from its binary", again);
    OK(clReleaseProgram(again));
    free(data);

    /* errors of clCompileProgram */
    cl_program p = from_source(kernel_source);
    cl_program header = from_source(my_h);
    const char *name = "h/my.h";
    if (is_cl2c)     /* (PoCL 3.1 crashes) */
        IS(CL_INVALID_VALUE, clCompileProgram(p, 0, NULL, "", 1, &header, NULL, NULL, NULL));
    if (is_cl2c) {   /* (PoCL 3.1 checks none of these: it crashes or compiles) */
        IS(CL_INVALID_VALUE, clCompileProgram(p, 0, NULL, "", 0, NULL, &name, NULL, NULL));
        IS(CL_INVALID_VALUE, clCompileProgram(p, 0, NULL, "", 1, NULL, &name, NULL, NULL));
        IS(CL_INVALID_VALUE, clCompileProgram(p, 0, NULL, "", 0, &header, NULL, NULL, NULL));
        const char *no_name = NULL;
        IS(CL_INVALID_VALUE, clCompileProgram(p, 0, NULL, "", 1, &header, &no_name, NULL,
                                              NULL));
        cl_program not_a_program = (cl_program)ctx;
        IS(CL_INVALID_PROGRAM, clCompileProgram(p, 0, NULL, "", 1, &not_a_program, &name,
                                                NULL, NULL));
        IS(CL_INVALID_PROGRAM, clCompileProgram(NULL, 0, NULL, "", 0, NULL, NULL, NULL,
                                                NULL));
    }
    SAY("user data without a callback",
        clCompileProgram(p, 0, NULL, "", 1, &header, &name, NULL, &n));
    SAY("devices without a count",
        clCompileProgram(p, 0, &device, "", 1, &header, &name, NULL, NULL));
    SAY("bad options",
        clCompileProgram(p, 0, NULL, "-no-such-option", 1, &header, &name, NULL, NULL));
    SAY("a missing header", clCompileProgram(p, 0, NULL, "", 0, NULL, NULL, NULL, NULL));
    show_types("after a missing header", p);
    cl_program bad = from_source(header_error);
    SAY("an error in a header",
        clCompileProgram(p, 0, NULL, "", 1, &bad, &name, NULL, NULL));
    if (is_cl2c) {
        char *log = build_log(p);
        CHECK(strstr(log, "h/my.h:2:29: error:") && strstr(log, "undeclared_name"));
        free(log);
    }
    OK(clReleaseProgram(bad));
    cl_program both[] = {header, from_source(inner_h)};
    const char *names[] = {name, "h/inner.h"};
    OK(clCompileProgram(p, 0, NULL, "", 2, both, names, NULL, NULL));
    show_types("compiled again", p);
    OK(clReleaseProgram(both[1]));
    OK(clReleaseProgram(header));

    /* errors of clLinkProgram */
    cl_program source_only = from_source(helper_source);
    inputs[0] = p;
    inputs[1] = source_only;
    SAY("link of a program not compiled",
        (clLinkProgram(ctx, 0, NULL, "", 2, inputs, NULL, NULL, &err), err));
    SAY("link of nothing",
        (clLinkProgram(ctx, 0, NULL, "", 0, NULL, NULL, NULL, &err), err));
    SAY("link with user data, no callback",
        (clLinkProgram(ctx, 0, NULL, "", 1, &p, NULL, &n, &err), err));
    SAY("link of no context",
        (clLinkProgram(NULL, 0, NULL, "", 1, &p, NULL, NULL, &err), err));
    cl_program failed = clLinkProgram(ctx, 0, NULL, "", 1, &p, NULL, NULL, &err);
    printf("link with a function undefined: %d, a program: %d\n", err, failed != NULL);
    if (failed) {
        show_types("failed link", failed);
        if (is_cl2c) {
            char *log = build_log(failed);
            CHECK(strstr(log, "program.cl:6:") && strstr(log, "twice"));
            free(log);
        }
        OK(clReleaseProgram(failed));
    }
    inputs[1] = helper;
    cl_program none = clLinkProgram(ctx, 0, NULL, "-no-such-option", 2, inputs, NULL, NULL,
                                    &err);
    printf("link with bad options: %d, a program: %d\n", err, none != NULL);

    OK(clReleaseProgram(source_only));
    OK(clReleaseProgram(p));
    OK(clReleaseProgram(library));
    OK(clReleaseProgram(helper));
    OK(clReleaseProgram(kernel));
    OK(clReleaseCommandQueue(queue));
    OK(clReleaseContext(ctx));
    printf("done\n");
    return 0;
}
