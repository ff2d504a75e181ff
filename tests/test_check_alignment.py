"""Checking mode: misaligned pointers. A cast to a pointer whose pointee is aligned to
more than a byte (a vector, an int) at an address not aligned to it is undefined (C11
6.3.2.3, kept by OpenCL C), and without checking may fault (aligned vector loads) or
read what it should not. One program, one build."""
from __future__ import annotations

import numpy as np
import pytest

from check_helpers import build, finding

SRC = """
__kernel void quads(__global const float *in, __global float4 *out, int skew) {
    int i = get_global_id(0);
    out[i] = *(__global const float4 *)(in + 4 * i + skew);
}
__kernel void words(__global const uchar *bytes, __global uint *out, int at) {
    int i = get_global_id(0);
    __global const uint *w = (__global const uint *)(bytes + at);
    out[i] = w[i];
}
__kernel void private_pair(__global float2 *out, int skew) {
    float2 g[3] = {(float2)(0.0f, 1.0f), (float2)(2.0f, 3.0f), (float2)(4.0f, 5.0f)};
    float *f = (float *)g;
    float2 *p = (float2 *)(f + skew);
    out[get_global_id(0)] = p[1];
}
"""


@pytest.fixture(scope="module")
def prg():
    return build(SRC)


def test_misaligned_vector_cast(prg):
    msg = finding(prg.quads, (8,), (4,), np.arange(40, dtype=np.float32),
                  np.zeros((8, 4), np.float32), np.int32(1))
    assert "kernel 'quads': bug.cl:4:15: misaligned pointer: a cast to a type aligned to " \
           "16 bytes at offset 4 of __global 'in' (work-item (0,0,0) of group (0,0,0)" in msg


def test_aligned_vector_cast_passes(prg):
    out = np.zeros((8, 4), np.float32)
    prg.quads((8,), (4,), np.arange(40, dtype=np.float32), out, np.int32(4))
    assert (out.ravel() == np.arange(4, 36)).all()


def test_misaligned_scalar_cast(prg):
    msg = finding(prg.words, (4,), (4,), np.arange(32, dtype=np.uint8),
                  np.zeros(4, np.uint32), np.int32(2))
    assert "kernel 'words': bug.cl:8:30: misaligned pointer: a cast to a type aligned to " \
           "4 bytes at offset 2 of __global 'bytes'" in msg


def test_aligned_scalar_cast_passes(prg):
    data = np.arange(32, dtype=np.uint8)
    out = np.zeros(4, np.uint32)
    prg.words((4,), (4,), data, out, np.int32(4))
    assert (out == data[4:20].view(np.uint32)).all()


def test_misaligned_private_vector_cast(prg):
    msg = finding(prg.private_pair, (4,), (4,), np.zeros((4, 2), np.float32), np.int32(1))
    assert "kernel 'private_pair': bug.cl:14:17: misaligned pointer: a cast to a type " \
           "aligned to 8 bytes at address 0x" in msg
    out = np.zeros((4, 2), np.float32)
    prg.private_pair((4,), (4,), out, np.int32(2))
    assert (out == [4.0, 5.0]).all()


ARGS = """
__kernel void scale(__global float4 *v, float s) {
    int i = get_global_id(0);
    v[i] = v[i] * s;
}
__kernel void bytes(__global uchar *b) {
    b[get_global_id(0)] += 1;
}
"""


def _view(dtype, n, skew):
    """n elements of dtype that start skew bytes past an aligned address."""
    raw = np.zeros(n * np.dtype(dtype).itemsize + 64, np.uint8)
    start = (-raw.ctypes.data) % 64 + skew
    return raw[start:start + n * np.dtype(dtype).itemsize].view(dtype)


@pytest.fixture(scope="module")
def args_prg():
    return build(ARGS)


def test_misaligned_buffer_argument(args_prg):
    """A view a byte into its memory, passed where the kernel takes float4: reported
    at launch, naming the argument; no work-item runs (the memory is unchanged)."""
    prg = args_prg
    v = _view(np.float32, 64, 1)
    v[:] = np.arange(64)
    msg = finding(prg.scale, (16,), (4,), v, np.float32(2))
    assert "kernel 'scale': bug.cl:2:37: misaligned buffer argument: 'v' at address 0x" in msg
    assert "which its type needs aligned to 16 bytes (at launch, before any work-item ran)" \
        in msg
    assert (v == np.arange(64)).all()


def test_aligned_buffer_arguments_pass(args_prg):
    """Aligned to the type: a float4 at 16 bytes; a uchar buffer at any byte."""
    prg = args_prg
    v = _view(np.float32, 64, 16)
    v[:] = np.arange(64)
    prg.scale((16,), (4,), v, np.float32(2))
    assert (v == 2 * np.arange(64)).all()
    b = _view(np.uint8, 16, 1)
    prg.bytes((16,), (4,), b)
    assert (b == 1).all()
