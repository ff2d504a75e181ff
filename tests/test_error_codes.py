"""OpenCL's error codes, defined once (cl2c/error_codes.py) and generated for C (the
runtime's cl2c/errors.h): the committed header is the table's, the table is OpenCL's, and
the header, compiled alone as plain C, gives each code its value and meaning."""
from __future__ import annotations

import subprocess

import pytest

from cl2c import error_codes, loader
from conftest import TESTS_DIR


def test_committed_header_is_the_tables():
    header = TESTS_DIR.parent / "clruntime" / "include" / "cl2c" / "errors.h"
    assert header.read_text() == error_codes.header_text(), (
        "clruntime/include/cl2c/errors.h is not the table's: run `python -m cl2c.error_codes`")


def test_names_and_values_are_unique():
    names = [c.name for c in error_codes.CODES]
    values = [c.value for c in error_codes.CODES]
    assert len(set(names)) == len(names) and len(set(values)) == len(values)


def test_the_table_has_opencls_values():
    """Differential: PyOpenCL's status codes (from its CL/cl.h) against the table."""
    cl = pytest.importorskip("pyopencl", reason="PyOpenCL (the test extras) not installed")
    theirs = {name: getattr(cl.status_code, name) for name in dir(cl.status_code)
              if name.isupper()}
    assert len(theirs) > 50, theirs
    for name, value in theirs.items():
        assert error_codes.value(name) == value, name


def test_the_loader_takes_its_codes_from_the_table():
    assert (loader.FIBER_BARRIER_DIVERGENCE, loader.KERNEL_FAULT, loader.INTERRUPTED,
            loader.CHECK_FAILED) == (-1100, -1101, -1102, -1103)


def test_the_header_is_plain_c(cc, tmp_path):
    """errors.h alone in a C99 program, warning-free, prints every code's value and meaning
    as the table has them."""
    include = TESTS_DIR.parent / "clruntime" / "include"
    cases = "\n".join(f'    printf("%d %s\\n", CL2C_{c.name}, cl2c_error_string(CL2C_{c.name}));'
                      for c in error_codes.CODES)
    src = tmp_path / "codes.c"
    src.write_text(f'#include <stdio.h>\n#include <cl2c/errors.h>\nint main(void) {{\n{cases}\n'
                   f'    printf("%s\\n", cl2c_error_string(12345));\n    return 0;\n}}\n')
    exe = tmp_path / "codes"
    build = subprocess.run([cc, "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror",
                            f"-I{include}", str(src), "-o", str(exe)],
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
    want = [f"{c.value} {c.meaning}" for c in error_codes.CODES] + ["unknown error"]
    assert out.splitlines() == want
