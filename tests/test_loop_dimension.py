"""A kernel whose work-items each compute a row in a loop (the lecture's V1 and V2:
``i = get_global_id(0); for (j ...) C[i*DIM+j] = ...``) runs the loop's iterations as
work-items of a second dimension, where that computes the same
(workgroup/loop_dimension.py): bit for bit against the same kernel launched so that
the loop stays one (a range of two dimensions, which the entry runs as written), and
against NumPy. Where the loop writes an argument that another argument it reads
overlaps, the entry keeps the loop, and the results are a sequential loop's; loops
whose iterations depend on each other stay loops at translation."""
from __future__ import annotations

import re

import numpy as np
import pytest

import cl2c
from conftest import lecture_source

# at -O3: the loop's iterations run in vector lanes there, which a loop whose elements
# meet would show
pytestmark = pytest.mark.optimised

SOURCE = r"""
/* iterations apart: each writes b's element i*80+j+1, from a's row */
__kernel void shift(__global const float *a, __global float *b) {
    int i = get_global_id(0);
    for (int j = 0; j < 79; j++)
        b[i * 80 + j + 1] = a[i * 80 + j] * 0.5f + (float)j;
}
/* a running sum: each iteration reads what the one before left */
__kernel void prefix(__global const float *a, __global float *b) {
    int i = get_global_id(0);
    float acc = 0.0f;
    for (int j = 0; j < 16; j++) {
        acc += a[i * 16 + j];
        b[i * 16 + j] = acc;
    }
}
/* every iteration writes one element */
__kernel void row_sum(__global const float *a, __global float *b) {
    int i = get_global_id(0);
    for (int j = 0; j < 16; j++)
        b[i] += a[i * 16 + j];
}
/* a store in some iterations only: the element is not held (its other values stay) */
__kernel void clip(__global const float *a, __global float *b) {
    int i = get_global_id(0);
    for (int j = 0; j < 64; j++)
        if (a[i * 64 + j] > 0.5f)
            b[i * 64 + j] = a[i * 64 + j];
}
/* a private copy that converts (to int): kept, with its loop */
__kernel void truncated(__global const float *a, __global float *c) {
    int i = get_global_id(0);
    int Al[32];
    for (int k = 0; k < 32; k++)
        Al[k] = a[i * 32 + k];
    for (int j = 0; j < 16; j++) {
        float s = 0.0f;
        for (int k = 0; k < 32; k++)
            s += Al[k] * (float)j;
        c[i * 16 + j] = s;
    }
}
/* its element stored, then added to */
__kernel void zeroed(__global const float *a, __global float *c) {
    int i = get_global_id(0);
    for (int j = 0; j < 16; j++) {
        c[i * 16 + j] = 0.0f;
        for (int k = 0; k < 4; k++)
            c[i * 16 + j] += a[i * 4 + k] * (float)j;
    }
}
/* a private value of the iteration, an inner loop, unsigned arithmetic and an offset */
__kernel void blur(__global const float *a, __global float *b, float w) {
    uint i = get_global_id(0);
    uint row = i * 24u;
    float s;
    for (int j = 0; j < 20; ++j) {
        s = 0.0f;
        for (int k = 0; k < 5; k++)
            s += a[row + j + k] * (w + k);
        b[i * 20 + j] = s;
    }
}
"""


def _plans(source):
    return {k.name: k.plan for k in cl2c.translate(source, "t.cl").kernels}


@pytest.fixture(scope="module")
def program():
    return cl2c.Program(SOURCE).build()


def test_which_loops_become_a_dimension():
    plans = _plans(SOURCE)
    assert plans["shift"].loop is not None and plans["shift"].loop.count == 79
    assert plans["blur"].loop is not None
    assert plans["clip"].loop is not None
    assert plans["prefix"].loop is None        # an iteration reads the last one's acc
    assert plans["row_sum"].loop is None       # all iterations write b[i]
    assert plans["truncated"].loop is None     # its copy converts: not the argument's
    for version in ("v1", "v2", "v5", "try1"):
        plan = _plans(lecture_source(version, 64))["matmult"]
        assert plan.loop is not None and plan.loop.var == "j" and plan.loop.transposed
        assert "its loop over j as dimension 1" in plan.reason
    assert _plans(lecture_source("v3", 64))["matmult"].loop is None    # two dimensions
    # V6's barriers go with its __local copy (lower/local_copies.py): a row kernel too
    v6 = _plans(lecture_source("v6", 64))["matmult"]
    assert v6.loop is not None and v6.loop.var == "j" and "Bl, a copy of B" in v6.reason
    assert _plans(lecture_source("v2", 64), )["matmult"].loop is not None
    # V1's element of C, which every iteration adds to, is held in a private value
    # through the k loop (and so in the register tiles); clip's, stored in some, is not
    assert "C__element" in cl2c.translate(lecture_source("v1", 64), "v1.cl").c_source
    c = cl2c.translate(SOURCE, "t.cl").c_source
    clip = c[c.index("void clip__loop__group("):]
    assert "__element" not in clip[:clip.index("\n}\n")]
    checked = cl2c.translate(lecture_source("v2", 64), "v2.cl", options="-cl2c-check")
    assert checked.kernels[0].plan.loop is not None     # checked as it runs


@pytest.mark.parametrize("version", ["v1", "v2", "v5", "try1"])
@pytest.mark.parametrize("dim, rows, offset", [(64, 64, 0), (40, 37, 0), (48, 20, 9)])
def test_lecture_rows_as_printed(version, dim, rows, offset):
    """V1, V2, and V5 and Try 1 (which copy rows and columns into private arrays, read
    from the arguments in the new kernel): bit for bit as the loop computes them (a
    range of two dimensions keeps the loop), and as NumPy within rounding."""
    prg = cl2c.Program(lecture_source(version, dim)).build()
    rng = np.random.default_rng(dim + rows)
    A = rng.random((dim, dim), dtype=np.float32)
    B = rng.random((dim, dim), dtype=np.float32)
    C, kept = (np.full((dim, dim), 0.5, np.float32) for _ in range(2))
    prg.matmult((rows,), None, A, B, C, global_offset=offset)
    prg.matmult((rows, 1), None, A, B, kept, global_offset=(offset, 0))
    np.testing.assert_array_equal(C, kept)
    want = np.full((dim, dim), 0.5)
    want[offset:offset + rows] = (A.astype(np.float64) @ B)[offset:offset + rows] + \
        (0.5 if version == "v1" else 0.0)
    np.testing.assert_allclose(C, want, rtol=1e-4)


@pytest.mark.parametrize("bounds", [[0, 1, 8], [0, 3, 4, 8]])
def test_parts_equal_the_whole(bounds):
    """Parts of the launch (``groups=``), each run with its loop as a dimension, stitched
    together, equal the whole launch."""
    dim = 32
    prg = cl2c.Program(lecture_source("v2", dim)).build()
    A = np.random.default_rng(1).random((dim, dim), dtype=np.float32)
    B = np.random.default_rng(2).random((dim, dim), dtype=np.float32)
    whole, parts = (np.zeros((dim, dim), np.float32) for _ in range(2))
    prg.matmult((dim,), (4,), A, B, whole)
    for lo, hi in zip(bounds, bounds[1:]):
        prg.matmult((dim,), (4,), A, B, parts, groups=range(lo, hi))
    np.testing.assert_array_equal(parts, whole)
    np.testing.assert_allclose(whole, A.astype(np.float64) @ B, rtol=1e-4)


def test_apart_arguments(program):
    a = np.arange(8 * 80, dtype=np.float32)
    b = np.zeros(8 * 80, np.float32)
    program.shift(8, None, a, b)
    want = np.zeros((8, 80), np.float32)
    want[:, 1:] = a.reshape(8, 80)[:, :79] * np.float32(0.5) + np.arange(79, dtype=np.float32)
    np.testing.assert_array_equal(b.reshape(8, 80), want)


def test_one_buffer_for_both_arguments_runs_the_loop_in_order(program):
    """``shift`` in place: each iteration reads the element the one before wrote. The
    entry finds a and b meet and runs the loop as written, in order: each element
    computed from the one before it as the loop left it."""
    buf = np.arange(8 * 80, dtype=np.float32)
    want = buf.reshape(8, 80).copy()
    for j in range(79):
        want[:, j + 1] = want[:, j] * np.float32(0.5) + np.float32(j)
    program.shift(8, None, buf, buf)
    np.testing.assert_array_equal(buf.reshape(8, 80), want)


def test_loops_whose_iterations_meet_compute_in_order(program):
    a = np.random.default_rng(3).random(8 * 16, dtype=np.float32)
    b = np.zeros(8 * 16, np.float32)
    program.prefix(8, None, a, b)
    np.testing.assert_array_equal(b.reshape(8, 16),
                                  np.cumsum(a.reshape(8, 16), axis=1, dtype=np.float32))
    s = np.zeros(8, np.float32)
    program.row_sum(8, None, a, s)
    want = np.zeros(8, np.float32)
    for j in range(16):
        want += a.reshape(8, 16)[:, j]
    np.testing.assert_array_equal(s, want)


@pytest.mark.parametrize("rows, offset", [(6, 0), (5, 1)])
def test_inner_loop_and_unsigned_indices(program, rows, offset):
    a = np.random.default_rng(4).random(8 * 24 + 8, dtype=np.float32)
    b, kept = (np.zeros(8 * 20, np.float32) for _ in range(2))
    program.blur(rows, None, a, b, np.float32(0.5), global_offset=offset)
    program.blur((rows, 1), None, a, kept, np.float32(0.5), global_offset=(offset, 0))
    np.testing.assert_array_equal(b, kept)
    want = np.zeros((8, 20))
    for i in range(offset, offset + rows):
        for j in range(20):
            want[i, j] = sum(a[i * 24 + j + k] * (0.5 + k) for k in range(5))
    np.testing.assert_allclose(b.reshape(8, 20), want, rtol=1e-5)


def test_a_store_in_some_iterations_leaves_the_others(program):
    a = np.random.default_rng(6).random(8 * 64, dtype=np.float32)
    b = np.full(8 * 64, -1.0, np.float32)
    program.clip(8, None, a, b)
    np.testing.assert_array_equal(b, np.where(a > 0.5, a, np.float32(-1.0)))


def test_a_private_copy_of_the_written_argument_runs_the_loop(program):
    """V5 with A and C one buffer: each work-item copies its row of A before it writes
    that row of C. The new kernel would read A where it is written; the entry finds A
    and C meet and runs the loop, which computes from the copy."""
    dim = 256     # (more columns than a register tile's: tiles of a row one after another)
    prg = cl2c.Program(lecture_source("v5", dim)).build()
    rng = np.random.default_rng(9)
    AC = rng.random((dim, dim), dtype=np.float32)
    B = rng.random((dim, dim), dtype=np.float32)
    want = np.zeros((dim, dim), np.float32)
    prg.matmult((dim,), None, AC.copy(), B, want)
    prg.matmult((dim,), None, AC, B, AC)
    np.testing.assert_array_equal(AC, want)


def test_a_converting_copy_keeps_its_values(program):
    a = (np.random.default_rng(8).random(4 * 32, dtype=np.float32) * 10).astype(np.float32)
    c = np.zeros(4 * 16, np.float32)
    program.truncated(4, None, a, c)
    truncated = a.reshape(4, 32).astype(np.int32).astype(np.float64)
    want = truncated.sum(axis=1)[:, None] * np.arange(16)
    np.testing.assert_allclose(c.reshape(4, 16), want, rtol=1e-6)


# ---- checking builds: the new kernel is checked, its findings name the host's work-items

BUGS = r"""
__kernel void past_the_end(__global const float *a, __global float *c) {
    int i = get_global_id(0);
    for (int j = 0; j < 16; j++)
        c[i * 16 + j] = a[i * 17 + j];
}
__kernel void one_row_for_all(__global const float *a, __global float *c) {
    int i = get_global_id(0);
    for (int j = 0; j < 16; j++)
        c[j] = a[i * 16 + j];
}
"""


def test_a_checked_build_runs_the_new_kernel_checked():
    """V2's checking build: the new kernel (its plan says so) computes what the unchecked
    build does and finds nothing."""
    dim = 64
    src = lecture_source("v2", dim)
    checked = cl2c.Program(src, options="-cl2c-check=collect").build()
    plain = cl2c.Program(src).build()
    A = np.random.default_rng(11).random((dim, dim), dtype=np.float32)
    B = np.random.default_rng(12).random((dim, dim), dtype=np.float32)
    C, want = (np.zeros((dim, dim), np.float32) for _ in range(2))
    checked.matmult((dim,), None, A, B, C)
    plain.matmult((dim,), None, A, B, want)
    assert checked.matmult.findings == []
    np.testing.assert_array_equal(C, want)


@pytest.mark.parametrize("local", [None, (4,)])
def test_a_finding_names_the_hosts_work_item(local):
    """Work-item 7 alone reads past the end of a (row i reads 16 elements from i*17):
    the finding names it as the host launched it, global id (7,0,0), not an iteration."""
    prg = cl2c.Program(BUGS, filename="bugs.cl", options="-cl2c-check").build()
    assert next(k for k in cl2c.translate(BUGS, "bugs.cl", options="-cl2c-check").kernels
                if k.name == "past_the_end").plan.loop is not None
    with pytest.raises(cl2c.LaunchError) as info:
        prg.past_the_end(8, local, np.zeros(128, np.float32), np.zeros(128, np.float32))
    msg = str(info.value)
    assert "bugs.cl:5:25: out-of-bounds read" in msg and "global id (7,0,0)" in msg, msg
    if local:
        assert "work-item (3,0,0) of group (1,0,0)" in msg, msg


def test_a_race_between_the_hosts_work_items_is_found():
    prg = cl2c.Program(BUGS, filename="bugs.cl", options="-cl2c-check").build()
    with pytest.raises(cl2c.LaunchError) as info:
        prg.one_row_for_all(8, None, np.arange(128, dtype=np.float32), np.zeros(16, np.float32))
    msg = str(info.value)
    assert re.search(r"bugs\.cl:10:\d+: data race: write of __global 'c'", msg), msg
    assert re.search(r"global id \(\d,0,0\)", msg), msg


def _twin(c_source: str, kernel: str) -> str:
    text = c_source[c_source.index(f"void {kernel}__loop__group("):]
    return text[:text.index("\n}\n")]


def test_a_checking_build_holds_an_element_only_where_it_is_read_first(program):
    """A checking build's checks see the accesses the kernel makes: V1's element, read
    first at each k, is held there too (the held value's first read is the kernel's
    own); zeroed's, stored first, is held only in the unchecked build (a first read of
    it would be one the kernel does not make: uninitialized memory, say)."""
    plain = cl2c.translate(SOURCE, "t.cl").c_source
    checked = cl2c.translate(SOURCE, "t.cl", options="-cl2c-check").c_source
    assert "c__element" in _twin(plain, "zeroed")
    assert "c__element" not in _twin(checked, "zeroed")
    v1 = cl2c.translate(lecture_source("v1", 64), "v1.cl", options="-cl2c-check").c_source
    assert "C__element" in _twin(v1, "matmult")
    a = np.random.default_rng(13).random(8 * 4, dtype=np.float32)
    c = np.full(8 * 16, 7.0, np.float32)
    program.zeroed(8, None, a, c)
    want = np.zeros((8, 16), np.float32)
    for k in range(4):
        want = want + a.reshape(8, 4)[:, k:k + 1] * np.arange(16, dtype=np.float32)
    np.testing.assert_allclose(c.reshape(8, 16), want, rtol=1e-6)
