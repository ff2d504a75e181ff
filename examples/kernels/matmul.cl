/* Naive matrix multiply, C = A * B, row-major.
 * A is M x K, B is K x N, C is M x N; one work-item per element of C:
 * dimension 0 walks the columns, dimension 1 the rows. */
__kernel void matmul(__global const float *A,
                     __global const float *B,
                     __global float *C,
                     const int M, const int N, const int K)
{
    int col = get_global_id(0);
    int row = get_global_id(1);
    if (row >= M || col >= N)
        return;

    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
        acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
}
