"""Random divergent loops (cl2c/workgroup/passes/lockstep.py) against the work-item loops that run
each work-item's loop as written (``-cl2c-schedule=loops``), bit for bit.

Each kernel has one data-dependent loop (``while``, ``for``, ``do``) holding integer and
float updates, ``++``/``--``/``+= 1``, ``if``/``else``, ``break`` and ``continue``, and
conditions of every kind: comparisons, integers used as truth values (``if (x & 4)``),
``!``, ``&&``/``||`` and float compares. Integer division and shifts keep to defined
operands. A generator like this one found that ``if (x & 4)`` dropped lanes
(6 of 40 kernels); a seed that fails here is a kernel to add to ``kernels/lockstep.cl``.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

from random_kernels import programs

pytestmark = pytest.mark.optimised      # what the optimiser makes of cl2c's C

INTS = ("x", "y", "n")
FLOATS = ("f", "g")


def _int(r: random.Random, depth: int = 0) -> str:
    if depth > 2 or r.random() < 0.3:
        return r.choice(INTS + (str(r.randint(0, 9)), "(int)i"))
    op = r.choice(["+", "-", "*", "&", "|", "^", "%", "/", ">>", "<<"])
    a, b = _int(r, depth + 1), _int(r, depth + 1)
    if op in ("%", "/"):
        return f"({a} {op} ({b} | 1))"          # never 0
    if op in (">>", "<<"):
        return f"(({a} & 1023) {op} ({b} & 3))"  # no overflow, no negative shift
    if op == "*":
        return f"(({a} & 1023) * ({b} & 1023))"
    return f"({a} {op} {b})"


def _float(r: random.Random, depth: int = 0) -> str:
    if depth > 2 or r.random() < 0.3:
        return r.choice(FLOATS + ("0.5f", "1.25f", "(float)x"))
    return f"({_float(r, depth + 1)} {r.choice('+-*')} {_float(r, depth + 1)})"


def _cond(r: random.Random) -> str:
    k = r.random()
    if k < 0.3:
        return f"{_int(r)} {r.choice(['<', '>', '==', '!=', '<=', '>='])} {_int(r)}"
    if k < 0.5:
        return _int(r)                            # an integer as a truth value
    if k < 0.6:
        return f"{_float(r)} < {_float(r)}"
    if k < 0.75:
        return f"!({_int(r)})"
    return f"({_cond(r)}) {r.choice(['&&', '||'])} ({_cond(r)})"


def _stmt(r: random.Random, depth: int = 0) -> str:
    k = r.random()
    if k < 0.35 or depth > 1:
        v = r.choice(INTS)
        return r.choice([f"{v} = {_int(r)};", f"{v}++;", f"{v} += 1;", f"{v}--;",
                         f"{v} -= 1;", f"{v} ^= {_int(r)};"])
    if k < 0.5:
        return f"{r.choice(FLOATS)} = {_float(r)};"
    if k < 0.8:
        s = f"if ({_cond(r)}) {{ {_stmt(r, depth + 1)} }}"
        if r.random() < 0.5:
            s += f" else {{ {_stmt(r, depth + 1)} }}"
        return s
    return f"if ({_cond(r)}) {r.choice(['break', 'continue'])};"


def kernel(seed: int) -> str:
    r = random.Random(seed)
    body = " ".join(_stmt(r) for _ in range(r.randint(1, 4)))
    loop = r.choice([
        f"while (it < 40 && ({_cond(r)})) {{ it++; {body} }}",
        f"for (int k = 0; k < 30 && ({_cond(r)}); k++) {{ it++; {body} }}",
        f"while ({_cond(r)}) {{ if (++it > 40) break; {body} }}",
        f"do {{ it++; {body} }} while (it < 30 && ({_cond(r)}));",
    ])
    return f"""
__kernel void k{seed}(__global const int *a, __global const float *b, __global int *o,
                      __global float *p) {{
    size_t i = get_global_id(0);
    int x = a[i], y = a[i] >> 3, n = 0, it = 0;
    float f = b[i], g = 0.5f;
    {loop}
    o[i] = x * 7 + y * 3 + n + it * 1000;
    p[i] = f + g;
}}"""


SEEDS = range(1, 61)


@pytest.fixture(scope="module")
def built():
    return programs("\n".join(kernel(s) for s in SEEDS), "loops")


def test_random_divergent_loops_agree_with_the_work_item_loops(built):
    auto, loops, schedules = built
    lockstep = [k for k, line in schedules.items() if "lock-step" in line]
    assert len(lockstep) >= 30, "most of the kernels must run in lock-step"
    rng = np.random.default_rng(5)
    n = 300
    a = rng.integers(-60, 60, n).astype(np.int32)
    b = rng.random(n).astype(np.float32)
    for seed in SEEDS:
        got, want = [], []
        for prg, outs in ((auto, got), (loops, want)):
            o, p = np.zeros(n, np.int32), np.zeros(n, np.float32)
            getattr(prg, f"k{seed}")((n,), None, a, b, o, p)
            outs += [o, p.view(np.int32)]
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w, err_msg=f"seed {seed}:{kernel(seed)}")
