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
