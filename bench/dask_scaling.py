"""Strong and weak scaling of cl2c.dask on one machine: a time-stepped 5-point stencil
(halos every step) over LocalClusters of 1, 2, 4, ... worker processes of one thread each,
against the same kernel run whole in one process on all the threads, and against Dask's
own map_overlap with NumPy on the same cluster.

    python bench/dask_scaling.py --workers 1 2 4 8 16 --rows 8192 --cols 8192 --steps 4

Strong scaling keeps the array; weak scaling gives each worker --rows rows. Everything in
memory (the out-of-core run is examples/dask_out_of_core/heat.py). us/chunk: the time
beyond the whole launch's (scaled from all the machine's threads to the workers'), per
chunk a worker ran. The first cluster's results are compared with map_overlap's. Prints a
table and, with --json FILE, writes the numbers.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

import cl2c
import cl2c.dask as cd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import measured_commit, portable  # noqa: E402
from compilers import machine  # noqa: E402

SOURCE = r"""
__kernel void heat(__global const float *u, __global float *next, float alpha) {
    size_t x = get_global_id(0), y = get_global_id(1);
    size_t w = get_global_size(0), h = get_global_size(1), i = y * w + x;
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) { next[i] = u[i]; return; }
    next[i] = u[i] + alpha * (u[i - 1] + u[i + 1] + u[i - w] + u[i + w] - 4 * u[i]);
}"""
ALPHA = 0.2


def numpy_step(a):
    b = a.copy()
    b[1:-1, 1:-1] = a[1:-1, 1:-1] + ALPHA * (a[1:-1, :-2] + a[1:-1, 2:] + a[:-2, 1:-1] +
                                             a[2:, 1:-1] - 4 * a[1:-1, 1:-1])
    return b


def overlap_step(block):
    """map_overlap's block: its halo rows and columns come with it (boundary 'none' at the
    array's edges keeps its edge rows fixed, as the kernel does)."""
    return numpy_step(block)


def cl2c_steps(prg, x, steps, shape):
    for _ in range(steps):
        (x,) = cd.map_kernel(prg.heat, (shape[1], shape[0]), None, cd.rows(x, halo=1),
                             cd.empty(shape, np.float32), ALPHA)
    return x


def dask_steps(x, steps):
    for _ in range(steps):
        x = x.map_overlap(overlap_step, depth={0: 1, 1: 0}, boundary="none",
                          dtype=np.float32)
    return x


def best_fresh(steps_of, shape, args) -> float:
    """The best of --repeat runs of the steps, each over an input of its own seed: the
    same graph persisted again finds its keys' results still held by the cluster."""
    import dask.array as da
    import distributed
    times = []
    for seed in range(1, args.repeat + 1):
        x = da.random.default_rng(seed).random(shape, chunks=(args.chunk_rows, args.cols),
                                               dtype=np.float32).persist()
        distributed.wait(x)
        y = steps_of(x)
        t = time.perf_counter()
        done = y.persist()
        distributed.wait(done)
        times.append(time.perf_counter() - t)
        del x, y, done
    return min(times)


def best_of(f, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4, 8, 16])
    ap.add_argument("--rows", type=int, default=4096)
    ap.add_argument("--cols", type=int, default=4096)
    ap.add_argument("--chunk-rows", type=int, default=256)
    ap.add_argument("--steps", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    import dask.array as da
    import distributed
    prg = cl2c.Program(SOURCE).build().wait_optimised()
    import dask
    results = {"commit": measured_commit(), "date": time.strftime("%Y-%m-%d"),
               "machine": f"{machine()}, Dask {dask.__version__}, "
                          f"distributed {distributed.__version__}",
               "cpus": os.cpu_count(), "args": portable(vars(args)), "runs": []}

    def whole_run(rows):
        a = np.random.default_rng(0).random((rows, args.cols), dtype=np.float32)
        b = np.empty_like(a)

        def run():
            u, v = a, b
            for _ in range(args.steps):
                prg.heat((args.cols, rows), None, u, v, ALPHA)
                u, v = v, u
        return best_of(run, args.repeat)

    whole = whole_run(args.rows)
    print(f"whole, one process, {os.cpu_count()} threads: {args.rows} x {args.cols}, "
          f"{args.steps} steps: {whole * 1e3:.1f} ms")
    results["whole"] = whole
    print(f"{'workers':>7} {'scaling':>7} {'rows':>7} {'chunks':>6} {'cl2c.dask ms':>12} "
          f"{'map_overlap ms':>14} {'graph ms':>8} {'us/chunk':>8}")
    for n in args.workers:
        with distributed.LocalCluster(n_workers=n, threads_per_worker=1,
                                      dashboard_address=":0") as cluster, \
                distributed.Client(cluster) as client:
            for scaling, rows in (("strong", args.rows), ("weak", args.rows * n)):
                shape = (rows, args.cols)
                x = da.random.default_rng(0).random(shape, chunks=(args.chunk_rows, args.cols),
                                                    dtype=np.float32).persist()
                distributed.wait(x)
                t = time.perf_counter()
                y = cl2c_steps(prg, x, args.steps, shape)
                graph = time.perf_counter() - t
                if n == args.workers[0] and scaling == "strong":
                    got, want = client.compute([y, dask_steps(x, args.steps)], sync=True)
                    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
                ours = best_fresh(lambda x: cl2c_steps(prg, x, args.steps, shape), shape,
                                  args)
                theirs = best_fresh(lambda x: dask_steps(x, args.steps), shape, args)
                chunks = len(x.chunks[0]) * args.steps
                ideal = whole_run(rows) if scaling == "weak" else whole
                per_chunk = max(0.0, ours - ideal * (os.cpu_count() or 1) / n) / chunks * n
                print(f"{n:>7} {scaling:>7} {rows:>7} {chunks:>6} {ours * 1e3:>12.1f} "
                      f"{theirs * 1e3:>14.1f} {graph * 1e3:>8.1f} {per_chunk * 1e6:>8.0f}")
                results["runs"].append({"workers": n, "scaling": scaling, "rows": rows,
                                        "chunks": chunks, "cl2c_dask": ours,
                                        "map_overlap": theirs, "graph": graph,
                                        "whole_same_size": ideal})
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
