"""A kernel fault does not kill its host silently (issue 12): integer division by zero is
some value, a wild write is a LaunchError naming the kernel and the process goes on,
Ctrl-C stops an endless kernel. Each runs in a child process, so that a failure here
cannot take pytest down with it."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import cl2c


def _child(script: str, **env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300, env=dict(os.environ, **env))


DIVISION = r"""
import json
import numpy as np
import cl2c
src = '''
__kernel void divide(__global const int *a, __global const int *b, __global int *q,
                     __global int *r, __global const long *la, __global const long *lb,
                     __global long *lq, __global int4 *v)
{
    size_t i = get_global_id(0);
    q[i] = a[i] / b[i];
    r[i] = a[i] % b[i];
    lq[i] = la[i] / lb[i] + la[i] % lb[i];
    int x = a[i];
    x /= b[i];
    x %= b[i];
    q[i] += x - x;
    int4 d = (int4)(b[i]);
    v[i] = v[i] / d + v[i] % d;
    uint u = (uint)a[i] / (uint)b[i] + (uint)a[i] % (uint)b[i];
    r[i] += (int)(u - u);
}
'''
prg = cl2c.Program(src).build()
a = np.array([7, -2**31, 9, -2**31, 5], np.int32)
b = np.array([0, -1, 2, 0, -1], np.int32)
q = np.zeros(5, np.int32)
r = np.zeros(5, np.int32)
la = np.array([7, -2**63, 9, 0, 5], np.int64)
lb = np.array([0, -1, 2, 0, -1], np.int64)
lq = np.zeros(5, np.int64)
v = np.full(20, 13, np.int32)
prg.divide((5,), None, a, b, q, r, la, lb, lq, v)
print(json.dumps({"q": q.tolist(), "r": r.tolist(), "lq": lq.tolist(), "v": v.tolist()}))
"""


def test_integer_division_by_zero_and_int_min_by_minus_one_do_not_trap():
    """OpenCL leaves these values undefined; it allows no crash (x86's idiv raises
    SIGFPE for both). The other lanes are exact."""
    res = _child(DIVISION)
    assert res.returncode == 0, f"the process died ({res.returncode}): {res.stderr}"
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out["q"][2] == 4 and out["r"][2] == 1          # 9 / 2, 9 % 2: exact
    assert out["q"][4] == -5 and out["r"][4] == 0         # 5 / -1
    assert out["lq"][2] == 4 + 1 and out["lq"][4] == -5
    assert out["v"][8:12] == [13 // 2 + 13 % 2] * 4       # lane 2 of the int4 buffer


FAULT = r"""
import numpy as np
import cl2c
src = '''
__kernel void wild(__global int *a, long far)
{
    size_t i = get_global_id(0);
    if (get_group_id(0) * get_local_size(0) + get_local_id(0) == 100)   // sees its groups
        a[far] = 1;
    else
        a[i] = 2;
}
__kernel void fine(__global int *a) { a[get_global_id(0)] += 1; }
'''
prg = cl2c.Program(src).build()
a = np.zeros(1024, np.int32)
try:
    prg.wild((1024,), (64,), a, 1 << 44)
    print("no error")
except cl2c.LaunchError as e:
    print("LaunchError", e.code, e)
prg.fine((1024,), None, a)       # the interpreter, and the runtime, go on
print("after", int(a[0]), int(a[1000]))
"""


@pytest.mark.parametrize("threads", ["1", "2"])
def test_a_wild_write_is_a_launch_error_and_the_process_goes_on(threads):
    res = _child(FAULT, OMP_NUM_THREADS=threads)
    assert res.returncode == 0, f"the process died ({res.returncode}): {res.stderr}"
    error, after = res.stdout.strip().splitlines()[-2:]
    assert error.startswith("LaunchError -1101 kernel 'wild': SIGSEGV"), error
    assert "work-group (1,0,0)" in error, error               # item 100 is in group 1
    # the groups not run are skipped, the fine kernel ran on the whole buffer after
    assert after.split()[0] == "after" and int(after.split()[1]) in (1, 3), after


def test_a_fault_outside_a_launch_is_not_caught():
    """The handlers are there only while a launch runs: a fault after it is the
    process's as before (here, Python's faulthandler reports it and the process dies)."""
    script = FAULT + "import ctypes, faulthandler\nfaulthandler.enable()\nctypes.string_at(8)\n"
    res = _child(script)
    assert res.returncode != 0
    assert "Fatal Python error: Segmentation fault" in res.stderr, res.stderr


def test_error_codes_have_messages():
    """From C, every launch error code reads as what happened, not "unknown error"."""
    prg = cl2c.Program("__kernel void k(__global int *a) { a[0] = 1; }").build()
    lib, ffi = prg._module.lib, prg._module.ffi
    for code in (-5, -59, -1100, -1101, -1102):
        assert ffi.string(lib.cl2c_error_string(code)).decode() != "unknown error", code


ENDLESS = r"""
import sys, time
import numpy as np
import cl2c
src = '''
__kernel void endless(__global int *a)
{
    size_t i = get_global_id(0);
    for (;;) {
        if (a[i] < 0)
            break;
        a[i] = (a[i] + 1) & 0xffff;
    }
}
__kernel void fine(__global int *a) { a[get_global_id(0)] = 7; }
'''
prg = cl2c.Program(src).build()
a = np.zeros(4096, np.int32)
print("running", flush=True)
start = time.perf_counter()
try:
    prg.endless((a.size,), (64,), a)
except KeyboardInterrupt:
    print("KeyboardInterrupt", round(time.perf_counter() - start, 2), flush=True)
prg.fine((a.size,), None, a)
print("after", int(a[0]), flush=True)
"""


@pytest.mark.parametrize("threads", ["1", "2"])
@pytest.mark.parametrize("schedule", ["", "-cl2c-schedule=fibers"])
def test_ctrl_c_stops_an_endless_kernel(threads, schedule):
    script = ENDLESS.replace("cl2c.Program(src)", f"cl2c.Program(src, {schedule!r})")
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, OMP_NUM_THREADS=threads),
                            # SIGINT as a terminal gives it (a background job ignores it)
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert proc.stdout.readline().strip() == "running", proc.stderr.read()
        time.sleep(0.5)                      # inside the launch by now
        sent = time.perf_counter()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)
        took = time.perf_counter() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert out.split()[0] == "KeyboardInterrupt" and out.split()[-2:] == ["after", "7"], out
    assert took < 2.0, f"the launch took {took:.1f} s to stop"


FIBER_FAULTS = r"""
import numpy as np
import cl2c
src = '''
__kernel void wild(__global int *a, long far)
{
    __local int l[64];
    size_t i = get_global_id(0);
    l[get_local_id(0)] = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i == 100)
        a[far] = 1;
    else
        a[i] = l[0] + 1;
    barrier(CLK_LOCAL_MEM_FENCE);
}
__kernel void deep(__global int *a, int n)
{
    int big[60000];                        // 240 KB on a 64 KiB fiber stack
    for (int k = 0; k < n; k++)
        big[k] = k;
    barrier(CLK_LOCAL_MEM_FENCE);
    a[get_global_id(0)] = big[n - 1];
}
__kernel void fine(__global int *a)
{
    barrier(CLK_LOCAL_MEM_FENCE);
    a[get_global_id(0)] += 1;
}
'''
prg = cl2c.Program(src, "-cl2c-schedule=fibers").build()
a = np.zeros(1024, np.int32)
for launch in (lambda: prg.wild((1024,), (64,), a, 1 << 44),
               lambda: prg.deep((256,), (64,), a, np.int32(60000))):
    try:
        launch()
        print("no error")
    except cl2c.LaunchError as e:
        print("LaunchError", e.code, e)
prg.fine((1024,), (64,), a)      # the interpreter, and the fibers, go on
print("after", int(a[0]), int(a[1000]))
"""


@pytest.mark.parametrize("threads", ["1", "2"])
def test_a_fault_in_a_fiber_is_a_launch_error(threads):
    """The fibers schedule contains faults as the others do: the jump from the handler
    leaves the group's fibers, and the message names the work-item; a fiber's stack
    overflow says so."""
    res = _child(FIBER_FAULTS, OMP_NUM_THREADS=threads)
    assert res.returncode == 0, f"the process died ({res.returncode}): {res.stderr}"
    wild, deep, after = res.stdout.strip().splitlines()[-3:]
    assert wild.startswith("LaunchError -1101 kernel 'wild': SIGSEGV"), wild
    assert "work-group (1,0,0), work-item with local id (36,0,0)" in wild, wild
    assert deep.startswith("LaunchError -1101 kernel 'deep': SIGSEGV"), deep
    assert "its fiber stack overflowed (65536 bytes; raise it with CL2C_FIBER_STACK_SIZE)" \
        in deep, deep
    assert after.split()[0] == "after", after
    # a second fault on the same threads is contained as the first (the handler's mask)
    res = _child(FIBER_FAULTS.replace("for launch in (", "for launch in 2 * ("),
                 OMP_NUM_THREADS=threads)
    assert res.returncode == 0, f"the process died ({res.returncode}): {res.stderr}"
    assert [line.split(":")[0] for line in res.stdout.splitlines()[-5:-1]] == [
        "LaunchError -1101 kernel 'wild'", "LaunchError -1101 kernel 'deep'"] * 2, res.stdout


EVERY_THREAD = r"""
import ctypes
import mmap
import numpy as np
import cl2c
src = '''
__kernel void guarded(__global float *out, int n)
{
    size_t i = get_global_id(0);
    if (i < n)                        // the guard: no check before the launch sees it
        out[i] = (float)i;
}
'''
prg = cl2c.Program(src, "%s").build()
# 1000 floats followed by 8 MiB that no access may touch: every thread's groups fault
# there (past a heap buffer, they would corrupt the heap, or another mapping, first)
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                      ctypes.c_int, ctypes.c_long]
libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
page = mmap.PAGESIZE
base = libc.mmap(None, page + (8 << 20), 0,       # PROT_NONE
                 mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, -1, 0)
assert base not in (None, ctypes.c_void_p(-1).value)
assert libc.mprotect(base, page, mmap.PROT_READ | mmap.PROT_WRITE) == 0
short = np.frombuffer((ctypes.c_float * (page // 4)).from_address(base), np.float32)[-1000:]
for _ in range(2):
    try:
        prg.guarded((1 << 20,), None, short, 1 << 20)
        print("no error")
    except cl2c.LaunchError as e:
        print("LaunchError", e.code, e)
out = np.zeros(1 << 20, np.float32)
prg.guarded((1 << 20,), None, out, 1 << 20)
print("after", bool((out == np.arange(1 << 20)).all()))
"""


@pytest.mark.parametrize("schedule", ["", "-cl2c-schedule=fibers"])
def test_faults_on_every_thread_of_the_team_end_the_launch(schedule):
    """Each thread of the team that faults leaves its groups and the parallel region
    ends: a LaunchError, twice, and the next launch is right."""
    res = _child(EVERY_THREAD % schedule, OMP_NUM_THREADS="4")
    assert res.returncode == 0, f"the process died ({res.returncode}): {res.stderr}"
    *errors, after = res.stdout.strip().splitlines()[-3:]
    for error in errors:
        assert error.startswith("LaunchError -1101 kernel 'guarded': SIGSEGV"), error
    assert after == "after True", res.stdout
