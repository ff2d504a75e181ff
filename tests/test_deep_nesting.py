"""Nesting that C compilers take (issue 12: a sum of 140 terms, 200 nested parentheses,
2,000 nested ifs ended in RecursionError) translates, compiles and computes; 3,000
nested blocks in seconds (their C's indentation made the text quadratic: 37 s)."""
from __future__ import annotations

import time

import numpy as np
import pytest

import cl2c

TERMS = 2000


@pytest.mark.parametrize("shape", ["sum", "parens", "ifs", "calls", "blocks"])
def test_deep_nesting(shape):
    if shape == "sum":
        expr = " + ".join(f"a[{i % 7}]" for i in range(TERMS))
        body, want = f"out[0] = {expr};", sum(i % 7 for i in range(TERMS))
    elif shape == "parens":
        body, want = "out[0] = " + "(" * 300 + "a[3] + 1" + ")" * 300 + ";", 4
    elif shape == "ifs":
        body = "".join(f"if (a[{i % 7}] >= 0) " for i in range(TERMS)) + "out[0] = 42;"
        want = 42
    elif shape == "calls":                  # nested calls of a builtin
        body, want = "out[0] = " + "max(a[1], " * 300 + "a[6]" + ")" * 300 + ";", 6
    else:
        body, want = "{" * 3000 + "out[0] = a[5];" + "}" * 3000, 5
    src = ("__kernel void k(__global const int *a, __global int *out)\n{\n    " + body +
           "\n}\n")
    start = time.process_time()
    cl2c.translate(src, f"{shape}.cl")
    assert time.process_time() - start < 10     # a hang's bound, not a speed figure
    prg = cl2c.Program(src, filename=f"{shape}.cl").build()
    out = np.zeros(1, np.int32)
    prg.k((1,), None, np.arange(7, dtype=np.int32), out)
    assert out[0] == want
