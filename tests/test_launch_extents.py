"""A buffer too small for the launch (issue "Wrong results, hangs and lost files", item 5):
where every work-item makes an access at an index affine in its global id, a launch
whose buffer does not hold those elements is refused before it runs, with a
KernelArgError saying which elements it would touch; written past, the heap is corrupt
(2^20 work-items on 1,000 floats froze the process on OpenMP threads; 16 on 4 floats
did not fault, and the process died at exit). Accesses that not every work-item makes
(the GPU idiom's guard, a loop, after a return) never refuse a launch. The launches
that corrupted the heap before run in a child process, so that the old failure cannot
take pytest down with it."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import cl2c

WRITE = """
__kernel void k(__global float *out) {
    size_t i = get_global_id(0);
    out[i] = (float)i;
}"""


def _child(script: str, threads: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, OMP_NUM_THREADS=threads))


TOO_SMALL = r"""
import numpy as np
import cl2c
prg = cl2c.Program('''%s''').build()
for n, items in ((1000, 1 << 20), (4, 16)):
    try:
        prg.k((items,), None, np.zeros(n, np.float32))
        print("no error")
    except cl2c.KernelArgError as e:
        print("KernelArgError", e)
out = np.zeros(1 << 20, np.float32)
prg.k((1 << 20,), None, out)
print("after", bool((out == np.arange(1 << 20)).all()))
""" % WRITE


@pytest.mark.parametrize("threads", ["1", "2"])
def test_a_buffer_too_small_for_the_launch_is_refused_before_it_runs(threads):
    res = _child(TOO_SMALL, threads)
    assert res.returncode == 0, f"the process died ({res.returncode}): {res.stderr}"
    assert res.stdout.splitlines()[-3:] == [
        "KernelArgError kernel 'k' writes `out[0..1048575]` but the buffer holds 1000 "
        "elements",
        "KernelArgError kernel 'k' writes `out[0..15]` but the buffer holds 4 elements",
        "after True"], res.stdout


SHAPES = """
__kernel void strided(__global const float *in, __global float *out) {
    size_t i = get_global_id(0);
    out[i] = in[i * 2 + 1];
}
__kernel void rows(__global float *out, int w) {
    int x = get_global_id(0), y = get_global_id(1);
    out[y * w + x] = x + 100 * y;
}
__kernel void sized(__global float *out) {
    out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = 1.0f;
}
__kernel void before(__global float *out) {
    int i = get_global_id(0);
    out[i - 1] = 1.0f;
}
__kernel void bumped(__global int *out) {
    size_t i = get_global_id(0);
    out[i]++;
}
"""


def _short(n: int, dtype=np.float32) -> np.ndarray:
    """n zeros with room on both sides, so that a launch that runs (where cl2c did not
    refuse it) writes into the room, not into the heap."""
    return np.zeros(n + 2048, dtype)[1024:1024 + n]


@pytest.fixture(scope="module")
def shapes():
    return cl2c.Program(SHAPES).build()


def test_reads_and_writes_are_named_with_the_elements_they_touch(shapes):
    with pytest.raises(cl2c.KernelArgError, match=r"^kernel 'strided' reads `in\[1\.\.2047\]` "
                       r"but the buffer holds 2047 elements$"):
        shapes.strided((1024,), None, _short(2047), np.zeros(1024, np.float32))
    inp = np.arange(2048, dtype=np.float32)
    out = np.zeros(1024, np.float32)
    shapes.strided((1024,), None, inp, out)
    np.testing.assert_array_equal(out, inp[1::2])
    with pytest.raises(cl2c.KernelArgError, match=r"writes `out\[0\.\.64\]` but the buffer "
                       r"holds 64 elements"):
        shapes.bumped((65,), None, _short(64, np.int32))        # a read-modify-write


def test_coefficients_from_arguments_and_the_range(shapes):
    """2-D: ``y * w + x`` with w an argument, and with get_global_size(0)."""
    with pytest.raises(cl2c.KernelArgError, match=r"writes `out\[0\.\.1199\]` but the "
                       r"buffer holds 1000 elements"):
        shapes.rows((40, 30), None, _short(1000), 40)
    out = np.zeros(1200, np.float32)
    shapes.rows((40, 30), None, out, 40)
    y, x = np.mgrid[0:30, 0:40]
    np.testing.assert_array_equal(out.reshape(30, 40), x + 100 * y)
    with pytest.raises(cl2c.KernelArgError, match=r"writes `out\[0\.\.1199\]`"):
        shapes.sized((40, 30), None, _short(1199))
    shapes.sized((40, 30), None, np.zeros(1200, np.float32))
    # a wider row than the buffer holds, in a 1-D launch of the 2-D kernel: y is 0
    shapes.rows((1000,), None, np.zeros(1000, np.float32), 5000)


def test_a_global_offset_moves_the_elements_touched(shapes):
    out = np.zeros(110, np.float32)
    shapes.sized((100,), None, out, global_offset=(10,))
    assert out[:10].sum() == 0 and out[10:].sum() == 100
    with pytest.raises(cl2c.KernelArgError, match=r"writes `out\[10\.\.109\]` but the buffer "
                       r"holds 109 elements"):
        shapes.sized((100,), None, _short(109), global_offset=(10,))


def test_an_index_before_the_buffer(shapes):
    with pytest.raises(cl2c.KernelArgError, match=r"writes `out\[-1\.\.14\]` but the buffer "
                       r"holds 16 elements"):
        shapes.before((16,), None, _short(16))
    out = np.zeros(16, np.float32)
    shapes.before((15,), None, out, global_offset=(1,))
    assert out.sum() == 15


GUARDED = """
int store(__global float *out, size_t i, int n) {
    if (i < n) { out[i] = 1.0f; return 1; }
    return 0;
}
__kernel void idiom(__global float *out, int n) {
    size_t gid = get_global_id(0);
    if (gid < n)
        out[gid] = 2.0f * gid;
}
__kernel void early(__global float *out, int n) {
    size_t gid = get_global_id(0);
    if (gid >= n)
        return;
    out[gid] = 3.0f;
}
__kernel void looped(__global float *out, int n) {
    for (int k = 0; k < n; k++)
        out[get_global_id(0) * n + k] = k;
}
__kernel void helper(__global float *out, int n) {
    store(out, get_global_id(0), n);
}
__kernel void chosen(__global float *out, __global const float *in, int n) {
    size_t gid = get_global_id(0);
    out[gid] = gid < n ? in[gid] : 0.0f;
    __global const float *last = &in[gid + 1000];
    out[gid] += gid < n && in[gid] > 0 ? 1.0f : 0.0f;
    out[gid] += sizeof(in[gid + 1000]) + 0 * (last == in);
}
__kernel void wrapping(__global float *out) {
    size_t gid = get_global_id(0);
    out[(uint)(gid + 4294967296UL)] = 1.0f;     /* gid: the sum wraps in uint */
}
"""


def test_accesses_not_every_work_item_makes_refuse_nothing():
    """The GPU idiom (a global size rounded up to the group's, and a guard), a return
    before the access, a loop, a helper's conditional store, the operands of ?: and &&,
    an address, sizeof and an index that wraps in its type: each launch is correct and runs, as NumPy says."""
    prg = cl2c.Program(GUARDED).build()
    n = 1000
    out = np.zeros(n, np.float32)
    prg.idiom((1024,), (64,), out, n)
    np.testing.assert_array_equal(out, 2.0 * np.arange(n, dtype=np.float32))
    prg.early((1024,), (64,), out, n)
    assert (out == 3.0).all()
    prg.looped((8,), None, np.zeros(8, np.float32), 0)       # no iteration: no access
    prg.helper((1024,), None, out, n)
    assert (out == 1.0).all()
    inp = np.ones(n, np.float32)
    prg.chosen((1024,), None, np.zeros(1024, np.float32), inp, n)
    out = np.zeros(n, np.float32)
    prg.wrapping((n,), None, out)
    assert (out == 1.0).all()


def test_the_accesses_survive_the_cache_and_ahead_of_time_modules(shapes):
    """Cached builds and cl2c.load() read the interface back from JSON."""
    from cl2c.interface import KernelInterface
    for k in shapes.all_kernels():
        text = json.dumps(k.interface.to_json())
        assert KernelInterface.from_json(json.loads(text)) == k.interface
    assert [len(a.accesses) for a in shapes.strided.interface.args] == [1, 1]
