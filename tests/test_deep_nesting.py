"""Nesting that C compilers take (issue 12: a sum of 140 terms, 200 nested parentheses,
2,000 nested ifs ended in RecursionError) translates, compiles and computes."""
from __future__ import annotations

import numpy as np
import pytest

import cl2c

TERMS = 2000


@pytest.mark.parametrize("shape", ["sum", "parens", "ifs", "calls"])
def test_deep_nesting(shape):
    if shape == "sum":
        expr = " + ".join(f"a[{i % 7}]" for i in range(TERMS))
        body, want = f"out[0] = {expr};", sum(i % 7 for i in range(TERMS))
    elif shape == "parens":
        body, want = "out[0] = " + "(" * 300 + "a[3] + 1" + ")" * 300 + ";", 4
    elif shape == "ifs":
        body = "".join(f"if (a[{i % 7}] >= 0) " for i in range(TERMS)) + "out[0] = 42;"
        want = 42
    else:                                   # nested calls of a builtin
        body, want = "out[0] = " + "max(a[1], " * 300 + "a[6]" + ")" * 300 + ";", 6
    src = ("__kernel void k(__global const int *a, __global int *out)\n{\n    " + body +
           "\n}\n")
    prg = cl2c.Program(src, filename=f"{shape}.cl").build()
    out = np.zeros(1, np.int32)
    prg.k((1,), None, np.arange(7, dtype=np.int32), out)
    assert out[0] == want
