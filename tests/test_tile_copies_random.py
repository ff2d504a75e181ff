"""Random kernels with a __local tile that each work-item fills at its local ids and
reads after a barrier (lower/local_copies.py), in a loop the pass may join with the
reads' (lower/split_loops.py); some of them shapes the passes must leave (a value of the
work-item's, a store between, a read no loop counts, a global fence), against a checking
build, which keeps every kernel as written: bit for bit, at two sizes each."""
from __future__ import annotations

import random

import numpy as np
import pytest

import cl2c

pytestmark = pytest.mark.optimised      # what the optimiser makes of cl2c's C

SEEDS = range(1, 31)
SHAPES = [(8, 8), (4, 8), (8, 4), (16, 1)]


def kernel(seed: int) -> tuple[str, tuple[int, int]]:
    r = random.Random(seed)

    def pick(usual: list, blockers: list):
        """One of ``usual``, or (one time in eight) one of ``blockers``: a shape the
        passes must leave as written."""
        return r.choice(blockers if blockers and r.random() < 0.125 else usual)

    t0, t1 = r.choice(SHAPES)
    flat = t1 == 1
    tile = "L[tx]" if flat else "L[ty][tx]"
    if flat:
        read, bound = pick([("L[k]", "T0"), ("L[k] * L[tx]", "T0"), ("L[k] * B[k]", "T0")],
                           [("L[(k + tx) % T0]", "T0")])
    else:
        read, bound = pick([("L[ty][k]", "T0"), ("L[k][tx]", "T1"), ("L[ty][k] * B[k]", "T0"),
                            ("L[k][tx] - L[ty][tx]", "T1")],
                           [("L[ty][(k + 1) % T0]", "T0"), ("L[ty][T0 - 1 - k]", "T0")])
    # values that make the loops one (the tile's step, t * T + its local id), and others
    split = ["A[row * n + t * T0 + tx]", "A[t * T0 + tx] + B[ty]"] if bound == "T0" else \
        ["B[(t * T1 + ty) * n + col]"]
    value = pick(split + split + ["A[(ty * T0 + tx + t) % n] * 2.0f",
                                  "(float)(tx - 2 * ty + t)", "A[tx] * B[ty]"],
                 ["A[tx] + acc", "(float)get_group_id(0)", "B[col + row + t]"])
    count = r.choice([f"n / {bound}", f"n / {bound}", "3"])
    between = pick(["", "acc *= 0.5f;"], ["C[row * n + col] = -1.0f;"])
    # (a global fence too keeps the barrier, and the loops it divides)
    fence = pick(["CLK_LOCAL_MEM_FENCE"], ["CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE"])
    array = f"L[{t0}]" if flat else f"L[{t1}][{t0}]"
    return f"""
#define T0 {t0}
#define T1 {t1}
__kernel __attribute__((reqd_work_group_size(T0, T1, 1)))
void k{seed}(__global const float *A, __global const float *B, __global float *C, int n) {{
    __local float {array};
    int tx = get_local_id(0), ty = get_local_id(1);
    int col = get_global_id(0), row = get_global_id(1);
    float acc = 0.0f;
    for (int t = 0; t < {count}; ++t) {{
        {tile} = {value};
        {between}
        barrier({fence});
        for (int k = 0; k < {bound}; ++k)
            acc += {read};
        barrier(CLK_LOCAL_MEM_FENCE);
    }}
    C[row * n + col] = acc;
}}
#undef T0
#undef T1
""", (t0, t1)


@pytest.fixture(scope="module")
def built():
    source = "\n".join(kernel(s)[0] for s in SEEDS)
    return (cl2c.Program(source, filename="tiles.cl").build(),
            cl2c.Program(source, "-cl2c-check", filename="tiles.cl").build())


def _reason(prg, seed: int) -> str:
    return prg.c_source.split(f" *   k{seed}: ")[1].split("\n")[0]


def test_random_tiles_agree_with_the_kernels_as_written(built):
    default, checked = built
    forwarded = {s for s in SEEDS if ", a copy of " in _reason(default, s)}
    joined = {s for s in SEEDS if "run as one" in _reason(default, s)}
    assert 8 <= len(forwarded) <= len(SEEDS) - 4, sorted(forwarded)
    assert joined and joined <= forwarded, (sorted(joined), sorted(forwarded))
    rng = np.random.default_rng(5)
    for seed in SEEDS:
        source, local = kernel(seed)
        for n in (16, 32):
            a = rng.random(4 * n * n).astype(np.float32)
            b = rng.random(4 * n * n).astype(np.float32)
            outs = []
            for prg in (default, checked):
                c = np.full(n * n, -7.0, np.float32)
                getattr(prg, f"k{seed}")((n, n), local, a, b, c, np.int32(n))
                outs.append(c.view(np.int32))
            np.testing.assert_array_equal(outs[0], outs[1], err_msg=f"seed {seed} "
                                          f"({seed in forwarded}), n={n}:{source}")
