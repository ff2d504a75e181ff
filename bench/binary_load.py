#!/usr/bin/env python3
"""What loading a program binary costs (cl2c/binary.py), in a fresh process with no C
compiler on PATH, against a warm-cache ``Program.build()`` in a fresh process.

    python bench/binary_load.py [--runs 15] [KERNEL.cl ...]   # default: all bench kernels

Each run is a new Python process (imports not counted); the parts: decode (the header
and the sha256 of the payload), check (the facts that decide whether the library runs
here: the translator's and runtime's digests, the CPU), load (the library from a memory
file, the kernels' marshalling). Medians in milliseconds.
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

CHILD = """
import json, sys, time
import cl2c, cl2c.loader, cl2c.build
from cl2c import binary
data = open(sys.argv[1], "rb").read()
t0 = time.perf_counter()
b = binary.ProgramBinary.decode(data)
t1 = time.perf_counter()
problem = b.unusable("extension")
t2 = time.perf_counter()
prg = cl2c.loader._program_of_binary(b, None)
t3 = time.perf_counter()
print(json.dumps([t1 - t0, t2 - t1, t3 - t2]))
"""

BUILD_CHILD = """
import json, sys, time, warnings
import cl2c, cl2c.loader
t0 = time.perf_counter()
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    cl2c.Program.from_file(sys.argv[1]).build()
print(json.dumps(time.perf_counter() - t0))
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("kernels", nargs="*")
    args = ap.parse_args()
    files = args.kernels or sorted(str(p) for p in (HERE / "kernels").glob("*.cl"))
    sys.path.insert(0, str(ROOT))
    import cl2c
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "empty"
        empty.mkdir()
        bare = dict(env, PATH=str(empty), CC="/nonexistent/cc")
        print(f"{'kernel':<16}{'bytes':>9}{'decode':>9}{'check':>9}{'load':>9}"
              f"{'total':>9}{'build (warm cache)':>20}")
        for f in files:
            prg = cl2c.Program.from_file(f).build()
            path = Path(tmp) / "p.bin"
            data = prg.to_bytes()
            path.write_bytes(data)
            parts = [json.loads(subprocess.run(
                [sys.executable, "-c", CHILD, str(path)], env=bare, capture_output=True,
                text=True, check=True).stdout) for _ in range(args.runs)]
            builds = [json.loads(subprocess.run(
                [sys.executable, "-c", BUILD_CHILD, f], env=env, capture_output=True,
                text=True, check=True).stdout) for _ in range(args.runs)]
            med = [statistics.median(p[i] for p in parts) * 1e3 for i in range(3)]
            total = statistics.median(sum(p) for p in parts) * 1e3
            print(f"{Path(f).stem:<16}{len(data):>9}" + "".join(f"{m:>9.2f}" for m in med) +
                  f"{total:>9.2f}{statistics.median(builds) * 1e3:>20.2f}")


if __name__ == "__main__":
    main()
