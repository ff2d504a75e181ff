/* Two host threads launch two different kernels at the same time, over and
 * over, each with its own OpenMP thread count; every result is checked. Each
 * runs at least ROUNDS launches and goes on until the other one has started,
 * so that their launches overlap however the threads are scheduled.
 * Prints "thread A: ok ...", "thread B: ok ...", whether the launches
 * overlapped in time, and exits 1 on any wrong result. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "offsets.h"
#include "scale.h"

enum { ROUNDS = 200, N = 1 << 18, W = 512, H = 256 };

static pthread_barrier_t start;
static atomic_int started;   /* threads that began launching */

typedef struct result {
    int rounds;           /* launches (of each kernel) */
    int wrong_launches;   /* a launch that failed or computed a wrong value */
    int threads_seen;     /* cl2c_max_threads() in this host thread */
    double begin, end;    /* seconds, CLOCK_MONOTONIC */
} result;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Thread A: the typed entry point of axpb (scale.cl). */
static void *run_axpb(void *arg)
{
    result *res = arg;
    float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    if (x == NULL || y == NULL) {
        res->wrong_launches = ROUNDS;
        return NULL;
    }
    for (int i = 0; i < N; ++i)
        x[i] = (float)(i % 1000);
    cl2c_set_num_threads(2);
    res->threads_seen = cl2c_max_threads();
    pthread_barrier_wait(&start);
    res->begin = now();
    atomic_fetch_add(&started, 1);
    for (int round = 0; round < ROUNDS || atomic_load(&started) < 2; ++round) {
        res->rounds = round + 1;
        cl2c_range r = cl2c_range_1d(N, CL2C_AUTO);
        float a = (float)round;
        int status = cl2c_kernel_axpb(&r, x, y, a, 1.0f);
        int bad = status != CL2C_SUCCESS;
        for (int i = 0; i < N && !bad; ++i)
            bad = y[i] != (a * x[i] + 1.0f) * 2.0f;
        res->wrong_launches += bad;
    }
    res->end = now();
    free(x);
    free(y);
    return NULL;
}

/* Thread B: grid (offsets.cl) through its metadata, with a __local argument,
 * then group_reverse, whose barrier needs a work-group schedule. */
static void *run_grid(void *arg)
{
    result *res = arg;
    int *in = malloc(W * H * sizeof *in), *out = malloc(W * H * sizeof *out);
    int *in_rev = malloc(W * H * sizeof *in_rev);
    if (in == NULL || out == NULL || in_rev == NULL) {
        res->wrong_launches = ROUNDS;
        return NULL;
    }
    for (int i = 0; i < W * H; ++i)
        in[i] = i % 977;
    const cl2c_kernel_info *grid = cl2c_find_kernel(&cl2c_program_offsets, "grid");
    cl2c_set_num_threads(3);
    res->threads_seen = cl2c_max_threads();
    pthread_barrier_wait(&start);
    res->begin = now();
    atomic_fetch_add(&started, 1);
    for (int round = 0; round < ROUNDS || atomic_load(&started) < 2; ++round) {
        res->rounds = round + 1;
        const int *in_p = in;
        int *out_p = out;
        size_t scratch = 16 * 4 * sizeof(int);
        int width = W, factor = round;
        void *args[] = {&in_p, &out_p, &scratch, &width, &factor};
        cl2c_range r = cl2c_range_2d(W, H, 16, 4);
        int status = cl2c_launch(grid, &r, args);
        int bad = status != CL2C_SUCCESS;
        for (int i = 0; i < W * H && !bad; ++i)
            bad = out[i] != in[i] * round + 2;
        r = cl2c_range_1d(W * H, 64);
        status = cl2c_kernel_group_reverse(&r, out, in_rev, 64 * sizeof(int));
        bad |= status != CL2C_SUCCESS;
        for (int i = 0; i < W * H && !bad; ++i)
            bad = in_rev[i] != out[i / 64 * 64 + 63 - i % 64];
        res->wrong_launches += bad;
    }
    res->end = now();
    free(in);
    free(out);
    free(in_rev);
    return NULL;
}

int main(void)
{
    result a = {0, 0, 0, 0, 0}, b = {0, 0, 0, 0, 0};
    pthread_t ta, tb;
    pthread_barrier_init(&start, NULL, 2);
    if (pthread_create(&ta, NULL, run_axpb, &a) != 0 ||
        pthread_create(&tb, NULL, run_grid, &b) != 0) {
        fprintf(stderr, "cannot start threads\n");
        return 2;
    }
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    pthread_barrier_destroy(&start);

    printf("thread A: %s axpb, %s %d rounds, %d wrong, %d OpenMP threads\n",
           a.wrong_launches == 0 ? "ok" : "FAIL", a.rounds >= ROUNDS ? "at least" : "only",
           ROUNDS, a.wrong_launches, a.threads_seen);
    printf("thread B: %s grid + group_reverse, %s %d rounds, %d wrong, %d OpenMP threads\n",
           b.wrong_launches == 0 ? "ok" : "FAIL", b.rounds >= ROUNDS ? "at least" : "only",
           ROUNDS, b.wrong_launches, b.threads_seen);
    int overlap = a.begin < b.end && b.begin < a.end;
    printf("overlap: %s\n", overlap ? "yes" : "no");
    printf("main thread: %d OpenMP threads\n", cl2c_max_threads());
    return a.wrong_launches == 0 && b.wrong_launches == 0 ? 0 : 1;
}
