"""Checking mode: async copies into __local memory. The copy's destination is the
group's to fill until wait_group_events: a work-item's access before the wait races
with the copy (divergent copies and waits: test_check_mode.py). One build per
schedule (the fibers schedule runs each work-item up to the wait on its own)."""
from __future__ import annotations

import re

import numpy as np
import pytest

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
"""


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
