/* The warm build service: one `python -m cl2c.build_service --serve` a host process,
 * kept between its builds, so that Python's start and the translator's imports (most of
 * a small program's first build) are paid once, not at every clBuildProgram.
 *
 * It stays a child process (build.c says why): a translator that dies ends the service,
 * never the host, and the next build starts another. It talks over a socket pair (no
 * SIGPIPE where it died: MSG_NOSIGNAL), which is its standard input; the host's end is
 * close-on-exec. It is this process's alone: after a fork the child starts its own. The
 * environment is the one it started with, so a build whose environment differs (the
 * cache key reads it: CC, CFLAGS, CL2C_*) starts a new one. A build that finds it busy
 * (another thread's) runs a service of its own, as every build did before.
 * CL2C_ICD_WARM_BUILDS=0 turns it off. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "icd.h"
#include "build_facts.h"

extern char **environ;

#define RETIRING (1 << 16)      /* build_service.RETIRING */

static pthread_mutex_t service_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    pid_t pid, owner;           /* the service, and the process that started it */
    int fd;                     /* the host's end of the socket pair */
    unsigned char environment[32];
} service = {.fd = -1};

bool cl2c_warm_builds(void)
{
    const char *v = getenv("CL2C_ICD_WARM_BUILDS");
    return !(v && strcmp(v, "0") == 0);
}

static void environment_digest(unsigned char digest[32])
{
    struct cl2c_sha256 s;
    cl2c_sha256_init(&s);
    for (char **e = environ; *e; e++)
        cl2c_sha256_update(&s, *e, strlen(*e) + 1);
    cl2c_sha256_final(&s, digest);
}

/* End the service: its input closed, it ends; reaped where it was this process's. */
static void stop(void)
{
    if (service.owner == getpid()) {
        close(service.fd);
        while (waitpid(service.pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    service.fd = -1;
    service.pid = service.owner = 0;
}

static bool start(const unsigned char environment[32])
{
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0)
        return false;
    char *argv[] = {(char *)CL2C_BUILD_PYTHON, (char *)"-c", (char *)CL2C_CHILD_BOOT,
                    (char *)CL2C_PACKAGE_PARENT, (char *)"cl2c.build_service",
                    (char *)"--serve", NULL};
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_adddup2(&files, pair[1], 0);  /* dup2 clears close-on-exec */
    posix_spawn_file_actions_addopen(&files, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&files, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int spawned = posix_spawn(&pid, CL2C_BUILD_PYTHON, &files, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&files);
    close(pair[1]);
    if (spawned != 0) {
        close(pair[0]);
        return false;
    }
    service.pid = pid;
    service.owner = getpid();
    service.fd = pair[0];
    memcpy(service.environment, environment, 32);
    return true;
}

static bool send_all(int fd, const void *data, size_t n)
{
    for (size_t at = 0; at < n;) {
        ssize_t w = send(fd, (const char *)data + at, n - at, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        at += (size_t)w;
    }
    return true;
}

static bool receive_all(int fd, void *data, size_t n)
{
    for (size_t at = 0; at < n;) {
        ssize_t r = recv(fd, (char *)data + at, n - at, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        at += (size_t)r;
    }
    return true;
}

/* One request: the working directory, the stderr file, the arguments, NUL-separated. */
static bool request(const char *err, const char *const *args, int *status)
{
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd))
        return false;
    size_t n = strlen(cwd) + 1 + strlen(err);
    for (size_t i = 0; args[i]; i++)
        n += 1 + strlen(args[i]);
    char *body = malloc(n + 1), *at = body;
    if (!body)
        return false;
    at += sprintf(at, "%s", cwd) + 1;
    at += sprintf(at, "%s", err);
    for (size_t i = 0; args[i]; i++)
        at += sprintf(at + 1, "%s", args[i]) + 1;
    unsigned char header[4] = {n & 255, (n >> 8) & 255, (n >> 16) & 255, (n >> 24) & 255};
    unsigned char answer[4];
    bool ok = n < (1u << 31) && send_all(service.fd, header, 4) &&
              send_all(service.fd, body, n) && receive_all(service.fd, answer, 4);
    free(body);
    if (ok)
        *status = (int)(answer[0] | answer[1] << 8 | answer[2] << 16 |
                        (unsigned)answer[3] << 24);
    return ok;
}

/* The build of `args` by the warm service: its exit status (build_service's), or -1
 * where there is none to use (busy, turned off, not startable: the caller starts a
 * child of its own; `why` stays empty), or -2 where the service died with the build
 * (twice: a service found dead is started again once) and `why` says how. */
int cl2c_warm_build(const char *err, const char *const *args, char *why, size_t room)
{
    if (!cl2c_warm_builds() || pthread_mutex_trylock(&service_lock) != 0)
        return -1;
    unsigned char environment[32];
    environment_digest(environment);
    int status = -1;
    for (int attempt = 0; attempt < 2 && status == -1; attempt++) {
        if (service.owner == getpid() && memcmp(service.environment, environment, 32) != 0)
            stop();
        if (service.owner != getpid()) {
            if (service.fd >= 0)
                close(service.fd);        /* a forked copy of the parent's end */
            service.fd = -1;
            service.pid = service.owner = 0;
            if (!start(environment))
                break;
        }
        if (request(err, args, &status)) {
            if (status & RETIRING) {
                status &= ~RETIRING;
                stop();
            }
            break;
        }
        status = -1;
        pid_t pid = service.pid;
        close(service.fd);
        int how = 0;
        while (waitpid(pid, &how, 0) < 0 && errno == EINTR)
            ;
        service.fd = -1;
        service.pid = service.owner = 0;
        if (attempt == 1) {
            if (WIFSIGNALED(how))
                snprintf(why, room, "cl2c: the translator died of signal %d (a cl2c bug; "
                         "please report it with the kernel)", WTERMSIG(how));
            else
                snprintf(why, room, "cl2c: the translator ended without an answer");
            status = -2;
        }
    }
    pthread_mutex_unlock(&service_lock);
    return status;
}
