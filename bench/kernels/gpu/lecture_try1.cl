/* The lecture's matrix multiplication (shared/seeds/003), as printed:
 * "Versuch 1: C zeilenweise, A und B privat".
 * The bench rewrites the #define DIM line to its size. */
#define DIM 1000                                     // Groesse der Matrix
__kernel void matmult(__global float *A, __global float *B, __global float *C) {
    int k, j, i = get_global_id(0);
    float Al[DIM], Bl[DIM], sum;
    for (k = 0; k < DIM; k++)
        Al[k] = A[i*DIM+k];
    for (j = 0; j < DIM; j++) {
        for (k = 0; k < DIM; k++)
            Bl[k] = B[k*DIM+j];
        sum = 0.0;
        for (k = 0; k < DIM; k++)
            sum += Al[k] * Bl[k];
        C[i*DIM+j] = sum;
    }
 }
