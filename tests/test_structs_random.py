"""Random structs (random_structs.py) laid out as PoCL's clang lays them out: each
record's size and each member's offset."""
from __future__ import annotations

import numpy as np

import cl2c
from conftest import run_pocl
from random_structs import layout_kernel

SEEDS = range(1, 61)


def test_layouts_as_pocl():
    source, measures = layout_kernel(SEEDS)
    ours, theirs = np.zeros(len(measures), np.uint64), np.zeros(len(measures), np.uint64)
    cl2c.Program(source).build().k((1,), None, ours)
    run_pocl(source, "k", (1,), None, theirs)
    differ = [f"{m}: {a} (PoCL {b})" for m, a, b in zip(measures, ours, theirs) if a != b]
    assert not differ, "\n".join(differ[:20]) + "\n" + source
