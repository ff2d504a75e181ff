/* The lecture's matrix multiplication (shared/seeds/003), as printed:
 * "Version 1: C zeilenweise".
 * The bench rewrites the #define DIM line to its size. */
#define DIM 1000                                     // Groesse der Matrix
__kernel void matmult(__global float *A, __global float *B, __global float *C)
{
    int i, j, k;
    i = get_global_id(0);
    for (j = 0; j < DIM; j++)
        for (k = 0; k < DIM; k++)
            C[i*DIM+j] += A[i*DIM+k] * B[k*DIM+j];

}
