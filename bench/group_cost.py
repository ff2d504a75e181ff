#!/usr/bin/env python3
"""What one work-group costs beyond its work-items: 2^21 work-items in groups of 16 (or
--local), each storing its element to __local memory, a barrier, and a load of a
neighbour's: the per-group setup (the group's description, fault containment, its
__local block) is most of the time.

    python bench/group_cost.py [--local 16] [--log2 21] [--reps 60]

Prints the best, first-quartile and median time of a launch and the nanoseconds a group
takes at the median, on the threads OMP_NUM_THREADS gives. cl2c only: PoCL and Intel
compile one function per group size and run it per group, which the bench's stencil
with 8x8 groups compares already.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

SOURCE = r"""
__kernel void tiny(__global float *a) {
    __local float l[LS];
    int i = get_global_id(0), j = get_local_id(0);
    l[j] = a[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    a[i] = l[LS - 1 - j] + 1.0f;
}"""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--local", type=int, default=16, help="work-items a group (16)")
    ap.add_argument("--log2", type=int, default=21, help="log2 of the work-items (21)")
    ap.add_argument("--reps", type=int, default=60, help="launches timed (60)")
    args = ap.parse_args(argv)
    import cl2c
    kernel = cl2c.Program(SOURCE, f"-DLS={args.local}").build().wait_optimised().tiny
    n = 1 << args.log2
    a = np.zeros(n, np.float32)
    for _ in range(3):
        kernel((n,), (args.local,), a)
    times = []
    for _ in range(args.reps):
        start = time.perf_counter()
        kernel((n,), (args.local,), a)
        times.append(time.perf_counter() - start)
    times.sort()
    groups = n // args.local
    best, q1, median = times[0], times[len(times) // 4], times[len(times) // 2]
    print(f"{groups} groups of {args.local}: best {best * 1e3:.3f} ms, first quartile "
          f"{q1 * 1e3:.3f} ms, median {median * 1e3:.3f} ms: "
          f"{median / groups * 1e9:.1f} ns a group")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
