"""A vector literal followed by a postfix operator, as clang (and so every OpenCL
implementation built on it) reads it: the literal is a primary expression, so
``(float4)(1, 2, 3, 4).yz`` selects from the literal. After a scalar cast, C's rule
stands: ``(float)(v).x`` casts ``v.x``; and ``(float4)(float)x``, a type name after the
vector's, is a cast of a cast."""
from __future__ import annotations

import numpy as np
import pytest

import cl2c

CASES = [  # (expression, value)
    ("(float4)(1.0f, 2.0f, 3.0f, 4.0f).w", 4.0),
    ("(float4)(1.0f, 2.0f, 3.0f, 4.0f).yz.y", 3.0),
    ("(float4)(1.5f).s2", 1.5),
    ("-(float2)(1.0f, 2.0f).y * 2.0f", -4.0),
    ("(float)(int2)(3, 4).y", 4.0),
    ("dot((float4)(1.0f, 2.0f, 3.0f, 4.0f).xyz, (float3)(1.0f))", 6.0),
    ("(float)(uchar4)(250, 251, 252, 253).hi.x", 252.0),
    ("(float4)(in[0], in[1], 0.0f, 0.0f).x + (float2)(in[1]).y", 5.0),
    ("(float)(v).y", 7.0),                        # a scalar cast of v.y
    ("(float)(long8)(1, 2, 3, 4, 5, 6, 7, 8).s7", 8.0),
    ("(v4)(1.0f, 2.0f, 3.0f, 4.0f).z", 3.0),      # through typedefs too
    ("(float)(i2)(5, 6).x + (w4)(1.0f).y", 6.0),
    ("(real)(v).x", 6.0),                          # a typedef of a scalar: a cast of v.x
    # a vector cast of a cast is no literal: (float4)(float)x splats (float)x
    ("dot((float4)(float)in[1], (float4)(1.0f))", 12.0),
    ("(float)((int4)(int)2.9f).w", 2.0),
    ("(float)((w4)(real)in[0]).z + (float)((i2)(int)(float)in[1]).y", 5.0),
]
TYPEDEFS = "typedef float4 v4;\ntypedef int2 i2;\ntypedef v4 w4;\ntypedef float real;\n"


@pytest.mark.parametrize("schedule", ["auto", "fibers"])
def test_vector_literal_then_postfix(schedule):
    body = "".join(f"    out[{i}] = {e};\n" for i, (e, _) in enumerate(CASES))
    src = (TYPEDEFS + "__kernel void k(__global const float *in, __global float *out)\n{\n"
           "    float2 v = (float2)(6.0f, 7.0f);\n" + body + "}\n")
    prg = cl2c.Program(src, f"-cl2c-schedule={schedule}").build()
    out = np.zeros(len(CASES), np.float32)
    prg.k((1,), None, np.array([2.0, 3.0], np.float32), out)
    np.testing.assert_array_equal(out, np.array([v for _, v in CASES], np.float32))
