/* The lecture's matrix multiplication (shared/seeds/003), as printed:
 * "Version 4: Schleifen tauschen?".
 * The bench rewrites the #define DIM line to its size. */
#define DIM 1000                                     // Size of matrix
__kernel void matmult(__global float *A, __global float *B, __global float *C) {
    int i, j, k;
    float sum = 0.0;
    j = get_global_id(0);
    i = get_global_id(1);
    for (k = 0; k < DIM; k++)
        sum += A[i*DIM+k] * B[k*DIM+j];
    C[i*DIM+j] = sum;
}
