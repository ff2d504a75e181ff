// A grab bag of C language features in OpenCL C. Each work-item writes NOUT ints.
#define NOUT 64

typedef int myint;
typedef unsigned int myuint;

enum Color { RED, GREEN = 5, BLUE };          // BLUE == 6
typedef enum Color Color;

typedef struct Params {
    char tag;      // padding follows
    int scale;
    float bias;
    short small;   // padding follows
} Params;

struct Point {
    int x;
    int y;
    float w;
};

union FloatBits {
    float f;
    uint u;
};

__constant int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
__constant float ftable[4] = {0.5f, 1.5f, -2.25f, 8.0f};

static int gid_helper(void)           // a helper that reads the work-item context
{
    return (int)get_global_id(0);
}

static int twice(int x) { return 2 * x; }

static int twice_plus_gid(int x)      // a helper calling helpers
{
    return twice(x) + gid_helper();
}

static int classify(Color c)
{
    switch (c) {
    case RED:
        return 10;
    case GREEN:
    case BLUE:                       // fall-through into the next label
        return 20 + (int)c;
    default:
        break;
    }
    return -1;
}

static int sw(int v)
{
    int r = 0;
    switch (v & 7) {
    case 0: r += 1;                  // fall through
    case 1: r += 2; break;
    case 2: { int t = v * 3; r = t; } break;
    case 5: r = -5; break;
    default: r = 100;
    }
    return r;
}

__kernel void features(__global const int *in, __global int *out, Params p,
                       __global struct Point *pts)
{
    int gid = get_global_id(0);
    __global int *o = out + gid * NOUT;
    int v = in[gid];
    int w = in[gid + 1];               // input is one longer than the range
    int n = 0;

    /* helpers */
    o[n++] = gid_helper();
    o[n++] = twice_plus_gid(v);

    /* struct by value, struct array through a __global pointer */
    o[n++] = p.tag + p.scale * v + p.small;
    o[n++] = (int)(p.bias * 4.0f);
    struct Point q = pts[gid];
    o[n++] = q.x + q.y;
    pts[gid].x = q.y;
    pts[gid].y = q.x;
    pts[gid].w = q.w * 2.0f;
    struct Point r = {1, 2, 3.0f};
    o[n++] = r.x + r.y + (int)r.w;

    /* union, typedef, enum, switch */
    union FloatBits fb;
    fb.f = (float)v;
    o[n++] = (int)fb.u;
    fb.u = 0x3f800000u;
    o[n++] = (int)(fb.f * 10.0f);
    myint mi = v;
    myuint mu = (myuint)v;
    o[n++] = mi + (int)mu;
    o[n++] = classify(RED) + classify(GREEN) * 100 + classify(BLUE) * 10000;
    o[n++] = classify((Color)(v & 7));
    o[n++] = sw(v);
    o[n++] = BLUE;

    /* program-scope __constant arrays */
    o[n++] = table[v & 7] + table[(v >> 3) & 7] * 10;
    o[n++] = (int)(ftable[v & 3] * 4.0f);

    /* loops with break / continue */
    int s = 0;
    for (int i = 0; i < 20; i++) {
        if (i == (v & 15)) break;
        if (i % 3 == 0) continue;
        s += i;
    }
    o[n++] = s;
    int k = 0, acc = 0;
    while (1) {
        k++;
        if (k & 1) continue;
        acc += k;
        if (k > (v & 31)) break;
    }
    o[n++] = acc;
    int dw = 0;
    do {
        dw += 3;
        if (dw == 9) continue;
        if (dw > (v & 63)) break;
    } while (dw < 40);
    o[n++] = dw;
    int nested = 0;
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) {
            if (j > i) break;
            nested += i * j;
        }
    o[n++] = nested;

    /* ternary */
    o[n++] = v > w ? v : w;
    o[n++] = (v & 1) ? ((v & 2) ? 3 : 2) : -1;

    /* sizeof */
    o[n++] = sizeof(int) + 10 * sizeof(char) + 100 * sizeof(long) + 1000 * sizeof(short);
    o[n++] = sizeof(float4) + 100 * sizeof(float3) + 10000 * sizeof(int2);
    o[n++] = sizeof(Params) + 100 * sizeof(struct Point) + 10000 * sizeof(union FloatBits);
    o[n++] = sizeof(v) + sizeof(q) * 10;

    /* casts */
    float fv = (float)v / 7.0f;
    o[n++] = (int)fv;
    o[n++] = (int)(-fv);
    o[n++] = (char)(v * 37);
    o[n++] = (uchar)(v * 37);
    o[n++] = (short)(v * 7919);
    o[n++] = (ushort)(v * -7919);
    o[n++] = (int)(uint)(-v);
    o[n++] = (int)((long)v * 100000 >> 16);

    /* integer division and modulo of negative numbers */
    int d = (w & 7) + 1;               // 1..8, never zero
    o[n++] = (-v) / d;
    o[n++] = (-v) % d;
    o[n++] = v / (-d);
    o[n++] = v % (-d);
    o[n++] = (v - 500) / d;
    o[n++] = (v - 500) % d;
    o[n++] = -7 / 2 + 100 * (-7 % 2);

    /* shifts: the count is masked to the width of the left operand */
    int sh = 33 + (w & 3);              // 33..36 at run time
    o[n++] = v << sh;                   // == v << (sh & 31)
    o[n++] = v << 33;
    o[n++] = (-v) >> sh;
    o[n++] = (int)((uint)(v | 0x80000000u) >> sh);
    long lv = (long)v;
    o[n++] = (int)(lv << (sh + 32));    // long: masked to 6 bits
    o[n++] = (int)((ulong)0xF0000000F0000000ul >> (sh + 28));
    o[n++] = (-v) >> 2;                 // arithmetic shift of a negative int
    o[n++] = (int)(v | 0x80000000u) >> 3;

    /* unsigned wraparound */
    uint u = (uint)v;
    o[n++] = (int)(u - 1000u);
    o[n++] = (int)(0xFFFFFFFFu * u);
    o[n++] = (int)(0u - 1u + 2u);
    uchar uc = (uchar)v;
    uc += 250;
    o[n++] = uc;
    ushort us = 65535;
    us++;
    o[n++] = us;

    /* mixed signed/unsigned comparisons */
    o[n++] = (-1 < 1u);
    o[n++] = ((-v) < (uint)w);
    o[n++] = ((uint)v > -1);
    o[n++] = ((long)-1 < 1u);
    o[n++] = (-v < (int)(uint)w);

    /* comma, compound assignment, pre/post increment */
    int c = v;
    c += 3; c *= 2; c -= 1; c /= 3; c %= 7; c <<= 2; c >>= 1; c &= 0x7f; c |= 0x100; c ^= 0x55;
    o[n++] = c;
    int e = v;
    int e1 = e++;
    int e2 = ++e;
    o[n++] = e1 * 1000 + e2 - e;
    o[n++] = (e = 5, e + 1);

    /* logical operators short-circuit */
    int hits = 0;
    if ((v & 1) && (hits += 1)) hits += 10;
    if ((v & 2) || (hits += 100)) hits += 1000;
    o[n++] = hits;
    o[n++] = !v + !!w * 2;

    while (n < NOUT) o[n++] = 0x7777;
}
