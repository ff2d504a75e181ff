"""Operands with side effects evaluate left to right, scalar and vector alike, as in
every clang-based OpenCL compiler (C leaves the order unspecified, and GCC evaluates
call arguments right to left): the same random draws as PoCL, under every schedule."""
from __future__ import annotations

import numpy as np
import pytest

import cl2c
from conftest import run_pocl

SOURCE = r"""
uint gen(uint *s) { *s = *s * 1103515245u + 12345u; return *s >> 16; }
int4 gen4(uint *s) { return (int4)(gen(s), gen(s), gen(s), gen(s)); }

kernel void vector_ops(global double4 *out, double4 a) {
    uint s = get_global_id(0) + 1;
    out[get_global_id(0)] = convert_double4(gen4(&s)) * a + convert_double4(gen4(&s));
}
kernel void scalar_ops(global uint *out) {
    uint s = get_global_id(0) + 1;
    out[get_global_id(0)] = gen(&s) - 2 * gen(&s) + (s & 7);
}
kernel void call_args(global uint *out) {
    uint s = get_global_id(0) + 1;
    out[get_global_id(0)] = max(gen(&s), gen(&s) + 100000u) * 3 + mad24(gen(&s), 2u, gen(&s));
}
kernel void counters(global int *out, global int *c) {
    int i = get_global_id(0);
    int k = 0;
    out[i] = (k++) * 10 + (k++) - atomic_inc(c) * 0 + k;
}
kernel void reads_then_writes(global uint *out) {
    uint s = get_global_id(0) + 1;
    out[get_global_id(0)] = s * 1000 + gen(&s) + s;
}
kernel void in_conditions(global uint *out) {
    uint s = get_global_id(0) + 1, n = 0;
    while (gen(&s) % 7 + gen(&s) % 5 != 0 && n < 50)
        n++;
    for (uint i = 0; i < gen(&s) % 4 - gen(&s) % 2 + 2; i++)
        n += 100;
    out[get_global_id(0)] = n;
}
int bump(global int *c) { return (*c)++ & 3; }
kernel void value_first(global int *v, global int4 *w, global int *c) {
    global int *row = v + 4 * get_global_id(0), *n = c + get_global_id(0);
    global int4 *wr = w + 4 * get_global_id(0);
    row[*n & 3] = bump(n) * 10;
    *(row + (*n & 3)) = bump(n) + 100;
    row[bump(n)] = *n;
    row[*n & 3] += bump(n) * 1000;
    wr[bump(n)] = (int4)((*n & 7) + 1, *n | 1, bump(n) + 2, 3);
}
kernel void with_barrier(global uint *out) {
    local uint t[64];
    uint s = get_local_id(0) + 7;
    t[get_local_id(0)] = gen(&s) - gen(&s);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = t[63 - get_local_id(0)] + gen(&s) / (gen(&s) | 1);
}
"""
LAUNCHES = [("vector_ops", 16, None, lambda: [np.zeros(64), _double4()]),
            ("scalar_ops", 16, None, lambda: [np.zeros(16, np.uint32)]),
            ("call_args", 16, None, lambda: [np.zeros(16, np.uint32)]),
            ("reads_then_writes", 16, None, lambda: [np.zeros(16, np.uint32)]),
            ("in_conditions", 16, None, lambda: [np.zeros(16, np.uint32)]),
            ("with_barrier", 128, 64, lambda: [np.zeros(128, np.uint32)])]


def _double4():
    return cl2c.cltypes.make_double4(1.5, -2.0, 3.25, 4.0)


@pytest.mark.parametrize("schedule", ["auto", "fibers"])
@pytest.mark.parametrize("name, gsize, lsize, args", LAUNCHES, ids=[x[0] for x in LAUNCHES])
def test_same_draws_as_pocl(schedule, name, gsize, lsize, args):
    options = "" if schedule == "auto" else f"-cl2c-schedule={schedule}"
    prg = cl2c.Program(SOURCE, options).build()
    ours, theirs = args(), args()
    getattr(prg, name)(gsize, lsize, *ours)
    run_pocl(SOURCE, name, gsize, lsize, *theirs)
    np.testing.assert_array_equal(ours[0], theirs[0])


@pytest.mark.parametrize("schedule", ["auto", "fibers"])
def test_stored_value_before_its_lvalue_as_pocl(schedule):
    """A store evaluates the value before the lvalue's operands where either changes
    what the other reads (``row[bump(n)] = *n``, ``row[*n & 3] = bump(n)``), as clang
    does: GCC left to itself took the lvalue first in some of these."""
    options = "" if schedule == "auto" else f"-cl2c-schedule={schedule}"
    prg = cl2c.Program(SOURCE, options).build()

    def args():
        return [np.arange(64, dtype=np.int32), np.arange(256, dtype=np.int32),
                np.arange(16, dtype=np.int32) * 3]
    ours, theirs = args(), args()
    prg.value_first(16, None, *ours)
    run_pocl(SOURCE, "value_first", 16, None, *theirs)
    for mine, pocl in zip(ours, theirs):
        np.testing.assert_array_equal(mine, pocl)


def test_increments_in_order():
    prg = cl2c.Program(SOURCE).build()
    out, c = np.zeros(4, np.int32), np.zeros(1, np.int32)
    prg.counters(4, None, out, c)
    assert out.tolist() == [0 * 10 + 1 + 2] * 4 and c[0] == 4


def test_plain_expressions_stay_plain():
    """Only operands that can change each other get temporaries: a read of global
    memory beside an increment of a private counter, or beside a pure builtin, does
    not."""
    src = ("kernel void k(global float *o, global const float *a) {\n"
           "  int i = get_global_id(0), k = i;\n"
           "  o[i] = a[i] * 2.0f + (float)(k++) + sqrt(a[i + 1]) * (float)i;\n}\n")
    assert "cl2c_seq" not in cl2c.translate(src, "k.cl").c_source
    src = src.replace("(float)(k++)", "(float)atomic_inc((global int *)o)")
    assert "cl2c_seq1 = " in cl2c.translate(src, "k.cl").c_source
