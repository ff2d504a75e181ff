"""ctz (OpenCL C 2.0, spec 6.13.3): trailing zero bits, the size in bits for 0; checked
against a NumPy model on every integer type, scalar and vector, under each schedule that
runs barrier-free kernels. OpenCL C 1.2 has no ctz: the name is the user's there."""
from __future__ import annotations

import numpy as np
import pytest

import cl2c

TYPES = {"char": np.int8, "uchar": np.uint8, "short": np.int16, "ushort": np.uint16,
         "int": np.int32, "uint": np.uint32, "long": np.int64, "ulong": np.uint64}


def ctz_model(x: np.ndarray) -> np.ndarray:
    bits = x.dtype.itemsize * 8
    u = x.view(np.dtype(f"u{x.dtype.itemsize}")).astype(np.uint64)
    out = np.full(x.shape, bits, dtype=np.int64)
    for i in range(bits - 1, -1, -1):          # the lowest set bit wins
        out[(u >> np.uint64(i)) & np.uint64(1) == 1] = i
    return out.astype(x.dtype)


def _values(dt, n=256):
    rng = np.random.default_rng(7)
    info = np.iinfo(dt)
    x = rng.integers(info.min, info.max, size=n, dtype=dt, endpoint=True)
    x[n // 2:] <<= rng.integers(0, dt().itemsize * 8, size=n - n // 2).astype(dt)  # low zeros
    # zero, single bits at every position, the extremes
    bits = dt().itemsize * 8
    unsigned = x.view(np.dtype(f"u{dt().itemsize}"))
    special = [0, 1 << (bits - 1), (1 << bits) - 1, 1] + [1 << k for k in range(bits)]
    unsigned[:len(special)] = np.array(special, dtype=np.uint64).astype(unsigned.dtype)
    return x


@pytest.mark.parametrize("schedule", ["loops", "fibers"])
@pytest.mark.parametrize("name", list(TYPES))
def test_ctz_matches_numpy(name, schedule):
    dt = TYPES[name]
    src = f"""
    __kernel void scalar(__global const {name} *x, __global {name} *y)
    {{ size_t i = get_global_id(0); y[i] = ctz(x[i]); }}
    __kernel void vector(__global const {name}4 *x, __global {name}4 *y)
    {{ size_t i = get_global_id(0); y[i] = ctz(x[i]); }}
    __kernel void vector3(__global const {name} *x, __global {name} *y)
    {{ size_t i = get_global_id(0); vstore3(ctz(vload3(i, x)), i, y); }}
    """
    prg = cl2c.Program(src, f"-cl-std=CL2.0 -cl2c-schedule={schedule}").build()
    x = _values(dt)
    want = ctz_model(x)
    y = np.zeros_like(x)
    prg.scalar((x.size,), None, x, y)
    np.testing.assert_array_equal(y, want)
    y = np.zeros_like(x)
    prg.vector((x.size // 4,), None, x, y)
    np.testing.assert_array_equal(y, want)
    y = np.zeros_like(x)
    prg.vector3((x.size // 3,), None, x, y)
    np.testing.assert_array_equal(y[:x.size // 3 * 3], want[:x.size // 3 * 3])


def test_ctz_is_a_2_0_function():
    src = "__kernel void k(__global int *x) { x[0] = ctz(x[0]); }"
    with pytest.raises(cl2c.BuildError, match=r"ctz\(\) is an OpenCL C 2.0 function: build "
                                              r"with -cl-std=CL2.0"):
        cl2c.Program(src).build()


def test_ctz_is_the_users_own_name_in_1_2():
    src = """
    int ctz(int v) { return v + 1; }
    __kernel void k(__global int *x) { x[0] = ctz(x[0]); }"""
    prg = cl2c.Program(src).build()
    x = np.array([41], np.int32)
    prg.k((1,), None, x)
    assert x[0] == 42
    with pytest.raises(cl2c.BuildError, match="'ctz' is the name of a built-in function"):
        cl2c.Program(src, "-cl-std=CL2.0").build()


@pytest.mark.intel
def test_ctz_same_as_intel():
    """ctz is OpenCL C 2.0's (this PoCL, 1.2, has none): Intel's answers on every type."""
    from conftest import run_intel
    src = "".join(f"""
    __kernel void ctz_{name}(__global const {name} *x, __global {name} *y,
                             __global {name}4 *y4)
    {{ size_t i = get_global_id(0); y[i] = ctz(x[i]);
       if (i % 4 == 0) y4[i / 4] = ctz(vload4(i / 4, x)); }}""" for name in TYPES)
    launches = [(f"ctz_{name}", (256,), None, [_values(dt), np.zeros(256, dt),
                                               np.zeros(256, dt)])
                for name, dt in TYPES.items()]
    theirs = run_intel(src, launches, "-cl-std=CL2.0")
    prg = cl2c.Program(src, "-cl-std=CL2.0").build()
    for (name, gsize, _, args), their in zip(launches, theirs):
        prg.kernel(name)(gsize, None, *args)
        np.testing.assert_array_equal(args[1], their[1], err_msg=name)
        np.testing.assert_array_equal(args[2][:64], their[2][:64], err_msg=name)
        np.testing.assert_array_equal(args[1], ctz_model(args[0]), err_msg=name)
