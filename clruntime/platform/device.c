/* The one device: the host CPU. clGetDeviceIDs, clGetDeviceInfo (the facts of
 * cl2c's device model, device_facts.h, and the machine's sizes read here), retain and
 * release (a root device: nothing to count), timers. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

#include "icd.h"
#include "device_facts.h"

struct _cl_device_id cl2c_the_device = {
    .obj = {.dispatch = &cl2c_dispatch, .magic = CL2C_MAGIC_DEVICE, .refs = 1,
            .kind = CL2C_MAGIC_DEVICE}};

size_t cl2c_name_versions(const char *const *names, cl_name_version *out, size_t max)
{
    size_t n = 0;
    for (; names[n] && n < max; n++) {
        memset(&out[n], 0, sizeof out[n]);
        out[n].version = CL2C_MAKE_VERSION(1, 0, 0);
        snprintf(out[n].name, sizeof out[n].name, "%s", names[n]);
    }
    return n;
}

/* Compute units: the threads a launch runs on (OpenMP's: OMP_NUM_THREADS where set,
 * else the CPUs this process may run on). */
static cl_uint compute_units(void)
{
    const char *env = getenv("OMP_NUM_THREADS");
    if (env && *env) {
        long n = strtol(env, NULL, 10);     /* "8,4": the outer level */
        if (n > 0)
            return (cl_uint)n;
    }
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return (cl_uint)CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (cl_uint)n : 1;
}

static cl_ulong memory;
static pthread_once_t memory_once = PTHREAD_ONCE_INIT;

static void read_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    memory = pages > 0 && page > 0 ? (cl_ulong)pages * (cl_ulong)page : (cl_ulong)1 << 30;
}

/* The machine's memory, read once (every clCreateBuffer asks for the limit). */
static cl_ulong global_mem_size(void)
{
    pthread_once(&memory_once, read_memory);
    return memory;
}

/* The spec's least CL_DEVICE_MAX_MEM_ALLOC_SIZE: a quarter of the memory, 128 MiB at
 * least. */
static cl_ulong max_alloc_size(void)
{
    cl_ulong quarter = global_mem_size() / 4, floor = (cl_ulong)128 << 20;
    return quarter > floor ? quarter : floor;
}

static long cache_fact(int name, long otherwise)
{
    long v = sysconf(name);
    return v > 0 ? v : otherwise;
}

/* MHz: the kernel's cpufreq maximum, else /proc/cpuinfo's current clock, else 0. */
static cl_uint clock_mhz(void)
{
    FILE *f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "r");
    unsigned long khz = 0;
    if (f) {
        if (fscanf(f, "%lu", &khz) != 1)
            khz = 0;
        fclose(f);
        if (khz)
            return (cl_uint)(khz / 1000);
    }
    f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return 0;
    char line[256];
    double mhz = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "cpu MHz : %lf", &mhz) == 1)
            break;
    fclose(f);
    return (cl_uint)mhz;
}

cl_int CL2C_API(clGetDeviceIDs)(cl_platform_id platform, cl_device_type device_type,
                                cl_uint num_entries, cl_device_id *devices,
                                cl_uint *num_devices)
{
    if (platform != NULL && platform != &cl2c_the_platform)
        return CL_INVALID_PLATFORM;
    const cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU |
        CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
    if (device_type != CL_DEVICE_TYPE_ALL && (device_type & ~known || device_type == 0))
        return CL_INVALID_DEVICE_TYPE;
    if ((num_entries == 0 && devices) || (!devices && !num_devices))
        return CL_INVALID_VALUE;
    if (!(device_type & (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_DEFAULT))) {
        if (num_devices)
            *num_devices = 0;
        return CL_DEVICE_NOT_FOUND;
    }
    if (devices)
        devices[0] = &cl2c_the_device;
    if (num_devices)
        *num_devices = 1;
    return CL_SUCCESS;
}

/* The facts both versions share. CL_INVALID_VALUE from here: not one of them. */
static cl_int common_info(cl_device_info param_name, size_t param_value_size,
                          void *param_value, size_t *param_value_size_ret, bool v30)
{
    const cl_bool fp16 = v30 ? CL2C_FP16_30 : CL2C_FP16_12;
    const cl_bool fp64 = v30 ? CL2C_FP64_30 : CL2C_FP64_12;
    const cl_bool fma = v30 ? CL2C_FAST_FMA_30 : CL2C_FAST_FMA_12;
    const size_t group = v30 ? CL2C_MAX_WORK_GROUP_SIZE_30 : CL2C_MAX_WORK_GROUP_SIZE_12;
    const cl_device_fp_config fp = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
        CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA |
        CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT;
    switch (param_name) {
    case CL_DEVICE_TYPE: CL2C_ANSWER(cl_device_type, CL_DEVICE_TYPE_CPU);
    case CL_DEVICE_VENDOR_ID: CL2C_ANSWER(cl_uint, 0);
    case CL_DEVICE_MAX_COMPUTE_UNITS: CL2C_ANSWER(cl_uint, compute_units());
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
        CL2C_ANSWER(cl_uint, CL2C_WORK_ITEM_DIMENSIONS);
    case CL_DEVICE_MAX_WORK_GROUP_SIZE: CL2C_ANSWER(size_t, group);
    case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
        size_t sizes[CL2C_WORK_ITEM_DIMENSIONS];
        for (int i = 0; i < CL2C_WORK_ITEM_DIMENSIONS; i++)
            sizes[i] = group;
        CL2C_ANSWER_ARRAY(sizes, sizeof sizes);
    }
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR: CL2C_ANSWER(cl_uint, CL2C_VECTOR_WIDTH_CHAR);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT: CL2C_ANSWER(cl_uint, CL2C_VECTOR_WIDTH_SHORT);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT: CL2C_ANSWER(cl_uint, CL2C_VECTOR_WIDTH_INT);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG: CL2C_ANSWER(cl_uint, CL2C_VECTOR_WIDTH_LONG);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT: CL2C_ANSWER(cl_uint, CL2C_VECTOR_WIDTH_FLOAT);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
        CL2C_ANSWER(cl_uint, fp64 ? CL2C_VECTOR_WIDTH_DOUBLE : 0);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
        CL2C_ANSWER(cl_uint, fp16 ? CL2C_VECTOR_WIDTH_HALF : 0);
    case CL_DEVICE_MAX_CLOCK_FREQUENCY: CL2C_ANSWER(cl_uint, clock_mhz());
    case CL_DEVICE_ADDRESS_BITS: CL2C_ANSWER(cl_uint, (cl_uint)(sizeof(void *) * 8));
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE: CL2C_ANSWER(cl_ulong, max_alloc_size());
    /* images: the limits of the device model (device_model.py) */
    case CL_DEVICE_IMAGE_SUPPORT: CL2C_ANSWER(cl_bool, CL_TRUE);
    case CL_DEVICE_MAX_READ_IMAGE_ARGS:
    case CL_DEVICE_MAX_WRITE_IMAGE_ARGS: CL2C_ANSWER(cl_uint, CL2C_MAX_IMAGE_ARGS);
    case CL_DEVICE_MAX_SAMPLERS: CL2C_ANSWER(cl_uint, CL2C_MAX_SAMPLERS);
    case CL_DEVICE_IMAGE2D_MAX_WIDTH:
    case CL_DEVICE_IMAGE2D_MAX_HEIGHT: CL2C_ANSWER(size_t, CL2C_IMAGE2D_MAX_SIZE);
    case CL_DEVICE_IMAGE3D_MAX_WIDTH:
    case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_DEPTH: CL2C_ANSWER(size_t, CL2C_IMAGE3D_MAX_SIZE);
    case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE: CL2C_ANSWER(size_t, CL2C_IMAGE_MAX_BUFFER_SIZE);
    case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE: CL2C_ANSWER(size_t, CL2C_IMAGE_MAX_ARRAY_SIZE);
    case CL_DEVICE_MAX_PARAMETER_SIZE: CL2C_ANSWER(size_t, CL2C_MAX_PARAMETER_SIZE);
    case CL_DEVICE_MEM_BASE_ADDR_ALIGN: CL2C_ANSWER(cl_uint, CL2C_STORAGE_ALIGN * 8);
    case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: CL2C_ANSWER(cl_uint, CL2C_STORAGE_ALIGN);
    case CL_DEVICE_SINGLE_FP_CONFIG:
        CL2C_ANSWER(cl_device_fp_config, fma ? fp : fp & ~(cl_device_fp_config)CL_FP_FMA);
    case CL_DEVICE_DOUBLE_FP_CONFIG: CL2C_ANSWER(cl_device_fp_config, fp64 ? fp : 0);
    case CL_DEVICE_HALF_FP_CONFIG:
        CL2C_ANSWER(cl_device_fp_config,
                    fp16 ? CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_DENORM : 0);
    case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
        CL2C_ANSWER(cl_device_mem_cache_type, CL_READ_WRITE_CACHE);
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
        CL2C_ANSWER(cl_uint, (cl_uint)cache_fact(_SC_LEVEL1_DCACHE_LINESIZE, 64));
    case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
        CL2C_ANSWER(cl_ulong, (cl_ulong)cache_fact(_SC_LEVEL2_CACHE_SIZE, 1 << 20));
    case CL_DEVICE_GLOBAL_MEM_SIZE: CL2C_ANSWER(cl_ulong, global_mem_size());
    case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: CL2C_ANSWER(cl_ulong, max_alloc_size());
    case CL_DEVICE_MAX_CONSTANT_ARGS: CL2C_ANSWER(cl_uint, 8);
    case CL_DEVICE_LOCAL_MEM_TYPE: CL2C_ANSWER(cl_device_local_mem_type, CL_GLOBAL);
    case CL_DEVICE_LOCAL_MEM_SIZE:
        CL2C_ANSWER(cl_ulong, v30 ? CL2C_LOCAL_MEM_SIZE_30 : CL2C_LOCAL_MEM_SIZE_12);
    case CL_DEVICE_ERROR_CORRECTION_SUPPORT: CL2C_ANSWER(cl_bool, CL_FALSE);
    case CL_DEVICE_HOST_UNIFIED_MEMORY: CL2C_ANSWER(cl_bool, CL_TRUE);
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION: CL2C_ANSWER(size_t, 1);
    case CL_DEVICE_ENDIAN_LITTLE:
        CL2C_ANSWER(cl_bool, __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__);
    case CL_DEVICE_AVAILABLE:
    case CL_DEVICE_COMPILER_AVAILABLE:
    case CL_DEVICE_LINKER_AVAILABLE: CL2C_ANSWER(cl_bool, CL_TRUE);
    case CL_DEVICE_EXECUTION_CAPABILITIES:
        CL2C_ANSWER(cl_device_exec_capabilities, CL_EXEC_KERNEL);
    case CL_DEVICE_QUEUE_PROPERTIES:
        CL2C_ANSWER(cl_command_queue_properties,
                    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
    case CL_DEVICE_NAME:
        CL2C_ANSWER_STRING(v30 ? CL2C_DEVICE_NAME_30 : CL2C_DEVICE_NAME_12);
    case CL_DEVICE_VENDOR: CL2C_ANSWER_STRING(CL2C_PLATFORM_VENDOR);
    case CL_DRIVER_VERSION: CL2C_ANSWER_STRING(CL2C_DRIVER_VERSION);
    case CL_DEVICE_PROFILE: CL2C_ANSWER_STRING("FULL_PROFILE");
    case CL_DEVICE_VERSION:
        CL2C_ANSWER_STRING(v30 ? CL2C_DEVICE_VERSION_30 : CL2C_DEVICE_VERSION_12);
    case CL_DEVICE_OPENCL_C_VERSION:
        /* a 3.0 device too answers the highest version that 1.x kernels build under
         * unchanged (spec 4.2), 1.2; CL_DEVICE_OPENCL_C_ALL_VERSIONS has the rest */
        CL2C_ANSWER_STRING(CL2C_OPENCL_C_VERSION_12);
    case CL_DEVICE_EXTENSIONS:
        CL2C_ANSWER_STRING(v30 ? CL2C_EXTENSIONS_30 : CL2C_EXTENSIONS_12);
    case CL_DEVICE_PLATFORM: CL2C_ANSWER(cl_platform_id, &cl2c_the_platform);
    case CL_DEVICE_BUILT_IN_KERNELS: CL2C_ANSWER_STRING("");
    case CL_DEVICE_PARENT_DEVICE: CL2C_ANSWER(cl_device_id, NULL);
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES: CL2C_ANSWER(cl_uint, 0);
    case CL_DEVICE_PARTITION_PROPERTIES:
    case CL_DEVICE_PARTITION_TYPE: CL2C_ANSWER(cl_device_partition_property, 0);
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN: CL2C_ANSWER(cl_device_affinity_domain, 0);
    case CL_DEVICE_REFERENCE_COUNT: CL2C_ANSWER(cl_uint, 1);
    case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC: CL2C_ANSWER(cl_bool, CL_TRUE);
    case CL_DEVICE_PRINTF_BUFFER_SIZE: CL2C_ANSWER(size_t, (size_t)1 << 20);
    case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:           /* in pixels: images.h reads pixels */
    case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT:    /* with memcpy (image.c) */
        CL2C_ANSWER(cl_uint, 1);
    }
    return CL_INVALID_VALUE;
}

/* OpenCL 2.0 to 3.0's queries, asked of a 3.0 device only. */
static cl_int info_30(cl_device_info param_name, size_t param_value_size,
                      void *param_value, size_t *param_value_size_ret)
{
    switch (param_name) {
    case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS: CL2C_ANSWER(cl_uint, CL2C_MAX_IMAGE_ARGS);
    case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE: CL2C_ANSWER(size_t, (size_t)64 << 10);
    case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
        CL2C_ANSWER(size_t, (size_t)1 << 20);
    case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
        CL2C_ANSWER(cl_command_queue_properties, 0);
    case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
    case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE: CL2C_ANSWER(cl_uint, 0);
    case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
    case CL_DEVICE_MAX_ON_DEVICE_EVENTS: CL2C_ANSWER(cl_uint, 0);
    case CL_DEVICE_SVM_CAPABILITIES: CL2C_ANSWER(cl_device_svm_capabilities, 0);
    case CL_DEVICE_MAX_PIPE_ARGS:
    case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
    case CL_DEVICE_PIPE_MAX_PACKET_SIZE: CL2C_ANSWER(cl_uint, 0);
    case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT: CL2C_ANSWER(cl_uint, 0);
    case CL_DEVICE_IL_VERSION: CL2C_ANSWER_STRING("");
    /* a sub-group is the whole work-group (README) */
    case CL_DEVICE_MAX_NUM_SUB_GROUPS: CL2C_ANSWER(cl_uint, 1);
    case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS: CL2C_ANSWER(cl_bool, CL_FALSE);
    case CL_DEVICE_NUMERIC_VERSION: CL2C_ANSWER(cl_version, CL2C_MAKE_VERSION(3, 0, 0));
    case CL_DEVICE_EXTENSIONS_WITH_VERSION: {
        cl_name_version list[64];
        size_t n = cl2c_name_versions(cl2c_extensions_30, list, 64);
        CL2C_ANSWER_ARRAY(list, n * sizeof list[0]);
    }
    case CL_DEVICE_OPENCL_C_FEATURES: {
        cl_name_version list[64];
        size_t n = cl2c_name_versions(cl2c_features_30, list, 64);
        for (size_t i = 0; i < n; i++)
            list[i].version = CL2C_MAKE_VERSION(3, 0, 0);
        CL2C_ANSWER_ARRAY(list, n * sizeof list[0]);
    }
    case CL_DEVICE_OPENCL_C_ALL_VERSIONS: {
        size_t n = sizeof cl2c_opencl_c_versions / sizeof cl2c_opencl_c_versions[0];
        cl_name_version list[8];
        for (size_t i = 0; i < n && i < 8; i++) {
            memset(&list[i], 0, sizeof list[i]);
            list[i].version = CL2C_MAKE_VERSION(cl2c_opencl_c_versions[i][0],
                                                cl2c_opencl_c_versions[i][1], 0);
            strcpy(list[i].name, "OpenCL C");
        }
        CL2C_ANSWER_ARRAY(list, n * sizeof list[0]);
    }
    case CL_DEVICE_ILS_WITH_VERSION:
    case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION: CL2C_ANSWER_ARRAY(NULL, 0);
    case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
    case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
        CL2C_ANSWER(cl_device_atomic_capabilities,
                    CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                    CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM |
                    CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | CL_DEVICE_ATOMIC_SCOPE_DEVICE |
                    CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES);
    case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT:
    case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
    case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT: CL2C_ANSWER(cl_bool, CL_TRUE);
    case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: CL2C_ANSWER(size_t, 1);
    case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
        CL2C_ANSWER(cl_device_device_enqueue_capabilities, 0);
    case CL_DEVICE_PIPE_SUPPORT: CL2C_ANSWER(cl_bool, CL_FALSE);
    /* none passed yet: the format's zero date, as PoCL reports */
    case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED: CL2C_ANSWER_STRING("v0000-01-01-00");
    }
    return CL_INVALID_VALUE;
}

cl_int CL2C_API(clGetDeviceInfo)(cl_device_id device, cl_device_info param_name,
                                 size_t param_value_size, void *param_value,
                                 size_t *param_value_size_ret)
{
    if (device != &cl2c_the_device)
        return CL_INVALID_DEVICE;
    bool v30 = cl2c_api_version() == 30;
    cl_int err = common_info(param_name, param_value_size, param_value,
                             param_value_size_ret, v30);
    if (err == CL_INVALID_VALUE && v30)
        err = info_30(param_name, param_value_size, param_value, param_value_size_ret);
    return err;
}

cl_int CL2C_API(clRetainDevice)(cl_device_id device)
{
    return device == &cl2c_the_device ? CL_SUCCESS : CL_INVALID_DEVICE;
}

cl_int CL2C_API(clReleaseDevice)(cl_device_id device)
{
    return device == &cl2c_the_device ? CL_SUCCESS : CL_INVALID_DEVICE;
}

cl_int CL2C_API(clCreateSubDevices)(cl_device_id in_device,
                                    const cl_device_partition_property *partition_properties,
                                    cl_uint num_entries, cl_device_id *out_devices,
                                    cl_uint *num_devices)
{
    (void)num_entries; (void)out_devices; (void)num_devices;
    if (in_device != &cl2c_the_device)
        return CL_INVALID_DEVICE;
    /* CL_DEVICE_PARTITION_PROPERTIES is empty: every partition is refused */
    (void)partition_properties;
    return CL_INVALID_VALUE;
}

cl_int CL2C_API(clGetHostTimer)(cl_device_id device, cl_ulong *host_timestamp)
{
    if (device != &cl2c_the_device)
        return CL_INVALID_DEVICE;
    if (!host_timestamp)
        return CL_INVALID_VALUE;
    *host_timestamp = cl2c_now_ns();
    return CL_SUCCESS;
}

cl_int CL2C_API(clGetDeviceAndHostTimer)(cl_device_id device, cl_ulong *device_timestamp,
                                         cl_ulong *host_timestamp)
{
    if (device != &cl2c_the_device)
        return CL_INVALID_DEVICE;
    if (!device_timestamp || !host_timestamp)
        return CL_INVALID_VALUE;
    *device_timestamp = *host_timestamp = cl2c_now_ns();
    return CL_SUCCESS;
}
