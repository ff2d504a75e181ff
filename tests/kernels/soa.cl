// Vector privates that cross a cut between regions: per-work-item arrays by component
// (a structure of arrays), tests/test_soa_privates.py.

// Across a barrier, with a swizzle store, a float3 and an int2, and a late return.
kernel void across(global const float4 *in, global float4 *out, global int2 *ids,
                   local float *tmp) {
    size_t l = get_local_id(0), g = get_global_id(0);
    float4 v = in[g];
    float3 w = v.zyx * 2.0f;
    int2 k = (int2)((int)l, (int)g);
    tmp[l] = v.x + v.w;
    barrier(CLK_LOCAL_MEM_FENCE);
    v.yz = (float2)(tmp[(l + 1) % get_local_size(0)], w.y);
    k.y += 3;
    if (v.x > 0.5f) {
        out[g] = v;
        ids[g] = k;
        return;
    }
    out[g] = (float4)(w, v.y);
    ids[g] = k.yx;
}

// A pointer to the vector: stays an array of vectors.
void bump(float4 *p) { p->x += 1.0f; }
kernel void pointed(global const float4 *in, global float4 *out, local float *tmp) {
    size_t l = get_local_id(0), g = get_global_id(0);
    float4 v = in[g];
    tmp[l] = v.w;
    barrier(CLK_LOCAL_MEM_FENCE);
    bump(&v);
    v.w = tmp[get_local_size(0) - 1 - l];
    out[g] = v;
}
