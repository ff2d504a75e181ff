"""Predefined macros as a kernel's #ifdef and #if defined() see them (spec 6.10), held
to PoCL: __LINE__ (which pcpp expands without defining), __FILE__, and the float limits
of 6.12.2 with clang's DBL_RADIX."""
from __future__ import annotations

import numpy as np

import cl2c
from conftest import run_pocl

SOURCE = """#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void k(__global long *out)
{
#ifdef __LINE__
    out[0] = __LINE__;
#endif
#if defined(__LINE__) && defined __FILE__
    out[1] = 1;
#endif
#ifndef __LINE__
    out[2] = 1;
#endif
    out[3] = FLT_RADIX;
    out[4] = DBL_RADIX;
    out[5] = DBL_MANT_DIG;
}
"""
EXPECTED = [5, 1, -1, 2, 2, 53]


def test_line_and_radix_macros_as_pocl_sees_them():
    out = np.full(len(EXPECTED), -1, np.int64)
    cl2c.Program(SOURCE).build().k((1,), None, out)
    assert out.tolist() == EXPECTED
    pocl = np.full(len(EXPECTED), -1, np.int64)
    run_pocl(SOURCE, "k", (1,), None, pocl)
    assert pocl.tolist() == out.tolist()


LINE_SOURCE = """__kernel void k(__global char *out)
{
#line 20 "renamed.cl"
    constant char *f = "" __FILE__;
    int i;
    for (i = 0; f[i] != 0 && i < 31; i++)
        out[i] = f[i];
    out[i] = 0;
}
"""


def test_line_directive_renames_file_as_pocl_does():
    out = np.zeros(32, np.uint8)
    cl2c.Program(LINE_SOURCE).build().k((1,), None, out)
    name = bytes(out).split(b"\0")[0]
    assert name == b"renamed.cl"
    pocl = np.zeros(32, np.uint8)
    run_pocl(LINE_SOURCE, "k", (1,), None, pocl)
    assert bytes(pocl).split(b"\0")[0] == name
