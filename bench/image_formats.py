"""8-bit images against float ones (issue 37, item 5): the OpenCL Programming Guide's
Sobel filter (kernels/gpu/guide_sobel.cl, as printed) on the same 1920x1080 RGBA
picture stored as CL_UNORM_INT8 and as CL_FLOAT channels, both through cl2c.

    PYTHONPATH=. python bench/image_formats.py [--size W H] [--reps 15]

The two launches alternate; prints each one's median and range and the ratio of the
medians (8-bit / float; the goal: within 1.3x), after checking the 8-bit output against
the float one rounded as write_imagef rounds (at most 1 apart: the float image holds
the 8-bit values divided by 255, rounded). The 8-bit Sobel against hand-written C is
bench.py's `--corpus gpu --only sobel_rgba`."""
from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

import numpy as np

import cl2c

KERNEL = Path(__file__).resolve().parent / "kernels" / "gpu" / "guide_sobel.cl"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, nargs=2, default=[1920, 1080], metavar=("W", "H"))
    ap.add_argument("--reps", type=int, default=15)
    args = ap.parse_args()
    w, h = args.size
    prg = cl2c.Program.from_file(KERNEL).build().wait_optimised()
    pic = np.random.default_rng(1).integers(0, 256, (h, w, 4), dtype=np.uint8)
    grid = ((w + 15) // 16 * 16, (h + 15) // 16 * 16)
    images = {"8-bit": (cl2c.Image(pic, "RGBA", "UNORM_INT8"),
                        cl2c.Image(np.zeros_like(pic), "RGBA", "UNORM_INT8")),
              "float": (cl2c.Image(pic.astype(np.float32) / np.float32(255)),
                        cl2c.Image(np.zeros(pic.shape, np.float32)))}
    times: dict[str, list[float]] = {k: [] for k in images}
    for rep in range(args.reps + 1):               # the first: a warm-up
        for name in (list(images) if rep % 2 else list(images)[::-1]):
            src, dst = images[name]
            t0 = time.perf_counter()
            prg.sobel_rgb(grid, (16, 16), src, dst)
            if rep:
                times[name].append(time.perf_counter() - t0)
    eight = images["8-bit"][1].get().astype(np.int32)
    flt = np.clip(np.rint(images["float"][1].get() * 255), 0, 255).astype(np.int32)
    worst = int(np.abs(eight - flt).max())
    if worst > 1:
        raise SystemExit(f"the 8-bit and float outputs differ by {worst} (allowed: 1)")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Guide Sobel, {w}x{h} RGBA, {os.cpu_count()} CPUs, load {load:.1f}, "
          f"{args.reps} alternating repetitions")
    med = {}
    for name, ts in times.items():
        med[name] = statistics.median(ts)
        print(f"  {name:6} {med[name] * 1e3:8.1f} ms  [{min(ts) * 1e3:.1f}-{max(ts) * 1e3:.1f}]")
    print(f"  8-bit / float: {med['8-bit'] / med['float']:.2f}x")


if __name__ == "__main__":
    main()
