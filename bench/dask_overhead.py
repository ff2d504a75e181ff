"""What cl2c.dask adds to a launch: the graph's size and build time for a thousand chunks,
and the time per chunk beyond the kernel's own work (scheduler, task, rebasing), on Dask's
synchronous scheduler (one thread: the least a chunk costs) and, with --cluster N, on a
distributed.LocalCluster of N worker processes of one thread each.

    python bench/dask_overhead.py [--chunks 1000] [--cluster 2] [--json FILE]

With --json FILE it writes the numbers, with the commit measured and the machine.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

import cl2c
import cl2c.dask as cd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import measured_commit, portable  # noqa: E402
from compilers import machine  # noqa: E402

SOURCE = "__kernel void inc(__global const float *a, __global float *b) " \
         "{ size_t i = get_global_id(0); b[i] = a[i] + 1; }"


def best(f, repeat=3):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chunks", type=int, default=1000)
    ap.add_argument("--per-chunk", type=int, default=1024, help="work-items a chunk")
    ap.add_argument("--cluster", type=int, default=0, help="worker processes (0: none)")
    ap.add_argument("--threads", type=int, default=None,
                    help="OpenMP threads a chunk's launch (map_kernel's threads=)")
    ap.add_argument("--json", default=None, help="write the numbers to this file")
    args = ap.parse_args()
    import dask
    results = {"commit": measured_commit(), "date": time.strftime("%Y-%m-%d"),
               "machine": f"{machine()}, Dask {dask.__version__}",
               "args": portable(vars(args))}
    prg = cl2c.Program(SOURCE).build().wait_optimised()
    n = args.chunks * args.per_chunk
    a = np.random.default_rng(0).random(n, dtype=np.float32)
    b = np.zeros_like(a)
    prg.inc(n, 256, a, b)
    whole = best(lambda: prg.inc(n, 256, a, b))
    one = best(lambda: prg.inc(n, 256, a, b, groups=range(0, args.per_chunk // 256)))
    t = time.perf_counter()
    (out,) = cd.map_kernel(prg.inc, n, 256, a, cd.empty(n, np.float32),
                           chunks=args.per_chunk, threads=args.threads)
    build = time.perf_counter() - t
    tasks = len(out.__dask_graph__())
    print(f"{args.chunks} chunks of {args.per_chunk} work-items: graph of {tasks} tasks "
          f"built in {build * 1e3:.1f} ms")
    print(f"whole launch {whole * 1e6:.0f} us; one chunk's part launched directly "
          f"{one * 1e6:.1f} us")
    with dask.config.set(scheduler="synchronous"):
        run = best(lambda: out.compute(), repeat=2)
    print(f"synchronous scheduler: {run * 1e3:.1f} ms, "
          f"{(run - whole) / args.chunks * 1e6:.0f} us a chunk beyond the kernel's work")
    results.update(tasks=tasks, graph_s=build, whole_s=whole, one_chunk_s=one,
                   synchronous_s=run)
    if args.cluster:
        import distributed
        with distributed.LocalCluster(n_workers=args.cluster, threads_per_worker=1,
                                      dashboard_address=":0") as cluster, \
                distributed.Client(cluster) as client:
            client.compute(out).result()            # the program reaches the workers
            # each run over an input of its own: the same keys computed again may find
            # their results still held by the cluster
            times = []
            for seed in (1, 2):
                fresh = np.random.default_rng(seed).random(n, dtype=np.float32)
                (again,) = cd.map_kernel(prg.inc, n, 256, fresh, cd.empty(n, np.float32),
                                         chunks=args.per_chunk, threads=args.threads)
                t = time.perf_counter()
                client.compute(again).result()
                times.append(time.perf_counter() - t)
            run = min(times)
        print(f"LocalCluster of {args.cluster} workers: {run * 1e3:.1f} ms, "
              f"{(run - whole) / args.chunks * 1e6:.0f} us a chunk (wall; "
              f"{args.cluster} chunks at a time)")
        results["cluster_s"] = run
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
