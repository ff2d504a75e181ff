"""A kernel that reads a buffer through a pointer to a more aligned type (a float * as
float16 *) is right at offset 0 in OpenCL, whose buffers start at
CL_DEVICE_MEM_BASE_ADDR_ALIGN (128 bytes). NumPy's arrays of over about 128 KiB start 16
bytes past a 64-byte line, and such a cast's aligned vector loads faulted there: the
loader places the buffers such a kernel casts as OpenCL would (sema/whole_program.py's
cast_align). Each kernel runs on arrays at every 16-byte offset from a 128-byte
boundary, compared exactly with NumPy; checking builds find no "misaligned" cast at
offset 0 and still find one at offset 4."""
from __future__ import annotations

import numpy as np
import pytest

import cl2c
from cl2c.interface import KernelInterface
from check_helpers import build, finding

SRC = """
typedef struct __attribute__((aligned(64))) { float v[16]; } Row;

void twice(__global float16 *p, size_t i) { p[i] *= 2.0f; }

__kernel void cast_param(__global float *a, __global const float *b) {
    size_t i = get_global_id(0);
    ((__global float16 *)a)[i] += ((__global const float16 *)b)[i] * 2.0f;
}
__kernel void cast_variable(__global float *a, int from) {
    __global float *start = a + from;          /* not plainly the parameter */
    __global float8 *v = (__global float8 *)start;
    v[get_global_id(0)] += (float8)(1.0f);
}
__kernel void from_void(__global void *raw) {
    __global double4 *d = raw;                 /* an implicit conversion */
    d[get_global_id(0)] *= 3.0;
}
__kernel void through_helper(__global float *a) {
    twice((__global float16 *)a, get_global_id(0));
}
__kernel void as_struct(__global float *a) {
    __global Row *r = (__global Row *)a;
    r[get_global_id(0)].v[3] = 7.0f;
}
__kernel void plain(__global float *a) { a[get_global_id(0)] += 1.0f; }
__kernel void twice_named(__global float *a, __global const float *b) {
    size_t i = get_global_id(0);
    ((__global float16 *)a)[i] += 1.0f;
    float s = 0.0f;                            /* b is a: it reads what a wrote */
    for (int j = 0; j < 16; j++)
        s += b[16 * i + j];
    a[16 * i] = s;
}
"""
N = 4096          # float16 elements: 256 KiB of floats, past NumPy's own mapping size


def placed(values: np.ndarray, offset: int) -> np.ndarray:
    """A copy of ``values`` starting ``offset`` bytes past a 128-byte boundary."""
    raw = np.empty(values.nbytes + 256, np.uint8)
    start = (-raw.ctypes.data) % 128 + offset
    out = raw[start:start + values.nbytes].view(values.dtype).reshape(values.shape)
    out[...] = values
    assert out.ctypes.data % 128 == offset
    return out


@pytest.fixture(scope="module")
def prg():
    return cl2c.Program(SRC).build()


def test_the_kernels_rely_on_what_they_cast_to(prg):
    aligns = {name: [a.align for a in getattr(prg, name).interface.args if a.kind == "buffer"]
              for name in ("cast_param", "cast_variable", "from_void", "through_helper",
                           "as_struct", "plain")}
    assert aligns == {"cast_param": [64, 64], "cast_variable": [32], "from_void": [32],
                      "through_helper": [64], "as_struct": [64], "plain": [1]}
    interface = prg.cast_param.interface          # as ahead-of-time modules carry it
    assert KernelInterface.from_json(interface.to_json()) == interface


@pytest.mark.parametrize("offset", [0, 16, 32, 48, 64, 80, 96, 112])
def test_casts_run_right_wherever_the_array_starts(prg, offset):
    rng = np.random.default_rng(offset)
    base = rng.random(16 * N, dtype=np.float32)
    b = rng.random(16 * N, dtype=np.float32)
    a = placed(base, offset)
    prg.cast_param((N,), None, a, placed(b, offset))
    assert np.array_equal(a, base + b * np.float32(2))

    a = placed(base, offset)
    prg.cast_variable((N,), None, a, np.int32(8))
    want = base.copy()
    want[8:8 + 8 * N] += 1
    assert np.array_equal(a, want)

    d = placed(rng.random(4 * N), offset)
    want = d * 3
    prg.from_void((N,), None, d)
    assert np.array_equal(d, want)

    a = placed(base, offset)
    prg.through_helper((N,), None, a)
    assert np.array_equal(a, base * 2)

    a = placed(base, offset)
    prg.as_struct((N,), None, a)
    want = base.copy().reshape(N, 16)
    want[:, 3] = 7
    assert np.array_equal(a, want.ravel())


@pytest.mark.parametrize("offset", [0, 16, 48])
def test_one_array_named_twice_is_one_buffer(prg, offset):
    """The same array for a buffer the kernel casts (placed on a copy) and for one it
    reads plainly: both name the one copy, which goes back once."""
    base = np.arange(16 * N, dtype=np.float32) % 64      # sums exact in float
    a = placed(base, offset)
    prg.twice_named((N,), None, a, a)
    want = (base + 1).reshape(N, 16)
    want[:, 0] = want.sum(axis=1)
    assert np.array_equal(a, want.ravel())


def test_an_aligned_array_is_used_in_place(prg):
    a = cl2c.zeros(16 * N)
    prg.through_helper((N,), None, a)           # written in place: nothing to copy back
    a[...] = 1
    prg.through_helper((N,), None, a)
    assert (a == 2).all()


CHECKED = """
__kernel void quads(__global const float *in, __global float4 *out, int skew) {
    int i = get_global_id(0);
    out[i] = (*(__global const float16 *)(in + 16 * i + skew)).s0123;
}
"""


def test_checking_finds_a_misaligned_offset_not_the_placement():
    prg = build(CHECKED)
    src = np.arange(16 * 64, dtype=np.float32)
    out = np.zeros((64, 4), np.float32)
    prg.quads((64,), (16,), placed(src, 16), out, np.int32(0))
    assert np.array_equal(out, src.reshape(64, 16)[:, :4])
    msg = finding(prg.quads, (64,), (16,), placed(src, 16), out, np.int32(1))
    assert "misaligned pointer: a cast to a type aligned to 64 bytes at offset 4 of " \
           "__global 'in'" in msg
