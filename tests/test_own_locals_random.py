"""Random kernels with __local arrays that each work-item reads and writes at its own
index, no barrier between (lower/own_locals.py: cl2c runs most of them in groups of its
own choosing), and some at an index it must not trust (a narrow one, a local id's), all
race-free as launched: against a checking build, which runs the groups launched,
exactly, in launches of one and two dimensions and several group shapes."""
from __future__ import annotations

import random

import numpy as np
import pytest

import cl2c

SEEDS = range(1, 31)
OWN = "each work-item's own elements"
W1, W2, H2 = 200, 32, 6                 # the 1-D launch's size; the 2-D launch's
LOCALS_1D = [(8,), (40,), (200,), None]
LOCALS_2D = [(8, 2), (32, 1), (16, 3), None]


def kernel(seed: int) -> tuple[str, bool]:
    """The kernel's source, and whether it is 2-D."""
    r = random.Random(seed)
    two = r.random() < 0.4
    if two:
        index = r.choice(["g + 40 * h", "2 * g + 80 * h", "h * 32 + g",
                          "(int)get_global_id(0) + 40 * h"] * 3 +
                         ["(ushort)(g + 40 * h)", "(int)get_local_id(0) + 32 * h"])
        out = "h * 32 + g"
    else:                               # (out: where the work-item's result goes)
        index = r.choice(["g", "g + off", "2 * g + 1", "(int)get_global_id(0)",
                          "3 * (g + off)"] * 3 +
                         ["(ushort)g", "(uchar)(g % 200)", "(int)get_local_id(0) + off"])
        out = "g"
    vector = r.random() < 0.3
    elem = "int2" if vector else "int"
    first = f"s[i] = (int2)(A[{out}], -A[{out}]);" if vector else f"s[i] = A[{out}];"
    use = "s[i].x * 3 - s[i].y" if vector else "s[i] * 3 + 1"
    body = r.choice([
        f"{first}\n    B[{out}] = {use};",
        f"{first}\n    for (int t = 0; t < n; t++)\n        "
        f"s[i]{'.x' if vector else ''} += A[({out} + 7 * t) % TOTAL];\n    B[{out}] = {use};",
        f"if (g < lim) {{\n        {first}\n        B[{out}] = {use};\n    }} else\n"
        f"        B[{out}] = -1;",
    ])
    return f"""
__kernel void k{seed}(__global const int *A, __global int *B, int n, int off, int lim)
{{
    __local {elem} s[1024];
    int g = get_global_id(0), h = get_global_id(1);
    int i = {index};
    {body}
}}
""", two


@pytest.fixture(scope="module")
def built():
    source = "#define TOTAL 192\n" + "\n".join(kernel(s)[0] for s in SEEDS)
    return (cl2c.Program(source, filename="own.cl").build(),
            cl2c.Program(source, "-cl2c-check", filename="own.cl").build())


def _reason(prg, seed: int) -> str:
    return prg.c_source.split(f" *   k{seed}: ")[1].split("\n")[0]


def test_random_own_locals_agree_with_the_groups_launched(built):
    default, checked = built
    own = {s for s in SEEDS if OWN in _reason(default, s)}
    assert 12 <= len(own) <= len(SEEDS) - 3, sorted(own)
    assert not any(OWN in _reason(checked, s) for s in SEEDS)
    rng = np.random.default_rng(11)
    a = rng.integers(-1000, 1000, 1 << 12).astype(np.int32)
    for seed in SEEDS:
        source, two = kernel(seed)
        for local in (LOCALS_2D if two else LOCALS_1D):
            size = (W2, H2) if two else (W1,)
            n, off, lim = rng.integers(0, 9), rng.integers(0, 20), rng.integers(0, 40)
            outs = []
            for prg in (default, checked):
                b = np.full(W2 * H2 if two else W1, 12345, np.int32)
                getattr(prg, f"k{seed}")(size, local, a, b, np.int32(n), np.int32(off),
                                         np.int32(lim))
                outs.append(b)
            np.testing.assert_array_equal(outs[0], outs[1], err_msg=f"seed {seed} "
                                          f"({seed in own}), local {local}:{source}")
