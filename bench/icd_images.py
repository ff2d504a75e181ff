#!/usr/bin/env python3
"""Image kernels through the cl2c OpenCL platform, against ``cl2c.Program`` (cl2c's own
API) and PoCL on the same machine: the Programming Guide's chapter 8 Gaussian filter
(3x3, a host's sampler, RGBA UNORM_INT8) and a bilinear resampling (normalized
coordinates, CLK_FILTER_LINEAR, RGBA float) on a SIZE x SIZE image, the median of
launches waited one by one.

    python bench/icd_images.py [--size 2048] [--repeat 10]

Each OpenCL platform runs in a child process of its own (PyOpenCL picks its ICDs at
import); cl2c's through ``OCL_ICD_VENDORS`` set to ``cl2c --icd``'s folder.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

SOURCE = """
__kernel void gaussian_filter(__read_only image2d_t src, __write_only image2d_t dst,
                              sampler_t sampler, int width, int height) {
    float kernelWeights[9] = {1.0f, 2.0f, 1.0f, 2.0f, 4.0f, 2.0f, 1.0f, 2.0f, 1.0f};
    int2 start = (int2)(get_global_id(0) - 1, get_global_id(1) - 1);
    int2 end = (int2)(get_global_id(0) + 1, get_global_id(1) + 1);
    int2 at = (int2)(get_global_id(0), get_global_id(1));
    if (at.x < width && at.y < height) {
        int weight = 0;
        float4 color = (float4)(0.0f, 0.0f, 0.0f, 0.0f);
        for (int y = start.y; y <= end.y; y++)
            for (int x = start.x; x <= end.x; x++) {
                color += read_imagef(src, sampler, (int2)(x, y)) * (kernelWeights[weight] / 16.0f);
                weight += 1;
            }
        write_imagef(dst, at, color);
    }
}
__kernel void resample(__read_only image2d_t src, __write_only image2d_t dst, sampler_t s) {
    int x = get_global_id(0), y = get_global_id(1);
    float2 at = (float2)((x + 0.5f) / get_global_size(0) * 0.75f + 0.1f,
                         (y + 0.5f) / get_global_size(1) * 0.75f + 0.1f);
    write_imagef(dst, (int2)(x, y), read_imagef(src, s, at));
}
"""

CHILD = r"""
import json, statistics, sys, time
import numpy as np
import pyopencl as cl
name, size, repeat, source = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
plats = [p for p in cl.get_platforms() if name in p.name]
if not plats:
    print(json.dumps(None)); sys.exit(0)
ctx = cl.Context(plats[0].get_devices())
queue = cl.CommandQueue(ctx)
prg = cl.Program(ctx, source).build()
mf = cl.mem_flags
rng = np.random.default_rng(1)
u8 = rng.integers(0, 256, (size, size, 4), dtype=np.uint8)
f32 = rng.random((size, size, 4), dtype=np.float32)
fmt8 = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNORM_INT8)
fmtf = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.FLOAT)
src8 = cl.Image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt8, (size, size), hostbuf=u8)
dst8 = cl.Image(ctx, mf.WRITE_ONLY, fmt8, (size, size))
srcf = cl.Image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, fmtf, (size, size), hostbuf=f32)
dstf = cl.Image(ctx, mf.WRITE_ONLY, fmtf, (size, size))
edge = cl.Sampler(ctx, False, cl.addressing_mode.CLAMP_TO_EDGE, cl.filter_mode.NEAREST)
linear = cl.Sampler(ctx, True, cl.addressing_mode.CLAMP, cl.filter_mode.LINEAR)
runs = {"gaussian": lambda: prg.gaussian_filter(queue, (size, size), None, src8, dst8, edge,
                                                np.int32(size), np.int32(size)),
        "resample": lambda: prg.resample(queue, (size, size), None, srcf, dstf, linear)}
result = {}
for key, launch in runs.items():
    launch().wait()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        launch().wait()
        times.append(time.perf_counter() - t)
    result[key + " ms"] = statistics.median(times) * 1e3
print(json.dumps(result))
"""


def own_api(size: int, repeat: int) -> dict:
    import cl2c
    prg = cl2c.Program(SOURCE).build().wait_optimised()
    rng = np.random.default_rng(1)
    src8 = cl2c.Image(rng.integers(0, 256, (size, size, 4), dtype=np.uint8), "RGBA",
                      "UNORM_INT8")
    dst8 = cl2c.Image(np.zeros((size, size, 4), np.uint8), "RGBA", "UNORM_INT8")
    srcf = cl2c.Image(rng.random((size, size, 4), dtype=np.float32))
    dstf = cl2c.Image(np.zeros((size, size, 4), np.float32))
    edge = cl2c.Sampler(False, "CLAMP_TO_EDGE", "NEAREST")
    linear = cl2c.Sampler(True, "CLAMP", "LINEAR")
    runs = {"gaussian": lambda: prg.gaussian_filter((size, size), None, src8, dst8, edge,
                                                    np.int32(size), np.int32(size)),
            "resample": lambda: prg.resample((size, size), None, srcf, dstf, linear)}
    result = {}
    for key, launch in runs.items():
        launch()
        times = []
        for _ in range(repeat):
            t = time.perf_counter()
            launch()
            times.append(time.perf_counter() - t)
        result[key + " ms"] = statistics.median(times) * 1e3
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, default=2048)
    ap.add_argument("--repeat", type=int, default=10)
    args = ap.parse_args()
    from cl2c.platform import icd_folder
    cl2c_env = dict(os.environ, OCL_ICD_VENDORS=str(icd_folder()))
    pocl_env = {k: v for k, v in os.environ.items() if k != "OCL_ICD_VENDORS"}
    rows = {"cl2c.Program": own_api(args.size, args.repeat)}
    for label, name, env in (("cl2c platform", "cl2c", cl2c_env),
                             ("PoCL", "Portable Computing Language", pocl_env)):
        proc = subprocess.run([sys.executable, "-c", CHILD, name, str(args.size),
                               str(args.repeat), SOURCE], env=env, capture_output=True,
                              text=True)
        rows[label] = json.loads(proc.stdout.splitlines()[-1]) if proc.returncode == 0 \
            else f"failed: {proc.stderr.strip()[-300:]}"
    print(f"{args.size}x{args.size} images, median of {args.repeat}")
    for label, result in rows.items():
        print(f"  {label:14} {result}")


if __name__ == "__main__":
    main()
