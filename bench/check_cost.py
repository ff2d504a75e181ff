"""What checking mode (-cl2c-check) costs on the bench kernels: the time of a launch of
the checking build over the normal build's, and that it finds nothing in them.

    python bench/check_cost.py [--quick] [--reps N] [--corpus gpu] [--json PATH]
                               [bench.py's size options]

Both builds run the same arguments on the same threads, their launches in turn; the
best of N launches each. The middle column is -cl2c-check-barriers (kernels with
barriers on fibers, which checking mode also takes): what of the cost is the schedule's.
A finding of the checking build (it runs with -cl2c-check=collect) is printed and
makes the exit status 1. --json writes every sample, with the commit and the machine
(the docs draw their table of checking's cost from such a file: docs/data/).
"""
from __future__ import annotations

import json
import os
import platform
import sys
import time
import warnings
from pathlib import Path

import numpy as np

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))

from bench import Cl2cContender, measured_commit, own_args, parse_args, portable  # noqa: E402
from cases import make_cases  # noqa: E402
from gpu_cases import make_gpu_cases  # noqa: E402


def timed(run) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def main(argv=None) -> int:
    import cl2c
    args = parse_args(argv)
    reps = args.reps or 5
    make = make_gpu_cases if args.corpus == "gpu" else make_cases
    cases = make(args, np.random.default_rng(1234))
    if args.only:
        cases = [c for c in cases if c.key in args.only]
    findings = 0
    variants = ("", "-cl2c-check-barriers", "-cl2c-check=collect")
    contenders = [Cl2cContender(v) for v in variants]
    print(f"{'kernel':<34} {'local':>8} {'normal ms':>10} {'fibers ms':>10} "
          f"{'check ms':>10} {'ratio':>6}")
    rows = []
    for case in cases:
        runs, found = [], 0
        for options, contender in zip(variants, contenders):
            prg = contender.build(case)
            # a sample as make bench runs it: the case's launches (a host loop's too)
            run, _, reset = contender.launcher(case, own_args(case), prg)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", cl2c.CheckWarning)
                reset()
                run()                      # warm up (and page in the shadow)
            if options.startswith("-cl2c-check="):
                for name in sorted(case.kernel_names()):
                    for f in getattr(prg, name).findings:
                        print("  finding:", f)
                        found += 1
            runs.append(run)
        samples: list[list[float]] = [[] for _ in runs]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", cl2c.CheckWarning)
            for _ in range(reps):          # the builds in turn
                for run, kept in zip(runs, samples):
                    kept.append(timed(run))
        best = [min(kept) for kept in samples]
        findings += found
        print(f"{case.label:<34} {case.local_text():>8} {best[0] * 1e3:10.3f} "
              f"{best[1] * 1e3:10.3f} {best[2] * 1e3:10.3f} {best[2] / best[0]:6.2f}",
              flush=True)
        rows.append({"kernel": case.label, "local": case.local_text(), "findings": found,
                     **{f"{what}_ms": [t * 1e3 for t in kept]
                        for what, kept in zip(("normal", "fibers", "check"), samples)}})
    if args.json:
        from cl2c.target import _cpu_model as cpu_model   # (the cache's key reads it too)
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(portable({
            "what": "bench/check_cost.py: each kernel's launch, best of the samples; "
                    "normal build, -cl2c-check-barriers, -cl2c-check=collect",
            "commit": measured_commit(), "date": time.strftime("%Y-%m-%d"),
            "machine": {"cpus": os.cpu_count(), "processor": cpu_model(),
                        "python": platform.python_version(), "compiler": _compiler()},
            "args": vars(args), "rows": rows}), indent=1))
        print(f"JSON: {args.json}")
    return 1 if findings else 0


def _compiler() -> str:
    """The first line of --version of the C compiler cl2c builds with."""
    import subprocess
    from cl2c.target import target_environment
    cc = list(target_environment()[0])
    try:
        out = subprocess.run([*cc, "--version"], capture_output=True, text=True, timeout=10)
        return out.stdout.splitlines()[0] if out.stdout else " ".join(cc)
    except OSError:
        return " ".join(cc)


if __name__ == "__main__":
    sys.exit(main())
