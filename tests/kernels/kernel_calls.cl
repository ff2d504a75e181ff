// A kernel that calls another kernel (allowed in OpenCL C 1.2: just a function call).
__kernel void scale(__global int *p, int factor)
{
    size_t i = get_global_id(0);
    p[i] = p[i] * factor;
}

__kernel void scale_then_add(__global int *p, int factor, int addend)
{
    scale(p, factor);
    p[get_global_id(0)] += addend;
}
