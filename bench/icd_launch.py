#!/usr/bin/env python3
"""A launch and a cached build from PyOpenCL on the cl2c OpenCL platform, against PoCL,
Intel's OpenCL CPU runtime and cl2c's own Python API on the same machine:

- a launch: ``knl(queue, gsize, None, *args).wait()`` of a 3-argument kernel (two float32
  buffers and a scalar) on 64 and 4,096 work-items, single launches timed one by one
  (cl2c's own API: ``knl((gsize,), None, *args)``, which returns when the launch ends);
- a build of a program built before (in another process): ``cl.Program(ctx,
  src).build()`` with PYOPENCL_NO_CACHE=1, so that each platform's own cache answers
  (cl2c's own API: ``cl2c.Program(src).build()``).

    python bench/icd_launch.py [--repeat N] [--rounds R] [--no-intel] [--json PATH]

Each contender runs in a child process of its own (PyOpenCL picks its ICDs at import),
once a round, the rounds rotating their order; a figure is the median of the rounds'
medians, with the lowest and highest of them. The cl2c platform is reached
through ``OCL_ICD_VENDORS`` set to ``cl2c --icd``'s folder; Intel's runtime, where
``intel-opencl-rt`` is installed (``make bench`` installs it), through a folder naming
its library (bench/opencl_platforms.py). --json writes every sample with the commit and
the machine (docs/data/, which the platform's guide draws its table from).
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

SOURCE = """__kernel void args3(__global float *a, __global const float *b, float s)
{ size_t i = get_global_id(0); a[i] = b[i] * s; }
"""
SIZES = (64, 4096)

# The child: prints {"build": [s...], "launch <n>": [s...]} or null (no such platform).
OPENCL_CHILD = r"""
import json, sys, time
import numpy as np
import pyopencl as cl
name, repeat, src = sys.argv[1], int(sys.argv[2]), sys.argv[3]
plats = [p for p in cl.get_platforms() if p.name.strip() == name]
if not plats:
    print(json.dumps(None)); sys.exit(0)
ctx = cl.Context(plats[0].get_devices())
queue = cl.CommandQueue(ctx)
cl.Program(ctx, src).build()                  # built before: from the cache now
result = {"build": []}
for _ in range(5):
    t = time.perf_counter()
    prg = cl.Program(ctx, src).build()
    result["build"].append(time.perf_counter() - t)
knl = prg.args3
a = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4096 * 4)
b = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4096 * 4)
s = np.float32(2)
for gsize in SIZES:
    for _ in range(50):
        knl(queue, (gsize,), None, a, b, s).wait()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        knl(queue, (gsize,), None, a, b, s).wait()
        times.append(time.perf_counter() - t)
    result[f"launch {gsize}"] = times
print(json.dumps(result))
""".replace("SIZES", repr(SIZES))

OWN_API_CHILD = r"""
import json, sys, time
import numpy as np
import cl2c
repeat, src = int(sys.argv[2]), sys.argv[3]
cl2c.Program(src).build().wait_optimised()
result = {"build": []}
for _ in range(5):
    t = time.perf_counter()
    prg = cl2c.Program(src).build()
    result["build"].append(time.perf_counter() - t)
prg.wait_optimised()            # (the -O3 library, as a cache hit gives it at once)
knl = prg.args3
a = np.zeros(4096, np.float32)
b = np.ones(4096, np.float32)
s = np.float32(2)
for gsize in SIZES:
    for _ in range(50):
        knl((gsize,), None, a, b, s)
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        knl((gsize,), None, a, b, s)
        times.append(time.perf_counter() - t)
    result[f"launch {gsize}"] = times
print(json.dumps(result))
""".replace("SIZES", repr(SIZES))


def contenders(want_intel: bool, intel_folder: Path):
    """[(label, child script, platform name, environment)] and {label: why skipped}."""
    sys.path.insert(0, str(HERE))
    import opencl_platforms as op
    from cl2c.platform import icd_folder
    env = dict(os.environ, PYOPENCL_NO_CACHE="1")
    found = [("cl2c platform", OPENCL_CHILD, "cl2c",
              dict(env, OCL_ICD_VENDORS=str(icd_folder()))),
             ("PoCL", OPENCL_CHILD, op.POCL_NAME, env),
             ("cl2c.Program", OWN_API_CHILD, "", env)]
    skipped = {}
    if not want_intel:
        skipped["Intel"] = "disabled with --no-intel"
    else:
        saved = os.environ.get("OCL_ICD_VENDORS")
        _, why = op.point_loader_at_runtimes(intel_folder)   # (sets OCL_ICD_VENDORS)
        intel_env = dict(env, OCL_ICD_VENDORS=os.environ.get("OCL_ICD_VENDORS", ""))
        if saved is None:
            os.environ.pop("OCL_ICD_VENDORS", None)
        else:
            os.environ["OCL_ICD_VENDORS"] = saved
        if why:
            skipped["Intel"] = why
        else:
            found.insert(2, ("Intel", OPENCL_CHILD, op.INTEL_NAME, intel_env))
    return found, skipped


def run_child(script: str, name: str, env: dict, repeat: int):
    """A child's samples, or a string saying why there are none."""
    proc = subprocess.run([sys.executable, "-c", script, name, str(repeat), SOURCE],
                          env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        return f"failed: {proc.stderr.strip()[-500:]}"
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    return result if result is not None else f"no OpenCL platform named {name!r}"


def round_summary(samples: dict) -> dict:
    """A round's samples of each metric as their count, median, lowest and highest."""
    return {metric: {"n": len(v), "median": statistics.median(v), "min": min(v),
                     "max": max(v)} for metric, v in samples.items()}


def summary(rounds: list[dict], metric: str, scale: float) -> str:
    """The median of the rounds' medians, and their range."""
    medians = [r[metric]["median"] * scale for r in rounds]
    return f"{statistics.median(medians):.1f} ({min(medians):.1f}-{max(medians):.1f})"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=2000, help="launches timed per size")
    ap.add_argument("--rounds", type=int, default=3, help="child processes per contender")
    ap.add_argument("--no-intel", action="store_true", help="leave Intel's runtime out")
    ap.add_argument("--json", help="write every sample here")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="cl2c-icd-launch-") as folder:
        found, skipped = contenders(not args.no_intel, Path(folder))
        print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}, "
              f"{os.cpu_count()} CPUs")
        for label, why in skipped.items():
            print(f"  {label:<14} SKIPPED: {why}")
        samples: dict[str, list[dict]] = {label: [] for label, *_ in found}
        for r in range(args.rounds):
            turn = found[r % len(found):] + found[:r % len(found)]
            for label, script, name, env in turn:
                result = run_child(script, name, env, args.repeat)
                if isinstance(result, str):
                    skipped[label] = result
                    print(f"  {label:<14} {result}")
                    continue
                samples[label].append(round_summary(result))
    samples = {k: v for k, v in samples.items() if v and k not in skipped}
    print(f"{'':<14} {'cached build ms':>20} " +
          " ".join(f"{f'launch+wait us, {n} items':>26}" for n in SIZES))
    for label, rounds in samples.items():
        print(f"{label:<14} {summary(rounds, 'build', 1e3):>20} " +
              " ".join(f"{summary(rounds, f'launch {n}', 1e6):>26}" for n in SIZES))
    print("(the median of the rounds' medians; in brackets the lowest and the highest)")
    if args.json:
        from bench import measured_commit, portable
        Path(args.json).write_text(json.dumps({
            "commit": measured_commit(),
            "date": datetime.date.today().isoformat(),
            "machine": f"{os.cpu_count()} CPUs ({platform.machine()}), Python "
                       f"{platform.python_version()}, load average "
                       f"{os.getloadavg()[0]:.2f} at the end",
            "what": f"bench/icd_launch.py --repeat {args.repeat} --rounds {args.rounds}",
            "sizes": list(SIZES), "samples": samples, "skipped": portable(skipped)}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
