"""__local counters that a region only adds to are counted in copies (workgroup/passes/counters.py):
the results are NumPy's, and the pass leaves alone what it must not change."""
from __future__ import annotations

import numpy as np
import pytest

import cl2c

HISTOGRAM = """
__kernel void histogram(__global const uchar *data, int n, __global uint *bins)
{
    __local uint local_bins[256];
    int lid = get_local_id(0);
    for (int b = lid; b < 256; b += get_local_size(0))
        local_bins[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&local_bins[data[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int b = lid; b < 256; b += get_local_size(0))
        atomic_add(&bins[b], local_bins[b]);
}"""

SIGNED = """
__kernel void k(__global const int *v, int n, __global int *out)
{
    __local int acc[16];
    int lid = get_local_id(0);
    if (lid < 16) acc[lid] = 1000 * lid;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
        int b = v[i] & 15;
        if (v[i] & 16) atomic_sub(&acc[b], v[i] >> 5); else atomic_add(&acc[b], v[i] >> 5);
        if (v[i] & 32) atomic_dec(&acc[(b + 1) & 15]); else atomic_inc(&acc[(b + 3) & 15]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 16) out[get_group_id(0) * 16 + lid] = acc[lid];
}"""


def _split(src: str, options: str = "") -> bool:
    return "__copies" in cl2c.translate(src, options=options).c_source


@pytest.mark.parametrize("lsize", [64, 256])
def test_histogram_counts_what_numpy_counts(lsize):
    rng = np.random.default_rng(1)
    data = rng.integers(0, 256, 100_003, dtype=np.uint8)
    data[:5000] = 7                          # one bin again and again
    bins = np.zeros(256, np.uint32)
    prg = cl2c.Program(HISTOGRAM).build()
    prg.histogram((lsize * 13,), (lsize,), data, np.int32(data.size), bins)
    assert (bins == np.bincount(data, minlength=256)).all()
    assert _split(HISTOGRAM)


def test_signed_updates_in_every_direction():
    rng = np.random.default_rng(2)
    v = rng.integers(-2**31, 2**31 - 1, 20_000, dtype=np.int64).astype(np.int32)
    groups, lsize = 5, 32
    out = np.zeros(groups * 16, np.int32)
    cl2c.Program(SIGNED).build().k((groups * lsize,), (lsize,), v, np.int32(v.size), out)
    expect = np.tile(np.arange(16, dtype=np.int64) * 1000, (groups, 1))
    gsize = groups * lsize
    for i, x in enumerate(v.astype(np.int64)):
        g, b = (i % gsize) // lsize, x & 15
        expect[g, b] += -(x >> 5) if x & 16 else x >> 5
        if x & 32:
            expect[g, (b + 1) & 15] -= 1
        else:
            expect[g, (b + 3) & 15] += 1
    expect = ((expect + 2**31) % 2**32 - 2**31).astype(np.int32)   # the updates wrap
    assert (out.reshape(groups, 16) == expect).all()
    assert _split(SIGNED)


@pytest.mark.parametrize("change", [
    # the old value used
    ("atomic_inc(&local_bins[data[i]]);", "bins[0] += atomic_inc(&local_bins[data[i]]);"),
    # a read of the array in the same statement
    ("atomic_inc(&local_bins[data[i]]);",
     "{ atomic_inc(&local_bins[data[i]]); if (local_bins[0] > 1u << 30) bins[1] = 0; }"),
    # a pointer to the array escapes
    ("local_bins[b] = 0;", "{ local_bins[b] = 0; __local uint *p = local_bins; p[0] = 0; }"),
    # an update each work-item makes once (no loop): copies would not pay
    ("for (int i = get_global_id(0); i < n; i += get_global_size(0))",
     "int i = get_global_id(0); if (i < n)"),
    # other operations than additions
    ("atomic_inc(&local_bins[data[i]]);", "atomic_max(&local_bins[data[i]], 1u);"),
])
def test_left_alone(change):
    src = HISTOGRAM.replace(*change)
    assert src != HISTOGRAM
    assert not _split(src)


def test_checking_builds_keep_the_kernels_accesses():
    assert not _split(HISTOGRAM, "-cl2c-check")
