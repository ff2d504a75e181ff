"""Checking builds report an image access whose coordinates the spec leaves undefined
outside the image (6.12.14.3, 6.12.14.4): every write, and a read without a sampler
(which reads as CLK_ADDRESS_NONE does) or through a constant sampler of CLK_ADDRESS_NONE.
A read through another sampler is defined everywhere (clamped, or the border colour)
and is not reported. A work-item loop whose
coordinates a test before it bounds by the image's extents runs its fast version: the
Guide's Sobel checked is as fast as its normal build (bench/check_cost.py)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cl2c
from check_helpers import build, finding

SRC = """
__kernel void fill(write_only image2d_t dst) {
    const int x = get_global_id(0), y = get_global_id(1);
    write_imagef(dst, (int2)(x, y), (float4)(x, y, 0.0f, 1.0f));
}
__kernel void shifted(write_only image2d_t dst) {
    const int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(dst, p + (int2)(1, 0), (float4)(1.0f));
}
__kernel void at(write_only image2d_t dst, const int2 p) {
    write_imagef(dst, p, (float4)(2.0f));
}
__kernel void copy(read_only image2d_t src, __global float *out) {
    const int x = get_global_id(0), y = get_global_id(1);
    out[y * get_global_size(0) + x] = read_imagef(src, (int2)(x, y)).x;
}
__kernel void sampled(read_only image2d_t src, __global float *out) {
    const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                        CLK_FILTER_NEAREST;
    const int x = get_global_id(0), y = get_global_id(1);
    out[y * get_global_size(0) + x] = read_imagef(src, s, (int2)(x, y)).x;
}
const sampler_t nowhere = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE |
                         CLK_FILTER_NEAREST;
__kernel void unaddressed(read_only image2d_t src, __global float *out) {
    const int x = get_global_id(0), y = get_global_id(1);
    out[y * get_global_size(0) + x] = read_imagef(src, nowhere, (int2)(x, y)).x +
        read_imagef(src, CLK_ADDRESS_NONE | CLK_FILTER_NEAREST, (int2)(x, 0)).y;
}
__kernel void line(write_only image1d_t dst) {
    write_imagef(dst, (int)get_global_id(0), (float4)(3.0f));
}
__kernel void layers(write_only image1d_array_t dst) {
    write_imagef(dst, (int2)(get_global_id(0), get_global_id(1)), (float4)(4.0f));
}
__kernel void planes(write_only image2d_array_t dst, const int layer) {
    write_imagef(dst, (int4)(get_global_id(0), get_global_id(1), layer, 0), (float4)(5.0f));
}
__kernel void volume(write_only image3d_t dst, const int z) {
    write_imagef(dst, (int4)(get_global_id(0), get_global_id(1), z, 0), (float4)(6.0f));
}
"""


@pytest.fixture(scope="module")
def prg():
    return build(SRC, name="images.cl")


def _image(*shape, kind="2d"):
    return cl2c.Image(np.zeros((*shape, 4), np.float32), kind=kind)


def test_writes_inside_the_image_are_not_reported(prg):
    img = _image(8, 16)
    prg.fill((16, 8), None, img)
    got = img.get()
    assert (got[..., 0] == np.arange(16)).all() and (got[..., 1].T == np.arange(8)).all()
    prg.shifted((15, 8), None, img)
    prg.line((16,), None, _image(16, kind="1d"))
    prg.layers((16, 3), None, _image(3, 16, kind="1d_array"))
    prg.planes((16, 8), None, _image(2, 8, 16, kind="2d_array"), np.int32(1))
    prg.volume((16, 8), None, _image(4, 8, 16, kind="3d"), np.int32(3))


@pytest.mark.parametrize("kernel, grid, image, args, axis, value", [
    ("fill", (16, 16), (8, 16), (), "y", 8),            # a grid rounded up, no guard
    ("fill", (24, 8), (8, 16), (), "x", 16),
    ("shifted", (16, 8), (8, 16), (), "x", 16),         # an expression of a variable
])
def test_a_write_outside_the_image_is_reported(prg, kernel, grid, image, args, axis, value):
    msg = finding(getattr(prg, kernel), grid, None, _image(*image), *args)
    assert f"out-of-bounds image write: {axis} = {value} is outside image 'dst'" in msg


def test_a_write_at_a_negative_coordinate_is_reported(prg):
    msg = finding(prg.at, (1,), None, _image(8, 16), np.array([3, -1], np.int32))
    assert "out-of-bounds image write: y = -1" in msg


def test_each_image_type_names_its_axis(prg):
    msg = finding(prg.line, (17,), None, _image(16, kind="1d"))
    assert "x = 16 is outside image 'dst' (pixels 0 to 15)" in msg
    msg = finding(prg.layers, (16, 4), None, _image(3, 16, kind="1d_array"))
    assert "layer = 3 is outside image 'dst' (layers 0 to 2)" in msg
    msg = finding(prg.planes, (16, 8), None, _image(2, 8, 16, kind="2d_array"),
                  np.int32(2))
    assert "layer = 2" in msg
    msg = finding(prg.volume, (16, 8), None, _image(4, 8, 16, kind="3d"), np.int32(4))
    assert "z = 4 is outside image 'dst' (pixels 0 to 3)" in msg


def test_a_read_without_a_sampler_outside_is_reported_one_with_a_sampler_is_not(prg):
    src = cl2c.Image(np.random.default_rng(3).random((8, 16, 4), np.float32))
    msg = finding(prg.copy, (17, 8), None, src, np.zeros(17 * 8, np.float32))
    assert "out-of-bounds image read: x = 16 is outside image 'src'" in msg
    out = np.zeros(17 * 8, np.float32)
    prg.sampled((17, 8), None, src, out)
    expect = src.get()[..., 0][:, np.minimum(np.arange(17), 15)]
    assert np.array_equal(out.reshape(8, 17), expect)


def test_a_read_through_a_sampler_that_addresses_nothing_outside_is_reported(prg):
    """CLK_ADDRESS_NONE: the programmer guarantees the coordinates lie inside the image
    (spec 6.12.14.1), a program-scope sampler's or a literal's."""
    src = cl2c.Image(np.random.default_rng(4).random((8, 16, 4), np.float32))
    out = np.zeros(16 * 8, np.float32)
    prg.unaddressed((16, 8), None, src, out)
    pix = src.get()
    assert np.array_equal(out.reshape(8, 16), pix[..., 0] + pix[0, :, 1])
    msg = finding(prg.unaddressed, (16, 9), None, src, np.zeros(16 * 9, np.float32))
    assert "out-of-bounds image read: y = 8 is outside image 'src'" in msg


def test_the_sobel_checked_runs_its_fast_version_and_agrees():
    """The Guide's Sobel (as printed) finds nothing, gives the normal build's pixels, and
    its work-item loop has a fast version whose test bounds the write by the image."""
    source = (Path(__file__).resolve().parents[1] / "bench" / "kernels" / "gpu" /
              "guide_sobel.cl").read_text()
    checked, normal = build(source), cl2c.Program(source).build()
    reason = checked.sobel_rgb.schedule_reason
    assert "1 checked loop with a fast version" in reason
    assert "9 image accesses made in the middle" in reason
    pic = np.random.default_rng(5).integers(0, 256, (37, 53, 4), dtype=np.uint8)
    outs = []
    for prg in (checked, normal):
        dst = cl2c.Image(np.zeros_like(pic), "RGBA", "UNORM_INT8")
        prg.sobel_rgb((64, 48), (16, 16), cl2c.Image(pic, "RGBA", "UNORM_INT8"), dst)
        outs.append(dst.get())
    assert np.array_equal(outs[0], outs[1])
