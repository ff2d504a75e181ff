"""Fast versions of checked loops (workgroup/passes/check_versions.py) in three shapes
that GPU kernels write, each held to what the checked loop finds:

- a store under a guard, ``if (tid < j) t[indx + tid] = 0`` (the Programming Guide's
  histogram clears and copies out its tile so): fast where the comparison holds all
  over the box, checked where it does not;
- ``acc[lid] += x`` in a loop with no barrier (the Guide's sum of partial histograms):
  words the same work-item wrote in this phase;
- the loops of a kernel whose atomics are in another region: they have fast versions,
  and the normal build stays as it was."""
from __future__ import annotations

import re
import warnings
from pathlib import Path

import numpy as np
import pytest

import cl2c
from check_helpers import build, finding

BENCH = Path(__file__).resolve().parent.parent / "bench" / "kernels" / "gpu"


def collected(kernel, gsize, lsize, *args) -> list[str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cl2c.CheckWarning)
        kernel(gsize, lsize, *args)
    return kernel.findings


def versions(prg, kernel: str) -> int:
    """How many of ``kernel``'s checked loops have a fast version (its schedule's
    comment in the generated C)."""
    line = next(ln for ln in prg.c_source.splitlines() if f" *   {kernel}: " in ln)
    m = re.search(r"(\d+) checked loops? with a fast version", line)
    return int(m.group(1)) if m else 0


GUARDED = r"""
__kernel void k(__global int *out, int j, int extra) {
    __local int t[64];
    int tid = get_local_id(1) * get_local_size(0) + get_local_id(0);
    if (tid < j)
        t[tid + extra] = tid * 3;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (tid < j)
        out[get_group_id(0) * 64 + tid] = t[tid];
}
"""


def test_guarded_stores_have_fast_versions_and_compute_the_same():
    prg = build(GUARDED, "-cl2c-check=collect")
    assert versions(prg, "k") == 2
    for j in (64, 40):          # all of the box, then part of it (the checked loops)
        out = np.full(128, -1, np.int32)
        assert collected(prg.k, (16, 8), (8, 8), out, np.int32(j), np.int32(0)) == []
        want = np.full(128, -1, np.int32)
        for g in range(2):
            want[g * 64:g * 64 + j] = np.arange(j) * 3
        np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("j", [64, 60])
def test_a_guarded_store_out_of_bounds_is_found(j):
    # tid + 1 reaches t[64] from the last work-item the guard lets through
    msg = finding(build(GUARDED).k, (8, 8), (8, 8), np.zeros(64, np.int32), np.int32(j),
                  np.int32(1))
    assert f"array index 64 out of bounds of an array of 64 elements" in msg or \
        j < 64, msg
    if j == 64:
        assert "work-item (7,7,0)" in msg, msg


def test_a_guard_of_an_unsigned_comparison_keeps_the_checked_loop():
    # (unsigned) tid < j: a difference as long long would not order them as C does
    src = GUARDED.replace("if (tid < j)\n        t[", "if ((uint)tid < (uint)j)\n        t[")
    prg = build(src, "-cl2c-check=collect")
    assert versions(prg, "k") == 1
    out = np.zeros(64, np.int32)
    assert collected(prg.k, (8, 8), (8, 8), out, np.int32(64), np.int32(0)) == []
    np.testing.assert_array_equal(out, np.arange(64) * 3)


UPDATES = r"""
__kernel void sum(__global const uint *parts, int n, __global uint *out) {
    int tid = get_global_id(0);
    __local uint acc[256];
    acc[FIRST] = parts[tid];
    for (int g = 1; g < n; ++g)
        acc[tid] += parts[g * 256 + tid];
    out[tid] = acc[tid];
}
"""


def test_updates_of_a_work_items_own_words_run_fast():
    prg = build(UPDATES.replace("FIRST", "tid"), "-cl2c-check=collect")
    assert versions(prg, "sum") == 3
    parts = np.random.default_rng(4).integers(0, 1000, 40 * 256, dtype=np.uint32)
    out = np.zeros(256, np.uint32)
    assert collected(prg.sum, (256,), (256,), parts, np.int32(40), out) == []
    np.testing.assert_array_equal(out, parts.reshape(40, 256).sum(axis=0))


def test_an_update_of_a_word_another_work_item_wrote_is_a_race():
    # work-item 255 - tid wrote acc[tid] in this phase: the update races with it
    prg = build(UPDATES.replace("FIRST", "255 - tid"))
    assert versions(prg, "sum") == 3
    msg = finding(prg.sum, (256,), (256,), np.ones(2 * 256, np.uint32), np.int32(2),
                  np.zeros(256, np.uint32))
    assert re.search(r"data race: \w+ of __local 'acc' at offset 0, which work-item "
                     r"\(local linear id 255\) wrote", msg), msg


def test_the_guides_histogram_checks_its_tiles_in_fast_versions():
    """The Guide's RGB histogram (bench/, as printed): the clearing and copying out of
    its tile run in fast versions, and so does the pixel loop, whose atomics (at indices
    their uchar operands keep in bounds) need only that the group cleared every counter;
    nothing is found, the histogram is NumPy's, and the normal build's loops stay
    scalar."""
    src = (BENCH / "guide_histogram.cl").read_text()
    checked = build(src, "-cl2c-check=collect")
    partial, total = "histogram_partial_image_rgba_unorm8", \
        "histogram_sum_partial_results_unorm8"
    assert versions(checked, partial) == 4
    assert versions(checked, total) == 3
    normal = build(src, "")
    assert "omp simd" not in normal.c_source.split(f"{partial}__group")[1].split(
        f"{total}__group")[0]
    w, h = 40, 24
    pic = np.random.default_rng(8).integers(0, 256, (h, w, 4), dtype=np.uint8)
    img = cl2c.Image(pic, "RGBA", "UNORM_INT8")
    groups = (w // 8) * (h // 8)
    for prg in (checked, normal):
        part = np.zeros(groups * 768, np.uint32)
        out = np.zeros(768, np.uint32)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", cl2c.CheckWarning)
            getattr(prg, partial)((w, h), (8, 8), img, part)
            getattr(prg, total)((768,), (256,), part, np.int32(groups), out)
        assert prg is normal or getattr(prg, partial).findings == []
        want = np.concatenate([np.bincount(pic[..., c].ravel(), minlength=256)
                               for c in range(3)])
        np.testing.assert_array_equal(out, want)


PAIRS = r"""
__kernel void k(__global const float *a, __global float *out, int n, int gap) {
    __local float t[130];
    int lid = get_local_id(0);
    t[2 * lid] = a[lid];
    if (lid < n)
        t[2 * lid + gap] = -a[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[lid] = t[2 * lid] + 2.0f * t[2 * lid + 1];
}
"""


def test_two_stores_whose_elements_interleave_run_fast():
    # t[2 * lid] and t[2 * lid + 1]: spans that overlap, elements that never meet
    prg = build(PAIRS, "-cl2c-check=collect")
    assert versions(prg, "k") == 2
    a = np.arange(64, dtype=np.float32)
    out = np.zeros(64, np.float32)
    assert collected(prg.k, (64,), (64,), a, out, np.int32(64), np.int32(1)) == []
    np.testing.assert_array_equal(out, -a)


def test_two_stores_that_meet_are_a_race():
    # t[2 * lid + 2] is the next work-item's t[2 * lid]
    msg = finding(build(PAIRS).k, (64,), (64,), np.ones(64, np.float32),
                  np.zeros(64, np.float32), np.int32(64), np.int32(2))
    assert re.search(r"data race: write of __local 't' at offset \d+, which work-item "
                     r"\(local linear id \d+\) wrote", msg), msg


NEVER = r"""
__kernel void k(__global float *out, int never) {
    __local float t[128];
    int tid = get_local_id(1) * get_local_size(0) + get_local_id(0);
    t[tid] = 1.0f;
    if (tid == never)
        t[64 + tid] = 2.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[tid] = t[tid] + t[64 + tid];
}
"""


def test_a_guard_false_all_over_the_box_leaves_no_mark():
    """``if (tid == never)`` (tid the linear local id of an 8x8 group, which no split
    of the region takes apart) holds for no work-item: the fast version runs, and must
    not mark t[64 + tid] written; the read of it is found."""
    prg = build(NEVER)
    assert "cl2c_ck_box_guard(" in prg.c_source and versions(prg, "k") == 2
    msg = finding(prg.k, (8, 8), (8, 8), np.zeros(64, np.float32), np.int32(1000))
    assert "read of uninitialized __local memory: 't' at offset 256" in msg, msg
    out = np.zeros(64, np.float32)      # where it holds for one: the checked loop
    found = collected(build(NEVER, "-cl2c-check=collect").k, (8, 8), (8, 8), out,
                      np.int32(3))
    assert found and all("uninitialized" in f for f in found), found
