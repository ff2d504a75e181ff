"""Kernels whose __local arrays each work-item touches only at its own elements
(lower/own_locals.py): with no barriers, atomics or group queries, cl2c runs them in
groups of its own choosing, pieces of one row, as it runs kernels with no __local memory.
Each must agree with NumPy, exactly, at sizes no group divides; and the kernels that
could tell (another index, a narrow one, an address, atomics, a local id, a barrier, a
__local argument) keep their groups."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import cl2c

GUIDE = (Path(__file__).resolve().parents[1] / "bench" / "kernels" / "gpu" /
         "guide_histogram.cl").read_text()
OWN = "each work-item's own elements: groups of cl2c's choosing"

# 2-D, each row a group as launched: every work-item of a row its own column's element.
# Groups of several rows (register tiles of the uniform loop) would have a column's
# work-items meet at s[x].
ROWS = """
kernel void scaled_sums(global const int *A, global int *out, int k, int w)
{
    local int s[64];
    int x = get_global_id(0), y = get_global_id(1);
    s[x] = y;
    int acc = 0;
    for (int i = 0; i < k; i++)
        acc += A[i * w + x] * (y + 1);
    s[x] += acc;
    out[y * w + x] = s[x] - y;
}
"""

# each kernel: its body after `int g = get_global_id(0);`, with `local int s[256];`
KEPT = {
    "wrapped": "s[g % 256] = a[g]; b[g] = s[g % 256] + 1;",
    "narrow": "s[(uchar)g] = a[g]; b[g] = s[(uchar)g] + 1;",
    "neighbour": "s[g] = a[g]; b[g] = s[g + 1] + 1;",
    "address": "local int *p = &s[g]; *p = a[g]; b[g] = s[g] + 1;",
    "atomic": "s[g] = 0; atomic_add(&s[g], a[g]); b[g] = s[g] + 1;",
    "local_id": "s[get_local_id(0)] = a[g]; b[g] = s[get_local_id(0)] + 1;",
    "barrier": "s[g] = a[g]; barrier(CLK_LOCAL_MEM_FENCE); b[g] = s[g] + 1;",
    "strided": "s[g * 0] = a[g]; b[g] = s[g * 0] + 1;",
}


def _sum_reference(partial, groups):
    return partial.reshape(groups, 768)[:groups].sum(0, dtype=np.uint64).astype(np.uint32)


@pytest.mark.parametrize("groups", [1, 7, 300])
def test_guide_partial_sums_regrouped_agree(groups):
    """The Guide's sum of partial histograms: `tmp_histogram[tid]`, tid the global id."""
    prg = cl2c.Program(GUIDE).build()
    k = prg.histogram_sum_partial_results_unorm8
    assert OWN in k.schedule_reason and "tmp_histogram" in k.schedule_reason
    assert "cuts the range into pieces of rows" in prg.c_source
    partial = np.random.default_rng(groups).integers(0, 1 << 20, groups * 768,
                                                     dtype=np.uint32)
    for local in ((256,), (768,), (64,), None):
        out = np.zeros(768, np.uint32)
        k((768,), local, partial, np.int32(groups), out)
        np.testing.assert_array_equal(out, _sum_reference(partial, groups), str(local))


def test_the_partial_kernel_keeps_its_groups():
    """The Guide's partial histograms count a group's pixels in its __local bins."""
    prg = cl2c.Program(GUIDE).build()
    assert OWN not in prg.histogram_partial_image_rgba_unorm8.schedule_reason


@pytest.mark.parametrize("optimised", [False, pytest.param(True, marks=pytest.mark.optimised)],
                         ids=["fast tier", "-O3"])
def test_rows_stay_apart(optimised):
    prg = cl2c.Program(ROWS).build()
    if optimised:
        prg.wait_optimised()
    assert OWN in prg.scaled_sums.schedule_reason
    rng = np.random.default_rng(3)
    for w, h, k in ((64, 40, 9), (48, 33, 17), (16, 8, 1)):
        a = rng.integers(-50, 50, (k, w)).astype(np.int32)
        out = np.zeros((h, w), np.int32)
        prg.scaled_sums((w, h), (w, 1), a, out, np.int32(k), np.int32(w))
        want = a.sum(0, dtype=np.int64)[None, :] * np.arange(1, h + 1)[:, None]
        np.testing.assert_array_equal(out, want.astype(np.int32), f"{w}x{h}")


def test_checking_builds_keep_the_groups_launched():
    prg = cl2c.Program(GUIDE, options="-cl2c-check").build()
    k = prg.histogram_sum_partial_results_unorm8
    assert OWN not in k.schedule_reason
    partial = np.arange(5 * 768, dtype=np.uint32)
    out = np.zeros(768, np.uint32)
    k((768,), (256,), partial, np.int32(5), out)
    np.testing.assert_array_equal(out, _sum_reference(partial, 5))
    assert k.findings == []


@pytest.mark.parametrize("name", sorted(KEPT))
def test_kernels_that_could_tell_keep_their_groups(name):
    src = (f"kernel void k_{name}(global const int *a, global int *b)\n"
           f"{{ local int s[256]; int g = get_global_id(0); {KEPT[name]} }}\n")
    prg = cl2c.Program(src).build()
    k = getattr(prg, f"k_{name}")
    assert OWN not in k.schedule_reason
    assert "cuts the range" not in prg.c_source


def test_a_local_argument_keeps_the_groups():
    src = """kernel void arg(global const int *a, global int *b, local int *s)
    { int g = get_global_id(0); s[g] = a[g]; b[g] = s[g] + 1; }"""
    assert "cuts the range" not in cl2c.Program(src).build().c_source


def test_members_and_rows_of_the_own_element():
    """Members of a struct element and subscripts of a row are the element's own; a row
    that becomes a pointer is not."""
    src = """
    typedef struct { int lo, hi; } pair;
    kernel void members(global const int *a, global int *b)
    { local pair s[128]; int g = get_global_id(0);
      s[g].lo = a[g]; s[g].hi = 2 * a[g]; b[g] = s[g].lo + s[g].hi; }
    kernel void rows(global const int *a, global int *b)
    { local int s[128][2]; int g = get_global_id(0);
      s[g][0] = a[g]; s[g][1] = 5; b[g] = s[g][0] * s[g][1]; }
    int first(local int *r) { return r[0]; }
    kernel void decayed(global const int *a, global int *b)
    { local int s[128][2]; int g = get_global_id(0);
      s[g][0] = a[g]; b[g] = first(s[g]); }
    """
    prg = cl2c.Program(src).build()
    assert OWN in prg.members.schedule_reason and OWN in prg.rows.schedule_reason
    assert OWN not in prg.decayed.schedule_reason
    a = np.arange(100, dtype=np.int32) - 40
    for kernel, want in ((prg.members, 3 * a), (prg.rows, 5 * a), (prg.decayed, a)):
        b = np.zeros_like(a)
        kernel((100,), (50,), a, b)
        np.testing.assert_array_equal(b, want, kernel.name)


STREAMS_SCRIPT = r"""
import sys, numpy as np, cl2c
prg = cl2c.Program(open(sys.argv[1]).read()).build()
k = prg.histogram_sum_partial_results_unorm8
partial = np.random.default_rng(4).integers(0, 1 << 20, 9 * 768, dtype=np.uint32)
want = partial.reshape(9, 768).sum(0, dtype=np.uint64).astype(np.uint32)
for size, local in (((768,), (256,)), ((768,), None), ((400,), (16,)), ((17,), (17,))):
    out = np.zeros(768, np.uint32)
    k(size, local, partial, np.int32(9), out)
    assert (out[:size[0]] == want[:size[0]]).all(), (size, local)
print("ok")
"""


def test_a_uniform_loop_streams_a_threads_share_of_the_row():
    """The Guide's sum steps through its partial histograms a row of its group at a
    time: pieces of a row are a thread's share (plan.regroup.streams), right at any
    thread count; so does a column sum with no __local memory, and a kernel of no loop,
    or whose loop runs in register tiles, keeps the short pieces."""
    plan = cl2c.translate(GUIDE, "g.cl").program.kernels[1].plan
    assert plan.regroup.streams and plan.regroup.own_locals == ("tmp_histogram",)
    sums = """kernel void sums(global const float *a, global float *s, int n)
    { int g = get_global_id(0); float acc = 0.0f;
      for (int r = 0; r < n; r++) acc += a[r * 768 + g];
      s[g] = acc; }"""
    tiled = """kernel void tiled(global const float *a, global float *s, int n, int m)
    { int g = get_global_id(0), h = get_global_id(1); float acc = 0.0f;
      for (int r = 0; r < n; r++) acc += a[r * m + g] * h;
      s[h * m + g] = acc; }"""
    no_loop = "kernel void k(global float *a) { a[get_global_id(0)] *= 2.0f; }"
    assert cl2c.translate(sums, "s.cl").program.kernels[0].plan.regroup.streams
    for src in (tiled, no_loop):
        assert not cl2c.translate(src, "s.cl").program.kernels[0].plan.regroup.streams
    path = Path(__file__).resolve().parents[1] / "bench" / "kernels" / "gpu" / \
        "guide_histogram.cl"
    for threads in ("1", "3", "5"):
        env = dict(os.environ, OMP_NUM_THREADS=threads)
        done = subprocess.run([sys.executable, "-c", STREAMS_SCRIPT, str(path)], env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0 and done.stdout.strip() == "ok", \
            (threads, done.stdout, done.stderr[-2000:])
