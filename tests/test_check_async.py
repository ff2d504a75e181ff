"""Checking mode: async copies. The copy's destination (__local, or __global) is the
group's to fill until wait_group_events: a work-item's access before the wait races
with the copy. A copy is reached by every work-item of the group (a divergent wait:
test_check_mode.py), and its event is waited for before the kernel ends; a wait is
for events that copies returned. One build per schedule (the fibers schedule runs
each work-item up to the wait on its own)."""
from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import cl2c

from check_helpers import build, finding

SRC = """
__kernel void early(__global const int *in, __global int *out, int before) {
    __local int t[8];
    int l = get_local_id(0);
    int v = 0;
    event_t e = async_work_group_copy(t, in, 8, 0);
    if (before) v = t[l];
    wait_group_events(1, &e);
    out[get_global_id(0)] = t[l] + v;
}
__kernel void unwaited(__global const int *in, __global int *out) {
    __local int t[8];
    event_t first = async_work_group_copy(t, in, 8, 0);
    event_t again = async_work_group_copy(t, in, 8, 0);
    wait_group_events(1, &again);
    out[get_global_id(0)] = t[get_local_id(0)];
}
__kernel void never_copied(__global const int *in, __global int *out) {
    __local int t[8];
    event_t e = async_work_group_copy(t, in, 8, 0);
    event_t none = 0;
    wait_group_events(1, &none);
    wait_group_events(1, &e);
    out[get_global_id(0)] = t[get_local_id(0)];
}
__kernel void divergent(__global const int *in, __global int *out, int n) {
    __local int t[8];
    int l = get_local_id(0);
    event_t e = 0;
    if (l < n) e = async_work_group_copy(t, in, 8, 0);
    wait_group_events(1, &e);
    out[get_global_id(0)] = t[l];
}
__kernel void to_global(__global const int *in, __global int *out, int before) {
    __local int t[8];
    int l = get_local_id(0);
    t[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t e = async_work_group_copy(out + get_group_id(0) * 8, t, 8, 0);
    int v = before ? out[get_global_id(0)] : 0;
    wait_group_events(1, &e);
    out[get_global_id(0)] += v + 1;
}
__kernel void source_written(__global int *in, __global int *out, int before) {
    __local int t[8];
    int l = get_local_id(0);
    event_t e = async_work_group_copy(t, in + get_group_id(0) * 8, 8, 0);
    if (before && l == 3) in[get_group_id(0) * 8 + 5] = -1;
    wait_group_events(1, &e);
    in[get_global_id(0)] = t[l] + 1;
    out[get_global_id(0)] = t[l];
}
__kernel void strided_out(__global const int *in, __global int *out, int before) {
    __local int t[8];
    int l = get_local_id(0);
    t[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t e = async_work_group_strided_copy(out + get_group_id(0), t, 8, 2, 0);
    if (before == 1) out[get_group_id(0) + 2 * l] += 1;
    if (before == 2) t[7 - l] = 0;
    wait_group_events(1, &e);
}
__kernel void strided_in(__global int *in, __global int *out, int at) {
    __local int t[8];
    int l = get_local_id(0);
    event_t e = async_work_group_strided_copy(t, in + get_group_id(0), 8, 2, 0);
    if (l == 1 && at >= 0) in[at] = -1;
    wait_group_events(1, &e);
    out[get_global_id(0)] = t[l];
}
__kernel void twice(__global const int *in, __global int *out, int again) {
    __local int t[8];
    event_t e = async_work_group_copy(t, in, 8, 0);
    wait_group_events(1, &e);
    if (again) wait_group_events(1, &e);
    out[get_global_id(0)] = t[get_local_id(0)];
}
__kernel void correct(__global const int *in, __global int *out) {
    __local int t[8];
    __local int u[16];
    int l = get_local_id(0);
    event_t e = async_work_group_copy(t, in + get_group_id(0) * 8, 8, 0);
    e = async_work_group_strided_copy(u, in, 8, 2, e);        /* joins e */
    wait_group_events(1, &e);
    event_t es[2];
    for (int k = 0; k < 2; k++)
        es[k] = async_work_group_copy(u + 8 * k, in + 8 * k, 8, 0);
    wait_group_events(2, es);
    t[l] += u[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 2; k++) {
        event_t o = async_work_group_copy(out + get_group_id(0) * 8, t, 8, 0);
        wait_group_events(1, &o);
    }
    out[get_global_id(0)] += 1;
}
"""


def ints(n):
    return np.zeros(n, np.int32)


GROUP = r"of group \([01],0,0\)"     # either group may report first: they run side by side


@pytest.fixture(scope="module", params=["auto", "fibers"])
def prg(request):
    return build(SRC, f"-cl2c-check -cl2c-schedule={request.param}")


def test_read_of_the_destination_before_the_wait(prg):
    msg = finding(prg.early, (16,), (8,), np.arange(8, dtype=np.int32),
                  np.zeros(16, np.int32), np.int32(1))
    # (either group may report first: they run side by side)
    assert re.search(r"kernel 'early': bug\.cl:7:21: data race: read of __local 't' at offset 0, "
                     r"which an async copy fills: before the wait_group_events for its event "
                     r"\(work-item \(0,0,0\) of group \([01],0,0\)", msg), msg


def test_reads_after_the_wait_pass(prg):
    out = np.zeros(16, np.int32)
    prg.early((16,), (8,), np.arange(8, dtype=np.int32), out, np.int32(0))
    assert (out == np.tile(np.arange(8), 2)).all()


def test_event_never_waited_for(prg):
    msg = finding(prg.unwaited, (16,), (8,), np.arange(16, dtype=np.int32), ints(16))
    line = SRC.splitlines().index("    event_t first = async_work_group_copy(t, in, 8, 0);") + 1
    assert re.search(rf"kernel 'unwaited': bug\.cl:{line}:21: unwaited event: the event of this "
                     r"async copy is not passed to wait_group_events before the kernel ends "
                     r"\(work-item \(0,0,0\) " + GROUP, msg), msg


def test_wait_for_an_event_no_copy_returned(prg):
    msg = finding(prg.never_copied, (16,), (8,), np.arange(16, dtype=np.int32), ints(16))
    line = SRC.splitlines().index("    wait_group_events(1, &none);") + 1
    assert re.search(rf"kernel 'never_copied': bug\.cl:{line}:5: wait for an event that no "
                     r"async copy returned: event_list\[0\] of wait_group_events "
                     r"\(work-item \(0,0,0\) " + GROUP, msg), msg


@pytest.mark.parametrize("n", [4, 0])
def test_copy_reached_by_some_work_items(prg, n):
    """Half the group reaches the copy, or all but none... n == 0: none does, and the
    wait (which all reach) is for event 0."""
    msg = finding(prg.divergent, (16,), (8,), np.arange(16, dtype=np.int32), ints(16),
                  np.int32(n))
    if n:
        assert re.search(r"kernel 'divergent': bug\.cl:\d+:20: divergent async copy: reached "
                         r"4 times by the group's 8 work-items, 1 of them by work-item "
                         r"\(0,0,0\)", msg), msg
    else:
        assert "wait for an event that no async copy returned" in msg, msg


def test_copy_reached_by_all_is_silent(prg):
    out = ints(16)
    prg.divergent((16,), (8,), np.arange(16, dtype=np.int32), out, np.int32(8))
    assert (out == np.tile(np.arange(8), 2)).all()


def test_global_destination_read_before_the_wait(prg):
    msg = finding(prg.to_global, (16,), (8,), np.arange(16, dtype=np.int32), ints(16),
                  np.int32(1))
    line = SRC.splitlines().index("    int v = before ? out[get_global_id(0)] : 0;") + 1
    assert re.search(rf"kernel 'to_global': bug\.cl:{line}:22: data race: read of __global "
                     r"'out' at offset \d+, which an async copy fills: before the "
                     r"wait_group_events for its event \(work-item \(0,0,0\) " + GROUP,
                     msg), msg


def test_correct_copies_are_silent(prg):
    out = ints(16)
    prg.to_global((16,), (8,), np.arange(16, dtype=np.int32), out, np.int32(0))
    assert (out == np.arange(16) + 1).all()
    out = ints(16)
    src = np.arange(16, dtype=np.int32)
    prg.correct((16,), (8,), src, out)
    u = src[:16]
    t = np.concatenate([src[0:8], src[8:16]]) + np.tile(u[:8], 2)
    assert (out == t + 1).all(), out


def test_write_of_the_source_before_the_wait(prg):
    """A work-item writes what the group's copy reads, before the wait: a race with
    the copy. (After the wait, the same write is fine: the next test.)"""
    msg = finding(prg.source_written, (16,), (8,), np.arange(16, dtype=np.int32),
                  ints(16), np.int32(1))
    line = SRC.splitlines().index(
        "    if (before && l == 3) in[get_group_id(0) * 8 + 5] = -1;") + 1
    assert re.search(rf"kernel 'source_written': bug\.cl:{line}:27: data race: write of "
                     r"__global 'in' at offset \d+, which an async copy reads: before "
                     r"the wait_group_events for its event \(work-item \(3,0,0\) "
                     + GROUP, msg), msg


@pytest.mark.parametrize("schedule", ["auto", "fibers"])
def test_the_copy_reads_its_source_once(schedule):
    """The copy is made once, at work-item 0's call: a write between work-item 0's
    call and the wait is found from the write's side only, never again from a later
    work-item's call (which made the first finding depend on which group came first)."""
    prg = build(SRC, f"-cl2c-check=collect -cl2c-schedule={schedule}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cl2c.CheckWarning)
        prg.source_written((8,), (8,), np.arange(8, dtype=np.int32), ints(8), np.int32(1))
    found = prg.source_written.findings
    assert len(found) == 1 and "data race: write of __global 'in' at offset 20, which an " \
        "async copy reads" in found[0], found


def test_write_of_the_source_after_the_wait_passes(prg):
    src, out = np.arange(16, dtype=np.int32), ints(16)
    prg.source_written((16,), (8,), src, out, np.int32(0))
    assert (out == np.arange(16)).all() and (src == np.arange(16) + 1).all()


def test_strided_global_destination_written_before_the_wait(prg):
    msg = finding(prg.strided_out, (16,), (8,), np.arange(16, dtype=np.int32), ints(17),
                  np.int32(1))
    line = SRC.splitlines().index("    if (before == 1) out[get_group_id(0) + 2 * l] += 1;") + 1
    assert re.search(rf"kernel 'strided_out': bug\.cl:{line}:\d+: data race: (read|write) of "
                     r"__global 'out' at offset \d+, which an async copy fills: before the "
                     r"wait_group_events for its event", msg), msg


def test_local_source_written_before_the_wait(prg):
    msg = finding(prg.strided_out, (16,), (8,), np.arange(16, dtype=np.int32), ints(17),
                  np.int32(2))
    line = SRC.splitlines().index("    if (before == 2) t[7 - l] = 0;") + 1
    assert re.search(rf"kernel 'strided_out': bug\.cl:{line}:22: data race: write of "
                     r"__local 't' at offset 28, which an async copy reads: before the "
                     r"wait_group_events for its event \(work-item \(0,0,0\) " + GROUP,
                     msg), msg


def test_strided_global_destination_passes(prg):
    """Group 0 fills the even elements, group 1 the odd ones: no overlap."""
    out = ints(17)
    prg.strided_out((16,), (8,), np.arange(16, dtype=np.int32), out, np.int32(0))
    assert (out[:16].reshape(8, 2).T == np.arange(16).reshape(2, 8)).all(), out


def test_strided_source_written_before_the_wait(prg):
    """The copy reads every other element: a write to one it reads races, one between
    them does not."""
    msg = finding(prg.strided_in, (8,), (8,), np.arange(16, dtype=np.int32), ints(8),
                  np.int32(6))
    assert "which an async copy reads: before the wait_group_events" in msg, msg
    out, src = ints(8), np.arange(16, dtype=np.int32)
    prg.strided_in((8,), (8,), src, out, np.int32(7))
    assert (out == np.arange(0, 16, 2)).all() and src[7] == -1


def test_wait_twice_for_an_event(prg):
    msg = finding(prg.twice, (16,), (8,), np.arange(8, dtype=np.int32), ints(16),
                  np.int32(1))
    line = SRC.splitlines().index("    if (again) wait_group_events(1, &e);") + 1
    assert re.search(rf"kernel 'twice': bug\.cl:{line}:16: wait for an event already "
                     r"waited for: event_list\[0\] of wait_group_events, which an earlier "
                     r"wait released and no async copy returned since \(work-item "
                     r"\(0,0,0\) " + GROUP, msg), msg
    out = ints(16)
    prg.twice((16,), (8,), np.arange(8, dtype=np.int32), out, np.int32(0))
    assert (out == np.tile(np.arange(8), 2)).all()
