"""convert_<T>[_sat][_rte|_rtz|_rtp|_rtn] for every pair of types, and as_<T>, against
PoCL, exactly.

One kernel per source type converts each input to every destination type with every
suffix the spec allows (_sat only into integer types): scalars, and 3- and 16-wide
vectors with a few suffixes. Inputs are each type's edge values (0, -0, NaN, +-inf,
denormals, +-2^n+-1, the limits, halves for rounding) and random bit patterns.

Where the spec leaves a result implementation-defined it is not compared: a float-to-
integer conversion without _sat of NaN or of a value out of range after rounding.

Where PoCL deviates from the spec, cl2c follows the spec and the test checks the spec's
value instead of PoCL's:
* _sat conversions of NaN to an integer give 0 (spec 6.2.3.3, "NaN should be converted
  to 0"). PoCL gives INT_MIN for convert_int_sat*(NaN), LONG_MIN for convert_long_sat*
  and 0x8000000000000000 for convert_ulong_sat*, with and without a rounding mode, from
  float and from double (it is right for char, uchar, short, ushort and uint).
"""
from __future__ import annotations

import numpy as np
import pytest

import cl2c
import typegen as tg
from conftest import pocl_wide_vector_problem, run_pocl

MODES = ("", "_rte", "_rtz", "_rtp", "_rtn")
N = 256


def suffixes(dst: str) -> list[str]:
    out = list(MODES)
    if dst in tg.INTS:
        out += ["_sat" + m for m in MODES]
    return out


VECTOR_SUFFIXES = {3: ("", "_rtn", "_sat_rte"), 16: ("_rtz", "_sat", "_rtp")}


def _vector_suffixes(dst, n):
    return [s for s in VECTOR_SUFFIXES[n] if dst in tg.INTS or "_sat" not in s]


def _scalar_kernel(src: str) -> str:
    params = ", ".join(f"__global {d} *O_{d}" for d in tg.SCALARS)
    body = []
    for dst in tg.SCALARS:
        sfx = suffixes(dst)
        for j, s in enumerate(sfx):
            body.append(f"    O_{dst}[g * {len(sfx)} + {j}] = convert_{dst}{s}(x);")
    return f"""
__kernel void cvt_{src}(__global const {src} *X, {params})
{{
    size_t g = get_global_id(0);
    {src} x = X[g];
{chr(10).join(body)}
}}"""


def _vector_kernel(src: str, n: int) -> str:
    params = ", ".join(f"__global {d}{n} *O_{d}" for d in tg.SCALARS)
    body = []
    for dst in tg.SCALARS:
        sfx = _vector_suffixes(dst, n)
        for j, s in enumerate(sfx):
            body.append(f"    O_{dst}[g * {len(sfx)} + {j}] = convert_{dst}{n}{s}(x);")
    return f"""
__kernel void cvt{n}_{src}(__global const {src}{n} *X, {params})
{{
    size_t g = get_global_id(0);
    {src}{n} x = X[g];
{chr(10).join(body)}
}}"""


FP64 = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable"
SOURCE = "\n".join([FP64] + [_scalar_kernel(src) for src in tg.SCALARS])
VECTOR_SOURCE = "\n".join([FP64] + [_vector_kernel(src, n) for src in tg.SCALARS
                                     for n in (3, 16)])
# The vector kernels build unoptimised (-cl-opt-disable: the C at -O0, cl2c/target.py):
# at -O3 they took 150 CPU seconds of GCC's, 90% of this file's time; each lane goes
# through the scalar conversions that the scalar kernels test optimised, in a work-item
# loop the compiler vectorises.
VECTOR_OPTIONS = "-cl-opt-disable"


@pytest.fixture(scope="module")
def program():
    return cl2c.Program(SOURCE).build()


@pytest.fixture(scope="module")
def floats_program_o3():
    """The float and double kernels at -O3 (built by the optimised test below, which
    sets the tier), where their work-item loops vectorise."""
    return cl2c.Program("\n".join([FP64] + [_scalar_kernel(s) for s in tg.FLOATS])).build()


@pytest.fixture(scope="module")
def vector_program():
    return cl2c.Program(VECTOR_SOURCE).build(VECTOR_OPTIONS)


def _defined(x: np.ndarray, src: str, dst: str, suffix: str) -> np.ndarray:
    """Where convert_<dst><suffix>(x) has a value the spec defines."""
    if src in tg.INTS or dst in tg.FLOATS or "_sat" in suffix:
        return np.ones(x.shape, bool)
    mode = suffix.replace("_sat", "") or "_rtz"
    rnd = {"_rte": np.rint, "_rtz": np.trunc, "_rtp": np.ceil, "_rtn": np.floor}[mode]
    with np.errstate(invalid="ignore"):
        v = rnd(x.astype(np.float64))
        info = np.iinfo(tg.DTYPES[dst])
        # the limits as exact powers of two: float64(ULONG_MAX) would round up to 2^64
        return np.isfinite(v) & (v >= float(info.min)) & (v < 2.0 ** info.bits if
                                                          info.min == 0 else
                                                          v < 2.0 ** (info.bits - 1))


def _spec_value(x: np.ndarray, dst: str, suffix: str, got_pocl: np.ndarray) -> np.ndarray:
    """PoCL's results, with the spec's value where PoCL deviates (see the docstring)."""
    want = got_pocl.copy()
    if "_sat" in suffix and x.dtype.kind == "f":
        want[np.isnan(x)] = 0
    return want


@pytest.mark.parametrize("src", tg.SCALARS)
def test_convert_scalars_match_pocl(src, program, pocl):
    r = tg.rng(f"cvt-{src}")
    x = tg.random_values(src, N, r)
    outs = [tg.poison(N * len(suffixes(d)), d) for d in tg.SCALARS]
    mine = [x.copy()] + [o.copy() for o in outs]
    ref = [x.copy()] + [o.copy() for o in outs]
    getattr(program, f"cvt_{src}")((N,), None, *mine)
    run_pocl(SOURCE, f"cvt_{src}", (N,), None, *ref)
    bad = []
    for k, dst in enumerate(tg.SCALARS):
        sfx = suffixes(dst)
        got = mine[k + 1].reshape(N, len(sfx))
        ref_k = ref[k + 1].reshape(N, len(sfx))
        for j, s in enumerate(sfx):
            ok = _defined(x, src, dst, s)
            want = _spec_value(x, dst, s, ref_k[:, j])
            diff = ok & ~tg.same(got[:, j], want)
            for i in np.nonzero(diff)[0][:3]:
                bad.append(f"convert_{dst}{s}(({src}){x[i]!r}): cl2c {got[i, j]!r}, "
                           f"expected {want[i]!r} (PoCL {ref_k[i, j]!r})")
    assert not bad, "\n".join(bad[:40])


@pytest.mark.optimised
@pytest.mark.parametrize("src", tg.FLOATS)
def test_convert_floats_match_pocl_vectorised(src, floats_program_o3, pocl):
    """The same at -O3: the saturating conversions into 8- and 16-bit types are selects
    there, not branches (convert.h), and the loops around them vectorise."""
    test_convert_scalars_match_pocl(src, floats_program_o3, pocl)


@pytest.mark.parametrize("n", (3, 16))
@pytest.mark.parametrize("src", tg.SCALARS)
def test_convert_vectors_match_pocl(src, n, vector_program, pocl):
    r = tg.rng(f"cvt{n}-{src}")
    count = 64
    x = tg.random_values(src, count * n, r)
    xb = tg.vector_buffer(x, n)
    outs = [tg.poison(count * len(_vector_suffixes(d, n)) * tg.slots(n), d)
            for d in tg.SCALARS]
    mine = [xb.copy()] + [o.copy() for o in outs]
    ref = [xb.copy()] + [o.copy() for o in outs]
    getattr(vector_program, f"cvt{n}_{src}")((count,), None, *mine)
    lanes_x = tg.lanes(xb, n)
    if n == 16 and pocl_wide_vector_problem():
        # PoCL cannot run 512-bit vectors here (conftest says why). Each lane converts
        # as a scalar does: PoCL's scalar kernel over the lanes is the reference.
        per_lane = [lanes_x.ravel().copy()] + [tg.poison(count * n * len(suffixes(d)), d)
                                               for d in tg.SCALARS]
        run_pocl(SOURCE, f"cvt_{src}", (count * n,), None, *per_lane)

        def reference(k, dst):
            cols = [suffixes(dst).index(s) for s in _vector_suffixes(dst, n)]
            out = per_lane[k + 1].reshape(count, n, len(suffixes(dst)))[:, :, cols]
            return out.transpose(0, 2, 1)
    else:
        run_pocl(VECTOR_SOURCE, f"cvt{n}_{src}", (count,), None, *ref)

        def reference(k, dst):
            return tg.lanes(ref[k + 1], n).reshape(count, len(_vector_suffixes(dst, n)), n)
    bad = []
    for k, dst in enumerate(tg.SCALARS):
        sfx = _vector_suffixes(dst, n)
        got = tg.lanes(mine[k + 1], n).reshape(count, len(sfx), n)
        want_all = reference(k, dst)
        for j, s in enumerate(sfx):
            ok = _defined(lanes_x, src, dst, s)
            want = _spec_value(lanes_x, dst, s, want_all[:, j])
            diff = ok & ~tg.same(got[:, j], want)
            for i, lane in np.argwhere(diff)[:3]:
                bad.append(f"convert_{dst}{n}{s} of {src}{n} lane {lane} = "
                           f"{lanes_x[i, lane]!r}: cl2c {got[i, j, lane]!r}, expected "
                           f"{want[i, lane]!r}")
    assert not bad, "\n".join(bad[:40])


# ---- as_<type>: the same bytes --------------------------------------------------------
def _as_pairs():
    """(source, destination) type names of equal size, vectors included, with the
    3-to-4 and 4-to-3 cases of spec 6.2.4.2."""
    names = []
    for t in tg.SCALARS:
        for n in tg.WIDTHS:
            names.append(tg.vname(t, n))
    size = {nm: np.dtype(tg.DTYPES[nm.rstrip("0123456789")]).itemsize
            * tg.slots(int(nm[len(nm.rstrip("0123456789")):] or 1)) for nm in names}
    pairs = []
    for a in names:
        for b in names:
            if a != b and size[a] == size[b]:
                na = int(a[len(a.rstrip("0123456789")):] or 1)
                nb = int(b[len(b.rstrip("0123456789")):] or 1)
                if na == nb or {na, nb} == {3, 4}:
                    pairs.append((a, b))
    return pairs


AS_PAIRS = _as_pairs()


def _as_program():
    """One kernel per source type (``as_<k>`` for the k-th of AS_SOURCES), one output per
    destination: 60 kernels where one a pair took 148, and a third of the build."""
    lines = []
    for k, a in enumerate(AS_SOURCES):
        dsts = [b for (x, b) in AS_PAIRS if x == a]
        params = "".join(f", __global {b} *y{j}" for j, b in enumerate(dsts))
        body = " ".join(f"y{j}[g] = as_{b}(x[g]);" for j, b in enumerate(dsts))
        lines.append(f"__kernel void as_{k}(__global const {a} *x{params}) "
                     f"{{ size_t g = get_global_id(0); {body} }}")
    return "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" + "\n".join(lines)


AS_SOURCES = list(dict.fromkeys(a for a, _ in AS_PAIRS))


def test_as_type_keeps_the_bytes():
    """as_T(x) returns x's bytes as T; for 3 <-> 4 components the first three lanes are
    the operand's and (4 -> 3) nothing else is read. Checked against the bytes
    themselves, for every pair of equal-sized types of the same width."""
    src = _as_program()
    prg = cl2c.Program(src).build()
    r = tg.rng("as")
    count = 16
    bad = []
    for k, a in enumerate(AS_SOURCES):
        dsts = [b for (x, b) in AS_PAIRS if x == a]
        ea = a.rstrip("0123456789")
        na = int(a[len(ea):] or 1)
        raw = r.integers(0, 256, count * np.dtype(tg.DTYPES[ea]).itemsize * tg.slots(na),
                         dtype=np.uint8)
        x = raw.view(tg.DTYPES[ea]).copy()
        ys = []
        for b in dsts:
            eb = b.rstrip("0123456789")
            ys.append(tg.poison(count * tg.slots(int(b[len(eb):] or 1)), eb))
        getattr(prg, f"as_{k}")((count,), None, x, *ys)
        xb = x.view(np.uint8).reshape(count, -1)
        for b, y in zip(dsts, ys):
            eb = b.rstrip("0123456789")
            nb = int(b[len(eb):] or 1)
            yb = y.view(np.uint8).reshape(count, -1)
            keep = min(na, nb) * np.dtype(tg.DTYPES[eb]).itemsize if 3 in (na, nb) else \
                xb.shape[1]
            if not np.array_equal(xb[:, :keep], yb[:, :keep]):
                bad.append(f"as_{b}({a})")
    assert not bad, ", ".join(bad)
