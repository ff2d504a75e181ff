/* The C host API of translated kernels: metadata, launches by metadata, and
 * the error codes and messages of invalid launches. Links two generated files
 * (scale.c, offsets.c) into one program. Prints one line per check, "ok ..."
 * or "FAIL ...", and exits 1 if any failed. */
#include <stdio.h>
#include <string.h>

#include "offsets.h"
#include "scale.h"

static int failures = 0;

static void check(int ok, const char *what)
{
    printf("%s %s\n", ok ? "ok" : "FAIL", what);
    if (!ok)
        ++failures;
}

static int contains(const char *text, const char *part)
{
    return strstr(text, part) != NULL;
}

static void metadata(void)
{
    check(cl2c_program_scale.num_kernels == 3, "scale.cl has three kernels");
    check(strcmp(cl2c_program_scale.source, "scale.cl") == 0, "program source name");
    check(cl2c_program_offsets.num_kernels == 2, "offsets.cl has two kernels");

    const cl2c_kernel_info *axpb = cl2c_find_kernel(&cl2c_program_scale, "axpb");
    check(axpb == &cl2c_info_axpb, "cl2c_find_kernel finds axpb");
    check(cl2c_find_kernel(&cl2c_program_scale, "grid") == NULL,
          "cl2c_find_kernel: grid is not in scale.cl");
    check(axpb->num_args == 4, "axpb takes 4 arguments");
    check(strcmp(axpb->args[0].name, "x") == 0 && strcmp(axpb->args[0].type_name, "float*") == 0,
          "axpb argument 0 is float* x");
    check(axpb->args[0].address_space == CL2C_ADDRESS_GLOBAL && axpb->args[0].is_const &&
              !axpb->args[0].writes && axpb->args[0].kind == CL2C_ARG_BUFFER,
          "x: global, const, read only, a buffer");
    check(axpb->args[1].writes && !axpb->args[1].is_const, "y: written");
    check(axpb->args[0].align == sizeof(float) && cl2c_info_ends16.args[0].align == 64 &&
              cl2c_info_ends16.args[1].align == sizeof(float) && axpb->args[2].align == 1,
          "align: a float's, 64 where the kernel casts to float16 *, 1 for values");
    check(strcmp(axpb->args[2].name, "a") == 0 && axpb->args[2].kind == CL2C_ARG_VALUE &&
              axpb->args[2].address_space == CL2C_ADDRESS_PRIVATE &&
              axpb->args[2].size == sizeof(float) && axpb->args[2].is_const,
          "a: a const float by value");
    check(axpb->reqd_work_group_size[0] == 0, "axpb has no reqd_work_group_size");
    check(cl2c_info_fixed_group.reqd_work_group_size[0] == 8 &&
              cl2c_info_fixed_group.reqd_work_group_size[1] == 1 &&
              cl2c_info_fixed_group.reqd_work_group_size[2] == 1,
          "fixed_group has reqd_work_group_size(8, 1, 1)");
    const cl2c_kernel_info *grid = cl2c_program_offsets.kernels[0];
    check(strcmp(grid->name, "grid") == 0, "offsets.cl's kernel is grid");
    check(grid->args[2].kind == CL2C_ARG_LOCAL && grid->args[2].address_space ==
              CL2C_ADDRESS_LOCAL && grid->args[2].size == sizeof(size_t) &&
              strcmp(grid->args[2].type_name, "int*") == 0,
          "grid argument 2 is a __local int*, passed as its size");
    check(grid->launch == cl2c_argv_grid, "grid launches through cl2c_argv_grid");
    const cl2c_kernel_info *rev = cl2c_find_kernel(&cl2c_program_offsets, "group_reverse");
    check(rev == &cl2c_info_group_reverse && strcmp(rev->schedule, "loops") != 0,
          "group_reverse (a barrier) has a work-group schedule other than loops");
}

static void launches(void)
{
    enum { N = 64, W = 8, H = 4 };
    float x[N], y[N];
    for (int i = 0; i < N; ++i) {
        x[i] = (float)i;
        y[i] = -1.0f;
    }
    /* Typed, with a helper-made range. */
    cl2c_range r = cl2c_range_1d(N, CL2C_AUTO);
    int status = cl2c_kernel_axpb(&r, x, y, 3.0f, 1.0f);
    int good = status == CL2C_SUCCESS;
    for (int i = 0; i < N; ++i)
        good = good && y[i] == (3.0f * (float)i + 1.0f) * 2.0f;
    check(good, "typed launch of axpb: y = (3x + 1) * 2");

    /* By metadata, 2-D with an offset and a __local argument. */
    int in[W * H], out[W * H];
    for (int i = 0; i < W * H; ++i) {
        in[i] = i;
        out[i] = -1;
    }
    const int *in_p = in;
    int *out_p = out;
    size_t scratch = 4 * 2 * sizeof(int);
    int width = W, factor = 3;
    void *args[] = {&in_p, &out_p, &scratch, &width, &factor};
    size_t global[2] = {W - 4, H - 2}, local[2] = {4, 2}, offset[2] = {4, 2};
    r = cl2c_range_make(2, global, local, offset);
    status = cl2c_launch(cl2c_find_kernel(&cl2c_program_offsets, "grid"), &r, args);
    good = status == CL2C_SUCCESS;
    for (int y2 = 0; y2 < H; ++y2)
        for (int x2 = 0; x2 < W; ++x2) {
            int i = y2 * W + x2;
            int want = (x2 >= 4 && y2 >= 2) ? i * 3 + 2 : -1;
            good = good && out[i] == want;
        }
    check(good, "cl2c_launch of grid with an offset: only the offset block written");

    /* reqd_work_group_size chosen automatically. */
    int ids[32];
    r = cl2c_range_1d(32, CL2C_AUTO);
    status = cl2c_kernel_fixed_group(&r, ids);
    good = status == CL2C_SUCCESS;
    for (int i = 0; i < 32; ++i)
        good = good && ids[i] == i % 8;
    check(good, "fixed_group runs in groups of 8 when cl2c chooses");
}

static void expect_error(const cl2c_kernel_info *k, const cl2c_range *r, void *const *args,
                         int code, const char *part, const char *what)
{
    char msg[256];
    int status = cl2c_check_launch(k, r, args, msg, sizeof msg);
    int launched = cl2c_launch(k, r, args);
    int ok = status == code && launched == code && contains(msg, part);
    if (!ok)
        printf("  got %d (%s): %s\n", status, cl2c_error_string(status), msg);
    check(ok, what);
}

static void errors(void)
{
    float x[16] = {0}, y[16] = {0};
    const float *xp = x;
    float *yp = y, *null_buffer = NULL;
    float a = 1.0f, b = 0.0f;
    void *args[] = {&xp, &yp, &a, &b};

    cl2c_range r = cl2c_range_1d(10, 3);
    check(cl2c_kernel_axpb(&r, x, y, 1.0f, 0.0f) == CL2C_INVALID_WORK_GROUP_SIZE,
          "typed launch: local 3 does not divide global 10");
    expect_error(&cl2c_info_axpb, &r, args, CL2C_INVALID_WORK_GROUP_SIZE,
                 "kernel 'axpb': local size 3 does not divide global size 10 in dimension 0",
                 "message: local size does not divide the global size");

    r = cl2c_range_2d(8192, 8, 8192, 1);
    expect_error(&cl2c_info_axpb, &r, args, CL2C_INVALID_WORK_GROUP_SIZE,
                 "a work-group of 8192 work-items is larger than the maximum, 4096",
                 "message: work-group too large");

    r = cl2c_range_1d(16, 4);
    int ids[16];
    check(cl2c_kernel_fixed_group(&r, ids) == CL2C_INVALID_WORK_GROUP_SIZE,
          "typed launch: local size against reqd_work_group_size");
    int *idp = ids;
    void *id_args[] = {&idp};
    expect_error(&cl2c_info_fixed_group, &r, id_args, CL2C_INVALID_WORK_GROUP_SIZE,
                 "differs from the kernel's reqd_work_group_size(8, 1, 1)",
                 "message: reqd_work_group_size");

    r = cl2c_range_1d(16, CL2C_AUTO);
    void *null_args[] = {&xp, &null_buffer, &a, &b};
    expect_error(&cl2c_info_axpb, &r, null_args, CL2C_INVALID_ARG_VALUE,
                 "argument 1 'y' (float*) is a null buffer", "message: null buffer");
    static _Alignas(128) float wide[64];
    const float *skewed = wide + 4;
    void *skewed_args[] = {&skewed, &yp};
    expect_error(&cl2c_info_ends16, &r, skewed_args, CL2C_INVALID_ARG_VALUE,
                 "argument 0 'x' (float*) starts 16 bytes past a multiple of 64, as the "
                 "kernel reads it", "message: a buffer misaligned for the kernel's loads");
    void *unset_args[] = {&xp, &yp, NULL, &b};
    expect_error(&cl2c_info_axpb, &r, unset_args, CL2C_INVALID_KERNEL_ARGS,
                 "argument 2 'a' (float) is not set", "message: argument not set");
    expect_error(&cl2c_info_axpb, &r, NULL, CL2C_INVALID_KERNEL_ARGS,
                 "no arguments given", "message: no arguments");

    r.work_dim = 4;
    expect_error(&cl2c_info_axpb, &r, args, CL2C_INVALID_WORK_DIMENSION,
                 "work_dim is 4; it must be 1, 2 or 3", "message: work_dim");
    r = cl2c_range_1d(0, CL2C_AUTO);
    expect_error(&cl2c_info_axpb, &r, args, CL2C_INVALID_GLOBAL_WORK_SIZE,
                 "the global size is 0 in dimension 0", "message: empty global size");
    expect_error(&cl2c_info_axpb, NULL, args, CL2C_INVALID_VALUE, "the range is NULL",
                 "message: NULL range");
    expect_error(NULL, &r, args, CL2C_INVALID_KERNEL, "kernel information is NULL",
                 "message: NULL kernel");

    int in[8] = {0}, out[8];
    const int *in_p = in;
    int *out_p = out;
    size_t no_scratch = 0;
    int width = 8, factor = 1;
    void *grid_args[] = {&in_p, &out_p, &no_scratch, &width, &factor};
    r = cl2c_range_1d(8, CL2C_AUTO);
    expect_error(&cl2c_info_grid, &r, grid_args, CL2C_INVALID_ARG_SIZE,
                 "argument 2 'scratch' (int*) is a __local buffer of 0 bytes",
                 "message: empty __local argument");

    char msg[8];
    r = cl2c_range_1d(10, 3);
    cl2c_check_launch(&cl2c_info_axpb, &r, args, msg, sizeof msg);
    check(strlen(msg) == sizeof msg - 1, "a short message buffer is cut and terminated");
    check(strcmp(cl2c_error_string(CL2C_INVALID_WORK_GROUP_SIZE), "unknown error") != 0 &&
              strcmp(cl2c_error_string(12345), "unknown error") == 0,
          "cl2c_error_string");
}

int main(void)
{
    printf("threads %d\n", cl2c_max_threads());
    metadata();
    launches();
    errors();
    printf("%d failure(s)\n", failures);
    return failures == 0 ? 0 : 1;
}
