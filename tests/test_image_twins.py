"""The regions schedule's twins of a work-group function for the common image formats
(workgroup/builders/image_twins.py) and the 8-bit paths they take (images.h): a kernel
with a guard on the image's size (the Guide's Sobel) runs its RGBA 8-bit twin, whose
reads divide by 255 in loops that vectorise and whose writes are stores that only the
test of the image's bounds guards. Every read must give c / 255.0f bit for bit, every
write round as write_imagef does, and a write outside the image must store nothing;
at the fast tier and at -O3, where the loops vectorise.
"""
from __future__ import annotations

import numpy as np
import pytest

import cl2c

SOURCE = """
const sampler_t edge = CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

kernel void neighbours(read_only image2d_t src, write_only image2d_t dst,
                       global float4 *got, int shift)
{
    int x = (int)get_global_id(0);
    int y = (int)get_global_id(1);
    if (x >= get_image_width(src) || y >= get_image_height(src))
        return;
    int w = get_image_width(src);
    float4 left = read_imagef(src, edge, (int2)(x - 1, y));
    float4 up = read_imagef(src, edge, (int2)(x, y - 1));
    got[2 * (y * w + x)] = left;
    got[2 * (y * w + x) + 1] = up;
    write_imagef(dst, (int2)(x + shift, y), native_sqrt(left * up) * 1.5f - 0.25f);
}

kernel void counts(read_only image2d_t src, global uint *bins)
{
    int x = (int)get_global_id(0);
    int y = (int)get_global_id(1);
    if (x < get_image_width(src) && y < get_image_height(src)) {
        float4 c = read_imagef(src, edge, (int2)(x, y));
        atomic_inc(&bins[convert_uchar_sat(c.x * 255.0f)]);
    }
}
"""

W, H = 45, 21                  # the grid rounded up to 16 x 8 groups: guards at work


@pytest.fixture(scope="module")
def pixels():
    rng = np.random.default_rng(11)
    px = rng.permutation(np.arange(W * H * 4) % 256).astype(np.uint8)
    return px.reshape(H, W, 4)


def _expected(px, shift):
    f = px.astype(np.float32) / np.float32(255)
    left = np.concatenate([f[:, :1], f[:, :-1]], 1)
    up = np.concatenate([f[:1], f[:-1]], 0)
    with np.errstate(invalid="ignore"):
        value = np.sqrt(left * up) * np.float32(1.5) - np.float32(0.25)
    byte = np.rint(np.clip(value * np.float32(255), 0, 255)).astype(np.uint8)
    out = np.zeros_like(px)
    if shift >= 0:
        out[:, shift:] = byte[:, :W - shift]
    return left, up, out


def _run(px, shift):
    prg = cl2c.Program(SOURCE).build()
    got = np.zeros((H * W * 2, 4), np.float32)
    dst = cl2c.Image(np.zeros_like(px), "RGBA", "UNORM_INT8")
    prg.neighbours((48, 24), (16, 8), cl2c.Image(px, "RGBA", "UNORM_INT8"), dst, got,
                   np.int32(shift))
    return prg, got, dst.get()


def _check(px, shift):
    prg, got, out = _run(px, shift)
    left, up, want = _expected(px, shift)
    np.testing.assert_array_equal(got[0::2].view(np.uint32),
                                  left.reshape(-1, 4).view(np.uint32))
    np.testing.assert_array_equal(got[1::2].view(np.uint32),
                                  up.reshape(-1, 4).view(np.uint32))
    # native_sqrt may differ from NumPy's by its ULPs: a byte apart at most
    assert np.abs(out.astype(int) - want.astype(int)).max() <= 1
    return prg


@pytest.mark.parametrize("shift", [0, 7])
def test_rgba8_twin_reads_and_writes_fast_tier(pixels, shift):
    prg = _check(pixels, shift)
    assert "neighbours__group_rgba8" in prg.c_source


@pytest.mark.optimised
@pytest.mark.parametrize("shift", [0, 7, -3])
def test_rgba8_twin_reads_and_writes_vectorised(pixels, shift):
    """At -O3 the twin's work-item loop vectorises; the writes past the image's right
    edge (shift 7) store nothing, and neither do those before its left (shift -3)."""
    if shift < 0:
        prg, got, out = _run(pixels, shift)
        left, up, _ = _expected(pixels, 0)
        f = np.sqrt(left * up) * np.float32(1.5) - np.float32(0.25)
        byte = np.rint(np.clip(f * np.float32(255), 0, 255)).astype(np.uint8)
        want = np.zeros_like(pixels)
        want[:, :W + shift] = byte[:, -shift:]
        assert np.abs(out.astype(int) - want.astype(int)).max() <= 1
        return
    _check(pixels, shift)


def test_twins_for_lanes_only_where_the_reads_vectorise():
    """The twin of a kernel whose reads are in a vectorised loop reads by division
    (images.h's copy for lanes); the histogram's reads, in a loop of atomics that stays
    scalar, read from the table."""
    c = cl2c.translate(SOURCE).emitted.source
    twin = c[c.index("void neighbours__group_rgba8"):]
    twin = twin[:twin.index("\n}\n")]
    assert "cl2c_image_rgba_unorm8_lanes(src__any)" in twin
    counts = c[c.index("void counts__group_rgba8"):]
    counts = counts[:counts.index("\n}\n")]
    assert "cl2c_image_rgba_unorm8(src__any)" in counts


def test_histogram_twin_counts(pixels):
    prg = cl2c.Program(SOURCE).build()
    bins = np.zeros(256, np.uint32)
    prg.counts((48, 24), (16, 8), cl2c.Image(pixels, "RGBA", "UNORM_INT8"), bins)
    np.testing.assert_array_equal(bins, np.bincount(pixels[..., 0].ravel(), minlength=256))


TOLD = """
const sampler_t border = CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;

kernel void around(read_only image2d_t src, write_only image2d_t dst, global float4 *got)
{
    int x = (int)get_global_id(0);
    int y = (int)get_global_id(1);
    if (x >= get_image_width(src) || y >= get_image_height(src))
        return;
    int i = 3 * (y * get_image_width(src) + x);
    float4 here = read_imagef(src, (int2)(x, y));
    got[i] = read_imagef(src, border, (int2)(x - 1, y));
    got[i + 1] = read_imagef(src, border, (float2)(x + 1, y));   /* ints, as floats */
    got[i + 2] = here;
    write_imagef(dst, (int2)(x, y), here * 0.5f + 0.25f);
}
"""
FORMATS = {"RGBA float": ("RGBA", "FLOAT", np.float32, None),
           "RGBA 8-bit": ("RGBA", "UNORM_INT8", np.uint8, "rgba8"),
           "BGRA 8-bit": ("BGRA", "UNORM_INT8", np.uint8, "bgra8")}


@pytest.mark.parametrize("optimised", [False, pytest.param(True, marks=pytest.mark.optimised)],
                         ids=["fast tier", "-O3"])
@pytest.mark.parametrize("fmt", list(FORMATS))
def test_twins_told_their_format(pixels, fmt, optimised):
    """Each 8-bit twin tells its reads and writes its format (images.h's ..._as forms;
    the float twin does not, image_twins.py says why): the samplerless read, reads of
    the border colour (transparent black) past the image's sides at int coordinates
    and at ints given as floats, and the writes, for each of the twins' formats, at
    both tiers."""
    order, kind, dtype, suffix = FORMATS[fmt]
    prg = cl2c.Program(TOLD).build()
    if optimised:
        prg.wait_optimised()
    if suffix:
        twin = prg.c_source[prg.c_source.index(f"void around__group_{suffix}"):]
        twin = twin[:twin.index("\n}\n")]
        assert "_int2_as(src, border" in twin and "_from_int2_as(src, border" in twin
    stored = (pixels if dtype is np.uint8
              else pixels.astype(np.float32) / np.float32(7.0)).astype(dtype)
    got = np.zeros((H * W * 3, 4), np.float32)
    dst = cl2c.Image(np.zeros_like(stored), order, kind)
    prg.around((48, 24), (16, 8), cl2c.Image(stored, order, kind), dst, got)

    rgba = stored[..., [2, 1, 0, 3]] if order == "BGRA" else stored
    here = rgba.astype(np.float32) / np.float32(255 if dtype is np.uint8 else 1)
    zero = np.zeros_like(here[:, :1])
    left = np.concatenate([zero, here[:, :-1]], 1)
    right = np.concatenate([here[:, 1:], zero], 1)
    for k, want in enumerate((left, right, here)):
        np.testing.assert_array_equal(got[k::3].view(np.uint32),
                                      want.reshape(-1, 4).view(np.uint32), err_msg=str(k))
    value = here * np.float32(0.5) + np.float32(0.25)
    out = dst.get()
    if dtype is np.uint8:
        byte = np.rint(np.clip(value * np.float32(255), 0, 255)).astype(np.uint8)
        want = byte[..., [2, 1, 0, 3]] if order == "BGRA" else byte
        assert np.abs(out.astype(int) - want.astype(int)).max() <= 1
    else:
        np.testing.assert_array_equal(out, value)


def test_an_8_bit_channel_times_255_is_its_byte():
    """The premise of the twins' conversions of c.x * 255.0f (image_twins.py): an 8-bit
    unorm channel reads as k / 255.0f correctly rounded, and that times 255.0f rounds to
    k exactly, for each of the 256 bytes."""
    k = np.arange(256, dtype=np.float32)
    np.testing.assert_array_equal((k / np.float32(255)) * np.float32(255), k)


BYTES_BACK = """
const sampler_t edge = CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

kernel void back(read_only image2d_t src, global int *out)
{
    int x = (int)get_global_id(0);
    int y = (int)get_global_id(1);
    int w = get_image_width(src);
    if (x < w && y < get_image_height(src)) {
        float4 c = read_imagef(src, edge, (int2)(x, y));
        float4 b = read_imagef(src, (int2)(x, y));
        float4 n = read_imagef(src, CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST,
                               (float2)(x - 1, y));          /* the border at x = 0 */
        float4 l = read_imagef(src, CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR,
                               (float2)(x + 0.75f, y + 0.5f));
        float4 d = read_imagef(src, edge, (int2)(x, y));
        d.y = 0.999f;
        int i = 10 * (y * w + x);
        out[i] = convert_uchar_sat(c.x * 255.0f);
        out[i + 1] = convert_uint(c.y * 255.0f);
        out[i + 2] = convert_ushort_sat_rte(255.0f * c.z);
        out[i + 3] = convert_int_rtn(c.w * 255.0f);
        out[i + 4] = convert_uchar_sat_rtp(b.x * 255.0f);
        out[i + 5] = convert_uchar(n.x * 255.0f);
        out[i + 6] = convert_uchar_sat_rte(l.x * 255.0f);     /* a mix: as written */
        out[i + 7] = convert_char_sat(c.z * 255.0f);          /* 127 at most: as written */
        out[i + 8] = convert_uchar_sat_rte(d.y * 255.0f);     /* changed: as written */
        out[i + 9] = convert_uchar_sat_rte(d.x * 255.0f);
    }
}
"""


@pytest.mark.parametrize("optimised", [False, pytest.param(True, marks=pytest.mark.optimised)],
                         ids=["fast tier", "-O3"])
def test_8_bit_twins_convert_channels_back_to_their_bytes(pixels, optimised):
    """The 8-bit twins convert a nearest read's channel times 255.0f with C's own
    conversion (no clamps): the same values as the float image's twin, which converts
    as written, for RGBA and BGRA, every byte, at both tiers; a linearly filtered read,
    a conversion to char and a changed variable keep the conversion as written."""
    prg = cl2c.Program(BYTES_BACK).build()
    if optimised:
        prg.wait_optimised()
    assert "6 conversions of an 8-bit channel times 255 to its byte" in \
        prg.back.schedule_reason
    for suffix in ("rgba8", "bgra8"):
        twin = prg.c_source[prg.c_source.index(f"void back__group_{suffix}"):]
        twin = twin[:twin.index("\n}\n")]
        stores = [line.strip() for line in twin.splitlines() if "out[i" in line]
        assert stores and len(stores) % 10 == 0
        for k, store in enumerate(stores):
            assert ("cl2c_convert_" in store) == (k % 10 >= 6), store
    rgba = pixels.astype(np.float32) / np.float32(255)
    results = {}
    for order, kind, stored in (("RGBA", "FLOAT", rgba), ("RGBA", "UNORM_INT8", pixels),
                                ("BGRA", "UNORM_INT8", pixels[..., [2, 1, 0, 3]].copy())):
        out = np.full(W * H * 10, -1, np.int32)
        prg.back((48, 24), (16, 8), cl2c.Image(stored, order, kind), out)
        results[(order, kind)] = out.reshape(H, W, 10)
    floats = results[("RGBA", "FLOAT")]
    for key in (("RGBA", "UNORM_INT8"), ("BGRA", "UNORM_INT8")):
        np.testing.assert_array_equal(results[key], floats, err_msg=str(key))
    np.testing.assert_array_equal(floats[..., :4], pixels)
    np.testing.assert_array_equal(floats[..., 4], pixels[..., 0])
    np.testing.assert_array_equal(floats[:, 1:, 5], pixels[:, :-1, 0])
    np.testing.assert_array_equal(floats[:, 0, 5], 0)
    np.testing.assert_array_equal(floats[..., 7], np.minimum(pixels[..., 2], 127))
    np.testing.assert_array_equal(floats[..., 8], 255)
