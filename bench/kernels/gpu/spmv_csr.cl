/* GPU style sparse matrix-vector product, CSR, one work-item per row (the "scalar"
 * kernel of Bell and Garland's SpMV study); the grid is rounded up to whole
 * work-groups. The Guide's own SpMV (chapter 22) runs on a packet format built by its
 * host code, which the bench does not reproduce. */
__kernel void spmv_csr_scalar(__global const int *row_start,
                              __global const int *col,
                              __global const float *val,
                              __global const float *x,
                              __global float *y,
                              const int nrows)
{
    const int row = get_global_id(0);
    if (row >= nrows)
        return;
    float sum = 0.0f;
    for (int k = row_start[row]; k < row_start[row + 1]; k++)
        sum += val[k] * x[col[k]];
    y[row] = sum;
}
