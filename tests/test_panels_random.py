"""Random matmul-shaped kernels at sizes where register tiles fill and read panels
(workgroup/panels.py: B's rows 4 KiB apart over 300 to 640 steps span more than
CL2C_PANEL_SPAN) against fibers, bit for bit.

Each kernel has one to three accumulators over a ``k`` loop from 0, 1 or 3 to a bound
from the arguments or a constant (``<`` or ``<=``), loads of B's rows forwards,
backwards and one column on, ``fmax``, and a guard (none, an early ``return`` or an
``if`` around the loop); four ranges each, cl2c's groups and groups of one, two and
three tile rows.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

from random_kernels import accumulator_kernel, programs

pytestmark = pytest.mark.optimised      # what the optimiser makes of cl2c's C

N = 1024                # B's rows: 4 KiB apart
K = 640                 # the steps the kernels' loops run, at most K + 1


def kernel(seed: int) -> str:
    r = random.Random(seed)
    accs = r.randint(1, 3)
    decls = " ".join(f"float acc{i} = {r.choice(['0.0f', '1.0f', 'b[col]'])};"
                     for i in range(accs))
    trips = r.choice(["K", "K - 1", "600", "(K / 2 + 300)"])
    loop_head = f"int k = {r.choice(['0', '1', '3'])}; k {r.choice(['<', '<='])} {trips}; k++"
    terms = []
    for i in range(accs):
        e = r.choice(["a[row * K + k] * b[k * N + col]", "b[k * N + col] * 2.0f",
                      "b[(K - k) * N + col] * a[row * K + k]", "b[k * N + col + 1] - acc0",
                      "fmax(b[k * N + col], a[row * K + k])", "(float)k * b[k * N + col]"])
        op = r.choice(["+=", "-=", "fmax"])
        terms.append(f"acc{i} = fmax(acc{i}, {e});" if op == "fmax" else f"acc{i} {op} {e};")
    loop = f"for ({loop_head}) {{ {' '.join(terms)} }}"
    guard = r.choice(["", "if (row >= M || col >= N - 1) return;",
                      "if (row < M && col < N - 1)"])
    return accumulator_kernel(seed, decls, loop, guard,
                              " + ".join(f"acc{i}" for i in range(accs)))


SEEDS = range(1, 31)
# global size, local size, M
RANGES = (((N, 32), None, 32), ((N, 32), (32, 16), 30), ((N, 48), (64, 24), 41),
          ((N, 40), None, 40))


@pytest.fixture(scope="module")
def built():
    return programs(f"#define N {N}\n" + "\n".join(kernel(s) for s in SEEDS), "fibers")


def test_random_panels_agree_with_fibers(built):
    default, fibers, _ = built
    assert default.c_source.count("cl2c_panels(") >= len(SEEDS) // 2, \
        "most of the kernels must fill panels"
    rng = np.random.default_rng(1)
    a = rng.random(64 * K + 8).astype(np.float32)
    b = rng.random((K + 2) * N + 8).astype(np.float32)
    for seed in SEEDS:
        for gsize, local, m in RANGES:
            outs = []
            for prg in (default, fibers):
                o = np.full(64 * N, -7, np.float32)
                getattr(prg, f"k{seed}")(gsize, local, a, b, o, np.int32(m), np.int32(K))
                outs.append(o.view(np.int32))
            np.testing.assert_array_equal(outs[0], outs[1], err_msg=f"seed {seed}, range "
                                          f"{gsize}/{local}, M {m}:{kernel(seed)}")
