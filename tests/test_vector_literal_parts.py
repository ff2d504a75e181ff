"""A vector literal's parts that are vectors computed by an expression (``(a * b).hi``)
are evaluated once, into a temporary: the literal takes its components one by one, and
C that repeated the expression for each component grew as a power of the nesting (a
16-wide literal of literals, four deep, took GCC minutes), and a part with effects
was refused; now it runs once, as in clang."""
from __future__ import annotations

import numpy as np

import cl2c
from conftest import run_pocl

SOURCE = r"""
int2 two(global int *c) { int k = (*c)++; return (int2)(k, k * 10); }
kernel void effects(global int4 *p, global int *c) {
    int i = 0;
    p[2] = (int4)(two(c), p[i++].xy);   /* each part once, as clang evaluates them */
    p[3] = (int4)(i, *c, 0, 0);
}
kernel void parts(global const ushort *in, global ushort *out) {
    ushort16 a = vload16(0, in), b = vload16(1, in);
    ushort16 r = (ushort16)(a.odd, ((ushort16)((a * b).hi, (a + b).lo)).even);
    vstore16(r, 0, out);
}
kernel void deep(global const ushort *in, global ushort *out) {
    ushort16 a = vload16(0, in), b = vload16(1, in);
    ushort16 r = (ushort16)(((ushort16)(((ushort16)(((ushort16)((a * b).hi,
                 (a + b).lo)).odd, (a - b).even)).hi, (b * b).lo)).even, (a ^ b).lo);
    vstore16(r, 0, out);
}
"""


def test_parts_are_evaluated_once():
    c_source = cl2c.translate(SOURCE, "parts.cl").c_source
    assert c_source.count("cl2c_mul_ushort16(") == 3      # a * b twice, b * b once
    assert len(c_source) < 60_000, len(c_source)


def test_parts_give_the_components():
    rng = np.random.default_rng(5)
    values = rng.integers(0, 1 << 16, 32, dtype=np.uint16)
    a, b = values[:16], values[16:]
    prg = cl2c.Program(SOURCE).build()
    out = np.zeros(16, np.uint16)
    prg.parts((1,), None, values, out)
    inner = np.concatenate([(a * b)[8:], (a + b)[:8]])
    np.testing.assert_array_equal(out, np.concatenate([a[1::2], inner[0::2]]))
    prg.deep((1,), None, values, out)
    l1 = np.concatenate([(a * b)[8:], (a + b)[:8]])
    l2 = np.concatenate([l1[1::2], (a - b)[0::2]])
    l3 = np.concatenate([l2[8:], (b * b)[:8]])
    np.testing.assert_array_equal(out, np.concatenate([l3[0::2], (a ^ b)[:8]]))


def test_parts_with_effects_once_as_pocl():
    """A part with effects (a call, ``p[i++].xy``) was refused ("not supported yet"):
    its temporary evaluates it once."""
    prg = cl2c.Program(SOURCE).build()
    ours, theirs = ([np.arange(16, dtype=np.int32).reshape(4, 4), np.array([5], np.int32)]
                    for _ in range(2))
    prg.effects((1,), None, *ours)
    run_pocl(SOURCE, "effects", (1,), None, *theirs)
    assert ours[0][2].tolist() == [5, 50, 0, 1] and ours[0][3].tolist()[:2] == [1, 6]
    for mine, pocl in zip(ours, theirs):
        np.testing.assert_array_equal(mine, pocl)
