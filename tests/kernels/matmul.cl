// Matrix multiply, "Version 1" to "Version 5" of the lecture (seed 003), one kernel each.
// The lecture hard-codes '#define DIM 1000'; here DIM comes from the build options.
#ifndef DIM
#define DIM 1000                                     // Groesse der Matrix
#endif

// Version 1: C zeilenweise (accumulates into C)
__kernel void matmult_v1(__global float *A, __global float *B, __global float *C)
{
    int i, j, k;
    i = get_global_id(0);
    for (j = 0; j < DIM; j++)
        for (k = 0; k < DIM; k++)
            C[i*DIM+j] += A[i*DIM+k] * B[k*DIM+j];

}

// Version 2: C zeilenweise, schreibend
__kernel void matmult_v2(__global float *A, __global float *B, __global float *C) {
    int i, j, k;
    float sum;                                         // Private Variable fuer Zwischenergebnisse
    i = get_global_id(0);
    for (j = 0; j < DIM; j++) {
        sum = 0.0;
        for (k = 0; k < DIM; k++)
            sum += A[i*DIM+k] * B[k*DIM+j];
        C[i*DIM+j] = sum;
    }
}

// Version 3: C elementweise
__kernel void matmult_v3(__global float *A, __global float *B, __global float *C) {
    int i, j, k;
    float sum = 0.0;
    i = get_global_id(0);
    j = get_global_id(1);
    for (k = 0; k < DIM; k++)
        sum += A[i*DIM+k] * B[k*DIM+j];
    C[i*DIM+j] = sum;
}

// Version 4: Schleifen tauschen?
__kernel void matmult_v4(__global float *A, __global float *B, __global float *C) {
    int i, j, k;
    float sum = 0.0;
    j = get_global_id(0);
    i = get_global_id(1);
    for (k = 0; k < DIM; k++)
        sum += A[i*DIM+k] * B[k*DIM+j];
    C[i*DIM+j] = sum;
}

// Version 5: C zeilenweise, A privat
__kernel void matmult_v5(__global float *A, __global float *B, __global float *C) {
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
