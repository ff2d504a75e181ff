/* A C program that calls two OpenCL kernels, kernels/saxpy.cl and
 * kernels/smooth.cl, translated to C by cl2c while the program builds. It
 * needs no OpenCL and no Python to run: only OpenMP. It is built with CMake
 * (../cmake_program), Make (../make_program) and Meson (../meson_program). */
#include <stdio.h>
#include <stdlib.h>

#include "saxpy.h"    /* written by cl2c: cl2c_kernel_saxpy(), cl2c_info_saxpy */
#include "smooth.h"   /* cl2c_kernel_smooth(), cl2c_program_smooth */

/* Prints each kernel of a translated file from its metadata. */
static void describe(const cl2c_program_info *program)
{
    for (unsigned i = 0; i < program->num_kernels; ++i) {
        const cl2c_kernel_info *k = program->kernels[i];
        printf("kernel %s(", k->name);
        for (unsigned j = 0; j < k->num_args; ++j) {
            const cl2c_arg_info *a = &k->args[j];
            const char *space = a->address_space == CL2C_ADDRESS_GLOBAL ? "__global "
                              : a->address_space == CL2C_ADDRESS_CONSTANT ? "__constant "
                              : a->address_space == CL2C_ADDRESS_LOCAL ? "__local " : "";
            printf("%s%s%s%s %s", j ? ", " : "", space, a->is_const ? "const " : "",
                   a->type_name, a->name);
        }
        printf(") from %s\n", program->source);
    }
}

int main(void)
{
    printf("OpenMP threads: %d\n", cl2c_max_threads());   /* OMP_NUM_THREADS */
    describe(&cl2c_program_saxpy);
    describe(&cl2c_program_smooth);
    int failed = 0;

    /* saxpy: one work-item per element, cl2c chooses the work-group size. */
    enum { N = 1000 };
    float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    int *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out);
    if (!x || !y || !in || !out) {
        fprintf(stderr, "out of memory\n");
        return 2;
    }
    for (int i = 0; i < N; ++i) {
        x[i] = (float)i;
        y[i] = 1.0f;
        in[i] = i;
    }
    cl2c_range range = cl2c_range_1d(N, CL2C_AUTO);
    int status = cl2c_kernel_saxpy(&range, x, y, 2.0f);
    int wrong = status != CL2C_SUCCESS;
    for (int i = 0; i < N; ++i)
        wrong += y[i] != 2.0f * (float)i + 1.0f;
    printf("saxpy: %d elements %s\n", N, wrong ? "WRONG" : "OK");
    failed |= wrong != 0;

    /* smooth: inside the array, out[i] = (2 * SIDE_WEIGHT + CENTER_WEIGHT) * i. */
    status = cl2c_kernel_smooth(&range, in, out, N);
    int sum = out[1];
    wrong = status != CL2C_SUCCESS;
    for (int i = 1; i < N - 1; ++i)
        wrong += out[i] != sum * i;
    printf("smooth: out[0..4] = %d %d %d %d %d, weight sum %d: %s\n", out[0], out[1], out[2],
           out[3], out[4], sum, wrong ? "WRONG" : "OK");
    failed |= wrong != 0;

    /* An invalid launch: under OpenCL 1.2 the local size must divide the global
     * size. The kernel returns an error code; cl2c_check_launch says why. */
    range = cl2c_range_1d(N, 7);
    status = cl2c_kernel_saxpy(&range, x, y, 2.0f);
    if (status == CL2C_SUCCESS) {
        printf("invalid launch: NOT rejected\n");
        failed = 1;
    } else {
        const float *xp = x;
        float *yp = y;
        float a = 2.0f;
        void *args[] = {&xp, &yp, &a};
        char why[256];
        cl2c_check_launch(&cl2c_info_saxpy, &range, args, why, sizeof why);
        printf("invalid launch rejected: %s (error %d): %s\n", cl2c_error_string(status),
               status, why);
    }

    free(x);
    free(y);
    free(in);
    free(out);
    printf("%s\n", failed ? "FAILED" : "all OK");
    return failed;
}
