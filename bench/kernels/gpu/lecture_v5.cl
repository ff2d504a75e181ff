/* The lecture's matrix multiplication (shared/seeds/003), as printed:
 * "Version 5: C zeilenweise, A privat".
 * The bench rewrites the #define DIM line to its size. */
#define DIM 1000                                     // Groesse der Matrix
__kernel void matmult(__global float *A, __global float *B, __global float *C) {
    int k, j, i = get_global_id(0);
    float Al[DIM], sum;                            // Privater Zeilenpuffer
    for (k = 0; k < DIM; k++)
        Al[k] = A[i*DIM+k];                         // Zeile i von A in den Puffer kopieren
    for (j = 0; j < DIM; j++) {
        sum = 0.0;
        for (k = 0; k < DIM; k++)
            sum += Al[k] * B[k*DIM+j];
        C[i*DIM+j] = sum;
    }
 }
