"""Halving and doubling uniform loops unrolled (cl2c/workgroup/passes/unrolling.py): where the
local size is known, the loop asks the C compiler for complete unrolling, and the
results stay those of the tree the kernel spells out, bit for bit (NumPy replays it in
the same order)."""
from __future__ import annotations

import numpy as np
import pytest

import cl2c

pytestmark = pytest.mark.optimised      # what the optimiser makes of cl2c's C

REDUCE = r"""
__kernel REQD
void reduce(__global const float *in, __global float *out)
{
    __local float l[LS];
    int lid = get_local_id(0);
    l[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = get_local_size(0) / 2; s > 0; STEP) {
        if (lid < s)
            l[lid] += l[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = l[0];
}
"""

# A Hillis-Steele inclusive scan: the counter doubles.
SCAN = r"""
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void scan(__global const float *in, __global float *out)
{
    __local float l[64];
    int lid = get_local_id(0);
    l[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = 1; d < 64; d <<= 1) {
        float v = lid >= d ? l[lid - d] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        l[lid] += v;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = l[lid];
}
"""


def tree_sums(x, ls):
    """Each group's sum in the kernel's order: l[i] += l[i + s], s = ls/2 .. 1."""
    l = x.reshape(-1, ls).copy()
    s = ls // 2
    while s > 0:
        l[:, :s] += l[:, s:2 * s]
        s //= 2
    return l[:, 0]


@pytest.mark.parametrize("step", ["s /= 2", "s >>= 1", "s = s >> 1", "s = s / 2"])
@pytest.mark.parametrize("ls", [256, 64])
def test_a_known_tree_is_unrolled_and_sums_as_written(step, ls):
    options = f"-DSTEP='{step}' -DLS={ls} " \
              f"-DREQD='__attribute__((reqd_work_group_size({ls}, 1, 1)))'"
    c_source = cl2c.translate(REDUCE, "reduce.cl", options).c_source
    assert c_source.count("#pragma GCC unroll 16") == 1
    assert "1 halving loop unrolled" in c_source
    x = np.random.default_rng(3).standard_normal(ls * 40).astype(np.float32)
    out = np.zeros(40, np.float32)
    cl2c.Program(REDUCE, options).build().reduce((x.size,), (ls,), x, out)
    np.testing.assert_array_equal(out, tree_sums(x, ls))


def test_an_unknown_local_size_leaves_the_loop_alone():
    options = "-DSTEP='s /= 2' -DLS=256 -DREQD="
    c_source = cl2c.translate(REDUCE, "reduce.cl", options).c_source
    assert "unroll" not in c_source


def test_a_doubling_scan_is_unrolled_and_scans_as_written():
    c_source = cl2c.translate(SCAN, "scan.cl").c_source
    assert c_source.count("#pragma GCC unroll 16") == 1
    x = np.random.default_rng(4).standard_normal(64 * 8).astype(np.float32)
    out = np.zeros_like(x)
    cl2c.Program(SCAN).build().scan((x.size,), (64,), x, out)
    want = x.reshape(-1, 64).copy()
    d = 1
    while d < 64:
        shifted = np.zeros_like(want)
        shifted[:, d:] = want[:, :-d]
        want = want + shifted
        d *= 2
    np.testing.assert_array_equal(out, want.reshape(-1))
