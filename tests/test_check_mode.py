"""Checking mode (-cl2c-check): kernels with planted bugs, each found at its place with
the work-item, the group and the buffer; and correct kernels, where it finds nothing."""
from __future__ import annotations

import re
import warnings
from pathlib import Path

import numpy as np
import pytest

import cl2c
import check_helpers
from check_helpers import build
from cl2c.options import parse_options


def finding(kernel, gsize, lsize, *args) -> str:
    """A finding, or barrier divergence (CL2C_BARRIER_DIVERGENCE)."""
    return check_helpers.finding(kernel, gsize, lsize, *args, codes=(-1103, -1100))


def collected(kernel, gsize, lsize, *args) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        kernel(gsize, lsize, *args)
    found = kernel.findings
    if found:
        assert any(issubclass(w.category, cl2c.CheckWarning) for w in caught)
    return found


def f32(n, value=0.0):
    return np.full(n, value, np.float32)


# ---- options -------------------------------------------------------------------------

def test_options(monkeypatch):
    assert parse_options("-cl2c-check").check == "stop"
    assert parse_options("-cl2c-check=collect").check == "collect"
    assert parse_options("").check == ""
    monkeypatch.setenv("CL2C_CHECK", "1")
    assert parse_options("").check == "stop"
    monkeypatch.setenv("CL2C_CHECK", "collect")
    assert parse_options(None).check == "collect"
    with pytest.raises(cl2c.BuildError):
        parse_options("-cl2c-check=maybe")


def test_normal_builds_unchanged():
    src = "__kernel void k(__global int *a) { a[get_global_id(0)] /= 2; }"
    plain = cl2c.translate(src).c_source
    assert "CL2C_CK" not in plain and "check.h" not in plain
    checked = cl2c.translate(src, options="-cl2c-check").c_source
    assert "CL2C_CK_ARG(" in checked or "CL2C_CK_ACCESS(" in checked


# ---- out of bounds, each address space --------------------------------------------

OOB_GLOBAL = """
__kernel void k(__global float *a, int n) {
    int i = get_global_id(0);
    a[i + n] = 1.0f;
}"""


def test_out_of_bounds_global_write():
    msg = finding(build(OOB_GLOBAL).k, (64,), (16,), f32(64), np.int32(1))
    assert "bug.cl:4:5: out-of-bounds write of 4 bytes at offset 256 of __global 'a' " \
           "(256 bytes)" in msg
    assert "work-item (15,0,0) of group (3,0,0), global id (63,0,0)" in msg
    assert "kernel 'k'" in msg


def test_in_bounds_passes():
    a = f32(64)
    build(OOB_GLOBAL).k((63,), None, a, np.int32(1))
    assert a[1:].sum() == 63


def test_out_of_bounds_below_and_pointer_arithmetic():
    src = """
__kernel void k(__global const float *a, __global float *b) {
    int i = get_global_id(0);
    b[i] = *(a + i - 1);
}"""
    msg = finding(build(src).k, (8,), (8,), f32(8), f32(8))
    assert "bug.cl:4:14: out-of-bounds read of 4 bytes at offset -4 of __global 'a'" in msg
    assert "work-item (0,0,0)" in msg


def test_out_of_bounds_constant():
    src = """
__kernel void k(__constant float *c, __global float *out) {
    int i = get_global_id(0);
    out[i] = c[i * 2];
}"""
    msg = finding(build(src).k, (8,), (4,), f32(8), f32(8))
    assert "bug.cl:4:14: out-of-bounds read of 4 bytes at offset 32 of __constant 'c' " \
           "(32 bytes)" in msg
    assert "work-item (0,0,0) of group (1,0,0), global id (4,0,0)" in msg


PROGRAM_CONSTANTS = """
__constant float tab[4] = {1.0f, 2.0f, 3.0f, 4.0f};
__constant int one = 1;
__kernel void table(__global float *out, int n) {
    __constant float *p = tab + 1;
    out[get_global_id(0)] = p[(int) get_global_id(0) + n - 1];
}
__kernel void scalar(__global int *out, int n) {
    __constant int *q = &one;
    out[get_global_id(0)] = q[n];
}"""


def test_out_of_bounds_through_pointers_into_program_scope_constants():
    prg = build(PROGRAM_CONSTANTS)
    out, ints = f32(3), np.zeros(3, np.int32)
    prg.table((3,), None, out, np.int32(0))
    prg.scalar((3,), None, ints, np.int32(0))
    assert out.tolist() == [1.0, 2.0, 3.0] and ints.tolist() == [1, 1, 1]
    msg = finding(prg.table, (3,), None, out, np.int32(2))
    assert "bug.cl:6:29: out-of-bounds read of 4 bytes at offset 16 of __constant 'tab' " \
           "(16 bytes)" in msg
    assert "work-item (2,0,0)" in msg
    msg = finding(prg.scalar, (3,), None, ints, np.int32(-1))
    assert "bug.cl:10:29: out-of-bounds read of 4 bytes at offset -4 of __constant 'one' " \
           "(4 bytes)" in msg


PROGRAM_GLOBALS = """
global float table[4] = {1, 2, 3, 4};
global int hits;
float get(const global float *p, int i) { return p[i]; }
__kernel void k(__global float *out, int n) {
    const global float *p = table + 1;
    out[get_global_id(0)] = get(p, n) + get(table, 0);
    if (get_global_id(0) == 0) { global int *h = &hits; h[n] = 1; }
}"""


def test_out_of_bounds_through_pointers_into_program_scope_globals():
    """OpenCL C 2.0's program-scope __global variables, reached through pointers."""
    k = build(PROGRAM_GLOBALS, "-cl2c-check -cl-std=CL2.0").k
    out = f32(3)
    k((3,), None, out, np.int32(0))
    assert out.tolist() == [3.0, 3.0, 3.0]
    msg = finding(k, (3,), None, out, np.int32(3))
    assert "bug.cl:4:50: out-of-bounds read of 4 bytes at offset 16 of __global 'table' " \
           "(16 bytes)" in msg
    msg = finding(k, (3,), None, out, np.int32(1))
    assert "bug.cl:8:57: out-of-bounds write of 4 bytes at offset 4 of __global 'hits' " \
           "(4 bytes)" in msg


def test_out_of_bounds_struct_member():
    src = """
typedef struct { int x; float y; } P;
__kernel void k(__global P *p) {
    int i = get_global_id(0);
    p[i + 1].y = 2.0f;
}"""
    msg = finding(build(src).k, (4,), (4,), np.zeros(8, np.int32))
    assert "bug.cl:5:5: out-of-bounds write of 4 bytes at offset 36 of __global 'p'" in msg
    assert "work-item (3,0,0)" in msg


def test_out_of_bounds_local_argument():
    src = """
__kernel void k(__local float *t, __global float *out) {
    int l = get_local_id(0);
    t[l + 1] = 1.0f;
    out[get_global_id(0)] = 0.0f;
}"""
    msg = finding(build(src).k, (32,), (16,), cl2c.LocalMemory(64), f32(32))
    assert "bug.cl:4:5: out-of-bounds write of 4 bytes at offset 64 of __local 't' " \
           "(64 bytes)" in msg
    assert re.search(r"work-item \(15,0,0\) of group \([01],0,0\)", msg)


def test_out_of_bounds_local_variable():
    src = """
__kernel void k(__global float *out) {
    __local float s[16];
    int l = get_local_id(0);
    s[l + 1] = 1.0f;
    out[get_global_id(0)] = 0.0f;
}"""
    msg = finding(build(src).k, (16,), (16,), f32(16))
    assert "bug.cl:5:7: array index 16 out of bounds of an array of 16 elements" in msg
    assert "work-item (15,0,0)" in msg


def test_out_of_bounds_private_array():
    src = """
__kernel void k(__global float *out) {
    float p[4] = {0};
    int l = get_local_id(0);
    p[l] = 1.0f;
    out[get_global_id(0)] = p[0];
}"""
    msg = finding(build(src).k, (8,), (8,), f32(8))
    assert "bug.cl:5:7: array index 4 out of bounds of an array of 4 elements" in msg
    assert "work-item (4,0,0)" in msg


def test_out_of_bounds_in_a_helper():
    src = """
float get(__global const float *b, int i) { return b[i]; }
__kernel void k(__global const float *b, __global float *out) {
    int i = get_global_id(0);
    out[i] = get(b, i + 2);
}"""
    msg = finding(build(src).k, (8,), (8,), f32(8), f32(8))
    assert "bug.cl:2:52: out-of-bounds read of 4 bytes at offset 32 of __global 'b'" in msg
    assert "work-item (6,0,0)" in msg


# ---- races ---------------------------------------------------------------------------

def test_local_race_no_barrier():
    src = """
__kernel void k(__global int *out) {
    __local int s[16];
    int l = get_local_id(0);
    s[l] = l;
    out[get_global_id(0)] = s[l > 0 ? l - 1 : 0];
}"""
    msg = finding(build(src).k, (16,), (16,), np.zeros(16, np.int32))
    # work-item 1 reads what 0 wrote, no barrier between
    assert "bug.cl:6:29: data race: read of __local 's' at offset 0, which work-item " \
           "(local linear id 0) wrote with no barrier between" in msg
    assert "work-item (1,0,0)" in msg


LECTURE_V6 = Path(__file__).resolve().parents[1] / "bench" / "kernels" / "gpu" / "lecture_v6.cl"


def test_the_lectures_version_6_races_on_its_copy_of_b():
    """A real find in the seeds' lecture (003, "Version 6", as printed): the group copies
    a column of B into __local Bl, waits at a barrier, reads Bl; the next column's copy
    follows with no barrier after the reads, so a work-item overwrites Bl[k] while
    another still reads it. With the second barrier, nothing is found."""
    dim = 16
    src = re.sub(r"^#define DIM .*$", f"#define DIM {dim}", LECTURE_V6.read_text(), flags=re.M)
    rng = np.random.default_rng(6)
    a, b = (rng.random(dim * dim, dtype=np.float32) for _ in range(2))
    msg = finding(build(src, name="lecture_v6.cl").matmult, (dim,), (8,), a, b,
                  np.zeros(dim * dim, np.float32), cl2c.LocalMemory(4 * dim))
    assert "kernel 'matmult': lecture_v6.cl:15:13: data race: write of __local 'Bl' at " \
           "offset " in msg
    assert "which several work-items of the group read with no barrier between" in msg
    fixed = src.replace("        C[i*DIM+j] = sum;", "        C[i*DIM+j] = sum;\n"
                        "        barrier(CLK_LOCAL_MEM_FENCE);")
    c = np.zeros(dim * dim, np.float32)
    build(fixed).matmult((dim,), (8,), a, b, c, cl2c.LocalMemory(4 * dim))
    np.testing.assert_allclose(c.reshape(dim, dim), a.reshape(dim, dim) @ b.reshape(dim, dim),
                               rtol=1e-5)


@pytest.mark.parametrize("schedule", ["auto", "fibers"])
def test_local_race_after_the_writer_reads_its_own_write(schedule):
    """A work-item's read of what it wrote leaves the write's mark, also on fibers (the
    runtime's general path, which accesses of several granules take too: a vload2 of a
    vstore2, test_check_builtins.py), so a later reader races with it."""
    src = """
__kernel void k(__global int *out) {
    __local int s[16];
    int l = get_local_id(0);
    s[l] = l;
    int mine = s[l];
    out[get_global_id(0)] = s[l > 0 ? l - 1 : 0] + mine;
}"""
    msg = finding(build(src, f"-cl2c-check -cl2c-schedule={schedule}").k, (16,), (16,),
                  np.zeros(16, np.int32))
    assert "data race: read of __local 's' at offset 0, which work-item " \
           "(local linear id 0) wrote with no barrier between" in msg
    assert "work-item (1,0,0)" in msg


def test_local_race_fixed_by_barrier():
    src = """
__kernel void k(__global int *out) {
    __local int s[16];
    int l = get_local_id(0);
    s[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = s[(l + 15) % 16];
}"""
    out = np.zeros(32, np.int32)
    build(src).k((32,), (16,), out)
    assert list(out[:16]) == [(l + 15) % 16 for l in range(16)]


def test_local_race_write_write_after_barrier():
    src = """
__kernel void k(__global int *out) {
    __local int s[1];
    int l = get_local_id(0);
    if (l == 0) s[0] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    s[0] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = s[0];
}"""
    msg = finding(build(src).k, (8,), (8,), np.zeros(8, np.int32))
    assert "bug.cl:7:5: data race: write of __local 's' at offset 0, which work-item " \
           "(local linear id 0) wrote with no barrier between" in msg
    assert "work-item (1,0,0)" in msg


def test_local_race_through_a_pointer_after_barrier():
    # the region writes s through a pointer: its reads of s keep the race check
    # (checking/phases.py checks initialisation only where a region writes none of it)
    src = """
__kernel void k(__global int *out) {
    __local int s[16];
    int l = get_local_id(0);
    s[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    __local int *p = s;
    int v = s[(l + 1) % 16];
    p[l] = v;
    out[get_global_id(0)] = v;
}"""
    msg = finding(build(src).k, (16,), (16,), np.zeros(16, np.int32))
    assert "bug.cl:9:5: data race: write of __local 's' at offset 4, which work-item " \
           "(local linear id 0) read with no barrier between" in msg


def test_local_race_across_a_uniform_loop():
    # a uniform loop with no barrier between the write and the read: the regions
    # schedule cuts the kernel there, but a barrier phase ends only at a barrier
    src = """
__kernel void k(__global float *out, __global const float *w, int n) {
    __local float s[16];
    int l = get_local_id(0);
    s[l] = w[get_global_id(0)];
    float acc = 0.0f;
    for (int i = 0; i < n; i++)
        acc += w[i];
    out[get_global_id(0)] = s[(l + 1) % 16] + acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    s[l] = 0.0f;
}"""
    msg = finding(build(src).k, (16,), (16,), f32(16), f32(16, 1.0), np.int32(3))
    assert "bug.cl:9:29: data race: read of __local 's' at offset 4, which work-item " \
           "(local linear id 1) wrote with no barrier between" in msg


def test_local_reads_across_a_barrier_free_loop_stay_checked():
    # the iterations of a uniform loop with no barrier are one phase, which writes s:
    # its reads keep the race check (checking/phases.py), and one races with a write
    src = """
__kernel void k(__global float *out, int n) {
    __local float s[16];
    int l = get_local_id(0);
    s[l] = 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    float acc = 0.0f;
    for (int i = 0; i < n; i++) {
        acc += s[15 - l];
        if (l == 3)
            s[3] = acc + 1.0f;
    }
    out[get_global_id(0)] = acc;
}"""
    msg = finding(build(src).k, (16,), (16,), f32(16), np.int32(2))
    assert "data race" in msg and "__local 's' at offset 12" in msg


LOCKSTEP = """
__kernel void k(__global int *out, int n) {
    int i = get_global_id(0);
    int it = 0;
    float z = 0.1f * i;
    while (z < 4.0f && it < 100) { z = z * 1.5f + 0.5f; it++; }
    out[WHERE] = it;
}"""


def test_lockstep_loop_names_the_work_item():
    # the divergent loop runs lanes in lock-step: the store after it is still each
    # work-item's own (its check says which)
    prg = build(LOCKSTEP.replace("WHERE", "i + (i == 37 ? n : 0)"))
    assert "in lock-step" in prg.c_source
    k = prg.k
    msg = finding(k, (64,), (64,), np.zeros(64, np.int32), np.int32(100))
    assert "bug.cl:7:5: out-of-bounds write of 4 bytes at offset 548" in msg
    assert "work-item (37,0,0)" in msg
    msg = finding(build(LOCKSTEP.replace("WHERE", "i / 2")).k, (64,), (64,),
                  np.zeros(64, np.int32), np.int32(0))
    # work-items 2m and 2m+1 store to element m (the same value is no race: the first
    # pair whose iteration counts differ)
    m = re.search(r"data race: write of __global 'out' at offset (\d+), which work-item "
                  r"\(local linear id (\d+)\) wrote with no barrier between "
                  r"\(work-item \((\d+),0,0\)", msg)
    assert m, msg
    offset, first, second = map(int, m.groups())
    assert (first, second) == (offset // 2, offset // 2 + 1)


# A checked work-item loop whose reads a test before it settles runs unchecked
# (workgroup/passes/check_versions.py): the test must let through no access the checks would report.
DOT = """
__kernel void k(__global const float *a, __global const float *b, __global float *out,
                int n, int shift) {
    int col = get_global_id(0);
    float acc = 0.0f;
    for (int j = 0; j < n; j++)
        acc += a[j] * b[j * 64 + col + shift];
    out[col] = acc;
}"""


def test_fast_version_of_a_checked_loop_computes_the_same():
    prg = build(DOT)
    assert "with a fast version" in prg.c_source
    rng = np.random.default_rng(5)
    a, b = rng.random(8, np.float32), rng.random(8 * 64, np.float32)
    out = f32(64)
    assert collected(build(DOT, "-cl2c-check=collect").k, (64,), (16,), a, b, out,
                     np.int32(8), np.int32(0)) == []
    prg.k((64,), (16,), a, b, out, np.int32(8), np.int32(0))
    want = np.zeros(64, np.float32)
    for j in range(8):      # in the kernel's order, each step rounded (a*b+c contracts)
        want = (a[j].astype(np.float64) * b[j * 64:(j + 1) * 64] + want).astype(np.float32)
    np.testing.assert_array_equal(out, want)


def test_fast_version_falls_back_to_the_checks_at_its_last_work_item():
    # only the last work-item's last read is out of bounds: the test before the loop
    # sees it, and the checked loop names it
    msg = finding(build(DOT).k, (64,), (16,), f32(8), f32(8 * 64), f32(64), np.int32(8),
                  np.int32(1))
    assert "bug.cl:7:23: out-of-bounds read of 4 bytes at offset 2048 of __global 'b' " \
           "(2048 bytes)" in msg
    assert "work-item (15,0,0) of group (3,0,0)" in msg


WRAP = """
__kernel void k(__global const int *a, __global int *out, uint step, int n) {
    uint i = get_global_id(0);
    int acc = 0;
    for (int j = 0; j < n; j++)
        acc += a[i * step + j];
    out[i] = acc;
}"""


def test_fast_version_sees_an_index_that_wraps_between_its_ends():
    # work-items 0 and 4 read a[0 + j] (4 * 2^30 wraps to 0), those between far out
    prg = build(WRAP)
    assert "with a fast version" in prg.c_source
    msg = finding(prg.k, (5,), (5,), np.zeros(4, np.int32), np.zeros(5, np.int32),
                  np.uint32(1 << 30), np.int32(1))
    assert "out-of-bounds read of 4 bytes at offset 4294967296 of __global 'a'" in msg
    assert "work-item (1,0,0)" in msg


def test_no_fast_version_for_reads_of_a_written_buffer():
    # reads of a buffer the kernel writes are race-checked, which no test settles
    src = """
__kernel void k(__global float *a, int n) {
    int col = get_global_id(0);
    float acc = 0.0f;
    for (int j = 0; j < n; j++)
        acc += a[j * 64 + col];
    a[col + 1] = acc;
}"""
    prg = build(src)
    assert "cl2c_ck_box_in_range" not in prg.c_source   # (the store's loop has one)
    msg = finding(prg.k, (63,), (63,), f32(8 * 64), np.int32(8))
    assert "data race" in msg, msg


def test_fast_stores_leave_what_later_checks_find():
    # each group's stores run unchecked in a fast version while no access of the launch
    # touched their elements yet; a later group's store to them takes the checked
    # loop, whose check finds the first group's mark
    src = """
__kernel void k(__global float *out) {
    out[get_local_id(0)] = 1.0f + get_group_id(0);
}"""
    prg = build(src)
    assert "cl2c_ck_box_fresh" in prg.c_source
    msg = finding(prg.k, (32,), (16,), f32(16))
    # (the groups run on two threads: either may be first)
    m = re.search(r"data race: write of __global 'out' at offset (\d+), which a work-item "
                  r"of another group \(linear id (\d)\) wrote in this launch \(work-item "
                  r"\((\d+),0,0\) of group \((\d),0,0\)", msg)
    assert m, msg
    offset, first, item, second = map(int, m.groups())
    assert {first, second} == {0, 1} and offset == 4 * item
    # and one group a launch, launched twice: the first launch's marks are no race
    k = build(src, "-cl2c-check=collect").k
    out = f32(16)
    for _ in range(2):
        assert collected(k, (16,), (16,), out) == []
    np.testing.assert_array_equal(out, np.ones(16, np.float32))


TILE = """
__kernel __attribute__((reqd_work_group_size(8, 8, 1)))
void k(__global const float *a, __global float *out, int n, int extra) {
    __local float t[8][8];
    int x = get_local_id(0), y = get_local_id(1);
    float acc = 0.0f;
    for (int s = 0; s < n; ++s) {
        t[y][x] = a[(s * 8 + y) * 8 + x];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j = 0; j < 8; ++j)
            acc += t[y][j] * t[j][WHERE];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(1) * 8 + get_global_id(0)] = acc;
}"""


def test_fast_versions_of_a_barrier_kernel_compute_the_same():
    # the tile's stores, its reads and the global ones run in fast versions
    prg = build(TILE.replace("WHERE", "x"))
    assert "3 checked loops with a fast version" in prg.c_source
    rng = np.random.default_rng(3)
    a = rng.random(3 * 64, np.float32)
    out, want = f32(64), f32(64)
    prg.k((8, 8), (8, 8), a, out, np.int32(3), np.int32(0))
    build(TILE.replace("WHERE", "x"), "").k((8, 8), (8, 8), a, want, np.int32(3), np.int32(0))
    np.testing.assert_array_equal(out, want)
    assert collected(build(TILE.replace("WHERE", "x"), "-cl2c-check=collect").k, (8, 8),
                     (8, 8), a, out, np.int32(3), np.int32(0)) == []


def test_fast_version_of_a_tile_stored_by_columns_marks_every_cell():
    """The tile stored a column a row of work-items (t[x][y]: a step of a row between
    them, no run of words): the box's marks, row by row, leave each cell written by its
    work-item, so that the next phase's fast reads find the tile whole, and a read of a
    row the tile lacks (extra) still finds its cells unwritten."""
    src = TILE.replace("WHERE", "x").replace("t[y][x] = a", "t[x][y] = a")
    prg = build(src, "-cl2c-check=collect")
    assert "3 checked loops with a fast version" in prg.c_source
    a = np.random.default_rng(4).random(2 * 64, np.float32)
    out, want = f32(64), f32(64)
    assert collected(prg.k, (8, 8), (8, 8), a, out, np.int32(2), np.int32(0)) == []
    build(src, "").k((8, 8), (8, 8), a, want, np.int32(2), np.int32(0))
    np.testing.assert_array_equal(out, want)
    half = src.replace("t[x][y] = a", "if (x < 4) t[x][y] = a")   # rows 4-7 of t unwritten
    msg = finding(build(half).k, (8, 8), (8, 8), a, f32(64), np.int32(1), np.int32(0))
    assert "read of uninitialized __local memory: 't' at offset 128" in msg, msg


def test_fast_version_of_local_reads_falls_back_on_an_index_out_of_bounds():
    msg = finding(build(TILE.replace("WHERE", "x + extra")).k, (8, 8), (8, 8), f32(64),
                  f32(64), np.int32(1), np.int32(1))
    assert "array index 8 out of bounds of an array of 8 elements" in msg, msg
    assert "work-item (7," in msg


def test_fast_version_of_local_stores_falls_back_on_a_race():
    # every work-item of a row stores to one element (a step of 0 between them)
    src = TILE.replace("WHERE", "x").replace("t[y][x] = a", "t[y][extra * x] = a")
    msg = finding(build(src).k, (8, 8), (8, 8), np.arange(64, dtype=np.float32), f32(64),
                  np.int32(1), np.int32(0))
    assert re.search(r"data race: write of __local 't' at offset 0, which work-item "
                     r"\(local linear id 0\) wrote with no barrier between", msg), msg


def test_fast_version_of_local_reads_falls_back_on_uninitialized_memory():
    src = TILE.replace("WHERE", "x").replace("t[y][x] = a", "if (y < 7) t[y][x] = a")
    msg = finding(build(src).k, (8, 8), (8, 8), f32(64), f32(64), np.int32(1), np.int32(0))
    assert "read of uninitialized __local memory: 't' at offset 224" in msg, msg


# The bench's tiled Jacobi step: a 16x16 tile with a one-cell halo whose corners nothing
# writes. Its reads' box (from tile[0][1] to tile[17][16]) spans those corners; the
# reads themselves, row by row, touch only written cells.
JACOBI = (Path(__file__).resolve().parent.parent / "bench" / "kernels" / "gpu" /
          "tiled_stencil.cl").read_text()


def test_fast_version_of_halo_reads_finds_nothing():
    # the tile's loads (the middle of the rows and columns the grid's edge leaves) and
    # its reads; the top and bottom rows, whose halo loads under ``if (ly == 1)`` and
    # ``if (ly == TILE)`` run everywhere or nowhere in a row (the halo's columns run in
    # loops of one work-item a row: fission.py)
    prg = build(JACOBI, "-cl2c-check=collect")
    assert "6 checked loops with a fast version" in prg.c_source
    a = np.random.default_rng(5).random((35, 40), dtype=np.float32)
    out = np.zeros_like(a)
    assert collected(prg.jacobi_tiled, (48, 48), (16, 16), a, out, np.int32(40),
                     np.int32(35)) == []
    want = np.zeros_like(a)
    want[1:-1, 1:-1] = np.float32(0.25) * (a[1:-1, :-2] + a[1:-1, 2:] + a[:-2, 1:-1] +
                                           a[2:, 1:-1])
    np.testing.assert_array_equal(out, want)


def _unwritten_halo_cell(skipped: str) -> str:
    """The finding of the Jacobi step whose right halo's cell of tile row 5 is not
    written where ``skipped`` holds; work-item (15,4) of a group reads it."""
    src = JACOBI.replace("if (lx == TILE)\n", f"if (lx == TILE && !({skipped}))\n")
    assert src != JACOBI
    a = np.ones((35, 40), np.float32)
    msg = finding(build(src).jacobi_tiled, (48, 48), (16, 16), a, np.zeros_like(a),
                  np.int32(40), np.int32(35))
    assert f"read of uninitialized __local memory: 'tile' at offset {(5 * 18 + 17) * 4}" \
        in msg, msg
    return msg


def test_fast_version_of_halo_reads_falls_back_on_a_cell_nothing_wrote():
    msg = _unwritten_halo_cell("ly == 5")
    assert "work-item (15,4,0) of group (0,0,0)" in msg, msg


def test_a_cell_one_group_leaves_unwritten_is_found_after_groups_that_wrote_it():
    # the groups before (1,1) write the whole halo: a box of reads found written under
    # their written cells (check_box.h remembers it) must not pass (1,1), which differs
    msg = _unwritten_halo_cell("ly == 5 && get_group_id(0) == 1 && get_group_id(1) == 1")
    assert "work-item (15,4,0) of group (1,1,0)" in msg, msg


GRID = """
__kernel void k(__global float *out, int w, int extra) {
    int x = get_global_id(0), y = get_global_id(1);
    out[(y * w + x) + extra] = (float)(y * 8 + x);
}"""


def test_fast_version_of_rows_computes_the_same():
    # the group's rows and its work-item loop: one test before all of them
    prg = build(GRID)
    assert "with a fast version" in prg.c_source
    out = f32(256)
    assert collected(build(GRID, "-cl2c-check=collect").k, (16, 16), (8, 8), out,
                     np.int32(16), np.int32(0)) == []
    np.testing.assert_array_equal(out, (np.arange(16)[:, None] * 8 +
                                        np.arange(16)[None, :]).ravel().astype(np.float32))


def test_fast_version_of_rows_falls_back_at_the_far_corner():
    # only the group's last work-item (its last row's last) stores out of bounds
    msg = finding(build(GRID).k, (8, 8), (8, 8), f32(64), np.int32(8), np.int32(1))
    assert "out-of-bounds write of 4 bytes at offset 256 of __global 'out' (256 bytes)" \
        in msg, msg
    assert "work-item (7,7,0)" in msg


def test_fast_version_of_rows_falls_back_on_a_race_between_rows():
    # every row of the group stores to the same elements (w = 0): a race the test
    # sees in the rows' step, and the checks report (the rows run in groups of cl2c's
    # choosing, on two threads: which row comes second varies; the ids are the 8x8
    # group's, as the host asked)
    msg = finding(build(GRID).k, (8, 8), (8, 8), f32(64), np.int32(0), np.int32(0))
    found = re.search(r"data race: write of __global 'out' at offset (\d+), which work-item "
                      r"\(local linear id (\d+)\) wrote with no barrier between "
                      r"\(work-item \((\d),(\d),0\) of group \(0,0,0\)", msg)
    assert found, msg
    offset, other, x, y = map(int, found.groups())
    assert offset == 4 * x and other % 8 == x and other // 8 != y, msg


HALVING = """
__kernel void k(__global const float *in, __global float *out) {
    __local float t[64];
    int l = get_local_id(0);
    t[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = 32; s > 0; s /= 2) {
        if (l < s)
            t[l] += t[l + s];
        BARRIER
    }
    if (l == 0)
        out[get_group_id(0)] = t[0];
}"""


def test_fast_version_of_local_updates_computes_the_same():
    # each halving step updates t[l] and reads t[l + s], both of an earlier phase
    src = HALVING.replace("BARRIER", "barrier(CLK_LOCAL_MEM_FENCE);")
    prg = build(src, "-cl2c-check=collect")
    assert "cl2c_ck_box_update" in prg.c_source and "cl2c_ck_box_reread" in prg.c_source
    x = np.random.default_rng(8).random(256, np.float32)
    out, want = f32(4), f32(4)
    assert collected(prg.k, (256,), (64,), x, out) == []
    build(src, "").k((256,), (64,), x, want)
    np.testing.assert_array_equal(out, want)


def test_fast_version_of_local_updates_falls_back_on_a_missing_barrier():
    # no barrier in the loop: the next step reads what another work-item just wrote
    msg = finding(build(HALVING.replace("BARRIER", "")).k, (64,), (64,),
                  np.arange(64, dtype=np.float32), f32(1))
    assert re.search(r"data race: read of __local 't' at offset \d+, which work-item "
                     r"\(local linear id \d+\) wrote with no barrier between", msg), msg


# Two passes of a uniform loop in one barrier phase: the second's accesses meet what the
# first's read (or wrote) with no barrier between. The first pass has a fast version
# (32 work-items) or its checks (4); so has the second (31 or 4). The fast versions'
# tests answer from a summary of the __local shadow, and their read marks are written
# only when something looks (check_box.h): each must still see the other's accesses.
TWO_PASSES = """
__kernel void k(__global const float *x, __global float *out, int a, int b, int d) {
    __local float t[64];
    int l = get_local_id(0);
    t[l] = x[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 2; ++k) {
        if (l < a + k * b)
            t[l + k * d] += t[l + 32 - k * 32];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0)
        out[get_group_id(0)] = t[0] + t[40];
}"""


@pytest.mark.parametrize("a, b", [(32, -1), (32, -28), (4, 27)],
                         ids=["fast-then-fast", "fast-then-checked", "checked-then-fast"])
def test_a_write_after_a_read_in_one_phase_is_a_race(a, b):
    # pass 2: work-item 0 writes t[33], which work-item 1 read in pass 1
    prg = build(TWO_PASSES, "-cl2c-check=collect")
    assert "cl2c_ck_box_update" in prg.c_source
    found = collected(prg.k, (128,), (64,), np.arange(128, dtype=np.float32), f32(2),
                      np.int32(a), np.int32(b), np.int32(33))
    assert any("bug.cl:9:13: data race: write of __local 't' at offset 132, which "
               "work-item (local linear id 1) read with no barrier between" in f
               for f in found), found


def test_own_words_again_in_one_phase_are_no_race():
    # pass 2: each work-item writes the word it read in pass 1 and reads the one it wrote
    prg = build(TWO_PASSES, "-cl2c-check=collect")
    x, out, want = np.arange(128, dtype=np.float32), f32(2), f32(2)
    args = (np.int32(32), np.int32(-1), np.int32(32))
    assert collected(prg.k, (128,), (64,), x, out, *args) == []
    build(TWO_PASSES, "").k((128,), (64,), x, want, *args)
    np.testing.assert_array_equal(out, want)


def test_fast_version_of_local_updates_falls_back_on_uninitialized_memory():
    # only t[0..31] written: the update's reads of t[32..63] find nothing there
    src = """
__kernel void k(__global const float *x, __global float *out) {
    __local float t[64];
    int l = get_local_id(0);
    if (l < 32)
        t[l] = x[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 32)
        t[l] += t[l + 32];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0)
        out[get_group_id(0)] = t[0];
}"""
    prg = build(src, "-cl2c-check=collect")
    assert "cl2c_ck_box_update" in prg.c_source
    found = collected(prg.k, (128,), (64,), np.arange(128, dtype=np.float32), f32(2))
    assert any("bug.cl:9:17: read of uninitialized __local memory: 't' at offset 128" in f
               for f in found), found


def test_global_race_between_groups():
    src = """
__kernel void k(__global int *a) {
    a[get_local_id(0)] = get_group_id(0);
}"""
    msg = finding(build(src).k, (32,), (16,), np.zeros(32, np.int32))
    assert "bug.cl:3:5: data race: write of __global 'a' at offset " in msg
    assert "which a work-item of another group" in msg


def test_global_race_in_a_group():
    src = """
__kernel void k(__global int *a, __global int *out) {
    int i = get_global_id(0);
    a[i] = i;
    out[i] = a[i > 0 ? i - 1 : 0];
}"""
    msg = finding(build(src).k, (8,), (8,), np.zeros(8, np.int32), np.zeros(8, np.int32))
    assert "bug.cl:5:14: data race: read of __global 'a' at offset 0, which work-item " \
           "(local linear id 0) wrote" in msg
    assert "work-item (1,0,0)" in msg


def test_write_after_read_race():
    src = """
__kernel void k(__global int *a) {
    int i = get_global_id(0);
    int v = a[i + 1];
    a[i] = v;
}"""
    msg = finding(build(src).k, (7,), (7,), np.zeros(8, np.int32))
    assert "bug.cl:5:5: data race: write of __global 'a' at offset 4, which work-item " \
           "(local linear id 0) read" in msg


SEVERAL_READERS = """
__kernel void k(__global int *out) {
    __local int s[16];
    int l = get_local_id(0);
    s[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = s[0];
    BARRIER
    if (l == 0) s[0] = v + 1;
    out[get_global_id(0)] = v;
}"""


@pytest.mark.parametrize("schedule", ["auto", "fibers"])
def test_write_after_several_reads_race(schedule):
    """Every work-item reads s[0], then work-item 0, the first reader, writes it with no
    barrier between: the others' reads race with that write. In the regions schedule
    the uniform loop between runs at group level, so every read comes before the write
    (on fibers work-item 0 writes before the others read, a race found as such)."""
    src = SEVERAL_READERS.replace("BARRIER",
                                  "for (int k = 0; k < get_local_size(0); ++k) v &= ~k;")
    msg = finding(build(src, f"-cl2c-check -cl2c-schedule={schedule}").k, (16,), (16,),
                  np.zeros(16, np.int32))
    assert "data race: " in msg and "of __local 's' at offset 0" in msg
    if schedule == "auto":
        assert "bug.cl:9:17: data race: write of __local 's' at offset 0, which several " \
               "work-items of the group read with no barrier between" in msg
        assert "work-item (0,0,0)" in msg


def test_write_after_several_reads_behind_a_barrier_is_no_race():
    out = np.zeros(16, np.int32)
    src = SEVERAL_READERS.replace("BARRIER", "barrier(CLK_LOCAL_MEM_FENCE);")
    build(src).k((16,), (16,), out)
    assert (out == 0).all()


def test_uniform_stores_are_no_race():
    """Every work-item storing the same value (Oclgrind does not report it either)."""
    src = """
__kernel void k(__global int *out, __global int *flag) {
    __local int l;
    l = 1;
    flag[0] = 7;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = l;
}"""
    out, flag = np.zeros(16, np.int32), np.zeros(1, np.int32)
    build(src).k((16,), (4,), out, flag)
    assert (out == 1).all() and flag[0] == 7


def test_atomics_are_no_race():
    src = """
__kernel void k(__global int *count) {
    atomic_inc(&count[0]);
}"""
    count = np.zeros(1, np.int32)
    build(src).k((64,), (16,), count)
    assert count[0] == 64


# ---- uninitialized reads -------------------------------------------------------------

def test_uninitialized_local_read():
    src = """
__kernel void k(__global float *out) {
    __local float s[16];
    int l = get_local_id(0);
    if (l < 8) s[l] = 1.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = s[l];
}"""
    msg = finding(build(src).k, (16,), (16,), f32(16))
    assert "bug.cl:7:29: read of uninitialized __local memory: 's' at offset 32" in msg
    assert "work-item (8,0,0)" in msg


def test_local_memory_is_uninitialized_in_each_group():
    src = """
__kernel void k(__local int *t, __global int *out) {
    int l = get_local_id(0);
    if (get_group_id(0) == 0) t[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = t[l];
}"""
    msg = finding(build(src).k, (8,), (4,), cl2c.LocalMemory(16), np.zeros(8, np.int32))
    assert "read of uninitialized __local memory: 't' at offset 0" in msg
    assert "group (1,0,0)" in msg


# ---- barriers and collectives --------------------------------------------------------

def test_divergent_barrier():
    src = """
__kernel void k(__global int *out) {
    int l = get_local_id(0);
    if (l < 4) {
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = l;
}"""
    msg = finding(build(src).k, (8,), (8,), np.zeros(8, np.int32))
    assert "barrier divergence" in msg and "line 5" in msg


def test_divergent_collective():
    src = """
__kernel void k(__global int *out) {
    int l = get_local_id(0);
    int s = 0;
    if (l < 4)
        s = work_group_reduce_add(l);
    out[get_global_id(0)] = s;
}"""
    msg = finding(build(src, "-cl2c-check -cl-std=CL2.0").k, (8,), (8,), np.zeros(8, np.int32))
    assert "barrier divergence" in msg


def test_divergent_async_copy():
    src = """
__kernel void k(__global const int *in, __global int *out) {
    __local int t[8];
    int l = get_local_id(0);
    if (l < 4) {
        event_t e = async_work_group_copy(t, in, 8, 0);
        wait_group_events(1, &e);
    }
    out[get_global_id(0)] = l;
}"""
    msg = finding(build(src).k, (8,), (8,), np.zeros(8, np.int32), np.zeros(8, np.int32))
    # the wait diverges (fibers), and so does the copy (its count at the group's end):
    # whichever the launch stops at
    assert ("barrier divergence" in msg and "line 7" in msg) or \
        ("bug.cl:6:21: divergent async copy: reached 4 times by the group's 8 work-items"
         in msg), msg


def test_async_copy_out_of_bounds():
    src = """
__kernel void k(__global const int *in, __global int *out) {
    __local int t[8];
    event_t e = async_work_group_copy(t, in + 4, 8, 0);
    wait_group_events(1, &e);
    out[get_global_id(0)] = t[get_local_id(0)];
}"""
    msg = finding(build(src).k, (8,), (8,), np.zeros(8, np.int32), np.zeros(8, np.int32))
    assert "out-of-bounds" in msg, msg


# ---- arithmetic ----------------------------------------------------------------------

def test_division_by_zero():
    src = """
__kernel void k(__global int *a, __global const int *d) {
    int i = get_global_id(0);
    a[i] = a[i] / d[i] + a[i] % d[i];
}"""
    d = np.ones(16, np.int32)
    d[9] = 0
    msg = finding(build(src).k, (16,), (8,), np.ones(16, np.int32), d)
    assert "bug.cl:4:12: integer division by zero (work-item (1,0,0) of group (1,0,0), " \
           "global id (9,0,0))" in msg


def test_shift_counts_are_masked_not_reported():
    src = """
__kernel void k(__global int *a) {
    int i = get_global_id(0);
    a[i] = 1 << (i + 30);
}"""
    a = np.zeros(4, np.int32)
    build(src).k((4,), None, a)
    assert list(a) == [1 << 30, -(1 << 31), 1, 2]


# ---- collecting ------------------------------------------------------------------------

def test_collect_reports_every_site_after_the_launch():
    src = """
__kernel void k(__global float *a, __global const int *d) {
    int i = get_global_id(0);
    float x = a[i + 1];
    a[i] = x + 1 / d[i];
}"""
    prg = build(src, "-cl2c-check=collect")
    a = f32(16)
    found = collected(prg.k, (16,), (8,), a, np.zeros(16, np.int32))
    assert any("bug.cl:4:15: out-of-bounds read" in f for f in found), found
    assert any("bug.cl:5:16: integer division by zero" in f for f in found), found
    assert all(f.startswith("kernel 'k': ") for f in found)
    # the launch ran to its end: every work-item wrote
    assert (a >= 1.0).all()


def test_collect_finds_nothing_in_a_correct_launch():
    prg = build(OOB_GLOBAL, "-cl2c-check=collect")
    assert collected(prg.k, (32,), (16,), f32(64), np.int32(1)) == []


def test_from_c(tmp_path):
    """The C API: the sizes before the launch, CL2C_CHECK_FAILED and the finding."""
    import shutil
    import subprocess
    from cl2c.resources import runtime_include_dir
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    (tmp_path / "k.cl").write_text(OOB_GLOBAL)
    t = cl2c.translate(OOB_GLOBAL, "k.cl", options="-cl2c-check", output_name="k.c")
    (tmp_path / "k.c").write_text(t.c_source)
    (tmp_path / "k.h").write_text(t.emitted.header)
    (tmp_path / "main.c").write_text(r"""
#include <stdio.h>
#include "k.h"
int main(void) {
    float a[64] = {0};
    size_t sizes[2] = {sizeof a, 0};
    cl2c_program_k_check_sizes(sizes, 2);
    cl2c_range r = cl2c_range_1d(64, 16);
    int status = cl2c_kernel_k(&r, a, 1);
    printf("%d %s", status, cl2c_program_k_check_findings());
    return 0;
}
""")
    subprocess.run([cc, "-std=c11", "-O1", "-fopenmp", "-Wall", "-Wextra", "-Werror",
                    f"-I{runtime_include_dir()}", "main.c", "k.c", "-o", "main", "-lm"],
                   cwd=tmp_path, check=True)
    out = subprocess.run(["./main"], cwd=tmp_path, capture_output=True, text=True).stdout
    assert out.startswith("-1103 kernel 'k': k.cl:4:5: out-of-bounds write"), out


@pytest.mark.parametrize("kernel", ["", "__kernel void k(__global float *a) { a[0] = 1.0f; }"])
def test_helpers_no_kernel_calls_compile_without_warnings(kernel, tmp_path):
    """A checking build of a file whose helper no kernel calls (or with no kernel at
    all): its checks go with it, and the C compiles clean (-Wall -Wextra -Werror)."""
    import shutil
    import subprocess
    from cl2c.resources import runtime_include_dir
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    src = """
float get(__global const float *x, int i) { return x[i] / (float)(i % 3); }
""" + kernel
    t = cl2c.translate(src, "h.cl", options="-cl2c-check", output_name="h.c")
    assert '{"h.cl", 2, ' not in t.c_source           # the helper's checks' places
    (tmp_path / "h.c").write_text(t.c_source)
    subprocess.run([cc, "-std=c11", "-O1", "-fopenmp", "-Wall", "-Wextra", "-Werror",
                    f"-I{runtime_include_dir()}", "-c", "h.c", "-o", "h.o"],
                   cwd=tmp_path, check=True)


def test_cli_flag(tmp_path):
    from click.testing import CliRunner
    from cl2c.cli import main
    (tmp_path / "k.cl").write_text(OOB_GLOBAL)
    result = CliRunner().invoke(main, [str(tmp_path / "k.cl"), "--check", "-o", "-"])
    assert result.exit_code == 0, result.output
    assert "CL2C_CK_STORE(" in result.output or "CL2C_CK_ARG_STORE(" in result.output


# ---- correct kernels: nothing found ------------------------------------------------------

def _piglit_sample():
    try:
        from piglit.corpus import CorpusUnavailable, corpus_root, list_tests
        root = corpus_root()
        files = [f for f in list_tests(root) if "/program/execute/" in f]
    except Exception as e:      # CorpusUnavailable, or no network to fetch it
        return None, [], str(e)
    # every 12th executing file: a spread over the corpus that stays quick
    return root, files[::12], None


PIGLIT_ROOT, PIGLIT_SAMPLE, PIGLIT_MISSING = _piglit_sample()


@pytest.mark.skipif(PIGLIT_MISSING is not None, reason=f"piglit corpus: {PIGLIT_MISSING}")
@pytest.mark.parametrize("rel", PIGLIT_SAMPLE or ["<no corpus>"])
def test_piglit_sample_finds_nothing(rel, monkeypatch):
    """Checking mode over a sample of piglit's corpus (`make check-piglit`: all of it):
    a file passes as it does without checks, and no launch reports a finding."""
    from piglit import runner
    from test_piglit import known_failures
    monkeypatch.setenv("CL2C_CHECK", "1")
    result = runner.run_file(PIGLIT_ROOT, rel)
    if result.status == "skip":
        pytest.skip(result.message)
    if rel in known_failures():
        pytest.xfail(known_failures()[rel])
    assert result.status == "pass", result.message[:2000]


def test_local_arrays_of_two_kernels_with_one_name():
    src = """
__kernel void a(__global int *out) {
    __local int m[16];
    int l = get_local_id(0);
    m[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[l] = m[15 - l];
}
__kernel void b(__global int *out) {
    __local int m[4];
    out[0] = 0;
}"""
    out = np.zeros(16, np.int32)
    build(src).a((16,), (16,), out)
    assert list(out) == list(range(15, -1, -1))


def test_piglit_bswap_out_of_bounds():
    """A real find: piglit's bswap.cl launches 24 work-items over 8-element buffers."""
    src = """
kernel void v_bswap_v2u16(global ushort2* out, global ushort2* in) {
    int id = get_global_id(0);
    out[id] = in[id].yx;
}"""
    msg = finding(build(src, name="bswap.cl").v_bswap_v2u16, (24,), None,
                  np.zeros(16, np.uint16), np.zeros(16, np.uint16))
    assert "bswap.cl:4:15: out-of-bounds read of 4 bytes at offset 32 of __global 'in' " \
           "(32 bytes)" in msg or "bswap.cl:4:5: out-of-bounds write" in msg, msg


# ---- math builtins that store a second result ----------------------------------------

SECOND_RESULTS = """
__kernel void k(__global float *out, __global const float *in, int shift)
{
    __local float whole[64];
    __local int ex[64];
    int l = get_local_id(0);
    float f = fract(in[get_global_id(0)], &whole[l + shift]);
    float m = frexp(in[get_global_id(0)], &ex[l]);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = f + whole[l] + m + ex[l];
}
"""


def test_fract_and_frexp_write_the_local_memory_they_point_to():
    # piglit's math _local files: the read after the barrier is of initialised memory
    prg = build(SECOND_RESULTS, "-cl2c-check=collect")
    a = np.linspace(-3, 3, 128).astype(np.float32)
    assert collected(prg.k, (128,), (64,), f32(128), a, np.int32(0)) == []


def test_a_second_result_stored_out_of_bounds_is_found():
    prg = build(SECOND_RESULTS)
    a = np.linspace(-3, 3, 128).astype(np.float32)
    message = finding(prg.k, (128,), (64,), f32(128), a, np.int32(1))
    # (the index check of the __local array sees it first)
    assert "bug.cl:7:50: array index 64 out of bounds of an array of 64 elements" in message
    assert "work-item (63,0,0)" in message


# ---- groups of cl2c's choosing --------------------------------------------------------
# A kernel that cannot tell its groups apart runs in groups of cl2c's choosing in
# checking builds too (cl2c_regroup, as normal builds do); findings still name the
# work-item and group of the local size the host asked for.

BLIND = """
__kernel void k(__global const float *in, __global float *out, int bad) {
    int x = get_global_id(0), y = get_global_id(1);
    out[y * 64 + x] = in[y * 64 + x + (x == 13 && y == 9 ? bad : 0)];
}"""


def test_regrouped_findings_name_the_groups_the_host_asked_for():
    prg = build(BLIND)
    assert "cl2c_ck_regrouped(" in prg.c_source
    msg = finding(prg.k, (64, 64), (8, 8), f32(64 * 64), f32(64 * 64), np.int32(64 * 64))
    assert "out-of-bounds read of 4 bytes" in msg, msg
    assert "(work-item (5,1,0) of group (1,1,0), global id (13,9,0))" in msg, msg


RACE_ACROSS = """
__kernel void k(__global int *out) {
    out[get_global_id(0) % 64] = (int)get_global_id(0);
}"""


def test_regrouped_race_names_the_other_group_as_the_host_asked():
    msg = finding(build(RACE_ACROSS).k, (128,), (16,), np.zeros(64, np.int32))
    found = re.search(r"offset (\d+), which a work-item of another group \(linear id (\d+)\) "
                      r"wrote in this launch \(work-item \((\d+),0,0\) of group \((\d+),0,0\), "
                      r"global id \((\d+),0,0\)\)", msg)
    assert found, msg
    offset, other_group, lid, group, gid = map(int, found.groups())
    assert gid == group * 16 + lid and offset == 4 * (gid % 64), msg
    assert other_group == ((gid + 64) % 128) // 16, msg


MARKED = """
__kernel void k(__global float *out, __global float *res, int far) {
    int i = get_global_id(0);
    out[i] = (float)i;
    barrier(CLK_GLOBAL_MEM_FENCE);
    res[i] = out[far ? (i + 8) % 16 : i ^ 1];
}"""


def test_stores_of_a_fast_version_leave_their_marks():
    """The first region's stores run in a fast version, which writes their shadow words
    after its rows (cl2c_ck_mark_box, in vectorised runs). The second region reads them:
    a neighbour's of the same group after the barrier is no race; another group's is."""
    prg = build(MARKED, "-cl2c-check=collect")
    assert "cl2c_ck_mark_box(" in prg.c_source
    out, res = f32(16), f32(16)
    assert collected(prg.k, (16,), (8,), out, res, np.int32(0)) == []
    np.testing.assert_array_equal(res, (np.arange(16) ^ 1).astype(np.float32))
    # a group's reads of the other's stores: which work-item reads first after the other
    # group's store depends on how the two groups' threads interleave
    found = collected(prg.k, (16,), (8,), out, res, np.int32(1))
    races = [m for f in found for m in [re.search(
        r"bug.cl:6:14: data race: read of __global 'out' at offset (\d+), which a "
        r"work-item of another group \(linear id \d\) wrote in this launch .*global id "
        r"\((\d+),0,0\)", f)] if m]
    assert races, found
    for m in races:
        assert int(m.group(1)) == 4 * ((int(m.group(2)) + 8) % 16), m.group(0)
