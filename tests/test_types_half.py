"""half as a storage type (spec 6.1.1.1, 6.12.7): vload_half[n], vloada_half[n],
vstore_half[n][_rte|_rtz|_rtp|_rtn] and vstorea_half[n] from float and double, against
PoCL bit for bit and against NumPy's float16 (round to nearest even).

Inputs cover every half bit pattern for the loads (all 65536, NaNs included), and for the
stores each type's edge values, the halfway points between neighbouring halves, the
subnormal range, the overflow threshold (65504, 65519.99, 65520) and random values.
"""
from __future__ import annotations

import numpy as np
import pytest

import cl2c
import typegen as tg
from conftest import run_pocl

MODES = ("", "_rte", "_rtz", "_rtp", "_rtn")

SOURCE = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" + """
__kernel void load(__global const half *h, __global float *f1, __global float4 *f4,
                   __global float3 *f3, __global float3 *fa3, __global float16 *f16)
{
    size_t g = get_global_id(0);
    f1[g] = vload_half(g, h);
    f4[g] = vload_half4(g, h);
    f3[g] = vload_half3(g, h);
    fa3[g] = vloada_half3(g, h);
    f16[g / 4] = vload_half16(g / 4, h);
}
""" + "".join(f"""
__kernel void store_{t}(__global const {t} *x, __global half *o1, __global half *o2,
                        __global half *o3, __global half *oa3)
{{
    size_t g = get_global_id(0);
    {t} v = x[g];
    {t}2 v2 = ({t}2)(v, -v);
    {t}3 v3 = ({t}3)(v, -v, v * ({t})0.5);
""" + "".join(f"""    vstore_half{m}(v, g * 5 + {k}, o1);
    vstore_half2{m}(v2, g * 5 + {k}, o2);
    vstore_half3{m}(v3, g * 5 + {k}, o3);
    vstorea_half3{m}(v3, g * 5 + {k}, oa3);
""" for k, m in enumerate(MODES)) + "}\n" for t in ("float", "double"))


@pytest.fixture(scope="module")
def program():
    return cl2c.Program(SOURCE).build()


def test_vload_half_every_pattern(program, pocl):
    n = 65536
    h = np.arange(n, dtype=np.uint32).astype(np.uint16)
    outs = [np.full(n, np.nan, np.float32), np.full(4 * n, np.nan, np.float32),
            np.full(4 * n, np.nan, np.float32), np.full(4 * n, np.nan, np.float32),
            np.full(16 * (n // 4), np.nan, np.float32)]
    hh = np.concatenate([h, h, h, h])          # vload_half4/16 read past g * 1 halves
    mine = [hh.copy()] + [o.copy() for o in outs]
    ref = [hh.copy()] + [o.copy() for o in outs]
    program.load((n,), None, *mine)
    run_pocl(SOURCE, "load", (n,), None, *ref)
    for k, w in zip(range(1, 6), (1, 4, 3, 3, 16)):     # 3-vectors: not the padding
        assert tg.same(tg.lanes(mine[k], w), tg.lanes(ref[k], w)).all(), \
            f"output {k} differs from PoCL"
    # and against NumPy: exact widening, NaN payloads kept
    want = h.view(np.float16).astype(np.float32)
    assert tg.same(mine[1], want).all()
    finite = np.isfinite(want)
    assert np.array_equal(mine[1].view(np.uint32)[finite], want.view(np.uint32)[finite])


def _store_inputs(t: str, r) -> np.ndarray:
    dt = np.dtype(tg.DTYPES[t])
    halves = np.arange(0, 0x7c00, 7, dtype=np.uint16).view(np.float16).astype(np.float64)
    nxt = np.nextafter(halves.astype(np.float16), np.float16(np.inf)).astype(np.float64)
    mids = (halves + nxt) / 2                             # exact ties
    near = np.concatenate([mids, np.nextafter(mids, 0), np.nextafter(mids, np.inf)])
    special = [65504.0, 65519.99, 65520.0, 65536.0, 1e9, 2.0 ** -24, 2.0 ** -25,
               3 * 2.0 ** -26, 2.0 ** -14, 2.0 ** -14 - 2.0 ** -25, 6e-8, 1e-30]
    vals = np.concatenate([near, special, tg.random_values(t, 1024, r).astype(np.float64)])
    vals = np.concatenate([vals, -vals])
    with np.errstate(over="ignore"):
        return vals.astype(dt)


@pytest.mark.parametrize("t", ("float", "double"))
def test_vstore_half_all_modes_match_pocl(t, program, pocl):
    x = _store_inputs(t, tg.rng(f"half-{t}"))
    n = len(x)
    outs = [np.full(5 * n * w, 0xFFFF, np.uint16) for w in (1, 2, 3, 4)]
    mine = [x.copy()] + [o.copy() for o in outs]
    ref = [x.copy()] + [o.copy() for o in outs]
    getattr(program, f"store_{t}")((n,), None, *mine)
    run_pocl(SOURCE, f"store_{t}", (n,), None, *ref)
    names = ("vstore_half", "vstore_half2", "vstore_half3", "vstorea_half3")
    for k, name in enumerate(names, 1):
        got, want = mine[k], ref[k]
        if name == "vstorea_half3":
            # whether the padding half after the three is written is implementation-
            # defined (6.12.7): PoCL writes it, cl2c does not
            got, want = got.reshape(-1, 4)[:, :3], want.reshape(-1, 4)[:, :3]
        nan = np.isnan(got.view(np.float16)) & np.isnan(want.view(np.float16))
        bad = np.nonzero((got != want) & ~nan)[0]
        assert not len(bad), (f"{name}: {len(bad)} halves differ, e.g. slot {bad[0]}: "
                              f"cl2c 0x{got[bad[0]]:04x} PoCL 0x{want[bad[0]]:04x}")
    # round to nearest even agrees with NumPy's float16 conversion (from double: one
    # rounding, so not from float for doubles' sake)
    rte = mine[1].reshape(n, 5)[:, 0]
    with np.errstate(over="ignore"):
        want = x.astype(np.float64).astype(np.float16).view(np.uint16)
    ok = np.isnan(x) | (rte == want)
    assert ok.all(), f"vstore_half of {x[~ok][:3]} gives {rte[~ok][:3]}, NumPy {want[~ok][:3]}"


ADDRESSES = """
__kernel void through(__global const float *p, __global half *f, __global half *g) {
    __private ushort data[4];
    size_t i = get_global_id(0);
    vstore_half(p[i], 0, (__private half *)(&data[0]));
    vstore_half(vload_half(0, (__private half *)data), 0, &f[i]);   /* an element's address */
    vstore_half_rtz(vload_half(0, &*(f + i)) * 2.0f, 0, &g[i]);
}
"""


def test_half_element_addresses_match_pocl(pocl):
    """``&f[i]`` and ``&*p`` of a half pointer are addresses, not loads (the CTS's
    vstore_half tests store through them): valid without cl_khr_fp16, bit for bit as
    PoCL."""
    x = np.array([0.0, -1.5, 65519.99, 1e-7, 3.14159, -65520.0, 2.0 ** -24, np.inf],
                 np.float32)
    f, g = np.zeros(len(x), np.uint16), np.zeros(len(x), np.uint16)
    cl2c.Program(ADDRESSES).build().through(len(x), None, x, f, g)
    want_f, want_g = np.zeros_like(f), np.zeros_like(g)
    pocl(ADDRESSES, "through", (len(x),), None, x, want_f, want_g)
    np.testing.assert_array_equal(f, want_f)
    np.testing.assert_array_equal(g, want_g)
