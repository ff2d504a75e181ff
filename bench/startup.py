#!/usr/bin/env python3
"""What a new process waits for before its first kernel runs, when the kernels were built
before (a warm cache) and when it was not (a cold one): cl2c against PoCL and Intel's
runtime through PyOpenCL, measured the same way in the same run.

    python bench/startup.py [PROGRAM.cl] [--runs 11] [--cold 3] [--no-pocl] [--no-intel]

It measures the installed cl2c where the Python that runs it has one (``make bench``
installs this checkout first), else this checkout (``PYTHONPATH=.``).

``make bench`` prints the same table (bench.py calls ``measure``).

PROGRAM.cl is by default the six-kernel file of issue 38 (``../shared/perf/kernels.cl``)
where it is there, else ``kernels/triad.cl``.
Each sample is a new Python process that times, one after the other:

- ``import``: ``import cl2c`` (``import pyopencl`` for the OpenCL platforms);
- ``setup``: what must exist before a build: cl2c's ``Program`` class (its loader's
  imports: NumPy, cffi); an OpenCL platform's device, context and queue;
- ``build``: ``Program(src).build()`` on a cache hit (OpenCL: ``cl.Program(ctx,
  src).build()`` with PyOpenCL's and PoCL's caches warm): the figure issue 38 asks to
  be milliseconds;
- ``build CPU``: the process's CPU time in ``build`` (all its threads): less moved by
  a busy machine than the wall time;
- ``launch 1``, ``launch 2``: the program's kernel ``triad`` (a, b, c, s) over 4096
  work-items, the first launch and the one after it (OpenCL: enqueue + finish), where
  the program has such a kernel.

``cold build`` is ``build`` in processes whose caches start empty (cl2c's, PyOpenCL's,
PoCL's); ``cold to launch 1`` adds the first launch. A cold cl2c build returns with its
fast tier (cl2c/tiers.py): ``cold to -O3`` is the time from ``build()`` until the kernels
run on the optimised library (the child waits for it, so that the next sample does not
share the machine with its background build). ``new program`` is a cold build in warm
caches: the program with one kernel added that no process built before, as a user's
next program is (cl2c's cache then holds a few programs, and so the runtime compiled
ahead: its object and its precompiled header). A warm-up process of each contender fills
the warm caches first; then the contenders take turns. The table gives the median and the min-max range, in
milliseconds; the machine's load average comes first, since a shared machine's other
work moves these numbers. ``CL2C_TIME=1`` in cl2c's children prints the stages of each
cache hit and first launch.
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
# issue 38's six-kernel file where the checkout has it beside it; else the bench's triad
SIX_KERNELS = ROOT.parent / "shared" / "perf" / "kernels.cl"


def default_program() -> Path:
    return SIX_KERNELS if SIX_KERNELS.is_file() else HERE / "kernels" / "triad.cl"

STAGES = ("import", "setup", "build", "launch 1", "launch 2")
SUM_TO_BUILT = ("import", "setup", "build")

CL2C_CHILD = r"""
import json, os, sys, time
t0 = time.perf_counter()
import cl2c
t1 = time.perf_counter()
cl2c.Program
t2 = time.perf_counter()
src = open(sys.argv[1]).read() + os.environ.get("STARTUP_EXTRA", "")
t3, c3 = time.perf_counter(), time.process_time()
prg = cl2c.Program(src).build()
t4, c4 = time.perf_counter(), time.process_time()
times = {"import": t1 - t0, "setup": t2 - t1, "build": t4 - t3, "build CPU": c4 - c3,
         "hit": prg.from_cache, "cl2c": os.path.dirname(cl2c.__file__)}
if "triad" in prg.kernel_names:
    import numpy as np
    n = 4096
    a, b, c = (np.zeros(n, np.float32) for _ in range(3))
    for stage in ("launch 1", "launch 2"):
        t = time.perf_counter()
        prg.triad((n,), None, a, b, c, np.float32(2))
        times[stage] = time.perf_counter() - t
if prg.tier == "fast":      # a cold build's first tier: until the -O3 library runs
    prg.wait_optimised()
    times["optimised"] = time.perf_counter() - t3
print(json.dumps(times))
"""

# What makes cl2c's warm cache a user's: it holds some programs, and so the runtime compiled
# ahead for both tiers (cl2c/precompiled.py), which this waits for.
CL2C_IN_USE = r"""
import sys, time
from pathlib import Path
import cl2c
from cl2c import precompiled
from cl2c.cache import host_target
for n in range(precompiled.IN_USE + 1):
    prg = cl2c.Program(f"kernel void in_use_{n}(global int *a) {{ *a = {n}; }}").build()
    if prg.tier == "fast":
        prg.wait_optimised()
made = ["runtime-*/" + precompiled.OBJECT] + (["runtime-*/cl2c/cl2c.h.gch"]
                                              if host_target().gcc else [])
deadline = time.monotonic() + 120
while any(len(list(Path(sys.argv[1]).glob(m))) < 2 for m in made):
    if time.monotonic() > deadline:
        sys.exit("the runtime was not compiled ahead in 120 s")
    time.sleep(0.05)
print("{}")
"""

OPENCL_CHILD = r"""
import json, os, sys, time
t0 = time.perf_counter()
import pyopencl as cl
t1 = time.perf_counter()
platform = cl.get_platforms()[int(sys.argv[2])]
device = platform.get_devices()[int(sys.argv[3])]
ctx = cl.Context([device])
queue = cl.CommandQueue(ctx)
t2 = time.perf_counter()
src = open(sys.argv[1]).read() + os.environ.get("STARTUP_EXTRA", "")
t3, c3 = time.perf_counter(), time.process_time()
prg = cl.Program(ctx, src).build()
t4, c4 = time.perf_counter(), time.process_time()
times = {"import": t1 - t0, "setup": t2 - t1, "build": t4 - t3, "build CPU": c4 - c3}
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


def device_indices(cl, device) -> tuple[int, int]:
    """(platform index, device index) of ``device``, for a child process to find it."""
    for i, p in enumerate(cl.get_platforms()):
        for j, d in enumerate(p.get_devices()):
            if d == device:
                return i, j
    raise LookupError(f"device {device.name} not found")


def run_child(code: str, args: list[str], env: dict) -> dict:
    # in a folder of no package: `python -c` puts its folder first on the path, and from
    # a checkout's root the children imported the checkout, not the package installed
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                          text=True, env=env, cwd=tempfile.gettempdir())
    if proc.returncode != 0:
        raise RuntimeError(f"the child failed:\n{proc.stderr[-3000:]}")
    if proc.stderr.strip():
        print(proc.stderr.rstrip(), file=sys.stderr)
    sample = json.loads(proc.stdout.strip().splitlines()[-1])
    if "cl2c" in sample:        # which cl2c, without the machine's paths
        folder = Path(sample["cl2c"]).resolve()
        sample["cl2c"] = "checkout" if folder.is_relative_to(ROOT) else \
            f"installed ({folder.parent.name})"
    return sample


def child_environment() -> dict:
    env = dict(os.environ)
    # as an installed package runs: from bytecode (a checkout writes its __pycache__ once)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    # the cl2c users get, the installed package (its templates' code compiled as it was
    # built), where this process finds one; else this checkout
    if not _installed():
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [
            p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    return env


def _installed() -> bool:
    import importlib.util
    spec = importlib.util.find_spec("cl2c")
    return spec is not None and spec.origin is not None and \
        not Path(spec.origin).resolve().is_relative_to(ROOT)


def caches(env: dict, folder: Path) -> dict:
    """``env`` with every contender's build cache in ``folder``."""
    return dict(env, CL2C_CACHE_DIR=str(folder / "cl2c"), POCL_CACHE_DIR=str(folder / "pocl"),
                PYOPENCL_CACHE_DIR=str(folder / "pyopencl"))


def measure(program: Path, opencl: dict[str, tuple[int, int]], runs: int = 11,
            cold_runs: int = 3) -> dict[str, dict[str, list[dict]]]:
    """label -> {"hot": samples, "cold": samples}: ``runs`` processes of each contender
    with warm caches (after one that fills them), taking turns, and ``cold_runs`` with
    empty caches. ``opencl``: label -> (platform index, device index)."""
    program = Path(program).resolve()     # (the children run in another folder)
    contenders = {"cl2c": (CL2C_CHILD, [str(program)])}
    for label, (i, j) in opencl.items():
        contenders[label] = (OPENCL_CHILD, [str(program), str(i), str(j)])
    env = child_environment()
    results = {name: {"hot": [], "cold": [], "new": []} for name in contenders}
    names = list(contenders)
    with tempfile.TemporaryDirectory(prefix="cl2c-startup-") as tmp:
        for r in range(cold_runs):
            for name in names:
                code, child_args = contenders[name]
                cold = caches(env, Path(tmp) / f"cold-{name}-{r}")
                results[name]["cold"].append(run_child(code, child_args, cold))
        warm = caches(env, Path(tmp) / "warm")
        for code, child_args in contenders.values():     # warm-up: fills the caches
            run_child(code, child_args, warm)
        run_child(CL2C_IN_USE, [warm["CL2C_CACHE_DIR"]], warm)
        for r in range(runs):
            for name in names[r % len(names):] + names[:r % len(names)]:
                code, child_args = contenders[name]
                results[name]["hot"].append(run_child(code, child_args, warm))
        for r in range(cold_runs):      # a program not built before, in warm caches
            for name in names:
                code, child_args = contenders[name]
                extra = f"\nkernel void startup_new_{r}(global int *a) {{ *a = {r}; }}\n"
                results[name]["new"].append(run_child(code, child_args,
                                                      dict(warm, STARTUP_EXTRA=extra)))
    return results


def summary(samples: list[float]) -> str:
    ms = [1e3 * s for s in samples]
    return f"{statistics.median(ms):8.1f} ({min(ms):6.1f}-{max(ms):6.1f})"


def table(results: dict[str, dict[str, list[dict]]]) -> str:
    """The figures as text: milliseconds, median (min-max)."""
    names, width = list(results), 24
    lines = ["milliseconds, median (min-max); a new process each",
             f"{'':<18}" + "".join(f"{n:>{width}}" for n in names)]

    def row(label, pick, which="hot"):
        cells = []
        for name in names:
            values = [v for v in map(pick, results[name][which]) if v is not None]
            cells.append(summary(values) if values else "-")
        lines.append(f"{label:<18}" + "".join(f"{c:>{width}}" for c in cells))

    for stage in STAGES[:3] + ("build CPU",) + STAGES[3:]:
        row(stage, lambda s, stage=stage: s.get(stage))
    row("import to built", lambda s: sum(s.get(k, 0.0) for k in SUM_TO_BUILT))
    row("cold build", lambda s: s["build"], "cold")
    row("cold to launch 1", lambda s: s["build"] + s["launch 1"] if "launch 1" in s else None,
        "cold")
    row("cold to -O3", lambda s: s.get("optimised"), "cold")
    row("new program", lambda s: s["build"], "new")
    row("new prog. to -O3", lambda s: s.get("optimised"), "new")
    missed = sum(not s.get("hit", True) for s in results.get("cl2c", {}).get("hot", []))
    if missed:
        lines.append(f"WARNING: {missed} of cl2c's warm builds were not cache hits")
    return "\n".join(lines)


def opencl_devices(want_pocl: bool, want_intel: bool, icd_folder: Path):
    """label -> (platform index, device index) of the OpenCL CPU platforms found (PoCL's,
    Intel's), and why each other one is left out."""
    sys.path.insert(0, str(HERE))
    import opencl_platforms as op
    intel_reason = None
    if want_intel:
        _, intel_reason = op.point_loader_at_runtimes(icd_folder)
    found, skipped = op.find_platforms(want_pocl, want_intel, intel_reason)
    devices = {}
    for c in found:
        devices[c.label] = device_indices(c.cl, c.device)
    return devices, skipped, {c.label: c.description for c in found}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("program", nargs="?", default=str(default_program()),
                    help="the OpenCL C file to build (default: %(default)s)")
    ap.add_argument("--runs", type=int, default=11, help="warm processes per contender")
    ap.add_argument("--cold", type=int, default=3, help="cold processes per contender")
    ap.add_argument("--no-pocl", action="store_true", help="leave PoCL out")
    ap.add_argument("--no-intel", action="store_true", help="leave Intel's runtime out")
    ap.add_argument("--json", help="write every sample here")
    args = ap.parse_args(argv)
    program = Path(args.program)
    if not program.is_file():
        print(f"startup.py: no program file {program} (give one)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="cl2c-startup-icd-") as icd:
        devices, skipped, descriptions = opencl_devices(not args.no_pocl, not args.no_intel,
                                                        Path(icd))
        print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {program}")
        for label, text in descriptions.items():
            print(f"  {label:<6} {text}")
        for label, why in skipped.items():
            print(f"  {label:<6} SKIPPED: {why}")
        results = measure(program, devices, args.runs, args.cold)
    print(table(results))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
