#!/usr/bin/env python3
"""cl2c against PoCL on three OpenCL kernels, side by side.

    python bench/bench.py                 # triad 2^25, matmul 1024^2, stencil 4096x4096
    python bench/bench.py --big           # the sizes of shared/PERF-NOTES.md
    python bench/bench.py --quick         # small sizes, 2 repetitions: a smoke test
    python bench/bench.py --json out.json

Kernels are in bench/kernels/*.cl. Each is built once with cl2c and once with
PoCL (pyopencl), both are run once to warm up and their outputs compared, then
the repetitions alternate cl2c and PoCL launches and the medians are reported.
cl2c is timed around the Python call (it returns after completion); PoCL around
enqueue + queue.finish(), with buffers created once (no transfers timed).

The "hand C" column is NOT measured by this script: it is the hand-written
C+OpenMP time from PERF-NOTES.md (same kind of 2-core machine), scaled linearly
to the problem size used here (by element count, or by N^3 for matmul).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

import cl2c

KERNEL_DIR = Path(__file__).resolve().parent / "kernels"

# Hand-written C+OpenMP and PoCL 3.1 medians (ms) from PERF-NOTES.md, with the
# problem size they were measured at (the unit that times scale with).
PERF_NOTES = {
    "triad": {"hand_ms": 52.8, "pocl_ms": 53.6, "work": 2 ** 27},          # floats
    "matmul": {"hand_ms": 98.0, "pocl_ms": 2766.0, "work": 1024 ** 3},     # N^3
    "stencil": {"hand_ms": 40.0, "pocl_ms": 88.0, "work": 8192 * 16384},   # grid points
    # Kernels with barriers. "fission_ms" is PERF-NOTES' "fission + 3 rewrites" column,
    # the target for the regions schedule. PERF-NOTES gives no sizes for the reduction
    # and the histogram: 2^27 input elements is assumed (the triad's size).
    "reduce": {"hand_ms": 20.6, "pocl_ms": 479.0, "fission_ms": 25.5, "work": 2 ** 27},
    "tiled": {"hand_ms": 61.0, "pocl_ms": 592.0, "fission_ms": 44.5, "work": 1024 ** 3},
    "histogram": {"hand_ms": 29.4, "pocl_ms": 511.0, "fission_ms": 70.0, "work": 2 ** 27},
    # Not in PERF-NOTES: no hand-written reference. work = body pairs (N^2).
    "nbody": {"work": 8192 ** 2},
}
SCHEDULES = ("regions", "fibers")


# --------------------------------------------------------------------------- PoCL
class Pocl:
    """A PoCL (or any CPU OpenCL) context, or the reason there is none."""

    def __init__(self, disabled: bool = False):
        self.cl = None
        self.reason = None
        self.device_name = None
        if disabled:
            self.reason = "disabled with --no-pocl"
            return
        try:
            import pyopencl as cl
        except Exception as e:  # noqa: BLE001 - any import problem means "skip"
            self.reason = f"pyopencl not importable ({type(e).__name__}: {e})"
            return
        try:
            devices = []
            for p in cl.get_platforms():
                try:
                    devices += p.get_devices(device_type=cl.device_type.CPU)
                except cl.Error:
                    pass
            if not devices:
                for p in cl.get_platforms():
                    devices += p.get_devices()
            if not devices:
                raise RuntimeError("no OpenCL device found")
            dev = devices[0]
            self.ctx = cl.Context([dev])
            self.queue = cl.CommandQueue(self.ctx)
            self.device_name = f"{dev.platform.name.strip()} / {dev.name.strip()}"
            self.cl = cl
        except Exception as e:  # noqa: BLE001
            self.reason = f"no usable OpenCL platform ({type(e).__name__}: {e})"

    @property
    def ok(self) -> bool:
        return self.cl is not None

    def build(self, src: str):
        t = time.perf_counter()
        prg = self.cl.Program(self.ctx, src).build()
        return prg, time.perf_counter() - t

    def buffer(self, arr: np.ndarray):
        mf = self.cl.mem_flags
        return self.cl.Buffer(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=arr)

    def read(self, buf, like: np.ndarray) -> np.ndarray:
        out = np.empty_like(like)
        self.cl.enqueue_copy(self.queue, out, buf)
        self.queue.finish()
        return out


# --------------------------------------------------------------------------- cases
class Case:
    """One kernel at one size: cl2c and PoCL launchers and the output to compare."""

    def __init__(self, name, label, src_file, kernel, gsize, host_args, out_index,
                 work, metric, metric_amount, rtol=1e-5, atol=1e-5, options="",
                 local=None):
        self.name = name              # key into PERF_NOTES
        self.label = label            # shown in the table
        self.src = (KERNEL_DIR / src_file).read_text()
        self.src_file = src_file
        self.kernel = kernel
        self.gsize = gsize
        self.host_args = host_args    # numpy arrays and numpy scalars, in kernel order
        self.out_index = out_index    # which argument the kernel writes
        self.work = work              # problem size in PERF_NOTES units
        self.metric = metric          # "GB/s" or "GFLOP/s"
        self.metric_amount = metric_amount  # bytes or flops per launch
        self.rtol, self.atol = rtol, atol
        self.options = options        # cl2c build options (the schedule)
        self.local = local            # the one local size to run, or None: try both


def make_cases(args) -> list[Case]:
    rng = np.random.default_rng(1234)
    cases = []

    n = 1 << args.triad_log2
    b = rng.random(n, dtype=np.float32)
    c = rng.random(n, dtype=np.float32)
    cases.append(Case("triad", f"triad 2^{args.triad_log2}", "triad.cl", "triad", (n,),
                      [np.zeros(n, np.float32), b, c, np.float32(3.0)], 0,
                      work=n, metric="GB/s", metric_amount=3 * 4 * n))

    N = args.matmul_n
    A = rng.random((N, N), dtype=np.float32)
    B = rng.random((N, N), dtype=np.float32)
    cases.append(Case("matmul", f"matmul {N}^2", "matmul.cl", "matmul", (N, N),
                      [A, B, np.zeros((N, N), np.float32), np.int32(N)], 2,
                      work=N ** 3, metric="GFLOP/s", metric_amount=2 * N ** 3,
                      rtol=1e-4, atol=1e-3 * N))

    nx, ny = args.stencil
    grid = rng.random((ny, nx), dtype=np.float32)
    cases.append(Case("stencil", f"stencil {nx}x{ny}", "stencil.cl", "stencil", (nx, ny),
                      [grid, np.zeros((ny, nx), np.float32), np.int32(nx), np.int32(ny)], 1,
                      work=nx * ny, metric="GB/s", metric_amount=2 * 4 * nx * ny))
    cases.append(nbody_case(args, rng))
    if not args.no_barriers:
        cases += barrier_cases(args, rng)
    return cases


def nbody_case(args, rng) -> Case:
    """All-pairs N-body step on float4 (x, y, z, mass): float4 loads, swizzles and
    arithmetic, a sqrt and a division per pair; 20 flops per pair counted."""
    n = args.nbody_n
    pos = rng.random((n, 4), dtype=np.float32)
    pos[:, 3] += 0.5                                  # masses in [0.5, 1.5)
    vel = np.zeros((n, 4), np.float32)
    return Case("nbody", f"nbody {n} float4", "nbody.cl", "nbody", (n,),
                [pos, vel, np.zeros_like(pos), np.zeros_like(vel), np.int32(n),
                 np.float32(0.01), np.float32(0.01)], 2,
                work=n * n, metric="GFLOP/s", metric_amount=20 * n * n,
                rtol=1e-3, atol=1e-4)


def barrier_cases(args, rng) -> list[Case]:
    """The reduction, tiled matmul and histogram, once per schedule."""
    cases = []
    n = 1 << args.reduce_log2
    x = rng.random(n, dtype=np.float32)
    for sched in SCHEDULES:
        opt = f"-cl2c-schedule={sched}"
        cases.append(Case("reduce", f"reduce 2^{args.reduce_log2} [{sched}]", "reduce.cl",
                          "reduce", (n // 2,), [x, np.zeros(n // 512, np.float32)], 1,
                          work=n, metric="GB/s", metric_amount=4 * n, rtol=1e-4, atol=1e-4,
                          options=opt, local=(256,)))
        N = args.tiled_n
        A = rng.random((N, N), dtype=np.float32)
        B = rng.random((N, N), dtype=np.float32)
        cases.append(Case("tiled", f"tiled {N}^2 [{sched}]", "tiled.cl", "tiled", (N, N),
                          [A, B, np.zeros((N, N), np.float32), np.int32(N)], 2,
                          work=N ** 3, metric="GFLOP/s", metric_amount=2 * N ** 3,
                          rtol=1e-4, atol=1e-3 * N, options=opt, local=(16, 16)))
        m = 1 << args.hist_log2
        data = rng.integers(0, 256, m, dtype=np.uint8)
        groups = 512
        cases.append(Case("histogram", f"histogram 2^{args.hist_log2} [{sched}]",
                          "histogram.cl", "histogram", (256 * groups,),
                          [data, np.int32(m), np.zeros(256, np.uint32)], 2,
                          work=m, metric="GB/s", metric_amount=m, rtol=0, atol=0,
                          options=opt, local=(256,)))
    return cases


def explicit_local(gsize):
    """The explicit local size tried besides None: 256, or 16x16 in 2-D."""
    if len(gsize) == 1:
        return (256,) if gsize[0] % 256 == 0 else None
    if gsize[0] % 16 == 0 and gsize[1] % 16 == 0:
        return (16, 16)
    return None


# --------------------------------------------------------------------------- timing
def median_ms(samples):
    return statistics.median(samples) * 1e3 if samples else None


pocl_kernels: dict = {}


def run_case(case: Case, local, cl2c_prg, pocl: Pocl, pocl_prg, reps: int, warnings: list):
    """Warm up, compare outputs, then time `reps` alternating launches of each."""
    knl = getattr(cl2c_prg, case.kernel)
    out = case.host_args[case.out_index]
    gsize = tuple(case.gsize)
    lsize = tuple(local) if local is not None else None
    tag = f"{case.label}, local {fmt_local(local)}"

    def cl2c_launch():
        knl(gsize, lsize, *case.host_args)

    out[...] = 0
    t = time.perf_counter()
    cl2c_launch()                      # warm-up (and the output to check)
    first_cl2c = time.perf_counter() - t
    ref = out.copy()

    pocl_launch = None
    first_pocl = None
    if pocl.ok and pocl_prg is not None:
        bufs = [pocl.buffer(a) if isinstance(a, np.ndarray) else a for a in case.host_args]
        # One cl.Kernel per case (pyopencl warns when prg.<name> is retrieved repeatedly).
        pk = pocl_kernels.setdefault(case.name, pocl.cl.Kernel(pocl_prg, case.kernel))
        q = pocl.queue

        def pocl_launch():
            pk(q, gsize, lsize, *bufs)
            q.finish()

        pocl.cl.enqueue_copy(q, bufs[case.out_index], np.zeros_like(out))
        q.finish()
        t = time.perf_counter()
        pocl_launch()                  # warm-up: PoCL compiles at the first launch
        first_pocl = time.perf_counter() - t
        got = pocl.read(bufs[case.out_index], out)
        try:
            np.testing.assert_allclose(ref, got, rtol=case.rtol, atol=case.atol)
            agree = True
        except AssertionError as e:
            agree = False
            msg = str(e).strip().splitlines()
            warnings.append(f"WARNING: {tag}: cl2c and PoCL outputs differ: "
                            + " | ".join(m.strip() for m in msg[1:4]))
    else:
        agree = None

    t_cl2c, t_pocl = [], []
    for _ in range(reps):
        t = time.perf_counter()
        cl2c_launch()
        t_cl2c.append(time.perf_counter() - t)
        if pocl_launch is not None:
            t = time.perf_counter()  # enqueue + finish: kernel execution only
            pocl_launch()
            t_pocl.append(time.perf_counter() - t)

    return {"first_launch_cl2c_ms": first_cl2c * 1e3,
            "first_launch_pocl_ms": None if first_pocl is None else first_pocl * 1e3,
            "samples_cl2c_ms": [s * 1e3 for s in t_cl2c],
            "samples_pocl_ms": [s * 1e3 for s in t_pocl],
            "cl2c_ms": median_ms(t_cl2c), "pocl_ms": median_ms(t_pocl),
            "outputs_agree": agree}


# --------------------------------------------------------------------------- report
def fmt_local(local):
    if local is None:
        return "None"
    return "x".join(str(v) for v in local)


def fmt(v, spec):
    return "-" if v is None else format(v, spec)


def rate(case, ms):
    if ms is None or ms <= 0:
        return None
    scale = 1e9
    return case.metric_amount / (ms * 1e-3) / scale


def print_table(rows):
    head = ["kernel", "local", "reps", "cl2c ms", "PoCL ms", "PoCL/cl2c", "cl2c rate",
            "PoCL rate", "hand C ms*", "cl2c/hand", "ok"]
    body = []
    for r in rows:
        body.append([r["kernel"], r["local"], str(r["reps"]), fmt(r["cl2c_ms"], ".2f"),
                     fmt(r["pocl_ms"], ".2f"), fmt(r["pocl_over_cl2c"], ".2f"),
                     f"{fmt(r['cl2c_rate'], '.1f')} {r['metric']}",
                     f"{fmt(r['pocl_rate'], '.1f')} {r['metric']}" if r["pocl_rate"] else "-",
                     fmt(r["hand_ms_scaled"], ".1f" if (r["hand_ms_scaled"] or 0) >= 10 else ".2f"), fmt(r["cl2c_over_hand"], ".2f"),
                     {True: "yes", False: "NO", None: "-"}[r["outputs_agree"]]])
    widths = [max(len(h), *(len(b[i]) for b in body)) for i, h in enumerate(head)]
    right = set(range(2, len(head) - 1))

    def line(cells):
        return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths)))
    print(line(head))
    print("  ".join("-" * w for w in widths))
    for b in body:
        print(line(b))
    print("* hand C ms: hand-written C+OpenMP time from shared/PERF-NOTES.md (not measured "
          "now),\n  scaled linearly to this problem size; cl2c/hand > 1 means cl2c is slower. "
          "PoCL/cl2c > 1 means cl2c is faster.")


# --------------------------------------------------------------------------- main
def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--triad-log2", type=int, default=25, help="triad size 2^K floats (25)")
    ap.add_argument("--matmul-n", type=int, default=1024, help="matmul N (1024)")
    ap.add_argument("--stencil", type=int, nargs=2, default=[4096, 4096],
                    metavar=("NX", "NY"), help="stencil grid (4096 4096)")
    ap.add_argument("--big", action="store_true",
                    help="PERF-NOTES sizes: triad 2^27, stencil 8192x16384")
    ap.add_argument("--quick", action="store_true",
                    help="small sizes, 2 repetitions (smoke test)")
    ap.add_argument("--reps", type=int, default=None,
                    help="repetitions for fast kernels (default 11; matmul gets fewer)")
    ap.add_argument("--no-explicit-local", action="store_true",
                    help="only run with local size None (skip 256 / 16x16)")
    ap.add_argument("--nbody-n", type=int, default=8192, help="N-body bodies (8192)")
    ap.add_argument("--reduce-log2", type=int, default=25, help="reduction input 2^K (25)")
    ap.add_argument("--tiled-n", type=int, default=1024, help="tiled matmul N (1024)")
    ap.add_argument("--hist-log2", type=int, default=25, help="histogram input 2^K (25)")
    ap.add_argument("--no-barriers", action="store_true",
                    help="skip the kernels with barriers (reduce, tiled, histogram)")
    ap.add_argument("--only", nargs="+",
                    choices=["triad", "matmul", "stencil", "nbody", "reduce", "tiled",
                             "histogram"],
                    help="run only these kernels")
    ap.add_argument("--no-pocl", action="store_true", help="time cl2c only")
    ap.add_argument("--json", metavar="PATH", help="also write the results as JSON here")
    args = ap.parse_args(argv)
    if args.big:
        args.triad_log2 = 27
        args.reduce_log2 = args.hist_log2 = 27
        args.stencil = [8192, 16384]
    if args.quick:
        args.triad_log2 = min(args.triad_log2, 20)
        args.matmul_n = min(args.matmul_n, 128)
        args.stencil = [min(args.stencil[0], 512), min(args.stencil[1], 512)]
        args.nbody_n = min(args.nbody_n, 1024)
        args.reduce_log2 = min(args.reduce_log2, 18)
        args.tiled_n = min(args.tiled_n, 128)
        args.hist_log2 = min(args.hist_log2, 18)
        args.reps = 2 if args.reps is None else args.reps
    return args


def reps_for(case, args, pocl_ms_guess=None):
    if args.reps is not None:
        return args.reps
    # matmul is seconds per launch for both sides at 1024^2: keep the run short.
    if case.name == "matmul":
        return 3 if case.work >= 1024 ** 3 else 7
    return 11


def main(argv=None):
    args = parse_args(argv)
    print(f"cl2c {cl2c.__version__} from {Path(cl2c.__file__).parent}")
    print(f"python {platform.python_version()}, numpy {np.__version__}, "
          f"{os.cpu_count()} CPUs, OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}, "
          f"CL2C_CACHE_DIR={os.environ.get('CL2C_CACHE_DIR', 'default')}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    if load is not None:
        print(f"load average (1 min) at start: {load:.2f}"
              + ("  <- WARNING: the machine is busy, times will be noisy" if load > 0.5 else ""))
    pocl = Pocl(disabled=args.no_pocl)
    if pocl.ok:
        print(f"OpenCL device: {pocl.device_name}")
    else:
        print(f"PoCL SKIPPED: {pocl.reason}; timing cl2c only")

    cases = make_cases(args)
    if args.only:
        cases = [c for c in cases if c.name in args.only]

    results = {"cl2c_version": cl2c.__version__, "pocl_device": pocl.device_name,
               "pocl_skipped_reason": pocl.reason, "quick": args.quick,
               "perf_notes_reference": PERF_NOTES, "loadavg_start": load,
               "builds": [], "rows": [], "warnings": []}
    warnings = results["warnings"]

    print("\nBuilds:")
    built = {}
    for case in cases:
        prg = cl2c.Program(case.src, options=case.options,
                           filename=str(KERNEL_DIR / case.src_file)).build()
        schedule = ""
        for ln in prg.c_source.splitlines():
            if ln.strip().startswith(f"*   {case.kernel}:"):
                schedule = ln.split(":", 1)[1].strip()
        pocl_prg, pocl_s = (None, None)
        if pocl.ok:
            try:
                pocl_prg, pocl_s = pocl.build(case.src)
            except Exception as e:  # noqa: BLE001
                warnings.append(f"WARNING: PoCL build of {case.src_file} failed: {e}")
        built[case.label] = (prg, pocl_prg)
        print(f"  {case.src_file:<12} cl2c build {prg.build_seconds * 1e3:7.1f} ms "
              f"({'from cache' if prg.from_cache else 'cache miss: translated + compiled'})"
              + (f", PoCL build {pocl_s * 1e3:7.1f} ms (+ compile at first launch)"
                 if pocl_s is not None else "")
              + (f"\n  {'':<12} cl2c schedule: {schedule}" if schedule else ""))
        results["builds"].append({"kernel": case.name, "cl2c_build_s": prg.build_seconds,
                                  "cl2c_from_cache": bool(prg.from_cache),
                                  "cl2c_schedule": schedule, "pocl_build_s": pocl_s})

    print("\nRunning (median of the repetitions; first launches are warm-ups):")
    rows = results["rows"]
    t_start = time.perf_counter()
    for case in cases:
        prg, pocl_prg = built[case.label]
        locals_ = [None]
        if case.local is not None:
            locals_ = [case.local]
        elif not args.no_explicit_local and explicit_local(case.gsize):
            locals_.append(explicit_local(case.gsize))
        for local in locals_:
            reps = reps_for(case, args)
            t0 = time.perf_counter()
            r = run_case(case, local, prg, pocl, pocl_prg, reps, warnings)
            ref = PERF_NOTES[case.name]
            hand = ref["hand_ms"] * case.work / ref["work"] if "hand_ms" in ref else None
            row = {"kernel": case.label, "name": case.name, "local": fmt_local(local),
                   "global": list(case.gsize), "reps": reps, **r,
                   "pocl_over_cl2c": (r["pocl_ms"] / r["cl2c_ms"]
                                      if r["pocl_ms"] and r["cl2c_ms"] else None),
                   "metric": case.metric,
                   "cl2c_rate": rate(case, r["cl2c_ms"]), "pocl_rate": rate(case, r["pocl_ms"]),
                   "hand_ms_scaled": hand, "hand_ms_source": "PERF-NOTES.md (not measured now)",
                   "cl2c_over_hand": r["cl2c_ms"] / hand if r["cl2c_ms"] and hand else None}
            if "fission_ms" in ref and r["cl2c_ms"]:
                row["cl2c_over_fission"] = r["cl2c_ms"] / (ref["fission_ms"] * case.work
                                                           / ref["work"])
            if case.name == "reduce" and "fibers" in case.options and r["cl2c_ms"]:
                # 9 barriers for each of the n/2 work-items
                row["fiber_ns_per_item_barrier"] = r["cl2c_ms"] * 1e6 / (case.gsize[0] * 9)
            rows.append(row)
            print(f"  {case.label:<20} local {fmt_local(local):<6} cl2c {fmt(r['cl2c_ms'], '9.2f')}"
                  f" ms, PoCL {fmt(r['pocl_ms'], '9.2f')} ms   "
                  f"({time.perf_counter() - t0:.1f} s)", flush=True)

    if load is not None:
        results["loadavg_end"] = os.getloadavg()[0]
    print(f"\nResults ({time.perf_counter() - t_start:.0f} s of runs; "
          f"{'PoCL skipped: ' + pocl.reason if not pocl.ok else 'PoCL: ' + pocl.device_name}):\n")
    print_table(rows)
    for r in rows:
        if "cl2c_over_fission" in r:
            print(f"  {r['kernel']:<32} cl2c / PERF-NOTES 'fission + 3 rewrites' (scaled): "
                  f"{r['cl2c_over_fission']:.2f}")
        if "fiber_ns_per_item_barrier" in r:
            print(f"  {r['kernel']:<32} fibers: {r['fiber_ns_per_item_barrier']:.1f} ns per "
                  f"work-item per barrier (all of the kernel's time counted)")
    for w in warnings:
        print(w)
    if any(r["outputs_agree"] is False for r in rows):
        print("WARNING: at least one kernel's cl2c and PoCL outputs disagree (see above)")

    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
        print(f"\nJSON written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
