// Divergent loops that run in lock-step across work-items (tests/test_lockstep.py).
// Collatz: steps to reach 1, an integer loop with an if/else in it.
kernel void collatz(global const uint *start, global uint *steps, global uint *peak) {
    size_t i = get_global_id(0);
    uint n = start[i], k = 0, top = n;
    while (n != 1u) {
        if (n & 1u)
            n = 3u * n + 1u;
        else
            n >>= 1;
        top = max(top, n);
        k++;
    }
    steps[i] = k;
    peak[i] = top;
}

// A for loop left by break: the first step at which x passes a limit.
kernel void escape(global const float *a, global int *at, global float *last, float limit) {
    int i = get_global_id(0);
    float x = a[i], r = 1.5f + 0.25f * a[i];
    int j;
    for (j = 0; j < 200; j++) {
        x = r * x * (1.0f - x) + 0.001f;
        if (x > limit || x < -limit)
            break;
    }
    at[i] = j;
    last[i] = x;
}

// continue, a do-while, and a loop declared in its for.
kernel void skips(global const int *n, global int *out, global float *f) {
    int i = get_global_id(0);
    int m = n[i], acc = 0;
    for (int j = 0; j < m; ++j) {
        if (j % 3 == 0)
            continue;
        acc += j;
        if (acc > 400)
            break;
    }
    float y = (float)m;
    do {
        y = y * 0.5f + 1.0f;
    } while (y > 2.5f && m > 0);
    out[i] = acc;
    f[i] = y;
}

// Two divergent loops with statements between them, 2-D ids and a nested if.
kernel void two_loops(global const int *a, global int *out, int width) {
    int x = get_global_id(0), y = get_global_id(1);
    int v = a[y * width + x], s = 0, t;
    while (v > 0) {
        if (v & 1) {
            s += v;
            if (s > 1000) s -= 999;
        } else {
            s ^= v;
        }
        v >>= 1;
    }
    t = s * 2 + x;
    int c = 0;
    while (t > 1 && c < 50) {
        t = t % 2 ? t - 1 : t / 2;
        c++;
    }
    out[y * width + x] = s + 10000 * c;
}

// Loops that stay as they are: a load in the loop, an early return, a store in it.
kernel void search(global const int *a, global int *out, int n, int key) {
    int i = get_global_id(0);
    int j = i;
    while (j < n && a[j] != key)
        j++;
    out[i] = j;
}
kernel void early(global const int *a, global int *out) {
    int i = get_global_id(0), v = a[i], k = 0;
    while (v > 1) {
        if (v == 7) { out[i] = -1; return; }
        v = v % 2 ? 3 * v + 1 : v / 2;
        k++;
    }
    out[i] = k;
}

// Narrow and wide types, ||, a ternary, nested ifs with break in an else, a private
// first set inside the loop, and a for (;;) left only by break.
kernel void mixed(global const int *a, global int *out, global double *d) {
    int i = get_global_id(0);
    uchar c = (uchar)(a[i] | 1);    // not 0: the loop sets last
    short h = (short)(a[i] * 7);
    double x = a[i] * 0.25;
    int last;
    uint k = 0;
    while (c != 0 || h > 100) {
        c = c > 3 ? c - 3 : 0;
        h = (short)(h / 2);
        x = x * 1.5 + (k & 1 ? 1.0 : -0.5);
        last = c + h;
        if (x > 50.0) {
            if (k > 10u)
                x -= 40.0;
            else {
                last = -last;
                break;
            }
        }
        k++;
    }
    int n = 0;
    for (;;) {
        int step;
        if (n & 1)
            step = 3;
        else
            step = 1;
        n += step;
        if (n > (a[i] & 15))
            break;
    }
    out[i] = (int)k + 1000 * n + (c == 0 && h <= 100 ? last : 0);
    d[i] = x;
}

// Not group-blind (a local id): lock-step only in whole blocks of CL2C_LANES.
kernel void local_ids(global const uint *a, global uint *out) {
    size_t g = get_global_id(0);
    uint n = a[g] + (uint)get_local_id(0), k = 0;
    while (n > 1u && k < 1000u) {
        n = (n & 1u) ? 3u * n + 1u : n / 2u;
        k++;
    }
    out[g] = k;
}

// Private pointers and a const private live across the loop.
kernel void pointers(global const float *a, global float *out, int n) {
    int i = get_global_id(0);
    global const float *row = a + 2 * i;
    const float scale = row[1];
    float x = row[0];
    int k = 0;
    while (x < 100.0f && k < n) {
        x = x * scale + 1.0f;
        k++;
    }
    global float *dst = out + i;
    *dst = x + row[1] * (float)k;
}

// A pointer into a private array, kept across the loop: the work-items stay one by one.
kernel void into_array(global const int *a, global int *out) {
    int i = get_global_id(0);
    int tmp[2] = {a[i], 2 * a[i]};
    int *p = tmp;
    int k = 0, v = a[i];
    while (v > 1) {
        v = v & 1 ? 3 * v + 1 : v / 2;
        k++;
    }
    out[i] = k + p[1];
}

// Floats the loop computes and nothing after it reads: a finished lane may go on computing
// them unmasked (y, w); the others keep their selects (x read after, u under an if, v from
// integer arithmetic that garbage could overflow).
kernel void dead_floats(global const float *a, global int *steps, global float *out) {
    int i = get_global_id(0);
    float x = a[i], y = 0.5f * a[i], u = 0.0f, v = 0.0f, w = 1.0f;
    int k = 0;
    while (k < 1000 && x * x + y * y <= 4.0f) {
        float t = x * x - y * y + 0.3f;
        y = 2.0f * x * y - 0.1f;
        w = w * 0.5f + t;
        if (t > 0.0f)
            u += t;
        v = k * 7 + 0.5f;
        x = t + y * w * 1e-3f + u * 1e-6f + v * 1e-9f;
        k++;
    }
    steps[i] = k;
    out[i] = x;
}

// The condition and the body both compute x * 3u: the lanes test it at the top of each
// step, next to the body (a for with a step of two, and a break).
__kernel void shared_step(__global const uint *a, __global uint *out, __global uint *steps) {
    size_t i = get_global_id(0);
    uint x = a[i], n = 0;
    for (uint j = 0; (x * 3u) % 7u != 0u && j < 64u; j += 2u) {
        x = (x * 3u) % 1009u + j;
        n++;
        if (x == 500u)
            break;
    }
    out[i] = x;
    steps[i] = n;
}

// Conditions that are not comparisons (x & 4, x % 5, a while on x itself): a lane's
// predicate is 0 or 1 all the same. (`if (x & 4)` once gave 4, which `&` with the
// running lane's 1 turned into 0.) n++ under a predicate becomes n += predicate.
__kernel void truthy(__global const int *a, __global int *out) {
    int i = get_global_id(0);
    int x = a[i], s = 0, n = 0;
    while (x) {
        if (x & 4)
            s += 3;
        if (x % 5)
            n++;
        x >>= 1;
    }
    out[i] = s * 1000 + n;
}
