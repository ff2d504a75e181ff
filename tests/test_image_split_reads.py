"""Image reads and writes in a region split along local id 0
(workgroup/builders/splits.py): an access at integer coordinates whose x is the
work-item's x plus or less a uniform value (a stencil's neighbours) needs no addressing
or test of x where x lies inside the image, and the split's middle reads and writes
there without them (images.h's ``_xin`` functions), which makes neighbouring
work-items' pixels one load and their store one that no lane's test masks. Every read
is compared, bit for bit, with the sampler's definition computed in NumPy, and every
write with the pixels it must leave: near the image's left and right edges (where the
work-items before and after the middle clamp x, read the border or write nothing),
with offsets that put every x of a row outside, on groups that cut rows, groups wider
than the image and rows that cl2c groups itself; at the fast tier and at -O3, where the
middle vectorises, for RGBA and BGRA 8-bit images and float ones."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import cl2c

SOURCE = """
const sampler_t edge = CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
const sampler_t border = CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;

kernel void row5(read_only image2d_t src, global float4 *out, int k)
{
    int x = (int)get_global_id(0);
    int y = (int)get_global_id(1);
    if (x >= get_image_width(src) || y >= get_image_height(src))
        return;
    int at = 5 * (y * get_image_width(src) + x);
    out[at] = read_imagef(src, edge, (int2)(x - 2, y));
    out[at + 1] = read_imagef(src, edge, (int2)(x + 1, y - 1));
    out[at + 2] = read_imagef(src, edge, (int2)(x + k, y + 1));
    out[at + 3] = read_imagef(src, border, (int2)(x - 1, y));
    out[at + 4] = read_imagef(src, border, (int2)(x + k, y));
}

kernel void shifted(read_only image2d_t src, write_only image2d_t dst, int k)
{
    int x = (int)get_global_id(0);
    int y = (int)get_global_id(1);
    if (x >= get_image_width(src) || y >= get_image_height(src))
        return;
    write_imagef(dst, (int2)(x + k, y - 1), read_imagef(src, edge, (int2)(x, y)));
}

kernel void line2(read_only image1d_t src, global float4 *out, int k)
{
    int x = (int)get_global_id(0);
    if (x >= get_image_width(src))
        return;
    out[2 * x] = read_imagef(src, edge, x - 1);
    out[2 * x + 1] = read_imagef(src, border, x + k);
}
"""

# (channel order, channel type): each has a twin of the work-group functions
FORMATS = [("RGBA", "UNORM_INT8"), ("BGRA", "UNORM_INT8"), ("RGBA", "FLOAT")]


def _pixels(h, w, kind, seed):
    rng = np.random.default_rng(seed)
    if kind == "UNORM_INT8":
        return rng.integers(0, 256, (h, w, 4), dtype=np.uint8)
    return rng.standard_normal((h, w, 4)).astype(np.float32)


def _values(px, order):
    """The pixels as read_imagef returns them (r, g, b, a): 8-bit ones as c / 255.0f."""
    if order == "BGRA":
        px = px[..., [2, 1, 0, 3]]
    if px.dtype == np.uint8:
        return px.astype(np.float32) / np.float32(255)
    return px


def _edge(f, dy, dx):
    h, w = f.shape[:2]
    ys = np.clip(np.arange(h) + dy, 0, h - 1)
    xs = np.clip(np.arange(w) + dx, 0, w - 1)
    return f[ys][:, xs]


def _border(f, dx):
    w = f.shape[1]
    xs = np.arange(w) + dx
    inside = (xs >= 0) & (xs < w)
    out = np.zeros_like(f)                  # RGBA's border: (0, 0, 0, 0)
    out[:, inside] = f[:, xs[inside]]
    return out


def _expected_2d(px, order, k):
    f = _values(px, order)
    return np.stack([_edge(f, 0, -2), _edge(f, -1, 1), _edge(f, 1, k), _border(f, -1),
                     _border(f, k)], axis=2)


@pytest.fixture(scope="module")
def program():
    return cl2c.Program(SOURCE, filename="split_reads.cl").build("-cl2c-schedule=regions")


def test_the_reads_are_split():
    c = cl2c.translate(SOURCE, "split_reads.cl", "-cl2c-schedule=regions").c_source
    assert "split where comparisons with the local id 0 are known" in c
    # the schedule says how many accesses the split made so (reads and writes)
    assert "row5: regions (" in c and \
        "5 image accesses made in the middle at an x known inside the image" in c
    assert "2 image accesses made in the middle" in c     # shifted's read and write
    assert "cl2c_read_imagef_image2d_s_int2_xin(src, edge," in c
    assert "cl2c_read_imagef_image2d_s_int2_xin(src, border," in c
    assert "cl2c_read_imagef_image1d_s_int_xin(src, edge, x - 1)" in c
    assert "cl2c_write_imagef_image2d_int2_xin(dst," in c
    # the 8-bit twins' middles run in lanes: their copies of the descriptor are for lanes
    for order in ("rgba", "bgra"):
        twin = c[c.index(f"void row5__group_{order}8"):]
        assert f"cl2c_image_{order}_unorm8_lanes(src__any)" in twin[:twin.index("\n}\n")]


def _run_2d(prg, px, order, kind, k, grid, local):
    h, w = px.shape[:2]
    out = np.full((h, w, 5, 4), np.nan, np.float32)
    prg.row5(grid, local, cl2c.Image(px, order, kind), out, np.int32(k))
    return out


CASES = [((37, 6), (48, 8), (16, 4)), ((37, 6), (42, 6), (7, 3)),
         ((37, 6), (37, 6), None), ((5, 4), (16, 4), (16, 2)), ((64, 3), (64, 3), (64, 1)),
         ((2, 2), (2, 2), (1, 1))]


def _check_2d(prg, order, kind, seed):
    for (w, h), grid, local in CASES:
        px = _pixels(h, w, kind, seed + w)
        for k in (0, 3, -3, w + 4, -w - 1):
            got = _run_2d(prg, px, order, kind, k, grid, local)
            want = _expected_2d(px, order, k)
            np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32),
                                          err_msg=f"{kind} {w}x{h} local {local} k {k}")


def _check_writes(prg, order, kind, seed):
    for (w, h), grid, local in CASES:
        px = _pixels(h, w, kind, seed + w)
        for k in (0, 3, -3, w + 4, -w - 1):
            out = np.zeros_like(px)
            dst = cl2c.Image(out, order, kind)
            prg.shifted(grid, local, cl2c.Image(px, order, kind), dst, np.int32(k))
            want = np.zeros_like(px)          # pixel (x, y) lands at (x + k, y - 1)
            xs = np.arange(w) + k
            inside = (xs >= 0) & (xs < w)
            want[:h - 1, xs[inside]] = px[1:, inside]
            np.testing.assert_array_equal(dst.get(), want,
                                          err_msg=f"{kind} {w}x{h} local {local} k {k}")


def _check_1d(prg, order, kind, seed):
    for w, grid, local in ((37, 48, 16), (37, 37, None), (3, 8, 8), (100, 100, 10)):
        px = _pixels(1, w, kind, seed + w)
        f = _values(px, order)
        for k in (0, 2, -1, w):
            out = np.full((w, 2, 4), np.nan, np.float32)
            prg.line2(grid, local, cl2c.Image(px[0], order, kind, "1d"), out, np.int32(k))
            want = np.stack([_edge(f, 0, -1)[0], _border(f, k)[0]], axis=1)
            np.testing.assert_array_equal(out.view(np.uint32), want.view(np.uint32),
                                          err_msg=f"{kind} {w} local {local} k {k}")


@pytest.mark.parametrize("order, kind", FORMATS)
def test_split_reads_as_the_sampler_says(program, order, kind):
    _check_2d(program, order, kind, 1)
    _check_writes(program, order, kind, 5)
    _check_1d(program, order, kind, 2)


@pytest.mark.optimised
@pytest.mark.parametrize("order, kind", FORMATS)
def test_split_reads_vectorised(order, kind):
    prg = cl2c.Program(SOURCE, filename="split_reads.cl").build("-cl2c-schedule=regions")
    _check_2d(prg, order, kind, 3)
    _check_writes(prg, order, kind, 6)
    _check_1d(prg, order, kind, 4)


KINDS = """
const sampler_t edge = CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

kernel void depth2(read_only image2d_depth_t src, write_only image2d_depth_t dst)
{
    int x = (int)get_global_id(0), y = (int)get_global_id(1);
    if (x >= get_image_width(src) || y >= get_image_height(src))
        return;
    write_imagef(dst, (int2)(x, y), read_imagef(src, edge, (int2)(x - 1, y)) -
                                    read_imagef(src, edge, (int2)(x + 2, y)));
}

kernel void layers(read_only image2d_array_t src, global float4 *out)
{
    int x = (int)get_global_id(0), y = (int)get_global_id(1), z = (int)get_global_id(2);
    if (x >= get_image_width(src) || y >= get_image_height(src))
        return;
    int w = get_image_width(src), h = get_image_height(src);
    out[(z * h + y) * w + x] = read_imagef(src, edge, (int4)(x - 1, y, z, 0)) +
                               2.0f * read_imagef(src, edge, (int4)(x + 1, y, z, 0));
}

kernel void volume(read_only image3d_t src, global float4 *out)
{
    int x = (int)get_global_id(0), y = (int)get_global_id(1), z = (int)get_global_id(2);
    if (x >= get_image_width(src) || y >= get_image_height(src))
        return;
    int w = get_image_width(src), h = get_image_height(src);
    out[(z * h + y) * w + x] = read_imagef(src, edge, (int4)(x + 1, y, z, 0)) -
                               read_imagef(src, edge, (int4)(x - 3, y, z, 0));
}
"""


@pytest.mark.parametrize("local", [(8, 2, 1), None])
def test_other_image_kinds_split_as_the_loops_schedule_runs_them(local):
    """Depth images, 2D arrays and 3D images get the split's reads and writes too, and
    read and write what the loops schedule (which does not split) does."""
    rng = np.random.default_rng(9)
    w, h, d = 13, 4, 3
    depth = rng.random((h, w, 1)).astype(np.float32)
    stack = rng.integers(0, 256, (d, h, w, 4), dtype=np.uint8)
    vol = rng.standard_normal((d, h, w, 4)).astype(np.float32)
    got = {}
    for schedule in ("regions", "loops"):
        prg = cl2c.Program(KINDS, filename="kinds.cl").build(
            f"-cl-std=CL2.0 -cl2c-schedule={schedule}")
        if schedule == "regions":
            assert prg.c_source.count("_xin(") >= 5
        dst = cl2c.Image(np.zeros_like(depth), "DEPTH", "FLOAT")
        prg.depth2((16, 4), local and local[:2], cl2c.Image(depth, "DEPTH", "FLOAT"), dst)
        out_l = np.zeros((d, h, w, 4), np.float32)
        prg.layers((16, 4, d), local, cl2c.Image(stack, "RGBA", "UNORM_INT8", "2d_array"),
                   out_l)
        out_v = np.zeros((d, h, w, 4), np.float32)
        prg.volume((16, 4, d), local, cl2c.Image(vol, kind="3d"), out_v)
        got[schedule] = (dst.get(), out_l, out_v)
    for a, b in zip(got["regions"], got["loops"]):
        np.testing.assert_array_equal(a.view(np.uint32), b.view(np.uint32))


def test_a_checking_build_splits_them_too():
    """A checking build's loops schedule is scalar (each work-item notes who runs); an
    image filter's work-item loop has a fast version (its write's coordinates tested
    against the image at the box's corners), so it takes the regions schedule, whose
    split's middle runs in lanes, and writes what the normal build writes. Its writes
    outside the image (y - 1 of the first row, x + k past an edge), which OpenCL C
    leaves undefined, are reported (here collected) and store nothing."""
    c = cl2c.translate(SOURCE, "split_reads.cl", "-cl2c-check").c_source
    assert "shifted: regions (no barriers, but a work-group function vectorises better" in c
    assert "2 image accesses made in the middle" in c
    prg = cl2c.Program(SOURCE, filename="split_reads.cl").build("-cl2c-check=collect")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cl2c.CheckWarning)
        _check_writes(prg, "RGBA", "UNORM_INT8", 7)
    assert prg.shifted.findings
    assert all("out-of-bounds image write: " in f for f in prg.shifted.findings)
