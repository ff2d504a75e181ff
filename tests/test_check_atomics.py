"""Checking mode: races involving atomic functions. Two atomics on one location race
with nothing; an atomic and a plain access of another work-item do, in one barrier
phase for __local memory, in one launch (across groups too) for __global memory. One
program holds the planted bugs and their correct twins (one build)."""
from __future__ import annotations

import numpy as np
import pytest

from check_helpers import build, finding

SRC = """
__kernel void counter_read(__global int *count, __global int *out) {
    atomic_inc(&count[0]);
    out[get_global_id(0)] = count[0];
}
__kernel void counter_ok(__global int *count, __global int *out) {
    out[get_global_id(0)] = atomic_inc(&count[0]);
}
__kernel void local_write(__global int *out) {
    __local int c;
    if (get_local_id(0) == 0) c = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&c, 1);
    if (get_local_id(0) == 3) c = 5;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = c;
}
__kernel void local_ok(__global int *out) {
    __local int c;
    if (get_local_id(0) == 0) c = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&c, 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = c;
}
__kernel void histogram(__global const int *in, __global int *hist, int plain) {
    __local int h[4];
    int l = get_local_id(0);
    if (l < 4) h[l] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&h[in[get_global_id(0)] & 3]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 4) {
        if (plain && get_group_id(0) == 1) hist[l] += h[l];
        else atomic_add(&hist[l], h[l]);
    }
}
__kernel void plain_then_atomic(__global int *a) {
    int i = get_global_id(0);
    a[i] = i;
    atomic_max(&a[0], i);
}
__kernel void counters_unset(__global const int *in, __global int *out) {
    __local int h[4];
    int l = get_local_id(0);
    if (l < 3) h[l] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&h[in[get_global_id(0)] & 3]);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = h[l & 3];
}
__kernel void counters_unset_in_group_1(__global const int *in, __global int *out) {
    __local int h[4];
    int l = get_local_id(0);
    if (l < 4 && get_group_id(0) != 1) h[l] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&h[in[get_global_id(0)] & 3]);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = h[l & 3];
}
__kernel void counters_read_through_a_pointer(__global const int *in, __global int *out) {
    __local int h[4];
    __local int *p = h;
    int l = get_local_id(0);
    if (l < 4) h[l] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&h[in[get_global_id(0)] & 3]);
    out[get_global_id(0)] = p[l & 3];
    barrier(CLK_LOCAL_MEM_FENCE);
}
__kernel void counters_index_past_the_end(__global const int *in, __global int *out) {
    __local int h[4];
    int l = get_local_id(0);
    if (l < 4) h[l] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&h[in[get_global_id(0)]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = h[l & 3];
}
"""


@pytest.fixture(scope="module")
def prg():
    return build(SRC)


def test_plain_read_of_an_atomic_counter_races(prg):
    msg = finding(prg.counter_read, (16,), (8,), np.zeros(1, np.int32), np.zeros(16, np.int32))
    assert "kernel 'counter_read'" in msg
    assert "bug.cl:4:29: data race: read of __global 'count' at offset 0, which several " \
           "work-items of the group accessed atomically with no barrier between " \
           "(work-item (1,0,0) of group (0,0,0)" in msg


def test_atomics_alone_do_not_race(prg):
    count, out = np.zeros(1, np.int32), np.zeros(16, np.int32)
    prg.counter_ok((16,), (8,), count, out)
    assert count[0] == 16 and sorted(out) == list(range(16))


def test_plain_write_of_a_local_atomic_races(prg):
    msg = finding(prg.local_write, (8,), (8,), np.zeros(8, np.int32))
    assert "kernel 'local_write'" in msg
    assert "bug.cl:14:31: data race: write of __local 'c' at offset 0, which several " \
           "work-items of the group accessed atomically with no barrier between " \
           "(work-item (3,0,0) of group (0,0,0)" in msg


def test_local_atomics_behind_barriers_pass(prg):
    out = np.zeros(16, np.int32)
    prg.local_ok((16,), (8,), out)
    assert (out == 8).all()


def test_histogram_of_atomics_passes_and_its_plain_merge_races(prg):
    values = np.arange(32, dtype=np.int32)
    hist = np.zeros(4, np.int32)
    prg.histogram((32,), (8,), values, hist, np.int32(0))
    assert (hist == 8).all()
    msg = finding(prg.histogram, (32,), (8,), values, np.zeros(4, np.int32), np.int32(1))
    # the groups run in any order: the plain add or an atomic one is found second
    assert "kernel 'histogram'" in msg and "data race: " in msg
    assert "of __global 'hist' at offset 0, which " in msg
    assert "bug.cl:34:" in msg or "bug.cl:35:" in msg
    assert "of another group" in msg or "of other groups" in msg
    assert "wrote in this launch" in msg or "accessed atomically in this launch" in msg


def test_atomic_after_another_work_items_plain_write_races(prg):
    msg = finding(prg.plain_then_atomic, (8,), (8,), np.zeros(8, np.int32))
    assert "bug.cl:41:5: data race: atomic operation of __global 'a' at offset 0, which " \
           "work-item (local linear id 0) wrote with no barrier between (work-item (1,0,0)" \
           in msg


# A phase that touches __local counters only with atomics checks them for their
# initialisation only (checking/phases.py): what it must still find.
def test_an_atomic_on_a_counter_nothing_set_is_uninitialized(prg):
    msg = finding(prg.counters_unset, (8,), (8,), np.arange(8, dtype=np.int32),
                  np.zeros(8, np.int32))
    assert "kernel 'counters_unset'" in msg
    assert "bug.cl:48:5: read of uninitialized __local memory: 'h' at offset 12, which no " \
           "work-item of the group wrote (work-item (3,0,0)" in msg


def test_a_plain_read_of_counters_through_a_pointer_races_with_their_atomics(prg):
    msg = finding(prg.counters_read_through_a_pointer, (8,), (8,),
                  np.arange(8, dtype=np.int32), np.zeros(8, np.int32))
    assert "kernel 'counters_read_through_a_pointer'" in msg
    assert "bug.cl:68:29: data race: read of __local 'h' at offset 0, which several " \
           "work-items of the group accessed atomically" in msg


def test_only_phases_with_nothing_but_atomics_on_a_variable_take_the_quiet_check(prg):
    # the counting phases of histogram, counters_unset, counters_unset_in_group_1,
    # counters_index_past_the_end and local_ok, each atomic on an element whose indices
    # are checked (no bounds check of its own); not local_write's (a plain write of c in
    # the phase), nor the pointer's (p may reach h)
    assert prg.c_source.count("CL2C_CK_LATOMIC_IN(") == 5
    assert "CL2C_CK_LATOMIC_IN(cl2c_ck_l_h, " in prg.c_source
    assert "CL2C_CK_LATOMIC_IN(cl2c_ck_l_c, " in prg.c_source


def test_counters_the_other_groups_set_are_unset_in_this_one(prg):
    """The quiet check looks at a whole variable once a phase has done enough atomics on
    it: what it found in one group is not taken for the next group on the thread (each
    group's __local memory starts unset)."""
    msg = finding(prg.counters_unset_in_group_1, (64,), (8,), np.arange(64, dtype=np.int32),
                  np.zeros(64, np.int32))
    assert "bug.cl:57:5: read of uninitialized __local memory: 'h' at offset " in msg
    assert "of group (1,0,0)" in msg


def test_an_index_past_the_counters_is_found_in_a_quiet_phase(prg):
    msg = finding(prg.counters_index_past_the_end, (8,), (8,), np.arange(8, dtype=np.int32),
                  np.zeros(8, np.int32))
    assert "kernel 'counters_index_past_the_end'" in msg
    assert "array index 4 out of bounds of an array of 4 elements" in msg
