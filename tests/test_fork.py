"""A child of fork() launches kernels (issue "Wrong results, hangs and lost files", item
6): libgomp's threads do not survive a fork, and a child whose parent had run a launch
on OpenMP threads waited for them forever at its first launch (multiprocessing's
"fork", Python's default on Linux before 3.14). The child now launches on its calling
thread. Each case runs in a child process with a timeout, so that a hang fails."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

FORKED = r"""
import multiprocessing as mp
import numpy as np
import cl2c

src = '''
__kernel void twice(__global float *out) {
    size_t i = get_global_id(0);
    out[i] = 2.0f * i;
}
__kernel void reverse(__global float *out) {          // a barrier: fibers or regions
    __local float l[64];
    size_t i = get_local_id(0), n = get_local_size(0);
    l[i] = get_global_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = l[n - 1 - i];
}
'''
prg = cl2c.Program(src, "%s").build()
N = 1 << 20


def launches(_=None):
    a = np.zeros(N, np.float32)
    prg.twice((N,), None, a)
    b = np.zeros(N, np.float32)
    prg.reverse((N,), (64,), b)
    want = (np.arange(N) // 64 * 64 + 63 - np.arange(N) %% 64).astype(np.float32)
    return bool((a == 2.0 * np.arange(N, dtype=np.float32)).all()), bool((b == want).all())


print("parent", *launches(), flush=True)      # OpenMP's threads started
with mp.get_context("fork").Pool(2) as pool:
    try:
        print("children", *sum(pool.map_async(launches, range(2)).get(timeout=60), ()),
              flush=True)
    except mp.TimeoutError:
        print("children hung", flush=True)
        pool.terminate()
print("parent", *launches(), flush=True)      # and the parent's threads are still there
"""


@pytest.mark.parametrize("schedule", ["", "-cl2c-schedule=fibers"])
def test_a_forked_child_launches_after_its_parent_did(schedule):
    res = subprocess.run([sys.executable, "-c", FORKED % schedule], capture_output=True,
                         text=True, timeout=240, env=dict(os.environ, OMP_NUM_THREADS="2"))
    assert res.returncode == 0, f"the process died ({res.returncode}): {res.stderr}"
    assert res.stdout.splitlines() == ["parent True True", "children True True True True",
                                       "parent True True"], res.stdout + res.stderr
