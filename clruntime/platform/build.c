/* clBuildProgram's work: a program binary from the build cache, or from cl2c's
 * translator through the build service (`python -m cl2c.build_service`, run as a child
 * process by the Python that installed cl2c: build_facts.h), then its library loaded.
 *
 * A child process, not an embedded interpreter: a translator bug (or a compiler that
 * crashes) ends the child, never the host; a C host needs no libpython; and a host that
 * is itself Python (PyOpenCL) keeps its interpreter to itself.
 *
 * The cache: a program built before, in any process, is found without starting Python.
 * Its key is the sha256 of what decides the build (the source, the options, cl2c's
 * version and its translator and runtime digests, the Python that builds, the
 * environment the translator reads; not the OpenCL version the device serves, which the translator never sees: a
 * program without -cl-std is OpenCL C 1.2 on both, and the binary's CPU is checked as
 * it is loaded); the binary is `<key>.bin` in `icd-programs/` of
 * cl2c's cache directory (the one this library was built in), written by the build
 * service, read back only when it is this user's alone and its sha256 and facts check
 * (binary.c). A source that #includes files has the working directory in its key,
 * and its binary the files' sha256 (DEPS), checked at each hit, as ccache's direct
 * mode and cl2c's own cache do: a changed header is built again. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "icd.h"
#include "build_facts.h"

extern char **environ;

/* The name the log's diagnostics give the source (build_facts.h). */
#define SOURCE_NAME CL2C_SOURCE_NAME

/* Exit statuses of the build service (cl2c/build_service.py). */
enum { SERVICE_BUILT = 0, SERVICE_FAILED = 1, SERVICE_BAD_OPTIONS = 4, SERVICE_TOOLCHAIN = 5 };

/* ---- files ---- */

static unsigned char *read_file(int fd, size_t *size)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return NULL;
    unsigned char *data = malloc(st.st_size ? (size_t)st.st_size : 1);
    size_t at = 0;
    while (data && at < (size_t)st.st_size) {
        ssize_t n = read(fd, data + at, (size_t)st.st_size - at);
        if (n <= 0) {
            free(data);
            return NULL;
        }
        at += (size_t)n;
    }
    *size = at;
    return data;
}

static char *read_text(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    size_t n = 0;
    unsigned char *data = read_file(fd, &n);
    close(fd);
    char *text = data ? realloc(data, n + 1) : NULL;
    if (text)
        text[n] = '\0';
    else
        free(data);
    return text;
}

/* ---- the cache ---- */

/* Where cached binaries go: icd-programs/ beside this library's folder in cl2c's cache
 * (found once); NULL where the library is not in cl2c's cache, where that folder is not
 * this user's alone, or with CL2C_NO_CACHE set. */
static char *cache_dir;

static void find_cache_dir(void)
{
    const char *off = getenv("CL2C_NO_CACHE");
    if (off && *off && strcmp(off, "0") != 0)
        return;
    Dl_info self;
    if (!dladdr((void *)find_cache_dir, &self) || !self.dli_fname || self.dli_fname[0] != '/')
        return;
    char path[4096];
    snprintf(path, sizeof path, "%s", self.dli_fname);
    /* <cache>/icd-<key>/libcl2c_icd.so (library.py): a library elsewhere (copied into
     * a system folder, a test's own build) has no cache */
    for (int up = 0; up < 2; up++) {
        char *slash = strrchr(path, '/');
        if (!slash || slash == path || (up == 1 && strncmp(slash, "/icd-", 5) != 0))
            return;
        *slash = '\0';
    }
    if (strlen(path) + sizeof "/icd-programs" > sizeof path)
        return;
    strcat(path, "/icd-programs");
    mkdir(path, 0700);
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
            (st.st_mode & 022))
        return;
    cache_dir = strdup(path);
}

static const char *programs_dir(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, find_cache_dir);
    return cache_dir;
}

static void hash_text(struct cl2c_sha256 *s, const char *text)
{
    cl2c_sha256_update(s, text ? text : "", text ? strlen(text) + 1 : 1);
}

/* The cache key of a build decided by `texts` (n of them: for clBuildProgram the
 * source and the options) here, as 64 hex digits: the scheme of
 * cl2c/platform/program_cache.py, which computes the same for clBuildProgram's.
 * `includes`: the build may read files (#include), so where relative paths start is
 * in the key too. */
static void cache_key(const char *const *texts, size_t n, bool includes, char key[65])
{
    static const char *const environment[] = {CL2C_CACHE_ENVIRONMENT, NULL};
    struct cl2c_sha256 s;
    unsigned char digest[32];
    cl2c_sha256_init(&s);
    hash_text(&s, CL2C_CACHE_SCHEME);
    for (size_t i = 0; i < n; i++)
        hash_text(&s, texts[i]);
    hash_text(&s, SOURCE_NAME);
    hash_text(&s, CL2C_BINARY_REQUIRE_CL2C);
    hash_text(&s, CL2C_BINARY_REQUIRE_TRANSLATOR);
    hash_text(&s, CL2C_BINARY_REQUIRE_RUNTIME);
    hash_text(&s, CL2C_BUILD_PYTHON);          /* whose compiler builds, without $CC */
    for (int i = 0; environment[i]; i++)
        hash_text(&s, getenv(environment[i]));
    /* the files it #includes are the binary's DEPS, checked at each hit */
    char cwd[4096];
    hash_text(&s, includes && getcwd(cwd, sizeof cwd) ? cwd : "");
    cl2c_sha256_final(&s, digest);
    for (int i = 0; i < 32; i++)
        snprintf(key + 2 * i, 3, "%02x", digest[i]);
}

/* The cached binary at `path` where it is this user's alone and usable; else NULL
 * (a bad one is removed: the build that follows replaces it). */
static unsigned char *cached_binary(const char *path, size_t *size)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    unsigned char *data = NULL;
    if (fstat(fd, &st) == 0 && st.st_uid == geteuid() && !(st.st_mode & 022))
        data = read_file(fd, size);
    close(fd);
    char why[256];
    if (data && !cl2c_binary_usable(data, *size, why, sizeof why)) {
        free(data);
        data = NULL;
        unlink(path);
    }
    return data;
}

/* Whether every file a cached binary's source #included (its DEPS: "sha256 path"
 * lines) still has the sha256 recorded: a changed one makes the entry stale. */
static bool dependencies_unchanged(const unsigned char *binary, size_t size)
{
    size_t n;
    const unsigned char *deps = cl2c_binary_section(binary, size, CL2C_BINARY_TAG_DEPENDENCIES,
                                                    &n);
    char *text = deps ? strndup((const char *)deps, n) : NULL;
    if (deps && !text)
        return false;
    bool same = true;
    for (char *line = text, *next; same && line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        char *path = strchr(line, ' ');
        if (!path || path - line != 64) {
            same = false;
            break;
        }
        *path++ = '\0';
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        size_t length = 0;
        unsigned char *data = fd >= 0 ? read_file(fd, &length) : NULL;
        if (fd >= 0)
            close(fd);
        char hex[65] = "";
        if (data) {
            struct cl2c_sha256 s;
            unsigned char digest[32];
            cl2c_sha256_init(&s);
            cl2c_sha256_update(&s, data, length);
            cl2c_sha256_final(&s, digest);
            for (int i = 0; i < 32; i++)
                snprintf(hex + 2 * i, 3, "%02x", digest[i]);
        }
        free(data);
        same = strcmp(hex, line) == 0;
    }
    free(text);
    return same;
}

bool cl2c_cache_find(const char *const *texts, size_t n, bool includes, char path[4200],
                     unsigned char **binary, size_t *size)
{
    const char *dir = programs_dir();
    *binary = NULL;
    if (!dir)
        return false;
    char key[65];
    cache_key(texts, n, includes, key);
    snprintf(path, 4200, "%s/%s.bin", dir, key);
    *binary = cached_binary(path, size);
    if (*binary && !dependencies_unchanged(*binary, *size)) {
        free(*binary);                 /* stale: built again, and replaced */
        *binary = NULL;
    }
    return true;
}

/* ---- failures in the cache ----
 * A build that fails for the program's sake (diagnostics, invalid options: the service's
 * statuses 1 and 4) fails the same way each time: it is kept beside where its binary
 * would be, as <key>.failed ("cl2c build failure", the status, then the log), so that it
 * fails again at once with the same log. Not a build that reads files (an #include: a
 * header may be mended), nor one the C compiler or the machine failed. */
static const char FAILURE_MAGIC[] = "cl2c build failure\n";

static void failure_path(const char *binary_path, char path[4200])
{
    snprintf(path, 4200, "%s", binary_path);
    char *dot = strrchr(path, '.');
    if (dot && strcmp(dot, ".bin") == 0 && (size_t)(dot - path) + sizeof ".failed" <= 4200)
        strcpy(dot, ".failed");
    else
        path[0] = '\0';
}

static void keep_failure(const char *binary_path, int status, const char *log)
{
    char path[4200], tmp[4300];
    failure_path(binary_path, path);
    if (!path[0])
        return;
    snprintf(tmp, sizeof tmp, "%s.XXXXXX", path);
    int fd = mkstemp(tmp);                  /* 0600: this user's alone */
    if (fd < 0)
        return;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        unlink(tmp);
        return;
    }
    bool written = fprintf(f, "%s%d\n%s", FAILURE_MAGIC, status, log ? log : "") >= 0;
    if (fclose(f) != 0 || !written || rename(tmp, path) != 0)
        unlink(tmp);
}

cl_int cl2c_cache_failed(const char *binary_path, cl_program p, cl_int failure,
                         cl_int bad_options)
{
    char path[4200];
    failure_path(binary_path, path);
    int fd = path[0] ? open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) : -1;
    if (fd < 0)
        return CL_SUCCESS;
    struct stat st;
    size_t n = 0;
    unsigned char *data = NULL;
    if (fstat(fd, &st) == 0 && st.st_uid == geteuid() && !(st.st_mode & 022))
        data = read_file(fd, &n);
    close(fd);
    char *text = data ? realloc(data, n + 1) : NULL;
    if (!text) {
        free(data);
        return CL_SUCCESS;
    }
    text[n] = '\0';
    cl_int err = CL_SUCCESS;
    size_t m = strlen(FAILURE_MAGIC);
    if (strncmp(text, FAILURE_MAGIC, m) == 0 && (text[m] == '0' + SERVICE_FAILED ||
            text[m] == '0' + SERVICE_BAD_OPTIONS) && text[m + 1] == '\n') {
        err = text[m] == '0' + SERVICE_FAILED ? failure : bad_options;
        if (text[m + 2])
            cl2c_program_log(p, text + m + 2);
    } else {
        unlink(path);                       /* damaged: the build that follows replaces it */
    }
    free(text);
    return err;
}

/* ---- the build service ---- */

/* Run the build service with `args` (NULL-terminated): the host's warm service
 * (service.c), or where it cannot serve, `python -c CL2C_CHILD_BOOT <the cl2c package's
 * folder> cl2c.build_service args...`, which runs the cl2c this library serves whatever
 * the working directory holds (cl2c/resources.py); its stderr to `dir`/stderr; its exit
 * status, or -1 where it did not run or died (the reason in `why`). */
static int run_service(const char *dir, const char *const *args, const char *output,
                       char *why, size_t room)
{
    char err[4200];
    snprintf(err, sizeof err, "%s/stderr", dir);
    int warm = cl2c_warm_build(err, args, why, room);      /* service.c */
    if (warm != -1)
        return warm == -2 ? -1 : warm;
    size_t n = 0;
    while (args[n])
        n++;
    char **argv = calloc(n + 6, sizeof *argv);
    if (!argv) {
        snprintf(why, room, "out of host memory");
        return -1;
    }
    argv[0] = (char *)CL2C_BUILD_PYTHON;
    argv[1] = (char *)"-c";
    argv[2] = (char *)CL2C_CHILD_BOOT;
    argv[3] = (char *)CL2C_PACKAGE_PARENT;
    argv[4] = (char *)"cl2c.build_service";
    for (size_t i = 0; i < n; i++)
        argv[5 + i] = (char *)args[i];
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&files, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&files, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    pid_t pid;
    int spawned = posix_spawn(&pid, CL2C_BUILD_PYTHON, &files, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&files);
    free(argv);
    if (spawned != 0) {
        snprintf(why, room, "cl2c: cannot start the translator (%s): %s", CL2C_BUILD_PYTHON,
                 strerror(spawned));
        return -1;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            /* the host reaps children itself (SIGCHLD ignored): the output says */
            return access(output, R_OK) == 0 ? SERVICE_BUILT : SERVICE_FAILED;
        }
    if (WIFSIGNALED(status)) {
        snprintf(why, room, "cl2c: the translator died of signal %d (a cl2c bug; please "
                 "report it with the kernel)", WTERMSIG(status));
        return -1;
    }
    return WEXITSTATUS(status);
}

void cl2c_cache_written(const char *path)
{
    chmod(path, 0600);      /* written under the host's umask: this user's alone */
}

bool cl2c_scratch_make(char dir[4096])
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, 4096, "%s/cl2c-build-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    return mkdtemp(dir) != NULL;
}

bool cl2c_scratch_write(const char *dir, const char *name, const void *data, size_t n)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return false;
    size_t at = 0;
    while (at < n) {
        ssize_t w = write(fd, (const char *)data + at, n - at);
        if (w <= 0)
            break;
        at += (size_t)w;
    }
    close(fd);
    return at == n;
}

void cl2c_scratch_remove(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[4200];
    while (d && (e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
    rmdir(dir);
}

cl_int cl2c_service(cl_program p, const char *dir, const char *const *args,
                    const char *output, bool keep_failures, cl_int failure,
                    cl_int bad_options, unsigned char **binary, size_t *size)
{
    char why[512] = "", path[4200];
    int status = run_service(dir, args, output, why, sizeof why);
    snprintf(path, sizeof path, "%s/log", dir);
    char *log = read_text(path);
    if (log && *log)
        cl2c_program_log(p, log);
    if (keep_failures && (status == SERVICE_FAILED || status == SERVICE_BAD_OPTIONS))
        keep_failure(output, status, log);
    free(log);
    if (status != SERVICE_BUILT && status != SERVICE_FAILED && status != SERVICE_BAD_OPTIONS &&
            status != SERVICE_TOOLCHAIN) {
        snprintf(path, sizeof path, "%s/stderr", dir);
        char *err = read_text(path);
        if (err && *err && !p->log)
            cl2c_program_log(p, err);
        free(err);
        if (*why)
            cl2c_program_log(p, why);
        else if (status > 0)
            cl2c_program_log(p, "cl2c: the translator failed (see above)");
    }
    if (status == SERVICE_BAD_OPTIONS)
        return bad_options;
    if (status != SERVICE_BUILT)
        return failure;
    int fd = open(output, O_RDONLY | O_CLOEXEC);
    *binary = fd >= 0 ? read_file(fd, size) : NULL;
    if (fd >= 0)
        close(fd);
    if (!*binary) {
        cl2c_program_log(p, "cl2c: the translator's binary cannot be read");
        return failure;
    }
    return CL_SUCCESS;
}

/* Build p's source through the service; the binary in *binary, or an error code with
 * the log said. */
static cl_int translate(cl_program p, const char *options, const char *cached_path,
                        bool keep_failures, unsigned char **binary, size_t *size)
{
    char dir[4096];
    if (!cl2c_scratch_make(dir)) {
        cl2c_program_log(p, "cl2c: cannot make a temporary folder for the build");
        return CL_BUILD_PROGRAM_FAILURE;
    }
    char source[4200], output[4200], log[4200];
    snprintf(source, sizeof source, "%s/source.cl", dir);
    snprintf(output, sizeof output, "%s/program.bin", dir);
    snprintf(log, sizeof log, "--log=%s/log", dir);
    const char *out = cached_path ? cached_path : output;
    char *opt = cl2c_option_argument(options);
    cl_int result = CL_OUT_OF_HOST_MEMORY;
    if (!cl2c_scratch_write(dir, "source.cl", p->source, strlen(p->source))) {
        cl2c_program_log(p, "cl2c: cannot write the source to a temporary folder");
        result = CL_BUILD_PROGRAM_FAILURE;
    } else if (opt) {
        const char *args[] = {"--source", source, "--output", out, log, opt,
                              "--filename=" SOURCE_NAME, NULL};
        result = cl2c_service(p, dir, args, out, cached_path && keep_failures,
                              CL_BUILD_PROGRAM_FAILURE, CL_INVALID_BUILD_OPTIONS, binary, size);
        if (result == CL_SUCCESS && cached_path)
            cl2c_cache_written(cached_path);
    }
    free(opt);
    cl2c_scratch_remove(dir);
    return result;
}

char *cl2c_option_argument(const char *options)
{
    size_t room = strlen(options) + sizeof "--options=";
    char *opt = malloc(room);
    if (opt)
        snprintf(opt, room, "--options=%s", options);
    return opt;
}

cl_int cl2c_program_build(cl_program p, const char *options)
{
    free(p->options);
    free(p->log);
    p->log = NULL;
    p->options = strdup(options);
    p->status = CL_BUILD_IN_PROGRESS;
    cl_int err;
    if (p->from_binary && p->binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE) {
        /* from a binary: its library, whatever the options (as the spec allows) */
        size_t n;
        const unsigned char *blog = cl2c_binary_section(p->binary, p->binary_size,
                                                        CL2C_BINARY_TAG_BUILD_LOG, &n);
        if (blog && n) {
            char *text = strndup((const char *)blog, n);
            if (text)
                cl2c_program_log(p, text);
            free(text);
        }
        err = cl2c_program_load(p, p->binary, p->binary_size);
    } else if (p->from_binary && (p->binary_type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT ||
                                  p->binary_type == CL_PROGRAM_BINARY_TYPE_LIBRARY)) {
        err = cl2c_program_link_alone(p, options);   /* as PoCL: linked on its own */
    } else if (!p->source) {
        err = CL_INVALID_BINARY;          /* a binary with neither library nor source */
        cl2c_program_log(p, "cl2c: the program binary holds neither a library nor a source");
    } else {
        char path[4200];
        unsigned char *binary = NULL;
        size_t size = 0;
        const char *texts[] = {p->source, options};
        bool includes = strstr(p->source, CL2C_CACHE_INCLUDE) != NULL;
        bool cached = cl2c_cache_find(texts, 2, includes, path, &binary, &size);
        if (!binary && cached &&
                (err = cl2c_cache_failed(path, p, CL_BUILD_PROGRAM_FAILURE,
                                         CL_INVALID_BUILD_OPTIONS)) != CL_SUCCESS) {
            /* failed before: the same error and log at once */
        } else if (binary) {
            size_t n;
            const unsigned char *blog = cl2c_binary_section(binary, size,
                                                            CL2C_BINARY_TAG_BUILD_LOG, &n);
            char *text = blog && n ? strndup((const char *)blog, n) : NULL;
            if (text)
                cl2c_program_log(p, text);
            free(text);
            err = CL_SUCCESS;
        } else {
            err = translate(p, options, cached ? path : NULL, !includes, &binary, &size);
        }
        if (err == CL_SUCCESS)
            err = cl2c_program_load(p, binary, size);
        else
            free(binary);
    }
    if (err != CL_SUCCESS) {
        p->status = CL_BUILD_ERROR;
        if (err == CL_INVALID_BINARY)
            err = CL_BUILD_PROGRAM_FAILURE;
    }
    return err;
}
