"""Which builtin calls of mixed scalar types OpenCL C accepts: its builtins are
overloads, one for each type, and clang picks the one whose argument conversions are
each as good as every other's, or finds the call ambiguous. cl2c must accept and reject
the same calls as PoCL's clang, and give the same values where it accepts."""
from __future__ import annotations

import numpy as np
import pytest

import cl2c
from conftest import pocl_program, run_pocl

PARAMS = ("global float *o, uint u, uchar c, short s, float f, int i, long l, float4 f4, "
          "double d")

AMBIGUOUS = ["min(get_global_id(0), 5)", "max(u, 0)", "clamp(c, 0, 255)", "min(s, 1)",
             "fmin(f, 2.0)", "max(l, i)", "mad_sat(u, u, 1)", "rotate(u, 3)",
             "clamp(f, 0.0f, 1)", "mix(f, 1.0f, 0.5)", "abs_diff(u, i)", "mul24(i, u)",
             "min(f, 1)"]
ACCEPTED = ["fmin(f, 0)", "fmax(i, f)", "min(u, 5u)", "min(i, 5)", "min(f4, 1).x",
            "hadd(c, c)", "pown(f, 2)", "add_sat(i, 1)", "max(get_global_id(0), 5ul)",
            "max(get_global_id(0), (size_t)5)", "clz((size_t)u)",
            "abs_diff((ptrdiff_t)i, (ptrdiff_t)l)",
            # scalars for a vector parameter, and scalars of a type no overload takes
            "max(0.0f, f4).x", "max(1, f4).x", "remainder(1.0f, f4).x", "pown(f4, 2).x",
            "native_sqrt(i)", "fast_length(f4)", "fast_length(d)", "mul24(1.0, s)"]


def _kernel(call: str) -> str:
    return f"kernel void k({PARAMS}) {{ o[0] = (float)({call}); }}\n"


@pytest.mark.parametrize("call", AMBIGUOUS)
def test_ambiguous_calls_are_rejected_as_by_clang(call):
    with pytest.raises(cl2c.BuildError, match=rf"call to '\w+' is ambiguous"):
        cl2c.Program(_kernel(call)).build()
    with pytest.raises(Exception, match="is ambiguous"):
        pocl_program(_kernel(call))


@pytest.mark.parametrize("call", ACCEPTED)
def test_calls_clang_resolves_are_accepted(call):
    cl2c.Program(_kernel(call)).build()
    pocl_program(_kernel(call))


SIZES = """
kernel void k(global ulong *o, global long *p, ulong n) {
    size_t g = get_global_id(0);
    ptrdiff_t d = (ptrdiff_t)g - 9;
    o[g] = max(g, (size_t)n) + min(get_local_size(0), (size_t)3) * 100 +
           clz(g) * 10000 + popcount(g * 0x10001) + rotate(g, (size_t)60);
    p[g] = abs_diff(d, (ptrdiff_t)-2) + max(d, (ptrdiff_t)-3) * 1000 + abs(d) * 7 +
           clamp(d, (ptrdiff_t)-4, (ptrdiff_t)4) * 100000;
}"""


def test_size_t_arguments_are_ulong_as_in_clang():
    # size_t and ptrdiff_t are typedefs of ulong and long: their calls pick those
    # overloads (cl2c found no overload for max(size_t, size_t) before)
    ours = [np.zeros(16, np.uint64), np.zeros(16, np.int64)]
    theirs = [np.zeros(16, np.uint64), np.zeros(16, np.int64)]
    cl2c.Program(SIZES).build().k((16,), (8,), *ours, np.uint64(6))
    run_pocl(SIZES, "k", (16,), (8,), *theirs, np.uint64(6))
    for a, b in zip(ours, theirs):
        np.testing.assert_array_equal(a, b)


WIDENED = """
kernel void k(global float4 *o, global float *p, global const float4 *x, int n) {
    size_t g = get_global_id(0);
    o[g] = max(0.5f, x[g]) + min(1, x[g]) * 10.0f + pown(x[g], 3) * 100.0f +
           rootn(x[g] + 2.0f, 2) * 1000.0f;
    p[g] = native_sqrt(n + (int)g) + fast_length(x[g]) * 10.0f + half_sqrt(g);
}"""


def test_scalars_widen_for_vector_parameters_as_in_clang():
    # max(0.5f, v) and pown(v, 3) for a float4 v: cl2c found no overload before
    x = np.random.default_rng(3).random((16, 4), dtype=np.float32)
    ours = [np.zeros((16, 4), np.float32), np.zeros(16, np.float32)]
    theirs = [np.zeros((16, 4), np.float32), np.zeros(16, np.float32)]
    cl2c.Program(WIDENED).build().k((16,), None, *ours, x, np.int32(5))
    run_pocl(WIDENED, "k", (16,), None, *theirs, x, np.int32(5))
    for a, b in zip(ours, theirs):     # (native_ and half_ functions: their own bounds)
        np.testing.assert_allclose(a, b, rtol=1e-3)
