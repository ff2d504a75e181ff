/* The Guide's shortest paths (kernels/gpu/guide_dijkstra.cl) and the CSR SpMV
 * (spmv_csr.cl) by hand. The shortest paths: the same frontier algorithm (relax the
 * edges of the vertices whose cost fell, until none does), the relaxations made safe
 * with an atomic minimum (the kernel's plain read-then-write may lose one). */
#include <float.h>
#include "hand.h"

static inline void atomic_min_float(float *p, float v)
{
    float old;
    __atomic_load(p, &old, __ATOMIC_RELAXED);
    while (v < old &&
           !__atomic_compare_exchange(p, &old, &v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

void hand_sssp(const int *restrict vertex, const int *restrict edge,
               const float *restrict weight, int *restrict mask, float *restrict cost,
               float *restrict updating, int nvertices, int nedges, int source, int padded)
{
    for (int v = 0; v < padded; v++) {
        mask[v] = v == source;
        cost[v] = updating[v] = v == source ? 0.0f : FLT_MAX;
    }
    int changed = 1;
    while (changed) {
        changed = 0;
        #pragma omp parallel
        {
            #pragma omp for schedule(dynamic, 1024)
            for (int v = 0; v < nvertices; v++) {
                if (!mask[v])
                    continue;
                mask[v] = 0;
                const int end = v + 1 < nvertices ? vertex[v + 1] : nedges;
                for (int e = vertex[v]; e < end; e++)
                    atomic_min_float(&updating[edge[e]], cost[v] + weight[e]);
            }
            #pragma omp for schedule(static) reduction(|: changed)
            for (int v = 0; v < nvertices; v++) {
                if (cost[v] > updating[v]) {
                    cost[v] = updating[v];
                    mask[v] = 1;
                    changed = 1;
                }
                updating[v] = cost[v];
            }
        }
    }
}

void hand_spmv(const int *restrict row_start, const int *restrict col,
               const float *restrict val, const float *restrict x, float *restrict y,
               int nrows)
{
    #pragma omp parallel for schedule(static)
    for (int r = 0; r < nrows; r++) {
        float sum = 0.0f;
        for (int k = row_start[r]; k < row_start[r + 1]; k++)
            sum += val[k] * x[col[k]];
        y[r] = sum;
    }
}
