"""Random 2D kernels with a uniform inner loop (workgroup/passes/tiling.py's register tiles, in the
groups cl2c_regroup_tiles makes) against fibers, bit for bit.

Each kernel has one to three accumulators over a ``k`` loop whose trip count and step
come from the arguments or constants, loads at computed indices, ``fmax``, a
``continue`` or a private update in the loop, and a guard (none, an early ``return`` or
an ``if`` around the loop); five ranges each, with local sizes None (cl2c's groups),
whole tiles and cut ones (12 rows, where no tile of 8 fits twice). The same kernels under
``reqd_work_group_size`` too: they cannot tell their groups apart, so cl2c still cuts the
range its own way, and the size they require is not the size their groups have.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

from random_kernels import accumulator_kernel, programs

pytestmark = pytest.mark.optimised      # what the optimiser makes of cl2c's C

N = 48


def kernel(seed: int) -> str:
    r = random.Random(seed)
    accs = r.randint(1, 3)
    decls = " ".join(f"float acc{i} = {r.choice(['0.0f', '1.0f', 'b[col % N]'])};"
                     for i in range(accs))
    trips = r.choice(["K", "K - 1", "(K + row % 3)", "16", "(K / 2)"])
    step = r.choice(["k++", "k += 2", "++k"])
    terms = []
    for i in range(accs):
        e = r.choice(["a[(row * K + k) % (N * N)] * b[(k * N + col) % (N * N)]",
                      "a[(row + k) % (N * N)]",
                      f"b[(k * N + col) % (N * N)] * {r.choice(['2.0f', 'acc0', 's'])}",
                      "(float)k * a[col % (N * N)]"])
        op = r.choice(["+=", "-=", "fmax"])
        terms.append(f"acc{i} = fmax(acc{i}, {e});" if op == "fmax" else f"acc{i} {op} {e};")
    if r.random() < 0.3:
        terms.insert(0, "if (k % 3 == 0) continue;" if r.random() < 0.5 else "s += 0.5f;")
    loop = f"for (int k = 0; k < {trips}; {step}) {{ {' '.join(terms)} }}"
    guard = r.choice(["", "if (row >= M || col >= N) return;", "if (row < M && col < N)"])
    total = " + ".join(f"acc{i}" for i in range(accs))
    return accumulator_kernel(seed, decls, loop, guard, f"{total} + s",
                              first="float s = 0.0f;\n    ")


SEEDS = range(1, 61)
# global size, local size, M, K
RANGES = (((N, N), None, N, 32), ((N, N), (16, 8), 40, 7), ((N, 40), (48, 8), 33, 20),
          ((64, 64), (32, 16), N, 16), ((N, N), (8, 8), 5, 3), ((N, 44), None, N, 9),
          ((N, N), (16, 12), 30, 5))      # groups of 12 rows: no whole tiles of 8


@pytest.fixture(scope="module")
def built():
    return programs(f"#define N {N}\n" + "\n".join(kernel(s) for s in SEEDS), "fibers")


def test_random_tiled_loops_agree_with_fibers(built):
    default, fibers, schedules = built
    tiled = [k for k, line in schedules.items() if "register tiles" in line]
    assert len(tiled) >= 30, "most of the kernels must run in register tiles"
    rng = np.random.default_rng(2)
    a = rng.random(N * N).astype(np.float32)
    b = rng.random(N * N).astype(np.float32)
    for seed in SEEDS:
        for gsize, local, m, k in RANGES:
            outs = []
            for prg in (default, fibers):
                o = np.full(N * N, -7, np.float32)
                getattr(prg, f"k{seed}")(gsize, local, a, b, o, np.int32(m), np.int32(k))
                outs.append(o.view(np.int32))
            np.testing.assert_array_equal(outs[0], outs[1], err_msg=f"seed {seed}, range "
                                          f"{gsize}/{local}, M {m}, K {k}:{kernel(seed)}")


# reqd_work_group_size, the ranges launched at it (uniform groups, 1.2)
REQUIRED = {(16, 16): (((N, N), 40, 7), ((64, 64), N, 16), ((N, 32), 20, 5)),
            (8, 4): (((N, N), N, 32), ((N, 44), 30, 9))}


@pytest.fixture(scope="module")
def built_required():
    source = f"#define N {N}\n" + "\n".join(
        kernel(s).replace("__kernel void", "__kernel __attribute__((reqd_work_group_size("
                          f"{lx}, {ly}, 1))) void").replace(f"void k{s}(", f"void k{s}_{lx}x{ly}(")
        for s in SEEDS for lx, ly in REQUIRED)
    return programs(source, "fibers")


def test_random_tiled_loops_under_a_required_size_agree_with_fibers(built_required):
    default, fibers, _ = built_required
    rng = np.random.default_rng(3)
    a = rng.random(N * N).astype(np.float32)
    b = rng.random(N * N).astype(np.float32)
    for seed in SEEDS:
        for (lx, ly), ranges in REQUIRED.items():
            for gsize, m, k in ranges:
                outs = []
                for prg in (default, fibers):
                    o = np.full(N * N, -7, np.float32)
                    getattr(prg, f"k{seed}_{lx}x{ly}")(gsize, (lx, ly), a, b, o, np.int32(m),
                                                       np.int32(k))
                    outs.append(o.view(np.int32))
                np.testing.assert_array_equal(outs[0], outs[1], err_msg=f"seed {seed}, "
                                              f"reqd ({lx}, {ly}), range {gsize}, M {m}, K {k}")
