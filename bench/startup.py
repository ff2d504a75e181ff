#!/usr/bin/env python3
"""What a new process waits for before its first kernel runs, when the kernels were built
before (a warm cache): cl2c against PoCL through PyOpenCL, measured the same way in the
same run.

    PYTHONPATH=. python bench/startup.py [PROGRAM.cl] [--runs 11] [--no-pocl]

PROGRAM.cl is the six-kernel file of issue 38 (``../shared/perf/kernels.cl``) by default.
Each sample is a new Python process that times, one after the other:

- ``import``: ``import cl2c`` (``import pyopencl`` for PoCL);
- ``setup``: what must exist before a build: cl2c's ``Program`` class (its loader's
  imports: NumPy, cffi); PoCL's platform, device and context;
- ``build``: ``Program(src).build()`` on a cache hit (PoCL: ``cl.Program(ctx, src).build()``
  with PyOpenCL's and PoCL's caches warm): the figure issue 38 asks to be milliseconds;
- ``launch 1``, ``launch 2``: the program's kernel ``triad`` (a, b, c, s) over 4096
  work-items, the first launch and the one after it (PoCL: enqueue + finish), where the
  program has such a kernel.

A warm-up process of each contender fills the caches first; then the contenders take
turns. The table gives the median and the min-max range, in milliseconds; the machine's
load average comes first, since a shared machine's other work moves these numbers.
``CL2C_TIME=1`` in cl2c's children prints the stages of each cache hit and first launch.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DEFAULT_PROGRAM = ROOT.parent / "shared" / "perf" / "kernels.cl"
STAGES = ("import", "setup", "build", "launch 1", "launch 2")

CL2C_CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
import cl2c
t1 = time.perf_counter()
cl2c.Program
t2 = time.perf_counter()
src = open(sys.argv[1]).read()
t3 = time.perf_counter()
prg = cl2c.Program(src).build()
t4 = time.perf_counter()
times = {"import": t1 - t0, "setup": t2 - t1, "build": t4 - t3, "hit": prg.from_cache}
if "triad" in prg.kernel_names:
    import numpy as np
    n = 4096
    a, b, c = (np.zeros(n, np.float32) for _ in range(3))
    for stage in ("launch 1", "launch 2"):
        t = time.perf_counter()
        prg.triad((n,), None, a, b, c, np.float32(2))
        times[stage] = time.perf_counter() - t
print(json.dumps(times))
"""

POCL_CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
import pyopencl as cl
t1 = time.perf_counter()
platform = cl.get_platforms()[int(sys.argv[2])]
device = platform.get_devices()[int(sys.argv[3])]
ctx = cl.Context([device])
queue = cl.CommandQueue(ctx)
t2 = time.perf_counter()
src = open(sys.argv[1]).read()
t3 = time.perf_counter()
prg = cl.Program(ctx, src).build()
t4 = time.perf_counter()
times = {"import": t1 - t0, "setup": t2 - t1, "build": t4 - t3}
if "triad" in prg.kernel_names.split(";"):
    import numpy as np
    n = 4096
    mf = cl.mem_flags
    bufs = [cl.Buffer(ctx, mf.READ_WRITE, 4 * n) for _ in range(3)]
    kernel = prg.triad
    for stage in ("launch 1", "launch 2"):
        t = time.perf_counter()
        kernel(queue, (n,), None, *bufs, np.float32(2))
        queue.finish()
        times[stage] = time.perf_counter() - t
print(json.dumps(times))
"""


def pocl_device() -> tuple[tuple[int, int] | None, str]:
    """(platform index, device index) of the first PoCL CPU device that builds, and its
    description; None and why where there is none."""
    sys.path.insert(0, str(HERE))
    try:
        import pyopencl as cl
        from opencl_platforms import POCL_NAME, building_device
    except ImportError as e:
        return None, f"pyopencl is not installed ({e})"
    candidates = [(i, j, d) for i, p in enumerate(cl.get_platforms())
                  if p.name.strip() == POCL_NAME for j, d in enumerate(p.get_devices())]
    device, problems = building_device(cl, [d for _, _, d in candidates])
    if device is None:
        return None, "; ".join(problems) or "no PoCL device"
    for i, j, d in candidates:
        if d == device:
            return (i, j), f"{d.platform.version.strip()} / {d.name.strip()}"
    return None, "no PoCL device"


def run_child(code: str, args: list[str], env: dict) -> dict:
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                          text=True, env=env)
    if proc.returncode != 0:
        raise RuntimeError(f"the child failed:\n{proc.stderr[-3000:]}")
    if proc.stderr.strip():
        print(proc.stderr.rstrip(), file=sys.stderr)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def summary(samples: list[float]) -> str:
    ms = [1e3 * s for s in samples]
    return f"{statistics.median(ms):8.1f} ({min(ms):6.1f}-{max(ms):6.1f})"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("program", nargs="?", default=str(DEFAULT_PROGRAM),
                    help="the OpenCL C file to build (default: %(default)s)")
    ap.add_argument("--runs", type=int, default=11, help="processes per contender")
    ap.add_argument("--no-pocl", action="store_true", help="cl2c alone")
    ap.add_argument("--json", help="write every sample here")
    args = ap.parse_args(argv)
    program = Path(args.program)
    if not program.is_file():
        print(f"startup.py: no program file {program} (give one)", file=sys.stderr)
        return 2
    env = dict(os.environ)
    # as an installed package runs: from bytecode (a checkout writes its __pycache__ once)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in
                                         env.get("PYTHONPATH", "").split(os.pathsep) if p])
    contenders = {"cl2c": (CL2C_CHILD, [str(program)])}
    pocl_note = ""
    if not args.no_pocl:
        where, pocl_note = pocl_device()
        if where is None:
            print(f"PoCL left out: {pocl_note}", file=sys.stderr)
        else:
            contenders["PoCL"] = (POCL_CHILD, [str(program), *map(str, where)])
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{args.runs} processes each; {program}")
    if pocl_note and "PoCL" in contenders:
        print(f"PoCL: {pocl_note}")
    with tempfile.TemporaryDirectory(prefix="cl2c-startup-") as tmp:
        env.setdefault("POCL_CACHE_DIR", str(Path(tmp) / "pocl"))
        env.setdefault("PYOPENCL_CACHE_DIR", str(Path(tmp) / "pyopencl"))
        samples: dict[str, list[dict]] = {name: [] for name in contenders}
        for code, child_args in contenders.values():     # warm-up: fills the caches
            run_child(code, child_args, env)
        names = list(contenders)
        for r in range(args.runs):
            for name in names[r % len(names):] + names[:r % len(names)]:
                code, child_args = contenders[name]
                samples[name].append(run_child(code, child_args, env))
    missed = [i for i, s in enumerate(samples["cl2c"]) if not s.get("hit", True)]
    if missed:
        print(f"WARNING: {len(missed)} cl2c builds were not cache hits", file=sys.stderr)
    width = 24
    print("milliseconds, median (min-max)")
    print(f"{'':<10}" + "".join(f"{n:>{width}}" for n in contenders))
    for stage in STAGES:
        cells = []
        for name in contenders:
            values = [s[stage] for s in samples[name] if stage in s]
            cells.append(summary(values) if values else "-")
        print(f"{stage:<10}" + "".join(f"{c:>{width}}" for c in cells))
    totals = {name: summary([sum(s.get(k, 0.0) for k in STAGES[:3]) for s in samples[name]])
              for name in contenders}
    print(f"{'to built':<10}" + "".join(f"{totals[n]:>{width}}" for n in contenders))
    if args.json:
        Path(args.json).write_text(json.dumps(samples, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
