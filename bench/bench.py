#!/usr/bin/env python3
"""The benchmark: each kernel of bench/kernels/ through cl2c, PoCL, Intel's OpenCL CPU
runtime and hand-written C+OpenMP (bench/hand/), in one run.

    python bench/bench.py                  # the default sizes (`make bench`)
    python bench/bench.py --quick          # tiny sizes, 3 repetitions: a smoke test
    python bench/bench.py --threads 16 --reps 7 --no-pocl

Every contender runs each case once to warm up (PoCL and Intel compile there) and to
check its output against NumPy's (or cl2c's, where NumPy would be slow); then the
repetitions alternate the contenders, rotating their order. A sample is the wall time
of the call as seen from Python: cl2c's kernel call; enqueue + queue.finish() for
OpenCL (buffers made once, no transfers); the ctypes call of the hand C function.
Results go to bench/out/bench.json (or --json) and a plot to bench/out/bench.png.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import sys
import time
import warnings as pywarnings
from pathlib import Path

# NumPy's references (A @ B) run on OpenBLAS's threads, which spin for a while after each
# call: they took half the cores from the kernels timed next (tiled matmul 1.0 -> 1.8 ms
# on 2 cores, and worse on 16). The references need no threads of their own.
for _blas_threads in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_blas_threads, "1")

import numpy as np  # noqa: E402  (after the BLAS settings, which it reads once)

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))

from cases import CLASSES, Case, make_cases  # noqa: E402
from gpu_cases import CORPUS_CLASSES, make_gpu_cases  # noqa: E402
from outputs import output_hooks  # noqa: E402
from hand_c import Const, HandContender  # noqa: E402
import opencl_platforms  # noqa: E402

CONTENDERS = ("cl2c", "PoCL", "Intel", "hand C")   # the table's order


class Cl2cContender:
    label = "cl2c"

    def __init__(self, options: str):
        import cl2c
        self.cl2c = cl2c
        self.options = options
        self.description = f"cl2c {cl2c.__version__} from {Path(cl2c.__file__).parent}"
        self.programs: dict = {}
        self.builds: dict = {}

    def build(self, case: Case):
        key = (case.src, case.options)    # the source with the case's #define values
        if key not in self.programs:
            opts = " ".join(o for o in (self.options, case.options) if o)
            prg = self.cl2c.Program(case.src, options=opts,
                                    filename=str(BENCH_DIR / "kernels" / case.src_file))
            built = prg.build()
            if hasattr(type(built), "wait_optimised"):   # a cl2c older than its tiers has none
                built.wait_optimised()                   # timed on the optimised library
            schedule = next((ln.split(":", 1)[1].strip() for ln in prg.c_source.splitlines()
                             if ln.strip().startswith(f"*   {case.kernel}:")), "")
            self.programs[key] = prg
            self.builds[case.src_file] = {"build_s": prg.build_seconds,
                                          "from_cache": bool(prg.from_cache),
                                          "schedule": schedule}
        return self.programs[key]

    def launcher(self, case: Case, args: list, prg):
        from cases import Img, Local
        cl2c = self.cl2c
        mine = [cl2c.Image(a.array, "RGBA", "UNORM_INT8") if isinstance(a, Img)
                else cl2c.LocalMemory(a.nbytes) if isinstance(a, Local) else a for a in args]
        def prepare(name, g, l, picks):
            return (getattr(prg, name), g, l,
                    [p.value if isinstance(p, Const) else mine[p] for p in picks])

        def launch(calls):
            for knl, g, l, call_args in calls:
                knl(g, l, *call_args)

        run = case.host_loop(prepare, launch, lambda flag: not mine[flag].any())

        outputs, reset = output_hooks(case, args)
        if any(isinstance(mine[i], cl2c.Image) for i in case.outs):
            def outputs():
                return [mine[i].get() if isinstance(mine[i], cl2c.Image) else mine[i].copy()
                        for i in case.outs]
        return run, outputs, reset


# --------------------------------------------------------------------------- running
def own_args(case: Case) -> list:
    """The case's arguments with private copies of its outputs (inputs are shared), all
    arrays at a 128-byte boundary as an OpenCL runtime places its buffers (PoCL's and
    Intel's copies are; NumPy's arrays of over 128 KiB start 16 bytes past a line, which
    costs the tiled matmul at 1024^2 1.5-1.6x its time: docs/performance.md)."""
    case.args[:] = [_placed(a, copy=False) for a in case.args]    # once, then shared
    return [_placed(a, copy=True) if i in case.outs or i in case.scratch else a
            for i, a in enumerate(case.args)]


def _placed(a, copy: bool):
    if not isinstance(a, np.ndarray) or a.ndim == 0:
        return a
    if not copy and a.ctypes.data % 128 == 0 and a.flags.c_contiguous:
        return a
    raw = np.empty(a.nbytes + 128, np.uint8)
    start = (-raw.ctypes.data) % 128
    placed = raw[start:start + a.nbytes].view(a.dtype).reshape(a.shape)
    placed[...] = a
    return placed


def compare(case: Case, got: list, want: list) -> str | None:
    """None if the outputs agree, else what differs."""
    for k, (g, w) in enumerate(zip(got, want)):
        g, w = np.asarray(g).ravel(), np.asarray(w).ravel()
        if case.max_mismatch is not None:
            frac = np.count_nonzero(g != w) / max(1, g.size)
            if frac > case.max_mismatch:
                return f"output {k}: {frac:.2%} of elements differ (allowed {case.max_mismatch:.2%})"
            continue
        bad = ~np.isclose(g, w, rtol=case.rtol, atol=case.atol)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            return (f"output {k}: {np.count_nonzero(bad)} of {g.size} elements differ "
                    f"(first at {i}: {g[i]!r} vs {w[i]!r}; rtol {case.rtol}, atol {case.atol})")
    return None


def measured_commit() -> str:
    """The commit whose cl2c and kernels were measured (with -dirty for local changes):
    $CL2C_BENCH_COMMIT where it is set (a copy on another machine, whose git, if it has
    one, need not be the tree's), else git's."""
    import subprocess
    if os.environ.get("CL2C_BENCH_COMMIT"):
        return os.environ["CL2C_BENCH_COMMIT"]
    try:
        out = subprocess.run(["git", "describe", "--always", "--dirty", "--abbrev=12"],
                             cwd=BENCH_DIR, capture_output=True, text=True, timeout=10)
        if out.returncode == 0 and out.stdout.strip():
            return out.stdout.strip()
    except OSError:
        pass
    return "unknown"


# an absolute path (its last part in group 1)
_ABSOLUTE = re.compile(r"(?<![\w.~-])/(?:[^\s\"'/:,;()]+/)*([^\s\"'/:,;()]+)")


def portable(value):
    """``value`` (a run's record, for a JSON that may be committed) with the machine's
    paths out of it: the repository's own files relative to its root, any other
    absolute path (a compiler, a cache, an output file) by its last part alone."""
    root = str(BENCH_DIR.parent) + "/"
    if isinstance(value, str):
        return _ABSOLUTE.sub(lambda m: m.group(1), value.replace(root, ""))
    if isinstance(value, dict):
        return {k: portable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [portable(v) for v in value]
    return value


def stats_ms(samples: list[float]) -> dict:
    ms = sorted(s * 1e3 for s in samples)
    q = statistics.quantiles(ms, n=4) if len(ms) >= 2 else [ms[0]] * 3
    return {"median_ms": statistics.median(ms), "min_ms": ms[0], "max_ms": ms[-1],
            "q1_ms": q[0], "q3_ms": q[2], "samples_ms": [s * 1e3 for s in samples]}


def run_case(case: Case, contenders: list, reps: int, budget_s: float | None,
             warnings: list) -> dict:
    """Warm up and check every contender, then time `reps` rounds of them all (fewer,
    down to 3, where the warm-up says the rounds would take over `budget_s`)."""
    results: dict = {}
    runners: dict = {}
    for c in contenders:
        try:
            args = own_args(case)
            runners[c.label] = (c.launcher(case, args, c.build(case))
                                if c.label != "hand C" else c.launcher(case, args))
        except Exception as e:  # noqa: BLE001 - one contender failing skips only it
            msg = f"{type(e).__name__}: {str(e).strip()[:400]}"
            warnings.append(f"WARNING: {case.label}, local {case.local_text()}: "
                            f"{c.label} failed to build or launch: {msg}")
            results[c.label] = {"error": msg}

    outputs = {}
    for label, (run, get_outputs, reset) in list(runners.items()):
        try:
            reset()
            t = time.perf_counter()
            run()                                    # warm-up, and the output checked
            results[label] = {"first_ms": (time.perf_counter() - t) * 1e3}
            outputs[label] = get_outputs()
        except Exception as e:  # noqa: BLE001
            msg = f"{type(e).__name__}: {str(e).strip()[:400]}"
            warnings.append(f"WARNING: {case.label}: {label} failed at its first run: {msg}")
            results[label] = {"error": msg}
            del runners[label]

    reference, ref_name = None, None
    if case.ref is not None:
        reference, ref_name = case.ref(case.args), "NumPy"
    elif "cl2c" in outputs:
        reference, ref_name = outputs["cl2c"], "cl2c"
    elif outputs:
        ref_name = next(iter(outputs))
        reference = outputs[ref_name]
    for label, got in outputs.items():
        if label == ref_name:
            results[label]["output_ok"] = None       # it is the reference
            continue
        problem = compare(case, got, reference)
        results[label]["output_ok"] = problem is None
        if problem:
            results[label]["output_problem"] = problem
            warnings.append(f"WARNING: {case.label}, local {case.local_text()}: {label}'s "
                            f"output differs from {ref_name}'s: {problem}")
    if case.flops_per_output is not None and reference is not None:
        case.flops = case.flops_per_output * float(np.sum(reference[0], dtype=np.float64))

    if budget_s is not None:
        round_s = sum(r["first_ms"] for r in results.values() if "first_ms" in r) / 1e3
        reps = max(3, min(reps, int(budget_s / max(round_s, 1e-9))))
    samples: dict = {label: [] for label in runners}
    order = list(runners)
    for r in range(reps):
        k = r % len(order) if order else 0
        for label in order[k:] + order[:k]:
            run = runners[label][0]
            t = time.perf_counter()
            run()
            samples[label].append(time.perf_counter() - t)
    for label, s in samples.items():
        results[label].update(stats_ms(s))
        ms = results[label]["median_ms"]
        if case.bytes:
            results[label]["GB/s"] = case.bytes / (ms * 1e-3) / 1e9
        if case.flops:
            results[label]["GFLOP/s"] = case.flops / (ms * 1e-3) / 1e9
        launches = case.notes.get("launches") or (
            len(case.steps) if case.steps is not None else case.launches)
        if launches > 1:
            results[label]["us_per_launch"] = ms * 1e3 / launches
    return {"class": case.key, "kernel": case.label, "local": case.local_text(),
            "global": list(case.gsize), "reps": reps, "launches": case.launches,
            "reference": ref_name, "bytes": case.bytes, "flops": case.flops,
            "streaming": case.streaming, "notes": case.notes, "results": results}


def measure_stream(hand: HandContender, log2: int, reps: int) -> dict:
    """The machine's STREAM triad (a = b + s*c on floats) through the hand C."""
    import ctypes
    n = 1 << log2
    a, b, c = np.zeros(n, np.float32), np.ones(n, np.float32), np.ones(n, np.float32)
    fn = hand.lib.hand_triad
    fn.restype = None
    cargs = [ctypes.c_void_p(v.ctypes.data) for v in (a, b, c)]
    fn(*cargs, ctypes.c_float(3.0), ctypes.c_long(n))
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn(*cargs, ctypes.c_float(3.0), ctypes.c_long(n))
        times.append(time.perf_counter() - t)
    best, med = min(times), statistics.median(times)
    return {"floats": n, "reps": reps, "bytes": 12 * n, "best_ms": best * 1e3,
            "median_ms": med * 1e3, "best_GB/s": 12 * n / best / 1e9,
            "median_GB/s": 12 * n / med / 1e9}


# --------------------------------------------------------------------------- report
def _ms(v: float) -> str:
    return f"{v:.3g}" if v < 100 else f"{v:.0f}"


def print_tables(rows: list, labels: list, stream: dict) -> None:
    def cell_time(r):
        if r is None:
            return "-"
        if "median_ms" not in r:
            return "FAILED"
        return f"{_ms(r['median_ms'])} [{_ms(r['min_ms'])}-{_ms(r['max_ms'])}]"

    head = ["kernel", "local", *(f"{l} ms" for l in labels)]
    ratio_of = [l for l in labels if l != "hand C"] if "hand C" in labels else []
    head += [f"{l}/hand" for l in ratio_of] + ["outputs"]
    body = []
    for row in rows:
        res = row["results"]
        cells = [row["kernel"], row["local"], *(cell_time(res.get(l)) for l in labels)]
        hand = res.get("hand C", {}).get("median_ms")
        for l in ratio_of:
            m = res.get(l, {}).get("median_ms")
            cells.append(f"{m / hand:.2f}" if m and hand else "-")
        bad = [l for l in labels if res.get(l, {}).get("output_ok") is False]
        racing = f" ({row['notes']['races']})" if "races" in row.get("notes", {}) else ""
        cells.append("MISMATCH: " + ", ".join(bad) + racing if bad else
                     f"ok (vs {row['reference']})")
        body.append(cells)
    _print_aligned(head, body)
    print("ms: median [min-max] of the repetitions, per sample (the launch sequence: all "
          "its launches);\nX/hand: median over hand C's median (> 1: slower than hand C).")

    print(f"\nRates (from the medians). STREAM triad here: {stream['median_GB/s']:.1f} GB/s "
          f"median, {stream['best_GB/s']:.1f} best ({stream['floats']} floats); "
          f"% = of the median.")
    body = []
    for row in rows:
        res = row["results"]
        for unit in ("GB/s", "GFLOP/s", "us_per_launch"):
            if not any(unit in res.get(l, {}) for l in labels):
                continue
            cells = [row["kernel"], row["local"], unit.replace("us_per_launch", "us/launch")]
            for l in labels:
                v = res.get(l, {}).get(unit)
                if v is None:
                    cells.append("-")
                elif unit == "GB/s" and row["streaming"]:
                    cells.append(f"{v:.1f} ({100 * v / stream['median_GB/s']:.0f}%)")
                else:
                    cells.append(f"{v:.3g}")
            body.append(cells)
    _print_aligned(["kernel", "local", "unit", *labels], body)


def _print_aligned(head: list, body: list) -> None:
    widths = [max(len(h), *(len(b[i]) for b in body)) if body else len(h)
              for i, h in enumerate(head)]

    def line(cells):
        return "  ".join(c.ljust(w) if i < 2 else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()
    print(line(head))
    print("  ".join("-" * w for w in widths))
    for b in body:
        print(line(b))


# --------------------------------------------------------------------------- main
def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="tiny sizes, 3 repetitions")
    ap.add_argument("--reps", type=int, help="repetitions of every case (default 11; "
                    "7 for the matmuls and the launch sequence; --quick: 3)")
    ap.add_argument("--budget", type=float, default=20.0, help="seconds of repetitions "
                    "a case may take: fewer (down to 3) where the warm-up says it would "
                    "take longer (20; ignored with --reps)")
    ap.add_argument("--threads", type=int, help="threads for every contender "
                    "(OMP_NUM_THREADS, PoCL's and Intel's variables); default: theirs")
    ap.add_argument("--no-pocl", action="store_true", help="skip PoCL")
    ap.add_argument("--no-intel", action="store_true", help="skip Intel's runtime")
    ap.add_argument("--corpus", choices=("bench", "gpu"), default="bench",
                    help="bench: the kernels of kernels/*.cl (default); gpu: the "
                    "GPU-style corpus of kernels/gpu/ (gpu_cases.py)")
    ap.add_argument("--only", nargs="+", choices=CLASSES + CORPUS_CLASSES, metavar="CLASS",
                    help=f"run only these kernel classes: {', '.join(CLASSES)}; with "
                    f"--corpus gpu: {', '.join(CORPUS_CLASSES)}")
    ap.add_argument("--cl2c-options", default="", help="cl2c build options "
                    "(e.g. -cl2c-schedule=fibers)")
    ap.add_argument("--stream-log2", type=int, default=25,
                    help="copy, triad, reduction, histogram: 2^K elements (25)")
    ap.add_argument("--matmul-n", type=int, default=512, help="matmuls: N (512)")
    ap.add_argument("--stencil", type=int, nargs=2, default=[4096, 4096],
                    metavar=("NX", "NY"), help="stencil grid (4096 4096)")
    ap.add_argument("--nbody-n", type=int, default=8192, help="N-body bodies (8192)")
    ap.add_argument("--bs-log2", type=int, default=23, help="Black-Scholes: 2^K options (23)")
    ap.add_argument("--mandelbrot", type=int, nargs=2, default=[2048, 2048],
                    metavar=("W", "H"), help="Mandelbrot image (2048 2048)")
    ap.add_argument("--mandelbrot-iter", type=int, default=256, help="max iterations (256)")
    ap.add_argument("--launches", type=int, default=1000, help="launch sequence length (1000)")
    ap.add_argument("--launch-log2", type=int, default=12,
                    help="launch sequence: triad on 2^K floats (12)")
    ap.add_argument("--stream-triad-log2", type=int, default=26,
                    help="the STREAM triad measurement: 2^K floats (26)")
    ap.add_argument("--startup-runs", type=int, help="new processes per "
                    "contender that build from a warm cache (startup.py; 11; --quick and "
                    "--corpus gpu: 0, which leaves the startup table out)")
    ap.add_argument("--startup-cold", type=int, help="new processes per "
                    "contender that build with empty caches (3; --quick: 0)")
    ap.add_argument("--json", metavar="PATH", help="JSON output (bench/out/bench.json)")
    ap.add_argument("--png", metavar="PATH", help="plot (bench/out/bench.png)")
    ap.add_argument("--no-plot", action="store_true", help="no PNG")
    ap.add_argument("--out-dir", default=str(BENCH_DIR / "out"),
                    help="where the hand C library, ICD files, JSON and plot go")
    args = ap.parse_args(argv)
    if args.quick:
        args.stream_log2 = min(args.stream_log2, 16)
        args.matmul_n = min(args.matmul_n, 128)
        args.stencil = [min(args.stencil[0], 256), min(args.stencil[1], 256)]
        args.nbody_n = min(args.nbody_n, 512)
        args.bs_log2 = min(args.bs_log2, 14)
        args.mandelbrot = [min(args.mandelbrot[0], 128), min(args.mandelbrot[1], 128)]
        args.launches = min(args.launches, 100)
        args.stream_triad_log2 = min(args.stream_triad_log2, 20)
        args.reps = args.reps or 3
    if args.startup_runs is None:
        args.startup_runs = 0 if args.quick or args.corpus != "bench" else 11
    if args.startup_cold is None:
        args.startup_cold = 0 if args.quick else 3
    return args


def reps_for(case: Case, args) -> int:
    if args.reps:
        return args.reps
    return 7 if case.slow else 11


def main(argv=None) -> int:
    args = parse_args(argv)
    wall = time.perf_counter()
    out_dir = Path(args.out_dir)
    if args.threads:
        opencl_platforms.set_thread_count(args.threads)
    # Before pyopencl (or cl2c's OpenMP) is loaded: the ICD loader reads this once.
    intel_reason = None
    if not args.no_intel:
        _, intel_reason = opencl_platforms.point_loader_at_runtimes(out_dir / "icd")

    # PoCL's and Intel's build logs (pyopencl's CompilerWarning) are not news here.
    pywarnings.filterwarnings("ignore", message="Non-empty compiler output")
    cl2c_c = Cl2cContender(args.cl2c_options)
    # libgomp, which cl2c's kernels and the hand C share, reads its wait policy once, as the
    # first of them loads it: here the hand C, under cl2c's defaults, so that both run as a
    # cl2c user's kernels do (unless OMP_WAIT_POLICY or GOMP_SPINCOUNT say otherwise).
    from cl2c.threads import omp_defaults, wait_policy
    omp_wait = wait_policy()
    with omp_defaults():
        hand = HandContender(out_dir)
    found, skipped = opencl_platforms.find_platforms(not args.no_pocl, not args.no_intel,
                                                     intel_reason)
    by_label = {"cl2c": cl2c_c, "hand C": hand, **{c.label: c for c in found}}
    contenders = [by_label[l] for l in CONTENDERS if l in by_label]
    labels = [c.label for c in contenders]

    load = os.getloadavg()[0]
    env = {k: os.environ.get(k) for k in ("OMP_NUM_THREADS", "OMP_PROC_BIND", "OMP_WAIT_POLICY",
                                          "OCL_ICD_VENDORS", "CC", "CL2C_CACHE_DIR")}
    print(f"python {platform.python_version()}, numpy {np.__version__}, {os.cpu_count()} CPUs "
          f"({platform.processor() or platform.machine()}), "
          + ", ".join(f"{k}={v}" for k, v in env.items() if v))
    print(f"OpenMP threads between launches (cl2c and hand C): {omp_wait}")
    print(f"load average (1 min) at start: {load:.2f}"
          + ("  <- the machine is busy: times will be noisy" if load > 0.5 else ""))
    for c in contenders:
        print(f"  {c.label:<7} {c.description}")
    for label, why in skipped.items():
        print(f"  {label:<7} SKIPPED: {why}")

    stream = measure_stream(hand, args.stream_triad_log2, 11 if not args.quick else 3)
    print(f"STREAM triad (hand C, {stream['floats']} floats): {stream['median_GB/s']:.1f} GB/s "
          f"median, {stream['best_GB/s']:.1f} best")

    make = make_gpu_cases if args.corpus == "gpu" else make_cases
    cases = make(args, np.random.default_rng(1234))
    if args.only:
        cases = [c for c in cases if c.key in args.only]
        if not cases:
            classes = CORPUS_CLASSES if args.corpus == "gpu" else CLASSES
            print(f"bench.py: --only {' '.join(args.only)}: no such class in --corpus "
                  f"{args.corpus} (its classes: {', '.join(classes)})", file=sys.stderr)
            return 2
    warnings: list[str] = []
    rows = []
    print("\nRunning (warm-up and output check, then alternating repetitions):")
    for case in cases:
        t = time.perf_counter()
        reps = reps_for(case, args)
        row = run_case(case, contenders, reps, None if args.reps else args.budget, warnings)
        rows.append(row)
        meds = ", ".join(f"{l} {_ms(r['median_ms'])}" for l, r in row["results"].items()
                         if "median_ms" in r)
        print(f"  {case.label:<34} local {case.local_text():<6} {meds} ms  "
              f"({row['reps']} reps, {time.perf_counter() - t:.1f} s)", flush=True)

    print()
    print_tables(rows, labels, stream)
    for w in warnings:
        print(w)

    startup_results = None
    if args.startup_runs > 0:
        import startup
        program = startup.default_program()
        print(f"\nWaiting for a built program in a new process ({program.name}; "
              f"bench/startup.py):")
        startup_results = startup.measure(
            program, {c.label: startup.device_indices(c.cl, c.device) for c in found},
            args.startup_runs, args.startup_cold)
        print(startup.table(startup_results))

    builds = {"cl2c": cl2c_c.builds, "hand C": hand.build_info,
              **{c.label: c.build_seconds for c in found}}
    results = {
        "commit": measured_commit(),
        "machine": {"cpus": os.cpu_count(), "processor": platform.processor(),
                    "python": platform.python_version(), "numpy": np.__version__,
                    "loadavg_start": load, "loadavg_end": os.getloadavg()[0], "env": env,
                    "omp_wait": omp_wait},
        "args": vars(args), "contenders": {c.label: c.description for c in contenders},
        "skipped": skipped, "stream_triad": stream, "builds": builds, "rows": rows,
        "startup": startup_results,
        "warnings": warnings, "wall_s": time.perf_counter() - wall}
    stem = "bench" if args.corpus == "bench" else f"bench-{args.corpus}"
    json_path = Path(args.json) if args.json else out_dir / f"{stem}.json"
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(portable(results), indent=1))
    print(f"\nJSON: {json_path}")
    if not args.no_plot:
        import plot
        png = Path(args.png) if args.png else out_dir / f"{stem}.png"
        why_not = plot.draw(results, labels, png)
        print(f"plot: {png}" if why_not is None else f"no plot: {why_not}")
    print(f"wall time: {time.perf_counter() - wall:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
