/* The platform: clGetPlatformIDs and clGetPlatformInfo, the three symbols the ICD loader
 * finds by name, and what every file shares (objects, the lock, info answers). */
#define _GNU_SOURCE
#include <stdio.h>
#include <time.h>

#include "icd.h"
#include "device_facts.h"

struct _cl_platform_id cl2c_the_platform = {
    .obj = {.dispatch = &cl2c_dispatch, .magic = CL2C_MAGIC_PLATFORM, .refs = 1,
            .kind = CL2C_MAGIC_PLATFORM}};

pthread_mutex_t cl2c_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cl2c_changed = PTHREAD_COND_INITIALIZER;
unsigned cl2c_generation;

static pthread_mutex_t shells_lock = PTHREAD_MUTEX_INITIALIZER;   /* the shells' lists */

/* fork(): the locks are taken around it, so that the child's copies are not ones that
 * a worker thread (which the child does not have) held at that moment. */
static void before_fork(void)
{
    pthread_mutex_lock(&cl2c_lock);
    pthread_mutex_lock(&shells_lock);
}

static void after_fork_in_parent(void)
{
    pthread_mutex_unlock(&shells_lock);
    pthread_mutex_unlock(&cl2c_lock);
}

static void after_fork_in_child(void)
{
    pthread_mutex_init(&shells_lock, NULL);
    pthread_mutex_init(&cl2c_lock, NULL);
    pthread_cond_init(&cl2c_changed, NULL);
    cl2c_generation++;
}

__attribute__((constructor)) static void install_fork_handlers(void)
{
    pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
}

/* Each kind's shells, oldest first (under shells_lock). */
static struct shells {
    struct cl2c_object *oldest, *newest;
    unsigned count;
} shells[CL2C_KINDS];

void *cl2c_object_new(enum cl2c_magic kind, size_t size)
{
    struct shells *kept = &shells[kind - CL2C_MAGIC_PLATFORM];
    struct cl2c_object *o = NULL;
    pthread_mutex_lock(&shells_lock);
    if (kept->count > CL2C_SHELLS_KEPT) {
        o = kept->oldest;
        kept->oldest = o->next_shell;
        kept->count--;
    }
    pthread_mutex_unlock(&shells_lock);
    if (o)
        memset(o, 0, size);           /* a kind's objects are all of one size */
    else if (!(o = calloc(1, size)))
        return NULL;
    o->dispatch = &cl2c_dispatch;
    o->magic = kind;
    o->kind = kind;
    atomic_init(&o->refs, 1);
    return o;
}

bool cl2c_object_release(struct cl2c_object *o)
{
    if (atomic_fetch_sub(&o->refs, 1) != 1)
        return false;
    o->magic = CL2C_MAGIC_FREED;
    return true;
}

void cl2c_object_free(void *object)
{
    struct cl2c_object *o = object;
    struct shells *kept = &shells[o->kind - CL2C_MAGIC_PLATFORM];
    o->magic = CL2C_MAGIC_FREED;
    o->next_shell = NULL;
    pthread_mutex_lock(&shells_lock);
    if (kept->count)
        kept->newest->next_shell = o;
    else
        kept->oldest = o;
    kept->newest = o;
    kept->count++;
    pthread_mutex_unlock(&shells_lock);
}

cl_int cl2c_answer(void *param_value, size_t param_value_size,
                   size_t *param_value_size_ret, const void *value, size_t size)
{
    if (param_value) {
        if (param_value_size < size)
            return CL_INVALID_VALUE;
        if (size)
            memcpy(param_value, value, size);
    }
    if (param_value_size_ret)
        *param_value_size_ret = size;
    return CL_SUCCESS;
}

static int api_version;
static pthread_once_t version_once = PTHREAD_ONCE_INIT;

/* CL2C_ICD_VERSION=3.0 serves OpenCL 3.0; anything else (and nothing) 1.2, so that
 * hosts take their 1.2 paths unless asked. */
static void read_version(void)
{
    const char *v = getenv("CL2C_ICD_VERSION");
    api_version = v && (strcmp(v, "3.0") == 0 || strcmp(v, "3") == 0) ? 30 : 12;
}

int cl2c_api_version(void)
{
    pthread_once(&version_once, read_version);
    return api_version;
}

cl_ulong cl2c_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (cl_ulong)t.tv_sec * 1000000000u + (cl_ulong)t.tv_nsec;
}

cl_int CL2C_API(clGetPlatformIDs)(cl_uint num_entries, cl_platform_id *platforms,
                                  cl_uint *num_platforms)
{
    if ((num_entries == 0 && platforms) || (!platforms && !num_platforms))
        return CL_INVALID_VALUE;
    if (platforms)
        platforms[0] = &cl2c_the_platform;
    if (num_platforms)
        *num_platforms = 1;
    return CL_SUCCESS;
}

CL2C_EXPORT cl_int clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms,
                                          cl_uint *num_platforms)
{
    return cl2c_clGetPlatformIDs(num_entries, platforms, num_platforms);
}

cl_int CL2C_API(clGetPlatformInfo)(cl_platform_id platform, cl_platform_info param_name,
                                   size_t param_value_size, void *param_value,
                                   size_t *param_value_size_ret)
{
    /* NULL: the implementation's choice of platform, and there is one */
    if (platform != NULL && platform != &cl2c_the_platform)
        return CL_INVALID_PLATFORM;
    bool v30 = cl2c_api_version() == 30;
    switch (param_name) {
    case CL_PLATFORM_PROFILE:
        CL2C_ANSWER_STRING("FULL_PROFILE");
    case CL_PLATFORM_VERSION:
        CL2C_ANSWER_STRING(v30 ? "OpenCL 3.0 cl2c " CL2C_VERSION
                               : "OpenCL 1.2 cl2c " CL2C_VERSION);
    case CL_PLATFORM_NAME:
        CL2C_ANSWER_STRING(CL2C_PLATFORM_NAME);
    case CL_PLATFORM_VENDOR:
        CL2C_ANSWER_STRING(CL2C_PLATFORM_VENDOR);
    case CL_PLATFORM_EXTENSIONS:
        CL2C_ANSWER_STRING(CL2C_PLATFORM_EXTENSIONS);
    case CL_PLATFORM_ICD_SUFFIX_KHR:
        CL2C_ANSWER_STRING(CL2C_ICD_SUFFIX);
    }
    if (v30) {
        switch (param_name) {
        case CL_PLATFORM_HOST_TIMER_RESOLUTION:
            CL2C_ANSWER(cl_ulong, 1);
        case CL_PLATFORM_NUMERIC_VERSION:
            CL2C_ANSWER(cl_version, CL2C_MAKE_VERSION(3, 0, 0));
        case CL_PLATFORM_EXTENSIONS_WITH_VERSION: {
            cl_name_version list[8];
            size_t n = cl2c_name_versions(cl2c_platform_extensions, list, 8);
            CL2C_ANSWER_ARRAY(list, n * sizeof list[0]);
        }
        }
    }
    return CL_INVALID_VALUE;
}

/* The loader's lookup of clGetPlatformInfo by name. */
CL2C_EXPORT cl_int clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
                                     size_t param_value_size, void *param_value,
                                     size_t *param_value_size_ret)
{
    return cl2c_clGetPlatformInfo(platform, param_name, param_value_size, param_value,
                                  param_value_size_ret);
}

void *CL2C_API(clGetExtensionFunctionAddressForPlatform)(cl_platform_id platform,
                                                         const char *function_name)
{
    if (platform != &cl2c_the_platform || function_name == NULL)
        return NULL;
    return cl2c_clGetExtensionFunctionAddress(function_name);
}

void *CL2C_API(clGetExtensionFunctionAddress)(const char *function_name)
{
    if (function_name && strcmp(function_name, "clIcdGetPlatformIDsKHR") == 0)
        return (void *)(uintptr_t)clIcdGetPlatformIDsKHR;
    return NULL;
}

CL2C_EXPORT void *clGetExtensionFunctionAddress(const char *function_name)
{
    return cl2c_clGetExtensionFunctionAddress(function_name);
}

cl_int CL2C_API(clUnloadCompiler)(void)
{
    return CL_SUCCESS;
}

cl_int CL2C_API(clUnloadPlatformCompiler)(cl_platform_id platform)
{
    return platform == &cl2c_the_platform ? CL_SUCCESS : CL_INVALID_PLATFORM;
}
