"""Random barrier-free kernels: cl2c's default schedules (one vectorised loop over the
work-items, interleaved, or a work-group function where that vectorises better) against
fibers, which run each work-item as written, bit for bit.

Each kernel has guards of every kind (on the global, local and group ids, the arguments
and the data; conjunctions; ``gid & 2``; an early ``return``), loops with trip counts
from the arguments, loads at computed indices, float arithmetic and math builtins. Every
kernel runs on five ranges: whole and partial groups, local sizes None, 40, 16 and 8,
and bounds that cut the range in different places.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

from random_kernels import guard, if_else, programs

pytestmark = pytest.mark.optimised      # what the optimiser makes of cl2c's C

N = 1000


IDS = ["gid", "(gid + 3)", "(2 * gid)", "(gid - 5)", "lid", "(int)get_global_id(0)", "grp"]


def _bound(r: random.Random) -> str:
    return r.choice(["n", "m", str(r.randint(0, 300)), "(n - 1)", "(m + 2)"])


def _guard(r: random.Random) -> str:
    return guard(r, IDS, _bound, data=("t",))


def _index(r: random.Random) -> str:
    return r.choice(["gid", "(gid + 1) % N", "(N - 1 - gid)", "(gid * 7) % N",
                     str(r.randint(0, 60))])


def _float(r: random.Random, depth: int = 0) -> str:
    if depth > 1 or r.random() < 0.35:
        return r.choice(["f", "g", f"b[{_index(r)}]", "1.5f", "(float)t"])
    return f"({_float(r, depth + 1)} {r.choice('+-*')} {_float(r, depth + 1)})"


def _stmt(r: random.Random, depth: int = 0) -> str:
    k = r.random()
    if k < 0.2:
        return f"t += a[{_index(r)}];"
    if k < 0.35:
        return f"f = {_float(r)};"
    if k < 0.45:
        return f"g = {r.choice(['sqrt', 'exp', 'fabs', 'floor'])}({_float(r)}) * 0.25f;"
    if k < 0.55:
        return "t = t * 3 + (int)(g * 4.0f);"
    if k < 0.8 and depth < 2:
        return if_else(r, _guard(r), _stmt, depth)
    if k < 0.9 and depth < 2:
        trips = r.choice(["4", "m % 7", "n % 5"])
        return f"for (int j = 0; j < {trips}; j++) {{ {_stmt(r, depth + 1)} }}"
    return r.choice(["t ^= gid;", "t -= 3;", "f += g;"])


def kernel(seed: int) -> str:
    r = random.Random(seed)
    body = " ".join(_stmt(r) for _ in range(r.randint(1, 5)))
    k = r.random()
    if k < 0.3:
        body = f"if (!({_guard(r)})) return; {body}"
    elif k < 0.6:
        body = f"if ({_guard(r)}) {{ {body} }}"
    # ids in int, as GPU code has them, send a loop-free kernel to the work-group
    # function (schedules.py); in long, half the kernels keep the loops schedule
    ids = "int" if seed % 2 else "long"
    tail = r.choice(["o[gid] = t; p[gid] = f + g;",
                     f"o[gid] = t + (int)f; if ({_guard(r)}) p[gid] = g;"])
    return f"""
__kernel void k{seed}(__global const int *a, __global const float *b, __global int *o,
                      __global float *p, int n, int m) {{
    {ids} gid = get_global_id(0), lid = get_local_id(0);
    int grp = get_group_id(0);
    int t = a[gid];
    float f = b[gid], g = 0.5f;
    {body}
    {tail}
}}"""


SEEDS = range(1, 81)
RANGES = ((N, None, 900, 40), (N, 40, 500, 3), (N - 1, None, 1000, 250), (64, 16, 10, 0),
          (N, 8, 0, 100))       # global size, local size, n, m


@pytest.fixture(scope="module")
def built():
    return programs(f"#define N {N}\n" + "\n".join(kernel(s) for s in SEEDS), "fibers")


def test_random_kernels_agree_with_fibers(built):
    default, fibers, schedules = built
    names = [line.split()[0] for line in schedules.values()]
    assert names.count("loops") >= 20 and names.count("regions") >= 20, names
    rng = np.random.default_rng(1)
    a = rng.integers(-100, 100, N).astype(np.int32)
    b = (rng.random(N) * 4).astype(np.float32)
    for seed in SEEDS:
        for gsize, local, n, m in RANGES:
            outs = []
            for prg in (default, fibers):
                o, p = np.full(N, -7, np.int32), np.full(N, -7, np.float32)
                getattr(prg, f"k{seed}")((gsize,), local, a, b, o, p, np.int32(n),
                                         np.int32(m))
                outs.append((o, p.view(np.int32)))
            for got, want in zip(*outs):
                np.testing.assert_array_equal(
                    got, want, err_msg=f"seed {seed}, range {gsize}/{local}, n {n}, "
                                       f"m {m}:{kernel(seed)}")
