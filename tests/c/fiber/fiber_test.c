/* Tests and micro-benchmark of the fiber runtime (clruntime/include/cl2c/fiber.h).
 *
 *   fiber_test                  run every test; the last line is "N passed, N failed"
 *   fiber_test bench [scale]    ns per switch and per work-item per barrier
 *   fiber_test child MODE       used by the tests themselves (crashes on purpose)
 *
 * FIBER_TEST_RUNNER=qemu-aarch64 (for example) runs those children under an emulator.
 *
 * Built by build.sh next to this file, once per context-switch back end. */
#include <cl2c/fiber.h>

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

int tu2_reduce(size_t n, int check); /* fiber_tu2.c */

static int n_passed, n_failed;
static const char *self_path;

#define CHECK(cond, ...)                                                                \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            printf("  check failed at line %d: %s: ", __LINE__, #cond);                 \
            printf(__VA_ARGS__);                                                        \
            printf("\n");                                                               \
            return 1;                                                                   \
        }                                                                               \
    } while (0)

static void run_test(const char *name, int (*fn)(void)) {
    fflush(stdout);
    int bad = fn();
    if (bad) ++n_failed; else ++n_passed;
    printf("%s - %s\n", bad ? "FAIL" : "ok", name);
    fflush(stdout);
}

/* ------------------------------------------------------------------ kernels -- */

/* Tree reduction in a shared ("__local") array, barriers in a loop. */
struct reduce_ctx {
    long *a;
    size_t n; /* power of two */
    long base;
};

static void k_reduce(void *p, size_t l0, size_t l1, size_t l2) {
    struct reduce_ctx *c = (struct reduce_ctx *)p;
    (void)l1;
    (void)l2;
    c->a[l0] = c->base + (long)l0 + 1;
    cl2c_fiber_barrier(__LINE__);
    for (size_t s = c->n / 2; s > 0; s >>= 1) {
        if (l0 < s) c->a[l0] += c->a[l0 + s];
        cl2c_fiber_barrier(__LINE__);
    }
}

static long reduce_want(size_t n, long base) {
    return (long)n * base + (long)n * ((long)n + 1) / 2;
}

static int reduce_once(size_t n, long base, int check, size_t stack) {
    long a[4096];
    struct reduce_ctx c = {a, n, base};
    int rc = cl2c_fiber_run_group("k_reduce", k_reduce, &c, n, 1, 1, stack, check);
    if (rc) {
        printf("  run_group: %d %s\n", rc, cl2c_fiber_last_error());
        return 1;
    }
    if (a[0] != reduce_want(n, base)) {
        printf("  n=%zu: sum %ld, want %ld\n", n, a[0], reduce_want(n, base));
        return 1;
    }
    return 0;
}

static int test_reduction_256(void) {
    for (int rep = 0; rep < 50; ++rep) {
        CHECK(reduce_once(256, rep * 1000, 0, 0) == 0, "rep %d", rep);
        CHECK(reduce_once(256, rep, 1, 0) == 0, "checked, rep %d", rep);
    }
    return 0;
}

/* Local ids: every tuple once, l0 fastest, and nobody passes a barrier early. */
struct ids_ctx {
    size_t ls[3];
    int started[64];
    size_t order[64];
    size_t counter, at_barrier;
    int early;
};

static void k_ids(void *p, size_t l0, size_t l1, size_t l2) {
    struct ids_ctx *c = (struct ids_ctx *)p;
    size_t lin = l0 + c->ls[0] * (l1 + c->ls[1] * l2);
    c->started[lin]++;
    c->order[lin] = c->counter++;
    c->at_barrier++;
    cl2c_fiber_barrier(__LINE__);
    if (c->at_barrier != c->ls[0] * c->ls[1] * c->ls[2]) c->early = 1;
    cl2c_fiber_barrier(__LINE__);
    c->at_barrier--;
    cl2c_fiber_barrier(__LINE__);
    if (c->at_barrier != 0) c->early = 1;
}

static int test_local_ids_3d(void) {
    struct ids_ctx c;
    memset(&c, 0, sizeof c);
    c.ls[0] = 4, c.ls[1] = 3, c.ls[2] = 5;
    int rc = cl2c_fiber_run_group("k_ids", k_ids, &c, 4, 3, 5, 0, 1);
    CHECK(rc == 0, "rc %d %s", rc, cl2c_fiber_last_error());
    for (size_t i = 0; i < 60; ++i) {
        CHECK(c.started[i] == 1, "work-item %zu started %d times", i, c.started[i]);
        CHECK(c.order[i] == i, "work-item %zu started as %zu", i, c.order[i]);
    }
    CHECK(!c.early, "a work-item passed a barrier early");
    return 0;
}

/* Barriers at call depth 3 (and one in a recursive helper): neighbours' values are visible
 * after each barrier and never overwritten before everyone read them. */
struct nested_ctx {
    int *a;
    size_t n;
    int errors;
};

__attribute__((noinline)) static void helper_barrier(int depth) {
    if (depth > 0) {
        helper_barrier(depth - 1);
        return;
    }
    cl2c_fiber_barrier(__LINE__);
}

__attribute__((noinline)) static void helper_phase(struct nested_ctx *c, size_t l, int k) {
    c->a[l] = k * 1000 + (int)l;
    helper_barrier(3);
    size_t r = (l + 1) % c->n;
    if (c->a[r] != k * 1000 + (int)r) c->errors++;
    helper_barrier(k & 3);
}

static void k_nested(void *p, size_t l0, size_t l1, size_t l2) {
    struct nested_ctx *c = (struct nested_ctx *)p;
    (void)l1;
    (void)l2;
    for (int k = 0; k < 20; ++k) helper_phase(c, l0, k);
}

static int test_nested_helpers(void) {
    int a[100];
    struct nested_ctx c = {a, 100, 0};
    int rc = cl2c_fiber_run_group("k_nested", k_nested, &c, 100, 1, 1, 0, 1);
    CHECK(rc == 0, "rc %d %s", rc, cl2c_fiber_last_error());
    CHECK(c.errors == 0, "%d stale reads", c.errors);
    c.errors = 0;
    rc = cl2c_fiber_run_group("k_nested", k_nested, &c, 100, 1, 1, 0, 0);
    CHECK(rc == 0 && c.errors == 0, "unchecked: rc %d, %d stale reads", rc, c.errors);
    return 0;
}

/* Work-items that finish early (no checking): the rest keep synchronising. */
struct early_ctx {
    int *a;
    size_t n;
    int errors;
    int done;
};

static void k_early(void *p, size_t l0, size_t l1, size_t l2) {
    struct early_ctx *c = (struct early_ctx *)p;
    (void)l1;
    (void)l2;
    int rounds = (int)(l0 % 7); /* work-item l takes part in (l % 7) rounds, then returns */
    for (int k = 0; k < rounds; ++k) {
        c->a[l0] = k * 1000 + (int)l0;
        cl2c_fiber_barrier(__LINE__);
        /* the next work-item still in this round */
        for (size_t j = 1; j < c->n; ++j) {
            size_t r = (l0 + j) % c->n;
            if ((int)(r % 7) > k) {
                if (c->a[r] != k * 1000 + (int)r) c->errors++;
                break;
            }
        }
        cl2c_fiber_barrier(__LINE__ + 1000); /* a different line: fine without checking */
    }
    c->done++;
}

static void k_first_half_only(void *p, size_t l0, size_t l1, size_t l2) {
    struct reduce_ctx *c = (struct reduce_ctx *)p;
    (void)l1;
    (void)l2;
    if (l0 >= c->n) return; /* the upper half leaves at once */
    k_reduce(p, l0, 0, 0);
}

static int test_early_finish(void) {
    int a[200];
    memset(a, 0, sizeof a);
    struct early_ctx c = {a, 200, 0, 0};
    int rc = cl2c_fiber_run_group("k_early", k_early, &c, 200, 1, 1, 0, 0);
    CHECK(rc == 0, "rc %d %s", rc, cl2c_fiber_last_error());
    CHECK(c.errors == 0 && c.done == 200, "%d stale reads, %d done", c.errors, c.done);
    long b[256];
    struct reduce_ctx r = {b, 128, 5};
    rc = cl2c_fiber_run_group("k_first_half_only", k_first_half_only, &r, 256, 1, 1, 0, 0);
    CHECK(rc == 0 && b[0] == reduce_want(128, 5), "rc %d sum %ld", rc, b[0]);
    /* all but one leave: the last one's barriers return at once */
    rc = cl2c_fiber_run_group("k_first_half_only", k_first_half_only, &r, 1, 1, 1, 0, 0);
    CHECK(rc == 0, "rc %d", rc);
    return 0;
}

/* Divergence. */
static void k_div_lines(void *p, size_t l0, size_t l1, size_t l2) {
    (void)p, (void)l1, (void)l2;
    if (l0 == 3) cl2c_fiber_barrier(12);
    else cl2c_fiber_barrier(15);
}

static void k_div_finish(void *p, size_t l0, size_t l1, size_t l2) {
    size_t who = *(size_t *)p;
    (void)l1, (void)l2;
    if (l0 == who) return;
    cl2c_fiber_barrier(15);
}

static void k_div_count_2d(void *p, size_t l0, size_t l1, size_t l2) {
    (void)p, (void)l2;
    int extra = l0 == 1 && l1 == 1;
    for (int k = 0; k < 3 + extra; ++k) cl2c_fiber_barrier(40);
}

static int expect_error(int rc, const char *want) {
    CHECK(rc == CL2C_BARRIER_DIVERGENCE, "rc %d, want %d", rc,
          CL2C_BARRIER_DIVERGENCE);
    CHECK(strcmp(cl2c_fiber_last_error(), want) == 0, "message\n    '%s'\n  want\n    '%s'",
          cl2c_fiber_last_error(), want);
    return 0;
}

static int test_divergence(void) {
    int rc = cl2c_fiber_run_group("K", k_div_lines, NULL, 8, 1, 1, 0, 1);
    if (expect_error(rc, "kernel 'K': barrier divergence: work-item (3,0,0) reached the barrier "
                         "at line 12 while work-item (0,0,0) reached the barrier at line 15"))
        return 1;
    /* the same thread, pool and stacks work again after a dropped group */
    CHECK(reduce_once(256, 7, 1, 0) == 0, "reduction after divergence");
    rc = cl2c_fiber_run_group("K", k_div_lines, NULL, 8, 1, 1, 0, 0);
    CHECK(rc == 0, "unchecked: rc %d", rc);

    size_t who = 5;
    rc = cl2c_fiber_run_group("K2", k_div_finish, &who, 8, 1, 1, 0, 1);
    if (expect_error(rc, "kernel 'K2': barrier divergence: work-item (5,0,0) finished while "
                         "work-item (0,0,0) waits at the barrier at line 15"))
        return 1;
    who = 0; /* finishing first, then a barrier */
    rc = cl2c_fiber_run_group("K2", k_div_finish, &who, 8, 1, 1, 0, 1);
    if (expect_error(rc, "kernel 'K2': barrier divergence: work-item (0,0,0) finished while "
                         "work-item (1,0,0) waits at the barrier at line 15"))
        return 1;
    rc = cl2c_fiber_run_group("K2", k_div_finish, &who, 8, 1, 1, 0, 0);
    CHECK(rc == 0, "unchecked: rc %d", rc);

    rc = cl2c_fiber_run_group("K3", k_div_count_2d, NULL, 4, 2, 1, 0, 1);
    if (expect_error(rc, "kernel 'K3': barrier divergence: work-item (0,0,0) finished while "
                         "work-item (1,1,0) waits at the barrier at line 40"))
        return 1;
    rc = cl2c_fiber_run_group("K3", k_div_count_2d, NULL, 4, 2, 1, 0, 0);
    CHECK(rc == 0, "unchecked: rc %d", rc);
    CHECK(reduce_once(64, 1, 1, 0) == 0, "reduction after divergence");
    return 0;
}

/* Errors of the call itself. */
static void k_nest(void *p, size_t l0, size_t l1, size_t l2) {
    (void)l1, (void)l2;
    if (l0 == 1) *(int *)p = cl2c_fiber_run_group("inner", k_nest, p, 2, 1, 1, 0, 0);
    cl2c_fiber_barrier(1);
}

static int test_call_errors(void) {
    int inner = 12345;
    int rc = cl2c_fiber_run_group("outer", k_nest, &inner, 2, 1, 1, 0, 0);
    CHECK(rc == 0, "rc %d", rc);
    CHECK(inner == CL2C_INVALID_OPERATION, "nested run_group gave %d", inner);
    CHECK(strstr(cl2c_fiber_last_error(), "from inside a work-item") != NULL, "%s",
          cl2c_fiber_last_error());
    rc = cl2c_fiber_run_group("z", k_nest, &inner, 0, 1, 1, 0, 0);
    CHECK(rc == CL2C_INVALID_WORK_GROUP_SIZE, "rc %d", rc);
    rc = cl2c_fiber_run_group("z", k_nest, &inner, (size_t)1 << 40, (size_t)1 << 40, 1, 0, 0);
    CHECK(rc == CL2C_INVALID_WORK_GROUP_SIZE, "overflowing size: rc %d", rc);
    rc = cl2c_fiber_run_group("z", NULL, &inner, 4, 1, 1, 0, 0);
    CHECK(rc == CL2C_INVALID_VALUE, "rc %d", rc);
    /* 2^31 stacks of 64 KiB do not fit: reported, not crashed */
    rc = cl2c_fiber_run_group("huge", k_nest, &inner, (size_t)1 << 31, 1, 1, 0, 0);
    CHECK(rc == CL2C_OUT_OF_RESOURCES, "rc %d", rc);
    CHECK(strstr(cl2c_fiber_last_error(), "kernel 'huge': cannot") != NULL, "%s",
          cl2c_fiber_last_error());
    CHECK(reduce_once(32, 3, 0, 0) == 0, "after a failed allocation");
    return 0;
}

/* The pool grows with the group size and the stack size. */
struct bigstack_ctx {
    size_t bytes;
    long sum;
};

__attribute__((noinline)) static long use_stack(size_t bytes) {
    volatile char *buf = (volatile char *)__builtin_alloca(bytes);
    for (size_t i = 0; i < bytes; i += 512) buf[i] = (char)i;
    long s = 0;
    for (size_t i = 0; i < bytes; i += 512) s += buf[i];
    return s;
}

static void k_bigstack(void *p, size_t l0, size_t l1, size_t l2) {
    struct bigstack_ctx *c = (struct bigstack_ctx *)p;
    (void)l0, (void)l1, (void)l2;
    long s = use_stack(c->bytes);
    cl2c_fiber_barrier(1);
    c->sum += s + use_stack(c->bytes);
}

static int test_pool_growth(void) {
    CHECK(reduce_once(4, 1, 0, 0) == 0, "4");
    CHECK(reduce_once(512, 1, 0, 0) == 0, "512");
    CHECK(reduce_once(8, 1, 0, 0) == 0, "8 after 512");
    struct bigstack_ctx c = {200 << 10, 0};
    int rc = cl2c_fiber_run_group("k_bigstack", k_bigstack, &c, 16, 1, 1, 256 << 10, 0);
    CHECK(rc == 0, "rc %d %s", rc, cl2c_fiber_last_error());
    CHECK(c.sum == 32 * use_stack(200 << 10), "sum %ld", c.sum);
    CHECK(reduce_once(1024, 2, 1, 0) == 0, "1024 after a bigger stack");
    CHECK(reduce_once(4096, 2, 0, 0) == 0, "4096");
    return 0;
}

/* Several OpenMP threads, each running groups, with a second translation unit mixed in. */
static int test_openmp_threads(void) {
    int bad = 0, threads_seen = 0;
    int used[64] = {0};
#pragma omp parallel for num_threads(4) schedule(static, 1) reduction(+ : bad)
    for (int g = 0; g < 96; ++g) {
        int tid = 0;
#ifdef _OPENMP
        tid = omp_get_thread_num();
#endif
        if (tid < 64) used[tid] = 1;
        size_t n = (size_t)32 << (g % 4); /* 32..256: pools regrow on some threads */
        if (reduce_once(n, g * 100, g % 2, 0)) bad++;
        if (g % 3 == 0 && tu2_reduce(n, g % 2)) bad++;
    }
    for (int i = 0; i < 64; ++i) threads_seen += used[i];
    CHECK(bad == 0, "%d groups wrong", bad);
#ifdef _OPENMP
    CHECK(threads_seen >= 2, "only %d thread(s) ran groups", threads_seen);
#else
    (void)threads_seen;
#endif
    CHECK(tu2_reduce(512, 1) == 0, "second translation unit, main thread");
    return 0;
}

/* Pools are freed when their thread exits: many short-lived threads neither leak mappings
 * nor use up the guard table (CL2C_FIBER_MAX_POOLS entries). */
static void *thread_group(void *arg) {
    *(int *)arg = reduce_once(64, 9, 1, 0);
    return NULL;
}

static int run_threads(int count) {
    for (int i = 0; i < count; ++i) {
        pthread_t th;
        int bad = 1;
        if (pthread_create(&th, NULL, thread_group, &bad) != 0) return 1;
        pthread_join(th, NULL);
        if (bad) return 1;
    }
    return 0;
}

static int count_mappings(void) {
    FILE *f = fopen("/proc/self/maps", "r");
    int n = 0, ch;
    if (!f) return -1;
    while ((ch = fgetc(f)) != EOF) n += ch == '\n';
    fclose(f);
    return n;
}

static int test_thread_exit(void) {
    CHECK(run_threads(10) == 0, "warm-up threads");
    int before = count_mappings();
    CHECK(run_threads(CL2C_FIBER_MAX_POOLS + 40) == 0, "threads");
    int after = count_mappings();
    CHECK(before > 0 && after - before < 40, "mappings: %d before, %d after", before, after);
    return 0;
}

/* ------------------------------------------------------------------ children -- */

__attribute__((noinline)) static int deep(int d) {
    volatile char buf[256];
    buf[0] = (char)d;
    if (d == 0) return buf[0];
    int r = deep(d - 1);
    buf[1] = (char)r;
    return buf[0] + buf[1];
}

static void k_overflow(void *p, size_t l0, size_t l1, size_t l2) {
    (void)l1, (void)l2;
    cl2c_fiber_barrier(1);
    if (l0 == 2) *(volatile int *)p = deep(1 << 24); /* ~4 GiB of frames */
    cl2c_fiber_barrier(2);
}

static void *thread_overflow(void *arg) {
    cl2c_fiber_run_group("deep_recursion_thread", k_overflow, arg, 4, 1, 1, 0, 0);
    return NULL;
}

static void k_null(void *p, size_t l0, size_t l1, size_t l2) {
    (void)p, (void)l1, (void)l2;
    cl2c_fiber_barrier(1);
    if (l0 == 1) *(volatile int *)(uintptr_t)p = 1; /* p is NULL */
    cl2c_fiber_barrier(2);
}

static void user_segv(int sig, siginfo_t *si, void *uc) {
    static const char msg[] = "user handler\n";
    (void)sig, (void)si, (void)uc;
    ssize_t r = write(2, msg, sizeof msg - 1);
    (void)r;
    _exit(42);
}

static int child_main(const char *mode) {
    int sink = 0;
    if (!strcmp(mode, "overflow")) {
        return cl2c_fiber_run_group("deep_recursion", k_overflow, &sink, 4, 1, 1, 0, 0);
    }
    if (!strcmp(mode, "overflow-arg")) { /* the argument is raised by a larger environment */
        return cl2c_fiber_run_group("deep_recursion", k_overflow, &sink, 4, 1, 1, 16 << 10, 0);
    }
    if (!strcmp(mode, "overflow-omp")) { /* on an OpenMP worker thread, after the master's */
        int rc = 0;
#pragma omp parallel num_threads(2) reduction(| : rc)
        {
            int tid = 0, nth = 1;
#ifdef _OPENMP
            tid = omp_get_thread_num();
            nth = omp_get_num_threads();
#endif
            rc |= reduce_once(64, 1, 0, 0);
#pragma omp barrier
            if (tid == nth - 1)
                rc |= cl2c_fiber_run_group("deep_recursion_omp", k_overflow, &sink, 4, 1, 1, 0, 0);
        }
        return rc;
    }
    if (!strcmp(mode, "overflow-many-threads")) { /* the guard table has room again */
        if (run_threads(CL2C_FIBER_MAX_POOLS + 10)) return 3;
        pthread_t th;
        pthread_create(&th, NULL, thread_overflow, &sink);
        pthread_join(th, NULL);
        return 4;
    }
    if (!strcmp(mode, "segv")) {
        return cl2c_fiber_run_group("k_null", k_null, NULL, 4, 1, 1, 0, 0);
    }
    if (!strcmp(mode, "segv-chain")) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = user_segv;
        sa.sa_flags = SA_SIGINFO;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGSEGV, &sa, NULL);
        return cl2c_fiber_run_group("k_null", k_null, NULL, 4, 1, 1, 0, 0);
    }
    if (!strcmp(mode, "barrier-outside")) {
        cl2c_fiber_barrier(3);
        return 0;
    }
    fprintf(stderr, "unknown child mode %s\n", mode);
    return 2;
}

/* Runs `self child MODE` with CL2C_FIBER_STACK_SIZE=env (NULL: unset); returns its wait
 * status and its stderr in err. */
static int run_child(const char *mode, const char *env, char *err, size_t errsize) {
    int fds[2];
    if (pipe(fds) != 0) return -1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 2);
        close(fds[0]);
        close(fds[1]);
        if (env) setenv("CL2C_FIBER_STACK_SIZE", env, 1);
        else unsetenv("CL2C_FIBER_STACK_SIZE");
        /* FIBER_TEST_RUNNER: an emulator to run the child under (qemu-aarch64 ...) */
        const char *runner = getenv("FIBER_TEST_RUNNER");
        if (runner && *runner)
            execlp(runner, runner, self_path, "child", mode, (char *)NULL);
        else
            execl(self_path, self_path, "child", mode, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    size_t len = 0;
    ssize_t r;
    while ((r = read(fds[0], err + len, errsize - 1 - len)) > 0) len += (size_t)r;
    err[len] = 0;
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
}

static int expect_overflow(const char *mode, const char *env, const char *kernel, size_t bytes) {
    char err[4096], want[256];
    int st = run_child(mode, env, err, sizeof err);
    snprintf(want, sizeof want, "cl2c: fiber stack overflow in kernel '%s' (work-item stack of "
             "%zu bytes; raise it with CL2C_FIBER_STACK_SIZE)\n", kernel, bytes);
    CHECK(strstr(err, want) != NULL, "%s: stderr was '%s'", mode, err);
    CHECK(!(WIFEXITED(st) && WEXITSTATUS(st) == 0), "%s: the child exited 0", mode);
    CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT, "%s: status %#x", mode, st);
    return 0;
}

static int test_stack_overflow(void) {
    if (expect_overflow("overflow", NULL, "deep_recursion", 64 << 10)) return 1;
    if (expect_overflow("overflow", "32K", "deep_recursion", 32 << 10)) return 1;
    if (expect_overflow("overflow-arg", "48k", "deep_recursion", 48 << 10)) return 1;
    if (expect_overflow("overflow-arg", "100000", "deep_recursion", 100000)) return 1;
    if (expect_overflow("overflow-omp", NULL, "deep_recursion_omp", 64 << 10)) return 1;
    if (expect_overflow("overflow-many-threads", NULL, "deep_recursion_thread", 64 << 10))
        return 1;
    return 0;
}

static int test_other_faults(void) {
    char err[4096];
    int st = run_child("segv", NULL, err, sizeof err);
    CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, "segv: status %#x", st);
    CHECK(strstr(err, "overflow") == NULL, "segv: '%s'", err);
    st = run_child("segv-chain", NULL, err, sizeof err);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 42, "segv-chain: status %#x", st);
    CHECK(strstr(err, "user handler") != NULL, "segv-chain: '%s'", err);
    st = run_child("barrier-outside", NULL, err, sizeof err);
    CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT, "barrier-outside: status %#x", st);
    CHECK(strstr(err, "barrier() called outside") != NULL, "barrier-outside: '%s'", err);
    st = run_child("overflow", "lots", err, sizeof err); /* an invalid value: warned, ignored */
    CHECK(strstr(err, "ignoring CL2C_FIBER_STACK_SIZE='lots'") != NULL, "'%s'", err);
    CHECK(strstr(err, "stack of 65536 bytes") != NULL, "'%s'", err);
    return 0;
}

/* ------------------------------------------------------------------ benchmark -- */

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static cl2c_fb_ctx pp_main, pp_fiber;
static long pp_count;

static void pp_entry(void) {
    for (;;) {
        pp_count++;
        cl2c_fb_switch(&pp_fiber, &pp_main);
    }
}

/* Raw switch: two contexts switching to each other, nothing else. */
static double bench_raw_switch(long iters) {
    size_t size = 64 << 10;
    char *stack = (char *)mmap(NULL, size, PROT_READ | PROT_WRITE,
                               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (stack == (char *)MAP_FAILED) return -1;
    cl2c_fb_prepare(&pp_main);
    cl2c_fb_prepare(&pp_fiber);
    cl2c_fb_init(&pp_fiber, stack, stack + size, pp_entry);
    double best = 1e30;
    for (int rep = 0; rep < 50; ++rep) {
        double t0 = now_ns();
        for (long i = 0; i < iters; ++i) cl2c_fb_switch(&pp_main, &pp_fiber);
        double dt = (now_ns() - t0) / (2.0 * (double)iters);
        if (dt < best) best = dt;
    }
    munmap(stack, size);
    return best;
}

struct bench_ctx {
    int iters;
    float *local;
    size_t n;
};

static void k_empty_barriers(void *p, size_t l0, size_t l1, size_t l2) {
    struct bench_ctx *c = (struct bench_ctx *)p;
    (void)l0, (void)l1, (void)l2;
    for (int i = 0; i < c->iters; ++i) cl2c_fiber_barrier(7);
}

/* A barrier loop that touches local memory like a reduction does. */
static void k_local_barriers(void *p, size_t l0, size_t l1, size_t l2) {
    struct bench_ctx *c = (struct bench_ctx *)p;
    (void)l1, (void)l2;
    float *a = c->local;
    a[l0] = (float)l0;
    for (int i = 0; i < c->iters; ++i) {
        cl2c_fiber_barrier(8);
        a[l0] += a[(l0 + 1) & (c->n - 1)] * 0.5f;
    }
}

/* Best of many short runs: the minimum is what a quiet core gives, even on a busy machine. */
static double bench_group(cl2c_fiber_fn fn, size_t n, int iters, int check, int reps) {
    float local[4096];
    struct bench_ctx c = {iters, local, n};
    double best = 1e30;
    for (int rep = 0; rep < reps; ++rep) {
        double t0 = now_ns();
        int rc = cl2c_fiber_run_group("bench", fn, &c, n, 1, 1, 0, check);
        double dt = (now_ns() - t0) / ((double)n * iters);
        if (rc) {
            printf("bench: %d %s\n", rc, cl2c_fiber_last_error());
            return -1;
        }
        if (dt < best) best = dt;
    }
    return best;
}

static int bench_main(double scale) {
#ifdef CL2C_FIBER_USES_UCONTEXT
    int slow = 20;
#else
    int slow = 1;
#endif
    int reps = (int)(200 * scale) + 5;
    /* warm up the pool */
    bench_group(k_empty_barriers, 1024, 4, 0, 1);
    printf("backend: %s (best of %d runs)\n", CL2C_FIBER_BACKEND, reps);
    printf("raw switch, 2 contexts, different call sites  : %7.1f ns/switch\n",
           bench_raw_switch(20000 / slow));
    printf("barrier, 2 work-items (one switch each)       : %7.1f ns/work-item/barrier\n",
           bench_group(k_empty_barriers, 2, 20000 / slow, 0, reps));
    printf("barrier, 256 work-items, empty loop           : %7.1f ns/work-item/barrier\n",
           bench_group(k_empty_barriers, 256, 100 / slow + 2, 0, reps));
    printf("barrier, 256 work-items, local-memory loop    : %7.1f ns/work-item/barrier\n",
           bench_group(k_local_barriers, 256, 100 / slow + 2, 0, reps));
    printf("barrier, 256 work-items, empty loop, checking : %7.1f ns/work-item/barrier\n",
           bench_group(k_empty_barriers, 256, 100 / slow + 2, 1, reps));
    printf("barrier, 1024 work-items, empty loop          : %7.1f ns/work-item/barrier\n",
           bench_group(k_empty_barriers, 1024, 25 / slow + 2, 0, reps));
    /* whole groups: start-up and finish alone, and the 9-barrier tree reduction */
    {
        long a[256];
        struct reduce_ctx c = {a, 256, 0};
        struct bench_ctx e = {0, NULL, 256};
        double best_e = 1e30, best_r = 1e30;
        for (int rep = 0; rep < reps; ++rep) {
            double t0 = now_ns();
            cl2c_fiber_run_group("empty", k_empty_barriers, &e, 256, 1, 1, 0, 0);
            double t1 = now_ns();
            cl2c_fiber_run_group("k_reduce", k_reduce, &c, 256, 1, 1, 0, 0);
            double t2 = now_ns();
            if (t1 - t0 < best_e) best_e = t1 - t0;
            if (t2 - t1 < best_r) best_r = t2 - t1;
        }
        printf("group of 256 work-items, no barrier           : %7.1f ns/work-item\n",
               best_e / 256);
        printf("tree reduction, 256 work-items, 9 barriers    : %7.0f ns/group, %.1f ns/work-item"
               "/barrier with start-up, %.1f without\n", best_r, best_r / (256.0 * 9),
               (best_r - best_e) / (256.0 * 9));
    }
    return 0;
}

/* ------------------------------------------------------------------ main -- */

int main(int argc, char **argv) {
    self_path = argv[0];
    if (argc >= 3 && !strcmp(argv[1], "child")) return child_main(argv[2]);
    if (argc >= 2 && !strcmp(argv[1], "bench"))
        return bench_main(argc >= 3 ? atof(argv[2]) : 1.0);
    unsetenv("CL2C_FIBER_STACK_SIZE");
    printf("cl2c fiber runtime tests, backend %s\n", CL2C_FIBER_BACKEND);
    run_test("tree reduction, 256 work-items, barriers in a loop", test_reduction_256);
    run_test("local ids of a 4x3x5 group, l0 fastest", test_local_ids_3d);
    run_test("barriers in nested helper calls", test_nested_helpers);
    run_test("work-items finishing early (no checking)", test_early_finish);
    run_test("barrier divergence detection (checking mode)", test_divergence);
    run_test("call errors: nested, bad sizes, null fn, no memory", test_call_errors);
    run_test("pool growth: group size and stack size", test_pool_growth);
    run_test("OpenMP threads running groups concurrently, two translation units",
             test_openmp_threads);
    run_test("pools freed at thread exit", test_thread_exit);
    run_test("stack overflow reported (child processes)", test_stack_overflow);
    run_test("other faults still crash normally or reach the previous handler",
             test_other_faults);
    printf("%d passed, %d failed\n", n_passed, n_failed);
    return n_failed != 0;
}
