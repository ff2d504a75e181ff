"""Checking mode on the cl2c platform: the buffers' shadows that checking builds keep
between launches stay within CL2C_CHECK_SHADOWS_MB over all programs, and go with their
program (clruntime/platform/shadows.c). PyOpenCL's test_array in checking mode was
killed for memory (24 GB) before: one program for each elementwise kernel, each keeping
its buffers' shadows."""
from __future__ import annotations

from icd_helpers import run_pyopencl

_SCRIPT = r"""
import gc
def rss_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) // 1024
ctx = cl.Context([device])
queue = cl.CommandQueue(ctx)
n = 1 << 24                              # 64 MiB of int: a shadow of 128 MiB
a = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * n)
cl.enqueue_fill_buffer(queue, a, np.int32(0), 0, 4 * n).wait()
before = rss_mb()
programs = [cl.Program(ctx, "__kernel void add(__global int *a) "
                            "{ a[get_global_id(0)] += %d; }" % k).build(options=["-cl2c-check"])
            for k in (1, 2, 3)]
for p in programs:
    p.add(queue, (n,), None, a).wait()
kept = rss_mb() - before
del p, programs
gc.collect()
released = rss_mb() - before
b = np.empty(n, np.int32)
cl.enqueue_copy(queue, b, a).wait()
out({"kept": kept, "released": released, "sum": int(b[:16].sum()), "same": bool((b == 6).all())})
"""


def test_idle_shadows_stay_within_the_budget_and_go_with_their_program():
    got = run_pyopencl(_SCRIPT, timeout=300, env={"CL2C_CHECK_SHADOWS_MB": "150"})
    assert got["same"], got
    # three programs' shadows of 128 MiB each: within the 150 MiB budget, one is kept
    # (and the buffer's own pages, touched by the launches)
    assert got["kept"] < 300, got
    assert got["released"] < 100, got
