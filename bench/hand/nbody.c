/* nbody.cl by hand: the float4 bodies (x, y, z, mass) are split into four arrays
 * (structure of arrays, O(n) of the O(n^2) work), then each body's pull is one
 * vectorised reduction over all bodies: contiguous loads, no shuffles. sqrt and the
 * division stay exact, as in the kernel (no rsqrt estimate). */
#include "hand.h"

void hand_nbody(const float *restrict pos, const float *restrict vel, float *restrict new_pos,
                float *restrict new_vel, int n, float dt, float eps2)
{
    float *soa = aligned_alloc(64, 4 * ((size_t)n + 16) * sizeof(float));
    if (!soa)
        abort();
    float *restrict x = soa, *restrict y = x + n + 16, *restrict z = y + n + 16,
          *restrict m = z + n + 16;
    #pragma omp parallel
    {
        #pragma omp for simd schedule(static)
        for (int j = 0; j < n; j++) {
            x[j] = pos[4 * j];
            y[j] = pos[4 * j + 1];
            z[j] = pos[4 * j + 2];
            m[j] = pos[4 * j + 3];
        }
        #pragma omp for schedule(static)
        for (int i = 0; i < n; i++) {
            const float px = x[i], py = y[i], pz = z[i];
            float ax = 0.0f, ay = 0.0f, az = 0.0f;
            #pragma omp simd reduction(+ : ax, ay, az)
            for (int j = 0; j < n; j++) {
                const float rx = x[j] - px, ry = y[j] - py, rz = z[j] - pz;
                const float dist2 = rx * rx + ry * ry + rz * rz + eps2;
                const float inv = 1.0f / sqrtf(dist2);
                const float s = m[j] * inv * inv * inv;
                ax += s * rx;
                ay += s * ry;
                az += s * rz;
            }
            const float vx = vel[4 * i] + ax * dt, vy = vel[4 * i + 1] + ay * dt,
                        vz = vel[4 * i + 2] + az * dt;
            new_vel[4 * i] = vx;
            new_vel[4 * i + 1] = vy;
            new_vel[4 * i + 2] = vz;
            new_vel[4 * i + 3] = vel[4 * i + 3];
            new_pos[4 * i] = px + vx * dt;
            new_pos[4 * i + 1] = py + vy * dt;
            new_pos[4 * i + 2] = pz + vz * dt;
            new_pos[4 * i + 3] = m[i];
        }
    }
    free(soa);
}
