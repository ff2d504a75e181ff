"""Images and samplers (issue 13), differentially against PoCL, which implements images
on the CPU, and against the NumPy reference of the spec (image_reference.py) for the
formats PoCL lacks.

One program (tests/kernels/images.cl) serves every case: the sampler, the format, the
function (read_imagef/i/ui; float or int coordinates; with or without a sampler) and the
image kind are data. The default run covers every pair of (image kind, format, sampler,
coordinates) at least once; CL2C_IMAGES_FULL=1 runs their whole product."""
from __future__ import annotations

import functools
import itertools
import os
import sys
import zlib

import numpy as np
import pytest

import cl2c
import image_reference as ref
from cl2c import images as im
from conftest import _pocl_context, kernel_source

SOURCE = kernel_source("images.cl")
KINDS = ("1d", "1d_array", "2d", "2d_array", "3d")
# the array shape before the channels, small and of unequal sides
SHAPES = {"1d": (7,), "1d_array": (3, 7), "2d": (5, 7), "2d_array": (3, 5, 6),
          "3d": (3, 4, 5)}
DIMS = {"1d": 1, "1d_array": 1, "2d": 2, "2d_array": 2, "3d": 3}
ADDRESSING = ("NONE", "CLAMP_TO_EDGE", "CLAMP", "REPEAT", "MIRRORED_REPEAT")
# the samplers whose results the spec defines: repeat modes need normalized coordinates
SAMPLERS = [(n, a, f) for n in (False, True) for a in ADDRESSING for f in ("NEAREST", "LINEAR")
            if n or a not in ("REPEAT", "MIRRORED_REPEAT")]
# float coordinates with a sampler; int ones with a sampler; int ones without
COORDS = ("float", "int", "none")
FULL = os.environ.get("CL2C_IMAGES_FULL") == "1"
N = 64          # coordinates per case


@pytest.fixture(scope="module")
def programs():
    return cl2c.Program(SOURCE).build()


def pocl():
    cl, ctx, queue = _pocl_context()
    return cl, ctx, queue


@functools.lru_cache(maxsize=1)
def pocl_built():
    """PoCL's build of the test program (once; only where a test compares with it)."""
    cl, ctx, _ = pocl()
    return cl.Program(ctx, SOURCE).build()


def pocl_formats() -> list:
    """(order, type) of every format PoCL offers for 2D images, read and write."""
    try:
        cl, ctx, _ = pocl()
    except pytest.skip.Exception:
        return []
    names = {v: k for k, v in im.CHANNEL_ORDERS.items()}
    types = {v: k for k, v in im.CHANNEL_TYPES.items()}
    found = cl.get_supported_image_formats(ctx, cl.mem_flags.READ_WRITE,
                                           cl.mem_object_type.IMAGE2D)
    return sorted({(names[f.channel_order], types[f.channel_data_type]) for f in found
                   if f.channel_order in names and f.channel_data_type in types})


POCL_FORMATS = pocl_formats()
# The formats compared with PoCL: those PoCL 3.1 offers for 2D images, whatever the
# installed PoCL offers (7.1 has 16 of them), so that a PoCL with fewer shows its gaps
# as skips that say so (needs_pocl) instead of tests that are not there.
BASIC_TYPES = ("FLOAT", "HALF_FLOAT", "SIGNED_INT8", "SIGNED_INT16", "SIGNED_INT32",
               "SNORM_INT8", "SNORM_INT16", "UNORM_INT8", "UNORM_INT16", "UNSIGNED_INT8",
               "UNSIGNED_INT16", "UNSIGNED_INT32")
POCL_COMPARED = sorted([(o, t) for o in ("R", "A", "RGBA") for t in BASIC_TYPES] +
                       [(o, t) for o in ("BGRA", "ARGB") for t in BASIC_TYPES
                        if t.endswith("INT8")])


def needs_pocl(*formats) -> None:
    """Skip, saying why, a comparison the installed PoCL cannot make."""
    if not POCL_FORMATS:
        pytest.skip("PoCL (with images) is not available")
    lacking = [f"CL_{o}/CL_{t}" for o, t in formats if (o, t) not in POCL_FORMATS]
    if lacking:
        pytest.skip(f"PoCL does not offer {', '.join(lacking)} images")


# formats PoCL lacks: against the NumPy reference
REFERENCE_FORMATS = [
    ("RG", "FLOAT"), ("RG", "UNORM_INT8"), ("RA", "SNORM_INT16"), ("RA", "HALF_FLOAT"),
    ("INTENSITY", "FLOAT"), ("INTENSITY", "UNORM_INT16"), ("LUMINANCE", "UNORM_INT8"),
    ("LUMINANCE", "HALF_FLOAT"), ("ABGR", "UNORM_INT8"), ("RGB", "UNORM_SHORT_565"),
    ("RGB", "UNORM_SHORT_555"), ("RGB", "UNORM_INT_101010"), ("RGBx", "UNORM_SHORT_565"),
    ("Rx", "FLOAT"), ("RGx", "UNORM_INT8"), ("RGBx", "SNORM_INT8"), ("sRGBA", "UNORM_INT8"),
    ("sBGRA", "UNORM_INT8"), ("sRGB", "UNORM_INT8"), ("sRGBx", "UNORM_INT8"),
    ("RG", "SIGNED_INT16"), ("RA", "UNSIGNED_INT32"),
]


def integer_type(ctype: str) -> str | None:
    return "i" if ctype.startswith("SIGNED") else "ui" if ctype.startswith("UNSIGNED") \
        else None


def valid(fmt, sampler, coords) -> bool:
    """A case whose result the spec defines: integer images are read nearest; int
    coordinates take unnormalized nearest samplers without repeat."""
    norm, addressing, filtering = sampler
    if integer_type(fmt[1]) and filtering == "LINEAR":
        return False
    if coords == "int":
        return not norm and filtering == "NEAREST"
    if coords == "none":
        return sampler == SAMPLERS[0]       # no sampler: one case stands for all
    return True


def pairwise(formats) -> list:
    """Cases covering every pair of values of (kind, format, sampler, coordinates) that
    some valid case has: each valid (format, sampler, coordinates) once, with the kind
    that meets the most values not yet seen with it (in turn where several do), then a
    case more for each pair still missing. Kinds taken only in turn left a format list
    whose every format has 20 cases (RGBA and BGRA, as PoCL 7.1 offers) with each
    sampler meeting the same kinds over and over."""
    triples = [(f, s, c) for f in formats for s in SAMPLERS for c in COORDS if valid(f, s, c)]
    missing = {(k, i, v) for t in triples for i, v in enumerate(t) for k in KINDS}
    out = []

    def add(kind, t):
        out.append((kind, *t))
        missing.difference_update((kind, i, v) for i, v in enumerate(t))

    for n, t in enumerate(triples):
        in_turn = KINDS[n % len(KINDS):] + KINDS[:n % len(KINDS)]
        add(max(in_turn, key=lambda k: sum((k, i, v) in missing for i, v in enumerate(t))),
            t)
    for kind, i, v in sorted(missing, key=repr):
        if (kind, i, v) in missing:
            add(kind, next(t for t in triples if t[i] == v))
    return out


def full(formats) -> list:
    return [(k, f, s, c) for k in KINDS for f in formats for s in SAMPLERS for c in COORDS
            if valid(f, s, c)]


# The formats PoCL 7.1 offers for 2D images: the RGBA and BGRA ones of POCL_COMPARED.
POCL_7_1 = [f for f in POCL_COMPARED if f[0] in ("RGBA", "BGRA")]


@pytest.mark.parametrize("formats", [POCL_COMPARED, POCL_7_1, REFERENCE_FORMATS,
                                     [("RGBA", "FLOAT"), ("R", "SIGNED_INT8")],
                                     [("RGBA", "FLOAT")]],
                         ids=["pocl", "pocl-7.1", "reference", "two", "one"])
def test_pairwise_covers_every_pair(formats):
    """The default cases cover every pair that the full product covers, whatever the
    formats (not only those the installed PoCL offers), in few more cases than there
    are valid (format, sampler, coordinates)."""
    def pairs(cases):
        return {(a, va, b, vb) for c in cases
                for (a, va), (b, vb) in itertools.combinations(enumerate(c), 2)}
    cases = pairwise(formats)
    assert pairs(cases) == pairs(full(formats))
    triples = {c[1:] for c in full(formats)}
    assert {c[1:] for c in cases} == triples
    assert len(cases) <= len(triples) + len(KINDS) * (len(SAMPLERS) + len(COORDS))


def test_every_format_pocl_offers_is_compared():
    """A PoCL that offers a format POCL_COMPARED lacks is a test that does not run."""
    if not POCL_FORMATS:
        pytest.skip("PoCL (with images) is not available")
    assert sorted(set(POCL_FORMATS) - set(POCL_COMPARED)) == []


# ---- data -------------------------------------------------------------------------------

def pixels(order: str, ctype: str, kind: str, rng) -> np.ndarray:
    channels = 1 if ctype in im.PACKED_TYPES else im.ORDER_CHANNELS[order]
    shape = SHAPES[kind] + (channels,)
    dt = np.dtype(im.TYPE_DTYPES[ctype])
    if dt.kind == "f":
        return rng.normal(0, 2, shape).astype(dt)
    if ctype == "UNORM_INT24":
        return rng.integers(0, 1 << 24, shape, dtype=np.uint32)
    info = np.iinfo(dt)
    return rng.integers(info.min, info.max, shape, dtype=dt, endpoint=True)


def coordinates(kind: str, sampler, coords: str, rng) -> np.ndarray:
    """N coordinates (float4, x y z and the layer) for the case: within the image for
    CLK_ADDRESS_NONE and samplerless reads (out of it is undefined), else around it."""
    norm, addressing, _ = sampler
    dims = DIMS[kind]
    shape = SHAPES[kind]
    sizes = list(reversed(shape[1:] if kind.endswith("array") else shape))  # w, h, d
    layers = shape[0] if kind.endswith("array") else 1
    out = np.zeros((N, 4), np.float32)
    inside = addressing == "NONE" or coords == "none"
    for a in range(dims):
        size = sizes[a]
        if coords != "float":
            lo, hi = (0, size - 1) if inside else (-2, size + 1)
            out[:, a] = rng.integers(lo, hi, N, endpoint=True)
        elif norm:
            out[:, a] = rng.uniform(0, 1, N) if inside else rng.uniform(-1.3, 2.3, N)
        else:
            out[:, a] = rng.uniform(0, size, N) if inside else rng.uniform(-2, size + 2, N)
    if kind.endswith("array"):
        lo, hi = (0, layers - 1) if inside else (-1, layers)
        out[:, dims] = rng.integers(lo, hi, N, endpoint=True) + \
            (0 if coords != "float" else rng.uniform(-0.4, 0.4, N))
    return out


def function(ctype: str, coords: str) -> int:
    """fn of the read kernels: read_imagef/i/ui by the type; +3 int coordinates, +6 no
    sampler."""
    base = {"i": 1, "ui": 2, None: 0}[integer_type(ctype)]
    return base + {"float": 0, "int": 3, "none": 6}[coords]


def run_cl2c(programs, kind, fmt, sampler, coords, px, xy):
    order, ctype = fmt
    img = cl2c.Image(px, order, ctype, kind)
    f = np.zeros((N, 4), np.float32)
    i = np.zeros((N, 4), np.int32)
    u = np.zeros((N, 4), np.uint32)
    kernel = getattr(programs, f"read_{kind}")
    kernel(N, None, img, cl2c.Sampler(*sampler), xy, np.int32(function(ctype, coords)), f, i, u)
    return {"i": i, "ui": u, None: f}[integer_type(ctype)]


def pocl_image(fmt, kind, px, write=False):
    cl, ctx, _ = pocl()
    order, ctype = fmt
    shape = SHAPES[kind]
    if kind.endswith("array"):
        shape = tuple(reversed(shape[1:])) + (shape[0],)       # (w[, h], layers)
    else:
        shape = tuple(reversed(shape))                          # (w[, h[, d]])
    flags = cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR
    return cl.create_image(ctx, flags, cl.ImageFormat(im.CHANNEL_ORDERS[order],
                                                        im.CHANNEL_TYPES[ctype]),
                           shape=shape, hostbuf=np.ascontiguousarray(px),
                           is_array=kind.endswith("array"))


def run_pocl(pocl_program, kind, fmt, sampler, coords, px, xy):
    cl, ctx, queue = pocl()
    img = pocl_image(fmt, kind, px)
    smp = cl.Sampler(ctx, sampler[0], getattr(cl.addressing_mode, sampler[1]),
                     getattr(cl.filter_mode, sampler[2]))
    mf = cl.mem_flags
    bufs = [cl.Buffer(ctx, mf.READ_WRITE, N * 16) for _ in range(3)]
    cbuf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=xy)
    kernel = cl.Kernel(pocl_program, f"read_{kind}")
    kernel(queue, (N,), None, img, smp, cbuf, np.int32(function(fmt[1], coords)), *bufs)
    which = {"i": (1, np.int32), "ui": (2, np.uint32), None: (0, np.float32)}
    k, dt = which[integer_type(fmt[1])]
    out = np.empty((N, 4), dt)
    cl.enqueue_copy(queue, out, bufs[k])
    queue.finish()
    return out


def pocl_deviates(kind: str, fmt, sampler) -> str | None:
    """Where PoCL (6.x, 7.x) departs from the spec, so that the case is held to the
    reference instead: its 1D image arrays read layer 0 whatever the coordinate, and
    with normalized coordinates it normalizes a 2D array's layer coordinate too (spec
    3.1: "the image array coordinate ... must always be the un-normalized image
    coordinate value"). Its border colour of CL_R images lacks the alpha of 1 (spec
    6.12.14.1), its integer reads of them the alpha of 1 (6.12.14.7); it reads half
    images wrongly."""
    order, ctype = fmt
    if kind == "1d_array":
        return "PoCL's 1D image arrays ignore the layer"
    if order == "R" and sampler[1] in ("CLAMP", "NONE"):
        return "PoCL's border colour of CL_R images is (0, 0, 0, 0), not (0, 0, 0, 1)"
    if order == "R" and integer_type(ctype):
        return "PoCL's read_imagei/ui of CL_R images give alpha 0, not 1"
    if ctype == "HALF_FLOAT":
        return "PoCL reads CL_HALF_FLOAT images as a constant (234.0 here)"
    if kind == "2d_array" and sampler[0]:
        return "PoCL normalizes the layer coordinate"
    return None


def reference(kind, fmt, sampler, coords, px, xy, dtype):
    integer = integer_type(fmt[1]) is not None
    smp = None if coords == "none" else cl2c.Sampler(*sampler)
    want = np.array([ref.read(px, *fmt, kind, smp, c, integer) for c in xy])
    return want.astype(dtype)


def compare(got, want, what):
    if got.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-6, err_msg=what)
    else:
        np.testing.assert_array_equal(got, want, err_msg=what)


def describe(case) -> str:
    kind, (order, ctype), (norm, addr, filt), coords = case
    return f"{kind}-{order}-{ctype}-{'norm' if norm else 'unnorm'}-{addr}-{filt}-{coords}"


CASES = (full if FULL else pairwise)(POCL_COMPARED)
REFERENCE_CASES = (full if FULL else pairwise)(REFERENCE_FORMATS)


@pytest.mark.parametrize("fmt", POCL_COMPARED, ids=lambda f: f"{f[0]}-{f[1]}")
def test_reads_match_pocl(fmt, programs):
    """Every case of this format (a dozen samplers, each function and kind in turn)."""
    needs_pocl(fmt)
    pocl_program = pocl_built()
    rng = np.random.default_rng(zlib.crc32(repr(fmt).encode()))
    failures = []
    for case in [c for c in CASES if c[1] == fmt]:
        kind, _, sampler, coords = case
        px = pixels(*fmt, kind, rng)
        xy = coordinates(kind, sampler, coords, rng)
        got = run_cl2c(programs, kind, fmt, sampler, coords, px, xy)
        if pocl_deviates(kind, fmt, sampler):
            want = reference(kind, fmt, sampler, coords, px, xy, got.dtype)
        else:
            want = run_pocl(pocl_program, kind, fmt, sampler, coords, px, xy)
        try:
            compare(got, want, describe(case))
        except AssertionError as e:
            failures.append(f"{describe(case)}: {str(e).splitlines()[:8]}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("fmt", REFERENCE_FORMATS, ids=lambda f: f"{f[0]}-{f[1]}")
def test_reads_match_the_reference(fmt, programs):
    """Formats PoCL lacks, against the spec's formulas: this format's share of the
    pairwise cases of REFERENCE_FORMATS (each sampler once)."""
    rng = np.random.default_rng(zlib.crc32(repr(fmt).encode()))
    failures = []
    for case in [c for c in REFERENCE_CASES if c[1] == fmt]:
        kind, _, sampler, coords = case
        px = pixels(*fmt, kind, rng)
        xy = coordinates(kind, sampler, coords, rng)
        got = run_cl2c(programs, kind, fmt, sampler, coords, px, xy)
        want = reference(kind, fmt, sampler, coords, px, xy, got.dtype)
        try:
            compare(got, want, describe(case))
        except AssertionError as e:
            failures.append(f"{describe(case)}: {str(e).splitlines()[:8]}")
    assert not failures, "\n".join(failures)


# ---- writes ------------------------------------------------------------------------------

def write_values(ctype: str, count: int, rng):
    """(float4 values, int4 values) that cross the type's range, to see saturation."""
    f = rng.uniform(-1.3, 1.3, (count, 4)).astype(np.float32)
    if ctype.startswith("UNORM"):
        f = rng.uniform(-0.3, 1.3, (count, 4)).astype(np.float32)
    elif ctype in ("FLOAT", "HALF_FLOAT"):
        f = rng.normal(0, 100, (count, 4)).astype(np.float32)
    bits = {"8": 9, "16": 17, "32": 31}[ctype.rsplit("INT", 1)[-1]] \
        if integer_type(ctype) else 8
    i = rng.integers(-(1 << bits), 1 << bits, (count, 4)).astype(np.int32)
    if ctype == "UNSIGNED_INT32":
        i = rng.integers(0, 1 << 32, (count, 4), dtype=np.uint64).astype(np.uint32).view(
            np.int32)
    return f, i


def write_fn(ctype: str) -> int:
    return {"i": 1, "ui": 2, None: 0}[integer_type(ctype)]


def run_write_cl2c(programs, kind, fmt, f, i):
    order, ctype = fmt
    channels = 1 if ctype in im.PACKED_TYPES else im.ORDER_CHANNELS[order]
    zeros = np.zeros(SHAPES[kind] + (channels,), im.TYPE_DTYPES[ctype])
    img = cl2c.Image(zeros, order, ctype, kind)
    size = tuple(reversed(SHAPES[kind]))
    getattr(programs, f"write_{kind}")(size, None, img, f, i, np.int32(write_fn(ctype)))
    return img.get()


def run_write_pocl(pocl_program, kind, fmt, f, i):
    cl, ctx, queue = pocl()
    order, ctype = fmt
    zeros = np.zeros(SHAPES[kind] + (im.ORDER_CHANNELS[order],), im.TYPE_DTYPES[ctype])
    img = pocl_image(fmt, kind, zeros)
    mf = cl.mem_flags
    fb = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=f)
    ib = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=i)
    size = tuple(reversed(SHAPES[kind]))
    cl.Kernel(pocl_program, f"write_{kind}")(queue, size, None, img, fb, ib,
                                               np.int32(write_fn(ctype)))
    out = np.empty_like(zeros)
    region = size + (1,) * (3 - len(size))
    # (enqueue_copy knows only 2D, 3D and 2D array images)
    cl._cl._enqueue_read_image(queue, img, (0, 0, 0), region, out)
    queue.finish()
    return out


WRITE_POCL = [f for f in POCL_COMPARED if f[1] != "HALF_FLOAT"]


@pytest.mark.parametrize("fmt", WRITE_POCL, ids=lambda f: f"{f[0]}-{f[1]}")
def test_writes_match_pocl(fmt, programs):
    """write_imagef/i/ui into every kind: the stored channels, bit for bit (the spec's
    rounding to nearest even and saturation, which PoCL follows)."""
    needs_pocl(fmt)
    pocl_program = pocl_built()
    rng = np.random.default_rng(zlib.crc32(repr(fmt).encode()))
    for kind in KINDS:
        count = int(np.prod(SHAPES[kind]))
        f, i = write_values(fmt[1], count, rng)
        got = run_write_cl2c(programs, kind, fmt, f, i)
        if kind == "1d_array":        # PoCL writes layer 0 whatever the coordinate
            want = encoded(fmt, f, i).reshape(got.shape)
        else:
            want = run_write_pocl(pocl_program, kind, fmt, f, i)
        np.testing.assert_array_equal(got, want, err_msg=f"{kind} {fmt}")


def encoded(fmt, f, i):
    """The reference's stored channels of write_imagef (f) or write_imagei/ui (i)."""
    values = i.view(np.uint32).astype(np.int64) if fmt[1].startswith("UNSIGNED") \
        else i if integer_type(fmt[1]) else f
    return ref.encode(*fmt, values)


WRITE_REFERENCE = [("RGBA", "HALF_FLOAT"), ("R", "HALF_FLOAT"), ("RG", "UNORM_INT16"),
                   ("RA", "SNORM_INT8"), ("ABGR", "UNORM_INT8"), ("INTENSITY", "FLOAT"),
                   ("LUMINANCE", "UNORM_INT8"), ("sRGBA", "UNORM_INT8"),
                   ("sBGRA", "UNORM_INT8"), ("RG", "SIGNED_INT8"), ("RA", "UNSIGNED_INT16")]


@pytest.mark.parametrize("fmt", WRITE_REFERENCE, ids=lambda f: f"{f[0]}-{f[1]}")
def test_writes_match_the_reference(fmt, programs):
    rng = np.random.default_rng(zlib.crc32(repr(fmt).encode()))
    for kind in KINDS:
        count = int(np.prod(SHAPES[kind]))
        f, i = write_values(fmt[1], count, rng)
        got = run_write_cl2c(programs, kind, fmt, f, i)
        want = encoded(fmt, f, i).reshape(got.shape)
        np.testing.assert_array_equal(got, want, err_msg=f"{kind} {fmt}")


def test_packed_writes_round_trip(programs):
    """565, 555 and 101010: a write of what a read gave back stores the same word."""
    rng = np.random.default_rng(5)
    for ctype, mask in (("UNORM_SHORT_565", 0xFFFF), ("UNORM_SHORT_555", 0x7FFF),
                        ("UNORM_INT_101010", 0x3FFFFFFF)):
        px = (pixels("RGB", ctype, "2d", rng) & mask).astype(im.TYPE_DTYPES[ctype])
        xy = np.zeros((N, 4), np.float32)
        xy[:, 0], xy[:, 1] = np.arange(N) % 7, np.arange(N) // 7 % 5
        got = run_cl2c(programs, "2d", ("RGB", ctype), SAMPLERS[0], "none", px, xy)
        f = np.zeros((5 * 7, 4), np.float32)
        f[np.asarray(xy[:35, 1] * 7 + xy[:35, 0], int)] = got[:35]
        back = run_write_cl2c(programs, "2d", ("RGB", ctype), f, np.zeros((35, 4), np.int32))
        np.testing.assert_array_equal(back, px, err_msg=ctype)


UNORM8_SOURCE = """
kernel void unorm8(read_only image2d_t src, write_only image2d_t dst,
                   global const float4 *f, global float4 *got) {
    int x = get_global_id(0), y = get_global_id(1), i = y * get_image_width(src) + x;
    got[i] = read_imagef(src, (int2)(x, y));
    write_imagef(dst, (int2)(x, y), f[i]);
}
"""


def unorm8_write_values(count: int, rng) -> np.ndarray:
    """write_imagef's hard cases for 8-bit unorm: NaN, infinities, the bounds and just
    past them, each k / 255, and the ties (f * 255.0f exactly k + 0.5: to even); then
    random values across the range."""
    f32 = np.float32
    ks = np.arange(256, dtype=f32)
    near = (ks + f32(0.5)) / f32(255)
    near = np.concatenate([near, np.nextafter(near, f32(0)), np.nextafter(near, f32(2))])
    ties = near[near * f32(255) == np.floor(near * f32(255)) + f32(0.5)]
    special = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, -1e-30, 1.0,
                        np.nextafter(f32(1), f32(2)), 2.0, -1.0], f32)
    hard = np.concatenate([special, ks / f32(255), ties])
    assert ties.size > 50                      # there are ties to see
    rest = rng.uniform(-0.3, 1.3, count * 4 - hard.size).astype(f32)
    return np.concatenate([hard, rest]).reshape(count, 4)


def test_rgba_unorm8_is_exact():
    """RGBA 8-bit unorm, the format with an inline path of its own (images.h) that the
    loops schedule's twin for it (__items_rgba8) takes: read_imagef gives c / 255.0f for
    every byte, bit for bit, and write_imagef rounds f * 255.0f to nearest even, NaN to
    0, saturated, for the hard values."""
    prg = cl2c.Program(UNORM8_SOURCE).build()
    assert "unorm8__items_rgba8" in prg.c_source
    side = 32                                   # 1024 pixels, 4096 channels
    rng = np.random.default_rng(8)
    px = rng.permutation(np.arange(side * side * 4) % 256).astype(np.uint8)
    px = px.reshape(side, side, 4)
    f = unorm8_write_values(side * side, rng)
    got = np.zeros((side * side, 4), np.float32)
    dst = cl2c.Image(np.zeros_like(px), "RGBA", "UNORM_INT8")
    prg.unorm8((side, side), (8, 8), cl2c.Image(px, "RGBA", "UNORM_INT8"), dst, f, got)
    want_read = px.reshape(-1, 4).astype(np.float32) / np.float32(255)
    np.testing.assert_array_equal(got.view(np.uint32), want_read.view(np.uint32))
    with np.errstate(invalid="ignore"):
        scaled = f * np.float32(255)
    want_write = np.rint(np.clip(np.nan_to_num(scaled, nan=0.0), 0, 255)).astype(np.uint8)
    np.testing.assert_array_equal(dst.get().reshape(-1, 4), want_write)


@pytest.mark.parametrize("order", ["BGRA", "R"])
def test_other_unorm8_orders_read_exactly(order):
    """The 8-bit unorm orders without a path of their own (images.h's general decoder)
    read c / 255.0f bit for bit too, each channel where its order puts it."""
    prg = cl2c.Program(UNORM8_SOURCE).build()
    channels = len(order)
    side = 32
    px = np.random.default_rng(9).permutation(np.arange(side * side * channels) % 256)
    px = px.astype(np.uint8).reshape(side, side, channels)
    got = np.zeros((side * side, 4), np.float32)
    f = np.zeros((side * side, 4), np.float32)
    dst = cl2c.Image(np.zeros((side, side, 4), np.uint8), "RGBA", "UNORM_INT8")
    prg.unorm8((side, side), (8, 8), cl2c.Image(px, order, "UNORM_INT8"), dst, f, got)
    stored = px.reshape(-1, channels).astype(np.float32) / np.float32(255)
    want = np.zeros_like(got)
    want[:, 3] = 1.0
    if order == "BGRA":
        want[:, [2, 1, 0, 3]] = stored
    else:
        want[:, 0] = stored[:, 0]
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))


# ---- queries, depth images, errors ---------------------------------------------------

def test_queries_match_pocl(programs):
    rng = np.random.default_rng(3)
    formats = [("RGBA", "FLOAT"), ("R", "UNORM_INT8"), ("BGRA", "UNSIGNED_INT8"),
               ("A", "SIGNED_INT16"), ("RGBA", "FLOAT")]
    kinds = ("2d", "3d", "2d_array", "1d_array", "1d")
    pxs = [pixels(*f, k, rng) for f, k in zip(formats, kinds)]
    got = np.zeros(18, np.int32)
    programs.query_2d(1, None, *[cl2c.Image(p, *f, k) for p, f, k in zip(pxs, formats, kinds)],
                      got)
    want = np.array([7, 5, im.CHANNEL_ORDERS["RGBA"], im.CHANNEL_TYPES["FLOAT"], 7, 5,
                     5, 4, 3, 5 + 40 + 300, im.CHANNEL_ORDERS["R"],
                     im.CHANNEL_TYPES["UNORM_INT8"], 3, 6 + 50, 3, 7, 7, 1], np.int32)
    np.testing.assert_array_equal(got, want)
    needs_pocl(*formats)
    cl, ctx, queue = pocl()
    o = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 18 * 4)
    cl.Kernel(pocl_built(), "query_2d")(queue, (1,), None, *[
        pocl_image(f, k, p) for p, f, k in zip(pxs, formats, kinds)], o)
    theirs = np.empty(18, np.int32)
    cl.enqueue_copy(queue, theirs, o)
    theirs[14] = 3      # PoCL's get_image_array_size of a 1D image array is 1 (its bug)
    np.testing.assert_array_equal(got, theirs)


DEPTH_SOURCE = """
kernel void depth(read_only image2d_depth_t d, read_only image2d_array_depth_t a,
                  write_only image2d_depth_t w, sampler_t s, global const float4 *c,
                  global float *o) {
    size_t g = get_global_id(0);
    o[2 * g] = read_imagef(d, s, c[g].xy);
    o[2 * g + 1] = read_imagef(a, s, c[g]);
    if (g < 6)
        write_imagef(w, (int2)(g, 1), o[2 * g] * 0.5f);
    if (g == 0)
        o[2 * get_global_size(0)] = get_image_channel_order(d) == CLK_DEPTH;
}
"""


@pytest.mark.parametrize("ctype", ["FLOAT", "UNORM_INT16", "UNORM_INT24"])
def test_depth_images_match_the_reference(ctype):
    prg = cl2c.Program(DEPTH_SOURCE).build()
    rng = np.random.default_rng(7)
    px = pixels("DEPTH", ctype, "2d", rng)
    pa = pixels("DEPTH", ctype, "2d_array", rng)
    w = cl2c.Image(np.zeros_like(px), "DEPTH", ctype, "2d")
    out = np.zeros(2 * N + 1, np.float32)
    sampler = (True, "CLAMP", "LINEAR")
    xy = coordinates("2d_array", sampler, "float", rng)
    prg.depth(N, None, cl2c.Image(px, "DEPTH", ctype), cl2c.Image(pa, "DEPTH", ctype,
                                                                   "2d_array"),
              w, cl2c.Sampler(*sampler), xy, out)
    smp = cl2c.Sampler(*sampler)
    want_d = np.array([ref.read(px, "DEPTH", ctype, "2d", smp, c)[0] for c in xy], np.float32)
    want_a = np.array([ref.read(pa, "DEPTH", ctype, "2d_array", smp, c)[0] for c in xy],
                      np.float32)
    np.testing.assert_allclose(out[0:2 * N:2], want_d, rtol=2e-5, atol=2e-6)
    np.testing.assert_allclose(out[1:2 * N:2], want_a, rtol=2e-5, atol=2e-6)
    assert out[2 * N] == 1
    stored = w.get()[1, :6, 0]
    np.testing.assert_array_equal(stored, ref.encode("DEPTH", ctype, np.stack(
        [out[0:12:2] * np.float32(0.5)] * 4, -1))[..., 0])


def test_half_reads_and_writes():
    """read_imageh and write_imageh (cl_khr_fp16): read_imagef's values rounded to half."""
    if "cl_khr_fp16" not in cl2c.device().extensions:
        pytest.skip("the C compiler has no _Float16")
    src = """#pragma OPENCL EXTENSION cl_khr_fp16 : enable
    kernel void h(read_only image2d_t a, write_only image2d_t b, sampler_t s,
                  global const float2 *c, global half4 *o, global float4 *f) {
        size_t g = get_global_id(0);
        o[g] = read_imageh(a, s, c[g]);
        f[g] = read_imagef(a, s, c[g]);
        write_imageh(b, (int2)(g % 7, g / 7 % 5), o[g]);
    }"""
    prg = cl2c.Program(src).build()
    rng = np.random.default_rng(11)
    px = pixels("RGBA", "FLOAT", "2d", rng)
    b = cl2c.Image(np.zeros((5, 7, 4), np.float16), "RGBA", "HALF_FLOAT")
    c = rng.uniform(0, 1, (35, 2)).astype(np.float32)
    o = np.zeros((35, 4), np.float16)
    f = np.zeros((35, 4), np.float32)
    prg.h(35, None, cl2c.Image(px, "RGBA", "FLOAT"), b, cl2c.Sampler(True, "REPEAT", "LINEAR"),
          c, o, f)
    np.testing.assert_array_equal(o, f.astype(np.float16))
    np.testing.assert_array_equal(b.get().reshape(35, 4), o)


@pytest.mark.parametrize("src, message", [
    ("kernel void k(write_only image2d_t i, global float4 *o) {"
     " o[0] = read_imagef(i, (int2)(0, 0)); }", "a write_only image cannot be read"),
    ("kernel void k(read_only image2d_t i) { write_imagef(i, (int2)(0), (float4)(0)); }",
     "a read_only image cannot be written"),
    ("const sampler_t s = CLK_FILTER_LINEAR;\n"
     "kernel void k(read_only image2d_t i, global float4 *o) {\n"
     "  o[0] = read_imagef(i, s, (float2)(0), 1.0f); }",
     "mip-mapped image reads and writes"),
    ("kernel void k(read_only image2d_t i, global int *o) { o[0] = get_image_num_mip_levels(i); }",
     "mip-mapped and multi-sample images are not supported"),
    ("kernel void k(global float *o) { image2d_t i; }", "images are kernel and function"),
    ("kernel void k(read_write image2d_t i) { }", "read_write images are an OpenCL C 2.0"),
    ("kernel void k(read_only int i) { }", "can only be used for image types"),
])
def test_errors_are_positioned(src, message):
    with pytest.raises(cl2c.BuildError, match=message) as e:
        cl2c.translate(src, "t.cl")
    d = e.value.diagnostics[0]
    assert d.file == "t.cl" and d.line is not None and d.column is not None


def test_host_checks_name_the_argument(programs):
    px = np.zeros((5, 7, 4), np.float32)
    with pytest.raises(TypeError, match="UNORM_INT8 image takes a uint8 array"):
        cl2c.Image(px, "RGBA", "UNORM_INT8")
    with pytest.raises(ValueError, match=r"shape \(height, width, C\) with C = 1"):
        cl2c.Image(px, "R", "FLOAT")
    with pytest.raises(ValueError, match="unknown addressing mode"):
        cl2c.Sampler(True, "WRAP", "LINEAR")
    xy = np.zeros((N, 4), np.float32)
    outs = [np.zeros((N, 4), t) for t in (np.float32, np.int32, np.uint32)]
    img3 = cl2c.Image(np.zeros((3, 4, 5, 4), np.float32), kind="3d")
    with pytest.raises(cl2c.KernelArgError, match=r"argument 'img' \(image2d_t\): expected "
                                                  r"an image for image2d_t, got a 3d"):
        programs.read_2d(N, None, img3, cl2c.Sampler(False), xy, np.int32(0), *outs)
    with pytest.raises(cl2c.KernelArgError, match=r"argument 's' \(sampler_t\): a sampler_t "
                                                  r"takes cl2c.Sampler"):
        programs.read_2d(N, None, cl2c.Image(px), 16, xy, np.int32(0), *outs)
    with pytest.raises(cl2c.KernelArgError, match=r"argument 'img' \(image2d_t\): an image "
                                                  r"takes a cl2c.Image"):
        programs.read_2d(N, None, px, cl2c.Sampler(False), xy, np.int32(0), *outs)


SCHEDULE_SOURCE = """
const sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                       CLK_FILTER_NEAREST;

float4 at(read_only image2d_t img, sampler_t s, int x, int y) {
    return read_imagef(img, s, (int2)(x, y));
}

kernel void shift(read_only image2d_t src, write_only image2d_t dst, local float4 *tile) {
    const sampler_t mine = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP |
                           CLK_FILTER_NEAREST;
    int x = get_global_id(0), y = get_global_id(1), l = get_local_id(0);
    tile[l] = at(src, edge, x + 1, y) + at(src, mine, x - 1, y);
    barrier(CLK_LOCAL_MEM_FENCE);
    write_imagef(dst, (int2)(x, y), tile[(l + 1) % get_local_size(0)]);
}
"""


@pytest.mark.parametrize("schedule", ["regions", "fibers"])
def test_images_under_every_schedule(schedule):
    """Images, samplers (constant, kernel-scope) and helper functions taking them in a
    kernel with a barrier, under the schedules for barriers."""
    prg = cl2c.Program(SCHEDULE_SOURCE, options=f"-cl2c-schedule={schedule}").build()
    rng = np.random.default_rng(2)
    px = rng.random((4, 8, 4), dtype=np.float32)
    out = cl2c.Image(np.zeros_like(px))
    prg.shift((8, 4), (4, 1), cl2c.Image(px), out, cl2c.LocalMemory(4 * 16))
    padded_edge = np.concatenate([px[:, 1:], px[:, -1:]], 1)        # x + 1, clamped
    padded_border = np.concatenate([np.zeros_like(px[:, :1]), px[:, :-1]], 1)  # x - 1
    tile = padded_edge + padded_border
    want = np.concatenate([tile[:, 1:4], tile[:, 0:1], tile[:, 5:8], tile[:, 4:5]], 1)
    np.testing.assert_allclose(out.get(), want, rtol=1e-6)


def test_interface_reports_images():
    """The metadata (C and Python) and the ahead-of-time JSON say which arguments are
    images and samplers."""
    from cl2c.interface import KernelInterface
    prg = cl2c.Program(SOURCE).build()
    info = {a.name: a for a in prg.read_2d.arg_info}
    assert (info["img"].kind, info["img"].address_space, info["img"].writes) == \
        ("image", "global", False)
    assert (info["s"].kind, info["s"].type_name) == ("sampler", "sampler_t")
    w = {a.name: a for a in prg.write_2d.arg_info}["img"]
    assert (w.kind, w.writes) == ("image", True)
    iface = prg.read_2d.interface
    assert KernelInterface.from_json(iface.to_json()) == iface
    c = prg.c_source
    assert '{"img", "image2d_t", CL2C_ADDRESS_GLOBAL, CL2C_ARG_IMAGE' in c
    assert '{"s", "sampler_t", CL2C_ADDRESS_PRIVATE, CL2C_ARG_SAMPLER' in c


C_MAIN = r"""
#include <stdio.h>
#include <string.h>
#include "k.h"

int main(void) {
    float pixels[2][3][4], out[4] = {0};
    for (int i = 0; i < 24; ++i)
        ((float *)pixels)[i] = (float)i;
    cl2c_image img;
    if (cl2c_image_init(&img, CL2C_MEM_OBJECT_IMAGE2D, CL2C_RGBA, CL2C_FLOAT, 3, 2, 0, 0,
                        pixels) != CL2C_SUCCESS)
        return 10;
    if (cl2c_image_init(&img, CL2C_MEM_OBJECT_IMAGE2D, 0x1234, CL2C_FLOAT, 3, 2, 0, 0,
                        pixels) != CL2C_INVALID_IMAGE_FORMAT_DESCRIPTOR)
        return 11;
    cl2c_image_init(&img, CL2C_MEM_OBJECT_IMAGE2D, CL2C_RGBA, CL2C_FLOAT, 3, 2, 0, 0, pixels);
    const cl2c_kernel_info *k = cl2c_find_kernel(&cl2c_program_k, "pick");
    if (k == NULL || k->args[0].kind != CL2C_ARG_IMAGE || k->args[1].kind != CL2C_ARG_SAMPLER)
        return 12;
    cl2c_image *ip = &img, *none = NULL;
    cl2c_sampler_t s = CL2C_ADDRESS_CLAMP_TO_EDGE | CL2C_FILTER_NEAREST;
    float *op = out;
    void *args[] = {&ip, &s, &op};
    cl2c_range r = cl2c_range_1d(1, CL2C_AUTO);
    if (cl2c_launch(k, &r, args) != CL2C_SUCCESS)
        return 13;
    void *bad[] = {&none, &s, &op};
    char why[256];
    if (cl2c_check_launch(k, &r, bad, why, sizeof why) != CL2C_INVALID_ARG_VALUE ||
        strstr(why, "null image") == NULL)
        return 14;
    printf("%g %g %g %g\n", out[0], out[1], out[2], out[3]);
    return 0;
}
"""


def test_images_from_c(tmp_path, cc):
    """A C program: cl2c_image_init, the metadata's image and sampler kinds, cl2c_launch,
    and cl2c_check_launch refusing a null image."""
    import subprocess
    from cl2c.resources import runtime_include_dir
    src = ("kernel void pick(read_only image2d_t img, sampler_t s, global float4 *o) {"
           " o[0] = read_imagef(img, s, (int2)(5, 1)); }")
    (tmp_path / "k.cl").write_text(src)
    subprocess.run([sys.executable, "-m", "cl2c.cli", str(tmp_path / "k.cl"), "-o",
                    str(tmp_path / "k.c"), "-H", str(tmp_path / "k.h")], check=True,
                   env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    (tmp_path / "main.c").write_text(C_MAIN)
    exe = tmp_path / "main"
    subprocess.run([cc, "-std=c11", "-O1", "-fopenmp", "-Wall", "-Wextra", "-Werror",
                    "-I", str(runtime_include_dir()), "-I", str(tmp_path),
                    str(tmp_path / "main.c"), str(tmp_path / "k.c"), "-lm", "-o", str(exe)],
                   check=True)
    ran = subprocess.run([str(exe)], capture_output=True, text=True)
    assert ran.returncode == 0, ran
    assert ran.stdout.split() == ["20", "21", "22", "23"]     # (2, 1): clamped from x = 5


def test_image1d_buffer():
    """image1d_buffer_t: samplerless reads and writes (it has no sampler forms)."""
    src = """
    kernel void k(read_only image1d_buffer_t a, write_only image1d_buffer_t b,
                  global float4 *o, global int *w) {
        int i = get_global_id(0);
        o[i] = read_imagef(a, i);
        write_imagef(b, i, read_imagef(a, i) * 2.0f);
        if (i == 0)
            w[0] = get_image_width(a);
    }"""
    prg = cl2c.Program(src).build()
    px = np.arange(6 * 4, dtype=np.uint8).reshape(6, 4) * 9
    b = cl2c.Image(np.zeros_like(px), "RGBA", "UNORM_INT8", "1d_buffer")
    o = np.zeros((6, 4), np.float32)
    w = np.zeros(1, np.int32)
    prg.k(6, None, cl2c.Image(px, "RGBA", "UNORM_INT8", "1d_buffer"), b, o, w)
    np.testing.assert_allclose(o, px / np.float32(255), rtol=1e-6)
    np.testing.assert_array_equal(b.get(), np.clip(np.rint(px.astype(np.float32) * 2), 0, 255))
    assert w[0] == 6
    with pytest.raises(cl2c.BuildError, match="no matching function"):
        cl2c.translate("const sampler_t s = 0; kernel void k(read_only image1d_buffer_t a, "
                       "global float4 *o) { o[0] = read_imagef(a, s, 0); }", "t.cl")


@pytest.mark.parametrize("std", ["CL2.0", "CL3.0"])
def test_read_write_images(std):
    """read_write images (OpenCL C 2.0): samplerless reads and writes of one image."""
    src = """
    kernel void twice(read_write image2d_t img) {
    #if __OPENCL_C_VERSION__ >= 300 && !defined(__opencl_c_read_write_images)
    #error no read_write images
    #endif
        int2 p = (int2)(get_global_id(0), get_global_id(1));
        write_imagef(img, p, read_imagef(img, p) * 2.0f);
    }"""
    prg = cl2c.Program(src, options=f"-cl-std={std}").build()
    px = np.random.default_rng(4).random((3, 5, 4), dtype=np.float32)
    img = cl2c.Image(px)
    prg.twice((5, 3), None, img)
    np.testing.assert_array_equal(img.get(), px * 2)
    assert prg.twice.arg_info[0].writes
