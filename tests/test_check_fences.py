"""Checking mode: a barrier orders the memory its fences name (spec 6.13.8):
barrier(CLK_LOCAL_MEM_FENCE) orders no __global accesses, barrier(CLK_GLOBAL_MEM_FENCE)
no __local ones, so two work-items' accesses on either side of it race in the other
space; with the right fence (or both) they do not. One build per schedule."""
from __future__ import annotations

import re

import numpy as np
import pytest

from check_helpers import build, finding

SRC = """
__kernel void global_behind_local(__global int *buf, __global int *out) {
    int l = get_local_id(0), g = get_global_id(0), base = get_group_id(0) * 8;
    buf[g] = g;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = buf[base + 7 - l];
}
__kernel void local_behind_global(__global int *out) {
    __local int t[8];
    int l = get_local_id(0);
    t[l] = l;
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[get_global_id(0)] = t[7 - l];
}
__kernel void fenced(__global int *buf, __global int *out) {
    __local int t[8];
    int l = get_local_id(0), g = get_global_id(0), base = get_group_id(0) * 8;
    t[l] = g;
    buf[g] = g;
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    int a = t[7 - l] + buf[base + 7 - l];
    for (int k = 0; k < 2; k++) {          /* __local only, between __global accesses */
        barrier(CLK_LOCAL_MEM_FENCE);
        t[l] = a + k;
        barrier(CLK_LOCAL_MEM_FENCE);
        a += t[7 - l];
    }
    barrier(CLK_GLOBAL_MEM_FENCE);          /* __global only: the buf reads above */
    buf[base + 7 - l] = a;
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[g] = buf[g];
}
"""


@pytest.fixture(scope="module", params=["auto", "fibers"])
def prg(request):
    return build(SRC, f"-cl2c-check -cl2c-schedule={request.param}")


def ints(n):
    return np.zeros(n, np.int32)


def line_of(text: str) -> int:
    return SRC.splitlines().index(text) + 1


def test_global_race_behind_a_local_fence(prg):
    msg = finding(prg.global_behind_local, (16,), (8,), ints(16), ints(16))
    line = line_of("    out[g] = buf[base + 7 - l];")
    assert re.search(
        rf"kernel 'global_behind_local': bug\.cl:{line}:14: data race: read of __global 'buf' "
        r"at offset \d+, which work-item \(local linear id 7\) wrote with no barrier between "
        r"that fences __global memory \(CLK_GLOBAL_MEM_FENCE\) \(work-item \(0,0,0\) of group "
        r"\([01],0,0\)", msg), msg


def test_local_race_behind_a_global_fence(prg):
    msg = finding(prg.local_behind_global, (16,), (8,), ints(16))
    line = line_of("    out[get_global_id(0)] = t[7 - l];")
    assert re.search(
        rf"kernel 'local_behind_global': bug\.cl:{line}:29: data race: read of __local 't' at "
        r"offset 28, which work-item \(local linear id 7\) wrote with no barrier between that "
        r"fences __local memory \(CLK_LOCAL_MEM_FENCE\) \(work-item \(0,0,0\) of group "
        r"\([01],0,0\)", msg), msg


def test_each_space_fenced_is_silent(prg):
    buf, out = ints(16), ints(16)
    prg.fenced((16,), (8,), buf, out)
    g = np.arange(16)
    mirror = (g // 8) * 8 + 7 - g % 8
    a = 2 * mirror                     # t[7 - l] + buf[base + 7 - l]
    for k in range(2):
        a = a + (a[mirror] + k)
    assert (out == a[mirror]).all(), out
