/* The lecture's matrix multiplication (shared/seeds/003), as printed:
 * "Version 6: C zeilenweise, A priv. B lokal".
 * The bench rewrites the #define DIM line to its size. */
#define DIM 1000                                     // Groesse der Matrix
__kernel void matmult(__global float *A, __global float *B, __global float *C,
                      __local float *Bl) {
    int k, j, i = get_global_id(0);
    float Al[DIM], sum;
    int il = get_local_id(0);
    int nl = get_local_size(0);
    for (k = 0; k < DIM; k++)
        Al[k] = A[i*DIM+k];
    for (j = 0; j < DIM; j++) {
        for (k = il; k < DIM; k+=nl)
            Bl[k] = B[k*DIM+j];
        barrier(CLK_LOCAL_MEM_FENCE);          // Warten, dass alle B kopiert haben
        sum = 0.0;
        for (k = 0; k < DIM; k++)
            sum += Al[k] * Bl[k];
        C[i*DIM+j] = sum;
    }
}
