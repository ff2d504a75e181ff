// Geometric built-ins of OpenCL C 1.2 section 6.12.5.
__kernel void geometric(__global const float4 *a, __global const float4 *b,
                        __global float4 *c3, __global float4 *c4, __global float *d)
{
    size_t i = get_global_id(0);
    c3[i] = (float4)(cross(a[i].xyz, b[i].xyz), 0.0f);
    c4[i] = cross(a[i], b[i]);
    d[i] = dot(a[i], b[i]);
}
