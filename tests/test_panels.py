"""Register tiles' panels (cl2c/workgroup/panels.py): the first tile of a column copies
the loads its rows share into a panel, the others read them there. The results must be
those of the kernel as written, bit for bit (fibers run it so), for every shape of
launch: groups of several tile rows (panels filled and read), of one (none filled),
cut by the range's edge or a guard, loops of ``<`` and ``<=``, two loads in panels, and
a panel too large to make (the loads as written)."""
from __future__ import annotations

import re

import numpy as np
import pytest

import cl2c
from random_kernels import programs

pytestmark = pytest.mark.optimised      # what the optimiser makes of cl2c's C

def _kernel(name: str, step: str, loop: str = "int k = 0; k < K; k++", t: str = "float",
            b: str = "__global const", guarded: bool = False) -> str:
    """A matmul-shaped kernel: C (M x N) from A (M x K) and B (K x N), ``step`` the body
    of its loop over k."""
    body = f"""{t} acc = 0;
    for ({loop}) {{
        {step}
    }}
    C[row * N + col] = acc;"""
    if guarded:
        body = f"if (row < M && col < N) {{\n    {body}\n    }}"
    return f"""
__kernel void {name}(__global const {t} *A, {b} {t} *B, __global {t} *C,
                     int M, int N, int K) {{
    int col = get_global_id(0), row = get_global_id(1);
    {body}
}}"""


PRODUCT = "acc += A[row * K + k] * B[k * N + col];"
KERNELS = {
    "mm": _kernel("mm", PRODUCT),
    # a guard around the loop (tiles bounded by it), a loop to <=, from 1
    "mm_guarded": _kernel("mm_guarded", PRODUCT, "int k = 1; k <= K - 1; k++",
                          guarded=True),
    # two panels (B's rows forwards and backwards), one load twice, a load of A that
    # strides cannot follow (%)
    "two": _kernel("two", "acc += A[row * K + k] * B[k * N + col] + B[(K - 1 - k) * N + col]"
                   " * (B[k * N + col] - A[k * N % 7 + col]);"),
    "ints": _kernel("ints", PRODUCT, t="int"),
}

# loads that panels must not hold: under ?:, through a volatile pointer, after a
# continue (the tile's first row would not fill the panel's rows that the others read),
# in a loop that steps by two
NO_PANELS = {
    "cond": _kernel("cond", "acc += A[row * K + k] * ((k & 1) ? B[k * N + col] : 1.0f);"),
    "vol": _kernel("vol", PRODUCT, b="volatile __global const"),
    "skips": _kernel("skips", "if (row % 3 == 0 && k % 2 == 0) continue; " + PRODUCT),
    "by_two": _kernel("by_two", PRODUCT, "int k = 0; k < K; k += 2"),
}

# (M, N, K) and local sizes: cl2c's groups (columns of tiles), several tile rows, one,
# three, groups cut by the range's edge (N, M not multiples of the tiles). Panels are
# made where B's rows span more than CL2C_PANEL_SPAN (2 MiB: 1024 floats a row, over
# 520 steps); the small ones keep the loads as written.
SHAPES = [((32, 1024, 600), None), ((32, 1024, 600), (32, 16)), ((24, 1024, 530), (32, 8)),
          ((48, 1024, 530), (64, 24)), ((37, 1000, 560), None), ((64, 96, 70), None),
          ((40, 72, 19), (8, 8))]


def _panels(source: str) -> int:
    """How many panels the kernel's tiles fill (0: none)."""
    c = cl2c.translate(source, "k.cl").c_source
    return 0 if "cl2c_panels(" not in c else \
        len(set(re.findall(r"\bcl2c_panel(\d+)\[", c)))


@pytest.fixture(scope="module")
def built():
    return programs("\n".join([*KERNELS.values(), *NO_PANELS.values()]), "fibers")


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_shared_loads_go_to_panels(name):
    assert _panels(KERNELS[name]) == (2 if name == "two" else 1), name


@pytest.mark.parametrize("name", sorted(NO_PANELS))
def test_loads_that_may_not_run_or_change_stay(name):
    assert _panels(NO_PANELS[name]) == 0, name


def _run(kernel, shape, local, dtype, rng):
    m, n, k = shape
    a = (rng.random(max(m * k, n * 8 + 8)) * 4).astype(dtype)
    b = (rng.random(k * n) * 4).astype(dtype)
    c = np.full(m * n, -7, dtype)
    gsize = (n if local is None else -(-n // local[0]) * local[0],
             m if local is None else -(-m // local[1]) * local[1])
    if local is not None and (gsize[0] != n or gsize[1] != m):
        return None         # (the unguarded kernels would read past their arrays)
    kernel(gsize, local, a, b, c, np.int32(m), np.int32(n), np.int32(k))
    return c


@pytest.mark.parametrize("name", sorted([*KERNELS, *NO_PANELS]))
def test_panels_agree_with_the_kernel_as_written(built, name):
    default, fibers, _ = built
    dtype = np.int32 if name == "ints" else np.float32
    for shape, local in SHAPES:
        outs = [_run(getattr(prg, name), shape, local, dtype, np.random.default_rng(5))
                for prg in (default, fibers)]
        if outs[0] is None:
            continue
        np.testing.assert_array_equal(outs[0].view(np.int32), outs[1].view(np.int32),
                                      err_msg=f"{name} {shape} {local}")


def test_matmul_against_numpy(built):
    default, _, _ = built
    rng = np.random.default_rng(7)
    m, n, k = 96, 128, 300
    a, b = rng.random((m, k), np.float32), rng.random((k, n), np.float32)
    c = np.zeros((m, n), np.float32)
    default.mm((n, m), None, a, b, c, np.int32(m), np.int32(n), np.int32(k))
    np.testing.assert_allclose(c, a.astype(np.float64) @ b, rtol=2e-5)


def test_a_panel_too_large_loads_as_written(built):
    """More steps than CL2C_PANEL_BYTES holds (1 MiB: 8192 steps of 32 floats): the
    tiles load B as the kernel does."""
    default, fibers, _ = built
    m, n, k = 32, 64, 9000
    outs = []
    for prg in (default, fibers):
        rng = np.random.default_rng(3)
        a, b = rng.random(m * k).astype(np.float32), rng.random(k * n).astype(np.float32)
        c = np.zeros(m * n, np.float32)
        prg.mm((n, m), (32, 16), a, b, c, np.int32(m), np.int32(n), np.int32(k))
        outs.append(c.view(np.int32))
    np.testing.assert_array_equal(outs[0], outs[1])
