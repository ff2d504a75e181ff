/* GCC 12.2 at -O3 -fno-strict-aliasing split this loop, turned `fl[i] = 0` into a
 * memset and placed it after the loop it split off for the `|=` updates: every flag
 * came out 0 (125 expected). The shape is checking mode's regions code (a work-item
 * loop setting a private struct's initialisation flags, cl2c_ck_item's stores, a
 * swizzle store through a pointer). cl2c's flags must give the right answer. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { float s[4]; } f4;
typedef struct { float s[2]; } f2;
typedef struct { f4 v; int n; f2 w; } S;
typedef struct { size_t lid[3]; uint64_t me, me0, local_me, local_me0; char pad[3200]; } T;

static inline f2 splat2(float x) { f2 r = {{x, x}}; return r; }

static inline f2 swizzle_set(f4 *v, int a, int b, f2 x) {
    const int idx[2] = {a, b};
    for (int i = 0; i < 2; ++i) v->s[idx[i]] = x.s[i];
    return x;
}

static inline void item(T *t, size_t l0, size_t l1, size_t l2, size_t llid) {
    t->lid[0] = l0; t->lid[1] = l1; t->lid[2] = l2;
    const uint64_t who = (uint64_t)(llid & 0xfff) << 24;
    t->me = t->me0 | who;
    t->local_me = t->local_me0 | who;
}

__attribute__((noinline)) void flags(T *ck, S *s, unsigned short *fl, size_t ls0,
                                     size_t ls1, size_t ls2, int w) {
    for (size_t l2 = 0; l2 < ls2; ++l2)
        for (size_t l1 = 0; l1 < ls1; ++l1)
            for (int l0 = 0; l0 < (int) ls0; ++l0) {
                const size_t i = l0 + (ls0 * (l1 + (ls1 * l2)));
                item(ck, l0, l1, l2, i);
                fl[i] = 0;
                s[i].v.s[0] = 1.0f;
                fl[i] |= 1;
                s[i].w = splat2(2.0f);
                fl[i] |= 48;
                if (w) { swizzle_set(&s[i].v, 2, 3, splat2(3.0f)); fl[i] |= 12; }
                if (w) { s[i].n = 2; fl[i] |= 64; }
            }
}

int main(void) {
    enum { N = 16 };
    char *mem = aligned_alloc(64, 4096);
    T *ck = calloc(1, sizeof(T));
    if (mem == NULL || ck == NULL)
        return 2;
    memset(mem, 0, 4096);
    unsigned short *fl = (unsigned short *)(mem + 1024);
    flags(ck, (S *) mem, fl, N, 1, 1, 1);
    int wrong = 0;
    for (int i = 0; i < N; ++i)
        wrong += fl[i] != 125;
    printf("%d of %d flags wrong\n", wrong, N);
    return wrong != 0;
}
