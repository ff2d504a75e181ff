"""Attributes whose arguments are integer constant expressions, however spelled
(reqd_work_group_size(8u, 1, 1), (4 * 2, 1, 1), a macro), aligned(N) on variables, and
vec_type_hint's type: each means what its plain decimal spelling means, and what is not
a constant is an error at its file:line:col."""
from __future__ import annotations

import numpy as np
import pytest

import cl2c
from cl2c import LaunchError

REQD = """#define WIDTH 8
kernel __attribute__((reqd_work_group_size({size}, 1, 1))) void k(global int *out)
{{
    out[get_global_id(0)] = (int)get_local_size(0) * 100 + (int)get_local_id(0);
}}
"""
SPELLINGS = ["8u", "4 * 2", "WIDTH", "(WIDTH << 1) / 2", "sizeof(double)"]


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_reqd_work_group_size_of_any_spelling_is_the_decimal_ones(spelling):
    """The same C as reqd_work_group_size(8, 1, 1) (the constant trip counts and the
    launch check), the same size in the interface, and a launch with another local size
    refused."""
    decimal = cl2c.translate(REQD.format(size="8"), "k.cl").c_source
    assert "{8, 1, 1}" in decimal
    assert cl2c.translate(REQD.format(size=spelling), "k.cl").c_source == decimal
    prg = cl2c.Program(REQD.format(size=spelling)).build()
    assert prg.k.reqd_work_group_size == (8, 1, 1)
    out = np.zeros(16, np.int32)
    prg.k((16,), (8,), out)
    np.testing.assert_array_equal(out, 800 + np.arange(16) % 8)
    with pytest.raises(LaunchError, match="work-group size"):
        prg.k((16,), (4,), out)


ALIGNED = """global char before = 1;
global int g[3] __attribute__((aligned(64))) = {1, 2, 3};
kernel void k(global ulong *out)
{
    local char pad;
    local float t[16] __attribute__((aligned(64)));
    char c = 1;
    __attribute__((aligned(2 * 16))) char q[3];
    float p[3] __attribute__((aligned(64)));
    int l = get_local_id(0);
    p[0] = l; p[1] = c; p[2] = 0;
    q[0] = c;
    t[l] = p[0];
    BARRIER
    ulong *o = out + 4 * get_global_id(0);
    o[0] = (ulong)t % 64;
    o[1] = (ulong)p % 64;
    o[2] = (ulong)q % 32;
    o[3] = (ulong)g % 64 + (ulong)(t[l] - l) + (ulong)(q[0] + g[0] + before - 3);
    pad = 0;
}
"""


@pytest.mark.parametrize("schedule", ["auto", "loops", "fibers"])
def test_aligned_variables_are_aligned(schedule):
    """aligned(N) on a __local, a private and a program-scope array (OpenCL C 2.0) is
    in the C, and each address is a multiple of N at run time, across a barrier too
    (where the regions schedule's per-work-item rows could not keep it)."""
    src = ALIGNED.replace("BARRIER", "" if schedule == "loops" else
                          "barrier(CLK_LOCAL_MEM_FENCE);")
    c = cl2c.translate(src, "k.cl", "-cl-std=CL2.0").c_source
    assert "_Alignas(64) float t[16]" in c and "_Alignas(64) float p[3]" in c
    assert "_Alignas(64) int g[3]" in c and "_Alignas(32) cl2c_char q[3]" in c
    prg = cl2c.Program(src, f"-cl-std=CL2.0 -cl2c-schedule={schedule}").build()
    out = np.full(4 * 16, 99, np.uint64)
    prg.k((16,), (4,), out)
    np.testing.assert_array_equal(out, 0)


def _error(source: str, options: str = "") -> list[str]:
    with pytest.raises(cl2c.BuildError) as info:
        cl2c.translate(source, "bad.cl", options)
    return str(info.value).splitlines()


@pytest.mark.parametrize("attribute, column, message", [
    ("reqd_work_group_size(n, 1, 1)", 44,
     "'reqd_work_group_size' attribute requires parameter 0 to be an integer constant"),
    ("reqd_work_group_size(8, 1.5, 1)", 47,
     "'reqd_work_group_size' attribute requires parameter 1 to be an integer constant"),
    ("reqd_work_group_size(8, 0, 1)", 47, "'reqd_work_group_size' attribute must be "
                                          "greater than 0"),
    ("reqd_work_group_size(8, 1)", 23, "'reqd_work_group_size' attribute requires exactly "
                                       "3 arguments"),
    ("reqd_work_group_size(1 << 40, 1, 1)", 23, "'reqd_work_group_size' asks for "
                                                "1099511627776 work-items a group; a "
                                                "work-group holds at most 4096"),
    ("work_group_size_hint(n, 1, 1)", 44,
     "'work_group_size_hint' attribute requires parameter 0 to be an integer constant"),
    ("vec_type_hint(notatype)", 37, "unknown type name 'notatype'"),
    ("vec_type_hint(3)", 37, "expected a type"),
])
def test_kernel_attribute_that_is_not_constant_is_an_error(attribute, column, message):
    lines = _error(f"constant int n = 8;\nkernel __attribute__(({attribute})) "
                   f"void k(global int *o) {{ o[0] = 1; }}\n")
    assert lines[0] == f"bad.cl:2:{column}: error: {message}", lines
    assert lines[2] == " " * (column - 1) + "^"


@pytest.mark.parametrize("declaration, column, message", [
    ("float p[4] __attribute__((aligned(n)));", 39, "'aligned' attribute requires integer "
                                                    "constant"),
    ("float p[4] __attribute__((aligned(48)));", 39, "requested alignment is not a positive "
                                                     "power of 2"),
    ("local float p[4] __attribute__((aligned(256)));", 17, "requested alignment 256 is "
                                                            "more than cl2c gives __local"),
])
def test_alignment_that_is_not_a_constant_power_of_two_is_an_error(declaration, column,
                                                                   message):
    lines = _error(f"kernel void k(global int *o, int n) {{\n    {declaration}\n"
                   f"    o[0] = 1;\n}}\n")
    assert lines[0].startswith(f"bad.cl:2:{column}: error: {message}"), lines


def test_vec_type_hint_of_a_type_is_accepted():
    src = ("typedef float4 v4;\n"
           "kernel __attribute__((vec_type_hint(v4))) __attribute__((vec_type_hint(uint)))"
           " void k(global int *o) { o[0] = 1; }\n"
           "__kernel_exec(16, float4) void e(global int *o) { o[0] = 2; }\n")
    prg = cl2c.Program(src).build()
    out = np.zeros(1, np.int32)
    prg.k((1,), None, out)
    assert out[0] == 1
