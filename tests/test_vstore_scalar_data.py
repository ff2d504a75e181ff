"""vstoren with a scalar for its data: OpenCL converts a scalar implicitly to a vector
(spec 1.2.1: to the element type, then widened), so ``vstore3(v.x, 0, p)`` stores v.x
three times, as the CTS's basic/vector_swizzle writes it (cl2c refused it). Held to the
values the spec's conversions give and to PoCL; a vector of another type still does
not convert (implicit conversions between vector types are disallowed)."""
from __future__ import annotations

import numpy as np
import pytest

import cl2c
from conftest import run_pocl

SOURCE = """
kernel void widen(global int *i3, global float *f4, global uchar *c2, global short *s8)
{
    int3 v = (int3)(7, 8, 9);
    vstore3(v.y, 1, i3);
    vstore4(2, 0, f4);
    vstore2((char)-3, 0, c2);
    vstore8(1.75f, 0, s8);
}
"""


def _buffers():
    return [np.zeros(6, np.int32), np.zeros(4, np.float32), np.zeros(2, np.uint8),
            np.zeros(8, np.int16)]


def test_a_scalar_widens_to_the_stored_vector():
    ours = _buffers()
    cl2c.Program(SOURCE).build().widen((1,), None, *ours)
    assert ours[0].tolist() == [0, 0, 0, 8, 8, 8]
    assert ours[1].tolist() == [2.0] * 4
    assert ours[2].tolist() == [253, 253]
    assert ours[3].tolist() == [1] * 8
    theirs = _buffers()
    run_pocl(SOURCE, "widen", (1,), None, *theirs)
    for a, b in zip(ours, theirs):
        np.testing.assert_array_equal(a, b)


def test_a_vector_of_another_type_does_not_convert():
    src = "kernel void k(global float *p) { vstore2((int2)(1, 2), 0, p); }"
    with pytest.raises(cl2c.BuildError, match=r"no matching function for call to "
                                               r"'vstore2\(int2, int, __global float \*\)'"):
        cl2c.Program(src).build()
