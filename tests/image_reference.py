"""A NumPy reference of image reads and writes, by the letter of the OpenCL C spec's
chapter 3 (addressing and filtering, the conversion rules) and section 6.12.14: for the
formats PoCL does not have (tests/test_images.py), and to hold both to the spec.

Coordinates arithmetic is float32's, as a device's; filtering sums in float32 in the
spec's order of terms. Images are arrays channels last, as cl2c.Image takes them."""
from __future__ import annotations

import numpy as np

from cl2c import images as im

F = np.float32
# where a read's r, g, b, a come from among the stored channels (4: 0, 5: 1)
READ_MAP = {"R": (0, 4, 4, 5), "A": (4, 4, 4, 0), "RG": (0, 1, 4, 5), "RA": (0, 4, 4, 1),
            "RGB": (0, 1, 2, 5), "RGBA": (0, 1, 2, 3), "BGRA": (2, 1, 0, 3),
            "ARGB": (1, 2, 3, 0), "ABGR": (3, 2, 1, 0), "INTENSITY": (0, 0, 0, 0),
            "LUMINANCE": (0, 0, 0, 5), "Rx": (0, 4, 4, 5), "RGx": (0, 1, 4, 5),
            "RGBx": (0, 1, 2, 5), "DEPTH": (0, 4, 4, 5), "sRGB": (0, 1, 2, 5),
            "sRGBx": (0, 1, 2, 5), "sRGBA": (0, 1, 2, 3), "sBGRA": (2, 1, 0, 3)}
# the orders whose border colour has alpha 1 (spec 6.12.14.1)
OPAQUE_BORDER = ("R", "RG", "RGB", "LUMINANCE", "sRGB")
INTEGER_TYPES = ("SIGNED_INT8", "SIGNED_INT16", "SIGNED_INT32", "UNSIGNED_INT8",
                 "UNSIGNED_INT16", "UNSIGNED_INT32")


def channels_float(order: str, ctype: str, px: np.ndarray) -> np.ndarray:
    """The stored channels (..., C) as float32 by read_imagef's conversion rules;
    packed formats give 3 channels."""
    if ctype == "FLOAT":
        c = px.astype(F)
    elif ctype == "HALF_FLOAT":
        c = px.astype(F)
    elif ctype == "UNORM_INT8":
        c = px.astype(F) / F(255)
    elif ctype == "UNORM_INT16":
        c = px.astype(F) / F(65535)
    elif ctype == "SNORM_INT8":
        c = np.maximum(F(-1), px.astype(F) / F(127))
    elif ctype == "SNORM_INT16":
        c = np.maximum(F(-1), px.astype(F) / F(32767))
    elif ctype == "UNORM_SHORT_565":
        w = px[..., 0].astype(np.uint32)
        c = np.stack([((w >> 11) & 31) / F(31), ((w >> 5) & 63) / F(63), (w & 31) / F(31)],
                     -1).astype(F)
    elif ctype == "UNORM_SHORT_555":
        w = px[..., 0].astype(np.uint32)
        c = np.stack([((w >> 10) & 31) / F(31), ((w >> 5) & 31) / F(31), (w & 31) / F(31)],
                     -1).astype(F)
    elif ctype == "UNORM_INT_101010":
        w = px[..., 0].astype(np.uint32)
        c = np.stack([((w >> 20) & 1023) / F(1023), ((w >> 10) & 1023) / F(1023),
                      (w & 1023) / F(1023)], -1).astype(F)
    elif ctype == "UNORM_INT24":
        c = ((px.astype(np.uint32) & 0xFFFFFF).astype(F) / F(16777215)).astype(F)
    else:
        c = px.astype(F)
    if order.startswith("s"):
        rgb = c[..., :3]
        lin = np.where(rgb <= F(0.04045), rgb / F(12.92),
                       np.power((rgb + F(0.055)) / F(1.055), F(2.4))).astype(F)
        c = np.concatenate([lin, c[..., 3:]], -1)
    return c


def decode(order: str, ctype: str, px: np.ndarray, integer: bool = False) -> np.ndarray:
    """Every pixel's (r, g, b, a): float32, or int64 for read_imagei/ui."""
    if integer:
        c = px.astype(np.int64)
        one = 1
    else:
        c = channels_float(order, ctype, px)
        one = 1.0
    shape = c.shape[:-1]
    pad = np.zeros(shape + (6,), c.dtype)
    pad[..., :c.shape[-1]] = c
    pad[..., 4], pad[..., 5] = 0, one
    return pad[..., list(READ_MAP[order])]


def _border(order: str, integer: bool):
    a = 1 if order in OPAQUE_BORDER else 0
    return np.array([0, 0, 0, a], np.int64 if integer else F)


def _address(mode: str, c: int, size: int) -> int:
    if mode == "CLAMP_TO_EDGE":
        return min(max(c, 0), size - 1)
    if mode == "CLAMP":
        return min(max(c, -1), size)
    return c


def _floor(x) -> int:
    return int(np.floor(F(x)))


def _nearest(sampler, x, size) -> int:
    if sampler.addressing_mode == "REPEAT":
        u = (F(x) - np.floor(F(x))) * F(size)
        i = _floor(u)
        return i - size if i > size - 1 else i
    if sampler.addressing_mode == "MIRRORED_REPEAT":
        s = np.abs(F(x) - F(2) * np.rint(F(0.5) * F(x)))
        return min(_floor(s * F(size)), size - 1)
    u = F(x) * F(size) if sampler.normalized_coords else F(x)
    return _address(sampler.addressing_mode, _floor(u), size)


def _linear(sampler, x, size):
    mode = sampler.addressing_mode
    if mode == "REPEAT":
        u = (F(x) - np.floor(F(x))) * F(size)
        i0 = _floor(u - F(0.5))
        i1 = i0 + 1
        i0 = size + i0 if i0 < 0 else i0
        i1 = i1 - size if i1 > size - 1 else i1
    elif mode == "MIRRORED_REPEAT":
        u = np.abs(F(x) - F(2) * np.rint(F(0.5) * F(x))) * F(size)
        i0 = _floor(u - F(0.5))
        i0, i1 = max(i0, 0), min(i0 + 1, size - 1)
    else:
        u = F(x) * F(size) if sampler.normalized_coords else F(x)
        l0 = _floor(u - F(0.5))
        i0, i1 = _address(mode, l0, size), _address(mode, l0 + 1, size)
    t = F(u - F(0.5))
    return i0, i1, F(t - np.floor(t))


def read(pixels: np.ndarray, order: str, ctype: str, kind: str, sampler, coord,
         integer: bool = False) -> np.ndarray:
    """read_image{f,i,ui}(img, sampler, coord) at one float coordinate (a 4-tuple);
    sampler None: a samplerless read at int coordinates."""
    dims = {"1d": 1, "1d_array": 1, "2d": 2, "2d_array": 2, "3d": 3}[kind]
    arrayed = kind.endswith("array")
    texels = decode(order, ctype, pixels, integer)
    if arrayed:
        layers = texels.shape[0]
        layer = min(max(int(np.rint(F(coord[dims]))), 0), layers - 1)
        texels = texels[layer]
    # texels[k][j][i] with sizes (w, h, d) along x, y, z
    sizes = texels.shape[:-1][::-1]
    border = _border(order, integer)

    def texel(idx):
        if any(not 0 <= i < s for i, s in zip(idx, sizes)):
            return border
        return texels[tuple(reversed(idx))]

    if sampler is None:
        return texel([int(c) for c in coord[:dims]])
    linear = sampler.filter_mode == "LINEAR" and not integer
    if not linear:
        return texel([_nearest(sampler, coord[a], sizes[a]) for a in range(dims)])
    axes = [_linear(sampler, coord[a], sizes[a]) for a in range(dims)]
    acc = np.zeros(4, F)
    # the spec's order of terms: i fastest, then j, then k
    for corner in range(1 << dims):
        weight = F(1)
        idx = []
        for a in range(dims):
            i0, i1, frac = axes[a]
            upper = (corner >> a) & 1
            idx.append(i1 if upper else i0)
            weight = F(weight * (frac if upper else F(1) - frac))
        acc = (acc + weight * texel(idx)).astype(F)
    return acc


def _sat_rte(v, lo, hi):
    v = np.asarray(v, np.float32)
    r = np.where(np.isnan(v), 0, np.clip(np.rint(v), lo, hi))
    return r


def encode(order: str, ctype: str, rgba: np.ndarray) -> np.ndarray:
    """write_image{f,i,ui}'s stored pixels for values (..., 4): floats for the float and
    normalized types, integers for the integer ones."""
    write = {"R": (0,), "A": (3,), "RG": (0, 1), "RA": (0, 3), "RGB": (0, 1, 2),
             "RGBA": (0, 1, 2, 3), "BGRA": (2, 1, 0, 3), "ARGB": (3, 0, 1, 2),
             "ABGR": (3, 2, 1, 0), "INTENSITY": (0,), "LUMINANCE": (0,), "DEPTH": (0,),
             "sRGBA": (0, 1, 2, 3), "sBGRA": (2, 1, 0, 3)}[order]
    c = rgba[..., list(write)]
    dt = im.TYPE_DTYPES[ctype]
    if ctype in INTEGER_TYPES:
        info = np.iinfo(dt)
        return np.clip(c.astype(np.int64), info.min, info.max).astype(dt)
    c = c.astype(F)
    if order.startswith("s"):
        rgb = c[..., :3]
        rgb = np.where(np.isnan(rgb), F(0), rgb)
        srgb = np.where(rgb > 1, F(1), np.where(rgb < 0, F(0), np.where(
            rgb < F(0.0031308), F(12.92) * rgb,
            F(1.055) * np.power(np.maximum(rgb, F(0)), F(1 / 2.4)) - F(0.055))))
        out = _sat_rte(c * F(255), 0, 255).astype(np.uint8)
        out[..., :3] = np.floor(srgb.astype(F) * F(255) + F(0.5)).astype(np.uint8)
        return out
    scale = {"UNORM_INT8": (255, 0, 255), "UNORM_INT16": (65535, 0, 65535),
             "SNORM_INT8": (127, -128, 127), "SNORM_INT16": (32767, -32768, 32767),
             "UNORM_INT24": (16777215, 0, 16777215)}
    if ctype in scale:
        k, lo, hi = scale[ctype]
        return _sat_rte(c * F(k), lo, hi).astype(dt)
    if ctype == "HALF_FLOAT":
        return c.astype(np.float16)
    return c.astype(dt)
