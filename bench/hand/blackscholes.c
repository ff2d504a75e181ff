/* blackscholes.cl by hand: vectorised loops over blocks of 16 options, two blocks an
 * iteration (the one at i and the one at i + 16), their statements alternating: each
 * option is a long chain of dependent operations, and two chains side by side keep the
 * CPU busy where one leaves it waiting (1.2-1.3x on a Zen 5 core). Adjacent blocks, not
 * the two halves of the range: twice the streams of memory cost that out of cache. expf and logf get glibc's vector
 * versions (libmvec, within 4 ulp) through `declare simd`, which glibc's math.h only
 * declares under -ffast-math; sqrtf is one instruction under -fno-math-errno. */
#include "hand.h"

#pragma omp declare simd notinbranch
float expf(float);
#pragma omp declare simd notinbranch
float logf(float);

static const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f,
                   a4 = -1.821255978f, a5 = 1.330274429f, rsqrt2pi = 0.39894228040143267794f;

void hand_blackscholes(const float *restrict S, const float *restrict X, const float *restrict T,
                       float *restrict call, float *restrict put, float r, float v, long n)
{
    enum { B = 16 };
    const long blocks = n / (2 * B);
    const float mu = r + 0.5f * v * v;
    #pragma omp parallel for schedule(static)
    for (long b = 0; b < blocks; b++)
    #pragma omp simd
    for (long i = 2 * B * b; i < 2 * B * b + B; i++) {
        const long j = i + B;
        const float s = S[i], x = X[i], t = T[i];
        const float s2 = S[j], x2 = X[j], t2 = T[j];
        const float sqrt_t = sqrtf(t), sqrt_t2 = sqrtf(t2);
        const float d1 = (logf(s / x) + mu * t) / (v * sqrt_t);
        const float d1b = (logf(s2 / x2) + mu * t2) / (v * sqrt_t2);
        const float d2 = d1 - v * sqrt_t, d2b = d1b - v * sqrt_t2;
        const float e = expf(-r * t), e2 = expf(-r * t2);
        const float k1 = 1.0f / (1.0f + 0.2316419f * fabsf(d1));
        const float k1b = 1.0f / (1.0f + 0.2316419f * fabsf(d1b));
        const float k2 = 1.0f / (1.0f + 0.2316419f * fabsf(d2));
        const float k2b = 1.0f / (1.0f + 0.2316419f * fabsf(d2b));
        const float g1 = expf(-0.5f * d1 * d1), g1b = expf(-0.5f * d1b * d1b);
        const float g2 = expf(-0.5f * d2 * d2), g2b = expf(-0.5f * d2b * d2b);
        const float c1 = rsqrt2pi * g1 * (k1 * (a1 + k1 * (a2 + k1 * (a3 + k1 * (a4 + k1 * a5)))));
        const float c1b = rsqrt2pi * g1b * (k1b * (a1 + k1b * (a2 + k1b * (a3 + k1b * (a4 + k1b * a5)))));
        const float c2 = rsqrt2pi * g2 * (k2 * (a1 + k2 * (a2 + k2 * (a3 + k2 * (a4 + k2 * a5)))));
        const float c2b = rsqrt2pi * g2b * (k2b * (a1 + k2b * (a2 + k2b * (a3 + k2b * (a4 + k2b * a5)))));
        const float n1 = d1 > 0.0f ? 1.0f - c1 : c1, n1b = d1b > 0.0f ? 1.0f - c1b : c1b;
        const float n2 = d2 > 0.0f ? 1.0f - c2 : c2, n2b = d2b > 0.0f ? 1.0f - c2b : c2b;
        call[i] = s * n1 - x * e * n2;
        call[j] = s2 * n1b - x2 * e2 * n2b;
        put[i] = x * e * (1.0f - n2) - s * (1.0f - n1);
        put[j] = x2 * e2 * (1.0f - n2b) - s2 * (1.0f - n1b);
    }
    for (long i = 2 * B * blocks; i < n; i++) {      /* the last < 32 options */
        const float s = S[i], x = X[i], t = T[i], sqrt_t = sqrtf(t);
        const float d1 = (logf(s / x) + mu * t) / (v * sqrt_t), d2 = d1 - v * sqrt_t;
        const float e = expf(-r * t);
        const float k1 = 1.0f / (1.0f + 0.2316419f * fabsf(d1));
        const float k2 = 1.0f / (1.0f + 0.2316419f * fabsf(d2));
        const float c1 = rsqrt2pi * expf(-0.5f * d1 * d1) *
                         (k1 * (a1 + k1 * (a2 + k1 * (a3 + k1 * (a4 + k1 * a5)))));
        const float c2 = rsqrt2pi * expf(-0.5f * d2 * d2) *
                         (k2 * (a1 + k2 * (a2 + k2 * (a3 + k2 * (a4 + k2 * a5)))));
        const float n1 = d1 > 0.0f ? 1.0f - c1 : c1, n2 = d2 > 0.0f ? 1.0f - c2 : c2;
        call[i] = s * n1 - x * e * n2;
        put[i] = x * e * (1.0f - n2) - s * (1.0f - n1);
    }
}
