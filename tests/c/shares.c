/* Every group of a launch runs once: with groups of unequal cost (the threads that finish
 * their own shares take the others'), and launched from inside the host's own OpenMP
 * region, where the launch gets one thread, not the team it asks for. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <cl2c/host.h>
#include "groups.h"

enum { GROUPS = 100, LOCAL = 16, N = GROUPS * LOCAL };   /* 25 a thread: chunks of 4, the last short */

static int check(const char *what, const int *runs) {
    for (int g = 0; g < GROUPS; g++)
        if (runs[g] != 1) {
            printf("FAIL %s: group %d ran %d times\n", what, g, runs[g]);
            return 1;
        }
    printf("ok %s\n", what);
    return 0;
}

int main(void) {
    int failed = 0;
    cl2c_range r = cl2c_range_1d(N, LOCAL);
    static int runs[GROUPS];
    static cl2c_uint work[N];
    /* the first groups (thread 0's share) slow */
    if (cl2c_kernel_tally(&r, runs, work, GROUPS / 8) != CL2C_SUCCESS)
        return printf("FAIL launch\n"), 1;
    failed |= check("unequal groups", runs);
    static int nested[2][GROUPS];
    static cl2c_uint nested_work[2][N];
    int status[2] = {-1, -1};
#pragma omp parallel num_threads(2)
    {
        int t = omp_get_thread_num();
        status[t] = cl2c_kernel_tally(&r, nested[t], nested_work[t], 4);
    }
    for (int t = 0; t < 2; t++) {
        if (status[t] != CL2C_SUCCESS)
            return printf("FAIL nested launch %d: %d\n", t, status[t]), 1;
        failed |= check(t ? "inside the host's region, second thread"
                          : "inside the host's region, first thread", nested[t]);
    }
    return failed;
}
