"""Brace initializers that elide braces or mix in designators (C11 6.7.9): cl2c writes
them fully braced, so the C compiles with no -Wmissing-braces warning under GCC and
clang, and every value lands where C11 6.7.9p17-20 puts it. The expected values are
worked out by hand from the initializers in kernels/initializers.cl, and PoCL (clang)
agrees with them."""
from __future__ import annotations

import re
import shutil
import subprocess

import numpy as np
import pytest

import cl2c
from cl2c.resources import runtime_include_dir
from conftest import kernel_source
from test_program_globals import CL20, SIZED_BY_INITIALIZER

# (object, its values as the kernel writes them) in the kernel's order
EXPECTED = [
    ("m", [1, 2, 3, 4]),                          # int m[2][2] = {1, 2, 3, 4}
    ("v", [1, 2, 3, 4, 5, 6, 7, 8]),              # float4 v[2] = {1, ..., 8}
    ("q", [1, 2, 3, 4, 5, 6]),                    # float3 q[2] = {1, ..., 6}
    ("s", [1, 2, 3, 4]),                          # struct S s = {1, 2, 3, 4.0f}
    ("arr", [1, 2, 3, 4, 5, 6, 7, 0]),            # arr = {1, 2, 3, 4, {5, {6, 7}}}
    ("d", [0, 0, 5, 6, 7, 0]),                    # d = {[1] = 5, 6, 7}
    ("e", [1, 2, 3, 9, 8, 0]),                    # e = {1, 2, 3, [1][1] = 9, 8}
    ("t", [0, 0, 7, 5]),                          # t = {.in.a[1] = 7, 5.0f}
    ("p", [2, 1, 2, 3, 0]),                       # int2 p[] = {1, 2, 3}: 2 long
    ("u", [3, 4]),                                # union U u[2] = {3, 4}
    ("names", [ord("a"), ord("b"), 0, 0, ord("c"), ord("d"), 0, 0]),  # {"ab", {"cd"}}
    ("whole", [2, 3, 4, 9, 10, 0]),               # struct In whole[2] = {s.in, 9, 10}
    ("vv", [5, 6, 7, 8, 1, 2, 0, 0]),             # float4 vv[2] = {v[1], 1, 2}
    ("lit", [1, 2, 3]),                           # (struct In){1, 2, 3.0f}
    ("cm", [1, 2, 3, 4, 5, 0])]                   # __constant cm[2][3] = {1, ..., 5}
# Scalars filling an array of vectors: C11 fills the components in order (as sema sizes
# int2 p[] and the program-scope arrays); clang's OpenCL mode splats each scalar into a
# whole vector instead (and warns of excess elements), so PoCL is no reference there.
SPLATTED_BY_CLANG = {"v", "q", "p", "vv"}


def _slices():
    at = 0
    for name, values in EXPECTED:
        yield name, slice(at, at + len(values)), values
        at += len(values)


def _run(options=""):
    out = np.full(128, -1, np.int32)
    prg = cl2c.Program(kernel_source("initializers.cl"), options).build()
    prg.initializers(1, None, out)
    return out


@pytest.mark.parametrize("schedule", ["", "-cl2c-schedule=fibers"])
def test_values_where_c11_puts_them(schedule):
    out = _run(schedule)
    for name, where, values in _slices():
        assert out[where].tolist() == values, name
    assert (out[where.stop:] == -1).all()


def test_same_as_pocl(pocl):
    out = np.full(128, -1, np.int32)
    pocl(kernel_source("initializers.cl"), "initializers", 1, None, out)
    ours = _run()
    for name, where, _ in _slices():
        if name not in SPLATTED_BY_CLANG:
            assert out[where].tolist() == ours[where].tolist(), name


@pytest.mark.parametrize("compiler", ["gcc", "clang"])
@pytest.mark.parametrize("source,options", [
    (kernel_source("initializers.cl"), ""),
    (kernel_source("initializers.cl"), "-cl2c-schedule=fibers"),
    (SIZED_BY_INITIALIZER, CL20)])          # program-scope globals, braces elided
def test_no_missing_braces(compiler, source, options, tmp_path):
    if shutil.which(compiler) is None:
        pytest.skip(f"{compiler} is not installed (CI's .ci/run installs clang)")
    c_file = tmp_path / "initializers.c"
    c_file.write_text(cl2c.translate(source, "initializers.cl", options).c_source)
    proc = subprocess.run([compiler, "-std=c11", "-O3", "-fopenmp", "-Wall", "-Wextra",
                           "-Werror", f"-I{runtime_include_dir()}", "-c", str(c_file),
                           "-o", str(tmp_path / "k.o")], capture_output=True, text=True)
    assert proc.returncode == 0 and "warning:" not in proc.stderr, proc.stderr


@pytest.mark.parametrize("init,message", [
    ("int a[2] = {1, 2, 3}", "1:54: error: excess elements in initializer of type 'int[2]'"),
    ("int a[2] = {[5] = 1}", "array designator index out of range for type 'int[2]'"),
    ("int a[2] = {.x = 1}", "field designator '.x' for a non-struct, non-union type")])
def test_misplaced_items_are_errors(init, message):
    source = f"__kernel void k(__global int *o) {{ {init}; o[0] = a[0]; }}\n"
    with pytest.raises(cl2c.BuildError, match=re.escape(message)):
        cl2c.translate(source, "k.cl")
