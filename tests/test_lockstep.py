"""Divergent loops in lock-step across work-items (cl2c/workgroup/passes/lockstep.py): kernels whose
work-items loop a data-dependent number of times give the same bits under every
schedule (``loops`` and ``fibers`` run each work-item's loop as written; ``auto`` and
``regions`` run blocks of work-items in lock-step) and NumPy's answer where it has one;
and the kernels that do not qualify keep their work-item loops."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import cl2c
from conftest import kernel_source
from ulp_reference import fma32

pytestmark = pytest.mark.optimised      # what the optimiser makes of cl2c's C

SCHEDULES = ("auto", "loops", "regions", "fibers")
MANDELBROT = (Path(__file__).resolve().parent.parent / "bench" / "kernels" /
              "mandelbrot.cl").read_text()

KERNELS = kernel_source("lockstep.cl")

# A barrier: the region after it runs its divergent loop in lock-step.
BARRIER = kernel_source("lockstep_barrier.cl")


def collatz_ref(start):
    steps, peak = np.zeros_like(start), start.copy()
    for i, n in enumerate(start.tolist()):
        k, top = 0, n
        while n != 1:
            n = 3 * n + 1 if n & 1 else n >> 1
            top = max(top, n)
            k += 1
        steps[i], peak[i] = k, top
    return steps, peak


@pytest.fixture(scope="module")
def programs():
    return {s: cl2c.Program(KERNELS, f"-cl2c-schedule={s}" if s != "auto" else "").build()
            for s in SCHEDULES}


def test_which_loops_run_in_lock_step():
    c = cl2c.translate(KERNELS, "k.cl").c_source
    for k in ("collatz", "escape", "skips", "two_loops"):
        assert f"{k}: regions (no barriers, but a work-group function vectorises better" \
            in c and "lock-step" in c.split(f"{k}: regions")[1].split("\n")[0], k
    for k in ("search", "early"):       # each work-item its own loop (their int ids send
        line = c.split(f"{k}: ")[1].split("\n")[0]     # them to the work-group function)
        assert "lock-step" not in line, (k, line)
    line = cl2c.translate(BARRIER, "b.cl").c_source.split("after_barrier: regions")[1]
    line = line.split("\n")[0]
    assert "1 divergent loop in lock-step" in line
    assert "2 divergent loops in lock-step" in c.split("two_loops: regions")[1].split("\n")[0]


@pytest.mark.parametrize("n, local", [(1000, None), (1000, (100,)), (4096, (256,)), (37, None)])
def test_collatz(programs, n, local):
    start = np.random.default_rng(n).integers(1, 100000, n).astype(np.uint32)
    steps, peak = collatz_ref(start)
    for s, prg in programs.items():
        got_steps, got_peak = np.zeros_like(start), np.zeros_like(start)
        prg.collatz((n,), local, start, got_steps, got_peak)
        np.testing.assert_array_equal(got_steps, steps, err_msg=s)
        np.testing.assert_array_equal(got_peak, peak, err_msg=s)


def run_all(programs, name, gsize, local, inputs, outputs):
    """Each schedule's outputs, which must agree bit for bit; returns them."""
    results = {}
    for s, prg in programs.items():
        outs = [np.zeros_like(o) for o in outputs]
        args = [a for a in inputs]
        getattr(prg, name)(gsize, local, *_merge(args, outs))
        results[s] = outs
    for s, outs in results.items():
        for got, want in zip(outs, results["loops"]):
            np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8),
                                          err_msg=f"{name} under {s}")
    return results["loops"]


def _merge(args, outs):
    out = []
    it = iter(outs)
    for a in args:
        out.append(next(it) if a is None else a)
    return out


@pytest.mark.parametrize("n, local", [(777, None), (1024, (128,)), (200, (8,))])
def test_escape_break(programs, n, local):
    a = np.random.default_rng(1).random(n).astype(np.float32) * 2 - 0.5
    at, last = run_all(programs, "escape", (n,), local,
                       [a, None, None, np.float32(3.0)],
                       [np.zeros(n, np.int32), np.zeros(n, np.float32)])
    # NumPy in float32, step by step as the kernel does, a * b + c contracted where
    # the CPU has an fma (FP_CONTRACT: test_contraction.py)
    mad = fma32 if cl2c.device().fast_fma else lambda p, q, c: p * q + c
    x, r = a.copy(), mad(np.float32(0.25), a, np.float32(1.5))
    want = np.full(n, 200, np.int32)
    for j in range(200):
        live = want == 200
        x = np.where(live, mad(r * x, np.float32(1) - x, np.float32(0.001)), x)
        hit = live & ((x > 3.0) | (x < -3.0))
        want[hit] = j
    np.testing.assert_array_equal(at, want)
    np.testing.assert_array_equal(last, x)


@pytest.mark.parametrize("n, local", [(1000, None), (96, (32,))])
def test_continue_and_do_while(programs, n, local):
    m = np.random.default_rng(2).integers(-3, 60, n).astype(np.int32)
    out, f = run_all(programs, "skips", (n,), local, [m, None, None],
                     [np.zeros(n, np.int32), np.zeros(n, np.float32)])
    for i, mi in enumerate(m.tolist()):
        acc = 0
        for j in range(max(mi, 0)):
            if j % 3 == 0:
                continue
            acc += j
            if acc > 400:
                break
        assert out[i] == acc
        y = np.float32(mi)
        while True:
            y = y * np.float32(0.5) + np.float32(1.0)
            if not (y > 2.5 and mi > 0):
                break
        assert f[i] == y


@pytest.mark.parametrize("w, h, local", [(130, 7, None), (64, 8, (16, 4)), (200, 3, (40, 1))])
def test_two_loops_2d(programs, w, h, local):
    a = np.random.default_rng(3).integers(-5, 5000, w * h).astype(np.int32)
    run_all(programs, "two_loops", (w, h), local, [a, None, np.int32(w)],
            [np.zeros(w * h, np.int32)])


def test_loops_that_stay(programs):
    n = 500
    a = np.random.default_rng(4).integers(0, 50, n).astype(np.int32)
    out, = run_all(programs, "search", (n,), None, [a, None, np.int32(n), np.int32(7)],
                   [np.zeros(n, np.int32)])
    assert all(j == n or a[j] == 7 for j in out)
    run_all(programs, "early", (n,), None, [a + 1, None], [np.zeros(n, np.int32)])


@pytest.mark.parametrize("n, local", [(1024, (128,)), (300, (100,))])
def test_after_barrier(n, local):
    a = np.random.default_rng(5).integers(1, 10000, n).astype(np.uint32)
    out = np.zeros(n, np.uint32)
    programs = {s: cl2c.Program(BARRIER, f"-cl2c-schedule={s}" if s != "auto" else "").build()
                for s in ("auto", "regions", "fibers")}
    programs["auto"].after_barrier((n,), local, a, out, cl2c.LocalMemory(4 * local[0]))
    ls = local[0]
    shifted = a.reshape(-1, ls)[:, np.r_[1:ls, 0]].ravel()
    np.testing.assert_array_equal(out, collatz_ref(shifted)[0])
    for s in ("regions", "fibers"):
        other = np.zeros(n, np.uint32)
        programs[s].after_barrier((n,), local, a, other, cl2c.LocalMemory(4 * local[0]))
        np.testing.assert_array_equal(other, out, err_msg=s)


@pytest.mark.parametrize("w, h, local", [(256, 64, None), (100, 30, None), (64, 64, (32, 2))])
def test_bench_mandelbrot(w, h, local):
    """The bench's kernel, bit for bit the same in lock-step as one work-item at a time."""
    c = cl2c.translate(MANDELBROT, "m.cl").c_source
    assert "1 divergent loop in lock-step" in c
    # zr * zr and zi * zi are in the condition and the body: tested at the top, together
    assert "const int cl2c_in = cl2c_run[cl2c_k] & (" in c
    x0, x1, y0, y1 = -2.0, 0.6, -1.2, 1.2
    outs = {}
    for s in SCHEDULES:
        prg = cl2c.Program(MANDELBROT, f"-cl2c-schedule={s}" if s != "auto" else "").build()
        out = np.zeros(w * h, np.uint32)
        prg.mandelbrot((w, h), local, out, np.float32(x0), np.float32(y0),
                       np.float32((x1 - x0) / w), np.float32((y1 - y0) / h), np.int32(w),
                       np.uint32(200))
        outs[s] = out
    for s in SCHEDULES:
        np.testing.assert_array_equal(outs[s], outs["loops"], err_msg=s)
    assert outs["auto"].max() == 200 and outs["auto"].min() < 5


@pytest.mark.parametrize("n, local", [(1000, None), (256, (64,)), (77, None)])
def test_condition_tested_at_the_top(programs, n, local):
    """A condition that shares a computation with the body is tested at the top of each
    step (the compiler computes the shared part once); a for's step and a break keep
    their places. Every schedule gives Python's answer."""
    body = cl2c.translate(KERNELS, "k.cl").c_source.split("void shared_step__group(")[1]
    assert "const int cl2c_in = cl2c_run[cl2c_k] & (" in body.split("\n}\n")[0]
    a = np.random.default_rng(12).integers(0, 100000, n).astype(np.uint32)
    out, steps = run_all(programs, "shared_step", (n,), local, [a, None, None],
                         [np.zeros(n, np.uint32), np.zeros(n, np.uint32)])
    for i, x in enumerate(a.tolist()):
        j = k = 0
        while (x * 3) % 7 != 0 and j < 64:
            x = (x * 3) % 1009 + j
            k += 1
            if x == 500:
                break
            j += 2
        assert (out[i], steps[i]) == (x, k), i
    assert steps.min() == 0 and steps.max() > 5         # the lanes diverge


@pytest.mark.parametrize("n, local", [(1000, None), (256, (64,)), (77, None)])
def test_conditions_that_are_not_comparisons(programs, n, local):
    """``if (x & 4)``, ``if (x % 5)`` and ``while (x)`` under every schedule, against
    Python: a predicate that is not a comparison still counts as 1."""
    body = cl2c.translate(KERNELS, "k.cl").c_source.split("void truthy__group(")[1]
    body = body.split("\n}\n")[0]
    assert "while (cl2c_any" in body and "n += cl2c_in & cl2c_c2;" in body
    a = np.random.default_rng(13).integers(0, 1 << 20, n).astype(np.int32)
    out, = run_all(programs, "truthy", (n,), local, [a, None], [np.zeros(n, np.int32)])
    for i, x in enumerate(a.tolist()):
        s = k = 0
        while x:
            s += 3 if x & 4 else 0
            k += 1 if x % 5 else 0
            x >>= 1
        assert out[i] == s * 1000 + k, i


@pytest.mark.parametrize("n, local", [(500, None), (256, (64,)), (100, (50,))])
def test_mixed_types_and_forever(programs, n, local):
    assert "mixed: regions" in cl2c.translate(KERNELS, "k.cl").c_source
    a = np.random.default_rng(6).integers(0, 300, n).astype(np.int32)
    run_all(programs, "mixed", (n,), local, [a, None, None],
            [np.zeros(n, np.int32), np.zeros(n, np.float64)])


@pytest.mark.parametrize("n, local", [(512, (128,)), (512, (16,)), (300, (100,))])
def test_local_ids(programs, n, local):
    a = np.random.default_rng(7).integers(1, 100000, n).astype(np.uint32)
    out, = run_all(programs, "local_ids", (n,), local, [a, None], [np.zeros(n, np.uint32)])
    lid = np.arange(n, dtype=np.uint32) % local[0]
    np.testing.assert_array_equal(out, collatz_ref(a + lid)[0])


def test_private_pointers(programs):
    n = 300
    a = (np.random.default_rng(8).random(2 * n, dtype=np.float32) * 2).astype(np.float32)
    assert "pointers: regions" in cl2c.translate(KERNELS, "k.cl").c_source
    run_all(programs, "pointers", (n,), None, [a, None, np.int32(40)],
            [np.zeros(n, np.float32)])


def test_pointer_into_a_private_array(programs):
    line = cl2c.translate(KERNELS, "k.cl").c_source.split("into_array: ")[1].split("\n")[0]
    assert "lock-step" not in line, line
    n = 200
    a = np.random.default_rng(9).integers(1, 1000, n).astype(np.int32)
    out, = run_all(programs, "into_array", (n,), None, [a, None], [np.zeros(n, np.int32)])
    np.testing.assert_array_equal(out, collatz_ref(a.astype(np.uint32))[0].astype(np.int32) + 2 * a)


@pytest.mark.parametrize("n, local", [(1000, None), (512, (64,)), (77, None)])
def test_dead_floats_unmasked(programs, n, local):
    """A float that nothing after the loop reads is assigned without a select at the top
    of the body; a float read after the loop, one assigned under an if and one computed by
    integer arithmetic keep theirs. The results agree bit for bit under every schedule."""
    c = cl2c.translate(KERNELS, "k.cl").c_source
    body = c.split("void dead_floats__group(")[1].split("while (cl2c_any")[1]
    body = body.split("cl2c_run[cl2c_k] = ")[0]
    for dead in ("y", "w"):
        assert re.search(rf"\n +{dead} = ", body) and f"{dead} = (cl2c_in) ?" not in body, dead
    for kept in ("x", "v"):
        assert f"{kept} = (cl2c_in) ?" in body, kept
    assert "u = (cl2c_in & cl2c_c1) ?" in body
    a = np.random.default_rng(11).random(n).astype(np.float32) * 1.2 - 0.6
    steps, _ = run_all(programs, "dead_floats", (n,), local, [a, None, None],
                       [np.zeros(n, np.int32), np.zeros(n, np.float32)])
    assert steps.min() < 50 and steps.max() == 1000     # the lanes diverge


COUNTED = """
__kernel void capped(__global uint *a, __global uint *steps, uint cap) {
    size_t i = get_global_id(0);
    uint x = a[i];
    uint it = 3;
    while (it <= cap && x > 1) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        it += 1;
    }
    a[i] = x;
    steps[i] = it;
}
__kernel void capped_for(__global float *v, __global int *steps, int cap, float limit) {
    size_t i = get_global_id(0);
    float x = v[i];
    int k;
    for (k = 0; k < cap && x < limit; k++)
        x = x * 1.5f + 0.25f;
    v[i] = x;
    steps[i] = k;
}
__kernel void not_counted(__global uint *a, __global uint *steps, uint cap) {
    size_t i = get_global_id(0);
    uint x = a[i];
    uint it = 0;
    while (it < cap && x > 1) {
        if (x & 1)
            it++;
        x = (x & 1) ? 3 * x + 1 : x / 2;
    }
    a[i] = x;
    steps[i] = it;
}
"""


@pytest.mark.parametrize("cap", [0, 1, 3, 4, 60, 100000])
@pytest.mark.parametrize("n, local", [(300, None), (256, (64,))])
def test_a_uniform_counter_is_tested_once_a_step(cap, n, local):
    """``it <= cap`` of a counter every running lane holds the same value of (it starts
    at a constant and goes up by one each iteration) is tested once for the block: the
    same bits as one work-item at a time, whether the cap or the data ends the loop."""
    c = cl2c.translate(COUNTED, "c.cl").c_source
    functions = c.split("static CL2C_NOINLINE void ")
    uses = {f.split("__group(")[0]: "cl2c_steps" in f for f in functions[1:]}
    assert uses == {"capped": True, "capped_for": True, "not_counted": False}
    rng = np.random.default_rng(cap)
    a = rng.integers(1, 5000, n).astype(np.uint32)
    v = rng.uniform(0.0, 2.0, n).astype(np.float32)
    outs = {}
    for s in SCHEDULES:
        prg = cl2c.Program(COUNTED, f"-cl2c-schedule={s}" if s != "auto" else "").build()
        got = []
        for name, first, dtype, bound in (("capped", a, np.uint32, np.uint32(cap)),
                                          ("not_counted", a, np.uint32, np.uint32(cap))):
            x, steps = first.copy(), np.zeros(n, dtype)
            getattr(prg, name)((n,), local, x, steps, bound)
            got += [x, steps]
        x, steps = v.copy(), np.zeros(n, np.int32)
        prg.capped_for((n,), local, x, steps, np.int32(min(cap, 2**31 - 1)),
                       np.float32(1000.0))
        outs[s] = got + [x, steps]
    for s in SCHEDULES:
        for mine, theirs in zip(outs[s], outs["loops"]):
            np.testing.assert_array_equal(mine, theirs, err_msg=s)
    steps = outs["auto"][1]
    assert steps.max() <= max(cap + 1, 3)
    if cap >= 60:
        assert steps.min() < steps.max()        # the data, not the cap, ends some
