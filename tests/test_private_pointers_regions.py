"""Private memory reached through a pointer across the regions schedule's cuts (the
CTS's basic/vstore_private and vstore_local, as printed): a pointer into a private array that lives
across a cut (a barrier, or a uniform loop hoisted around the work-item loops) keeps
the array alive with it, and ``sizeof(*p)`` of such a pointer is the size of what it
points to, not of the per-work-item array the pointer now lives in. Every schedule
against fibers, which runs the kernel as written."""
from __future__ import annotations

import numpy as np
import pytest

import cl2c

SOURCE = r"""
/* basic/vstore_private: each work-item zeroes and fills its own private buffer, then
   copies one vector of it out through a char pointer, in a loop of sizeof / sizeof */
kernel void vstore_private(global char2 *src, global uint *offsets, global char2 *dst,
                           uint align) {
    private char2 storage[64];
    int tid = get_global_id(0);
    storage[tid] = (char2)0;
    vstore2(src[tid], offsets[tid], ((private char *)storage) + align);
    uint i;
    private char *sp = (private char *)(storage + offsets[tid]) + align;
    global char *dp = (global char *)(dst + offsets[tid]) + align;
    for (i = 0; i < sizeof(storage[0]) / sizeof(*sp); i++)
        dp[i] = sp[i];
}

/* basic/vstore_local: the same through __local storage and two barriers; sp is a
   private pointer that lives across the second barrier's cut */
kernel void vstore_local(local char2 *shared, global char2 *src, global uint *offsets,
                         global char2 *dst, uint align) {
    int tid = get_global_id(0);
    shared[offsets[tid]] = (char2)0;
    shared[offsets[tid] + 1] = shared[offsets[tid]];
    barrier(CLK_LOCAL_MEM_FENCE);
    vstore2(src[tid], offsets[tid], ((local char *)shared) + align);
    barrier(CLK_LOCAL_MEM_FENCE);
    int i;
    local char *sp = (local char *)(shared + offsets[tid]) + align;
    global char *dp = (global char *)(dst + offsets[tid]) + align;
    for (i = 0; (size_t)i < sizeof(shared[0]) / sizeof(*sp); i++)
        dp[i] = sp[i];
}

/* a pointer into a private array set before a barrier and read after it */
kernel void across_barrier(global const int *in, global int *out, local int *scratch) {
    int lid = get_local_id(0), gid = get_global_id(0);
    int values[4] = {in[gid], 2 * in[gid], 3 * in[gid], 4 * in[gid]};
    int *p = values + (gid & 3);
    scratch[lid] = *p;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[gid] = *p + scratch[(lid + 1) % get_local_size(0)] + (int)sizeof(*p);
}

/* a scalar whose address a pointer keeps across a barrier */
kernel void address_across(global const float *in, global float *out) {
    float x = in[get_global_id(0)];
    float *p = &x;
    barrier(CLK_LOCAL_MEM_FENCE);
    *p += 1.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = x * 2.0f;
}
"""

SCHEDULES = ("auto", "regions", "fibers")


@pytest.fixture(scope="module")
def programs():
    return {s: cl2c.Program(SOURCE).build(options=f"-cl2c-schedule={s}")
            for s in SCHEDULES}


def _agree(programs, run):
    got = {s: run(p) for s, p in programs.items()}
    for s in SCHEDULES:
        for a, b in zip(got[s], got["fibers"]):
            np.testing.assert_array_equal(a, b, err_msg=s)
    return got["fibers"]


@pytest.mark.parametrize("align", [0, 1])
def test_vstore_private_as_the_cts_writes_it(programs, align):
    n = 32
    src = np.arange(1, 2 * n + 1, dtype=np.int8).reshape(n, 2)
    offsets = np.random.default_rng(align).permutation(n).astype(np.uint32)

    def run(p):
        dst = np.zeros((n + 1) * 2, np.int8)
        p.vstore_private((n,), (8,), src, offsets, dst, np.uint32(align))
        return [dst]
    dst, = _agree(programs, run)
    want = np.zeros((n + 1) * 2, np.int8)
    for t in range(n):
        want[2 * offsets[t] + align:2 * offsets[t] + align + 2] = src[t]
    np.testing.assert_array_equal(dst, want)


def test_vstore_local_as_the_cts_writes_it(programs):
    n = 16
    src = np.arange(1, 2 * n + 1, dtype=np.int8).reshape(n, 2)
    offsets = np.random.default_rng(3).permutation(n).astype(np.uint32)

    def run(p):
        dst = np.zeros((n + 1) * 2, np.int8)
        p.vstore_local((n,), (n,), cl2c.LocalMemory((n + 2) * 2), src, offsets, dst,
                       np.uint32(0))
        return [dst]
    dst, = _agree(programs, run)
    want = np.zeros((n + 1) * 2, np.int8)
    for t in range(n):
        want[2 * offsets[t]:2 * offsets[t] + 2] = src[t]
    np.testing.assert_array_equal(dst, want)


def test_pointer_into_private_array_across_a_barrier(programs):
    n, local = 64, 16
    x = np.arange(n, dtype=np.int32) + 5

    def run(p):
        out = np.zeros(n, np.int32)
        p.across_barrier((n,), (local,), x, out, cl2c.LocalMemory(local * 4))
        return [out]
    out, = _agree(programs, run)
    mine = x * ((np.arange(n) & 3) + 1)
    nxt = mine.reshape(-1, local)[:, (np.arange(local) + 1) % local].reshape(-1)
    np.testing.assert_array_equal(out, mine + nxt + 4)


def test_address_of_a_scalar_across_barriers(programs):
    n = 48
    x = np.linspace(-3, 3, n).astype(np.float32)

    def run(p):
        out = np.zeros(n, np.float32)
        p.address_across((n,), (16,), x, out)
        return [out]
    out, = _agree(programs, run)
    np.testing.assert_array_equal(out, (x + np.float32(1)) * np.float32(2))
