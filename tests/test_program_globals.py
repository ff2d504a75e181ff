"""Program-scope variables of OpenCL C 2.0 (spec 6.5): every form, initializers that
take addresses of other globals, shared by a program's kernels, persistent across
launches, private to each Program, under every work-group schedule; from Python and
from C. References: the kernel's own arithmetic (exact), and PoCL for what it has."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import cl2c
from cl2c.resources import runtime_include_dir
from conftest import kernel_source, run_pocl

SOURCE = kernel_source("program_globals.cl")
CL20 = "-cl-std=CL2.0"
SCHEDULES = ["auto", "regions", "fibers"]


def build(schedule: str = "auto") -> cl2c.Program:
    options = CL20 if schedule == "auto" else f"{CL20} -cl2c-schedule={schedule}"
    return cl2c.Program(SOURCE, options).build()


def snapshot(prg) -> list[int]:
    out = np.zeros(8, np.int32)
    prg.snapshot(1, None, out)
    return out.tolist()


def expected_snapshot(n: int) -> list[int]:
    """After n launches of `advance`, from the kernel's source by hand."""
    return [n, 10 + 2 * n, 5, 6 + n, 7 - n, n, 10 + 4 * n, 1]


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_initial_values_and_persistence(schedule):
    prg = build(schedule)
    assert snapshot(prg) == expected_snapshot(0)
    out = np.zeros(8, np.int32)
    for n in range(1, 4):
        prg.advance(8, None, out)
        # table[i & 3] * stats.scale + *bias_at: read-only globals, every work-item
        assert out.tolist() == [1001, 1003, 1005, 1007] * 2
        assert snapshot(prg) == expected_snapshot(n)


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_barrier_kernel_reads_globals(schedule):
    prg = build(schedule)
    prg.advance(4, None, np.zeros(4, np.int32))
    out = np.zeros(32, np.int32)
    prg.shifted(32, 16, out)
    ring, total = [5, 7, 6], 12
    tile = [ring[l % 3] + total for l in range(16)]
    assert out.tolist() == [tile[(l + 1) % 16] for l in range(16)] * 2


def test_two_programs_share_no_globals():
    a, b = build(), build()
    a.advance(4, None, np.zeros(4, np.int32))
    a.advance(4, None, np.zeros(4, np.int32))
    assert snapshot(a) == expected_snapshot(2)
    assert snapshot(b) == expected_snapshot(0)     # same compiled module, own variables
    b.advance(4, None, np.zeros(4, np.int32))
    assert snapshot(a) == expected_snapshot(2)
    assert snapshot(b) == expected_snapshot(1)


def test_a_rebuild_starts_afresh():
    prg = build()
    prg.advance(4, None, np.zeros(4, np.int32))
    prg.build()
    assert snapshot(prg) == expected_snapshot(0)


COUNTER = """
int calls;
global int *global counted = &calls;
global float acc[4] = {1.0f, 2.0f};
kernel void tick(global int *out, global float *sum) {
    if (get_global_id(0) == 0) { *counted += 1; acc[3] += acc[0] + acc[1]; }
    out[0] = calls;
    sum[0] = acc[3];
}
"""


def test_same_as_pocl():
    """PoCL keeps a kernel's globals across its launches too (it does not share them
    between kernels, so one kernel here)."""
    ours = cl2c.Program(COUNTER, CL20).build()
    for _ in range(3):
        mine = [np.zeros(1, np.int32), np.zeros(1, np.float32)]
        theirs = [np.zeros(1, np.int32), np.zeros(1, np.float32)]
        ours.tick(1, None, *mine)
        run_pocl(COUNTER, "tick", 1, None, *theirs, options=CL20)
        assert [m.item() for m in mine] == [t.item() for t in theirs]
    assert [m.item() for m in mine] == [3, 9.0]


@pytest.mark.parametrize("declaration, options, message", [
    ("int x;", "", "must be declared in the __constant address space"),
    ("global int x;", "", "must be declared in the __constant address space"),
    ("local int x;", CL20, "must be declared in the __global or __constant address space"),
    ("private int x;", CL20, "must be declared in the __global or __constant address space"),
])
def test_wrong_address_space(declaration, options, message):
    """OpenCL C 1.2 has program-scope __constant variables only; 2.0 adds __global."""
    source = declaration + "\nkernel void k(global int *o) { o[0] = x; }"
    with pytest.raises(cl2c.BuildError) as e:
        cl2c.Program(source, options).build()
    assert f"<kernel>:1:{declaration.index('x') + 1}: error: program scope variable 'x' " \
        f"{message}" in str(e.value)


@pytest.mark.parametrize("declaration, column", [
    ("constant int c = 1;\nglobal constant int *global x = &c;", 17),   # Intel: an error
    ("constant int c = 1;\nkernel void k(global int *o) { local global int *x; }", 45),
    ("typedef global int gint;\nkernel void k(global int *o) { local gint *x; }", 38),
])
def test_one_address_space_a_type(declaration, column):
    """A type takes one address space (spec 6.5): two are an error, as in clang."""
    with pytest.raises(cl2c.BuildError) as e:
        cl2c.Program(declaration, CL20).build()
    assert f"<kernel>:2:{column}: error: multiple address spaces specified for type" \
        in str(e.value), str(e.value)


MAIN_C = r"""
#include <stdio.h>
#include <stdlib.h>
#include "globals.h"
extern const cl2c_program_info cl2c_program_globals;

static int launches(void *storage) {
    int out[8];
    cl2c_range r = cl2c_range_1d(1, 0);
    r.globals = storage;
    if (cl2c_kernel_snapshot(&r, out) != CL2C_SUCCESS) return -1;
    return out[0] * 1000 + out[3];
}

int main(void) {
    int dummy[4];
    cl2c_range r = cl2c_range_1d(4, 0);
    /* the file's own instance */
    cl2c_kernel_advance(&r, dummy);
    cl2c_kernel_advance(&r, dummy);
    /* a second instance, as another program would have */
    const cl2c_program_info *p = &cl2c_program_globals;
    void *mine = calloc(1, p->globals_size);
    p->globals_init(mine);
    r.globals = mine;
    cl2c_kernel_advance(&r, dummy);
    printf("%d %d\n", launches(NULL), launches(mine));
    free(mine);
    return 0;
}
"""


def test_from_c(tmp_path, cc):
    (tmp_path / "globals.cl").write_text(SOURCE)
    subprocess.run([sys.executable, "-m", "cl2c.cli", "--options", CL20, str(tmp_path / "globals.cl"), "-o",
                    str(tmp_path / "globals.c"), "-H", str(tmp_path / "globals.h")], check=True)
    (tmp_path / "main.c").write_text(MAIN_C)
    exe = tmp_path / "main"
    subprocess.run([cc, "-std=c11", "-O1", "-fopenmp", "-Wall", "-Wextra", "-Werror",
                    "-I", str(runtime_include_dir()), str(tmp_path / "globals.c"),
                    str(tmp_path / "main.c"), "-o", str(exe), "-lm"], check=True)
    run = subprocess.run([str(exe)], capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["2008", "1007"]


STATICS = r"""
int next_id(void) { static global int id = 5; return id++; }
int4 drift(void) { static int4 v = (int4)(1, 2, 3, 4); v += 1; return v; }
kernel void ids(global int *o) { o[get_global_id(0)] = next_id(); }
kernel void drifted(global int4 *o) { o[0] = drift(); }
kernel void shared(global int *o) {
    local int t[8];
    static global int rounds;          // a static of the kernel itself
    if (get_global_id(0) == 0) rounds++;
    t[get_local_id(0)] = rounds;
    barrier(CLK_LOCAL_MEM_FENCE);
    o[get_global_id(0)] = t[7 - get_local_id(0)];
}
"""


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_function_statics_are_the_programs(schedule):
    """2.0's static variables in functions: one per program, kept across launches."""
    options = CL20 if schedule == "auto" else f"{CL20} -cl2c-schedule={schedule}"
    a, b = cl2c.Program(STATICS, options).build(), cl2c.Program(STATICS, options).build()
    out = np.zeros(4, np.int32)
    a.ids(4, None, out)
    # in order within one group of the loops and regions schedules; fibers too
    assert sorted(out.tolist()) == [5, 6, 7, 8]
    a.ids(4, None, out)
    assert sorted(out.tolist()) == [9, 10, 11, 12]
    b.ids(4, None, out)
    assert sorted(out.tolist()) == [5, 6, 7, 8]
    v = np.zeros(4, np.int32)
    a.drifted(1, None, v)
    a.drifted(1, None, v)
    assert v.tolist() == [3, 4, 5, 6]
    o = np.zeros(8, np.int32)
    a.shared(8, 8, o)
    a.shared(8, 8, o)
    assert o.tolist() == [2] * 8


SIZED_BY_INITIALIZER = r"""
global char msg[] = "text\n";
global int tab[] = {3, 1, 4, [6] = 9};
global int2 pairs[][2] = {1, 2, 3, 4, 5};
constant char cmsg[] = {"ab"};
kernel void read(global int *out)
{
    int i = get_global_id(0);
    out[i] = i < sizeof(msg) ? msg[i] : -1;
    out[8 + i] = i < sizeof(tab) / sizeof(tab[0]) ? tab[i] : -1;
    out[16 + i] = i < sizeof(pairs) / sizeof(pairs[0][0]) ? pairs[i / 2][i % 2].y : -1;
    out[24 + i] = i < sizeof(cmsg) ? cmsg[i] : -1;
    if (i < 7)
        tab[i] += 1;        /* __global: written, then read again at the next launch */
}
"""


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_arrays_sized_by_their_initializers(schedule):
    """char msg[] = "text", brace initializers with a designator and elided braces: the
    lengths C11 6.7.9 gives them (strings with their NUL, the last element reached),
    the initializers' values, zeros after them (the exact values, from the source by
    hand; test_sized_by_initializers_as_pocl compares them with PoCL)."""
    options = CL20 if schedule == "auto" else f"{CL20} -cl2c-schedule={schedule}"
    prg = cl2c.Program(SIZED_BY_INITIALIZER, options).build()
    out = np.zeros(32, np.int32)
    prg.read(8, None, out)
    assert out[:8].tolist() == [ord(c) for c in "text\n"] + [0, -1, -1]
    assert out[8:16].tolist() == [3, 1, 4, 0, 0, 0, 9, -1]
    # pairs is int2[3][2]: an int2 is no aggregate (clang), each int fills one whole
    assert out[16:24].tolist() == [1, 2, 3, 4, 5, 0, -1, -1]
    assert out[24:32].tolist() == [ord("a"), ord("b"), 0, -1, -1, -1, -1, -1]
    prg.read(8, None, out)
    assert out[8:16].tolist() == [4, 2, 5, 1, 1, 1, 10, -1]


def test_sized_by_initializers_as_pocl(pocl):
    """The first launch of SIZED_BY_INITIALIZER gives PoCL's values (OpenCL C 2.0)."""
    ours, theirs = np.zeros(32, np.int32), np.zeros(32, np.int32)
    cl2c.Program(SIZED_BY_INITIALIZER, CL20).build().read(8, None, ours)
    pocl(SIZED_BY_INITIALIZER, "read", 8, None, theirs, options=CL20)
    assert ours.tolist() == theirs.tolist()


@pytest.mark.intel
@pytest.mark.parametrize("schedule", SCHEDULES)
def test_same_as_intel(schedule):
    """What PoCL cannot show: globals shared by the kernels of one program. The same
    sequence of launches on one program (advance three times, then snapshot, then the
    barrier kernel) gives Intel's results, launch by launch."""
    from conftest import run_intel

    def launches():
        return [("advance", (8,), None, [np.zeros(8, np.int32)]) for _ in range(3)] + [
            ("snapshot", (1,), None, [np.zeros(8, np.int32)]),
            ("shifted", (32,), (16,), [np.zeros(32, np.int32)])]
    ours = launches()
    prg = build(schedule)
    for name, gsize, lsize, args in ours:
        prg.kernel(name)(gsize, lsize, *args)
    theirs = run_intel(SOURCE, launches(), CL20)
    for (name, _, _, mine), their in zip(ours, theirs):
        np.testing.assert_array_equal(mine[0], their[0], err_msg=name)
    assert ours[3][3][0].tolist() == expected_snapshot(3)


TENTATIVE = """
global int counts[4];               /* a tentative definition: zeros */
global int counts[4];               /* another: the same variable (C11 6.9.2) */
global int start;
global int start = 40;              /* the definition: the tentative ones stand for it */
extern global int later;
global int later = 2;
global int later;
kernel void count(global int *out) {
    int i = get_global_id(0);
    counts[i & 3] += i;
    out[i] = start + later + counts[i & 3];
}
"""


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_tentative_definitions_are_one_variable(schedule):
    """A program-scope variable declared again without an initializer is one variable
    with the definition's value (the C once defined it twice and did not compile); over
    launches too. The values from the source by hand; PoCL's below."""
    options = CL20 if schedule == "auto" else f"{CL20} -cl2c-schedule={schedule}"
    prg = cl2c.Program(TENTATIVE, options).build()
    for n in range(1, 3):
        ours = np.zeros(4, np.int32)
        prg.count(4, None, ours)
        assert ours.tolist() == [42 + n * i for i in range(4)]


def test_tentative_definitions_as_pocl(pocl):
    """Two launches of TENTATIVE give PoCL's values (a source of this test's own: PoCL's
    programs are kept, and their globals with them)."""
    source = TENTATIVE + "/* as PoCL */\n"
    prg = cl2c.Program(source, CL20).build()
    for _ in range(2):
        ours, theirs = np.zeros(4, np.int32), np.zeros(4, np.int32)
        prg.count(4, None, ours)
        pocl(source, "count", 4, None, theirs, options=CL20)
        assert ours.tolist() == theirs.tolist()


@pytest.mark.parametrize("declarations, options, line, column, message", [
    ("constant uint a = 1;\nconstant uint a = 1;", "", 2, 15, "redefinition of 'a'"),
    ("global uint a = 1;\nglobal uint a = 2;", CL20, 2, 13, "redefinition of 'a'"),
    ("global uint a;\nglobal int a;", CL20, 2, 12,
     "redefinition of 'a' with a different type: 'int' vs 'uint'"),
    ("constant uint a = 1;\nglobal uint a;", CL20, 2, 13,
     "redefinition of 'a' with a different type: 'uint' vs 'uint'"),
])
def test_a_program_variable_defined_twice(declarations, options, line, column, message):
    """Two definitions, or declarations of two types, are clang's errors, with a note at
    the first (they reached the C compiler, which refused them)."""
    source = declarations + "\nkernel void k(global uint *o) { o[0] = a; }"
    with pytest.raises(cl2c.BuildError) as e:
        cl2c.Program(source, options).build()
    text = str(e.value)
    assert f"<kernel>:{line}:{column}: error: {message}" in text, text
    assert "<kernel>:1:" in text and "note: previous definition is here" in text, text


def test_a_constant_variable_is_initialized():
    """OpenCL C 6.5.3: a program-scope __constant variable must be initialized (it was
    taken as zeros)."""
    with pytest.raises(cl2c.BuildError) as e:
        cl2c.Program("constant uint a;\nkernel void k(global uint *o) { o[0] = a; }").build()
    assert "<kernel>:1:15: error: variable 'a' in the __constant address space must be " \
        "initialized" in str(e.value)
