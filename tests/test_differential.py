"""Differential tests: the same kernel source and inputs through cl2c and through PoCL.

Integer results must be equal bit for bit. Float results are exact for elementwise
arithmetic (both contract ``a*b + c`` into an fma: test_contraction.py); sums of
products over loops get a small relative tolerance.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import cl2c
from conftest import kernel_path, kernel_source

SEED = 20240611


def rng(salt=0):
    return np.random.default_rng(SEED + salt)


def build(name, options=None):
    return cl2c.Program.from_file(kernel_path(name), options=options).build()


# ---- OpenCL Programming Guide, chapter 2: HelloWorld.cl ---------------------------------
@pytest.fixture(scope="module")
def hello():
    return build("hello.cl")


@pytest.mark.parametrize("n,local", [(1000, None), (1024, 64), (7, 7)])
def test_hello_vector_add(hello, pocl, n, local):
    r = rng(n)
    a = r.standard_normal(n).astype(np.float32)
    b = r.standard_normal(n).astype(np.float32)
    got = np.full(n, np.nan, np.float32)
    ref = np.full(n, np.nan, np.float32)
    hello.hello_kernel((n,), local, a, b, got)
    pocl(kernel_source("hello.cl"), "hello_kernel", (n,), local, a.copy(), b.copy(), ref)
    np.testing.assert_array_equal(got, ref)
    np.testing.assert_array_equal(got, a + b)


# ---- matrix multiply, lecture versions 1 to 5 -------------------------------------------
DIM = 64
MATMUL_OPTS = f"-DDIM={DIM}"


@pytest.fixture(scope="module")
def matmul():
    return build("matmul.cl", MATMUL_OPTS)


@pytest.fixture(scope="module")
def matrices():
    r = rng(1)
    A = r.random((DIM, DIM), dtype=np.float32)
    B = r.random((DIM, DIM), dtype=np.float32)
    return A, B


@pytest.mark.parametrize("version,global_size", [
    ("matmult_v1", (DIM,)),
    ("matmult_v2", (DIM,)),
    ("matmult_v3", (DIM, DIM)),
    ("matmult_v4", (DIM, DIM)),
    ("matmult_v5", (DIM,)),
])
def test_matmul_versions(matmul, matrices, pocl, version, global_size):
    A, B = matrices
    got = np.zeros((DIM, DIM), np.float32)   # V1 accumulates into C
    ref = np.zeros((DIM, DIM), np.float32)
    getattr(matmul, version)(global_size, None, A.copy(), B.copy(), got)
    pocl(kernel_source("matmul.cl"), version, global_size, None, A.copy(), B.copy(), ref,
         options=MATMUL_OPTS)
    np.testing.assert_allclose(got, ref, rtol=1e-5)
    expect = A.astype(np.float64) @ B.astype(np.float64)
    np.testing.assert_allclose(got, expect, rtol=1e-4)


def test_matmul_v1_accumulates(matmul, matrices):
    A, B = matrices
    C = np.ones((DIM, DIM), np.float32)
    matmul.matmult_v1((DIM,), None, A, B, C)
    np.testing.assert_allclose(C, 1.0 + A.astype(np.float64) @ B, rtol=1e-4)


def test_matmul_inputs_untouched(matmul, matrices):
    A, B = matrices
    A0, B0 = A.copy(), B.copy()
    C = np.zeros((DIM, DIM), np.float32)
    matmul.matmult_v5((DIM,), None, A, B, C)
    np.testing.assert_array_equal(A, A0)
    np.testing.assert_array_equal(B, B0)


# ---- SAXPY ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def saxpy():
    return build("saxpy.cl")


def test_saxpy_float(saxpy, pocl):
    n = 4099
    r = rng(2)
    x = r.standard_normal(n).astype(np.float32)
    y0 = r.standard_normal(n).astype(np.float32)
    a = np.float32(2.5)
    got, ref = y0.copy(), y0.copy()
    saxpy.saxpy((n,), None, a, x, got)
    pocl(kernel_source("saxpy.cl"), "saxpy", (n,), None, a, x.copy(), ref)
    # y += a * x: both contract it (FP_CONTRACT, test_contraction.py), to the same bits
    np.testing.assert_array_equal(got, ref)


def test_saxpy_python_float_scalar(saxpy):
    x = np.arange(16, dtype=np.float32)
    y = np.ones(16, np.float32)
    saxpy.saxpy(16, None, 0.5, x, y)
    np.testing.assert_array_equal(y, 0.5 * np.arange(16, dtype=np.float32) + 1)


def test_saxpy_int_exact(saxpy, pocl):
    n = 3001
    r = rng(3)
    x = r.integers(-40000, 40000, n, dtype=np.int32)
    y0 = r.integers(-2**30, 2**30, n, dtype=np.int32)
    a = np.int32(-7)
    got, ref = y0.copy(), y0.copy()
    saxpy.isaxpy((n,), (n,) if n < 1024 else None, a, x, got)
    pocl(kernel_source("saxpy.cl"), "isaxpy", (n,), None, a, x.copy(), ref)
    np.testing.assert_array_equal(got, ref)
    np.testing.assert_array_equal(got, (a.astype(np.int64) * x + y0).astype(np.int32))


def test_saxpy_uint_wraps(saxpy, pocl):
    n = 1000
    r = rng(4)
    x = r.integers(0, 2**32, n, dtype=np.uint32)
    y0 = r.integers(0, 2**32, n, dtype=np.uint32)
    a = np.uint32(0xDEADBEEF)
    got, ref = y0.copy(), y0.copy()
    saxpy.usaxpy((n,), (100,), a, x, got)
    pocl(kernel_source("saxpy.cl"), "usaxpy", (n,), (100,), a, x.copy(), ref)
    np.testing.assert_array_equal(got, ref)
    expect = ((int(a) * x.astype(np.uint64) + y0) % 2**32).astype(np.uint32)
    np.testing.assert_array_equal(got, expect)


# ---- work-item functions with global offsets --------------------------------------------
NF = 24


@pytest.fixture(scope="module")
def ids():
    return build("ids.cl")


def expected_ids(gsize, lsize, offset):
    """The NF-column table the ids kernels write, computed in NumPy."""
    dim = len(gsize)
    G = list(gsize) + [1] * (3 - dim)
    L = list(lsize) + [1] * (3 - dim)
    O = list(offset) + [0] * (3 - dim)
    rows = []
    for z, y, x in itertools.product(range(G[2]), range(G[1]), range(G[0])):
        idx = (x, y, z)
        row = [O[d] + idx[d] for d in range(3)]
        row += O
        row += G
        row += [idx[d] % L[d] for d in range(3)]
        row += [idx[d] // L[d] for d in range(3)]
        row += [G[d] // L[d] for d in range(3)]
        row += L
        row += [dim]
        row += [x + G[0] * (y + G[1] * z)]
        lid = [idx[d] % L[d] for d in range(3)]
        row += [lid[0] + L[0] * (lid[1] + L[1] * lid[2])]
        rows.append(row)
    return np.array(rows, dtype=np.uint32)


@pytest.mark.parametrize("kernel,gsize,lsize,offset", [
    ("ids2d", (8, 6), (4, 3), (5, 7)),
    ("ids2d", (12, 4), (2, 4), (0, 0)),
    ("ids2d", (6, 10), (6, 1), (1000, 3)),
    ("ids3d", (4, 6, 4), (2, 3, 2), (3, 5, 7)),
    ("ids3d", (6, 2, 3), (3, 1, 3), (0, 100, 1)),
    ("ids3d", (2, 2, 8), (1, 2, 4), (0, 0, 0)),
])
def test_work_item_functions(ids, pocl, kernel, gsize, lsize, offset):
    n = int(np.prod(gsize))
    got = np.full((n, NF), 0xEEEEEEEE, np.uint32)
    ref = got.copy()
    getattr(ids, kernel)(gsize, lsize, got, global_offset=offset)
    pocl(kernel_source("ids.cl"), kernel, gsize, lsize, ref, global_offset=offset)
    np.testing.assert_array_equal(got, ref)
    np.testing.assert_array_equal(got, expected_ids(gsize, lsize, offset))


def test_work_item_functions_int(ids, pocl):
    gsize, lsize, offset = (4, 6, 2), (2, 3, 1), (1, 2, 3)
    n = int(np.prod(gsize))
    got = np.full((n, 4), -1, np.int32)
    ref = got.copy()
    ids.ids3d_int(gsize, lsize, got, global_offset=offset)
    pocl(kernel_source("ids.cl"), "ids3d_int", gsize, lsize, ref, global_offset=offset)
    np.testing.assert_array_equal(got, ref)
    e = expected_ids(gsize, lsize, offset).astype(np.int64)
    np.testing.assert_array_equal(got[:, 0], e[:, 0] + 10 * e[:, 1] + 100 * e[:, 2])
    np.testing.assert_array_equal(got[:, 1], e[:, 9] + 10 * e[:, 10] + 100 * e[:, 11])
    np.testing.assert_array_equal(got[:, 2], e[:, 12] + 10 * e[:, 13] + 100 * e[:, 14])
    np.testing.assert_array_equal(got[:, 3], e[:, 22] - e[:, 23])


@pytest.mark.parametrize("gsize,offset", [((16, 9), (2, 1)), ((5, 3, 7), (0, 4, 0))])
def test_work_item_functions_default_local_size(ids, gsize, offset):
    """Without a local size the grouping is cl2c's choice, but it must be consistent."""
    kernel = ids.ids2d if len(gsize) == 2 else ids.ids3d
    n = int(np.prod(gsize))
    out = np.zeros((n, NF), np.uint32)
    kernel(gsize, None, out, global_offset=offset)
    got = out.astype(np.int64)
    e = expected_ids(gsize, gsize, offset).astype(np.int64)
    # everything that does not depend on the grouping
    for cols in (slice(0, 9), slice(21, 23)):
        np.testing.assert_array_equal(got[:, cols], e[:, cols])
    gid, off, lid, grp, ngrp, lsz = (got[:, i:i + 3] for i in (0, 3, 9, 12, 15, 18))
    gs = got[:, 6:9]
    assert (lsz >= 1).all() and (gs % lsz == 0).all()
    np.testing.assert_array_equal(ngrp * lsz, gs)
    np.testing.assert_array_equal(grp * lsz + lid, gid - off)
    assert (lid < lsz).all()
    np.testing.assert_array_equal(
        got[:, 23], lid[:, 0] + lsz[:, 0] * (lid[:, 1] + lsz[:, 1] * lid[:, 2]))


# ---- C language features ------------------------------------------------------------------
NOUT = 64
PARAMS = np.dtype([("tag", np.int8), ("scale", np.int32), ("bias", np.float32),
                   ("small", np.int16)], align=True)
POINT = np.dtype([("x", np.int32), ("y", np.int32), ("w", np.float32)], align=True)


@pytest.fixture(scope="module")
def features():
    return build("features.cl")


@pytest.fixture(scope="module")
def feature_run(features, pocl):
    n = 256
    r = rng(5)
    inp = r.integers(0, 1000, n + 1, dtype=np.int32)
    inp[:12] = np.arange(12)
    p = np.array((7, -3, 1.75, 300), dtype=PARAMS)[()]
    pts = np.zeros(n, POINT)
    pts["x"] = r.integers(-1000, 1000, n)
    pts["y"] = r.integers(-1000, 1000, n)
    pts["w"] = r.standard_normal(n).astype(np.float32)
    got = np.full((n, NOUT), -12345, np.int32)
    ref = got.copy()
    got_pts, ref_pts = pts.copy(), pts.copy()
    features.features((n,), (32,), inp.copy(), got, p, got_pts)
    pocl(kernel_source("features.cl"), "features", (n,), (32,), inp.copy(), ref, p, ref_pts)
    return dict(inp=inp, p=p, pts=pts, got=got, ref=ref, got_pts=got_pts, ref_pts=ref_pts)


def test_features_match_pocl(feature_run):
    got, ref = feature_run["got"], feature_run["ref"]
    bad = sorted(set(np.nonzero(got != ref)[1].tolist()))
    assert not bad, f"output columns differing from PoCL: {bad}\n" + "\n".join(
        f"col {c}: cl2c {got[:4, c].tolist()} PoCL {ref[:4, c].tolist()}" for c in bad)


def test_features_struct_array_written(feature_run):
    got_pts, ref_pts, pts = feature_run["got_pts"], feature_run["ref_pts"], feature_run["pts"]
    assert got_pts.tobytes() == ref_pts.tobytes()
    np.testing.assert_array_equal(got_pts["x"], pts["y"])
    np.testing.assert_array_equal(got_pts["y"], pts["x"])
    np.testing.assert_array_equal(got_pts["w"], pts["w"] * np.float32(2))


def feature_column(snippet):
    """The output column of the ``o[n++] = ...`` line of features.cl containing snippet."""
    lines = [ln for ln in kernel_source("features.cl").splitlines() if "o[n++] = " in ln]
    hits = [i for i, ln in enumerate(lines) if snippet in ln]
    assert len(hits) == 1, (snippet, hits)
    return hits[0]


def test_features_against_numpy(feature_run):
    """A few columns checked against independent expectations, not only against PoCL."""
    got, inp = feature_run["got"], feature_run["inp"]
    n = got.shape[0]
    v = inp[:n].astype(np.int64)
    w = inp[1:n + 1].astype(np.int64)
    gid = np.arange(n)

    def check(snippet, expect):
        np.testing.assert_array_equal(got[:, feature_column(snippet)],
                                      np.broadcast_to(expect, (n,)), err_msg=snippet)

    check("gid_helper()", gid)
    check("twice_plus_gid(v)", 2 * v + gid)
    check("p.tag + p.scale * v + p.small", 7 + -3 * v + 300)
    check("(int)(p.bias * 4.0f)", 7)
    check("r.x + r.y + (int)r.w", 6)
    check("(int)fb.u", v.astype(np.float32).view(np.int32))
    check("(int)(fb.f * 10.0f)", 10)
    check("classify(RED) + classify(GREEN)", 10 + 25 * 100 + 26 * 10000)
    check("= BLUE", 6)
    table = np.array([3, 1, 4, 1, 5, 9, 2, 6])
    check("table[v & 7] + table[(v >> 3) & 7] * 10", table[v & 7] + 10 * table[(v >> 3) & 7])
    # sizeof
    check("sizeof(int) + 10 * sizeof(char)", 4 + 10 + 800 + 2000)
    check("sizeof(float4) + 100 * sizeof(float3)", 16 + 1600 + 80000)
    check("sizeof(Params) + 100 * sizeof(struct Point)", PARAMS.itemsize + 1200 + 40000)
    check("sizeof(v) + sizeof(q) * 10", 4 + 120)
    # casts
    check("(char)(v * 37)", (v * 37).astype(np.int8))
    check("(uchar)(v * 37)", (v * 37).astype(np.uint8))
    check("(short)(v * 7919)", (v * 7919).astype(np.int16))
    check("(ushort)(v * -7919)", (v * -7919).astype(np.uint16))
    check("(int)((long)v * 100000 >> 16)", (v * 100000) >> 16)
    # integer division truncates toward zero; % has the sign of the dividend
    d = (w & 7) + 1
    check("(-v) / d", -(v // d))
    check("(-v) % d", -(v % d))
    check("v / (-d)", -(v // d))
    check("v % (-d)", v % d)
    check("(v - 500) / d", np.trunc((v - 500) / d).astype(np.int64))
    check("(v - 500) % d", np.fmod(v - 500, d))
    check("-7 / 2 + 100 * (-7 % 2)", -3 + 100 * -1)
    # shifts: the count is masked to the width of the left operand
    sh = 33 + (w & 3)
    check("v << sh", v << (sh & 31))
    check("v << 33", v << 1)
    check("(-v) >> sh", (-v) >> (sh & 31))
    check("(uint)(v | 0x80000000u) >> sh", (v | 0x80000000) >> (sh & 31))
    check("lv << (sh + 32)", v << ((sh + 32) & 63))
    check("(-v) >> 2", (-v) >> 2)
    # unsigned wraparound
    check("(int)(u - 1000u)", ((v - 1000) % 2**32).astype(np.uint32).view(np.int32))
    check("0xFFFFFFFFu * u", ((0xFFFFFFFF * v) % 2**32).astype(np.uint32).view(np.int32))
    check("(0u - 1u + 2u)", 1)
    check("= uc;", (v + 250) % 256)
    check("= us;", 0)
    # mixed signed/unsigned comparisons
    check("(-1 < 1u)", 0)
    check("((-v) < (uint)w)", ((-v) % 2**32) < w)
    check("((uint)v > -1)", 0)
    check("((long)-1 < 1u)", 1)
    check("(-v < (int)(uint)w)", (-v < w))
    # increments, comma
    check("e1 * 1000 + e2 - e", v * 1000)
    check("(e = 5, e + 1)", 6)
    check("0x7777", 0x7777)


# ---- a kernel calling a kernel ------------------------------------------------------------
def test_kernel_calls_kernel(pocl):
    prg = build("kernel_calls.cl")
    n = 500
    x = rng(6).integers(-1000, 1000, n, dtype=np.int32)
    got, ref = x.copy(), x.copy()
    prg.scale_then_add((n,), (50,), got, 3, -8)
    pocl(kernel_source("kernel_calls.cl"), "scale_then_add", (n,), (50,), ref,
         np.int32(3), np.int32(-8))
    np.testing.assert_array_equal(got, ref)
    np.testing.assert_array_equal(got, x * 3 - 8)
    y = x.copy()
    prg.scale((n,), None, y, -2)
    np.testing.assert_array_equal(y, x * -2)


# ---- float4 / int4 vector code ------------------------------------------------------------
@pytest.fixture(scope="module")
def vectors():
    return build("vectors.cl")


def test_vectors_match_pocl(vectors, pocl):
    from cl2c import cltypes
    n = 300
    r = rng(7)
    a = (r.uniform(0.5, 2.0, (n, 4)) * r.choice([-1, 1], (n, 4))).astype(np.float32)
    b = (r.uniform(0.5, 2.0, (n, 4)) * r.choice([-1, 1], (n, 4))).astype(np.float32)
    b[::5, 1] = a[::5, 1]                          # some equal components for == / >=
    a_vec = np.ascontiguousarray(a).view(cltypes.float4).reshape(n)
    s = np.float32(0.375)
    iv = cltypes.make_int4(3, 5, -7, 11)
    fout = np.full((n, 12, 4), np.nan, np.float32)
    iout = np.full((n, 8, 4), 99, np.int32)
    got_b, ref_b = b.copy().reshape(-1), b.copy().reshape(-1)
    ref_f, ref_i = fout.copy(), iout.copy()
    vectors.vec((n,), (20,), a_vec, got_b, fout, iout, s, iv)
    pocl(kernel_source("vectors.cl"), "vec", (n,), (20,), a_vec.copy(), ref_b, ref_f, ref_i,
         s, iv)
    np.testing.assert_array_equal(iout, ref_i)
    # fo[11] = s - x * y: both contract it into an fma (FP_CONTRACT, test_contraction.py)
    np.testing.assert_array_equal(fout, ref_f)
    np.testing.assert_array_equal(got_b, ref_b)
    # independent checks
    np.testing.assert_array_equal(fout[:, 0], np.stack([a[:, 0], b[:, 0], b[:, 1],
                                                        np.full(n, s)], 1))
    np.testing.assert_array_equal(fout[:, 3], a[:, ::-1] + b[:, ::-1])
    np.testing.assert_array_equal(fout[:, 5], np.concatenate([a[:, 0::2], b[:, 1::2]], 1))
    np.testing.assert_array_equal(fout[:, 8], a + s)
    np.testing.assert_array_equal(fout[:, 10], a / b)
    np.testing.assert_array_equal(iout[:, 0], np.where(a < b, -1, 0))
    np.testing.assert_array_equal(iout[:, 1], np.where(a >= b, -1, 0))
    np.testing.assert_array_equal(iout[:, 2], -1)
    np.testing.assert_array_equal(got_b.reshape(n, 4), a * b)


def test_vload_vstore_roundtrip(vectors, pocl):
    n = 64
    src = rng(8).integers(-10**6, 10**6, 4 * n, dtype=np.int32)
    got = np.zeros(4 * n, np.int32)
    ref = got.copy()
    vectors.vec_roundtrip((n,), None, src, got)
    pocl(kernel_source("vectors.cl"), "vec_roundtrip", (n,), None, src.copy(), ref)
    np.testing.assert_array_equal(got, ref)
    v = src.reshape(n, 4)[:, [0, 3, 2, 1]]
    np.testing.assert_array_equal(got.reshape(n, 4), v + v[:, :1])


# ---- integer built-ins and corner cases ----------------------------------------------------
def test_integer_builtins_match_pocl(pocl):
    prg = build("intops.cl")
    n = 512
    r = rng(9)
    a = r.integers(-2**31, 2**31, n, dtype=np.int64).astype(np.int32)
    b = r.integers(-2**31, 2**31, n, dtype=np.int64).astype(np.int32)
    a[:8] = [0, -1, 2**31 - 1, -2**31, 1, 255, -128, 77]
    b[:8] = [0, 2**31 - 1, 1, -1, -2**31, 3, 200, -77]
    got = np.full((n, 40), -99, np.int64)
    ref = got.copy()
    prg.intops((n,), (64,), a, b, got)
    pocl(kernel_source("intops.cl"), "intops", (n,), (64,), a.copy(), b.copy(), ref)
    lines = [ln.strip() for ln in kernel_source("intops.cl").splitlines() if "o[n++] =" in ln]
    bad = sorted(set(np.nonzero(got != ref)[1].tolist()))
    assert not bad, "columns differing from PoCL:\n" + "\n".join(
        f"{lines[c]}: cl2c {got[:8, c].tolist()} PoCL {ref[:8, c].tolist()}" for c in bad)
    x, y = a.astype(np.int64), b.astype(np.int64)

    def col(snippet):
        return got[:, [i for i, ln in enumerate(lines) if snippet in ln][0]]

    np.testing.assert_array_equal(col("mul_hi(x, y)"), (x * y) >> 32)
    np.testing.assert_array_equal(col("add_sat(x, y)"), np.clip(x + y, -2**31, 2**31 - 1))
    np.testing.assert_array_equal(col("hadd(x, y)"), (x + y) >> 1)
    np.testing.assert_array_equal(col("= sh.x"), (x << 1).astype(np.int32))
    np.testing.assert_array_equal(col("= sh.y"), (y << 8).astype(np.int32))
    np.testing.assert_array_equal(col("= sh.w"), np.int32(-2**31))


# ---- float3, structs with vector members, as_* / convert_* ----------------------------------
SV = np.dtype({"names": ["c", "v", "i"], "formats": [np.int8, (np.float32, 4), np.int32],
               "offsets": [0, 16, 32], "itemsize": 48})


def test_vec3_and_aligned_struct(pocl):
    prg = build("vec3.cl")
    n = 40
    r = rng(10)
    s = np.zeros((), SV)
    s["c"], s["v"], s["i"] = 3, [1.5, -2.0, 3.25, 4.0], 5
    s = s[()]
    f3 = r.standard_normal(3 * n).astype(np.float32)
    arr = np.zeros(n, SV)
    arr["c"] = r.integers(-100, 100, n)
    arr["v"] = r.standard_normal((n, 4))
    arr["i"] = r.integers(-100, 100, n)
    got = np.full(16 * n, np.nan, np.float32)
    ref = got.copy()
    prg.vec3_struct(n, None, got, s, f3, arr)
    pocl(kernel_source("vec3.cl"), "vec3_struct", (n,), None, ref, s, f3.copy(), arr.copy())
    np.testing.assert_array_equal(got[:16 * n - 16], ref[:16 * n - 16])
    g = got.reshape(n, 16)
    np.testing.assert_array_equal(
        g[:, 0:4], np.broadcast_to(np.float32([1.5, -2.0, 3.25, 4.0]) * 5 + 3, (n, 4)))
    np.testing.assert_array_equal(g[:, 9], -f3.reshape(n, 3)[:, 0])
    np.testing.assert_array_equal(g[:, 14], (arr["v"][:, 3] + arr["c"] + arr["i"])
                                  .astype(np.float32))


def test_geometric_cross_and_dot(pocl):
    prg = build("geometric.cl")
    n = 50
    r = rng(11)
    a = r.standard_normal((n, 4)).astype(np.float32)
    b = r.standard_normal((n, 4)).astype(np.float32)
    got = [np.zeros((n, 4), np.float32), np.zeros((n, 4), np.float32), np.zeros(n, np.float32)]
    ref = [x.copy() for x in got]
    prg.geometric(n, None, a, b, *got)
    pocl(kernel_source("geometric.cl"), "geometric", (n,), None, a.copy(), b.copy(), *ref)
    for g, e in zip(got, ref):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[0][:, :3], np.cross(a[:, :3], b[:, :3]), rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_array_equal(got[1][:, 3], 0)
