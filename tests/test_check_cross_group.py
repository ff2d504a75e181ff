"""Races between work-groups through checked fast loops (check_versions.py): a store
that meets another group's in the same launch, whether that group's stores took the
fast loop (its marks, cl2c_ck_mark) or the checked one (cl2c_ck_granule), and at any
alignment of the elements to the shadow's words, is found by the fast loop's test as
the checked loop would find it; and launches over and over with groups apart find
nothing."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import cl2c
from check_helpers import build

# Each group of 16 stores its work-items' global ids from `first + group * step`: a
# step below 16 makes neighbouring groups meet with other values (a data race; a store
# of the same value is none), 16 keeps them apart.
STORES = """
__kernel void stores(__global float *out, int first, int step) {
    out[first + (int)get_group_id(0) * step + (int)get_local_id(0)] = (float)get_global_id(0);
}
"""


def collected(kernel, *args) -> list[str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cl2c.CheckWarning)
        kernel((1024,), (16,), *args)
    return kernel.findings


@pytest.fixture(scope="module")
def stores():
    prg = build(STORES, "-cl2c-check=collect")
    line = next(ln for ln in prg.c_source.splitlines() if " *   stores: " in ln)
    assert "with a fast version" in line, line      # the stores take the tested path
    return prg.stores


@pytest.mark.parametrize("first", [0, 3, 5])
def test_stores_that_meet_another_groups_are_a_race(stores, first):
    out = np.zeros(first + 64 * 8 + 16, np.float32)
    found = collected(stores, out, np.int32(first), np.int32(8))
    assert any("data race" in f for f in found), found


@pytest.mark.parametrize("first", [0, 3])
def test_stores_apart_are_no_race_launch_after_launch(stores, first):
    out = np.zeros(first + 64 * 16, np.float32)
    for _ in range(300):
        assert collected(stores, out, np.int32(first), np.int32(16)) == []
    found = collected(stores, np.zeros(first + 64 * 8 + 16, np.float32), np.int32(first),
                      np.int32(8))
    assert any("data race" in f for f in found), found
    assert collected(stores, out, np.int32(first), np.int32(16)) == []


# Group 0's stores begin before the buffer: its test fails, and its checked loop marks
# the words in the buffer (check.h's cl2c_ck_granule); group 1's fast loop (another
# store: a site reports once a launch) meets half of them, and its test must find
# those marks. The other groups stay apart, so that the race found is theirs: group 1's
# where group 0 ran first, group 0's where the threads ran them the other way round.
TWO = """
__kernel void two(__global float *out, int first) {
    int g = (int)get_group_id(0);
    int i = first + (g == 1 ? 8 : g * 16) + (int)get_local_id(0);
    if (g == 0)
        out[i] = (float)get_global_id(0);
    else
        out[i] = -(float)get_global_id(0);
}
"""


def test_a_fast_store_meets_a_checked_loops_store_of_another_group():
    prg = build(TWO, "-cl2c-check=collect")
    out = np.zeros(64 * 16 + 16, np.float32)
    found = collected(prg.two, out, np.int32(-3))
    assert any("out-of-bounds" in f and "group (0,0,0)" in f for f in found), found
    races = [f for f in found if "data race" in f]
    assert races and all("bug.cl:8:" in f and "group (1,0,0)" in f or
                         "bug.cl:6:" in f and "group (0,0,0)" in f for f in races), found
