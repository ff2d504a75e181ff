"""What checking mode (-cl2c-check) costs on the bench kernels: the time of a launch of
the checking build over the normal build's, and that it finds nothing in them.

    python bench/check_cost.py [--quick] [--reps N] [--corpus gpu] [bench.py's size options]

Both builds run the same arguments on the same threads; the best of N launches each.
The middle column is -cl2c-check-barriers (kernels with barriers on fibers, which
checking mode also takes): what of the cost is the schedule's.
A finding of the checking build (it runs with -cl2c-check=collect) is printed and
makes the exit status 1.
"""
from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path

import numpy as np

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))

from bench import Cl2cContender, own_args, parse_args  # noqa: E402
from cases import make_cases  # noqa: E402
from gpu_cases import make_gpu_cases  # noqa: E402


def best_of(run, reps: int) -> float:
    best = float("inf")
    for _ in range(reps):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


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
    for case in cases:
        times = []
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
                            findings += 1
                times.append(best_of(run, reps))
        print(f"{case.label:<34} {case.local_text():>8} {times[0] * 1e3:10.3f} "
              f"{times[1] * 1e3:10.3f} {times[2] * 1e3:10.3f} {times[2] / times[0]:6.2f}",
              flush=True)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
