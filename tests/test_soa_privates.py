"""Vector privates that cross a cut between regions live in one array per component
(builders/group_function.py): the same bits as fibers (and, for the bench's N-body, as the
``loops`` schedule, whose work-items keep their float4s whole)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cl2c
from conftest import kernel_source

pytestmark = pytest.mark.optimised      # what the optimiser makes of cl2c's C

SOA = kernel_source("soa.cl")
NBODY = (Path(__file__).resolve().parent.parent / "bench" / "kernels" / "nbody.cl").read_text()


def test_which_privates_go_by_component():
    c = cl2c.translate(SOA, "soa.cl").c_source
    across = c.split("across: regions")[1].split("\n")[0]
    assert "v (by component)" in across and "w (by component)" in across
    assert "k (by component)" in across
    pointed = c.split("pointed: regions")[1].split("\n")[0]
    assert "v" in pointed and "by component" not in pointed
    nbody = cl2c.translate(NBODY, "nbody.cl").c_source
    assert "nbody: regions" in nbody and "acc (by component)" in nbody


@pytest.mark.parametrize("n, local", [(256, (64,)), (96, (32,)), (60, (20,))])
def test_across_barriers(n, local):
    rng = np.random.default_rng(n)
    src = rng.random(4 * n, dtype=np.float32)
    results = {}
    for s in ("regions", "fibers"):
        prg = cl2c.Program(SOA, f"-cl2c-schedule={s}").build()
        out, ids = np.zeros(4 * n, np.float32), np.zeros(2 * n, np.int32)
        prg.across((n,), local, src, out, ids, cl2c.LocalMemory(4 * local[0]))
        out2 = np.zeros(4 * n, np.float32)
        prg.pointed((n,), local, src, out2, cl2c.LocalMemory(4 * local[0]))
        results[s] = (out, ids, out2)
    for got, want in zip(results["regions"], results["fibers"]):
        np.testing.assert_array_equal(got, want)
    v = src.reshape(n, 4)
    out = results["regions"][2].reshape(n, 4)
    np.testing.assert_array_equal(out[:, 0], v[:, 0] + np.float32(1))
    ls = local[0]
    np.testing.assert_array_equal(out[:, 3], v[:, 3].reshape(-1, ls)[:, ::-1].ravel())


@pytest.mark.parametrize("n", [1000, 256])
def test_bench_nbody(n):
    rng = np.random.default_rng(7)
    pos = rng.random(4 * n, dtype=np.float32)
    vel = rng.random(4 * n, dtype=np.float32)
    results = {}
    for s in ("auto", "loops", "regions", "fibers"):
        prg = cl2c.Program(NBODY, f"-cl2c-schedule={s}" if s != "auto" else "").build()
        new_pos, new_vel = np.zeros_like(pos), np.zeros_like(vel)
        prg.nbody((n,), None if s != "fibers" else (50,) if n == 1000 else (64,),
                  pos, vel, new_pos, new_vel, np.int32(n), np.float32(0.01), np.float32(0.01))
        results[s] = (new_pos, new_vel)
    for s, (p, v) in results.items():
        np.testing.assert_array_equal(p, results["loops"][0], err_msg=s)
        np.testing.assert_array_equal(v, results["loops"][1], err_msg=s)
