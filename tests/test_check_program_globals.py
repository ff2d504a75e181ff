"""Checking mode on OpenCL C 2.0's program-scope __global variables: races between
work-items on the variables themselves (scalars, arrays, struct members, pointers), and
correct kernels over them, where it finds nothing and the results are NumPy's."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import cl2c
from check_helpers import build, finding

SCHEDULES = ["auto", "fibers"]

RACES = """
global int counter;
global float table[8];
typedef struct { int a; float b; } S;
global S s;
global int *where;
__kernel void scalar(__global int *out) {
    counter = (int)get_global_id(0);
    out[get_global_id(0)] = 0;
}
__kernel void element(__global int *out) {
    size_t i = get_global_id(0);
    table[i % 4] = (float)i;
    out[i] = 0;
}
__kernel void member(__global int *out) {
    s.b = (float)get_local_id(0);
    out[get_global_id(0)] = 0;
}
__kernel void read_then_write(__global int *out) {
    size_t i = get_global_id(0);
    out[i] = counter;
    if (i == 3)
        counter = 1;
}
__kernel void pointer(__global int *out) {
    where = out + get_global_id(0);
    *out = 0;
}
void bump(int by) { table[5] += by; }
__kernel void helper(__global int *out) {
    bump((int)get_global_id(0));
    out[get_global_id(0)] = 0;
}
__kernel void through_pointer(__global int *out) {
    global int *p = &s.a;
    *p = (int)get_global_id(0);
    out[get_global_id(0)] = 0;
}
"""


def _build(src, schedule):
    return build(src, f"-cl-std=CL2.0 -cl2c-check -cl2c-schedule={schedule}")


@pytest.mark.parametrize("schedule", SCHEDULES)
@pytest.mark.parametrize("kernel, groups, place, variable, offset, other", [
    ("scalar", 1, "8:5", "write of __global 'counter'", 0, "which work-item (local linear id"),
    ("element", 2, "13:5", "write of __global 'table'", 0,
     "which a work-item of another group"),
    ("member", 1, "17:5", "write of __global 's'", 4, "which work-item (local linear id"),
    ("read_then_write", 1, "24:9", "write of __global 'counter'", 0,
     "which several work-items of the group read"),
    ("pointer", 1, "27:5", "write of __global 'where'", 0, "which work-item (local linear id"),
    ("helper", 1, "30:21", "write of __global 'table'", 20, "which work-item (local linear id"),
    ("through_pointer", 1, "37:6", "write of __global 's'", 0,
     "which work-item (local linear id"),
])
def test_races_on_program_scope_globals(schedule, kernel, groups, place, variable, offset,
                                        other):
    """One group where the race is within a group: two groups' threads would make the
    first finding's wording depend on their timing."""
    prg = _build(RACES, schedule)
    msg = finding(getattr(prg, kernel), (4 * groups,), (4,), np.zeros(8, np.int32))
    assert f"bug.cl:{place}: data race: {variable} at offset {offset}, {other}" in msg, msg


CORRECT = """
global int flag;
global float table[64];
global atomic_int hits = ATOMIC_VAR_INIT(0);
global float *last;
__kernel void fill(__global float *out, float scale) {
    size_t i = get_global_id(0);
    table[i] = (float)i * scale;            /* each work-item its own element */
    flag = 7;                               /* the same value from all: no race */
    atomic_fetch_add(&hits, 1);             /* atomics race with nothing */
    if (get_local_id(0) == 0)
        last = out;
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[i] = table[i ^ 1] + flag;           /* a neighbour's, after the barrier */
}
__kernel void read_back(__global float *out) {
    size_t i = get_global_id(0);            /* what the launch before wrote */
    out[i] = table[63 - i] + (float)atomic_load(&hits);
}
"""


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_correct_kernels_on_program_scope_globals_find_nothing(schedule):
    prg = build(CORRECT, f"-cl-std=CL2.0 -cl2c-check=collect -cl2c-schedule={schedule}")
    out = np.zeros(64, np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error", cl2c.CheckWarning)
        prg.fill((64,), (64,), out, np.float32(0.5))
        np.testing.assert_array_equal(out, (np.arange(64) ^ 1) * 0.5 + 7)
        prg.read_back((64,), (16,), out)
    assert prg.fill.findings == [] and prg.read_back.findings == []
    np.testing.assert_array_equal(out, (63 - np.arange(64)) * 0.5 + 64)



def test_more_program_scope_globals_than_the_shadow_cache_holds():
    """Each checked launch registers every program-scope __global variable with a shadow
    of its own. With more of them than the runtime keeps shadows between launches, a
    launch must not evict (and free) the shadows it registered itself: work-item k
    writes variable k and reads it back, which is no race."""
    count = 40
    decls = "\n".join(f"global int g{k};" for k in range(count))
    cases = "\n".join(f"    case {k}: g{k} = k + 1; out[k] = g{k}; break;" for k in range(count))
    src = f"""{decls}
__kernel void k(__global int *out) {{
    int k = (int)get_global_id(0);
    switch (k) {{
{cases}
    }}
}}"""
    prg = build(src, "-cl-std=CL2.0 -cl2c-check=collect")
    out = np.zeros(count, np.int32)
    for _ in range(3):
        with warnings.catch_warnings():
            warnings.simplefilter("error", cl2c.CheckWarning)
            prg.k((count,), (8,), out)
        assert prg.k.findings == []
        np.testing.assert_array_equal(out, np.arange(1, count + 1))
