"""Types a kernel declares in its body and uses for its kernel-scope __local variables
(issue 11: clang accepts them; PyOpenCL's reductions write them), under each schedule,
against NumPy."""
from __future__ import annotations

import numpy as np
import pytest

import cl2c

SOURCE = """
__kernel void pairs(__global const float *in, __global float *out)
{
    struct pair { float a; int b; };
    typedef struct { struct pair p; float w; } weighted;
    enum { N = 64 };
    __local struct pair buf[N];
    __local weighted heavy[N];
    size_t l = get_local_id(0);
    float x = in[get_global_id(0)];
    buf[l].a = x;
    buf[l].b = (int)l;
    heavy[l].p = buf[l];
    heavy[l].w = 2.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t r = N - 1 - l;
    out[get_global_id(0)] = heavy[r].p.a * heavy[r].w + (float)buf[r].b;
}
"""


@pytest.mark.parametrize("schedule", ["auto", "regions", "fibers"])
def test_kernel_types_of_local_variables(schedule):
    prg = cl2c.Program(SOURCE, f"-cl2c-schedule={schedule}").build()
    x = np.random.default_rng(3).standard_normal(256).astype(np.float32)
    out = np.zeros_like(x)
    prg.pairs((256,), (64,), x, out)
    groups = x.reshape(4, 64)[:, ::-1].reshape(-1)        # each group reversed
    lid = np.tile(np.arange(64)[::-1], 4).astype(np.float32)
    np.testing.assert_array_equal(out, groups * np.float32(2) + lid)


TWO_KERNELS = """
__kernel void ints(__global int *o)
{
    struct P { int x, y; };
    enum { N = 4 };
    __local struct P t[N];
    t[get_local_id(0)].x = (int)get_local_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    o[get_global_id(0)] = t[N - 1 - get_local_id(0)].x;
}
__kernel void floats(__global float *o)
{
    struct P { float x; };
    typedef struct P Q;
    enum { N = 4 };
    __local Q t[N];
    t[get_local_id(0)].x = 0.5f * (float)get_local_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    o[get_global_id(0)] = t[N - 1 - get_local_id(0)].x;
}
"""


@pytest.mark.parametrize("schedule", ["auto", "fibers"])
def test_two_kernels_declare_the_same_names(schedule):
    """Each kernel's own struct P, typedef and enum constant, all moved to program
    scope with its __local variables, do not meet."""
    prg = cl2c.Program(TWO_KERNELS, f"-cl2c-schedule={schedule}").build()
    o = np.zeros(8, np.int32)
    prg.ints(8, 4, o)
    assert o.tolist() == [3, 2, 1, 0] * 2
    f = np.zeros(8, np.float32)
    prg.floats(8, 4, f)
    assert f.tolist() == [1.5, 1.0, 0.5, 0.0] * 2
