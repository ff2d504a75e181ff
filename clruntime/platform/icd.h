/* cl2c's OpenCL platform library: what its files share. The object layouts, the
 * handle checks, the lock and the answers of the info queries.
 *
 * Every object starts with the loader's dispatch table pointer (cl_khr_icd: the ICD
 * loader calls through it) and a magic number that names its kind: a handle is checked
 * by that number before it is used, so a released or foreign handle gives the spec's
 * CL_INVALID_* code instead of a crash. A released object's memory stays ours (its
 * shell: cl2c_object_free), so a host that releases twice or uses a released handle
 * reads a dispatch table and a FREED magic, never memory that malloc gave away. */
#ifndef CL2C_ICD_H
#define CL2C_ICD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cl2c_entry_points.h"

/* The library exports only what the loader looks up by name; the rest is reached
 * through the dispatch table (and never clashes with libOpenCL's own clFoo). */
#define CL2C_EXPORT __attribute__((visibility("default")))

enum cl2c_magic {
    CL2C_MAGIC_PLATFORM = 0x6c326301, CL2C_MAGIC_DEVICE, CL2C_MAGIC_CONTEXT,
    CL2C_MAGIC_QUEUE, CL2C_MAGIC_MEM, CL2C_MAGIC_EVENT, CL2C_MAGIC_PROGRAM,
    CL2C_MAGIC_KERNEL, CL2C_MAGIC_SAMPLER,
    CL2C_MAGIC_FREED = 0x6c3263ff     /* what a released object's magic becomes */
};
#define CL2C_KINDS (CL2C_MAGIC_SAMPLER - CL2C_MAGIC_PLATFORM + 1)

/* The head of every object. */
struct cl2c_object {
    const struct cl2c_dispatch *dispatch;
    enum cl2c_magic magic;
    atomic_uint refs;
    enum cl2c_magic kind;             /* the magic it has alive: the shells it joins */
    struct cl2c_object *next_shell;   /* in its kind's shells, once released */
};

static inline bool cl2c_is(const void *handle, enum cl2c_magic magic)
{
    return handle != NULL && ((const struct cl2c_object *)handle)->magic == magic;
}

/* A new object of `kind`, `size` bytes (its struct, which starts with its cl2c_object):
 * zeroed, one reference; NULL when out of memory. */
void *cl2c_object_new(enum cl2c_magic kind, size_t size);
/* Drop a reference; true when it was the last (the caller frees what the object holds,
 * then calls cl2c_object_free). */
bool cl2c_object_release(struct cl2c_object *o);
/* Keep a released object (or one never handed out) as a shell: its magic FREED, its
 * dispatch pointer kept. Shells are reused by cl2c_object_new, oldest first, once a
 * kind has more than CL2C_SHELLS_KEPT of them: memory stays bounded by the most objects
 * alive at once, and a stale handle reads as released through that many releases. */
void cl2c_object_free(void *object);
#define CL2C_SHELLS_KEPT 64

/* ---- platform and device (platform.c, device.c) ---- */
struct _cl_platform_id { struct cl2c_object obj; };
struct _cl_device_id { struct cl2c_object obj; };
extern struct _cl_platform_id cl2c_the_platform;
extern struct _cl_device_id cl2c_the_device;
/* The OpenCL version served: 12 or 30 (CL2C_ICD_VERSION, read once). */
int cl2c_api_version(void);
cl_ulong cl2c_now_ns(void);
#define CL2C_MAKE_VERSION(major, minor, patch) \
    ((cl_version)(((major) << 22) | ((minor) << 12) | (patch)))
/* `names` (NULL-terminated) as cl_name_versions of version 1.0.0, at most `max`. */
size_t cl2c_name_versions(const char *const *names, cl_name_version *out, size_t max);

/* ---- contexts (context.c) ---- */
/* A destructor callback of a context or a memory object (one of the two set). */
struct cl2c_destructor {
    struct cl2c_destructor *next;
    cl2c_context_destructor_notify context_notify;
    cl2c_mem_notify mem_notify;
    void *user_data;
};

#define CL2C_MAX_CONTEXT_PROPERTIES 16
struct _cl_context {
    struct cl2c_object obj;
    cl_context_properties properties[CL2C_MAX_CONTEXT_PROPERTIES];
    cl_uint num_properties;          /* entries in properties, the 0 included; 0: none */
    cl2c_context_notify notify;
    void *notify_data;
    struct cl2c_destructor *destructors;
};
void cl2c_context_release(cl_context c);

/* ---- the lock: events' states and queues' lists change under it ---- */
extern pthread_mutex_t cl2c_lock;
extern pthread_cond_t cl2c_changed;   /* broadcast on every change of a state */
/* Which process made an object: a child of fork() has none of its parent's worker
 * threads, so the queues it inherits refuse commands (they would never run). */
extern unsigned cl2c_generation;

/* ---- events (event.c) ---- */
struct cl2c_event_callback {
    struct cl2c_event_callback *next;
    cl_int when;                      /* CL_SUBMITTED, CL_RUNNING or CL_COMPLETE */
    cl2c_event_notify notify;
    void *user_data;
};

struct _cl_event {
    struct cl2c_object obj;
    cl_context context;
    cl_command_queue queue;           /* NULL for a user event */
    cl_command_type type;
    cl_int status;                    /* under cl2c_lock */
    cl_ulong times[4];                /* queued, submit, start, end (ns) */
    struct cl2c_event_callback *callbacks;
};
cl_event cl2c_event_new(cl_context context, cl_command_queue queue, cl_command_type type,
                        cl_int status);
void cl2c_event_release(cl_event e);
/* Move an event to `status` (time-stamped) and call the callbacks it is due. Called
 * without the lock. */
void cl2c_event_set_status(cl_event e, cl_int status);
/* Check a wait list as every enqueue must: CL_SUCCESS or CL_INVALID_EVENT_WAIT_LIST
 * (CL_INVALID_CONTEXT where an event is of another context than `context`). */
cl_int cl2c_check_wait_list(cl_context context, cl_uint n, const cl_event *list);
/* Wait until every event is complete or failed; CL_SUCCESS or
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST. */
cl_int cl2c_wait(cl_uint n, const cl_event *list);

/* ---- memory objects (memory.c) ---- */
struct _cl_mem {
    struct cl2c_object obj;
    cl_context context;
    cl_mem_object_type type;
    cl_mem_flags flags;
    size_t size;
    void *host_ptr;                   /* CL_MEM_HOST_PTR: the USE_HOST_PTR pointer */
    unsigned char *data;              /* the storage (the host's for USE_HOST_PTR) */
    bool owns_data;
    cl_mem parent;                    /* a sub-buffer's buffer (retained) */
    size_t offset;                    /* a sub-buffer's origin in it */
    void **maps;                      /* the pointers mapped and not yet unmapped, */
    cl_uint map_count, map_room;      /* a pointer once a map (under cl2c_lock) */
    bool has_properties;              /* made with an (empty) property list */
    /* a buffer's (not a sub-buffer's) bytes that hold what something wrote, a bit a
     * byte, for checking builds' reads of uninitialized memory (written.c); NULL where
     * the host gave data or nothing was followed; unwritten: how many bits are 0 */
    unsigned char *written;
    size_t unwritten;
    struct cl2c_destructor *destructors;
    /* an image (image.c): its format, and its description as kernels take it (its
     * pixels are `data`, its pitches the image's own); NULL for a buffer */
    cl_image_format format;
    struct cl2c_image *image;
};
void cl2c_mem_release(cl_mem m);
/* A new memory object of `context` (retained) with `flags` and `size` bytes, no storage
 * yet; NULL when out of memory. */
cl_mem cl2c_mem_new(cl_context context, cl_mem_flags flags, size_t size);
/* m's storage: the host's memory (USE_HOST_PTR) or ``bytes`` of its own; false where
 * that memory cannot be had */
bool cl2c_mem_place(cl_mem m, void *host_ptr, size_t bytes);
/* ---- checking builds' idle shadows, within a budget over the programs (shadows.c) ---- */
void cl2c_shadows_after_launch(cl_program p);
void cl2c_shadows_forget(cl_program p);

/* ---- which bytes of buffers hold data (written.c) ---- */
/* Follow a new buffer's bytes, none written yet. */
void cl2c_written_follow(cl_mem m);
/* Bytes [at, at + n) of m (a buffer, a sub-buffer, or an image whose storage is a
 * buffer's: all of that buffer) now hold data. */
void cl2c_written_mark(cl_mem m, size_t at, size_t n);
/* The bytes [dst_at, dst_at + n) of dst hold data where src's [src_at, ...) do. */
void cl2c_written_copy(cl_mem src, size_t src_at, cl_mem dst, size_t dst_at, size_t n);
/* A kernel ran: buffers its `writes` arguments name count as written whole. */
void cl2c_written_by_kernel(cl_mem m);
/* m's bits from its first byte, for a checking launch to read and set (NULL: all
 * written); cl2c_written_recount after that launch. */
unsigned char *cl2c_written_map(cl_mem m);
void cl2c_written_recount(cl_mem m);

/* The spec's checks of a flags value (false: CL_INVALID_VALUE). */
bool cl2c_valid_mem_flags(cl_mem_flags flags);
#define CL2C_MEM_ACCESS_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define CL2C_MEM_HOST_ACCESS_FLAGS \
    (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)
#define CL2C_MEM_HOST_PTR_FLAGS \
    (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)

/* ---- samplers (sampler.c) ---- */
struct _cl_sampler {
    struct cl2c_object obj;
    cl_context context;               /* retained */
    cl_bool normalized_coords;
    cl_addressing_mode addressing_mode;
    cl_filter_mode filter_mode;
    cl_uint flags;                    /* the CLK_* flags a kernel's sampler_t holds */
    cl_sampler_properties properties[8];
    cl_uint num_properties;           /* entries given, the 0 included; 0: no list */
};

/* ---- SHA-256 (sha256.c): binaries' digests and the build cache's keys ---- */
struct cl2c_sha256 {
    uint32_t h[8];
    uint64_t length;
    unsigned char block[64];
    size_t used;
};
void cl2c_sha256_init(struct cl2c_sha256 *s);
void cl2c_sha256_update(struct cl2c_sha256 *s, const void *data, size_t n);
void cl2c_sha256_final(struct cl2c_sha256 *s, unsigned char digest[32]);

/* ---- program binaries (binary.c): cl2c/binary.py's format, read in C ---- */
/* Whether `data` is a whole, undamaged binary of this cl2c that can run here (the
 * format, the payload's sha256, the facts of build_facts.h, this CPU's flags); where
 * not, why, in `why` (of `room` bytes). */
bool cl2c_binary_usable(const unsigned char *data, size_t size, char *why, size_t room);
/* A section of a checked binary by its tag ("SHLB"), or NULL; its size in *n. */
const unsigned char *cl2c_binary_section(const unsigned char *data, size_t size,
                                         const char *tag, size_t *n);
/* A fact of its INFO section ("program_symbol") as a new string, or NULL. */
char *cl2c_binary_fact(const unsigned char *data, size_t size, const char *key);

/* ---- programs (program.c, build.c) ---- */
struct cl2c_program_info;

struct _cl_program {
    struct cl2c_object obj;
    cl_context context;
    char *source;                     /* NUL-terminated; NULL where none is known */
    unsigned char *binary;            /* the built or given program binary, or NULL */
    size_t binary_size;
    char *options;                    /* the last build's options */
    char *log;                        /* the last build's log */
    cl_build_status status;
    cl_program_binary_type binary_type;
    void *library;                    /* the binary's shared library, dlopen()ed */
    const struct cl2c_program_info *info;   /* its kernels (cl2c/host.h) */
    char *kernel_names;               /* "a;b" */
    /* a checking build's (-cl2c-check, CL2C_CHECK) entry points, else NULL: the
     * buffers' sizes before a launch (check.h's cl2c_check_sizes), its findings after */
    void (*check_sizes)(const size_t *sizes, unsigned n);
    const char *(*check_findings)(void);
    void (*check_written)(unsigned char *const *maps, unsigned n);  /* (may be NULL) */
    size_t (*check_idle_bytes)(void);  /* its shadows no launch holds (shadows.c; may be NULL) */
    void (*check_trim)(void);
    bool uniform;                     /* built with -cl-uniform-work-group-size */
    bool from_binary;                 /* made by clCreateProgramWithBinary */
    atomic_uint kernels;              /* kernels made from it and alive */
    atomic_bool building;
};
void cl2c_program_release(cl_program p);
/* Build `p` from its source or its binary: its status, log, binary and library set.
 * CL_SUCCESS, CL_BUILD_PROGRAM_FAILURE or CL_INVALID_BUILD_OPTIONS (build.c). */
cl_int cl2c_program_build(cl_program p, const char *options);
/* Build a compiled object's or a library's binary as a link of it alone (link.c):
 * CL_SUCCESS, CL_BUILD_PROGRAM_FAILURE or CL_INVALID_BUILD_OPTIONS. */
cl_int cl2c_program_link_alone(cl_program p, const char *options);
/* Load a usable binary's library into `p` (it takes `binary`); CL_SUCCESS or
 * CL_INVALID_BINARY / CL_BUILD_PROGRAM_FAILURE with the reason in the log. */
cl_int cl2c_program_load(cl_program p, unsigned char *binary, size_t size);
/* Append `text` to the build log. */
void cl2c_program_log(cl_program p, const char *text);
/* A new program of `context` (retained), nothing in it yet; NULL when out of memory. */
cl_program cl2c_program_new(cl_context context);
/* Forget a program's loaded library and kernels' names (before it is built again). */
void cl2c_program_unload(cl_program p);
/* A program's device list as the build entry points take it (`may_be_empty`: NULL and
 * 0 mean every device): CL_SUCCESS, CL_INVALID_VALUE or CL_INVALID_DEVICE. */
cl_int cl2c_check_devices(cl_uint n, const cl_device_id *devices, bool may_be_empty);

/* ---- the build cache (build.c) ---- */
/* Where the build decided by `texts` (n of them; `includes`: it may read files, so the
 * working directory counts too) is cached, in `path`, and its binary in *binary where
 * there is a usable one whose #included files are unchanged (else NULL). False where
 * there is no cache (CL2C_NO_CACHE, a library outside cl2c's cache). */
bool cl2c_cache_find(const char *const *texts, size_t n, bool includes, char path[4200],
                     unsigned char **binary, size_t *size);
/* The service wrote the entry at `path`: make it this user's alone. */
void cl2c_cache_written(const char *path);
/* Where the build whose entry is `path` failed before for the program's sake: its log
 * added to p's and `failure` or `bad_options` (as the service said then); else
 * CL_SUCCESS. */
cl_int cl2c_cache_failed(const char *path, cl_program p, cl_int failure, cl_int bad_options);

/* ---- the build service (build.c): python -m cl2c.build_service, a child process ---- */
/* A fresh private scratch folder (under $TMPDIR) in `dir`; false where none is made. */
bool cl2c_scratch_make(char dir[4096]);
/* Write `n` bytes as file `name` of the scratch folder. */
bool cl2c_scratch_write(const char *dir, const char *name, const void *data, size_t n);
/* Remove the scratch folder and its files. */
void cl2c_scratch_remove(const char *dir);
/* "--options=<options>", allocated (NULL when out of memory). */
char *cl2c_option_argument(const char *options);
/* Run the service with `args` (NULL-terminated; its log to `dir`/log, which is appended
 * to p's) and read the binary it wrote to `output` into *binary: CL_SUCCESS, or
 * `failure` (the program does not build, or the service did not run: the log says
 * why), or `bad_options` (the options are not valid). `keep_failures`: `output` is a
 * cache entry, and a failure for the program's sake is kept beside it
 * (cl2c_cache_failed finds it). */
cl_int cl2c_service(cl_program p, const char *dir, const char *const *args,
                    const char *output, bool keep_failures, cl_int failure,
                    cl_int bad_options, unsigned char **binary, size_t *size);

/* The build of `args` by the host's warm service (service.c), its stderr to `err`: the
 * service's exit status; -1 where it cannot serve (the caller runs a service of its own);
 * -2 where it died with the build (`why` says how). */
int cl2c_warm_build(const char *err, const char *const *args, char *why, size_t room);

/* ---- kernels (kernel.c) ---- */
struct cl2c_kernel_info;

struct _cl_kernel {
    struct cl2c_object obj;
    cl_program program;               /* retained */
    const struct cl2c_kernel_info *info;
    cl_uint num_args;
    cl_uint unset;                    /* arguments not set yet */
    size_t values_size;
    unsigned char *values;            /* every argument's bytes, at offsets[i] */
    size_t *offsets;
    cl_mem *mems;                     /* a buffer argument's object (NULL: a NULL buffer) */
    bool *set;
};
void cl2c_kernel_release(cl_kernel k);

/* ---- command queues (queue.c) ---- */
struct cl2c_command;
typedef void (*cl2c_run)(struct cl2c_command *c);

/* One enqueued command: what its run function needs, held alive by references. */
struct cl2c_command {
    struct cl2c_command *next;
    cl2c_run run;
    cl_event event;                   /* the command's own (one reference) */
    cl_uint num_waits;
    cl_event *waits;                  /* retained */
    cl_mem mem[2];                    /* retained (NULL where unused) */
    size_t offset[2], size;
    void *ptr;
    size_t origin[2][3], region[3], pitch[2][2];   /* rect copies: row, slice */
    unsigned char pattern[128];
    size_t pattern_size;
    void *work;                       /* what other commands carry (a kernel's launch) */
    void (*free_work)(void *work);
    cl_int status;                    /* run's outcome: a negative code fails the event */
};

struct _cl_command_queue {
    struct cl2c_object obj;
    cl_context context;
    cl_command_queue_properties properties;
    cl_queue_properties property_list[8];
    cl_uint num_property_list;        /* CL_QUEUE_PROPERTIES_ARRAY's entries */
    struct cl2c_command *head, *tail; /* under cl2c_lock */
    unsigned pending;                 /* enqueued and not yet complete */
    bool running_here;                /* a command runs on a host's thread */
    bool worker_busy;                 /* the worker runs a command */
    unsigned generation;              /* cl2c_generation when it was made */
    bool stopping;                    /* released: the worker frees it when idle */
    pthread_t worker;
};
void cl2c_queue_release(cl_command_queue q);
/* A command for `q` of `type`, its wait list retained; NULL when out of memory. */
struct cl2c_command *cl2c_command_new(cl_command_queue q, cl_command_type type,
                                      cl_uint num_waits, const cl_event *waits);
void cl2c_command_free(struct cl2c_command *c);
/* The command uses `m` (held until it is freed) as its mem[slot]. */
void cl2c_command_use(struct cl2c_command *c, int slot, cl_mem m);
/* The rect transfers' run functions (transfer.c), which images share: bytes of
 * origin[0] (pitches pitch[0]) of the source to origin[1] (pitch[1]) of the destination,
 * region[0] bytes by region[1] rows by region[2] slices. From mem[0] to ptr, from ptr to
 * mem[0], from mem[0] to mem[1]. */
void cl2c_run_read_rect(struct cl2c_command *c);
void cl2c_run_write_rect(struct cl2c_command *c);
void cl2c_run_copy_rect(struct cl2c_command *c);
/* Record a mapping of `m` at `p` (false: out of memory); take it back (false: none). */
bool cl2c_map_add(cl_mem m, void *p);
bool cl2c_map_drop(cl_mem m, void *p);
/* Queue it (the worker runs it when its wait list is complete); the event is handed
 * to the caller where `event` is not NULL; a blocking enqueue waits for it. */
cl_int cl2c_enqueue(struct cl2c_command *c, cl_event *event, bool blocking);
/* With cl2c_lock held: where `e`'s command is next on its queue, ready, and nothing of
 * that queue runs, run it on this thread (the lock is let go meanwhile) and return
 * true; else false. A host that waits for a command it just enqueued does not wait for
 * the worker to wake up. */
bool cl2c_run_here_locked(cl_event e);
/* Common checks of an enqueue: the queue, the wait list. */
cl_int cl2c_check_enqueue(cl_command_queue q, cl_uint n, const cl_event *waits);

/* ---- info queries ---- */
/* The spec's rule for every clGet*Info: copy `size` bytes of `value` where there is room,
 * report the size. */
cl_int cl2c_answer(void *param_value, size_t param_value_size,
                   size_t *param_value_size_ret, const void *value, size_t size);
#define CL2C_ANSWER(type, v) \
    do { type answer_ = (v); \
         return cl2c_answer(param_value, param_value_size, param_value_size_ret, \
                            &answer_, sizeof answer_); } while (0)
#define CL2C_ANSWER_STRING(s) \
    do { const char *answer_ = (s); \
         return cl2c_answer(param_value, param_value_size, param_value_size_ret, \
                            answer_, strlen(answer_) + 1); } while (0)
#define CL2C_ANSWER_ARRAY(ptr, bytes) \
    return cl2c_answer(param_value, param_value_size, param_value_size_ret, (ptr), (bytes))

/* An error through errcode_ret, for the creating entry points. */
static inline void *cl2c_fail(cl_int *errcode_ret, cl_int code)
{
    if (errcode_ret)
        *errcode_ret = code;
    return NULL;
}

#endif
