/* Calls the OpenCL kernel of vadd.cl, translated to C by cl2c, from plain C:
 * no OpenCL runtime and no Python when it runs. */
#include <stdio.h>
#include <stdlib.h>

#include "vadd.h"   /* written by cl2c -H: declares cl2c_kernel_hello_kernel() */

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;
    if (n == 0) {
        fprintf(stderr, "usage: %s [number of elements > 0]\n", argv[0]);
        return 2;
    }
    float *a = malloc(n * sizeof *a);
    float *b = malloc(n * sizeof *b);
    float *result = malloc(n * sizeof *result);
    if (!a || !b || !result) {
        fprintf(stderr, "out of memory\n");
        return 2;
    }
    for (size_t i = 0; i < n; ++i) {
        a[i] = (float)i;
        b[i] = (float)(i * 2);
    }

    /* One work-item per element; a local size of 0 lets cl2c choose one. */
    cl2c_range range = { .work_dim = 1, .global_size = { n } };
    int status = cl2c_kernel_hello_kernel(&range, a, b, result);
    if (status != CL2C_SUCCESS) {
        fprintf(stderr, "hello_kernel failed: %s (error %d)\n",
                cl2c_error_string(status), status);
        return 1;
    }

    size_t wrong = 0;
    for (size_t i = 0; i < n; ++i)
        if (result[i] != a[i] + b[i])
            ++wrong;

    printf("result[0..4] =");
    for (size_t i = 0; i < 5 && i < n; ++i)
        printf(" %g", result[i]);
    printf(" ... result[%zu] = %g\n", n - 1, result[n - 1]);
    if (wrong == 0)
        printf("vadd: %zu elements: OK\n", n);
    else
        printf("vadd: %zu elements: MISMATCH (%zu wrong)\n", n, wrong);

    free(a);
    free(b);
    free(result);
    return wrong == 0 ? 0 : 1;
}
