// One step of an all-pairs N-body simulation, float4 throughout: a body is a float4
// (x, y, z, mass) and so is its velocity (w unused). Each work-item sums the softened
// gravitational pull of every body on its own, then moves it by one time step.
__kernel void nbody(__global const float4 *pos, __global const float4 *vel,
                    __global float4 *new_pos, __global float4 *new_vel,
                    int n, float dt, float eps2)
{
    int i = get_global_id(0);
    float4 p = pos[i];
    float4 acc = (float4)(0.0f);
    for (int j = 0; j < n; j++) {
        float4 q = pos[j];
        float4 r;
        r.xyz = q.xyz - p.xyz;
        r.w = 0.0f;
        float dist2 = r.x * r.x + r.y * r.y + r.z * r.z + eps2;
        float inv = 1.0f / sqrt(dist2);
        float s = q.w * inv * inv * inv;
        acc += s * r;
    }
    float4 v = vel[i];
    v.xyz += acc.xyz * dt;
    new_vel[i] = v;
    new_pos[i] = (float4)(p.xyz + v.xyz * dt, p.w);
}
