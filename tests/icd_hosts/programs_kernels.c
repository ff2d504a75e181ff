/* A C host program on the cl2c platform through the system's ICD loader: programs and
 * kernels. A build with a syntax error (its log has file:line:col), bad options, a good
 * program whose kernels take buffers, a NULL buffer, by-value vectors and structs and
 * __local memory, launched with offsets and with no local size, a task; the program's
 * binary loaded again (and a damaged one refused); the spec's error codes for bad
 * arguments. It checks every result and prints "ok" (or the first failure, exit 1); the
 * time of a build of a source built before goes to stderr. */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(cond) \
    do { if (!(cond)) { printf("FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond); exit(1); } } \
    while (0)
#define OK(call) CHECK((call) == CL_SUCCESS)
#define IS(code, call) \
    do { cl_int got_ = (call); if (got_ != (code)) { \
        printf("FAILED %s:%d: %s gave %d, not %d\n", __FILE__, __LINE__, #call, got_, code); \
        exit(1); } } while (0)

static const char *bad_source =
    "__kernel void broken(__global int *x)\n"
    "{\n"
    "    x[0] = 1 +;\n"
    "}\n";

static const char *good_source =
    "typedef struct { int add; float mul; } pair;\n"
    "__kernel void scale(__global float *out, __global const float *in, float4 k,\n"
    "                    pair p, __local float *tmp)\n"
    "{\n"
    "    size_t i = get_global_id(0), l = get_local_id(0);\n"
    "    tmp[l] = in[i];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    size_t o = get_local_size(0) - 1 - l;   /* a neighbour's value, through tmp */\n"
    "    out[i] = tmp[o] * p.mul + p.add + k.x + k.w;\n"
    "}\n"
    "__kernel void maybe(__global int *flag, __global int *out)\n"
    "{\n"
    "    out[get_global_id(0)] = flag ? flag[0] : -7;\n"
    "}\n";

static const char *warning_source =
    "#pragma OPENCL EXTENSION made_up_extension : enable\n"
    "__kernel void k(__global int *p) { p[0] = 1; }\n";

typedef struct { cl_int add; cl_float mul; } pair;

static cl_context ctx;
static cl_device_id device;
static cl_command_queue queue;

static char *build_log(cl_program p)
{
    size_t n = 0;
    OK(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n));
    char *log = malloc(n);
    OK(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, n, log, NULL));
    return log;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static cl_program from_source(const char *source)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    OK(err);
    return p;
}

/* Run `scale` of `p` on 64 items (groups of 16, an offset of 16) and check it. */
static void run_scale(cl_program p)
{
    enum { N = 96 };
    float in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = (float)i;
    cl_int err;
    cl_mem a = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    OK(err);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof out, NULL, &err);
    OK(err);
    float zero = 0;
    OK(clEnqueueFillBuffer(queue, b, &zero, sizeof zero, 0, sizeof out, 0, NULL, NULL));
    cl_kernel k = clCreateKernel(p, "scale", &err);
    OK(err);
    cl_float4 v = {{1.5f, 100, 100, 2.5f}};
    pair pr = {3, 2.0f};
    OK(clSetKernelArg(k, 0, sizeof b, &b));
    OK(clSetKernelArg(k, 1, sizeof a, &a));
    OK(clSetKernelArg(k, 2, sizeof v, &v));
    OK(clSetKernelArg(k, 3, sizeof pr, &pr));
    OK(clSetKernelArg(k, 4, 16 * sizeof(float), NULL));
    size_t offset = 16, global = 64, local = 16;
    cl_event done;
    OK(clEnqueueNDRangeKernel(queue, k, 1, &offset, &global, &local, 0, NULL, &done));
    /* arguments are taken at the enqueue: changing one now changes nothing queued */
    pr.add = 1000;
    OK(clSetKernelArg(k, 3, sizeof pr, &pr));
    OK(clReleaseKernel(k));            /* the queued launch keeps it alive */
    OK(clWaitForEvents(1, &done));
    cl_int status;
    OK(clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    CHECK(status == CL_COMPLETE);
    OK(clReleaseEvent(done));
    OK(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int i = 0; i < N; i++) {
        float want = 0;
        if (i >= 16 && i < 80) {
            int group = i / 16 * 16, l = i - group;
            want = in[group + 15 - l] * 2.0f + 3 + 1.5f + 2.5f;
        }
        CHECK(out[i] == want);
    }
    OK(clReleaseMemObject(a));
    OK(clReleaseMemObject(b));
}

int main(void)
{
    cl_platform_id platforms[8];
    cl_uint n;
    OK(clGetPlatformIDs(8, platforms, &n));
    cl_platform_id platform = NULL;
    for (cl_uint i = 0; i < n; i++) {
        char name[64];
        OK(clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, NULL));
        if (strcmp(name, "cl2c") == 0)
            platform = platforms[i];
    }
    CHECK(platform);
    OK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
    cl_int err;
    ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    OK(err);
    queue = clCreateCommandQueue(ctx, device, 0, &err);
    OK(err);

    /* a syntax error: CL_BUILD_PROGRAM_FAILURE, and the log says where */
    cl_program bad = from_source(bad_source);
    IS(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(bad, 1, &device, NULL, NULL, NULL));
    cl_build_status status;
    OK(clGetProgramBuildInfo(bad, device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status,
                             NULL));
    CHECK(status == CL_BUILD_ERROR);
    char *log = build_log(bad);
    CHECK(strstr(log, "program.cl:3:") && strstr(log, "error"));
    free(log);
    IS(CL_INVALID_PROGRAM_EXECUTABLE, (clCreateKernel(bad, "broken", &err), err));
    OK(clReleaseProgram(bad));

    /* warnings: in the log (from the cache too), silenced by -w, errors with -Werror */
    for (int twice = 0; twice < 2; twice++) {
        cl_program w = from_source(warning_source);
        OK(clBuildProgram(w, 0, NULL, "", NULL, NULL));
        log = build_log(w);
        CHECK(strstr(log, "program.cl:1:9: warning: unsupported OpenCL extension "
                          "'made_up_extension'"));
        free(log);
        OK(clReleaseProgram(w));
    }
    cl_program w = from_source(warning_source);
    OK(clBuildProgram(w, 0, NULL, "-w", NULL, NULL));
    log = build_log(w);
    if (strcmp(log, "") != 0)
        printf("the log of a build with -w: %s\n", log);
    CHECK(strcmp(log, "") == 0);
    free(log);
    IS(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(w, 0, NULL, "-Werror", NULL, NULL));
    log = build_log(w);
    CHECK(strstr(log, "program.cl:1:9: error:"));
    free(log);
    OK(clReleaseProgram(w));

    /* options no implementation knows: CL_INVALID_BUILD_OPTIONS */
    cl_program p = from_source(good_source);
    IS(CL_INVALID_BUILD_OPTIONS, clBuildProgram(p, 0, NULL, "-no-such-option", NULL, NULL));
    log = build_log(p);
    CHECK(strstr(log, "-no-such-option"));
    free(log);
    IS(CL_INVALID_VALUE, clBuildProgram(p, 1, NULL, NULL, NULL, NULL));
    IS(CL_INVALID_DEVICE, clBuildProgram(p, 1, (cl_device_id *)&ctx, NULL, NULL, NULL));

    /* the good program, with options hosts pass */
    const char *options = "-cl-kernel-arg-info -DUNUSED=1 -w -cl-mad-enable";
    OK(clBuildProgram(p, 1, &device, options, NULL, NULL));
    char text[256];
    OK(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_OPTIONS, sizeof text, text, NULL));
    CHECK(strcmp(text, options) == 0);
    size_t num_kernels;
    OK(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof num_kernels, &num_kernels, NULL));
    CHECK(num_kernels == 2);
    OK(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof text, text, NULL));
    CHECK(strcmp(text, "scale;maybe") == 0 || strcmp(text, "maybe;scale") == 0);
    run_scale(p);

    /* built before: from the cache, without the translator */
    double t0 = now();
    cl_program again = from_source(good_source);
    OK(clBuildProgram(again, 1, &device, options, NULL, NULL));
    fprintf(stderr, "cached clBuildProgram: %.2f ms\n", (now() - t0) * 1e3);
    run_scale(again);

    /* every kernel at once; a NULL buffer; a task */
    cl_kernel ks[2];
    cl_uint got;
    IS(CL_INVALID_VALUE, clCreateKernelsInProgram(again, 1, ks, &got));
    OK(clCreateKernelsInProgram(again, 2, ks, &got));
    CHECK(got == 2);
    IS(CL_INVALID_OPERATION, clBuildProgram(again, 0, NULL, NULL, NULL, NULL));
    cl_kernel maybe = NULL;
    for (int i = 0; i < 2; i++) {
        OK(clGetKernelInfo(ks[i], CL_KERNEL_FUNCTION_NAME, sizeof text, text, NULL));
        if (strcmp(text, "maybe") == 0)
            maybe = ks[i];
        else
            OK(clReleaseKernel(ks[i]));
    }
    CHECK(maybe);
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4 * sizeof(cl_int), NULL, &err);
    OK(err);
    cl_int flag_value = 42, results[4];
    cl_mem flag = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof flag_value, &flag_value, &err);
    OK(err);
    cl_mem none = NULL;
    OK(clSetKernelArg(maybe, 0, sizeof none, &none));
    OK(clSetKernelArg(maybe, 1, sizeof out, &out));
    size_t four = 4;
    OK(clEnqueueNDRangeKernel(queue, maybe, 1, NULL, &four, NULL, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof results, results, 0, NULL, NULL));
    for (int i = 0; i < 4; i++)
        CHECK(results[i] == -7);
    OK(clSetKernelArg(maybe, 0, sizeof flag, &flag));
    OK(clEnqueueTask(queue, maybe, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof results, results, 0, NULL, NULL));
    CHECK(results[0] == 42 && results[1] == -7);

    /* non-uniform work-groups: OpenCL C 2.0 and later, on a 3.0 device */
    char version[256];
    OK(clGetDeviceInfo(device, CL_DEVICE_VERSION, sizeof version, version, NULL));
    if (strncmp(version, "OpenCL 3.0", 10) == 0) {
        size_t ten = 10;
        for (int uniform = 0; uniform < 2; uniform++) {
            cl_program p3 = from_source(good_source);
            OK(clBuildProgram(p3, 0, NULL, uniform ? "-cl-std=CL3.0 -cl-uniform-work-group-size"
                                                   : "-cl-std=CL3.0", NULL, NULL));
            cl_kernel k3 = clCreateKernel(p3, "maybe", &err);
            OK(err);
            cl_mem wide_out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, ten * sizeof(cl_int), NULL,
                                             &err);
            OK(err);
            OK(clSetKernelArg(k3, 0, sizeof flag, &flag));
            OK(clSetKernelArg(k3, 1, sizeof wide_out, &wide_out));
            cl_int wide[10];
            if (uniform) {
                IS(CL_INVALID_WORK_GROUP_SIZE, clEnqueueNDRangeKernel(queue, k3, 1, NULL, &ten,
                                                                      &four, 0, NULL, NULL));
            } else {
                OK(clEnqueueNDRangeKernel(queue, k3, 1, NULL, &ten, &four, 0, NULL, NULL));
                OK(clEnqueueReadBuffer(queue, wide_out, CL_TRUE, 0, sizeof wide, wide, 0, NULL,
                                       NULL));
                for (int i = 0; i < 10; i++)
                    CHECK(wide[i] == 42);
            }
            OK(clReleaseMemObject(wide_out));
            OK(clReleaseKernel(k3));
            OK(clReleaseProgram(p3));
        }
    }

    /* options hosts pass: -D and -I in both spellings, -g, the linker's options */
    static const char *macro_source =
        "#ifdef NAME\n#define ONE 1\n#else\n#define ONE 0\n#endif\n"
        "__kernel void m(__global int *o) { o[0] = VALUE + X + ONE; }\n";
    cl_program pm = from_source(macro_source);
    OK(clBuildProgram(pm, 0, NULL, "-g -D NAME -D VALUE=3 -DX=4 -I . -I/tmp -create-library "
                      "-enable-link-options -cl-kernel-arg-info -Werror", NULL, NULL));
    cl_kernel km = clCreateKernel(pm, "m", &err);
    OK(err);
    OK(clSetKernelArg(km, 0, sizeof out, &out));
    OK(clEnqueueTask(queue, km, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof results, results, 0, NULL, NULL));
    CHECK(results[0] == 8);
    OK(clReleaseKernel(km));
    OK(clReleaseProgram(pm));

    /* argument info */
    cl_kernel_arg_address_qualifier space;
    OK(clGetKernelArgInfo(maybe, 1, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof space, &space, NULL));
    CHECK(space == CL_KERNEL_ARG_ADDRESS_GLOBAL);
    OK(clGetKernelArgInfo(maybe, 1, CL_KERNEL_ARG_NAME, sizeof text, text, NULL));
    CHECK(strcmp(text, "out") == 0);
    OK(clGetKernelArgInfo(maybe, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof text, text, NULL));
    CHECK(strcmp(text, "int*") == 0);
    IS(CL_INVALID_ARG_INDEX, clGetKernelArgInfo(maybe, 2, CL_KERNEL_ARG_NAME, sizeof text, text,
                                                NULL));

    /* bad arguments: the spec's codes */
    float f = 1;
    IS(CL_INVALID_ARG_INDEX, clSetKernelArg(maybe, 2, sizeof out, &out));
    IS(CL_INVALID_ARG_SIZE, clSetKernelArg(maybe, 1, 4, &out));
    IS(CL_INVALID_MEM_OBJECT, clSetKernelArg(maybe, 1, sizeof queue, &queue));
    IS(CL_INVALID_KERNEL, clSetKernelArg((cl_kernel)out, 0, sizeof out, &out));
    IS(CL_INVALID_KERNEL, clGetKernelInfo((cl_kernel)queue, CL_KERNEL_NUM_ARGS, 4, text, NULL));
    IS(CL_INVALID_WORK_DIMENSION, clEnqueueNDRangeKernel(queue, maybe, 0, NULL, &four, NULL, 0,
                                                         NULL, NULL));
    IS(CL_INVALID_WORK_DIMENSION, clEnqueueNDRangeKernel(queue, maybe, 4, NULL, &four, NULL, 0,
                                                         NULL, NULL));
    size_t three = 3;
    IS(CL_INVALID_WORK_GROUP_SIZE, clEnqueueNDRangeKernel(queue, maybe, 1, NULL, &four, &three,
                                                          0, NULL, NULL));
    size_t huge = 1 << 20, wide[2] = {64, 128};
    IS(CL_INVALID_WORK_ITEM_SIZE, clEnqueueNDRangeKernel(queue, maybe, 1, NULL, &huge, &huge,
                                                         0, NULL, NULL));
    IS(CL_INVALID_WORK_GROUP_SIZE, clEnqueueNDRangeKernel(queue, maybe, 2, NULL, wide, wide,
                                                          0, NULL, NULL));
    IS(CL_INVALID_GLOBAL_WORK_SIZE, clEnqueueNDRangeKernel(queue, maybe, 1, NULL, NULL, NULL, 0,
                                                           NULL, NULL));
    IS(CL_INVALID_KERNEL, clEnqueueNDRangeKernel(queue, NULL, 1, NULL, &four, NULL, 0, NULL,
                                                 NULL));
    IS(CL_INVALID_COMMAND_QUEUE, clEnqueueNDRangeKernel((cl_command_queue)maybe, maybe, 1, NULL,
                                                        &four, NULL, 0, NULL, NULL));
    cl_kernel fresh = clCreateKernel(again, "scale", &err);
    OK(err);
    IS(CL_INVALID_KERNEL_ARGS, clEnqueueNDRangeKernel(queue, fresh, 1, NULL, &four, NULL, 0,
                                                      NULL, NULL));
    IS(CL_INVALID_ARG_SIZE, clSetKernelArg(fresh, 2, sizeof f, &f));
    IS(CL_INVALID_ARG_VALUE, clSetKernelArg(fresh, 2, sizeof(cl_float4), NULL));
    IS(CL_INVALID_ARG_VALUE, clSetKernelArg(fresh, 4, 64, &f));
    IS(CL_INVALID_ARG_SIZE, clSetKernelArg(fresh, 4, 0, NULL));
    OK(clReleaseKernel(fresh));
    IS(CL_INVALID_KERNEL_NAME, (clCreateKernel(again, "nope", &err), err));
    IS(CL_INVALID_VALUE, (clCreateKernel(again, NULL, &err), err));
    IS(CL_INVALID_PROGRAM, (clCreateKernel((cl_program)ctx, "scale", &err), err));
    IS(CL_INVALID_VALUE, clGetProgramInfo(again, 0x7777, sizeof text, text, NULL));
    IS(CL_INVALID_DEVICE, clGetProgramBuildInfo(again, NULL, CL_PROGRAM_BUILD_LOG, 0, NULL,
                                                NULL));
    IS(CL_INVALID_VALUE, (clCreateProgramWithSource(ctx, 0, NULL, NULL, &err), err));
    const char *null_string[1] = {NULL};
    IS(CL_INVALID_VALUE, (clCreateProgramWithSource(ctx, 1, null_string, NULL, &err), err));
    IS(CL_INVALID_CONTEXT, (clCreateProgramWithSource((cl_context)queue, 1, &good_source, NULL,
                                                      &err), err));
    IS(CL_INVALID_PROGRAM, clBuildProgram((cl_program)ctx, 0, NULL, NULL, NULL, NULL));
    IS(CL_INVALID_VALUE, clBuildProgram(again, 0, NULL, NULL, NULL, text));
    IS(CL_INVALID_PROGRAM, clReleaseProgram(NULL));
    IS(CL_INVALID_PROGRAM, clRetainProgram((cl_program)queue));
    IS(CL_INVALID_KERNEL, clRetainKernel(NULL));
    IS(CL_INVALID_KERNEL, clReleaseKernel((cl_kernel)again));
    IS(CL_INVALID_VALUE, clGetProgramInfo(again, CL_PROGRAM_KERNEL_NAMES, 2, text, NULL));
    cl_program unbuilt = from_source(good_source);
    IS(CL_INVALID_PROGRAM_EXECUTABLE, clGetProgramInfo(unbuilt, CL_PROGRAM_NUM_KERNELS,
                                                       sizeof num_kernels, &num_kernels, NULL));
    IS(CL_INVALID_PROGRAM_EXECUTABLE, clCreateKernelsInProgram(unbuilt, 0, NULL, &got));
    size_t unbuilt_size = 1;
    OK(clGetProgramInfo(unbuilt, CL_PROGRAM_BINARY_SIZES, sizeof unbuilt_size, &unbuilt_size,
                        NULL));
    CHECK(unbuilt_size == 0);
    OK(clReleaseProgram(unbuilt));

    /* the binary: loaded again without the translator; damaged, refused */
    size_t size;
    OK(clGetProgramInfo(again, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
    CHECK(size > 64);
    unsigned char *binary = malloc(size);
    OK(clGetProgramInfo(again, CL_PROGRAM_BINARIES, sizeof binary, &binary, NULL));
    const unsigned char *bins[1] = {binary};
    cl_int binary_status = 1;
    cl_program loaded = clCreateProgramWithBinary(ctx, 1, &device, &size, bins, &binary_status,
                                                  &err);
    OK(err);
    CHECK(binary_status == CL_SUCCESS);
    OK(clBuildProgram(loaded, 0, NULL, NULL, NULL, NULL));
    run_scale(loaded);
    OK(clReleaseProgram(loaded));
    binary[size / 2] ^= 1;
    loaded = clCreateProgramWithBinary(ctx, 1, &device, &size, bins, &binary_status, &err);
    CHECK(loaded == NULL && err == CL_INVALID_BINARY && binary_status == CL_INVALID_BINARY);
    size_t short_size = 40;
    loaded = clCreateProgramWithBinary(ctx, 1, &device, &short_size, bins, &binary_status, &err);
    CHECK(loaded == NULL && err == CL_INVALID_BINARY);
    IS(CL_INVALID_VALUE, (clCreateProgramWithBinary(ctx, 1, &device, NULL, bins, NULL, &err),
                          err));
    IS(CL_INVALID_VALUE, (clCreateProgramWithBinary(ctx, 0, NULL, &size, bins, NULL, &err),
                          err));
    IS(CL_INVALID_DEVICE, (clCreateProgramWithBinary(ctx, 1, (cl_device_id *)&queue, &size,
                                                     bins, NULL, &err), err));
    size_t no_size = 0;
    IS(CL_INVALID_VALUE, (clCreateProgramWithBinary(ctx, 1, &device, &no_size, bins, NULL, &err),
                          err));
    free(binary);

    OK(clReleaseKernel(maybe));
    OK(clReleaseMemObject(out));
    OK(clReleaseMemObject(flag));
    OK(clReleaseProgram(again));
    OK(clReleaseProgram(p));
    OK(clReleaseCommandQueue(queue));
    OK(clReleaseContext(ctx));
    printf("ok\n");
    return 0;
}
