"""The platform's warm build service (clruntime/platform/service.c): a host's builds go
to one `python -m cl2c.build_service --serve` child, kept between them; one that dies
(killed between builds, or with a build) is replaced; a changed environment gets a new
one; CL2C_ICD_WARM_BUILDS=0 starts a child for each build, as before. Every build's
kernel runs and gives its own result, and a program that does not build still gets its
diagnostics in the log."""
from __future__ import annotations

from icd_helpers import run_pyopencl

_HOST = r"""
import os, signal
ctx = cl.Context([device])
queue = cl.CommandQueue(ctx)
def build_and_run(n):
    prg = cl.Program(ctx, f"kernel void k(global int *a) {{ a[get_global_id(0)] = {n}; }}")
    prg.build()
    a = np.zeros(8, np.int32)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, a.nbytes)
    prg.k(queue, (8,), None, buf)
    cl.enqueue_copy(queue, a, buf)
    return a.tolist() == [n] * 8
seen, ok = [], []
for n in (11, 12):
    ok.append(build_and_run(n))
    seen.append(children())
for pid in seen[-1]:
    os.kill(pid, signal.SIGKILL)            # killed between builds
ok.append(build_and_run(13))
seen.append(children())
os.environ["CL2C_WARM_TEST"] = "changed"    # what the cache key reads may have changed
ok.append(build_and_run(14))
seen.append(children())
try:
    cl.Program(ctx, "kernel void bad(global int *a) { a[0] = undeclared; }").build()
    log = ""
except cl.RuntimeError as e:
    log = str(e)
out({"ok": ok, "children": seen, "log": log})
"""


def test_a_hosts_builds_share_one_warm_service():
    result = run_pyopencl(_HOST, env={"PYOPENCL_NO_CACHE": "1"})
    assert result["ok"] == [True] * 4
    first, second, after_kill, after_env = result["children"]
    assert len(first) == 1 and second == first           # one service, kept
    assert len(after_kill) == 1 and after_kill != first  # replaced when it died
    assert len(after_env) == 1 and after_env != after_kill
    assert "error" in result["log"] and "undeclared" in result["log"]


def test_warm_builds_turned_off_leave_no_child():
    result = run_pyopencl(_HOST, env={"PYOPENCL_NO_CACHE": "1",
                                      "CL2C_ICD_WARM_BUILDS": "0"})
    assert result["ok"] == [True] * 4
    assert result["children"] == [[], [], [], []]
    assert "undeclared" in result["log"]
