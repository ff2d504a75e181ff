"""Cold builds of one program by installed cl2c trees, alternated, with their stages.

    python bench/cold_build.py [PROGRAM.cl] --tree before=/path/a --tree after=/path/b \
        [--rounds 3] [--json out.json]

Each tree is a folder where ``pip install --target`` put a cl2c (its dependencies come
from this Python's environment). In each round each tree builds the program once in a
new process, in an empty kernel cache, from a folder of no package, with ``CL2C_TIME=1``:
the sample is the build's time (``Program(src).build()``, imports done before) and the
stages it prints (``C compile and load``, the ``compiler probe`` that a new cache's build
also runs the translator's imports and the runtime's object's start in, and the stages'
total). ``bench/startup.py`` times whole processes the same way; this one says where a
cold build's time goes, tree against tree.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from startup import default_program

CHILD = r"""
import sys, time
import cl2c
cl2c.Program
src = open(sys.argv[1]).read()
t = time.perf_counter()
cl2c.Program(src).build()
print("BUILD", time.perf_counter() - t, cl2c.__file__)
"""
STAGES = ("compiler probe", "C compile and load", "total")


def sample(tree: Path, program: Path) -> dict:
    with tempfile.TemporaryDirectory(prefix="cl2c-cold-") as tmp:
        env = dict(os.environ, PYTHONPATH=str(tree), CL2C_TIME="1",
                   CL2C_CACHE_DIR=str(Path(tmp) / "cache"))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        proc = subprocess.run([sys.executable, "-c", CHILD, str(program)], cwd=tmp, env=env,
                              capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"the child failed:\n{proc.stderr[-3000:]}")
    _, seconds, imported = proc.stdout.split()[-3:]
    found = {"build": float(seconds) * 1e3, "cl2c": str(Path(imported).parent)}
    for stage in STAGES:
        m = re.search(rf"^\s+{re.escape(stage)}.*?\s([0-9.]+) ms", proc.stderr, re.M)
        if m:
            found[stage] = float(m.group(1))
    return found


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("program", nargs="?", type=Path, default=default_program())
    ap.add_argument("--tree", action="append", required=True, metavar="LABEL=FOLDER")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    trees = dict(t.split("=", 1) for t in args.tree)
    program = args.program.resolve()
    results: dict[str, list[dict]] = {label: [] for label in trees}
    for _ in range(args.rounds):
        for label, folder in trees.items():
            results[label].append(sample(Path(folder).resolve(), program))
            time.sleep(1)       # (the optimised tier's process: its own session, let it go)
    for label, samples in results.items():
        cells = [f"{key} {statistics.median(s[key] for s in samples):.0f} ms"
                 for key in ("build", *STAGES) if all(key in s for s in samples)]
        print(f"{label:>10}: " + ", ".join(cells))
    if args.json:
        args.json.write_text(json.dumps({"program": str(args.program),
                                         "rounds": args.rounds, "trees": results}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
