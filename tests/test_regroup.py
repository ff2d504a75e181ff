"""A kernel that cannot tell its work-groups apart runs in groups of cl2c's choosing
(cl2c_regroup) whatever local size it is launched with: same results, for 1, 2 and 3
dimensions, offsets and non-uniform 2.0 ranges; kernels that can tell keep theirs."""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import cl2c

BLIND = r"""
kernel void index3(global uint *out) {
    size_t x = get_global_id(0) - get_global_offset(0), y = get_global_id(1) - get_global_offset(1),
           z = get_global_id(2) - get_global_offset(2);
    size_t w = get_global_size(0), h = get_global_size(1);
    out[(z * h + y) * w + x] = (uint)(get_global_id(0) + 1000 * get_global_id(1) +
                                      1000000 * get_global_id(2)) + get_work_dim();
}
"""
SEES = {
    "local id": "kernel void k(global uint *o) { o[get_global_id(0)] = get_local_id(0); }",
    "group id": "kernel void k(global uint *o) { o[get_global_id(0)] = get_group_id(0); }",
    "local size": "kernel void k(global uint *o) { o[get_global_id(0)] = get_local_size(0); }",
    "__local": "kernel void k(global uint *o, local uint *t) {\n"
               "    t[0] = 1; o[get_global_id(0)] = t[0]; }",
    "helper": "uint f(void) { return get_num_groups(0); }\n"
              "kernel void k(global uint *o) { o[get_global_id(0)] = f(); }",
}


def test_blind_kernels_regroup_and_others_do_not():
    assert "cl2c_regroup_part(&cl2c_nd" in cl2c.translate(BLIND, "b.cl").c_source
    # a __local parameter the kernel does not use is no __local memory
    unused = "kernel void k(global uint *o, local uint *t) { o[get_global_id(0)] = 1; }"
    assert "cl2c_regroup_part(&cl2c_nd" in cl2c.translate(unused, "u.cl").c_source
    for why, src in SEES.items():
        assert "cl2c_regroup_part(&cl2c_nd" not in cl2c.translate(src, "s.cl").c_source, why


def reference(gsize, offset):
    dims = len(gsize)
    g = list(gsize) + [1] * (3 - dims)
    o = list(offset or (0,) * dims) + [0] * (3 - dims)
    z, y, x = np.meshgrid(*(np.arange(n, dtype=np.uint64) + off
                            for n, off in zip(g[::-1], o[::-1])), indexing="ij")
    return (x + 1000 * y + 1000000 * z + dims).astype(np.uint32).ravel()


@pytest.mark.parametrize("options, gsize, lsize, offset", [
    ("", (4096,), (256,), None),
    ("", (3000,), (8,), (5,)),
    ("", (64, 48), (16, 16), None),
    ("", (64, 48), (8, 8), (3, 7)),
    ("", (20, 6, 5), (4, 2, 5), (1, 2, 3)),
    ("-cl-std=CL2.0", (1001, 7), (16, 4), None),     # non-uniform groups
    ("-cl2c-schedule=regions", (64, 48), (16, 16), None),
])
def test_same_results_as_the_range_says(options, gsize, lsize, offset):
    prg = cl2c.Program(BLIND, options).build()
    out = np.zeros(int(np.prod(gsize)), np.uint32)
    prg.index3(gsize, lsize, out, global_offset=offset)
    np.testing.assert_array_equal(out, reference(gsize, offset))


def test_launch_checks_still_apply():
    """The local size the caller gives is still checked as OpenCL 1.2 says."""
    prg = cl2c.Program(BLIND).build()
    with pytest.raises(cl2c.LaunchError, match="invalid work-group size"):
        prg.index3((100,), (16,), np.zeros(100, np.uint32))


def _serial_items(src: str) -> int:
    return cl2c.translate(src, "s.cl").program.kernels[0].plan.serial_items


def test_loop_free_kernels_bound_their_serial_launches():
    """A launch small enough to run on the calling thread: the bound falls as the kernel
    grows, counting a helper at each call; a loop anywhere leaves none."""
    once = "float f(float x) { return x * x + 1.0f; }\n" \
           "kernel void k(global float *a) { a[get_global_id(0)] = f(a[0]); }"
    twice = "float f(float x) { return x * x + 1.0f; }\n" \
            "kernel void k(global float *a) { a[get_global_id(0)] = f(a[0]) + f(a[1]); }"
    looping_helper = "float f(float x) { for (int i = 0; i < 3; ++i) x *= x; return x; }\n" \
                     "kernel void k(global float *a) { a[get_global_id(0)] = f(a[0]); }"
    assert _serial_items(BLIND) > 1000
    assert 1000 < _serial_items(twice) < _serial_items(once)
    assert _serial_items(looping_helper) == 0
    for why, src in SEES.items():        # they keep their groups: no regrouping, no bound
        assert _serial_items(src) == 0, why


@pytest.mark.parametrize("shape", ["1d", "2d"])
def test_same_results_on_either_side_of_the_serial_bound(shape):
    """Ranges just within and just beyond the bound: on the calling thread alone, then in
    OpenMP's groups; the same work-items either way."""
    n = _serial_items(BLIND)
    prg = cl2c.Program(BLIND).build()
    for items in (n - 1, n, n + 1, 4 * n):
        gsize = (items,) if shape == "1d" else (items // 3, 3)
        out = np.zeros(int(np.prod(gsize)), np.uint32)
        prg.index3(gsize, None, out, global_offset=(7,) * len(gsize))
        np.testing.assert_array_equal(out, reference(gsize, (7,) * len(gsize)))


THREADS_SCRIPT = r"""
import os, time, numpy as np, cl2c
def threads():
    return len(os.listdir("/proc/self/task"))
def settled():
    # the build's translation thread, joined, may stay listed a moment longer
    n = threads()
    for _ in range(100):
        time.sleep(0.02)
        n, m = threads(), n
        if n == m:
            return n
    return n
prg = cl2c.Program('''
kernel void small(global float *a) { a[get_global_id(0)] = 2.0f * a[get_global_id(0)]; }
kernel void loops(global float *a) {
    for (int i = 0; i < 2; ++i) a[get_global_id(0)] += 1.0f;
}''').build()
a = np.ones(1 << 20, np.float32)
before = settled()
prg.small(4096, None, a)
alone = threads()
prg.loops(4096, None, a)
team = threads()
print(before, alone, team, float(a[:4096].sum()), float(a[4096:].sum()))
"""


def test_a_small_launch_of_a_loop_free_kernel_wakes_no_thread():
    """4,096 work-items of a loop-free kernel run on the calling thread (OpenMP starts no
    thread for it); as many of a kernel with a loop start the team."""
    if not os.path.isdir("/proc/self/task"):
        pytest.skip("counting threads needs Linux's /proc/self/task")
    env = dict(os.environ, OMP_NUM_THREADS="2")
    res = subprocess.run([sys.executable, "-c", THREADS_SCRIPT], env=env, capture_output=True,
                         text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    before, alone, team, small, rest = res.stdout.split()
    assert int(alone) == int(before) and int(team) > int(alone), res.stdout
    assert float(small) == 4096 * 4.0 and float(rest) == (1 << 20) - 4096
