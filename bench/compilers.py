#!/usr/bin/env python3
"""The bench kernels under every C compiler found: cl2c's C and the hand-written C, both
built by each compiler, timed in alternating rounds (one bench.py process a compiler a
round, the compilers' order rotating), and each kernel's spread over the compilers.

    python bench/compilers.py                       # gcc, gcc-N, clang, clang-N on PATH
    python bench/compilers.py --cc gcc-12 clang-15 --rounds 3 -- --only nbody --quick

Options after `--` go to bench.py (its kernels and sizes; PoCL and Intel are left out:
they bring their own compilers). A compiler that cannot build a kernel is reported, and
the others go on. Per kernel: the median of every round's samples for each compiler,
cl2c and hand C, and the spread (slowest / fastest compiler) of each. Results go to
bench/out/compilers.json (or --json).
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
COMPILER_NAME = re.compile(r"^(gcc|clang)(-\d+)?$")


def machine() -> str:
    """Where the run was, for a JSON that may be committed: CPUs, Python, the system."""
    try:
        system = platform.freedesktop_os_release().get("PRETTY_NAME", platform.system())
    except OSError:
        system = platform.system()
    return f"{os.cpu_count()} CPUs ({platform.machine()}), Python " \
           f"{platform.python_version()}, {system}"


def find_compilers() -> list[str]:
    """gcc, gcc-N, clang and clang-N on PATH, one name per distinct compiler (the
    first line of --version tells them apart; `gcc` and `gcc-12` are often one)."""
    names = set()
    for d in os.environ.get("PATH", "").split(os.pathsep):
        try:
            names.update(n for n in os.listdir(d) if COMPILER_NAME.match(n))
        except OSError:
            continue
    seen: dict[str, str] = {}
    for name in sorted(names, key=_version_order):
        path = os.path.realpath(shutil.which(name) or name)
        if compiler_version(name) and path not in seen.values():
            seen[name] = path
    return list(seen)


def openmp_problem(cc: str) -> str | None:
    """None where cc builds and runs an OpenMP program, else why not."""
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = Path(tmp) / "omp.c", Path(tmp) / "omp"
        src.write_text("#include <omp.h>\nint main(void) { int n = 0;\n"
                       "#pragma omp parallel reduction(+:n)\nn += 1;\n"
                       "return n == omp_get_max_threads() ? 0 : 1; }\n")
        p = subprocess.run([cc, "-fopenmp", str(src), "-o", str(exe)], capture_output=True,
                           text=True)
        if p.returncode != 0:
            first = (p.stderr or p.stdout).strip().splitlines()[:1] or ["no output"]
            return f"cannot build an OpenMP program ({first[0]}; clang needs libomp-N-dev)"
        if subprocess.run([str(exe)]).returncode != 0:
            return "its OpenMP program does not run"
    return None


def _version_order(name: str):
    family, _, number = name.partition("-")
    return (family, -int(number) if number else 0)


def compiler_version(cc: str) -> str | None:
    path = shutil.which(cc)
    if path is None:
        return None
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True,
                             timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.splitlines()[0].strip() if out else None


def run_round(cc: str, bench_args: list[str], json_path: Path) -> str | None:
    """One bench.py process under compiler cc; None, or why it failed."""
    env = dict(os.environ, CC=cc)
    cmd = [sys.executable, str(BENCH_DIR / "bench.py"), "--no-pocl", "--no-intel",
           "--no-plot", "--startup-runs", "0", "--json", str(json_path), *bench_args]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if p.returncode != 0 or not json_path.exists():
        return (p.stderr or p.stdout).strip().splitlines()[-1:] or ["no output"]
    return None


def collect(samples: dict, cc: str, data: dict) -> None:
    for row in data["rows"]:
        for label in ("cl2c", "hand C"):
            r = row["results"].get(label, {})
            key = (row["kernel"], label)
            if "samples_ms" in r:
                samples.setdefault(key, {}).setdefault(cc, []).extend(r["samples_ms"])
            elif "error" in r:
                samples.setdefault(key, {}).setdefault(cc, [])
                samples[key].setdefault("errors", {})[cc] = r["error"]


def table(samples: dict, compilers: list[str]) -> str:
    kernels = sorted({k for k, _ in samples}, key=list(dict.fromkeys(k for k, _ in samples))
                     .index)
    width = max(9, *(len(c) for c in compilers))
    lines = [f"{'kernel':<34} {'':<6} " + " ".join(f"{c:>{width}}" for c in compilers) +
             f" {'spread':>7}"]
    for k in kernels:
        for label in ("cl2c", "hand C"):
            per = samples.get((k, label), {})
            meds = {c: statistics.median(per[c]) for c in compilers if per.get(c)}
            cells = " ".join(f"{meds[c]:>{width}.3g}" if c in meds else f"{'failed':>{width}}"
                             for c in compilers)
            spread = max(meds.values()) / min(meds.values()) if len(meds) > 1 else 1.0
            lines.append(f"{k if label == 'cl2c' else '':<34} {label:<6} {cells} "
                         f"{spread:>6.2f}x")
    return "\n".join(lines)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--" in argv:
        cut = argv.index("--")
        argv, bench_args = argv[:cut], argv[cut + 1:]
    else:
        bench_args = []
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cc", nargs="+", help="compilers (default: those found on PATH)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds per compiler (3)")
    ap.add_argument("--json", metavar="PATH", help="bench/out/compilers.json")
    args = ap.parse_args(argv)
    compilers = args.cc or find_compilers()
    versions = {c: compiler_version(c) for c in compilers}
    missing = [c for c, v in versions.items() if v is None]
    if missing:
        print(f"compilers.py: not found or not runnable: {', '.join(missing)}",
              file=sys.stderr)
        return 2
    unusable = {c: why for c in compilers if (why := openmp_problem(c))}
    for c, why in unusable.items():
        print(f"  {c:<10} SKIPPED: {why}")
    compilers = [c for c in compilers if c not in unusable]
    versions = {c: versions[c] for c in compilers}
    if not compilers:
        print("compilers.py: no compiler builds OpenMP programs", file=sys.stderr)
        return 2
    if "--reps" not in bench_args:
        bench_args = ["--reps", "3", *bench_args]
    print("compilers:")
    for c, v in versions.items():
        print(f"  {c:<10} {v}")
    samples: dict = {}
    failures: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            order = compilers[r % len(compilers):] + compilers[:r % len(compilers)]
            for cc in order:
                path = Path(tmp) / f"{cc}-{r}.json"
                why = run_round(cc, bench_args, path)
                if why is not None:
                    failures.setdefault(cc, why)
                    print(f"  round {r + 1}, {cc}: FAILED: {why}", flush=True)
                    continue
                collect(samples, cc, json.loads(path.read_text()))
                print(f"  round {r + 1}, {cc}: done", flush=True)
    print("\nmedian ms per compiler (all rounds' samples):")
    print(table(samples, compilers))
    out = Path(args.json) if args.json else BENCH_DIR / "out" / "compilers.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    from bench import measured_commit, portable
    out.write_text(json.dumps(portable({
        "commit": measured_commit(), "date": datetime.date.today().isoformat(),
        "machine": machine(),
        "compilers": versions, "skipped": unusable, "bench_args": bench_args, "rounds": args.rounds,
        "failures": failures,
        "samples_ms": [{"kernel": k, "contender": label,
                        **{c: v for c, v in per.items() if c != "errors"},
                        "errors": per.get("errors", {})}
                       for (k, label), per in samples.items()]}), indent=1))
    print(f"\nJSON: {out}")
    return 1 if failures and len(failures) == len(compilers) else 0


if __name__ == "__main__":
    raise SystemExit(main())
