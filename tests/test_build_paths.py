"""Every way a build can go gives the same program.

A build translates and compiles; or, where the kernel cache holds the C it translates
to, translates and loads that; or, where the cache knows the source, loads with no
translation. Each test kernel file goes through the three, each in a new process that
first fills the C heap with its own pattern (build_paths_run.py), and every kernel's
results must be the same byte for byte: whatever differs between the paths (the C, the
compile, the kernel's description, the argument marshalling, or memory the kernel reads
before it writes) shows here.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import KERNELS_DIR

RUNNER = Path(__file__).with_name("build_paths_run.py")
# Options a file's kernels need beyond the default; the rest build with none.
OPTIONS = {"atomics_c11.cl": "-cl-std=CL2.0", "generic_spaces.cl": "-cl-std=CL2.0",
           "program_globals.cl": "-cl-std=CL2.0", "subgroups.cl": "-cl-std=CL2.0",
           "collectives.cl": "-cl-std=CL2.0", "matmul.cl": "-DDIM=16"}
PATHS = ("translated and compiled", "translated, then found compiled",
         "found from the source")


def _run(path: Path, pattern: int, cache: Path) -> dict:
    # one thread: arguments made up may make groups race, which would then differ
    # from run to run, not from path to path
    env = dict(os.environ, CL2C_CACHE_DIR=str(cache), OMP_NUM_THREADS="1")
    env.pop("CL2C_NO_CACHE", None)
    out = cache.parent / f"results_{pattern}.json"
    done = subprocess.run([sys.executable, str(RUNNER), str(path), str(pattern), str(out),
                           OPTIONS.get(path.name, "")], env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", sorted(KERNELS_DIR.glob("*.cl")), ids=lambda p: p.name)
def test_every_build_path_gives_the_same_results(path, tmp_path):
    if path.name == "images.cl":
        pytest.skip("its kernels all take images, which build_paths_run.py does not make "
                    "(test_images.py runs them on every schedule)")
    cache = tmp_path / "cache"
    runs = [_run(path, 0xA5, cache)]
    for manifest in cache.rglob("src_*.json"):     # the source-keyed entries only
        manifest.unlink()
    runs.append(_run(path, 0x5A, cache))
    runs.append(_run(path, 0xFF, cache))
    assert tuple(r["path"] for r in runs) == PATHS
    first = runs[0]["results"]
    assert any(len(v) == 64 for v in first.values()), f"no kernel of {path.name} ran: {first}"
    for run in runs[1:]:
        for name, result in first.items():
            assert run["results"][name] == result, f"{name}: {run['path']}"
