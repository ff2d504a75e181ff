"""A swizzle written as a statement on a private vector (r.xyz = x) becomes a store of
each component from a temporary, never a call through &r: a private whose address is
taken in an omp simd work-item loop becomes an array of lanes there, and GCC 14 and later
leave the loop scalar (bench/compilers.py: N-body 4-20x slower than under GCC 12). Every
statement position, and the assignment used as a value (which keeps the call), against
PoCL under the schedules and checking mode."""
from __future__ import annotations

import numpy as np
import pytest

import cl2c

SOURCE = r"""
float3 twice(float3 v) { float3 w; w.xy = v.xy * 2.0f; w.z = v.z; return w; }

__kernel void k(__global float4 *a, __global float4 *b, __local float4 *tmp) {
    size_t i = get_global_id(0), l = get_local_id(0);
    float4 r;
    r.xyz = a[i].zyx;                          /* in a block, r not yet written */
    r.w = 1.0f;
    if (i % 2) r.zw = (float2)(7.0f, 8.0f);    /* an if's branch, no braces */
    else { r.yz += 1.0f; }
    for (int j = 0; j < 3; j++) r.xw = r.wx;   /* a loop's body */
    switch (i % 3) { case 0: r.xy = r.yx; break; default: r.s20 = r.s02; }
    tmp[l] = r;
    barrier(CLK_LOCAL_MEM_FENCE);              /* r lives across the barrier */
    r.xyz = twice(r.xyz) + tmp[(l + 1) % get_local_size(0)].xyz;
    float3 v = (r.xyz = r.zxy);                /* a value: the call stays */
    b[i] = r + (float4)(v, 0.0f);
}
"""


@pytest.fixture(scope="module")
def inputs():
    a = np.random.default_rng(7).random((16, 4), dtype=np.float32)
    return a


@pytest.fixture(scope="module")
def expected(inputs, pocl):
    b = np.zeros_like(inputs)
    pocl(SOURCE, "k", 16, 8, inputs.copy(), b, cl2c.LocalMemory(8 * 16))
    return b


@pytest.mark.parametrize("options", ["", "-cl2c-schedule=fibers", "-cl2c-check"])
def test_swizzle_statements_compute_as_pocl(options, inputs, expected):
    prg = cl2c.Program(SOURCE).build(options)
    b = np.zeros_like(inputs)
    prg.k(16, 8, inputs.copy(), b, cl2c.LocalMemory(8 * 16))
    np.testing.assert_array_equal(b, expected)


def test_no_address_of_a_private_vector_in_statements():
    c = cl2c.Program(SOURCE).build().c_source
    calls = [line.strip() for line in c.splitlines() if "cl2c_swzset" in line and "(&" in line]
    # the one assignment used as a value keeps its call; the statements store components
    assert len(calls) == 1 and "r.s[" not in calls[0], calls
    assert "cl2c_x" in c
