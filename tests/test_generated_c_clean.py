"""The C that cl2c writes compiles with no warning under GCC and clang at -O3 with
-Wall -Wextra, as a user who builds it into their own program would compile it. The
kernels are those that warned once: the classic tiled matmul without
reqd_work_group_size (GCC proved its 32-column tiles out of bounds) and `omp simd`
loops that clang cannot vectorise (calls, atomics; -Wpass-failed, on by default)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import cl2c
from cl2c.resources import runtime_include_dir
from conftest import kernel_source

BENCH = Path(__file__).resolve().parent.parent / "bench" / "kernels"
FILES = [("tests", "barriers.cl"), ("tests", "atomics.cl"), ("tests", "fission.cl"),
         ("bench", "nbody.cl"), ("bench", "blackscholes.cl"), ("bench", "image_blur.cl")]


@pytest.mark.parametrize("compiler", ["gcc", "clang"])
@pytest.mark.parametrize("where,name", FILES)
@pytest.mark.parametrize("options", ["", "-cl2c-schedule=fibers"])
def test_no_warnings(compiler, where, name, options, tmp_path):
    if shutil.which(compiler) is None:
        pytest.skip(f"{compiler} is not installed (CI's .ci/run installs clang)")
    source = kernel_source(name) if where == "tests" else (BENCH / name).read_text()
    c_file = tmp_path / name.replace(".cl", ".c")
    c_file.write_text(cl2c.translate(source, name, options).c_source)
    proc = subprocess.run([compiler, "-std=c11", "-O3", "-fopenmp", "-Wall", "-Wextra",
                           f"-I{runtime_include_dir()}", "-c", str(c_file), "-o",
                           str(tmp_path / "k.o")], capture_output=True, text=True)
    assert proc.returncode == 0 and "warning:" not in proc.stderr, proc.stderr
