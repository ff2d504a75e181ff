"""Threads cl2c did not create keep their CPU affinity; how OpenMP threads wait."""
from __future__ import annotations

import contextlib
import os


@contextlib.contextmanager
def affinity_kept():
    """The calling thread's CPU affinity as it was: libgomp, loaded with the first
    module, binds the thread that loads it when OMP_PROC_BIND asks, and every thread
    the program starts later would inherit that binding (issue 10: cl2c never changes
    the affinity of threads it did not create)."""
    get = getattr(os, "sched_getaffinity", None)
    mask = get(0) if get is not None else None
    try:
        yield
    finally:
        if mask is not None and os.sched_getaffinity(0) != mask:
            os.sched_setaffinity(0, mask)


# What cl2c sets for libgomp where the user set neither OMP_WAIT_POLICY nor GOMP_SPINCOUNT:
# threads that sleep between launches. libgomp's default spins 300,000 times first, which
# takes cores from everything else, and where cores are shared a launch then waits for a
# spinning thread that the kernel preempted (bench/launch_cost.py --wait-policies, on the
# project's 2-core machine: 1,000 launches of 4 groups took 0.13 to 1.3 s spinning, 18 to
# 20 ms passive, beside busy processes; even a short spin, GOMP_SPINCOUNT=1000, made a
# launch 61-66 µs against 14-28 there). On an idle machine spinning wins (6 µs a launch
# against 50-80 µs to wake a sleeping thread there), so small launches of loop-free kernels
# wake no thread at all (workgroup/launch_work.py).
OMP_DEFAULTS = {"OMP_WAIT_POLICY": "passive"}
_WAIT_SETTINGS = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")


def wait_policy() -> str:
    """How OpenMP's threads wait between launches, as a process that loads its first
    kernel now gets it: the user's settings, or cl2c's."""
    chosen = {name: os.environ[name] for name in _WAIT_SETTINGS if name in os.environ}
    if chosen:
        return ", ".join(f"{k}={v}" for k, v in chosen.items())
    return "sleep (cl2c's default, OMP_WAIT_POLICY=passive)"


@contextlib.contextmanager
def omp_defaults():
    """cl2c's OMP_DEFAULTS in the environment while a kernel module loads, for libgomp to
    read as it starts (with the first module); where the user chose either setting, or
    afterwards, the environment is as it was, so the processes the program starts
    inherit nothing from cl2c."""
    chosen = any(name in os.environ for name in _WAIT_SETTINGS)
    if not chosen:
        os.environ.update(OMP_DEFAULTS)
    try:
        yield
    finally:
        if not chosen:
            for name in OMP_DEFAULTS:
                os.environ.pop(name, None)
