"""Random work-groups with barriers: the regions schedule (loops over the work-items
between barriers, guards as loop bounds, uniform loops around them) against fibers,
which run each work-item as written, bit for bit.

Each kernel fills a __local array, then runs one to three phases between barriers:
statements under guards of every kind on the local and global ids (affine bounds from
the arguments, conjunctions, ``lid & 2``, negations), a tree reduction's halving loop
with a barrier in it, and guarded __local stores. Every launch runs with four pairs of
the bounds ``n`` and ``s``, so that the guards cut the groups in different places.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

from random_kernels import guard, if_else, programs

pytestmark = pytest.mark.optimised      # what the optimiser makes of cl2c's C

L = 64                      # the local size (reqd_work_group_size) and __local array
GLOBAL = 256


IDS = ["lid", "gid", "(lid + 3)", "(2 * lid)", "(gid - 5)", "(lid - 7)",
       "(int)get_local_id(0)", "(int)get_global_id(0)"]


def _bound(r: random.Random) -> str:
    return r.choice(["n", "s", str(r.randint(0, 70)), "(n - 1)", "(s + 2)"])


def _guard(r: random.Random) -> str:
    return guard(r, IDS, _bound)


def _index(r: random.Random) -> str:
    return r.choice(["lid", f"(lid + {r.randint(1, L - 1)}) & {L - 1}",
                     f"(lid ^ {r.randint(1, L - 1)})", str(r.randint(0, L - 1)),
                     f"({L - 1} - lid)"])


def _stmt(r: random.Random, depth: int = 0) -> str:
    k = r.random()
    if k < 0.3:
        return f"acc += l[{_index(r)}];"
    if k < 0.45:
        return f"t = t * 3 + l[{_index(r)}];"
    if k < 0.75 and depth < 2:
        return if_else(r, _guard(r), _stmt, depth)
    return r.choice(["acc ^= t;", "t += lid;", "acc -= gid;", f"acc += {r.randint(1, 9)};"])


def _phase(r: random.Random) -> str:
    return " ".join(_stmt(r) for _ in range(r.randint(1, 3)))


def kernel(seed: int) -> str:
    r = random.Random(seed)
    parts = []
    for _ in range(r.randint(1, 3)):
        k = r.random()
        if k < 0.3:
            parts.append(f"if ({_guard(r)}) {{ {_phase(r)} }} barrier(CLK_LOCAL_MEM_FENCE);")
        elif k < 0.55:
            parts.append(f"{_phase(r)} barrier(CLK_LOCAL_MEM_FENCE);")
        elif k < 0.8:
            parts.append(f"for (int h = {L // 2}; h > 0; h >>= 1) {{ "
                         f"if (lid < h) l[lid] += l[lid + h]; barrier(CLK_LOCAL_MEM_FENCE); "
                         f"{_phase(r)} barrier(CLK_LOCAL_MEM_FENCE); }}")
        else:
            parts.append(f"if ({_guard(r)}) l[lid] = acc + t; barrier(CLK_LOCAL_MEM_FENCE); "
                         f"{_phase(r)} barrier(CLK_LOCAL_MEM_FENCE);")
    tail = r.choice(["o[gid] = acc * 31 + t;", f"if ({_guard(r)}) o[gid] = acc * 31 + t;"])
    return f"""
__kernel __attribute__((reqd_work_group_size({L}, 1, 1)))
void k{seed}(__global const int *a, __global int *o, int n, int s) {{
    __local int l[{L}];
    int lid = get_local_id(0), gid = get_global_id(0);
    int acc = 0, t = a[gid];
    l[lid] = a[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    {" ".join(parts)}
    {tail}
}}"""


SEEDS = range(1, 81)


@pytest.fixture(scope="module")
def built():
    return programs("\n".join(kernel(s) for s in SEEDS), "fibers")


def test_random_work_groups_agree_with_fibers(built):
    regions, fibers, schedules = built
    assert all(line.startswith("regions") for line in schedules.values())
    a = np.random.default_rng(1).integers(-100, 100, GLOBAL).astype(np.int32)
    for seed in SEEDS:
        for n, s in ((GLOBAL, 20), (200, 5), (37, 64), (0, 0)):
            got, want = (np.full(GLOBAL, -7, np.int32) for _ in range(2))
            for prg, o in ((regions, got), (fibers, want)):
                getattr(prg, f"k{seed}")((GLOBAL,), (L,), a, o, np.int32(n), np.int32(s))
            np.testing.assert_array_equal(got, want, err_msg=f"seed {seed}, n {n}, "
                                                             f"s {s}:{kernel(seed)}")
