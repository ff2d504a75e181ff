/* cl2c_regroup's groups for a kernel that cannot tell them apart: enough of them for
 * every thread, in pieces that still vectorise. */
#include <stdio.h>
#include <cl2c/host.h>

static int expect(size_t global, size_t threads, size_t local, size_t groups) {
    cl2c_workitem nd = {0};
    nd.work_dim = 1;
    nd.global_size[0] = global;
    nd.global_size[1] = nd.global_size[2] = 1;
    cl2c_regroup(&nd, threads, 0, 0);
    if (nd.local_size[0] != local || nd.num_groups[0] != groups) {
        printf("FAIL %zu work-items, %zu threads: groups of %zu (%zu), want %zu (%zu)\n",
               global, threads, nd.local_size[0], nd.num_groups[0], local, groups);
        return 1;
    }
    printf("ok %zu work-items, %zu threads: %zu groups of %zu\n", global, threads, groups,
           local);
    return 0;
}

int main(void) {
    int failed = 0;
    /* a work-item a row of a 512^2 matrix product: every one of 16 threads busy */
    failed |= expect(512, 16, 16, 32);
    failed |= expect(512, 2, 64, 8);         /* 64 a group leave no thread idle */
    failed |= expect(8192, 16, 64, 128);     /* N-body's bodies: pieces that vectorise */
    failed |= expect(1 << 20, 16, 4096, 256);   /* long rows: the largest groups */
    failed |= expect(40, 16, 16, 3);         /* the last piece short */
    return failed;
}
