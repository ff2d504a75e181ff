"""read_imagef at float coordinates made of ints (``(float2)(x, y)`` of int x and y, as
the OpenCL Programming Guide's histogram reads): lowering passes the ints
(``int_coordinates`` in lower/calls.py) and images.h reads the texel they address where
the sampler takes integer coordinates as they are, else converts them and takes the
float path. Each read is compared bit for bit with the same read through float
variables, which take the float path always: for every sampler (normalized or not,
every addressing and filter mode), coordinates inside, outside and past 2^24 (where a
float no longer holds every int), ints and narrower types, and every image kind that
reads with float coordinates."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import cl2c

SOURCE = """
kernel void twice2(read_only image2d_t img, sampler_t s, global const int2 *xy,
                   global float4 *out)
{
    int i = get_global_id(0);
    int x = xy[i].x, y = xy[i].y;
    float fx = x, fy = y;
    out[2 * i] = read_imagef(img, s, (float2)(x, y));
    out[2 * i + 1] = read_imagef(img, s, (float2)(fx, fy));
}

kernel void narrow2(read_only image2d_t img, sampler_t s, global const int2 *xy,
                    global float4 *out)
{
    int i = get_global_id(0);
    short x = (short)xy[i].x;
    uchar y = (uchar)xy[i].y;
    float fx = x, fy = y;
    out[2 * i] = read_imagef(img, s, (float2)(x, y));
    out[2 * i + 1] = read_imagef(img, s, (float2)(fx, fy));
}

kernel void wide2(read_only image2d_t img, sampler_t s, global const int2 *xy,
                  global float4 *out)
{
    int i = get_global_id(0);
    uint x = (uint)xy[i].x;                 /* past INT_MAX where negative: no int holds it */
    int y = xy[i].y;
    float fx = x, fy = y;
    out[2 * i] = read_imagef(img, s, (float2)(x, y));
    out[2 * i + 1] = read_imagef(img, s, (float2)(fx, fy));
}

kernel void twice1(read_only image1d_t img, sampler_t s, global const int2 *xy,
                   global float4 *out)
{
    int i = get_global_id(0);
    int x = xy[i].x;
    float fx = x;
    out[2 * i] = read_imagef(img, s, (float)x);
    out[2 * i + 1] = read_imagef(img, s, fx);
}

kernel void twice3(read_only image3d_t img, sampler_t s, global const int2 *xy,
                   global float4 *out)
{
    int i = get_global_id(0);
    int x = xy[i].x, y = xy[i].y, z = (x + y) % 5;
    float fx = x, fy = y, fz = z;
    out[2 * i] = read_imagef(img, s, (float4)(x, y, z, 0));
    out[2 * i + 1] = read_imagef(img, s, (float4)(fx, fy, fz, 0.0f));
}

kernel void twice_array(read_only image2d_array_t img, sampler_t s, global const int2 *xy,
                        global float4 *out)
{
    int i = get_global_id(0);
    int x = xy[i].x, y = xy[i].y, l = y - x;
    float fx = x, fy = y, fl = l;
    out[2 * i] = read_imagef(img, s, (float4)(x, y, l, 0));
    out[2 * i + 1] = read_imagef(img, s, (float4)(fx, fy, fl, 0.0f));
}

kernel void twice_depth(read_only image2d_depth_t img, sampler_t s, global const int2 *xy,
                        global float *out)
{
    int i = get_global_id(0);
    int x = xy[i].x, y = xy[i].y;
    float fx = x, fy = y;
    out[2 * i] = read_imagef(img, s, (float2)(x, y));
    out[2 * i + 1] = read_imagef(img, s, (float2)(fx, fy));
}
"""

SAMPLERS = [(normalized, addressing, filtering)
            for normalized, addressing, filtering in itertools.product(
                (False, True), ("NONE", "CLAMP_TO_EDGE", "CLAMP", "REPEAT", "MIRRORED_REPEAT"),
                ("NEAREST", "LINEAR"))
            if normalized or addressing not in ("REPEAT", "MIRRORED_REPEAT")]

W, H = 7, 5


def _coordinates(inside_only: bool) -> np.ndarray:
    """Coordinates inside the image and, unless ``inside_only`` (addressing NONE, which
    leaves the rest undefined), around and far outside it, past 2^24 too."""
    near = [(x, y) for x in range(-2, W + 2) for y in range(-2, H + 2)]
    if inside_only:
        near = [(x, y) for x, y in near if 0 <= x < W and 0 <= y < H]
        return np.array(near, np.int32)
    far = [(1 << 24) + 1, (1 << 24) - 1, 1 << 24, -(1 << 24) - 3, 2 ** 31 - 1, -2 ** 31,
           123456789, -99999999]
    extra = [(v, 1) for v in far] + [(2, v) for v in far] + [(v, v) for v in far]
    return np.array(near + extra, np.int32)


@pytest.fixture(scope="module")
def program():
    return cl2c.Program(SOURCE, filename="int_coordinates.cl").build("-cl-std=CL2.0")


def test_the_reads_pass_ints():
    c = cl2c.translate(SOURCE, "int_coordinates.cl", "-cl-std=CL2.0").c_source
    assert "cl2c_read_imagef_image2d_s_float2_from_int2(img, s, (cl2c_int2){{x, y}})" in c
    assert "cl2c_read_imagef_image1d_s_float_from_int(img, s, x)" in c
    assert "cl2c_read_imagef_image3d_s_float4_from_int4(img, s, " in c
    assert "_from_int2(img, s, (cl2c_int2){{(int) x, (int) y}})" in c      # short, uchar
    # float variables keep the float path, and so do uint ones
    assert "cl2c_read_imagef_image2d_s_float2(img, s, (cl2c_float2){{fx, fy}})" in c
    wide = c[c.index("void wide2("):]
    assert "_from_" not in wide[:wide.index("\n}\n")]


def _images(rng):
    px = rng.integers(0, 256, (H, W, 4), dtype=np.uint8)
    return {"twice2": cl2c.Image(px, "RGBA", "UNORM_INT8"),
            "narrow2": cl2c.Image(rng.standard_normal((H, W, 4)).astype(np.float32)),
            "wide2": cl2c.Image(px, "RGBA", "UNORM_INT8"),
            "twice1": cl2c.Image(px[0], "RGBA", "UNORM_INT8", "1d"),
            "twice3": cl2c.Image(rng.standard_normal((5, H, W, 4)).astype(np.float32),
                                 kind="3d"),
            "twice_array": cl2c.Image(rng.integers(0, 256, (3, H, W, 4), dtype=np.uint8),
                                      "RGBA", "UNORM_INT8", "2d_array"),
            "twice_depth": cl2c.Image(rng.random((H, W, 1)).astype(np.float32), "DEPTH",
                                      "FLOAT")}


@pytest.mark.parametrize("sampler", SAMPLERS, ids=lambda s: "-".join(map(str, s)))
def test_int_coordinates_read_as_floats(program, sampler):
    rng = np.random.default_rng(7)
    xy = _coordinates(sampler[1] == "NONE")
    for name, img in _images(rng).items():
        depth = name == "twice_depth"
        out = np.full((len(xy), 2) if depth else (len(xy), 2, 4), np.nan, np.float32)
        getattr(program, name)(len(xy), None, img, cl2c.Sampler(*sampler), xy, out)
        np.testing.assert_array_equal(out[:, 0].view(np.uint32), out[:, 1].view(np.uint32),
                                      err_msg=f"{name} {sampler}")
