"""shuffle, shuffle2 (spec 6.12.12) and upsample (6.12.3) against PoCL, exactly.

One program per element type applies shuffle and shuffle2 for every pair of input width
m and mask width n (2, 4, 8, 16) to random vectors, with random masks whose components
have their high bits set as often as not (they must be ignored). One program applies
upsample to every type pair at every width (1, 2, 3, 4, 8, 16). Each program has a single
kernel: builds and PoCL's per-kernel compiles are what this test spends its time on.
Also: masks that are not ugentypen of the result's element size are compile errors.
"""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

import cl2c
import typegen as tg
from conftest import pocl_wide_vector_problem
from cl2c.resources import runtime_include_dir

N = 64                       # work-items, each with its own operands
SHUFFLE_WIDTHS = (2, 4, 8, 16)
# The mask's element type: the unsigned integer of the element's size.
UNSIGNED = {"char": "uchar", "uchar": "uchar", "short": "ushort", "ushort": "ushort",
            "int": "uint", "uint": "uint", "float": "uint", "long": "ulong",
            "ulong": "ulong", "double": "ulong"}
# upsample(hi, lo): the type of hi and the result's.
WIDER = {"char": "short", "uchar": "ushort", "short": "int", "ushort": "uint", "int": "long",
         "uint": "ulong"}
FP64 = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"


def _shuffle_cases():
    """[(function, m, n, offset of its mask and result in a work-item's slots)]."""
    cases, off = [], 0
    for fn in ("shuffle", "shuffle2"):
        for m in SHUFFLE_WIDTHS:
            for n in SHUFFLE_WIDTHS:
                cases.append((fn, m, n, off))
                off += n
    return cases, off


def _shuffle_program(t: str):
    cases, total = _shuffle_cases()
    u = UNSIGNED[t]
    body = []
    for fn, m, n, off in cases:
        xs = f"vload{m}(0, X)" + (f", vload{m}(0, Y)" if fn == "shuffle2" else "")
        body.append(f"    vstore{n}({fn}({xs}, vload{n}(0, M + {off})), 0, R + {off});")
    nl = "\n"
    return f"""{FP64}
__kernel void shuffles(__global const {t} *X, __global const {t} *Y, __global const {u} *M,
                       __global {t} *R)
{{
    size_t g = get_global_id(0);
    X += g * 16; Y += g * 16; M += g * {total}; R += g * {total};
{nl.join(body)}
}}
""", cases, total


def _masks(u: str, count: int, r: np.random.Generator) -> np.ndarray:
    """Random mask components: all bits random (high bits set) or just the low ones."""
    dt = np.dtype(tg.DTYPES[u])
    raw = r.integers(0, 256, count * dt.itemsize, dtype=np.uint8).view(dt)
    low = raw & dt.type(31)
    return np.where(r.random(count) < 0.5, raw, low)


@pytest.mark.parametrize("t", tg.SCALARS)
def test_shuffle_matches_pocl(t, pocl):
    r = tg.rng(f"shuffle-{t}")
    source, cases, total = _shuffle_program(t)
    prg = cl2c.Program(source).build()
    x = tg.random_values(t, N * 16, r)
    y = tg.random_values(t, N * 16, r)
    x, y = r.permutation(x), r.permutation(y)            # edge values in every work-item
    masks = _masks(UNSIGNED[t], N * total, r)
    out = tg.poison(N * total, t)
    if np.dtype(tg.DTYPES[t]).itemsize >= 4 and pocl_wide_vector_problem():
        # PoCL cannot run 512-bit vectors here (conftest says why): the model alone
        mine, ref = [x.copy(), y.copy(), masks.copy(), out.copy()], None
        prg.shuffles((N,), None, *mine)
    else:
        mine, ref = tg.run_both(prg, source, "shuffles", (N,), x, y, masks, out)
    got = mine[3].reshape(N, total)
    label = {}
    for fn, m, n, off in cases:
        for k in range(n):
            label[off + k] = f"{fn}({t}{m}, {UNSIGNED[t]}{n}) component {k}"
    where = lambda ix: f"item {ix[0]} {label[ix[1]]} (mask {masks.reshape(N, total)[ix]:#x})"
    model = _shuffle_model(x, y, masks, cases, total)
    assert tg.same(got, model).all(), tg.describe_mismatch(got, model, where)
    if ref is not None:
        want = ref[3].reshape(N, total)
        assert tg.same(got, want).all(), tg.describe_mismatch(got, want, where)


def _shuffle_model(x, y, masks, cases, total):
    """Spec 6.12.12: component k of the result is the source component that the low
    bits of mask component k select (log2 of the source width of them)."""
    x, y = x.reshape(N, 16), y.reshape(N, 16)
    masks = masks.reshape(N, total).astype(np.uint64)
    out = np.empty((N, total), x.dtype)
    rows = np.arange(N)[:, None]
    for fn, m, n, off in cases:
        src = np.concatenate([x[:, :m], y[:, :m]], 1) if fn == "shuffle2" else x[:, :m]
        sel = (masks[:, off:off + n] & np.uint64(src.shape[1] - 1)).astype(np.intp)
        out[:, off:off + n] = src[rows, sel]
    return out


UPSAMPLE_WIDTHS = (1, 2, 3, 4, 8, 16)
UPSAMPLE_SLOTS = sum(UPSAMPLE_WIDTHS)


def _upsample_program():
    params, body = [], []
    for t, w in WIDER.items():
        params.append(f"__global const {t} *H_{t}, __global const {UNSIGNED[t]} *L_{t}, "
                      f"__global {w} *R_{t}")
        off = 0
        for n in UPSAMPLE_WIDTHS:
            at = f"g * {UPSAMPLE_SLOTS} + {off}"
            if n == 1:
                body.append(f"    R_{t}[{at}] = upsample(H_{t}[{at}], L_{t}[{at}]);")
            else:
                body.append(f"    vstore{n}(upsample(vload{n}(0, H_{t} + {at}), "
                            f"vload{n}(0, L_{t} + {at})), 0, R_{t} + {at});")
            off += n
    nl = "\n"
    return f"""__kernel void upsamples({(',' + nl + '                        ').join(params)})
{{
    size_t g = get_global_id(0);
{nl.join(body)}
}}
"""


def test_upsample_matches_pocl(pocl):
    r = tg.rng("upsample")
    source = _upsample_program()
    prg = cl2c.Program(source).build()
    args = []
    for t, w in WIDER.items():
        args += [r.permutation(tg.random_values(t, N * UPSAMPLE_SLOTS, r)),
                 r.permutation(tg.random_values(UNSIGNED[t], N * UPSAMPLE_SLOTS, r)),
                 tg.poison(N * UPSAMPLE_SLOTS, w)]
    if pocl_wide_vector_problem():
        # PoCL cannot run the 512-bit results (long16) here: the model alone
        mine, ref = [a.copy() for a in args], None
        prg.upsamples((N,), None, *mine)
    else:
        mine, ref = tg.run_both(prg, source, "upsamples", (N,), *args)
    width_of_slot = [n for n in UPSAMPLE_WIDTHS for _ in range(n)]
    failures = []
    for i, t in enumerate(WIDER):
        got = mine[3 * i + 2].reshape(N, UPSAMPLE_SLOTS)
        hi, lo = (args[3 * i + k].reshape(N, UPSAMPLE_SLOTS) for k in (0, 1))
        # spec 6.12.3: upsample(hi, lo) = ((wider)hi << bits) | lo
        wide = np.dtype(tg.DTYPES[WIDER[t]])
        model = ((hi.astype(wide) << (8 * hi.dtype.itemsize)) |
                 lo.astype(np.dtype(wide.str.replace("i", "u"))).astype(wide))
        for want in [model] + ([ref[3 * i + 2].reshape(N, UPSAMPLE_SLOTS)] if ref else []):
            if tg.same(got, want).all():
                continue
            failures.append(tg.describe_mismatch(
                got, want, lambda ix: f"upsample({tg.vname(t, width_of_slot[ix[1]])}) "
                                      f"item {ix[0]} slot {ix[1]} (hi={hi[ix]!r}, "
                                      f"lo={lo[ix]!r})"))
            break
    assert not failures, "\n".join(failures)


# The mask must be a 2-, 4-, 8- or 16-vector of the unsigned integer type of the size of
# x's elements, and x a 2-, 4-, 8- or 16-vector.
BAD_CALLS = [
    ("uint3 m = (uint3)(0); float4 r = shuffle(x, m);", "shuffle(float4, uint3)"),
    ("int4 m = (int4)(0); float4 r = shuffle(x, m);", "shuffle(float4, int4)"),
    ("int8 m = (int8)(0); float8 r = shuffle2(x, x, m);", "shuffle2(float4, float4, int8)"),
    ("ushort4 m = (ushort4)(0); float4 r = shuffle(x, m);", "shuffle(float4, ushort4)"),
    ("uint4 m = (uint4)(0); float3 x3 = x.xyz; float4 r = shuffle(x3, m);",
     "shuffle(float3, uint4)"),
    ("uint m = 0; float r = shuffle(x, m);", "shuffle(float4, uint)"),
    ("char4 c = (char4)(1); short4 r = upsample(c, c);", "upsample(char4, char4)"),
    ("long l = 1; ulong u = 1; long r = upsample(l, u);", "upsample(long, ulong)"),
]


@pytest.mark.parametrize("body,call", BAD_CALLS, ids=[c[1] for c in BAD_CALLS])
def test_wrong_mask_is_an_error_at_its_position(body, call):
    source = ("__kernel void k(__global float4 *g)\n{\n    float4 x = g[0];\n"
              f"    {body}   // <-\n}}\n")
    line = source.count("\n", 0, source.index("// <-")) + 1
    with pytest.raises(cl2c.BuildError) as info:
        cl2c.Program(source, filename="shuf.cl").build()
    d = [d for d in info.value.diagnostics if d.severity == "error"][0]
    assert f"no matching function for call to '{call}'" in d.message, d.message
    assert (d.file, d.line) == ("shuf.cl", line), str(d)
    assert f"shuf.cl:{line}:{d.column}: error:" in str(info.value)
    assert d.column == 5 + body.index(call.split("(")[0] + "("), str(d)


def test_generated_c_compiles_without_warnings(tmp_path, cc):
    """The runtime's shuffle and upsample helpers, instantiated for every type."""
    sources = [_shuffle_program(t)[0] for t in tg.SCALARS] + [_upsample_program()]
    for i, source in enumerate(sources):
        c_file = tmp_path / f"k{i}.c"
        c_file.write_text(cl2c.translate(source, f"k{i}.cl").c_source, encoding="utf-8")
        cmd = [cc, "-std=c11", "-fopenmp", "-Wall", "-Wextra", "-Werror", "-I",
               str(runtime_include_dir()), "-c", str(c_file), "-o", str(tmp_path / "k.o")]
        res = subprocess.run(cmd, capture_output=True, text=True)
        # gcc notes (not warns) that 32-byte vectors passed by value have a new ABI
        assert res.returncode == 0 and "warning" not in res.stderr, \
            f"{' '.join(cmd)}\n{res.stderr}"
