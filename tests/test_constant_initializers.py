"""Initializers of static storage (program-scope __constant, 2.0's program-scope
__global, static and kernel-scope __constant variables) are constant expressions, and
their vectors -- splats, vector literals with vector parts, conversions, operators,
other __constant variables' values, inside structs and arrays -- lower to C constant
expressions: the same values as PoCL, and C that GCC and clang compile cleanly.
What is no constant expression in OpenCL C either is clang's error, not the C
compiler's."""
from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

import cl2c
from cl2c.resources import runtime_include_dir

CL20 = "-cl-std=CL2.0"
# Every constant is read by the kernel (clang warns about an unused static const).
CONSTANTS = """
typedef struct { int a; int2 v; float4 f[2]; } S;
constant int2 splat = 3;
constant int4 nested = (int4)(1, 2, (int2)(3, 4));
constant float2 converted = (float2)(1);
constant int2 folded = (int2)(3) + 1;
constant S record = { 1, 7, { 2.0f, (float4)(1, 2, 3, 4) } };
constant int2 list[2] = { 5, (int2)(6, 7) };
constant int4 split = (int4)((int2)(1), (int2)(-3));
constant int2 negated = -(int2)(1, 2);
constant int scalar = 6;
constant int2 shifted = (int2)(scalar, scalar + 1) << 33;
constant int2 compared = shifted == (int2)(12, 0);
constant char4 narrow = (char4)(50) + (char4)(70, 1, 2, 3);
constant float4 chosen = 1 ? (float4)(0.5f) : (float4)(1, 2, 3, 4);
constant int4 truth = (int4)(true);
constant int4 logic = !(int4)(0, 1, 0, 2) | (int4)(4);  // (clang folds a vector || to 1, not -1)
constant uint2 masked = ~(uint2)(1u, 2u) & (uint2)(0xffu);
constant float2 mixed = (float2)(1.5f, scalar) * 2 - (float2)(0.25f);
constant int2 copied = folded;
constant int *constant at = &scalar;
constant int divided = 640 / (16 * 2) + 650 %% (4 + 1) - -640 / (2 - 4);  // (no C call)
%(extra)s
#define W2(v) o[i++] = (v).x; o[i++] = (v).y;
#define W4(v) W2((v).xy) W2((v).zw)
kernel void k(global float *o) {
    int i = 0;
    o += get_global_id(0) * 128;
    o[i++] = splat.x; o[i++] = splat.y;
    W4(nested)
    o[i++] = converted.x; o[i++] = converted.y;
    o[i++] = folded.x; o[i++] = folded.y;
    o[i++] = record.a; o[i++] = record.v.x; o[i++] = record.v.y;
    W4(record.f[0]) W4(record.f[1])
    o[i++] = list[0].x; o[i++] = list[0].y; o[i++] = list[1].x; o[i++] = list[1].y;
    W4(split)
    o[i++] = negated.x; o[i++] = negated.y;
    o[i++] = shifted.x; o[i++] = shifted.y;
    o[i++] = compared.x; o[i++] = compared.y;
    W4(narrow)
    W4(chosen)
    W4(truth)
    W4(logic)
    o[i++] = masked.x; o[i++] = masked.y;
    o[i++] = mixed.x; o[i++] = mixed.y;
    o[i++] = copied.x; o[i++] = copied.y;
    o[i++] = *at;
    o[i++] = divided;
    %(reads)s
}
"""
GLOBALS = """
global int2 g_splat = 3;
global int4 g_nested = (int4)(1, 2, (int2)(3, 4)) * scalar;
global S g_record = { 1, 7, { 2.0f, (float4)(1, 2, 3, 4) } };
global int2 g_list[2] = { splat, (int2)(6, 7) + folded };
"""
GLOBAL_READS = """
    o[i++] = g_splat.x; o[i++] = g_splat.y;
    W4(g_nested)
    o[i++] = g_record.v.y; o[i++] = g_record.f[0].w; o[i++] = g_record.f[1].z;
    o[i++] = g_list[0].y; o[i++] = g_list[1].x; o[i++] = g_list[1].y;
"""
SOURCES = {"": CONSTANTS % {"extra": "", "reads": ""},
           CL20: CONSTANTS % {"extra": GLOBALS, "reads": GLOBAL_READS}}


@pytest.mark.parametrize("options", ["", CL20])
def test_same_as_pocl(options, pocl):
    source = SOURCES[options]
    ours = np.full(128, -100, np.float32)
    theirs = ours.copy()
    cl2c.Program(source, options).build().k(1, None, ours)
    pocl(source, "k", 1, None, theirs, options=options)
    assert ours.tolist() == theirs.tolist()
    assert (ours != -100).sum() >= 58       # the kernel wrote what it reads


@pytest.mark.parametrize("compiler", ["gcc", "clang"])
@pytest.mark.parametrize("options", ["", CL20])
def test_c_is_clean(compiler, options, tmp_path):
    if shutil.which(compiler) is None:
        pytest.skip(f"{compiler} is not installed (CI's .ci/run installs clang)")
    c_file = tmp_path / "constants.c"
    c_file.write_text(cl2c.translate(SOURCES[options], "constants.cl", options).c_source)
    proc = subprocess.run([compiler, "-std=c11", "-O3", "-fopenmp", "-Wall", "-Wextra",
                           "-Werror", f"-I{runtime_include_dir()}", "-c", str(c_file),
                           "-o", str(tmp_path / "k.o")], capture_output=True, text=True)
    assert proc.returncode == 0 and "warning:" not in proc.stderr, proc.stderr


@pytest.mark.parametrize("declaration, column, options", [
    # (column: where clang points)
    ("constant int2 b = (int2)(1, 2).yx;", 19, ""),
    ("constant int b = ((int2)(1, 2)).y;", 19, ""),   # clang: 18, the (
    ("constant int2 b = as_int2((float2)(1, 2));", 19, ""),
    ("constant int2 b = (int2)(1, 2) ? (int2)(3) : (int2)(4);", 19, ""),
    ("constant int a[2] = {1, 2}; constant int b = a[1];", 46, ""),
    ("constant int2 b[2] = {1, (int2)(2, 3).yx};", 26, ""),
    ("int f(void) { return 1; } global int2 b = f();", 43, CL20),
    ("global int a = 1; global int b = a;", 34, CL20),
    ("int f(void) { static int2 s = (int2)(1, 2).x; return s.y; }", 31, CL20),
    # an integer division by zero (cl2c's C did not compile)
    ("constant int b = 640 / (2 - 2);", 18, ""),
    ("constant int b[2] = {1, 7 % (3 - 3)};", 25, ""),
])
def test_not_a_constant(declaration, column, options):
    source = declaration + "\nkernel void k(global int *o) { o[0] = 0; }"
    with pytest.raises(cl2c.BuildError) as e:
        cl2c.Program(source, options).build()
    assert f"<kernel>:1:{column}: error: initializer element is not a compile-time " \
        f"constant" in str(e.value), str(e.value)
