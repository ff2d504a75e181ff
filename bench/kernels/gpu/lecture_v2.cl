/* The lecture's matrix multiplication (shared/seeds/003), as printed:
 * "Version 2: C zeilenweise, schreibend".
 * The bench rewrites the #define DIM line to its size. */
#define DIM 1000                                     // Groesse der Matrix
__kernel void matmult(__global float *A, __global float *B, __global float *C) {
    int i, j, k;
    float sum;                                         // Private Variable für Zwischenergebnisse
    i = get_global_id(0);
    for (j = 0; j < DIM; j++) {
        sum = 0.0;
        for (k = 0; k < DIM; k++)
            sum += A[i*DIM+k] * B[k*DIM+j];
        C[i*DIM+j] = sum;
    }
}
