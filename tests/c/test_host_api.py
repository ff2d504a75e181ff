"""The C host API (cl2c/host.h and the generated headers), from C programs.

Two .cl files (scale.cl, offsets.cl: both define a helper named ``helper`` and
include shared.h) are translated with the ``cl2c`` command line and linked into
one program with ``-Wall -Wextra -Werror``; host_api.c checks the metadata,
launches and error messages, threads.c launches from two host threads at once.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
CC = os.environ.get("CC", "cc")
CFLAGS = ["-std=c11", "-O2", "-fopenmp", "-pthread", "-Wall", "-Wextra", "-Werror"]

pytestmark = pytest.mark.skipif(shutil.which(CC) is None,
                                reason=f"needs a C compiler ('{CC}' is not on PATH)")


def _run(cmd, **kw):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kw)
    assert proc.returncode == 0, f"{' '.join(map(str, cmd))}\n{proc.stdout}{proc.stderr}"
    return proc


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    """Both test programs, built once: {name: path}."""
    from cl2c.resources import runtime_include_dir
    work = tmp_path_factory.mktemp("c_api")
    for name in ("scale", "offsets"):
        _run([sys.executable, "-m", "cl2c.cli", str(HERE / f"{name}.cl"),
              "-o", str(work / f"{name}.c"), "-H", str(work / f"{name}.h")])
    built = {}
    for program in ("host_api", "threads"):
        exe = work / program
        _run([CC, *CFLAGS, f"-I{runtime_include_dir()}", f"-I{work}", str(HERE / f"{program}.c"),
              str(work / "scale.c"), str(work / "offsets.c"), "-o", str(exe), "-lm"])
        built[program] = exe
    return built


def _env(threads: int) -> dict:
    return dict(os.environ, OMP_NUM_THREADS=str(threads))


def test_metadata_launches_and_error_messages(programs):
    proc = subprocess.run([str(programs["host_api"])], capture_output=True, text=True,
                          timeout=120, env=_env(3))
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    assert "FAIL" not in out, out
    assert out.splitlines()[0] == "threads 3", out    # OMP_NUM_THREADS reaches the runtime
    for line in ("ok axpb argument 0 is float* x",
                 "ok fixed_group has reqd_work_group_size(8, 1, 1)",
                 "ok grid argument 2 is a __local int*, passed as its size",
                 "ok cl2c_launch of grid with an offset: only the offset block written",
                 "ok message: local size does not divide the global size",
                 "ok message: work-group too large",
                 "ok message: null buffer",
                 "ok message: a buffer misaligned for the kernel's loads",
                 "ok message: reqd_work_group_size"):
        assert line in out.splitlines(), out
    assert out.count("\nok ") == 36 and out.rstrip().endswith("0 failure(s)"), out


def test_two_host_threads_launch_at_once(programs):
    proc = subprocess.run([str(programs["threads"])], capture_output=True, text=True,
                          timeout=120, env=_env(2))
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    lines = out.splitlines()
    # Each host thread set its own OpenMP thread count; the main thread kept
    # OMP_NUM_THREADS.
    assert lines[0] == "thread A: ok axpb, at least 200 rounds, 0 wrong, 2 OpenMP threads", out
    assert lines[1] == ("thread B: ok grid + group_reverse, at least 200 rounds, 0 wrong, "
                        "3 OpenMP threads"), out
    assert lines[2] == "overlap: yes", out
    assert lines[3] == "main thread: 2 OpenMP threads", out


def test_every_group_runs_once_however_the_threads_share_them(tmp_path):
    """shares.c: groups of unequal cost on 4 threads (the threads done with their own
    shares take the others'), and launches from inside the host's OpenMP region, which get
    one thread each: every group runs exactly once."""
    from cl2c.resources import runtime_include_dir
    _run([sys.executable, "-m", "cl2c.cli", str(HERE / "groups.cl"),
          "-o", str(tmp_path / "groups.c"), "-H", str(tmp_path / "groups.h")])
    exe = tmp_path / "shares"
    _run([CC, *CFLAGS, f"-I{runtime_include_dir()}", f"-I{tmp_path}", str(HERE / "shares.c"),
          str(tmp_path / "groups.c"), "-o", str(exe), "-lm"])
    proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120,
                          env=_env(4))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == [
        "ok unequal groups", "ok inside the host's region, first thread",
        "ok inside the host's region, second thread"], proc.stdout


def test_regrouped_launches_give_every_thread_a_group(tmp_path):
    """regroup_sizes.c: cl2c_regroup's groups for a kernel that cannot tell them apart,
    for launches long and short: 512 work-items (a row each of a 512^2 product) make 32
    groups for 16 threads, not 8; pieces of 64 where that leaves no thread idle; a
    thread's share of a row where a uniform loop streams it (the Guide's sum of partial
    histograms)."""
    from cl2c.resources import runtime_include_dir
    exe = tmp_path / "regroup_sizes"
    _run([CC, *CFLAGS, f"-I{runtime_include_dir()}", str(HERE / "regroup_sizes.c"),
          "-o", str(exe), "-lm"])
    proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert len(proc.stdout.splitlines()) == 12 and "FAIL" not in proc.stdout, proc.stdout
