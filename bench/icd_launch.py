#!/usr/bin/env python3
"""The cl2c OpenCL platform from PyOpenCL, against PoCL on the same machine:

- a launch: ``knl(queue, gsize, None, *args).wait()`` of a 3-argument kernel (two float32
  buffers and a scalar) on 64 and 4,096 work-items, the median of single launches timed
  one by one;
- a build of a program built before (in another process): ``cl.Program(ctx,
  src).build()`` with PYOPENCL_NO_CACHE=1, so that the platform's own cache answers.

    python bench/icd_launch.py [--repeat N]

Each platform runs in a child process of its own (PyOpenCL picks its ICDs at import);
cl2c's through ``OCL_ICD_VENDORS`` set to ``cl2c --icd``'s folder.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

CHILD = r"""
import json, statistics, sys, time, uuid
import numpy as np
import pyopencl as cl
name, repeat = sys.argv[1], int(sys.argv[2])
plats = [p for p in cl.get_platforms() if name in p.name]
if not plats:
    print(json.dumps(None)); sys.exit(0)
ctx = cl.Context(plats[0].get_devices())
queue = cl.CommandQueue(ctx)
src = '''__kernel void args3(__global float *a, __global const float *b, float s)
{ size_t i = get_global_id(0); a[i] = b[i] * s; }
'''
cl.Program(ctx, src).build()                  # built before: now from the cache
builds = []
for _ in range(5):
    t = time.perf_counter()
    prg = cl.Program(ctx, src).build()
    builds.append(time.perf_counter() - t)
knl = prg.args3
a = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4096 * 4)
b = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4096 * 4)
s = np.float32(2)
result = {"cached build ms": statistics.median(builds) * 1e3}
for gsize in (64, 4096):
    for _ in range(50):
        knl(queue, (gsize,), None, a, b, s).wait()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        knl(queue, (gsize,), None, a, b, s).wait()
        times.append(time.perf_counter() - t)
    result[f"launch+wait us, {gsize} items"] = statistics.median(times) * 1e6
print(json.dumps(result))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=2000)
    args = ap.parse_args()
    from cl2c.platform import icd_folder
    env = dict(os.environ, PYOPENCL_NO_CACHE="1")
    cl2c_env = dict(env, OCL_ICD_VENDORS=str(icd_folder()))
    for label, name, child_env in (("cl2c", "cl2c", cl2c_env),
                                   ("PoCL", "Portable Computing Language", env)):
        proc = subprocess.run([sys.executable, "-c", CHILD, name, str(args.repeat)],
                              env=child_env, capture_output=True, text=True)
        if proc.returncode != 0:
            print(f"{label}: failed\n{proc.stderr[-2000:]}")
            continue
        result = json.loads(proc.stdout.strip().splitlines()[-1])
        if result is None:
            print(f"{label}: not found")
            continue
        print(f"{label:5}  " + "  ".join(f"{k}: {v:.1f}" for k, v in result.items()))


if __name__ == "__main__":
    main()
