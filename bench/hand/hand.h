/* Shared by the hand-written baselines: each file is one kernel of bench/kernels/,
 * written the best plain C+OpenMP way for the CPU, with the same inputs and outputs. */
#ifndef BENCH_HAND_H
#define BENCH_HAND_H
#include <math.h>
#include <stdlib.h>
#endif
