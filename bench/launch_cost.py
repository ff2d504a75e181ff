#!/usr/bin/env python3
"""What one kernel launch costs from Python: argument checks, marshalling, the call.

    python bench/launch_cost.py                  # 0, 1, 3 and 8 arguments, this process
    python bench/launch_cost.py --wait-policies  # cl2c's choice, sleep, short spin, long
                                                 # spins: as the machine is and beside a
                                                 # busy process

The kernels do next to nothing (global size 64), so the time is the launch: the Python
side of ``Kernel.__call__`` and the C entry point. With local size None they are one
work-group, which runs on the calling thread; "args3 x4" (local size 16: 4 groups) and
"args3 4096" (4,096 work-items, local size None: the bench's launch sequence, which cl2c
cuts into a group per thread or more) are loop-free and small, so cl2c runs them on the
calling thread too; "loop 4096" (a kernel with a loop, 4,096 work-items) and "loop x2"
(the same, 2 groups of 64) wake the OpenMP team (a launch of fewer groups than threads
wakes only as many threads as it has groups), whose threads wait between launches
as cl2c or OMP_WAIT_POLICY and GOMP_SPINCOUNT say. Each figure is the median (and 10th-90th
percentiles) of single launches timed one by one, the wall and process CPU time of 1,000
launches in a row, and the CPU time the process burns in the 100 ms after them (threads
spinning before they sleep). "C omp region" is the yardstick: a C loop of empty OpenMP
parallel regions, timed in C, under the same libgomp settings. The 3-argument kernel is
the issue's: two float32 arrays and a scalar.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

SOURCE = """
__kernel void args0(void) { }
__kernel void args1(__global float *a) { a[get_global_id(0)] = 1.0f; }
__kernel void args3(__global float *a, __global const float *b, float s)
{ size_t i = get_global_id(0); a[i] = b[i] * s; }
__kernel void loop4(__global float *a, __global const float *b, float s, int n)
{ size_t i = get_global_id(0); float acc = 0.0f;
  for (int k = 0; k < n; k++) acc += b[i] * s;
  a[i] = acc; }
__kernel void args8(__global float *a, __global const float *b, __global const int *c,
                    __global const float *d, float s, int n, uint m, float t)
{ size_t i = get_global_id(0); if (i < n) a[i] = b[i] * s + c[i] * t + d[i] + m; }
"""
N = 64
WIDE = 4096


def _arguments():
    a = np.zeros(WIDE, np.float32)
    b = np.ones(WIDE, np.float32)
    c = np.arange(N, dtype=np.int32)
    d = np.ones(N, np.float32)
    # label: (kernel, global size, local size, arguments)
    return {"args0": ("args0", N, None, ()), "args1": ("args1", N, None, (a,)),
            "args3": ("args3", N, None, (a, b, 2.0)),
            "args8": ("args8", N, None, (a, b, c, d, 2.0, N, 3, 0.5)),
            "args3 x4": ("args3", N, 16, (a, b, 2.0)),
            "args3 4096": ("args3", WIDE, None, (a, b, 2.0)),
            "loop 4096": ("loop4", WIDE, None, (a, b, 2.0, 2)),
            "loop x2": ("loop4", 2 * N, N, (a, b, 2.0, 2))}


# The yardstick: what a C program's loop of OpenMP parallel regions costs a region
# (each thread touches its own element), timed in C, under the same libgomp settings.
REGIONS_C = r"""
#include <omp.h>
#include <time.h>
double omp_regions(int n, float *a)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < n; i++) {
        #pragma omp parallel
        a[omp_get_thread_num()] += 1.0f;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (t1.tv_sec - t0.tv_sec) * 1e6 + (t1.tv_nsec - t0.tv_nsec) / 1e3;
}
"""


def _omp_regions():
    """The C loop of parallel regions, compiled into a temporary library."""
    import ctypes
    import tempfile
    folder = tempfile.mkdtemp(prefix="cl2c-launch-cost-")
    src, lib = os.path.join(folder, "regions.c"), os.path.join(folder, "regions.so")
    with open(src, "w") as f:
        f.write(REGIONS_C)
    subprocess.run([os.environ.get("CC", "gcc"), "-O2", "-fopenmp", "-fPIC", "-shared", src,
                    "-o", lib], check=True)
    fn = ctypes.CDLL(lib).omp_regions
    fn.restype, fn.argtypes = ctypes.c_double, [ctypes.c_int, ctypes.c_void_p]
    return fn


def _idle_cpu_ms(pause_s: float = 0.1) -> float:
    """CPU time the process burns while the calling thread sleeps `pause_s` right after
    a launch: OpenMP's threads spinning before they sleep."""
    c0 = time.process_time()
    time.sleep(pause_s)
    return (time.process_time() - c0) * 1e3


def measure(launches: int, repeats: int) -> dict:
    import cl2c
    prg = cl2c.Program(SOURCE).build().wait_optimised()
    result = {}
    for label, (name, size, local, args) in _arguments().items():
        kernel = prg.kernel(name)
        for _ in range(200):                       # warm up: threads started, caches hot
            kernel(size, local, *args)
        clock = time.perf_counter_ns
        samples = []
        for _ in range(repeats):
            t0 = clock()
            kernel(size, local, *args)
            samples.append(clock() - t0)
        t0, c0 = time.perf_counter(), time.process_time()
        for _ in range(launches):
            kernel(size, local, *args)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        result[label] = {"median_us": statistics.median(samples) / 1e3,
                        "p10_us": statistics.quantiles(samples, n=10)[0] / 1e3,
                        "p90_us": statistics.quantiles(samples, n=10)[-1] / 1e3,
                        f"wall_{launches}_ms": wall * 1e3,
                        "cpu_us_per_launch": cpu * 1e6 / launches,
                        "idle_cpu_ms": _idle_cpu_ms()}
    regions = _omp_regions()
    buf = np.zeros(1024, np.float32)
    regions(200, buf.ctypes.data)
    per = [regions(1, buf.ctypes.data) * 1e3 for _ in range(repeats)]   # ns
    t0, c0 = time.perf_counter(), time.process_time()
    wall_us = regions(launches, buf.ctypes.data)
    cpu = time.process_time() - c0
    result["C omp region"] = {"median_us": statistics.median(per) / 1e3,
                              "p10_us": statistics.quantiles(per, n=10)[0] / 1e3,
                              "p90_us": statistics.quantiles(per, n=10)[-1] / 1e3,
                              f"wall_{launches}_ms": wall_us / 1e3,
                              "cpu_us_per_launch": cpu * 1e6 / launches,
                              "idle_cpu_ms": _idle_cpu_ms()}
    return result


def _busy_process() -> subprocess.Popen:
    """A process that keeps one core busy, as another user's work would."""
    return subprocess.Popen([sys.executable, "-c", "while True: pass"])


# How the OpenMP team's threads wait between launches (libgomp reads these as it loads).
# Where neither OMP_WAIT_POLICY nor GOMP_SPINCOUNT is set cl2c chooses (cl2c/threads.py:
# a short spin where the machine has a free core per thread, else sleep; CL2C_WAIT
# forces one); libgomp's own default is GOMP_SPINCOUNT=300000.
WAIT_SETTINGS = {"cl2c's choice (CL2C_WAIT=auto)": {},
                 "CL2C_WAIT=sleep (OMP_WAIT_POLICY=passive)": {"CL2C_WAIT": "sleep"},
                 "CL2C_WAIT=spin (GOMP_SPINCOUNT=1000)": {"CL2C_WAIT": "spin"},
                 "GOMP_SPINCOUNT=10000": {"GOMP_SPINCOUNT": "10000"},
                 "libgomp's default (GOMP_SPINCOUNT=300000)": {"GOMP_SPINCOUNT": "300000"},
                 "OMP_WAIT_POLICY=active": {"OMP_WAIT_POLICY": "active"}}


def wait_policies(launches: int, repeats: int) -> dict:
    """This script again in a child per wait setting (OMP_WAIT_POLICY unset, active,
    passive; short spins), each on the machine as it is and beside a busy process."""
    out = {}
    for loaded in (False, True):
        for label, setting in WAIT_SETTINGS.items():
            env = {k: v for k, v in os.environ.items()
                   if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "CL2C_WAIT")}
            env.update(setting)
            busy = _busy_process() if loaded else None
            try:
                res = subprocess.run([sys.executable, __file__, "--json", "--launches",
                                      str(launches), "--repeats", str(repeats)], env=env,
                                     capture_output=True, text=True, check=True)
            finally:
                if busy is not None:
                    busy.kill()
                    busy.wait()
            out[f"{label}{' + busy process' if loaded else ''}"] = json.loads(res.stdout)
    return out


def _table(result: dict, launches: int) -> str:
    lines = [f"{'kernel':12} {'median us':>10} {'p10-p90 us':>14} "
             f"{f'{launches} launches ms':>18} {'CPU us/launch':>14} {'idle CPU ms':>12}"]
    for name, r in result.items():
        lines.append(f"{name:12} {r['median_us']:10.2f} "
                     f"{r['p10_us']:6.2f}-{r['p90_us']:<7.2f} "
                     f"{r[f'wall_{launches}_ms']:18.2f} {r['cpu_us_per_launch']:14.2f} "
                     f"{r['idle_cpu_ms']:12.2f}")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--launches", type=int, default=1000)
    ap.add_argument("--repeats", type=int, default=3000)
    ap.add_argument("--wait-policies", action="store_true")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    args = ap.parse_args()
    if args.wait_policies:
        res = wait_policies(args.launches, args.repeats)
        if args.json:
            print(json.dumps(res))
            return
        for key, r in res.items():
            print(f"{key}\n{_table(r, args.launches)}\n")
        return
    res = measure(args.launches, args.repeats)
    if args.json:
        print(json.dumps(res))
    else:
        from cl2c.threads import wait_policy
        print(f"threads wait: {wait_policy()}; "
              f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}")
        print(_table(res, args.launches))


if __name__ == "__main__":
    main()
