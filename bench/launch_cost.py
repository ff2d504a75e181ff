#!/usr/bin/env python3
"""What one kernel launch costs from Python: argument checks, marshalling, the call.

    python bench/launch_cost.py                  # 0, 1, 3 and 8 arguments, this process
    python bench/launch_cost.py --wait-policies  # OMP_WAIT_POLICY unset / active / passive,
                                                 # idle and with a busy background process

The kernels do next to nothing (global size 64, local size None), so the time is the
launch: the Python side of ``Kernel.__call__`` plus an OpenMP parallel region. Each
figure is the median of single launches timed one by one, and the wall time of 1,000
launches in a row. The 3-argument kernel is the issue's yardstick: two float32 arrays
and a scalar.
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
__kernel void args8(__global float *a, __global const float *b, __global const int *c,
                    __global const float *d, float s, int n, uint m, float t)
{ size_t i = get_global_id(0); if (i < n) a[i] = b[i] * s + c[i] * t + d[i] + m; }
"""
N = 64


def _arguments():
    a = np.zeros(N, np.float32)
    b = np.ones(N, np.float32)
    c = np.arange(N, dtype=np.int32)
    d = np.ones(N, np.float32)
    return {"args0": (), "args1": (a,), "args3": (a, b, 2.0),
            "args8": (a, b, c, d, 2.0, N, 3, 0.5)}


def measure(launches: int, repeats: int) -> dict:
    import cl2c
    prg = cl2c.Program(SOURCE).build()
    result = {}
    for name, args in _arguments().items():
        kernel = prg.kernel(name)
        for _ in range(200):                       # warm up: threads started, caches hot
            kernel(N, None, *args)
        clock = time.perf_counter_ns
        samples = []
        for _ in range(repeats):
            t0 = clock()
            kernel(N, None, *args)
            samples.append(clock() - t0)
        t0 = time.perf_counter()
        for _ in range(launches):
            kernel(N, None, *args)
        wall = time.perf_counter() - t0
        result[name] = {"median_us": statistics.median(samples) / 1e3,
                        "p10_us": statistics.quantiles(samples, n=10)[0] / 1e3,
                        f"wall_{launches}_ms": wall * 1e3}
    return result


def _busy_process() -> subprocess.Popen:
    """A process that keeps one core busy, as another user's work would."""
    return subprocess.Popen([sys.executable, "-c", "while True: pass"])


def wait_policies(launches: int, repeats: int) -> dict:
    """This script again in a child per OMP_WAIT_POLICY (unset, active, passive), each
    on an idle machine and beside a busy process."""
    out = {}
    for loaded in (False, True):
        for policy in (None, "active", "passive"):
            env = dict(os.environ)
            env.pop("OMP_WAIT_POLICY", None)
            if policy:
                env["OMP_WAIT_POLICY"] = policy
            busy = _busy_process() if loaded else None
            try:
                res = subprocess.run([sys.executable, __file__, "--json", "--launches",
                                      str(launches), "--repeats", str(repeats)], env=env,
                                     capture_output=True, text=True, check=True)
            finally:
                if busy is not None:
                    busy.kill()
                    busy.wait()
            key = f"{policy or 'unset'}{' + busy process' if loaded else ''}"
            out[key] = json.loads(res.stdout)
    return out


def _table(result: dict, launches: int) -> str:
    lines = [f"{'kernel':8} {'median us':>10} {'p10 us':>8} {f'{launches} launches ms':>18}"]
    for name, r in result.items():
        lines.append(f"{name:8} {r['median_us']:10.2f} {r['p10_us']:8.2f} "
                     f"{r[f'wall_{launches}_ms']:18.2f}")
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
            print(f"OMP_WAIT_POLICY={key}\n{_table(r, args.launches)}\n")
        return
    res = measure(args.launches, args.repeats)
    if args.json:
        print(json.dumps(res))
    else:
        print(f"OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', 'unset')}, "
              f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}")
        print(_table(res, args.launches))


if __name__ == "__main__":
    main()
