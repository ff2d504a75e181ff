"""A kernel's own types in the C it becomes (lower/declarations.py, workgroup/builders/
prepare.py): several variables declared with one struct definition (anonymous ones too,
and at program scope), and variables of the kernel's own types that cross a barrier;
against NumPy, under every schedule."""
from __future__ import annotations

import numpy as np
import pytest

import cl2c
from conftest import kernel_source

SRC = kernel_source("local_types.cl")


@pytest.mark.parametrize("schedule", ["auto", "regions", "fibers"])
def test_kernel_types(schedule):
    prg = cl2c.Program(SRC, "" if schedule == "auto" else f"-cl2c-schedule={schedule}").build()
    n, local = 16, 8
    out = np.zeros(n, np.int32)
    prg.two_of_one((n,), (local,), out)
    np.testing.assert_array_equal(out, 1 + np.arange(n) + 2)
    out = np.zeros(n, np.int32)
    prg.across((n,), (local,), out, cl2c.LocalMemory(4 * local))
    lid = np.arange(n) % local
    np.testing.assert_array_equal(out, lid + 1 + 3 + 2 * lid * 3)
    out = np.zeros(n, np.int32)
    prg.anonymous((n,), (local,), out, cl2c.LocalMemory(4 * local))
    np.testing.assert_array_equal(out, lid + 1 + (3 + 4 + 2) + 0)
