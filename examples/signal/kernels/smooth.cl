/* A 3-point weighted sum, the ends clamped. The weights come from weights.h:
 * edit it and the build translates this kernel again. */
#include "weights.h"

__kernel void smooth(__global const int *in, __global int *out, const int n)
{
    int i = get_global_id(0);
    int left = in[max(i - 1, 0)];
    int right = in[min(i + 1, n - 1)];
    out[i] = SIDE_WEIGHT * left + CENTER_WEIGHT * in[i] + SIDE_WEIGHT * right;
}
