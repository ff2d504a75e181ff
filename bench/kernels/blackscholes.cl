// Black-Scholes prices of European call and put options, one option per work-item:
// exp, log, sqrt, and the Abramowitz-Stegun polynomial for the normal CDF.
float cnd(float d)
{
    const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f,
                a4 = -1.821255978f, a5 = 1.330274429f, rsqrt2pi = 0.39894228040143267794f;
    float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
    float c = rsqrt2pi * exp(-0.5f * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
    return d > 0.0f ? 1.0f - c : c;
}

__kernel void blackscholes(__global const float *S, __global const float *X,
                           __global const float *T, __global float *call,
                           __global float *put, float r, float v)
{
    size_t i = get_global_id(0);
    float s = S[i], x = X[i], t = T[i];
    float sqrt_t = sqrt(t);
    float d1 = (log(s / x) + (r + 0.5f * v * v) * t) / (v * sqrt_t);
    float d2 = d1 - v * sqrt_t;
    float e = exp(-r * t);
    float n1 = cnd(d1), n2 = cnd(d2);
    call[i] = s * n1 - x * e * n2;
    put[i] = x * e * (1.0f - n2) - s * (1.0f - n1);
}
