// OpenCL C 2.0 program-scope variables (spec 6.5): every form, with initializers
// that take the addresses of other globals, shared by the kernels of a program.
typedef struct { int hits; float scale; int *where; } stats_t;

int launches;                            // unqualified: __global, zero
global int total = 10;
static global float table[4] = {0.5f, 1.5f, 2.5f, 3.5f};
global int ring[3] = {5, 6, 7};
global int *global cursor = &ring[1];    // the address of another global
global int *next = ring + 2;
constant int bias = 1000;
constant int *global bias_at = &bias;
global stats_t stats = {0, 2.0f, &total};
global int4 lanes = (int4)(1, 2, 3, 4);

// A helper that touches program storage: it needs the work-item context too.
int record(int value) {
    stats.hits += 1;
    *stats.where += value;
    return stats.hits;
}

kernel void advance(global int *out) {
    size_t i = get_global_id(0);
    if (i == 0) {
        launches += 1;
        record(2);
        *cursor += 1;
        *next -= 1;
        lanes += (int4)(1);
    }
    out[i] = (int)(table[i & 3] * stats.scale) + *bias_at;
}

kernel void snapshot(global int *out) {
    out[0] = launches;
    out[1] = total;
    out[2] = ring[0];
    out[3] = ring[1];
    out[4] = ring[2];
    out[5] = stats.hits;
    out[6] = lanes.x + lanes.y + lanes.z + lanes.w;
    out[7] = (int)(cursor - ring);
}

// Barriers: under the regions and fibers schedules alike.
kernel void shifted(global int *out) {
    local int tile[64];
    size_t l = get_local_id(0);
    tile[l] = ring[l % 3] + total;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[(l + 1) % get_local_size(0)];
}
