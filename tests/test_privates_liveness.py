"""Privates across barriers by liveness (workgroup/builders/privates.py, prepare.py): a C89
counter is a variable of each loop that owns it, a value that no region reads before
writing it is a variable of each region, and an array used one element at a time lies
element by element; each against NumPy and against the fibers schedule, which keeps every
work-item's variables on its own stack."""
from __future__ import annotations

import numpy as np
import pytest

import cl2c
from conftest import kernel_source

pytestmark = pytest.mark.optimised      # what the optimiser makes of cl2c's C

SRC = kernel_source("liveness.cl")


@pytest.fixture(scope="module")
def programs():
    return {s: cl2c.Program(SRC, f"-cl2c-schedule={s}").build() for s in ("regions", "fibers")}


def _reason(name: str) -> str:
    c = cl2c.translate(SRC, "liveness.cl").c_source
    return c.split(f" *   {name}: ")[1].split("\n")[0]


def test_what_lives_where():
    v6 = _reason("row_times_col")
    arrays = v6.split("per-work-item arrays: ")[1].split(";")[0].split(", ")
    assert "k" not in arrays and "j" not in arrays, v6     # counters of their loops
    assert "Al" in arrays, v6                              # read after the barrier
    c = cl2c.translate(SRC, "liveness.cl").c_source
    group = c.split("row_times_col__group(")[1].split("\n}\n")[0]
    assert "Al[(k" in group and "* cl2c_nwi) + cl2c_i]" in group     # side by side
    assert "per-work-item arrays: " in _reason("counter_read_after") and \
        "k" in _reason("counter_read_after").split("per-work-item arrays: ")[1].split(";")[0]
    assert "t" in _reason("written_on_one_path").split("per-work-item arrays: ")[1]


@pytest.mark.parametrize("dim, local", [(64, 16), (48, 8)])
def test_lecture_version_6(programs, dim, local):
    rng = np.random.default_rng(dim)
    a = rng.random((dim, dim), dtype=np.float32)
    b = rng.random((dim, dim), dtype=np.float32)
    want = a.astype(np.float64) @ b.astype(np.float64)
    for s, prg in programs.items():
        c = np.zeros((dim, dim), np.float32)
        prg.row_times_col((dim,), (local,), a, b, c, cl2c.LocalMemory(4 * dim),
                          np.int32(dim))
        np.testing.assert_allclose(c, want, rtol=1e-5, err_msg=s)


@pytest.mark.parametrize("n, local", [(64, 16), (24, 8)])
def test_values_that_cross(programs, n, local):
    lid = np.arange(n) % local
    want = (local - 1 - lid) + lid
    x = np.arange(n, dtype=np.int32) * 7 - 5
    t = x * 3
    want_t = np.where(lid & 1, np.roll(t, 1), t)
    for s, prg in programs.items():
        out = np.zeros(n, np.int32)
        prg.counter_read_after((n,), (local,), out, cl2c.LocalMemory(4 * local))
        np.testing.assert_array_equal(out, want, err_msg=s)
        out = np.zeros(n, np.int32)
        prg.written_on_one_path((n,), (local,), x, out, cl2c.LocalMemory(4 * local))
        np.testing.assert_array_equal(out, want_t, err_msg=s)


@pytest.mark.parametrize("n, local", [(64, 16), (40, 8)])
def test_arrays_across(programs, n, local):
    x = np.random.default_rng(n).random(n, dtype=np.float32)
    rows, cols = np.arange(3)[:, None] + 1, np.arange(4)[None, :]
    want = np.empty(n, np.float64)
    for g in range(n):
        lid, base = g % local, g - g % local
        a = x[g] * rows.astype(np.float32) + cols.astype(np.float32)
        b = x[g] - np.arange(4, dtype=np.float32)
        want[g] = x[base + local - 1 - lid] + (a * b[None, :]).sum()
    results = {}
    for s, prg in programs.items():
        out = np.zeros(n, np.float32)
        prg.arrays_across((n,), (local,), x, out, cl2c.LocalMemory(4 * local))
        np.testing.assert_allclose(out, want, rtol=1e-5, err_msg=s)
        results[s] = out
    np.testing.assert_array_equal(results["regions"], results["fibers"])


READ_BEFORE_SET = """
__kernel void read_before_set(__global const float *A, __global const float *B,
                              __global float *C, const int n) {
    int i, j, k;
    float sum = 0.0f;
    sum += (float)(i & j & 0);     /* read before assigned: any value, and nothing of it */
    i = get_global_id(0);
    j = get_global_id(1);
    for (k = 0; k < n; k++)
        sum += A[i * n + k] * B[k * n + j];
    C[i * n + j] = sum;
}
"""


def test_a_c89_id_read_before_it_is_set():
    """Old-style ids assigned once are recomputed in each region, declared where they are
    assigned; one read before that (uninitialised, as a fuzzed kernel did) made C that
    did not compile ('i' undeclared). It stays a variable instead."""
    prg = cl2c.Program(READ_BEFORE_SET).build()
    n = 32
    rng = np.random.default_rng(5)
    a, b = (rng.integers(0, 8, (n, n)).astype(np.float32) for _ in range(2))
    c = np.zeros((n, n), np.float32)
    prg.read_before_set((n, n), (8, 8), a, b, c, np.int32(n))
    assert np.array_equal(c, a @ b)
