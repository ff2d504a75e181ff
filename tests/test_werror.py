"""Every kernel under tests/kernels/ translates to C that compiles warning-free with
``cc -std=c11 -fopenmp -Wall -Wextra -Werror``, and with clang where it is installed
(clang warns about things GCC does not, such as unused static inline functions)."""
from __future__ import annotations

import shutil
import subprocess

import pytest

import cl2c
from cl2c.resources import runtime_include_dir
from conftest import KERNELS_DIR

KERNELS = sorted(KERNELS_DIR.glob("*.cl"))
# options a kernel needs to translate (the matrix kernels take DIM from the command line)
OPTIONS = {"matmul.cl": "-DDIM=64", "collectives.cl": "-cl-std=CL2.0"}


def test_kernels_found():
    assert len(KERNELS) >= 6


@pytest.fixture(params=["cc", "clang"])
def compiler(request, cc):
    if request.param == "cc":
        return cc
    if shutil.which("clang") is None:
        pytest.skip("clang is not installed (optional: a second compiler's warnings)")
    return "clang"


@pytest.mark.parametrize("path", KERNELS, ids=lambda p: p.name)
def test_generated_c_compiles_without_warnings(path, tmp_path, compiler):
    cc = compiler
    tr = cl2c.translate(path.read_text(encoding="utf-8"), str(path), OPTIONS.get(path.name))
    c_file = tmp_path / (path.stem + ".c")
    c_file.write_text(tr.c_source, encoding="utf-8")
    cmd = [cc, "-std=c11", "-fopenmp", "-Wall", "-Wextra", "-Werror",
           "-I", str(runtime_include_dir()), "-c", str(c_file), "-o", str(tmp_path / "k.o")]
    res = subprocess.run(cmd, capture_output=True, text=True)
    assert res.returncode == 0 and not res.stderr.strip(), (
        f"{' '.join(cmd)}\n{res.stderr}")


@pytest.mark.parametrize("schedule", ["regions", "fibers"])
def test_schedules_compile_without_warnings(schedule, tmp_path, compiler):
    """The barrier kernels under each schedule."""
    cc = compiler
    path = KERNELS_DIR / "barriers.cl"
    tr = cl2c.translate(path.read_text(encoding="utf-8"), str(path),
                        f"-cl2c-schedule={schedule}")
    c_file = tmp_path / "barriers.c"
    c_file.write_text(tr.c_source, encoding="utf-8")
    cmd = [cc, "-std=c11", "-fopenmp", "-Wall", "-Wextra", "-Werror",
           "-I", str(runtime_include_dir()), "-c", str(c_file), "-o", str(tmp_path / "k.o")]
    res = subprocess.run(cmd, capture_output=True, text=True)
    assert res.returncode == 0 and not res.stderr.strip(), f"{' '.join(cmd)}\n{res.stderr}"
