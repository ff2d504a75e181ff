"""Buffer arguments as users pass them: any C-contiguous buffer of whole pointee elements
(PyOpenCL's rule), the strict mode that wants the pointee's dtype, null and empty buffers,
and the marshalling of every argument kind against NumPy."""
from __future__ import annotations

import threading
import warnings

import numpy as np
import pytest

import cl2c

SOURCE = r"""
typedef struct Node { int key; float weight; } Node;

__kernel void nodes(__global Node *n, float k)
{
    size_t i = get_global_id(0);
    n[i].key = n[i].key * 2 + 1;
    n[i].weight = n[i].weight * k;
}

__kernel void ints(__global int *p, __global const int *q)
{
    size_t i = get_global_id(0);
    p[i] = p[i] - q[i];
}

__kernel void vec(__global float4 *v)
{
    size_t i = get_global_id(0);
    v[i] = v[i] * 2.0f + (float4)(0.0f, 1.0f, 2.0f, 3.0f);
}

__kernel void copy(__global const uchar *src, __global uchar *dst)
{
    dst[get_global_id(0)] = src[get_global_id(0)] + 1;
}

__kernel void scalars(__global long *l, __global double *d, char c, uchar uc, short s,
                      ushort us, int i, uint ui, long lg, ulong ul, float f, double db)
{
    l[0] = c; l[1] = uc; l[2] = s; l[3] = us; l[4] = i; l[5] = ui; l[6] = lg;
    l[7] = (long)ul;
    d[0] = f; d[1] = db;
}

typedef struct Pair { int a; float b; char c; } Pair;

__kernel void values(__global float *out, float4 v, int3 w, Pair p, __local int *tmp)
{
    tmp[get_local_id(0)] = p.a;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[0] = v.x; out[1] = v.y; out[2] = v.z; out[3] = v.w;
    out[4] = w.x; out[5] = w.y; out[6] = w.z;
    out[7] = tmp[0]; out[8] = p.b; out[9] = p.c;
}

__kernel void ids(__global uint *out)
{
    size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    size_t i = (get_global_linear_id() * 4);
    out[i] = (uint)x; out[i + 1] = (uint)y; out[i + 2] = (uint)z;
    out[i + 3] = (uint)(get_local_size(0) * 100 + get_local_size(1) * 10 + get_local_size(2));
}
"""
NODE = np.dtype([("key", np.int32), ("weight", np.float32)])
PAIR = np.dtype([("a", np.int32), ("b", np.float32), ("c", np.int8)], align=True)


@pytest.fixture(scope="module")
def prg():
    return cl2c.Program(SOURCE, options="-cl-std=CL2.0").build()


@pytest.fixture(scope="module")
def strict():
    return cl2c.Program(SOURCE, options="-cl-std=CL2.0", strict_buffers=True).build()


def _names(err, kernel, arg):
    msg = str(err.value)
    assert f"kernel '{kernel}'" in msg and f"argument '{arg}'" in msg, msg


def _nodes(n, seed=0):
    rng = np.random.default_rng(seed)
    a = np.zeros(n, NODE)
    a["key"] = rng.integers(-1000, 1000, n)
    a["weight"] = rng.standard_normal(n).astype(np.float32)
    return a


# ---- any buffer of whole elements --------------------------------------------------------
def test_struct_pointer_fed_an_int32_array(prg):
    ref = _nodes(16)
    raw = ref.copy().view(np.int32)                       # 32 int32: 16 Nodes of 8 bytes
    prg.nodes(16, None, raw, 0.5)
    got = raw.view(NODE)
    np.testing.assert_array_equal(got["key"], ref["key"] * 2 + 1)
    np.testing.assert_array_equal(got["weight"], ref["weight"] * np.float32(0.5))


@pytest.mark.parametrize("form", ["structured", "int32", "uint8", "bytearray", "memoryview"])
def test_struct_pointer_forms_agree(prg, form):
    ref = _nodes(8, 1)
    arr = ref.copy()
    buf = {"structured": arr, "int32": arr.view(np.int32), "uint8": arr.view(np.uint8),
           "bytearray": bytearray(arr.tobytes()),
           "memoryview": memoryview(bytearray(arr.tobytes()))}[form]
    prg.nodes(8, None, buf, 2.0)
    got = np.frombuffer(bytes(buf) if not isinstance(buf, np.ndarray) else buf.tobytes(), NODE)
    np.testing.assert_array_equal(got["key"], ref["key"] * 2 + 1)
    np.testing.assert_array_equal(got["weight"], ref["weight"] * np.float32(2))


def test_uint32_array_for_int_pointer(prg):
    p = np.array([0, 1, 5, 2**31], np.uint32)
    q = np.array([1, 2, 3, 1], np.uint32)
    want = (p.view(np.int32).astype(np.int64) - q.view(np.int32)).astype(np.int32)
    prg.ints(4, None, p, q)
    np.testing.assert_array_equal(p.view(np.int32), want)


def test_bytes_for_float4_pointer(prg):
    v = np.arange(16, dtype=np.float32)
    raw = v.view(np.uint8).copy()
    prg.vec(4, None, raw)
    want = v.reshape(4, 4) * 2 + np.array([0, 1, 2, 3], np.float32)
    np.testing.assert_array_equal(raw.view(np.float32).reshape(4, 4), want)


def test_misaligned_bytes_are_copied_and_written_back(prg):
    v = np.arange(8, dtype=np.float32)
    block = np.zeros(8 * 4 + 64, np.uint8)
    start = next(o for o in range(1, 16) if (block.ctypes.data + o) % 16)
    view = block[start:start + 32]
    view[:] = v.view(np.uint8)
    prg.vec(2, None, view)
    want = v.reshape(2, 4) * 2 + np.array([0, 1, 2, 3], np.float32)
    np.testing.assert_array_equal(view.copy().view(np.float32).reshape(2, 4), want)
    assert not block[:start].any() and not block[start + 32:].any()


def test_a_buffer_of_bytes_is_read_only(prg):
    src = bytes(range(8))
    dst = bytearray(8)
    prg.copy(8, None, src, dst)
    assert list(dst) == [b + 1 for b in src]
    with pytest.raises(cl2c.KernelArgError, match="read-only") as err:
        prg.copy(8, None, dst, src)
    _names(err, "copy", "dst")


# ---- what is still refused ---------------------------------------------------------------
@pytest.mark.parametrize("buf", [np.zeros(5, np.uint8), bytearray(6), memoryview(bytearray(10))])
def test_bytes_not_a_whole_number_of_elements(prg, buf):
    with pytest.raises(cl2c.KernelArgError, match="not a whole number of int elements") as err:
        prg.ints(1, None, np.zeros(4, np.int32), buf)
    _names(err, "ints", "q")


def test_float4_needs_16_byte_elements(prg):
    with pytest.raises(cl2c.KernelArgError, match="16 bytes each") as err:
        prg.vec(1, None, np.zeros(3, np.float32))
    _names(err, "vec", "v")


@pytest.mark.parametrize("buf", [np.zeros(0, np.int32), bytearray()])
def test_an_empty_buffer_is_refused(prg, buf):
    with pytest.raises(cl2c.KernelArgError, match="empty") as err:
        prg.ints(1, None, buf, np.zeros(1, np.int32))
    _names(err, "ints", "p")


def test_not_contiguous(prg):
    p = np.zeros(8, np.int32)
    with pytest.raises(cl2c.KernelArgError, match="not C-contiguous") as err:
        prg.ints(4, None, p, np.zeros(8, np.int32)[::2])
    _names(err, "ints", "q")
    with pytest.raises(cl2c.KernelArgError, match="not C-contiguous") as err:
        prg.ints(4, None, p, memoryview(np.zeros(8, np.int32))[::2])
    _names(err, "ints", "q")
    fortran = np.asfortranarray(np.zeros((4, 4), np.int32))
    with pytest.raises(cl2c.KernelArgError, match="not C-contiguous"):
        prg.ints(16, None, fortran, np.zeros(16, np.int32))


def test_read_only_array_for_written_pointer(prg):
    p = np.zeros(4, np.int32)
    p.setflags(write=False)
    with pytest.raises(cl2c.KernelArgError, match="read-only") as err:
        prg.ints(4, None, p, np.zeros(4, np.int32))
    _names(err, "ints", "p")


def test_not_a_buffer(prg):
    with pytest.raises(cl2c.KernelArgError, match="expected a NumPy array or a buffer") as err:
        prg.ints(4, None, [1, 2, 3, 4], np.zeros(4, np.int32))
    _names(err, "ints", "p")


def test_strict_mode_wants_the_pointee_dtype(strict):
    with pytest.raises(cl2c.KernelArgError, match="expected dtype int32, got uint32") as err:
        strict.ints(4, None, np.zeros(4, np.int32), np.zeros(4, np.uint32))
    _names(err, "ints", "q")
    with pytest.raises(cl2c.KernelArgError) as err:
        strict.nodes(4, None, np.zeros(8, np.int32), 1.0)
    _names(err, "nodes", "n")
    p = np.arange(4, dtype=np.int32)
    strict.ints(4, None, p, np.ones(4, np.int32))
    assert p.tolist() == [-1, 0, 1, 2]


def test_strict_mode_can_be_turned_on_after_the_build(prg):
    prg2 = cl2c.Program(SOURCE, options="-cl-std=CL2.0").build()
    prg2.ints(4, None, np.zeros(4, np.int32), np.zeros(4, np.uint32))
    prg2.strict_buffers = True
    with pytest.raises(cl2c.KernelArgError):
        prg2.ints(4, None, np.zeros(4, np.int32), np.zeros(4, np.uint32))


# ---- arrays of other numbers than the pointee's -----------------------------------------
KINDS = r"""
__kernel void twice(__global float *x) { x[get_global_id(0)] *= 2.0f; }
__kernel void inc(__global uint *u) { u[get_global_id(0)] += 1u; }
__kernel void neg(__global int *p) { p[get_global_id(0)] = -p[get_global_id(0)]; }
__kernel void quad(__global float4 *v) { size_t i = get_global_id(0); v[i] = v[i] * 2.0f; }
"""


@pytest.fixture(scope="module")
def kinds():
    return cl2c.Program(KINDS).build()


def _bits(buf):
    return bytes(buf) if not isinstance(buf, np.ndarray) else buf.tobytes()


_FLOATS = np.arange(1, 9, dtype=np.float32)
_SAME_BITS = {   # kernel, what is passed, the float32/uint32/int32 data it holds
    "uint8": ("twice", lambda: _FLOATS.view(np.uint8).copy(), _FLOATS),
    "bytearray": ("twice", lambda: bytearray(_FLOATS.tobytes()), _FLOATS),
    "memoryview": ("twice", lambda: memoryview(bytearray(_FLOATS.tobytes())), _FLOATS),
    "float4 dtype": ("twice", lambda: _FLOATS.copy().view(cl2c.cltypes.float4), _FLOATS),
    "structured": ("twice", lambda: _FLOATS.copy().view([("re", "f4"), ("im", "f4")]),
                   _FLOATS),
    "complex64": ("twice", lambda: _FLOATS.copy().view(np.complex64), _FLOATS),
    "float32 for float4": ("quad", lambda: _FLOATS.copy(), _FLOATS),
    "int32 for uint": ("inc", lambda: np.array([-1, 0, 7, 2**31 - 1], np.int32),
                       np.array([-1, 0, 7, 2**31 - 1], np.int32).view(np.uint32)),
    "uint32 for int": ("neg", lambda: np.array([1, 2**31, 5], np.uint32),
                       np.array([1, 2**31, 5], np.uint32).view(np.int32)),
}
_EXPECT = {"twice": lambda a: a * np.float32(2), "quad": lambda a: a * np.float32(2),
           "inc": lambda a: a + np.uint32(1), "neg": lambda a: -a}


@pytest.mark.parametrize("case", sorted(_SAME_BITS))
def test_arrays_of_the_same_bits_are_taken(kinds, case):
    """Bytes, structs, vectors of the element and the other signedness: the pointee's
    own bits by design, taken without a word, as PyOpenCL users pass them."""
    kernel, make, data = _SAME_BITS[case]
    buf = make()
    n = data.size // (4 if kernel == "quad" else 1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        getattr(kinds, kernel)(n, None, buf)
    got = np.frombuffer(_bits(buf), data.dtype)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(got, _EXPECT[kernel](data))


_OTHER_NUMBERS = [("twice", np.float64, "float32"), ("twice", np.int32, "float32"),
                  ("twice", cl2c.cltypes.double4, "float32"), ("neg", np.float32, "int32"),
                  ("neg", np.int64, "int32"), ("neg", np.int16, "int32"),
                  ("inc", np.float32, "uint32"), ("quad", np.int32, "float32"),
                  ("quad", np.float64, "float32")]


@pytest.mark.parametrize("kernel,dtype,want", _OTHER_NUMBERS)
def test_an_array_of_other_numbers_is_refused(kinds, kernel, dtype, want):
    """np.ones(n) (float64) for `float *` read as floats is garbage: refused by default,
    naming the argument and both types, and nothing runs."""
    arr = np.ones(64 // np.dtype(dtype).itemsize, dtype)
    before = arr.copy()
    arg = kinds.kernel(kernel).arg_info[0]
    with pytest.raises(cl2c.KernelArgError) as err:
        getattr(kinds, kernel)(1, None, arr)
    _names(err, kernel, arg.name)
    msg = str(err.value)
    assert f" {np.dtype(dtype)} array for `{arg.type_name}`" in msg, msg
    assert f"astype(np.{want})" in msg and "strict_buffers=False" in msg, msg
    assert arr.tobytes() == before.tobytes()


@pytest.mark.parametrize("kernel,dtype,want", _OTHER_NUMBERS)
def test_other_numbers_with_strict_buffers_false_warn_and_run(kernel, dtype, want):
    loose = cl2c.Program(KINDS, strict_buffers=False).build()
    arr = np.ones(64 // np.dtype(dtype).itemsize, dtype)
    bits = arr.view(np.dtype(want)).copy()
    n = bits.size // (4 if kernel == "quad" else 1)
    with pytest.warns(cl2c.BufferWarning, match="its bytes are reinterpreted") as record:
        getattr(loose, kernel)(n, None, arr)
    assert [w.filename for w in record] == [__file__]
    with np.errstate(over="ignore", invalid="ignore"):
        np.testing.assert_array_equal(arr.view(np.dtype(want)), _EXPECT[kernel](bits))


def test_strict_buffers_true_refuses_the_other_signedness():
    strict = cl2c.Program(KINDS, strict_buffers=True).build()
    with pytest.raises(cl2c.KernelArgError, match="expected dtype uint32, got int32"):
        strict.inc(1, None, np.zeros(4, np.int32))


# ---- marshalling, against NumPy -----------------------------------------------------------
class _Sub(np.ndarray):
    """Not exactly an ndarray: takes the general path of a buffer argument."""


@pytest.mark.parametrize("path", ["fast", "general"])
def test_scalars_round_trip(prg, path):
    rng = np.random.default_rng(7)
    kinds = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]
    for trial in range(20):
        ints = [int(rng.integers(np.iinfo(t).min, np.iinfo(t).max, dtype=t, endpoint=True))
                for t in kinds]
        f, d = float(rng.standard_normal() * 1e3), float(rng.standard_normal() * 1e300)
        lo, do = np.zeros(8, np.int64), np.zeros(2, np.float64)
        if path == "general":            # NumPy scalars, floats for ints: the slow path
            lo, do = lo.view(_Sub), do.view(_Sub)
            ints = [t(v) if k % 2 else float(v) if abs(v) < 2**53 else t(v)
                    for k, (t, v) in enumerate(zip(kinds, ints))]
        prg.scalars(1, None, lo, do, *ints, f, d)
        assert lo[:7].tolist() == [int(v) for v in ints[:7]]
        assert int(lo[7]) == np.array(int(ints[7]), np.uint64).view(np.int64)
        assert do.tolist() == [float(np.float32(f)), d]


def test_scalar_values_are_checked_as_before(prg):
    lo, do = np.zeros(8, np.int64), np.zeros(2, np.float64)
    good = [0, 0, 0, 0, 0, 0, 0, 0, 0.0, 0.0]
    bad = {2: (40000, "out of range"), 4: (2.5, "expected an integer"),
           8: ("1", "expected a number"), 7: (-1, "out of range"), 0: (None, "integer")}
    names = ["c", "uc", "s", "us", "i", "ui", "lg", "ul", "f", "db"]
    for k, (value, msg) in bad.items():
        args = list(good)
        args[k] = value
        with pytest.raises(cl2c.KernelArgError, match=msg) as err:
            prg.scalars(1, None, lo, do, *args)
        _names(err, "scalars", names[k])
    args = list(good)
    args[9] = 1e300
    args[8] = 1e300                          # a float beyond float's range: inf, as NumPy has it
    with np.errstate(over="ignore"):
        prg.scalars(1, None, lo, do, *args)
    assert do[0] == np.inf and do[1] == 1e300


def test_vector_struct_and_local_values(prg):
    out = np.zeros(10, np.float32)
    pair = np.array((7, 2.5, -3), PAIR)
    prg.values(4, 4, out, (1.0, 2.0, 3.0, 4.0), (5, 6, 7), pair[()],
               cl2c.LocalMemory(16))
    assert out.tolist() == [1, 2, 3, 4, 5, 6, 7, 7, 2.5, -3]
    prg.values(4, 4, out, cl2c.cltypes.make_float4(0, 0, 0, 1), b"\1\0\0\0" * 4,
               pair.tobytes(), cl2c.LocalMemory(16))
    assert out.tolist() == [0, 0, 0, 1, 1, 1, 1, 7, 2.5, -3]
    with pytest.raises(cl2c.KernelArgError) as err:
        prg.values(4, 4, out, (1.0, 2.0), (5, 6, 7), pair[()], cl2c.LocalMemory(16))
    _names(err, "values", "v")
    with pytest.raises(cl2c.KernelArgError, match="LocalMemory") as err:
        prg.values(4, 4, out, (1.0, 2.0, 3.0, 4.0), (5, 6, 7), pair[()], 16)
    _names(err, "values", "tmp")


@pytest.mark.parametrize("gsize,lsize,offset", [
    (8, None, None), ((8,), (4,), None), ((6, 4), None, None), ((6, 4), (3, 2), (1, 2)),
    ((4, 2, 6), (2, 1, 3), None), ((4, 2, 2), None, (0, 5, 1)), (np.uint32(8), 2, (3,))])
def test_ranges(prg, gsize, lsize, offset):
    g = (int(gsize),) if np.ndim(gsize) == 0 else tuple(gsize)
    g3 = g + (1,) * (3 - len(g))
    o3 = (tuple(offset) if offset else ()) + (0,) * (3 - len(offset or ()))
    out = np.zeros(4 * int(np.prod(g)), np.uint32)
    prg.ids(gsize, lsize, out, global_offset=offset)
    got = out.reshape(-1, 4)
    z, y, x = np.meshgrid(*(np.arange(n) for n in g3[::-1]), indexing="ij")
    np.testing.assert_array_equal(got[:, 0], x.ravel() + o3[0])
    np.testing.assert_array_equal(got[:, 1], y.ravel() + o3[1])
    np.testing.assert_array_equal(got[:, 2], z.ravel() + o3[2])
    if lsize is not None:
        l3 = ((int(lsize),) if np.ndim(lsize) == 0 else tuple(lsize))
        l3 = l3 + (1,) * (3 - len(l3))
        assert set(got[:, 3]) == {l3[0] * 100 + l3[1] * 10 + l3[2]}


def test_launches_from_two_threads_at_once(prg):
    """Each launch takes its own frame of C memory: concurrent launches of one kernel
    keep their arguments."""
    errors = []

    def work(seed):
        try:
            for trial in range(200):
                ref = _nodes(64, seed * 1000 + trial)
                arr = ref.copy()
                k = float(seed + trial % 7)
                prg.nodes(64, None, arr, k)
                if not (np.array_equal(arr["key"], ref["key"] * 2 + 1) and
                        np.array_equal(arr["weight"], ref["weight"] * np.float32(k))):
                    errors.append((seed, trial))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_a_launch_inside_an_argument_conversion(prg):
    """An argument whose conversion launches the same kernel: the inner launch takes
    another frame of C memory and the outer one keeps its values."""
    inner = np.zeros(8, np.int64)

    class Sneaky:
        def __index__(self):
            prg.scalars(1, None, inner, np.zeros(2), 9, 9, 9, 9, 9, 9, 9, 9, 0.0, 0.0)
            return 3

    out = np.zeros(8, np.int64)
    prg.scalars(1, None, out, np.zeros(2), 1, 2, 3, 4, Sneaky(), 6, 7, 8, 0.0, 0.0)
    assert out.tolist() == [1, 2, 3, 4, 3, 6, 7, 8]
    assert inner.tolist() == [9] * 8
