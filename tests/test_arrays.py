"""cl2c.empty, cl2c.zeros and cl2c.aligned: NumPy arrays that start where an OpenCL
buffer does (128 bytes, CL_DEVICE_MEM_BASE_ADDR_ALIGN), and that kernels take as any
array."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cl2c
from cl2c.arrays import ALIGN

# the bench's tiled matmul: 16x16 __local tiles
TILED = (Path(__file__).resolve().parents[1] / "bench" / "kernels" / "tiled.cl").read_text()


def _offset(a):
    return a.ctypes.data % ALIGN


@pytest.mark.parametrize("shape,dtype,order", [
    ((300, 300), np.float32, "C"), ((7, 5, 3), np.int8, "F"), (1, np.float64, "C"),
    ((0,), np.int32, "C"), ((4, 4), cl2c.cltypes.float4, "C")])
def test_made_arrays_start_on_the_boundary(shape, dtype, order):
    for make in (cl2c.empty, cl2c.zeros):
        a = make(shape, dtype, order)
        assert _offset(a) == 0
        assert a.shape == (shape if isinstance(shape, tuple) else (shape,))
        assert a.dtype == np.dtype(dtype)
        assert a.flags.f_contiguous if order == "F" else a.flags.c_contiguous
        assert a.flags.writeable and a.flags.owndata is False    # a view of its block
    z = cl2c.zeros(shape, dtype, order)
    assert not z.view(np.uint8).any()


def test_aligned_keeps_an_aligned_array_and_copies_the_rest():
    big = np.random.default_rng(0).random((400, 400)).astype(np.float32)
    # 16 bytes past the boundary, as glibc's mmap'd blocks (NumPy's big arrays) are
    raw = np.empty(big.nbytes + 2 * ALIGN, np.uint8)
    start = (-raw.ctypes.data) % ALIGN + 16
    plain = raw[start:start + big.nbytes].view(np.float32).reshape(big.shape)
    plain[...] = big
    assert _offset(plain) == 16
    copy = cl2c.aligned(plain)
    assert _offset(copy) == 0 and np.array_equal(copy, plain)
    assert cl2c.aligned(copy) is copy
    strided = copy[::2, 1::3]
    packed = cl2c.aligned(strided)
    assert packed.flags.c_contiguous and _offset(packed) == 0
    assert np.array_equal(packed, strided)
    fortran = cl2c.aligned(np.asfortranarray(big[:37, :41]))
    assert fortran.flags.f_contiguous and _offset(fortran) == 0
    assert np.array_equal(fortran, big[:37, :41])
    listed = cl2c.aligned([[1, 2], [3, 4]])
    assert _offset(listed) == 0 and listed.tolist() == [[1, 2], [3, 4]]


@pytest.mark.parametrize("args,kind,words", [
    (("x",), TypeError, "shape 'x'"),
    (((3,), "no such type"), TypeError, "dtype 'no such type'"),
    (((-2, 3),), ValueError, "no array of elements"),
    (((3,), np.float32, "K"), ValueError, "order must be 'C' or 'F'")])
def test_bad_arguments_say_which(args, kind, words):
    with pytest.raises(kind, match=words) as info:
        cl2c.empty(*args)
    assert "cl2c.empty" in str(info.value)


def test_a_kernel_computes_the_same_on_either_placement():
    n = 64
    rng = np.random.default_rng(1)
    a, b = (rng.random((n, n), dtype=np.float32) for _ in range(2))
    prg = cl2c.Program(TILED).build()
    results = []
    for A, B, C in ((a, b, np.zeros((n, n), np.float32)),
                    (cl2c.aligned(a), cl2c.aligned(b), cl2c.zeros((n, n)))):
        prg.tiled((n, n), (16, 16), A, B, C, np.int32(n))
        results.append(C)
    np.testing.assert_allclose(results[1], a.astype(np.float64) @ b, rtol=1e-5, atol=1e-4)
    assert np.array_equal(results[0], results[1])
