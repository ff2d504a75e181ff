/* A C host program on the cl2c platform through the system's ICD loader: buffers of each
 * flag, the transfers, map, user events, callbacks, markers and profiling; it checks every
 * result and prints "ok" (or the first failure, exit 1). Several threads enqueue at once
 * on their own queues of one context, to exercise the shared lock. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond) \
    do { if (!(cond)) { printf("FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond); exit(1); } } \
    while (0)
#define OK(call) CHECK((call) == CL_SUCCESS)

static cl_context ctx;
static cl_device_id device;
static atomic_int callbacks;

static void CL_CALLBACK on_complete(cl_event e, cl_int status, void *data)
{
    (void)e;
    CHECK(status == CL_COMPLETE);
    atomic_fetch_add(&callbacks, *(int *)data);
}

static void *worker(void *arg)
{
    int seed = (int)(size_t)arg;
    cl_int err;
    cl_command_queue q = clCreateCommandQueue(ctx, device, CL_QUEUE_PROFILING_ENABLE, &err);
    OK(err);
    enum { N = 1 << 14 };
    int *host = malloc(N * sizeof *host), *back = malloc(N * sizeof *back);
    for (int round = 0; round < 50; round++) {
        for (int i = 0; i < N; i++)
            host[i] = i * seed + round;
        cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                  N * sizeof *host, host, &err);
        OK(err);
        cl_mem b = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, N * sizeof *host, NULL, &err);
        OK(err);
        cl_event gate = clCreateUserEvent(ctx, &err);
        OK(err);
        cl_event copied, filled;
        OK(clEnqueueCopyBuffer(q, a, b, 0, 0, N * sizeof *host, 1, &gate, &copied));
        int pattern = -seed;
        OK(clEnqueueFillBuffer(q, b, &pattern, sizeof pattern, 0, 64 * sizeof pattern, 1,
                               &copied, &filled));
        int one = 1;
        OK(clSetEventCallback(filled, CL_COMPLETE, on_complete, &one));
        /* dropped by the host before they run: the queue holds them */
        OK(clReleaseMemObject(a));
        OK(clSetUserEventStatus(gate, CL_COMPLETE));
        OK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, N * sizeof *back, back, 0, NULL, NULL));
        for (int i = 0; i < N; i++)
            CHECK(back[i] == (i < 64 ? -seed : i * seed + round));
        int *mapped = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ, 256, 256, 0, NULL,
                                         NULL, &err);
        OK(err);
        CHECK(mapped[0] == 64 * seed + round);
        OK(clEnqueueUnmapMemObject(q, b, mapped, 0, NULL, NULL));
        cl_ulong start, end;
        OK(clWaitForEvents(1, &filled));
        OK(clGetEventProfilingInfo(filled, CL_PROFILING_COMMAND_START, sizeof start, &start,
                                   NULL));
        OK(clGetEventProfilingInfo(filled, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL));
        CHECK(start <= end);
        OK(clReleaseEvent(copied));
        OK(clReleaseEvent(filled));
        OK(clReleaseEvent(gate));
        OK(clReleaseMemObject(b));
    }
    OK(clFinish(q));
    OK(clReleaseCommandQueue(q));
    free(host);
    free(back);
    return NULL;
}

/* Phase two: the threads share one queue and one buffer, each writing its own slice and
 * waiting for its own commands (or finishing the queue: others' commands then run on
 * its thread too). */
static cl_command_queue shared_queue;
static cl_mem shared_buffer;
enum { SLICE = 1024, ROUNDS = 200 };

static void *sharer(void *arg)
{
    int t = (int)(size_t)arg;
    int values[SLICE], back[SLICE];
    for (int round = 0; round < ROUNDS; round++) {
        for (int i = 0; i < SLICE; i++)
            values[i] = t * 1000000 + round * 1000 + i;
        cl_event written;
        OK(clEnqueueWriteBuffer(shared_queue, shared_buffer, CL_FALSE, t * sizeof values,
                                sizeof values, values, 0, NULL, &written));
        if (round % 3 == 0)
            OK(clFinish(shared_queue));
        else
            OK(clWaitForEvents(1, &written));
        OK(clReleaseEvent(written));
        OK(clEnqueueReadBuffer(shared_queue, shared_buffer, CL_TRUE, t * sizeof back,
                               sizeof back, back, 0, NULL, NULL));
        CHECK(memcmp(back, values, sizeof back) == 0);
    }
    return NULL;
}

int main(void)
{
    cl_platform_id platforms[8];
    cl_uint n = 0;
    OK(clGetPlatformIDs(8, platforms, &n));
    cl_platform_id platform = NULL;
    for (cl_uint i = 0; i < n; i++) {
        char name[64];
        OK(clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, NULL));
        if (strcmp(name, "cl2c") == 0)
            platform = platforms[i];
    }
    CHECK(platform != NULL);
    char version[256];
    OK(clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof version, version, NULL));
    const char *want = getenv("CL2C_ICD_VERSION") ? "OpenCL 3.0 " : "OpenCL 1.2 ";
    CHECK(strncmp(version, want, strlen(want)) == 0);
    OK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, NULL));
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    cl_int err;
    ctx = clCreateContext(props, 1, &device, NULL, NULL, &err);
    OK(err);
    enum { THREADS = 4 };
    pthread_t threads[THREADS];
    for (size_t t = 0; t < THREADS; t++)
        CHECK(pthread_create(&threads[t], NULL, worker, (void *)(t + 1)) == 0);
    for (size_t t = 0; t < THREADS; t++)
        pthread_join(threads[t], NULL);
    /* the callbacks ran before the events they belong to completed */
    CHECK(atomic_load(&callbacks) == THREADS * 50);
    shared_queue = clCreateCommandQueue(ctx, device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                        &err);
    OK(err);
    shared_buffer = clCreateBuffer(ctx, CL_MEM_READ_WRITE, THREADS * SLICE * sizeof(int),
                                   NULL, &err);
    OK(err);
    for (size_t t = 0; t < THREADS; t++)
        CHECK(pthread_create(&threads[t], NULL, sharer, (void *)t) == 0);
    for (size_t t = 0; t < THREADS; t++)
        pthread_join(threads[t], NULL);
    OK(clReleaseMemObject(shared_buffer));
    OK(clReleaseCommandQueue(shared_queue));
    cl_uint refs;
    OK(clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    OK(clReleaseContext(ctx));
    printf("ok\n");
    return 0;
}
