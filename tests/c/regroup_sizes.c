/* cl2c_regroup's groups for a kernel that cannot tell them apart: enough of them for
 * every thread, in pieces that still vectorise; where a uniform loop streams the
 * group's row at every step, a thread's share of the row. */
#include <stdio.h>
#include <cl2c/host.h>

static int expect_of(size_t global, size_t rows, size_t threads, int streams, size_t local,
                     size_t groups) {
    cl2c_workitem nd = {0};
    nd.work_dim = rows > 1 ? 2 : 1;
    nd.global_size[0] = global;
    nd.global_size[1] = rows;
    nd.global_size[2] = 1;
    cl2c_regroup(&nd, threads, 0, 0, streams);
    if (nd.local_size[0] != local || nd.num_groups[0] != groups || nd.local_size[1] != 1) {
        printf("FAIL %zu x %zu work-items, %zu threads%s: groups of %zu x %zu (%zu a row), "
               "want %zu (%zu)\n", global, rows, threads, streams ? ", streams" : "",
               nd.local_size[0], nd.local_size[1], nd.num_groups[0], local, groups);
        return 1;
    }
    printf("ok %zu x %zu work-items, %zu threads%s: %zu groups of %zu a row\n", global, rows,
           threads, streams ? ", streams" : "", groups, local);
    return 0;
}

static int expect(size_t global, size_t threads, size_t local, size_t groups) {
    return expect_of(global, 1, threads, 0, local, groups);
}

int main(void) {
    int failed = 0;
    /* a work-item a row of a 512^2 matrix product: every one of 16 threads busy */
    failed |= expect(512, 16, 16, 32);
    failed |= expect(512, 2, 64, 8);         /* 64 a group leave no thread idle */
    failed |= expect(8192, 16, 64, 128);     /* N-body's bodies: pieces that vectorise */
    failed |= expect(1 << 20, 16, 4096, 256);   /* long rows: the largest groups */
    failed |= expect(40, 16, 16, 3);         /* the last piece short */
    /* the Guide's sum of partial histograms: a thread's share, not pieces of 16-128 */
    failed |= expect_of(768, 1, 16, 1, 48, 16);
    failed |= expect_of(768, 1, 2, 1, 384, 2);
    failed |= expect_of(768, 1, 1, 1, 768, 1);
    failed |= expect_of(768, 1, 5, 1, 160, 5);
    failed |= expect_of(768, 4, 16, 1, 192, 4);     /* 4 rows: 4 threads a row */
    failed |= expect_of(8192, 1, 16, 1, 512, 16);   /* shares of 512 where pieces were 64 */
    failed |= expect_of(1 << 20, 1, 16, 1, 4096, 256);  /* long pieces stay as they were */
    return failed;
}
