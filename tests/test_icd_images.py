"""Images and samplers on the cl2c platform, differentially: the C host
tests/icd_hosts/images.c (the Programming Guide's chapter 8 Gaussian filter, a rotation,
bilinear sampling with each addressing mode, 3D sampling) runs on cl2c and on PoCL
through the system's loader, and the kernels' results agree within the spec's bounds;
and a PyOpenCL program with images and samplers (its wheel's loader) agrees with NumPy.
(test_icd_c_hosts.py runs the same host on cl2c alone, for its own checks.)"""
from __future__ import annotations

import os
from pathlib import Path
import subprocess

import numpy as np
import pytest

from icd_helpers import icd_environment, run_pyopencl
from test_icd_c_hosts import HOSTS, _compile, _requirements

POCL_ICD = Path("/etc/OpenCL/vendors/pocl.icd")


def _results(path: Path) -> dict[str, np.ndarray]:
    """The host's OUT file: a "name type count" line, then the values, for each."""
    data, out, i = path.read_bytes(), {}, 0
    while i < len(data):
        j = data.index(b"\n", i)
        name, kind, count = data[i:j].decode().split()
        dtype = np.dtype({"u1": np.uint8, "f4": np.float32}[kind])
        end = j + 1 + int(count) * dtype.itemsize
        out[name] = np.frombuffer(data[j + 1:end], dtype)
        i = end
    return out


def test_image_kernels_agree_with_pocl(tmp_path):
    cc = _requirements()
    if not POCL_ICD.is_file():
        pytest.skip(f"no PoCL registered with the system loader ({POCL_ICD})")
    exe = tmp_path / "images"
    _compile(cc, HOSTS / "images.c", exe, [])
    runs = {}
    pocl_env = {k: v for k, v in os.environ.items() if k != "OCL_ICD_VENDORS"}
    for name, platform, env in (("cl2c", "cl2c", icd_environment()),
                                ("pocl", "Portable Computing Language", pocl_env)):
        out = tmp_path / f"{name}.out"
        proc = subprocess.run([str(exe), platform, str(out)], env=env, capture_output=True,
                              text=True, timeout=300)
        assert proc.returncode == 0 and proc.stdout.strip() == "ok", \
            f"{name}: {proc.stdout[-2000:]}{proc.stderr[-2000:]}"
        runs[name] = _results(out)
    ours, pocl = runs["cl2c"], runs["pocl"]
    assert set(ours) == set(pocl) == {"gaussian", "rotate", "linear0", "linear1", "linear2",
                                      "linear3", "volume", "linear1d"}
    # nearest sampling at coordinates away from pixels' edges: the same pixels
    assert np.array_equal(ours["rotate"], pocl["rotate"])
    # a sum of nine float products written as UNORM_INT8: the spec's conversion allows
    # 0.6 of a unit off, and the order of the sum differs
    diff = np.abs(ours["gaussian"].astype(int) - pocl["gaussian"].astype(int))
    assert diff.max() <= 1 and (diff == 0).mean() > 0.9
    # linear filtering: the weights' precision is the implementation's (spec 8.2);
    # both compute them in float (measured: within 2 ulp of each other)
    for name in ("linear0", "linear1", "linear2", "linear3", "volume", "linear1d"):
        np.testing.assert_allclose(ours[name], pocl[name], rtol=0, atol=1e-6, err_msg=name)


@pytest.mark.parametrize("version", [None, "3.0"])
def test_pyopencl_images_and_samplers(version):
    # (on a 2.0+ platform PyOpenCL makes its samplers with clCreateSamplerWithProperties)
    result = run_pyopencl("""
        ctx = cl.Context([device])
        queue = cl.CommandQueue(ctx)
        mf = cl.mem_flags
        rng = np.random.default_rng(7)
        pixels = rng.integers(0, 256, (19, 23, 4), dtype=np.uint8)
        fmt = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNSIGNED_INT8)
        src = cl.Image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt, shape=(23, 19),
                       hostbuf=pixels)
        dst = cl.Image(ctx, mf.WRITE_ONLY, fmt, shape=(23, 19))
        sampler = cl.Sampler(ctx, False, cl.addressing_mode.CLAMP, cl.filter_mode.NEAREST)
        prg = cl.Program(ctx, '''
            __kernel void flip(read_only image2d_t src, write_only image2d_t dst,
                               sampler_t s) {
                int x = get_global_id(0), y = get_global_id(1);
                int w = get_image_width(src);
                write_imageui(dst, (int2)(x, y), read_imageui(src, s, (int2)(w - 1 - x, y)));
            }''').build()
        prg.flip(queue, (23, 19), None, src, dst, sampler)
        back = np.empty_like(pixels)
        cl.enqueue_copy(queue, back, dst, origin=(0, 0), region=(23, 19))
        formats = cl.get_supported_image_formats(ctx, mf.READ_ONLY,
                                                 cl.mem_object_type.IMAGE2D)
        arg_types = [prg.flip.get_arg_info(i, cl.kernel_arg_info.TYPE_NAME)
                     for i in range(3)]
        flipped = bool(np.array_equal(back, pixels[:, ::-1]))
        out({"flipped": flipped, "formats": len(formats),
                     "width": src.width, "height": src.height,
                     "sampler": sampler.addressing_mode, "arg_types": arg_types})
    """, version)
    assert result["flipped"]
    assert result["formats"] > 40 and (result["width"], result["height"]) == (23, 19)
    assert result["sampler"] == 0x1132                   # CL_ADDRESS_CLAMP
    assert result["arg_types"] == ["image2d_t", "image2d_t", "sampler_t"]


def test_access_qualifiers_of_image_arguments():
    """CL_KERNEL_ARG_ACCESS_QUALIFIER of each image argument (a read_write image: 3.0),
    and a read_write image written and read by one kernel."""
    result = run_pyopencl("""
        ctx = cl.Context([device])
        queue = cl.CommandQueue(ctx)
        prg = cl.Program(ctx, '''
            __kernel void k(read_only image2d_t a, write_only image2d_t b,
                            read_write image2d_t c, __global float *d) {
                int2 at = (int2)(get_global_id(0), get_global_id(1));
                float4 v = read_imagef(c, at) + read_imagef(a, at);
                write_imagef(c, at, v);
                write_imagef(b, at, v * 2.0f);
            }''').build(options=["-cl-std=CL3.0"])
        info = cl.kernel_arg_info.ACCESS_QUALIFIER
        access = [prg.k.get_arg_info(i, info) for i in range(4)]
        fmt = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.FLOAT)
        mf = cl.mem_flags
        ones = np.ones((5, 7, 4), np.float32)
        a = cl.Image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt, (7, 5), hostbuf=ones)
        b = cl.Image(ctx, mf.WRITE_ONLY, fmt, (7, 5))
        c = cl.Image(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, fmt, (7, 5), hostbuf=ones * 3)
        d = cl.Buffer(ctx, mf.READ_WRITE, 16)
        prg.k(queue, (7, 5), None, a, b, c, d)
        back_b, back_c = np.empty_like(ones), np.empty_like(ones)
        cl.enqueue_copy(queue, back_b, b, origin=(0, 0), region=(7, 5))
        cl.enqueue_copy(queue, back_c, c, origin=(0, 0), region=(7, 5))
        out({"access": access, "b": float(back_b.mean()), "c": float(back_c.mean())})
    """, "3.0")
    assert result["access"] == [0x11A0, 0x11A1, 0x11A2, 0x11A3]   # READ_ONLY ... NONE
    assert (result["b"], result["c"]) == (8.0, 4.0)


_IMAGE_FROM_BUFFER = r"""
ctx = cl.Context([device])
queue = cl.CommandQueue(ctx)
mf = cl.mem_flags
w, h, pitch_pixels = 5, 4, 8                  # rows 8 pixels apart: a pitch of the host's
rng = np.random.default_rng(3)
rows = rng.random((h, pitch_pixels, 4)).astype(np.float32)
buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=rows)
fmt = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.FLOAT)
def image(shape, pitch):
    desc = cl.ImageDescriptor()
    desc.image_type = cl.mem_object_type.IMAGE2D
    desc.shape = shape
    desc.pitches = (pitch, 0)
    desc.buffer = buf
    return cl.Image(ctx, mf.READ_WRITE, fmt, desc=desc)
img = image((w, h), pitch_pixels * 16)
prg = cl.Program(ctx, '''
__kernel void scale(read_only image2d_t src, __global float4 *out, int w) {
    int x = get_global_id(0), y = get_global_id(1);
    out[y * w + x] = 2 * read_imagef(src, (int2)(x, y));
}
__kernel void mark(write_only image2d_t dst) {
    int x = get_global_id(0), y = get_global_id(1);
    write_imagef(dst, (int2)(x, y), (float4)(x, y, -1, 7));
}''').build()
out_buf = cl.Buffer(ctx, mf.WRITE_ONLY, w * h * 16)
prg.scale(queue, (w, h), None, img, out_buf, np.int32(w))
read = np.empty((h, w, 4), np.float32)
cl.enqueue_copy(queue, read, out_buf)
prg.mark(queue, (w, h), None, img)           # written through the image, seen in the buffer
after = np.empty_like(rows)
cl.enqueue_copy(queue, after, buf)
def error(shape, pitch):
    try:
        image(shape, pitch)
    except cl.Error as e:
        return e.code
    return 0
out({"read": float(np.abs(read - 2 * rows[:, :w]).max()),
     "written": after[:, :w].tolist(), "untouched": bool((after[:, w:] == rows[:, w:]).all()),
     "extension": "cl_khr_image2d_from_buffer" in device.extensions,
     "pitch": img.get_image_info(cl.image_info.ROW_PITCH),
     "buffer": img.get_image_info(cl.image_info.BUFFER) == buf,
     "too_small": error((w, h + 1), pitch_pixels * 16),
     "odd_pitch": error((w, h), pitch_pixels * 16 + 4)})
"""


@pytest.mark.parametrize("version", ["1.2", "3.0"])
def test_a_2d_image_made_from_a_buffer_shares_its_rows(version):
    """cl_khr_image2d_from_buffer (2.0's core): the image reads and writes the buffer's
    storage with the host's row pitch (PoCL 3.1's CPU device does not offer it: NumPy is
    the reference; the device's alignments for it, test_icd_platform.py's clinfo)."""
    result = run_pyopencl(_IMAGE_FROM_BUFFER, version=version)
    assert result["read"] == 0.0
    want = [[[x, y, -1, 7] for x in range(5)] for y in range(4)]
    assert result["written"] == want and result["untouched"]
    assert result["extension"] and result["pitch"] == 8 * 16 and result["buffer"]
    # a buffer smaller than pitch x height: CL_INVALID_IMAGE_SIZE; a pitch not a whole
    # number of pixels: CL_INVALID_IMAGE_DESCRIPTOR
    assert (result["too_small"], result["odd_pitch"]) == (-40, -65)


_ELEMENT_SIZES = r"""
ctx = cl.Context([device])
queue = cl.CommandQueue(ctx)
mf, co, ct = cl.mem_flags, cl.channel_order, cl.channel_type
sizes = {}
for f in cl.get_supported_image_formats(ctx, mf.READ_WRITE, cl.mem_object_type.IMAGE2D):
    img = cl.Image(ctx, mf.READ_WRITE, f, shape=(4, 3))
    sizes[f"{f.channel_order:#x} {f.channel_data_type:#x}"] = img.element_size
# an Rx image holds one float a pixel: written by the host, read by a kernel as (r, 0, 0, 1)
pixels = np.arange(12, dtype=np.float32).reshape(3, 4) + 0.5
rx = cl.Image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, cl.ImageFormat(co.Rx, ct.FLOAT),
              shape=(4, 3), hostbuf=pixels)
got = cl.Buffer(ctx, mf.WRITE_ONLY, 12 * 16)
prg = cl.Program(ctx, '''
__kernel void k(read_only image2d_t im, __global float4 *out) {
    int x = get_global_id(0), y = get_global_id(1);
    out[y * 4 + x] = read_imagef(im, (int2)(x, y));
}''').build()
prg.k(queue, (4, 3), None, rx, got)
back = np.empty((12, 4), np.float32)
cl.enqueue_copy(queue, back, got)
out({"sizes": sizes, "read": back.tolist()})
"""


def test_an_x_order_stores_what_its_order_without_x_stores():
    """CL_Rx and CL_RGx keep CL_R's and CL_RG's channels (the API spec's format table
    lists them together; the CTS's clGetInfo and PoCL agree), so their element size is
    CL_R's and CL_RG's: every 2D format's CL_IMAGE_ELEMENT_SIZE, held to the channel
    counts and sizes of the spec's tables, and an Rx image's pixels as the host wrote them."""
    result = run_pyopencl(_ELEMENT_SIZES)
    channels = {0x10B0: 1, 0x10B1: 1, 0x10B2: 2, 0x10B3: 2, 0x10B5: 4, 0x10B6: 4,
                0x10B7: 4, 0x10B8: 1, 0x10B9: 1, 0x10BA: 1, 0x10BB: 2}
    bytes_ = {0x10D0: 1, 0x10D1: 2, 0x10D2: 1, 0x10D3: 2, 0x10D7: 1, 0x10D8: 2, 0x10D9: 4,
              0x10DA: 1, 0x10DB: 2, 0x10DC: 4, 0x10DD: 2, 0x10DE: 4}
    packed = {0x10D4: 2, 0x10D5: 2, 0x10D6: 4}       # 565, 555, 101010: one word a pixel
    assert any(k.startswith("0x10ba ") for k in result["sizes"])
    for key, size in result["sizes"].items():
        order, ctype = (int(v, 16) for v in key.split())
        want = packed[ctype] if ctype in packed else channels[order] * bytes_[ctype]
        assert size == want, key
    want = [[x + 0.5, 0, 0, 1] for x in range(12)]
    assert result["read"] == want
