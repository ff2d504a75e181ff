"""Atomic functions, memory fences and async copies (tests/kernels/atomics.cl), through
cl2c and PoCL.

Results must be exact. Where the order in which work-items reach a location decides
what each one gets back (contended atomics), the test checks what every order must
give: the final memory of commutative operations, and that the old values returned
chain up: the multiset {old values} + {final value} equals {op(old, operand)} +
{initial value} for every cell, which fails if two read-modify-writes ever overlap.

This machine's two vCPUs seldom interleave in practice, so the contended tests here
prove little about atomicity on their own. The same kernels (count, histogram,
float_sums, contended atomic_global_int) were also run from a C driver on a 16-core
host at 16, 4 and 2 threads, 16384 groups x 64 work-items, with hundreds of
thousands of interleavings per run: exact every time, while a mutant whose
__global atomic_inc/atomic_add were plain read-modify-writes lost 90% of the counts.

The last three tests (tests/kernels/atomics_barriers.cl) need barrier() and
wait_group_events as synchronisation points: __local atomics whose results other
work-items read, and async copies read by every work-item of the group.
"""
from __future__ import annotations

import numpy as np
import pytest

import cl2c
from conftest import kernel_path, kernel_source

SEED = 20240917
OPS = ["add", "sub", "xchg", "inc", "dec", "cmpxchg", "min", "max", "and", "or", "xor"]
COMMUTATIVE = {"add", "sub", "inc", "dec", "min", "max", "and", "or", "xor"}
UNSIGNED = {np.dtype(np.int32): np.uint32, np.dtype(np.uint32): np.uint32,
            np.dtype(np.int64): np.uint64, np.dtype(np.uint64): np.uint64}

GLOBAL_KERNELS = [("atomic_global_int", np.int32), ("atomic_global_uint", np.uint32),
                  ("atom_global_int", np.int32), ("atom_global_uint", np.uint32),
                  ("atom_global_long", np.int64), ("atom_global_ulong", np.uint64)]
LOCAL_KERNELS = [("atomic_local_int", np.int32), ("atomic_local_uint", np.uint32),
                 ("atom_local_int", np.int32), ("atom_local_ulong", np.uint64)]


def rng(salt=0):
    return np.random.default_rng(SEED + salt)


@pytest.fixture(scope="module")
def prg():
    return cl2c.Program.from_file(kernel_path("atomics.cl")).build()


SOURCE = kernel_source("atomics.cl")


def apply(op, old, a, b):
    """What operation ``op`` stores, given the old values (NumPy, wrapping)."""
    u = UNSIGNED[old.dtype]
    if op in ("add", "sub", "inc", "dec"):
        x = a if op in ("add", "sub") else np.ones_like(old)
        r = old.view(u) + x.view(u) if op in ("add", "inc") else old.view(u) - x.view(u)
        return r.view(old.dtype)
    return {"xchg": lambda: a.copy(), "cmpxchg": lambda: np.where(old == b, a, old),
            "min": lambda: np.minimum(old, a), "max": lambda: np.maximum(old, a),
            "and": lambda: old & a, "or": lambda: old | a, "xor": lambda: old ^ a}[op]()


def fold(op, init, a):
    """The final value of a cell after ``op`` with every operand in ``a``, any order."""
    if op in ("inc", "dec"):
        return apply(op if op == "inc" else "dec", init, None, None) if len(a) == 1 else \
            apply("add" if op == "inc" else "sub", init, np.array(len(a), init.dtype), None)
    if op in ("add", "sub"):
        total = np.array(a.view(UNSIGNED[a.dtype]).sum(dtype=UNSIGNED[a.dtype]))
        return apply(op, init, total.view(a.dtype), None)
    reduce = {"min": np.minimum, "max": np.maximum, "and": np.bitwise_and,
              "or": np.bitwise_or, "xor": np.bitwise_xor}[op]
    return reduce(init, reduce.reduce(a))


def random_values(r, dtype, n):
    info = np.iinfo(dtype)
    return r.integers(info.min, info.max, n, dtype=dtype, endpoint=True)


def operands(r, dtype, cells, op, n):
    a = random_values(r, dtype, n)
    b = random_values(r, dtype, n)
    if op == "cmpxchg":      # half of the compares succeed
        hit = r.random(n) < 0.5
        b = np.where(hit, cells[np.arange(n) % len(cells)], b)
    return a, b


# ---- every function, no two work-items on one location: exact ------------------------
@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("kernel,dtype", GLOBAL_KERNELS, ids=[k for k, _ in GLOBAL_KERNELS])
def test_global_atomic_each_function(prg, pocl, kernel, dtype, op):
    n, local = 4096, 64
    r = rng(OPS.index(op))
    cells0 = random_values(r, dtype, n)
    a, b = operands(r, dtype, cells0, op, n)
    args = (np.uint32(n), np.int32(OPS.index(op)))
    cells, olds = cells0.copy(), np.zeros(n, dtype)
    getattr(prg, kernel)((n,), (local,), cells, a, b, olds, *args)
    np.testing.assert_array_equal(olds, cells0)
    np.testing.assert_array_equal(cells, apply(op, cells0, a, b))
    ref_cells, ref_olds = cells0.copy(), np.zeros(n, dtype)
    pocl(SOURCE, kernel, (n,), (local,), ref_cells, a, b, ref_olds, *args)
    np.testing.assert_array_equal(olds, ref_olds)
    np.testing.assert_array_equal(cells, ref_cells)


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("kernel,dtype", LOCAL_KERNELS, ids=[k for k, _ in LOCAL_KERNELS])
def test_local_atomic_each_function(prg, pocl, kernel, dtype, op):
    n, local = 2048, 64
    r = rng(100 + OPS.index(op))
    cells0 = random_values(r, dtype, n)
    a, b = operands(r, dtype, cells0, op, n)
    slots = cl2c.LocalMemory(local * np.dtype(dtype).itemsize)
    cells, olds = cells0.copy(), np.zeros(n, dtype)
    getattr(prg, kernel)((n,), (local,), cells, a, b, olds, np.int32(OPS.index(op)), slots)
    np.testing.assert_array_equal(olds, cells0)
    np.testing.assert_array_equal(cells, apply(op, cells0, a, b))
    ref_cells, ref_olds = cells0.copy(), np.zeros(n, dtype)
    pocl(SOURCE, kernel, (n,), (local,), ref_cells, a, b, ref_olds,
         np.int32(OPS.index(op)), slots)
    np.testing.assert_array_equal(olds, ref_olds)
    np.testing.assert_array_equal(cells, ref_cells)


# ---- contention: many work-groups, a few locations ------------------------------------
def check_chained(op, cells0, cells, a, b, olds):
    """The old values returned at each cell chain from its initial to its final value."""
    ncells = len(cells0)
    idx = np.arange(len(olds)) % ncells
    news = apply(op, olds, a, b)
    for c in range(ncells):
        mine = idx == c
        before = np.sort(np.concatenate([olds[mine], cells[c:c + 1]]))
        after = np.sort(np.concatenate([news[mine], cells0[c:c + 1]]))
        np.testing.assert_array_equal(before, after, err_msg=f"{op}: cell {c}")


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("kernel,dtype", GLOBAL_KERNELS[:2] + GLOBAL_KERNELS[4:5],
                         ids=["atomic_global_int", "atomic_global_uint", "atom_global_long"])
def test_global_atomic_contended(prg, pocl, kernel, dtype, op):
    n, local, ncells = 64 * 1024, 64, 3
    r = rng(200 + OPS.index(op))
    if op in ("cmpxchg", "xchg"):      # few values, so that compares often succeed
        cells0 = r.integers(0, 4, ncells).astype(dtype)
        a = r.integers(0, 4, n).astype(dtype)
        b = r.integers(0, 4, n).astype(dtype)
    else:
        cells0 = random_values(r, dtype, ncells)
        a, b = operands(r, dtype, cells0, op, n)
    args = (np.uint32(ncells), np.int32(OPS.index(op)))
    cells, olds = cells0.copy(), np.zeros(n, dtype)
    getattr(prg, kernel)((n,), (local,), cells, a, b, olds, *args)
    check_chained(op, cells0, cells, a, b, olds)
    ref_cells, ref_olds = cells0.copy(), np.zeros(n, dtype)
    pocl(SOURCE, kernel, (n,), (local,), ref_cells, a, b, ref_olds, *args)
    check_chained(op, cells0, ref_cells, a, b, ref_olds)
    if op in COMMUTATIVE:
        for c in range(ncells):
            np.testing.assert_array_equal(cells[c], fold(op, cells0[c], a[c::ncells]))
        np.testing.assert_array_equal(cells, ref_cells)


def test_one_counter_many_groups(prg, pocl):
    groups, local = 4096, 64
    n = groups * local
    counter, olds = np.zeros(1, np.uint32), np.zeros(n, np.uint32)
    prg.count((n,), (local,), counter, olds)
    assert counter[0] == n
    np.testing.assert_array_equal(np.sort(olds), np.arange(n, dtype=np.uint32))
    ref_counter, ref_olds = np.zeros(1, np.uint32), np.zeros(n, np.uint32)
    pocl(SOURCE, "count", (n,), (local,), ref_counter, ref_olds)
    assert ref_counter[0] == n
    np.testing.assert_array_equal(np.sort(ref_olds), np.sort(olds))


def test_global_histogram(prg, pocl):
    groups, local = 4096, 64
    n = groups * local
    r = rng(300)
    data = np.clip(r.normal(128, 30, n), 0, 255).astype(np.uint8)   # some bins are hot
    bins = np.zeros(256, np.uint32)
    prg.histogram((n,), (local,), data, bins)
    np.testing.assert_array_equal(bins, np.bincount(data, minlength=256))
    ref = np.zeros(256, np.uint32)
    pocl(SOURCE, "histogram", (n,), (local,), data, ref)
    np.testing.assert_array_equal(bins, ref)


@pytest.mark.parametrize("nsums", [1, 16])
def test_float_add_by_cmpxchg(prg, pocl, nsums):
    groups, local = 4096, 64
    n = groups * local
    r = rng(400 + nsums)
    x = r.integers(-30, 31, n).astype(np.float32)    # every partial sum is exact
    sums = np.zeros(nsums, np.float32)
    prg.float_sums((n,), (local,), sums, x, np.uint32(nsums))
    expect = x.astype(np.int64).reshape(-1, nsums).sum(axis=0).astype(np.float32)
    np.testing.assert_array_equal(sums, expect)
    ref = np.zeros(nsums, np.float32)
    pocl(SOURCE, "float_sums", (n,), (local,), ref, x, np.uint32(nsums))
    np.testing.assert_array_equal(sums, ref)


@pytest.mark.parametrize("ncells", [None, 3])
def test_xchg_float(prg, pocl, ncells):
    n, local = 4096, 64
    ncells = ncells or n
    r = rng(500)
    cells0 = r.standard_normal(ncells).astype(np.float32)
    a = r.standard_normal(n).astype(np.float32)
    slots = cl2c.LocalMemory(local * 4)
    results = []
    for run in ("cl2c", "pocl"):
        cells, olds, local_olds = cells0.copy(), np.zeros(n, np.float32), np.zeros(n, np.float32)
        args = (cells, a, olds, local_olds, np.uint32(ncells), slots)
        if run == "cl2c":
            prg.xchg_float((n,), (local,), *args)
        else:
            pocl(SOURCE, "xchg_float", (n,), (local,), *args)
        np.testing.assert_array_equal(local_olds, a + np.float32(0.5), err_msg=run)
        if ncells == n:
            np.testing.assert_array_equal(olds, cells0, err_msg=run)
            np.testing.assert_array_equal(cells, a, err_msg=run)
        else:
            check_chained("xchg", cells0.view(np.int32), cells.view(np.int32),
                          a.view(np.int32), None, olds.view(np.int32))
        results.append((cells, olds))
    if ncells == n:
        np.testing.assert_array_equal(results[0][1], results[1][1])


def test_local_counter_without_barrier(prg, pocl):
    """A __local counter nobody initialises: atomic_inc still hands out consecutive
    values within each group."""
    groups, local = 256, 64
    n = groups * local
    for run in ("cl2c", "pocl"):
        olds = np.zeros(n, np.uint32)
        if run == "cl2c":
            prg.local_counter((n,), (local,), olds)
        else:
            pocl(SOURCE, "local_counter", (n,), (local,), olds)
        for g in olds.reshape(groups, local):
            d = (g - g[0]).view(np.int32)              # wraps like the counter does
            np.testing.assert_array_equal(np.sort(d) - d.min(), np.arange(local),
                                          err_msg=run)


# ---- fences ------------------------------------------------------------------------------
def test_fences(prg, pocl):
    n, local = 1000, 50
    out = np.zeros(n, np.int32)
    prg.fences((n,), (local,), out, cl2c.LocalMemory(local * 4))
    np.testing.assert_array_equal(out, 2 * np.arange(n, dtype=np.int32) + 1)
    ref = np.zeros(n, np.int32)
    pocl(SOURCE, "fences", (n,), (local,), ref, cl2c.LocalMemory(local * 4))
    np.testing.assert_array_equal(out, ref)


# ---- async copies ----------------------------------------------------------------------------
# (type, NumPy element type, components in memory, components that carry data)
ASYNC_TYPES = [("char", np.int8, 1, 1), ("ushort", np.uint16, 1, 1), ("int", np.int32, 1, 1),
               ("ulong", np.uint64, 1, 1), ("float", np.float32, 1, 1),
               ("double", np.float64, 1, 1), ("uchar16", np.uint8, 16, 16),
               ("int2", np.int32, 2, 2), ("float3", np.float32, 4, 3),
               ("float4", np.float32, 4, 4), ("double8", np.float64, 8, 8)]


def random_array(r, dtype, shape):
    if np.dtype(dtype).kind == "f":
        return r.standard_normal(shape).astype(dtype)
    return random_values(r, dtype, int(np.prod(shape))).reshape(shape)


@pytest.mark.parametrize("name,dtype,width,used", ASYNC_TYPES, ids=[t[0] for t in ASYNC_TYPES])
def test_async_work_group_copy(prg, pocl, name, dtype, width, used):
    groups, local = 8, 16
    count = groups * 2 * local
    r = rng(600)
    src = random_array(r, dtype, (count, width))
    size = local * width * np.dtype(dtype).itemsize * 2
    dst, out = np.zeros_like(src), np.zeros_like(src)
    getattr(prg, f"async_copy_{name}")((groups * local,), (local,), src, dst, out,
                                       cl2c.LocalMemory(size))
    np.testing.assert_array_equal(dst, src)     # 3-component vectors: as 4-component ones
    np.testing.assert_array_equal(out[:, :used], src[:, :used])
    ref_dst, ref_out = np.zeros_like(src), np.zeros_like(src)
    pocl(SOURCE, f"async_copy_{name}", (groups * local,), (local,), src, ref_dst, ref_out,
         cl2c.LocalMemory(size))
    np.testing.assert_array_equal(dst[:, :used], ref_dst[:, :used])
    np.testing.assert_array_equal(out[:, :used], ref_out[:, :used])


STRIDED_TYPES = [("int", np.int32, 1, 1), ("float2", np.float32, 2, 2),
                 ("short3", np.int16, 4, 3)]


@pytest.mark.parametrize("name,dtype,width,used", STRIDED_TYPES,
                         ids=[t[0] for t in STRIDED_TYPES])
def test_async_work_group_strided_copy(prg, pocl, name, dtype, width, used):
    n, local = 24, 8
    r = rng(700)
    src = random_array(r, dtype, (n, n, width))
    nbytes = n * width * np.dtype(dtype).itemsize
    results = {}
    for run in ("cl2c", "pocl"):
        dst, transposed, rows = (np.zeros_like(src) for _ in range(3))
        args = (src, dst, transposed, rows, cl2c.LocalMemory(nbytes),
                cl2c.LocalMemory(nbytes), np.uint32(n))
        if run == "cl2c":
            getattr(prg, f"async_strided_{name}")((n * local,), (local,), *args)
        else:
            pocl(SOURCE, f"async_strided_{name}", (n * local,), (local,), *args)
        results[run] = (dst, transposed, rows)
        np.testing.assert_array_equal(dst[..., :used], src[:, ::-1, :used], err_msg=run)
        np.testing.assert_array_equal(transposed[..., :used],
                                      src.transpose(1, 0, 2)[..., :used], err_msg=run)
        np.testing.assert_array_equal(rows[..., :used], src[..., :used], err_msg=run)


# ---- what the translator does with them -------------------------------------------------------
def translate(src, options=None):
    return cl2c.translate(src, "t.cl", options)


def test_simd_off_exactly_where_atomics_are():
    tr = cl2c.translate(SOURCE, str(kernel_path("atomics.cl")))
    simd = {k.name: k.simd for k in tr.kernels}
    for name, uses in simd.items():
        atomic = name.startswith(("atomic_", "atom_")) or name in (
            "xchg_float", "count", "histogram", "float_sums", "local_counter")
        assert uses is not atomic, name       # float_sums: through a helper function


def test_runtime_names_follow_the_address_space():
    src = """
    void g(volatile global int *p) { atomic_inc(p); }
    __kernel void k(volatile __global uint *u, __global long *l, __local int *s) {
        __local float f;
        atomic_add(u, 1u); atom_max(l, 3L); atomic_or(s, 2); atomic_xchg(&f, 1.0f);
        g((volatile global int *)u);
    }"""
    c = translate(src, "-cl-std=CL2.0").c_source
    for name in ("cl2c_atomic_add_global_uint", "cl2c_atomic_max_global_long",
                 "cl2c_atomic_or_local_int", "cl2c_atomic_xchg_local_float",
                 "cl2c_atomic_inc_global_int"):
        assert name + "(" in c, name


def test_event_t_values():
    src = """
    __kernel void k(__global const int *g, __local int *l) {
        event_t e = 0, es[3] = {0, 0, 0};
        e = async_work_group_copy(l, g, 4, e);
        es[1] = async_work_group_copy(l + 4, g + 4, 4, (event_t)0);
        es[2] = async_work_group_strided_copy(l + 8, g, 4, 2, es[1]);
        wait_group_events(3, es);
        wait_group_events(1, &e);
    }"""
    # under fibers the work-item function keeps the calls (regions turns the waits into
    # cuts between its regions)
    c = translate(src, options="-cl2c-schedule=fibers").c_source
    assert "cl2c_event_t e = 0" in c
    assert "cl2c_wait_group_events(3, es)" in c
    assert "cl2c_async_gather_int(CL2C_WI, l + 8, g, 4, 2, es[1])" in c


@pytest.mark.parametrize("body,message", [
    ("atomic_add(c, 1);", "no matching function for call to 'atomic_add"),
    ("atomic_inc(cg);", "no matching function for call to 'atomic_inc"),
    ("atomic_add(f, 1.0f);", "no matching function for call to 'atomic_add"),
    ("atomic_add(l, 1L);", "no matching function for call to 'atomic_add"),
    ("atom_inc(ch);", "no matching function for call to 'atom_inc"),
    ("async_work_group_copy(g, g, 4, 0);", "no matching function for call to "
                                            "'async_work_group_copy"),
    ("async_work_group_copy(loc, c, 4, 0);", "no matching function for call to "
                                              "'async_work_group_copy"),
    ("event_t e = 0; wait_group_events(1, e);", "no matching function for call to "
                                                "'wait_group_events"),
])
def test_wrong_calls_are_errors(body, message):
    src = f"""
    __kernel void k(__constant int *c, const __global int *cg, __global float *f,
                    __global long *l, __global char *ch, __global int *g, __local int *loc) {{
        {body}
    }}"""
    with pytest.raises(cl2c.BuildError) as err:
        translate(src)
    assert message in str(err.value)


# ---- with barriers: __local atomics whose results other work-items see ------------------------
@pytest.fixture(scope="module")
def with_barriers():
    return cl2c.Program.from_file(kernel_path("atomics_barriers.cl")).build()


BARRIER_SOURCE = kernel_source("atomics_barriers.cl")


def test_local_atomics_reduce(with_barriers, pocl):
    groups, local = 300, 64
    n = groups * local
    x = random_values(rng(800), np.int32, n) >> 4
    x[:local] = -1 << 20          # one group of equal values
    expect = []
    for g in x.reshape(groups, local):
        with np.errstate(over="ignore"):
            total = np.int32(g.astype(np.int64).sum() - local)
        expect.append([local, g.min(), g.max(), np.bitwise_and.reduce(g),
                       np.bitwise_or.reduce(g), np.bitwise_xor.reduce(g), total,
                       g.view(np.uint32).min().astype(np.uint32).view(np.int32)])
    expect = np.array(expect, np.int32)
    for run in ("cl2c", "pocl"):
        tickets, results = np.zeros(n, np.int32), np.zeros((groups, 8), np.int32)
        if run == "cl2c":
            with_barriers.local_reduce((n,), (local,), x, tickets, results)
        else:
            pocl(BARRIER_SOURCE, "local_reduce", (n,), (local,), x, tickets, results)
        np.testing.assert_array_equal(results, expect, err_msg=run)
        np.testing.assert_array_equal(np.sort(tickets.reshape(groups, local), axis=1),
                                      np.tile(np.arange(local), (groups, 1)), err_msg=run)


def test_local_float_sum_and_token(with_barriers, pocl):
    groups, local = 512, 128
    n = groups * local
    x = rng(801).integers(-20, 21, n).astype(np.float32)
    for run in ("cl2c", "pocl"):
        total, last = np.zeros(1, np.float32), np.zeros(n, np.int32)
        if run == "cl2c":
            with_barriers.local_float_sum((n,), (local,), x, total, last)
        else:
            pocl(BARRIER_SOURCE, "local_float_sum", (n,), (local,), x, total, last)
        assert total[0] == x.astype(np.int64).sum(), run
        # The token went from work-item to work-item: each got the one before it.
        for g in last.reshape(groups, local):
            assert len(set(g)) == local and -1 in g and set(g) <= set(range(-1, local)), run
            assert not np.any(g == np.arange(local)), run


def test_async_copy_read_by_other_work_items(with_barriers, pocl):
    groups, local = 64, 32
    n = groups * local
    src = rng(802).integers(-1000, 1000, n).astype(np.float32)
    t = src.reshape(groups, local)
    left = np.concatenate([t[:, :1], t[:, :-1]], axis=1)
    right = np.concatenate([t[:, 1:], t[:, -1:]], axis=1)
    expect = (left + t + right).reshape(-1)
    for run in ("cl2c", "pocl"):
        dst = np.zeros(n, np.float32)
        args = (src, dst, cl2c.LocalMemory(local * 4))
        if run == "cl2c":
            with_barriers.async_stencil((n,), (local,), *args)
        else:
            pocl(BARRIER_SOURCE, "async_stencil", (n,), (local,), *args)
        np.testing.assert_array_equal(dst, expect, err_msg=run)
