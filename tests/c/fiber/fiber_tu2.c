/* A second translation unit with its own copy of cl2c/fiber.h, linked into fiber_test: the
 * header defines no external symbol, so two (generated) files can share a program. This one
 * includes a system header first and is built with -D_GNU_SOURCE, as a file would that
 * includes fiber.h late. */
#include <stdio.h>
#include <cl2c/fiber.h>

int tu2_reduce(size_t n, int check);

struct tu2_ctx {
    long *a;
    size_t n;
};

static void tu2_kernel(void *p, size_t l0, size_t l1, size_t l2) {
    struct tu2_ctx *c = (struct tu2_ctx *)p;
    (void)l1;
    (void)l2;
    c->a[l0] = (long)l0 * 3 + 1;
    cl2c_fiber_barrier(__LINE__);
    for (size_t s = c->n / 2; s > 0; s >>= 1) {
        if (l0 < s) c->a[l0] += c->a[l0 + s];
        cl2c_fiber_barrier(__LINE__);
    }
}

/* Runs a reduction over n (a power of two) work-items; returns 0 when the sum is right. */
int tu2_reduce(size_t n, int check) {
    long a[1024];
    struct tu2_ctx c = {a, n};
    if (n > 1024) return -1;
    int rc = cl2c_fiber_run_group("tu2_kernel", tu2_kernel, &c, n, 1, 1, 0, check);
    if (rc) {
        fprintf(stderr, "tu2: %d %s\n", rc, cl2c_fiber_last_error());
        return rc;
    }
    long want = 0;
    for (size_t i = 0; i < n; ++i) want += (long)i * 3 + 1;
    return a[0] == want ? 0 : 1;
}
