"""Checking builds of a kernel whose work-groups all make the same __local accesses
(cl2c/lower/alike_groups.py) check the __local memory of the first group of each size
on each thread, and only the bounds of the others' (check.h, cl2c_ck_group): what the
first finds, they would. A group of another size, another launch, or a kernel whose
__local accesses depend on its group are checked in full."""
from __future__ import annotations

import random
import re
import warnings

import cl2c
import numpy as np
import pytest

from check_helpers import build, finding
from test_regions_random import GLOBAL, L, kernel as random_kernel

SRC = """
__kernel void reduce(__global const float *in, __global float *out) {
    __local float l[64];
    const int lid = get_local_id(0);
    l[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = get_local_size(0) / 2; s > 0; s /= 2) {
        if (lid < s)
            l[lid] += l[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = l[0];
}
__kernel void mirror(__global int *o) {
    __local int t[16];
    const int lid = get_local_id(0);
    t[lid] = lid;
    barrier(CLK_LOCAL_MEM_FENCE);
    o[get_global_id(0)] = t[15 - lid];
}
__kernel void modk(__global int *o, const int k) {
    __local int t[16];
    const int lid = get_local_id(0);
    t[lid % k] = lid;
    barrier(CLK_LOCAL_MEM_FENCE);
    o[get_global_id(0)] = t[lid % k];
}
__kernel void third(__global int *o) {
    __local int t[16];
    const int lid = get_local_id(0);
    t[lid] = lid;
    if (get_group_id(0) == 3)
        t[0] = lid;
    barrier(CLK_LOCAL_MEM_FENCE);
    o[get_global_id(0)] = t[lid];
}
__kernel void tail(__global const int *in, __global int *o, const int n) {
    __local int t[16];
    const int lid = get_local_id(0);
    if (get_global_id(0) < n)
        t[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    o[get_global_id(0)] = t[lid];
}
__kernel void early(__global int *o, const int n) {
    __local int t[16];
    const int lid = get_local_id(0);
    t[lid] = lid;
    if (get_global_id(0) >= n)
        return;
    t[lid] = 2 * lid;
    o[get_global_id(0)] = t[lid];
}
__kernel void data(__global const int *in, __global int *o) {
    __local int bins[16];
    const int lid = get_local_id(0);
    bins[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&bins[in[get_global_id(0)] & 15]);
    barrier(CLK_LOCAL_MEM_FENCE);
    o[get_global_id(0)] = bins[lid];
}
__kernel void pointer(__global int *o, __local int *t) {
    const int lid = get_local_id(0);
    __local int *mine = t + lid;
    *mine = lid;
    barrier(CLK_LOCAL_MEM_FENCE);
    int m = lid;
    for (int i = 0; i < 4; ++i) {
        if (get_group_id(0) == 2 && i == 1)
            break;
        m = (m + 1) % get_local_size(0);
    }
    o[get_global_id(0)] = t[m];
}
"""
ALIKE = {"reduce", "mirror", "modk"}


@pytest.fixture(scope="module")
def prg():
    return build(SRC, options="-cl2c-check -cl-std=CL2.0", name="alike.cl")


def _alike(prg, kernel: str) -> bool:
    """The last argument of the kernel's cl2c_ck_group call, as its entry makes it."""
    entry = prg.c_source.split(f"int cl2c_kernel_{kernel}(")[1].split("\n}\n")[0]
    calls = [line for line in entry.splitlines() if "cl2c_ck_group(" in line]
    assert calls
    return all(line.strip().endswith(", 1);") for line in calls)


def test_which_kernels_are_alike(prg):
    for kernel in ("reduce", "mirror", "modk", "third", "tail", "early", "data", "pointer"):
        assert _alike(prg, kernel) == (kernel in ALIKE), kernel


def test_alike_groups_give_the_same_results(prg):
    a = np.arange(256, dtype=np.float32)
    out = np.zeros(4, np.float32)
    prg.reduce((256,), (64,), a, out)
    assert np.array_equal(out, a.reshape(4, 64).sum(axis=1))
    o = np.zeros(64, np.int32)
    prg.mirror((64,), (16,), o)
    assert np.array_equal(o, np.tile(np.arange(15, -1, -1), 4))


def test_a_group_of_another_size_is_checked_in_full(prg):
    # the last group of 52 work-items has 4: they read t[15..12], which none wrote
    msg = finding(prg.mirror, (52,), (16,), np.zeros(64, np.int32))
    assert "uninitialized __local" in msg and "group (3,0,0)" in msg


def test_another_launch_is_checked_in_full(prg):
    o = np.zeros(64, np.int32)
    prg.modk((64,), (16,), o, np.int32(16))
    assert np.array_equal(o, np.tile(np.arange(16), 4))
    # the same kernel and group size, and now a race in every group
    assert "data race" in finding(prg.modk, (64,), (16,), o, np.int32(8))


def test_accesses_that_depend_on_the_group_are_checked_in_every_group(prg):
    # a store on a condition of the group id: a race in group 3 alone
    msg = finding(prg.third, (128,), (16,), np.zeros(128, np.int32))
    assert "data race" in msg and "group (3,0,0)" in msg
    # a store on a condition of the global id: the last group leaves words unwritten
    n = 56
    msg = finding(prg.tail, (64,), (16,), np.arange(64, dtype=np.int32),
                  np.zeros(64, np.int32), np.int32(n))
    assert "uninitialized __local" in msg and "group (3,0,0)" in msg
    # a loop that a group id's condition leaves early: group 2 reads the word of the
    # next work-item, which each other group reads only for the work-item 4 on
    o = np.zeros(64, np.int32)
    prg.pointer((64,), (16,), o, cl2c.LocalMemory(4 * 16))
    assert np.array_equal(o[:16], (np.arange(16) + 4) % 16)
    assert np.array_equal(o[32:48], (np.arange(16) + 1) % 16)


def test_a_return_on_a_condition_of_the_global_id_makes_a_kernel_unlike(prg):
    o = np.zeros(64, np.int32)
    prg.early((64,), (16,), o, np.int32(50))
    assert np.array_equal(o[:50], 2 * (np.arange(50) % 16))


def test_data_dependent_local_addresses_are_checked_in_every_group(prg):
    # atomics at an address read from a buffer: out of bounds nowhere (& 15), and the
    # counts right
    data = np.arange(64, dtype=np.int32) * 7
    o = np.zeros(64, np.int32)
    prg.data((64,), (16,), data, o)
    expect = np.concatenate([np.bincount(g & 15, minlength=16) for g in data.reshape(4, 16)])
    assert np.array_equal(o, expect)


TWICE = """
__kernel void twice(__global int *o, const int k) {
    __local int t[16];
    const int lid = get_local_id(0);
    if (GUARD)
        t[lid % k] = lid;
    barrier(CLK_LOCAL_MEM_FENCE);
    o[get_global_id(0)] = t[(lid + 1) % 16] + t[lid];
}
"""


@pytest.mark.parametrize("k", [16, 8])
def test_collected_findings_of_alike_groups_are_those_of_every_group(k):
    """In collect mode the launch goes on after a finding: the later groups, checked
    for bounds only, would find again what the first found, at the same places, which
    are reported once a launch. The same kernel with a guard of the group id (true in
    every group) is checked in every group, and finds the same."""
    def found(guard):
        prg = build(TWICE, options=f"-cl2c-check=collect -DGUARD='{guard}'", name="twice.cl")
        assert _alike(prg, "twice") == (guard == "1")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", cl2c.CheckWarning)
            prg.twice((256,), (16,), np.zeros(256, np.int32), np.int32(k))
        # where and what: the work-item that was first to find it may differ
        return sorted(f.split(" (work-item")[0].split(", which")[0]
                      for f in prg.twice.findings)
    alike = found("1")
    assert alike == found("get_group_id(0) < get_num_groups(0)")
    # k = 8: a race of the stores, reads of words none wrote at both reads
    assert len(alike) == (3 if k == 8 else 0), alike


HISTOGRAM = """
__kernel void histogram(__global const uchar *data, __global uint *out, const int zeroed) {
    __local uint bins[256];
    const int lid = get_local_id(0);
    for (int b = lid; b < 256; b += get_local_size(0))
        if (b < zeroed)
            bins[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&bins[data[get_global_id(0)]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int b = lid; b < zeroed; b += get_local_size(0))
        out[get_group_id(0) * 256 + b] = bins[b];
}
__kernel void short_bins(__global const uchar *data, __global uint *out) {
    __local uint bins[200];
    const int lid = get_local_id(0);
    for (int b = lid; b < 200; b += get_local_size(0))
        bins[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&bins[data[get_global_id(0)]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int b = lid; b < 200; b += get_local_size(0))
        out[get_group_id(0) * 200 + b] = bins[b];
}
"""


@pytest.fixture(scope="module")
def histograms():
    return build(HISTOGRAM, name="histogram.cl")


def test_atomics_at_addresses_read_from_a_buffer_leave_the_rest_alike(histograms):
    """The counters' atomics vary (alike 1 | 2); every group checks the bounds of its own
    (a uchar index of 256 counters needs none), and the first group of each thread made
    sure that the group wrote every counter before them."""
    assert "cl2c_local_stride, 3);" in histograms.c_source
    entry = histograms.c_source.split("void histogram__group(")[1].split("\n}\n")[0]
    assert "bins[CL2C_CK_WITHIN(" in entry
    assert "cl2c_ck_box_whole(" in entry
    data = np.random.default_rng(7).integers(0, 256, 64 * 64, dtype=np.uint8)
    out = np.zeros(64 * 256, np.uint32)
    histograms.histogram((64 * 64,), (64,), data, out, np.int32(256))
    expect = np.stack([np.bincount(g, minlength=256) for g in data.reshape(64, 64)])
    assert np.array_equal(out.reshape(64, 256), expect)


def test_a_counter_no_work_item_wrote_is_found_in_any_group(histograms):
    # the first 128 counters zeroed; only group 37 counts into the others
    data = np.zeros(64 * 64, np.uint8)
    data[37 * 64 + 5] = 200
    msg = finding(histograms.histogram, (64 * 64,), (64,), data,
                  np.zeros(64 * 256, np.uint32), np.int32(128))
    assert "uninitialized __local" in msg and "group (37,0,0)" in msg


def test_an_index_its_type_does_not_keep_in_bounds_is_checked(histograms):
    entry = histograms.c_source.split("void short_bins__group(")[1].split("\n}\n")[0]
    assert "bins[CL2C_CK_INDEX(*CL2C_CK_ARG_READ(" in entry
    data = np.zeros(64 * 4, np.uint8)
    data[3 * 64 + 9] = 230
    msg = finding(histograms.short_bins, (64 * 4,), (64,), data, np.zeros(800, np.uint32))
    assert "out of bounds" in msg and "group (3,0,0)" in msg


TILES = """
__kernel void tile(__global const float *in, __global float *out, const int odd) {
    __local float t[17];
    const int lid = get_local_id(0), gid = get_global_id(0);
    t[lid] = in[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (gid == odd)
        out[gid] = t[lid + 1];
    else if (gid > 0)
        out[gid] = t[lid] + t[lid > 0 ? lid - 1 : 0];
}
__kernel void same_phase(__global const float *in, __global float *out) {
    __local float t[16];
    const int lid = get_local_id(0), gid = get_global_id(0);
    t[lid] = in[gid];
    if (gid > 3)
        out[gid] = t[lid];
}
"""


@pytest.fixture(scope="module")
def tiles():
    return build(TILES, name="tiles.cl")


def test_reads_that_vary_in_a_phase_that_writes_none_of_their_variable(tiles):
    """A tile read on conditions of the global id (alike 5): the first group of each
    thread keeps which words the group wrote at each barrier, and the others' reads
    look there."""
    assert _alike(tiles, "tile") is False
    assert "cl2c_local_stride, 5);" in tiles.c_source.split("int cl2c_kernel_tile(")[1]
    a = np.arange(128, dtype=np.float32)
    out = np.zeros(128, np.float32)
    tiles.tile((128,), (16,), a, out, np.int32(-1))
    expect = a + np.where(np.arange(128) % 16 > 0, np.roll(a, 1), a)
    assert np.array_equal(out[1:], expect[1:])
    # one work-item of group 5 reads the word past the group's: nobody wrote it
    msg = finding(tiles.tile, (128,), (16,), a, out, np.int32(5 * 16 + 15))
    assert "uninitialized __local" in msg and "group (5,0,0)" in msg
    # and a group checked in full finds it too (the first of a thread)
    msg = finding(tiles.tile, (128,), (16,), a, out, np.int32(15))
    assert "uninitialized __local" in msg and "group (0,0,0)" in msg


def test_reads_that_vary_in_a_phase_that_writes_their_variable_are_checked_in_full(tiles):
    assert "cl2c_local_stride, 0);" in tiles.c_source.split("int cl2c_kernel_same_phase(")[1]
    a = np.arange(64, dtype=np.float32)
    out = np.zeros(64, np.float32)
    tiles.same_phase((64,), (16,), a, out)
    assert np.array_equal(out[4:], a[4:])


def _buggy(seed: int) -> str:
    """test_regions_random's kernel, its tile's fill under ``lid < s`` (words left
    unwritten) and one of its barriers dropped (races), each in half of the seeds."""
    src, r = random_kernel(seed), random.Random(seed * 7 + 1)
    if r.random() < 0.5:
        src = src.replace("l[lid] = a[gid];", "if (lid < s) l[lid] = a[gid];", 1)
    barrier = "barrier(CLK_LOCAL_MEM_FENCE);"
    at = [m.start() for m in re.finditer(re.escape(barrier), src)]
    if at and r.random() < 0.5:
        i = r.choice(at)
        src = src[:i] + ";" + src[i + len(barrier):]
    return src


def test_random_kernels_find_the_same_with_groups_alike():
    """Random __local kernels with bugs, in collect mode: as built (alike where they
    are), and with a store never taken on a condition of the group id, which makes every
    group checked in full: the same places and kinds found, launch by launch."""
    seeds = range(1, 25)
    srcs = [_buggy(seed) for seed in seeds]
    unlike = [src.replace("__local int l[64];", "__local int l[64]; __local int u[1]; "
                          "if (get_group_id(0) == 1000000) u[0] = 0;", 1) for src in srcs]
    alike, full = (build("\n".join(s), "-cl2c-check=collect", "random.cl")
                   for s in (srcs, unlike))
    masks = re.findall(r"cl2c_local_stride, (\d)\);", alike.c_source)
    assert {"1", "5"} <= set(masks)
    a = np.random.default_rng(1).integers(-100, 100, GLOBAL).astype(np.int32)
    found = 0
    for seed in seeds:
        for n, s in ((GLOBAL, 20), (200, 5), (37, 64), (0, 0)):
            places = []
            for prg in (alike, full):
                k = getattr(prg, f"k{seed}")
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", cl2c.CheckWarning)
                    k((GLOBAL,), (L,), a, np.zeros(GLOBAL, np.int32), np.int32(n), np.int32(s))
                places.append({re.search(r"random\.cl:(\d+:\d+): ([a-z -]+?)(:| of| at)",
                                         f).group(1, 2) for f in k.findings})
            assert places[0] == places[1], (seed, n, s, srcs[seed - 1])
            found += bool(places[0])
    assert found > 20
