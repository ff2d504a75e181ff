/* GPU style: a 2-D elementwise kernel on row-major arrays that takes the row from global
 * id 0 and the column from id 1, as (row, col) reads, with the grid rounded up to whole
 * 16x16 groups and a guard: neighbouring work-items of dimension 0 are a row apart. */
__kernel void axpby_rows(__global float *out, __global const float *x,
                         __global const float *y, const float a, const float b,
                         const int rows, const int cols)
{
    const int row = get_global_id(0), col = get_global_id(1);
    if (row < rows && col < cols)
        out[row * cols + col] = a * x[row * cols + col] + b * y[row * cols + col];
}
