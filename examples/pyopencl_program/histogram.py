#!/usr/bin/env python3
"""Brightness statistics of a random 8-bit image with PyOpenCL: a histogram kernel with
local memory and atomics, a contrast stretch, and its negative through pyopencl.array and
an ElementwiseKernel.

An ordinary PyOpenCL program: it runs on whichever OpenCL device create_some_context()
picks (PYOPENCL_CTX chooses one without asking). Each result is checked against NumPy.
"""
import sys

import numpy as np
import pyopencl as cl
import pyopencl.array as cl_array
from pyopencl.elementwise import ElementwiseKernel

BINS = 256

KERNELS = """
// One histogram per work-group in local memory, added to the global one at the end.
__kernel void histogram(__global const uchar *pixels, uint n,
                        __global uint *bins, __local uint *local_bins)
{
    for (uint b = get_local_id(0); b < 256; b += get_local_size(0))
        local_bins[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&local_bins[pixels[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);

    for (uint b = get_local_id(0); b < 256; b += get_local_size(0))
        if (local_bins[b])
            atomic_add(&bins[b], local_bins[b]);
}

// Contrast stretch: each pixel mapped from [lo, hi] to [0, 255].
__kernel void stretch(__global const uchar *src, __global uchar *dst,
                      float lo, float scale)
{
    size_t i = get_global_id(0);
    dst[i] = convert_uchar_sat_rte(((float)src[i] - lo) * scale);
}
"""


def main():
    ctx = cl.create_some_context(interactive=False)
    queue = cl.CommandQueue(ctx)
    device = queue.device
    print(f"device: {device.name} on {device.platform.name}")

    rng = np.random.default_rng(2011)
    height, width = 480, 640
    image = np.clip(rng.normal(100, 25, size=(height, width)), 0, 255).astype(np.uint8)
    n = image.size

    prg = cl.Program(ctx, KERNELS).build()
    mf = cl.mem_flags
    pixels = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=image)
    bins = cl.Buffer(ctx, mf.READ_WRITE, BINS * 4)
    cl.enqueue_fill_buffer(queue, bins, np.uint32(0), 0, BINS * 4)

    group = min(64, device.max_work_group_size)
    groups = 4 * device.max_compute_units
    prg.histogram(queue, (groups * group,), (group,), pixels, np.uint32(n), bins,
                  cl.LocalMemory(BINS * 4))
    histogram = np.empty(BINS, np.uint32)
    cl.enqueue_copy(queue, histogram, bins)
    expected = np.bincount(image.ravel(), minlength=BINS).astype(np.uint32)
    ok = np.array_equal(histogram, expected)
    print(f"histogram of {n} pixels: {'OK' if ok else 'WRONG'}")

    # The darkest and brightest 1 %, from the histogram's cumulative sum.
    cumulative = np.cumsum(histogram)
    lo = int(np.searchsorted(cumulative, n // 100))
    hi = int(np.searchsorted(cumulative, n - n // 100))
    scale = 255.0 / max(hi - lo, 1)
    stretched = cl_array.empty(queue, image.shape, np.uint8)
    prg.stretch(queue, (n,), None, pixels, stretched.data, np.float32(lo),
                np.float32(scale))
    want = np.clip(np.rint((image.astype(np.float32) - np.float32(lo))
                           * np.float32(scale)), 0, 255).astype(np.uint8)
    stretch_ok = np.array_equal(stretched.get(), want)
    print(f"contrast stretch [{lo}, {hi}] -> [0, 255]: {'OK' if stretch_ok else 'WRONG'}")

    # The negative, and the mean brightness from the histogram and from the negative.
    negate = ElementwiseKernel(ctx, "const uchar *src, float *dst",
                               "dst[i] = 255.0f - (float)src[i]", "negate")
    negative = cl_array.empty(queue, image.shape, np.float32)
    negate(stretched, negative)
    inverted = (negative * np.float32(1 / 255)).get()
    mean = float(np.dot(np.arange(BINS), histogram)) / n
    negative_ok = (np.array_equal(inverted, (np.float32(255) - want.astype(np.float32))
                                  * np.float32(1 / 255))
                   and np.isclose(mean, image.mean()))
    print(f"negative of the stretch, mean brightness {mean:.3f}: "
          f"{'OK' if negative_ok else 'WRONG'}")

    return 0 if ok and stretch_ok and negative_ok else 1


if __name__ == "__main__":
    sys.exit(main())
