"""Random kernels in the lecture's Version 6 style (a __local copy made by the group at
each step of a loop, read after a barrier; lower/local_copies.py), some of which the pass
reads from memory and some it must leave (a value of the work-item's, a store between, a
read it cannot place, another bound), against a checking build, which keeps every kernel
as written: bit for bit, over three launch shapes each."""
from __future__ import annotations

import random

import numpy as np
import pytest

import cl2c

pytestmark = pytest.mark.optimised      # what the optimiser makes of cl2c's C

SEEDS = range(1, 49)
N = 48                                  # the n the launches pass


def kernel(seed: int) -> str:
    r = random.Random(seed)

    def pick(usual: list, blockers: list) -> str:
        """One of ``usual``, or (one time in eight) one of ``blockers``: a shape the
        pass must leave as written."""
        return r.choice(blockers if blockers and r.random() < 0.125 else usual)

    bound = r.choice(["n", "40"])
    value = pick(["B[k * n + j]", "B[j * n + k]", "B[k] * 2.0f + (float)j",
                  "A[(k + j) % n] - B[k * n + j]", "(float)(k * j % 7)"],
                 ["B[k * n + j] + 0.0f * i", "A[i * n + k]"])
    # (no reads past the copy's bound: those elements were never written)
    read_bound = pick([bound, "32" if bound == "40" else bound], ["m" if bound == "n" else "32"])
    start = pick(["0", "1"], ["il"])
    read = pick(["A[i * n + k] * L[k]", "L[k]", "L[k] * L[k] - A[k]"], ["L[k] + L[0]"])
    between = pick(["", "acc *= 0.5f;", "t[0] = (float)j;"], ["C[i] = -1.0f;"])
    fence = pick(["CLK_LOCAL_MEM_FENCE"], ["CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE"])
    scope_array = r.random() < 0.3
    local = "" if scope_array else "__local float *L, "
    array = "__local float L[48];\n    " if scope_array else ""
    step = r.choice(["k += nl", "k += nl", "k += get_local_size(0)"])
    return f"""
__kernel void k{seed}(__global const float *A, __global const float *B, __global float *C,
                      {local}int n, int m) {{
    {array}float t[2] = {{0.0f, 0.0f}};
    int i = get_global_id(0), il = get_local_id(0), nl = get_local_size(0);
    float acc = 1.0f;
    for (int j = 0; j < {r.choice(["n", "5", "m - 3"])}; j++) {{
        for (int k = il; k < {bound}; {step})
            L[k] = {value};
        barrier({fence});
        {between}
        float s = 0.0f;
        for (int k = {start}; k < {read_bound}; k++)
            s += {read};
        acc += s * 0.25f + t[0] * 0.0f;
        barrier({fence});
    }}
    C[i] = acc;
}}"""


@pytest.fixture(scope="module")
def built():
    source = "\n".join(kernel(s) for s in SEEDS)
    return (cl2c.Program(source, filename="copies.cl").build(),
            cl2c.Program(source, "-cl2c-check", filename="copies.cl").build())


def test_random_copies_agree_with_the_kernels_as_written(built):
    default, checked = built
    forwarded = {s for s in SEEDS
                 if f" *   k{s}: " in default.c_source and
                 ", a copy of " in default.c_source.split(f" *   k{s}: ")[1].split("\n")[0]}
    assert 8 <= len(forwarded) <= len(SEEDS) - 8, sorted(forwarded)
    rng = np.random.default_rng(5)
    a = rng.random(N * N).astype(np.float32)
    b = rng.random(N * N).astype(np.float32)
    for seed in SEEDS:
        source = kernel(seed)
        for gsize, local in (((N,), (8,)), ((N,), (16,)), ((40,), (5,))):
            outs = []
            for prg in (default, checked):
                c = np.full(N, -7.0, np.float32)
                args = [a, b, c] + ([] if "L[48]" in source else [cl2c.LocalMemory(4 * N)])
                getattr(prg, f"k{seed}")(gsize, local, *args, np.int32(N), np.int32(N))
                outs.append(c.view(np.int32))
            np.testing.assert_array_equal(outs[0], outs[1], err_msg=f"seed {seed} "
                                          f"({seed in forwarded}), {gsize}/{local}:{source}")
