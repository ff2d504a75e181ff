"""Checking builds keep each buffer's shadow between launches, each program its own; the
ones no launch holds are kept within a budget over all programs (cl2c/check_shadows.py),
so that a process checking many programs does not run out of memory (PyOpenCL's tests
on the platform did: one program for each elementwise kernel, each keeping its buffers'
shadows, 24 GB)."""
from __future__ import annotations

import numpy as np
import pytest

from check_helpers import build, finding
from cl2c import check_shadows

# add's index is its work-item's alone, but not as cl2c proves it (lower/owned.py: a
# buffer each of whose elements one work-item touches gets no shadow)
SRC = """
__kernel void add(__global int *a, int v) {{
    a[get_global_id(0) % get_global_size(0)] += v + {n};
}}
__kernel void race(__global int *a) {{
    a[get_global_id(0)] = 1;
    a[0] = a[get_global_id(0) ^ 1];
}}
"""
SHADOW = 2 * 4 * (1 << 18)        # an int buffer of 2^18 elements: a word a granule


@pytest.fixture(scope="module")
def programs():
    return [build(SRC.format(n=n)) for n in range(3)]


def test_idle_shadows_stay_within_the_budget_over_programs(programs, monkeypatch):
    monkeypatch.setattr(check_shadows, "BUDGET", int(2.5 * SHADOW))
    a = np.zeros(1 << 18, np.int32)
    for n, prg in enumerate(programs):
        prg.add(a.shape, None, a, np.int32(1))
    libs = [prg._module.lib for prg in programs]
    idle = [lib.cl2c_loader_check_idle_bytes() for lib in libs]
    # the first program's shadow was freed when the third's pushed the sum over
    assert idle[0] == 0 and idle[1] >= SHADOW and idle[2] >= SHADOW
    assert sum(check_shadows._idle.get(lib, 0) for lib in libs) <= check_shadows.BUDGET
    assert (a == 1 + 1 + 1 + 0 + 1 + 2).all()
    # a trimmed program makes a new shadow and checks as before
    programs[0].add(a.shape, None, a, np.int32(0))
    assert (a == 6).all()
    assert "data race" in finding(programs[0].race, (64,), (64,), np.zeros(64, np.int32))
