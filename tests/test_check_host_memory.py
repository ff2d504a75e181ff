"""Checking mode: memory the host did not give. A write to a buffer the host gave
read-only (a NumPy array that is not writeable: the checks see it, where the loader's
static refusal cannot, through a cast), a dereference of a NULL pointer (an argument
passed as None, a pointer set to 0) reported as such. One program, one build."""
from __future__ import annotations

import numpy as np
import pytest

from check_helpers import build, finding

SRC = """
__kernel void copy(__global const float *src, __global float *dst, int to_dst) {
    int i = get_global_id(0);
    __global float *out = (__global float *)src;
    if (to_dst) out = dst;
    out[i] = src[i] + 1.0f;
}
__kernel void gather(__global const int *table, __global int *out, int test) {
    int i = get_global_id(0);
    out[i] = test && !table ? -1 : table[i];
}
__kernel void deref(__global int *out, int use) {
    __global int *p = 0;
    int i = get_global_id(0);
    if (use && i == 3) out[i] = p[i];
}
"""


@pytest.fixture(scope="module")
def prg():
    return build(SRC)


def _read_only(a):
    a.flags.writeable = False
    return a


def test_write_to_a_read_only_array(prg):
    src = _read_only(np.ones(8, np.float32))
    msg = finding(prg.copy, (8,), (4,), src, np.zeros(8, np.float32), np.int32(0))
    assert "kernel 'copy': bug.cl:6:5: write to read-only __global 'src' at offset 0: the " \
           "host gave it read-only (work-item (0,0,0) of group (0,0,0)" in msg
    assert (src == 1).all()


def test_reads_of_a_read_only_array_pass(prg):
    dst = np.zeros(8, np.float32)
    prg.copy((8,), (4,), _read_only(np.ones(8, np.float32)), dst, np.int32(1))
    assert (dst == 2).all()


def test_a_read_only_view_of_a_written_array_is_no_finding(prg):
    """The same memory passed writeable too: the buffer is not read-only."""
    a = np.ones(8, np.float32)
    prg.copy((8,), (4,), _read_only(a.view()), a, np.int32(0))
    assert (a == 2).all()


def test_null_argument_dereference(prg):
    msg = finding(prg.gather, (8,), (4,), None, np.zeros(8, np.int32), np.int32(0))
    assert "kernel 'gather': bug.cl:10:36: NULL pointer dereference: read of 4 bytes at " \
           "address 0x0 (work-item (0,0,0) of group (0,0,0)" in msg
    out = np.zeros(8, np.int32)
    prg.gather((8,), (4,), None, out, np.int32(1))      # tested before use: no finding
    assert (out == -1).all()


def test_null_pointer_dereference(prg):
    msg = finding(prg.deref, (8,), (4,), np.zeros(8, np.int32), np.int32(1))
    assert "kernel 'deref': bug.cl:15:33: NULL pointer dereference: read of 4 bytes at " \
           "address 0xc (work-item (3,0,0) of group (0,0,0), global id (3,0,0))" in msg
    out = np.zeros(8, np.int32)
    prg.deref((8,), (4,), out, np.int32(0))
    assert (out == 0).all()
