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
