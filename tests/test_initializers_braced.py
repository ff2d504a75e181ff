"""Brace initializers that elide braces or mix in designators (C11 6.7.9): cl2c writes
them fully braced, so the C compiles with no -Wmissing-braces warning under GCC and
clang, and every value lands where clang puts it: C11 6.7.9p17-20, with vectors no
aggregates (a scalar where a vector goes is splatted, a brace list for a vector lists
its components), and excess items dropped with clang's warning. The expected values
are worked out by hand from the initializers in kernels/initializers.cl, and PoCL
(clang) agrees with them."""
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
    ("v", [1, 1, 1, 1, 2, 2, 2, 2]),              # float4 v[2] = {1, ..., 8}: splats
    ("q", [1, 1, 1, 2, 2, 2]),                    # float3 q[2] = {1, ..., 6}
    ("s", [1, 2, 3, 4]),                          # struct S s = {1, 2, 3, 4.0f}
    ("arr", [1, 2, 3, 4, 5, 6, 7, 0]),            # arr = {1, 2, 3, 4, {5, {6, 7}}}
    ("d", [0, 0, 5, 6, 7, 0]),                    # d = {[1] = 5, 6, 7}
    ("e", [1, 2, 3, 9, 8, 0]),                    # e = {1, 2, 3, [1][1] = 9, 8}
    ("t", [0, 0, 7, 5]),                          # t = {.in.a[1] = 7, 5.0f}
    ("p", [3, 1, 1, 2, 2, 3, 3]),                 # int2 p[] = {1, 2, 3}: 3 long
    ("u", [3, 4]),                                # union U u[2] = {3, 4}
    ("names", [ord("a"), ord("b"), 0, 0, ord("c"), ord("d"), 0, 0]),  # {"ab", {"cd"}}
    ("whole", [2, 3, 4, 9, 10, 0]),               # struct In whole[2] = {s.in, 9, 10}
    ("vv", [2, 2, 2, 2, 1, 1, 1, 1]),             # float4 vv[2] = {v[1], 1, 2}
    ("lit", [1, 2, 3]),                           # (struct In){1, 2, 3.0f}
    ("cm", [1, 2, 3, 4, 5, 0]),                   # __constant cm[2][3] = {1, ..., 5}
    ("cv", [3, 1, 1, 2, 2, 3, 3]),                # __constant int2 cv[] = {1, 2, 3}
    ("bv", [1, 2, 3, 4, 5, 6, 7, 8]),             # {{1, 2, 3, 4}, (float4)(5, ..., 8)}
    ("mix", [1, 2, 3, 4, 5, 5, 5, 5]),            # {{1, (float2)(2, 3), 4}, 5}
    ("sv", [1, 1, 1, 1, 2, 3, 3, 3, 3, 4]),       # {1, 2, {3, 4, 5, 6}, 7}
    ("sw", [1, 1, 1, 1, 2, 3, 4, 5, 6, 7]),       # {1, 2, {{3, 4, 5, 6}, 7}}
    ("m2", [1, 1, 2, 2, 3, 3, 0, 0]),             # int2 m2[2][2] = {1, 2, 3}
    ("dv", [0, 0, 5, 5, 6, 6]),                   # int2 dv[3] = {[1] = 5, 6}
    ("cast", [18, 18, 3, 3])]                     # {(float4)(9), 1.5f}, .x and .w * 2


def _slices():
    at = 0
    for name, values in EXPECTED:
        yield name, slice(at, at + len(values)), values
        at += len(values)


def _run(options=""):
    out = np.full(256, -1, np.int32)
    with pytest.warns(cl2c.BuildWarning, match="excess elements in array initializer"):
        prg = cl2c.Program(kernel_source("initializers.cl"), options).build()
    prg.initializers(1, None, out)
    return out


@pytest.mark.parametrize("schedule", ["", "-cl2c-schedule=fibers"])
def test_values_where_clang_puts_them(schedule):
    out = _run(schedule)
    for name, where, values in _slices():
        assert out[where].tolist() == values, name
    assert (out[where.stop:] == -1).all()


def test_same_as_pocl(pocl):
    out = np.full(256, -1, np.int32)
    pocl(kernel_source("initializers.cl"), "initializers", 1, None, out)
    ours = _run()
    for name, where, _ in _slices():
        assert out[where].tolist() == ours[where].tolist(), name
    assert out.tolist() == ours.tolist()


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


EXCESS = """union U { int i; float f; };
struct P { int2 a[2]; int x; };
__kernel void k(__global int *o) {
    int a[2] = {1, 2, 3, [0] = 4};
    int s = {5, 6};
    union U u = {1, 2};
    struct P p[2] = {1, 2, 3, 4, 5, 6, 7};
    float4 v[1] = {{1, 2, 3, 4}, 8};
    int2 w[2][1] = {{1, 2}, 3, 4};
    o[0] = a[0] + s + u.i + p[0].x + v[0].x + w[0][0].x;
}
"""


@pytest.mark.parametrize("source", [kernel_source("initializers.cl"), EXCESS])
def test_excess_items_warn_where_clang_does(source, tmp_path):
    """Excess items are dropped with clang's warning, at the same place (clang itself
    when installed; else its warnings for EXCESS, by hand)."""
    ours = cl2c.translate(source, "k.cl").warnings
    ours = re.findall(r"^k\.cl:(\d+:\d+): warning: (.*)$", ours, re.M)
    if shutil.which("clang") is None:
        assert source == EXCESS, "clang is not installed (CI's .ci/run installs it)"
        theirs = [("4:23", "excess elements in array initializer"),
                  ("5:17", "excess elements in scalar initializer"),
                  ("6:21", "excess elements in union initializer"),
                  ("7:40", "excess elements in array initializer"),
                  ("8:34", "excess elements in array initializer"),
                  ("9:25", "excess elements in array initializer"),
                  ("9:32", "excess elements in array initializer")]
    else:
        (tmp_path / "k.cl").write_text(source)
        proc = subprocess.run(["clang", "-x", "cl", "-cl-std=CL1.2", "-Xclang",
                               "-finclude-default-header", "-fsyntax-only", "k.cl"],
                              cwd=tmp_path, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        theirs = re.findall(r"^k\.cl:(\d+:\d+): warning: (.*) \[-W[\w-]+\]$",
                            proc.stderr, re.M)
    assert ours == theirs and ours


@pytest.mark.parametrize("init,message", [
    ("int a[2] = {[5] = 1}", "1:49: error: array designator index out of range for type "
                             "'int[2]'"),
    ("int a[2] = {.x = 1}", "field designator '.x' for a non-struct, non-union type"),
    ("float4 a[2] = {[0][1] = 1}", "1:55: error: array designator for a non-array type "
                                   "'float4'"),
    ("float4 a = {[1] = 1}", "designator in initializer for scalar type 'float'"),
    ("float4 a = {1, 2}", "1:48: error: too few elements in vector initialization "
                          "(expected 4 elements, have 2)"),
    ("float4 a[1] = {{1, (float2)(2, 3), (float2)(4)}}",
     "too many elements in vector initialization (expected 4 elements, have 5)"),
    ("float4 a = {1, 2, 3, 4, 5}", "1:60: error: excess elements in vector initializer"),
    ("float4 a[1] = {(int4)(1)}", "initializing 'float4' with an expression of "
                                  "incompatible type 'int4'"),
    ("float4 a = {(int2)(1), 2, 3}", "initializing 'float' with an expression of "
                                     "incompatible type 'int2'")])
def test_misplaced_items_are_errors(init, message):
    """What clang rejects (vectors: all components or none, of their own type)."""
    source = f"__kernel void k(__global int *o) {{ {init}; o[0] = 0; }}\n"
    with pytest.raises(cl2c.BuildError, match=re.escape(message)):
        cl2c.translate(source, "k.cl")
