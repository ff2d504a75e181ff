"""Images against buffers (issue 13): a 5x5 Gaussian blur of an RGBA float picture,
read through images with a constant clamp-to-edge sampler, and the same blur on
buffers with the clamp written out (kernels/image_blur.cl), both translated by cl2c.

    PYTHONPATH=. python bench/image_blur.py [--size 4096] [--reps 5]

Prints the best time of each and their ratio (images / buffers; the goal: within 2x),
after checking that the two outputs agree. Not a case of bench.py, whose contenders
pass NumPy arrays only (an image is a cl2c.Image here, a cl.Image in PyOpenCL)."""
from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np

import cl2c

HERE = Path(__file__).resolve().parent


def best(f, reps: int) -> float:
    f()                                       # warm-up: threads, pages
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, default=4096)
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args()
    n = args.size
    prg = cl2c.Program.from_file(HERE / "kernels" / "image_blur.cl").build().wait_optimised()
    rng = np.random.default_rng(1)
    pic = rng.random((n, n, 4), dtype=np.float32)
    src, dst = cl2c.Image(pic), cl2c.Image(np.zeros_like(pic))
    out = np.zeros_like(pic)
    w = np.int32(n)
    t_image = best(lambda: prg.blur_image((n, n), None, src, dst), args.reps)
    t_buffer = best(lambda: prg.blur_buffer((n, n), None, pic, out, w, w), args.reps)
    np.testing.assert_allclose(dst.get(), out, rtol=1e-6, atol=1e-6)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"5x5 Gaussian blur, {n}x{n} RGBA float, {os.cpu_count()} CPUs, load {load:.1f}")
    print(f"  images  (read_imagef, constant sampler): {t_image * 1e3:8.1f} ms")
    print(f"  buffers (clamp written out):             {t_buffer * 1e3:8.1f} ms")
    print(f"  images / buffers: {t_image / t_buffer:.2f}x")


if __name__ == "__main__":
    main()
