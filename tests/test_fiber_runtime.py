"""The fiber runtime (clruntime/include/cl2c/fiber.h): builds tests/c/fiber/ with the C
compiler and runs its tests for each context-switch back end (this architecture's asm switch,
the ucontext fallback, the asm switch that also saves the FPU control words), plus a short run
of its benchmark. Skipped, with the reason, without a C compiler or on a non-POSIX system."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import TESTS_DIR

FIBER_DIR = TESTS_DIR / "c" / "fiber"
INCLUDE_DIR = TESTS_DIR.parent / "clruntime" / "include"
BINARIES = ["fiber_test", "fiber_test_ucontext", "fiber_test_fpu"]

pytestmark = pytest.mark.skipif(sys.platform != "linux",
                                reason="the fiber runtime needs Linux (mmap, sigaltstack)")


@pytest.fixture(scope="module")
def fiber_build(tmp_path_factory):
    compiler = os.environ.get("CC", "cc")
    if shutil.which(compiler) is None:
        pytest.skip(f"no C compiler '{compiler}' on PATH")
    if shutil.which("sh") is None:
        pytest.skip("no /bin/sh to run tests/c/fiber/build.sh")
    out = tmp_path_factory.mktemp("fiber")
    env = dict(os.environ, CC=compiler)
    res = subprocess.run(["sh", str(FIBER_DIR / "build.sh"), str(out)], env=env,
                         capture_output=True, text=True, timeout=120)
    if res.returncode != 0 and "fopenmp" in res.stderr and "unrecognized" in res.stderr:
        pytest.skip(f"'{compiler}' has no OpenMP: {res.stderr.strip()[:200]}")
    assert res.returncode == 0, f"build.sh failed:\n{res.stdout}\n{res.stderr}"
    return out


@pytest.mark.parametrize("binary", BINARIES)
def test_fiber_runtime(fiber_build, binary):
    env = {k: v for k, v in os.environ.items() if k != "CL2C_FIBER_STACK_SIZE"}
    res = subprocess.run([str(fiber_build / binary)], env=env, capture_output=True, text=True,
                         timeout=60)
    report = f"{res.stdout}\n{res.stderr}"
    assert res.returncode == 0, report
    m = re.search(r"^(\d+) passed, (\d+) failed$", res.stdout, re.M)
    assert m and int(m.group(1)) >= 10 and m.group(2) == "0", report


def test_fiber_benchmark_runs(fiber_build):
    res = subprocess.run([str(fiber_build / "fiber_test"), "bench", "0.02"],
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stdout + res.stderr
    per_barrier = re.search(r"barrier, 256 work-items, empty loop +: +([\d.]+) ns", res.stdout)
    assert per_barrier and float(per_barrier.group(1)) > 0, res.stdout


def _compile(cc, source: str, tmp_path: Path, *flags: str):
    c_file = tmp_path / "unit.c"
    c_file.write_text(source, encoding="utf-8")
    cmd = [cc, "-std=c11", "-fopenmp", "-Wall", "-Wextra", "-Werror", "-I", str(INCLUDE_DIR),
           *flags, "-c", str(c_file), "-o", str(tmp_path / "unit.o")]
    return subprocess.run(cmd, capture_output=True, text=True)


def test_header_alone_is_warning_free_and_defines_no_symbol(cc, tmp_path):
    """A file that includes the header and uses nothing: no warning, no external symbol
    (the generated C of two .cl files may be linked into one program)."""
    res = _compile(cc, "#include <cl2c/fiber.h>\n", tmp_path, "-O2")
    assert res.returncode == 0 and not res.stderr.strip(), res.stderr
    nm = shutil.which("nm")
    if nm:
        syms = subprocess.run([nm, "-g", "--defined-only", str(tmp_path / "unit.o")],
                              capture_output=True, text=True).stdout
        assert syms.strip() == "", syms


def test_header_asks_for_posix_declarations(cc, tmp_path):
    """Included after a system header under strict -std=c11, it stops with advice;
    with -D_DEFAULT_SOURCE it compiles."""
    source = "#include <stdio.h>\n#include <cl2c/fiber.h>\n"
    res = _compile(cc, source, tmp_path)
    assert res.returncode != 0 and "-D_DEFAULT_SOURCE" in res.stderr, res.stderr
    res = _compile(cc, source, tmp_path, "-D_DEFAULT_SOURCE")
    assert res.returncode == 0, res.stderr
