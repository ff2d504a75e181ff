"""Random integer programs (random_programs.py: statements, control flow, helper
functions with pointers, structs, private arrays and vector components) through cl2c
and PoCL, bit for bit: each work-item's hash of every variable its program leaves."""
from __future__ import annotations

import numpy as np
import pytest

import cl2c
from conftest import run_pocl
from random_programs import PRELUDE, program

pytestmark = pytest.mark.optimised      # what the optimiser makes of cl2c's C

SEEDS = range(1, 41)
ITEMS = 64
VALUES = 97         # the inputs each work-item picks its variables from


def _inputs() -> np.ndarray:
    rng = np.random.default_rng(11)
    values = rng.integers(0, 2 ** 64 - 1, VALUES, dtype=np.uint64, endpoint=True)
    extremes = np.array([0, 1, 2, 0x7f, 0x80, 0xff, 0xffff, 0x7fffffff, 0x80000000,
                         0xffffffff, 2 ** 63 - 1, 2 ** 63, 2 ** 64 - 1, 2 ** 64 - 2],
                        dtype=np.uint64)
    values[::3] = extremes[np.arange(len(values[::3])) % len(extremes)]
    return values


def test_same_bits_as_pocl():
    kernels = [program(seed) for seed in SEEDS]
    source = PRELUDE + "\n".join(text for _, text in kernels)
    built = cl2c.Program(source).build()
    values = _inputs()
    for seed, (name, text) in zip(SEEDS, kernels):
        ours, theirs = np.zeros(ITEMS, np.uint64), np.zeros(ITEMS, np.uint64)
        getattr(built, name)((ITEMS,), None, values, ours, np.uint32(VALUES))
        run_pocl(source, name, (ITEMS,), None, values.copy(), theirs, np.uint32(VALUES))
        np.testing.assert_array_equal(ours, theirs, err_msg=f"seed {seed}:\n{text}")
