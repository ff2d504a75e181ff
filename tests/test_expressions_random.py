"""Random integer and float expressions, scalar and vector (widths 1 to 16, 3 among
them), through cl2c and PoCL, bit for bit (random_expressions.py says what the
kernels leave out, and why). Integers: every operator, the integer builtins, vector
literals and swizzles, on inputs that mix random values with each type's extremes.
Floats: sums, differences and products that clang contracts into fmas (in expressions,
and in updates of variables and of elements), which cl2c must contract alike."""
from __future__ import annotations

import numpy as np
import pytest

import cl2c
from conftest import run_pocl
from random_expressions import float_kernel, integer_kernel

GROUP = 64
INTEGERS = range(1, 61)
FLOATS = range(1001, 1061)
DTYPES = {"char": np.int8, "uchar": np.uint8, "short": np.int16, "ushort": np.uint16,
          "int": np.int32, "uint": np.uint32, "long": np.int64, "ulong": np.uint64,
          "float": np.float32}


KERNELS = {"integer": [integer_kernel(s) for s in INTEGERS],
           "float": [float_kernel(s) for s in FLOATS]}
SOURCES = {which: "\n".join(text for _, _, text in kernels)
           for which, kernels in KERNELS.items()}


def _inputs(seed: int, t: str, n: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    size = GROUP * 3 * n
    if t == "float":
        return (rng.standard_normal(size) * 3).astype(np.float32)
    dtype = DTYPES[t]
    info = np.iinfo(dtype)
    values = rng.integers(info.min, info.max, size, dtype=dtype, endpoint=True)
    extremes = np.array([v for v in (0, 1, 7, 8, 31, 32, 63, 64, 128, 255, info.max,
                                     info.max - 1, info.min, info.min + 1)
                         if info.min <= v <= info.max], dtype=dtype)
    some = rng.random(size) < 0.4
    values[some] = rng.choice(extremes, some.sum())
    return values


@pytest.mark.parametrize("which", ["integer", "float"])
def test_same_bits_as_pocl(which):
    source = SOURCES[which]
    program = cl2c.Program(source).build()
    seeds = INTEGERS if which == "integer" else FLOATS
    for seed, (t, n, text) in zip(seeds, KERNELS[which]):
        values = _inputs(seed, t, n)
        ours, theirs = (np.zeros(GROUP * n, DTYPES[t]) for _ in range(2))
        getattr(program, f"k{seed}")((GROUP,), None, values, ours)
        run_pocl(source, f"k{seed}", (GROUP,), None, values.copy(), theirs)
        if t == "float":
            # IEEE 754 leaves a NaN's sign and payload open (6.3): any NaN for a NaN
            both = np.isnan(ours) & np.isnan(theirs)
            ours[both] = theirs[both] = np.float32("nan")
        np.testing.assert_array_equal(ours.view(f"u{ours.itemsize}"),
                                      theirs.view(f"u{theirs.itemsize}"),
                                      err_msg=f"seed {seed}:{text}")
