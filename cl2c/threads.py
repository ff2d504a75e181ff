"""Threads cl2c did not create keep their CPU affinity; how OpenMP threads wait."""
from __future__ import annotations

import contextlib
import os
import warnings


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


# How libgomp's threads wait between launches where the user set neither
# OMP_WAIT_POLICY nor GOMP_SPINCOUNT (libgomp reads them once, as it loads with the first
# kernel module; nothing changes them later). Two settings, chosen then by whether the
# machine has a core free for every thread of the team (`choose_wait`, `other_load`):
# - a short spin, then sleep: GOMP_SPINCOUNT=1000, about 30 µs of pause loops on the
#   project's Zen machine (bench/launch_cost.py's idle CPU column), longer than the 5-10 µs
#   a Python host loop takes between two launches, so a loop of small launches finds its
#   threads awake (6 µs a launch spinning against 50-80 µs to wake sleeping threads, on an
#   idle 2-core machine); what a thread burns after the last launch is bounded by the spin;
# - sleep at once (OMP_WAIT_POLICY=passive) on a busy machine: a spinning thread there
#   holds the core that the thread it waits for needs (bench/launch_cost.py
#   --wait-policies, 2 cores at load 12: an OpenMP region 9-16 µs sleeping, 60-85 µs
#   with the short spin, milliseconds with libgomp's default of 300,000).
# CL2C_WAIT=spin or sleep chooses one of them; auto (the default) as above.
SHORT_SPIN = {"GOMP_SPINCOUNT": "1000"}
SLEEP = {"OMP_WAIT_POLICY": "passive"}
_WAIT_SETTINGS = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")


def _cpus() -> int:
    get = getattr(os, "sched_getaffinity", None)
    return len(get(0)) if get is not None else (os.cpu_count() or 1)


def team_threads() -> int:
    """The threads a launch uses at most: OMP_NUM_THREADS's first number, else a
    thread per CPU this process may run on."""
    first = os.environ.get("OMP_NUM_THREADS", "").split(",")[0].strip()
    return int(first) if first.isdigit() and int(first) > 0 else _cpus()


def choose_wait(load: float, cpus: int, threads: int) -> dict:
    """The short spin where the machine has a core for each of the team's threads
    besides what runs now (the 1-minute load average counts this process's own
    thread), else sleep."""
    return SHORT_SPIN if load + threads <= cpus + 1.5 else SLEEP


def omp_settings() -> dict:
    """What cl2c sets for libgomp now: {} where the user chose (OMP_WAIT_POLICY or
    GOMP_SPINCOUNT set), else SHORT_SPIN or SLEEP as CL2C_WAIT and the machine say."""
    if any(name in os.environ for name in _WAIT_SETTINGS):
        return {}
    asked = os.environ.get("CL2C_WAIT", "auto").strip().lower()
    if asked == "spin":
        return SHORT_SPIN
    if asked == "sleep":
        return SLEEP
    if asked != "auto":
        warnings.warn(f"CL2C_WAIT={asked!r} is none of spin, sleep, auto: auto is used",
                      stacklevel=2)
    return choose_wait(other_load(), _cpus(), team_threads())


def other_load() -> float:
    """What else the machine runs: the 1-minute load average, but no more than the
    threads runnable now besides this one (/proc/loadavg's fourth field). The average
    lags: a job that ended a minute ago still counts 2 or 3, and on a 16-core machine
    that chose sleep, where a launch of a loop over 4,096 work-items then took 37 us
    against 14 us spinning (bench/launch_cost.py --wait-policies, 16 threads of a Xeon)."""
    if not hasattr(os, "getloadavg"):
        return 0.0
    try:
        with open("/proc/loadavg") as f:
            text = f.read()
    except OSError:
        text = ""
    return load_besides_us(os.getloadavg()[0], text)


def load_besides_us(average: float, loadavg_text: str) -> float:
    """The load `other_load` counts, from the 1-minute average and /proc/loadavg's
    text ("0.52 0.31 0.20 3/214 3198": 3 runnable now, this process's thread one of
    them); the average alone where the text says nothing."""
    fields = loadavg_text.split()
    running = fields[3].split("/")[0] if len(fields) > 3 else ""
    if not running.isdigit():
        return average
    return min(average, max(0, int(running) - 1))


def wait_policy() -> str:
    """How OpenMP's threads wait between launches, as a process that loads its first
    kernel now gets it: the user's settings, or cl2c's."""
    chosen = {name: os.environ[name] for name in _WAIT_SETTINGS if name in os.environ}
    if chosen:
        return ", ".join(f"{k}={v}" for k, v in chosen.items())
    mine = omp_settings()
    how = ("a short spin, then sleep" if mine == SHORT_SPIN else "sleep")
    return f"{how} (cl2c's choice, " + ", ".join(f"{k}={v}" for k, v in mine.items()) + ")"


@contextlib.contextmanager
def omp_defaults():
    """cl2c's wait setting (omp_settings) in the environment while a kernel module
    loads, for libgomp to read as it starts (with the first module); where the user
    chose either setting, or afterwards, the environment is as it was, so the
    processes the program starts inherit nothing from cl2c."""
    mine = omp_settings()
    os.environ.update(mine)
    try:
        yield
    finally:
        for name in mine:
            os.environ.pop(name, None)
