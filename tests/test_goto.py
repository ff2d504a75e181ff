"""goto, forward and backward, out of nested loops, in helpers and across barriers:
the same results as PoCL under every schedule that takes the kernel, and C's
diagnostics for labels."""
from __future__ import annotations

import numpy as np
import pytest

import cl2c
from conftest import kernel_source, run_pocl

SOURCE = kernel_source("goto.cl")


def launches():
    a = np.arange(0, 40, dtype=np.int32)
    return [("search", 16, None, [a, np.zeros(16, np.int32), np.int32(40)]),
            ("nested", 8, None, [np.zeros(8, np.int32)]),
            ("withbarrier", 16, 16, [np.zeros(16, np.int32)])]


@pytest.mark.parametrize("schedule", ["auto", "fibers"])
def test_same_as_pocl(schedule):
    prg = cl2c.Program(SOURCE, "" if schedule == "auto" else f"-cl2c-schedule={schedule}")
    prg.build()
    for (name, gsize, lsize, ours), (_, _, _, theirs) in zip(launches(), launches()):
        getattr(prg, name)(gsize, lsize, *ours)
        run_pocl(SOURCE, name, gsize, lsize, *theirs)
        np.testing.assert_array_equal(ours[-2 if name == "search" else 0],
                                      theirs[-2 if name == "search" else 0], err_msg=name)


def test_exact_results():
    prg = cl2c.Program(SOURCE).build()
    out = np.zeros(16, np.int32)
    prg.search(16, None, np.arange(0, 40, dtype=np.int32), out, np.int32(40))
    assert out.tolist() == [3 * g if 3 * g < 40 else -1 for g in range(16)]
    out = np.zeros(16, np.int32)
    prg.withbarrier(16, 16, out)
    assert out.tolist() == [48 - 3 * l for l in range(16)]


def test_barrier_kernels_with_goto_take_fibers():
    c = cl2c.translate(SOURCE, "goto.cl").c_source
    assert " *   withbarrier: fibers (the kernel uses goto" in c
    assert " *   nested: loops " in c


@pytest.mark.parametrize("body, message", [
    ("goto nowhere;", "3:5: error: use of undeclared label 'nowhere'"),
    ("here: ; here: ;", "3:13: error: redefinition of label 'here'"),
])
def test_label_errors(body, message):
    src = f"kernel void k(global int *o)\n{{\n    {body}\n}}\n"
    with pytest.raises(cl2c.BuildError) as e:
        cl2c.Program(src, filename="k.cl").build()
    assert f"k.cl:{message}" in str(e.value)
