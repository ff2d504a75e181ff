// printf (spec 6.12.13) with every kind of argument: the generated C compiles
// warning-free (test_werror.py); tests/test_printf.py checks what it prints.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

static int report(int i, float x)
{
    return printf("item %d: x = %8.3f (%a)\n", i, x, x);
}

__kernel void show(__global const float *x, __global int *result, __local int *seen)
{
    int i = get_global_id(0);
    char c = (char)i;
    ulong big = 0xfedcba9876543210UL;
    float4 f = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    uchar4 uc = (uchar4)(0xFA, 0xFB, 0xFC, 0xFD);
    result[i] = report(i, x[i]);
    printf("%hhd %hu %lx %#lo %c %s %p %%\n", c, (ushort)i, big, big, 'A' + i % 26, "ok", x);
    printf("f4 = %2.2v4hlf, uc = %#v4hhx, d = %v2lg\n", f, uc, (double2)(0.5, x[i]));
    seen[get_local_id(0)] = i;
    barrier(CLK_LOCAL_MEM_FENCE);
    printf("%d saw %d\n", i, seen[get_local_size(0) - 1 - get_local_id(0)]);
}
