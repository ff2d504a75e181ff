"""The bundled examples: examples/run_examples.py and the plain-C program."""
from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
CL2C = f"{shlex.quote(sys.executable)} -m cl2c.cli"
HAVE_MAKE_CC = bool(shutil.which("make") and shutil.which("cc"))


def test_run_examples_all_match_numpy():
    # (the Dask example's cluster: tests/test_dask.py runs the same on one of its own)
    proc = subprocess.run([sys.executable, str(EXAMPLES / "run_examples.py"), "--skip", "dask"],
                          capture_output=True, text=True, timeout=600)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    assert "MISMATCH" not in output, output
    for name in ("vadd", "saxpy", "matmul", "grayscale", "mandelbrot", "blur"):
        assert f"{name} " in proc.stdout, output
        assert (EXAMPLES / "out" / f"{name}.c").is_file()
    # six kernels, and the Guide's Gaussian filter from Python (and from C with make)
    assert proc.stdout.count("OK (matches NumPy)") == 7 + HAVE_MAKE_CC, output
    assert "gaussian " in proc.stdout and "skipped" not in proc.stdout, output
    if HAVE_MAKE_CC:
        assert "OK (checked in C)" in proc.stdout, output
        assert "gaussian_c " in proc.stdout, output
    # the ordinary PyOpenCL program, unchanged, on the cl2c platform
    try:
        import pyopencl  # noqa: F401
    except ImportError:
        assert "PYOPENCL_CTX=cl2c" in proc.stdout, output
    else:
        assert "OK (checked with NumPy)" in proc.stdout, output


@pytest.mark.skipif(not HAVE_MAKE_CC, reason="needs make and cc")
def test_c_program_builds_and_runs(tmp_path):
    work = tmp_path / "c_program"
    shutil.copytree(EXAMPLES / "c_program", work,
                    ignore=shutil.ignore_patterns("*.o", "vadd.c", "vadd.h", "vadd.d",
                                                  "vadd_demo"))
    make = ["make", "-C", str(work), f"CL2C={CL2C}"]
    built = subprocess.run(make, capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stdout + built.stderr
    for generated in ("vadd.c", "vadd.h", "vadd.d", "vadd_demo"):
        assert (work / generated).is_file(), generated

    ran = subprocess.run([str(work / "vadd_demo")], capture_output=True, text=True,
                         timeout=120)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert ran.stdout.strip().splitlines()[-1] == "vadd: 1000000 elements: OK", ran.stdout
    assert "result[0..4] = 0 3 6 9 12" in ran.stdout

    # Sizes the default local size does not divide, and a single element.
    for n in ("1", "7", "1023"):
        ran = subprocess.run([str(work / "vadd_demo"), n], capture_output=True, text=True,
                             timeout=120)
        assert ran.returncode == 0, ran.stdout + ran.stderr
        assert f"vadd: {n} elements: OK" in ran.stdout

    # A second make has nothing to compile.
    again = subprocess.run(make, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stdout + again.stderr
    assert " -c " not in again.stdout, again.stdout
