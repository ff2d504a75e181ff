/* blackscholes.cl by hand: one vectorised loop over the options. expf and logf get
 * glibc's vector versions (libmvec, within 4 ulp) through `declare simd`, which
 * glibc's math.h only declares under -ffast-math; sqrtf is one instruction under
 * -fno-math-errno. */
#include "hand.h"

#pragma omp declare simd notinbranch
float expf(float);
#pragma omp declare simd notinbranch
float logf(float);

#pragma omp declare simd notinbranch
static inline float cnd(float d)
{
    const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f,
                a4 = -1.821255978f, a5 = 1.330274429f, rsqrt2pi = 0.39894228040143267794f;
    const float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    const float c = rsqrt2pi * expf(-0.5f * d * d) *
                    (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
    return d > 0.0f ? 1.0f - c : c;
}

void hand_blackscholes(const float *restrict S, const float *restrict X, const float *restrict T,
                       float *restrict call, float *restrict put, float r, float v, long n)
{
    #pragma omp parallel for simd schedule(static)
    for (long i = 0; i < n; i++) {
        const float s = S[i], x = X[i], t = T[i];
        const float sqrt_t = sqrtf(t);
        const float d1 = (logf(s / x) + (r + 0.5f * v * v) * t) / (v * sqrt_t);
        const float d2 = d1 - v * sqrt_t;
        const float e = expf(-r * t);
        const float n1 = cnd(d1), n2 = cnd(d2);
        call[i] = s * n1 - x * e * n2;
        put[i] = x * e * (1.0f - n2) - s * (1.0f - n1);
    }
}
