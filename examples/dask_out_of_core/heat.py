"""Out of core: a time-stepped 5-point heat stencil over an array larger than the workers'
memory, read from disk in chunks, stepped with halos every step by cl2c.dask, reduced, and
written back to disk.

    python examples/dask_out_of_core/heat.py --rows 32768 --cols 16384 --chunk-rows 128 \
        --steps 4 --workers 4 --memory-limit 512MiB --dir /tmp/heat

(a 2 GiB array, four times a worker's limit: 23 s on 16 cores; docs/guides/dask.md.) Give a
worker room for a dozen chunks or more, or Dask's nanny kills it.

The store is Zarr where it is installed (pip install zarr), a NumPy .npy file read through a
memory map otherwise (both are chunked reads Dask does out of core). --check compares with
NumPy (small sizes only: NumPy holds the whole array).
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

import cl2c
import cl2c.dask as cd

SOURCE = r"""
__kernel void heat(__global const float *u, __global float *next, float alpha) {
    size_t x = get_global_id(0), y = get_global_id(1);
    size_t w = get_global_size(0), h = get_global_size(1), i = y * w + x;
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) { next[i] = u[i]; return; }
    next[i] = u[i] + alpha * (u[i - 1] + u[i + 1] + u[i - w] + u[i + w] - 4 * u[i]);
}
__kernel void row_sums(__global const float *u, __global float *sums, __local float *s,
                       uint w) {
    /* one group a row of w values, 256 work-items: the row's sum, a partial per group */
    size_t l = get_local_id(0);
    size_t row = get_global_id(1);
    float acc = 0;
    for (size_t x = l; x < w; x += get_local_size(0)) acc += u[row * w + x];
    s[l] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t k = get_local_size(0) / 2; k > 0; k /= 2) {
        if (l < k) s[l] += s[l + k];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) sums[get_group_id(1)] = s[0];
}
"""
ALPHA = 0.2


class NpyFile:
    """A .npy file that a worker opens itself, for each block it reads or writes (a NumPy
    memory map pickles as a copy of its data: a worker's writes would be lost)."""

    def __init__(self, path: Path, shape=None):
        self.path = str(path)
        if shape is not None:
            np.lib.format.open_memmap(self.path, mode="w+", dtype=np.float32, shape=shape)
        m = np.load(self.path, mmap_mode="r")
        self.shape, self.dtype, self.ndim = m.shape, m.dtype, m.ndim

    def __getitem__(self, key):
        return np.array(np.load(self.path, mmap_mode="r")[key])

    def __setitem__(self, key, value):
        m = np.load(self.path, mmap_mode="r+")
        m[key] = value
        m.flush()


def store(kind: str, path: Path, shape, chunk_rows: int, mode: str):
    """An on-disk array: (a Dask array reading it, or None for a new one; what da.store
    writes into)."""
    import dask.array as da
    if kind == "zarr":
        import zarr
        if mode == "w":
            z = zarr.open(str(path), mode="w", shape=shape, chunks=(chunk_rows, shape[1]),
                          dtype=np.float32)
            return None, z
        z = zarr.open(str(path), mode="r")
        return da.from_zarr(z), z
    if mode == "w":
        return None, NpyFile(path, shape)
    f = NpyFile(path)
    return da.from_array(f, chunks=(chunk_rows, shape[1]), asarray=False), f


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=4096)
    ap.add_argument("--cols", type=int, default=4096)
    ap.add_argument("--steps", type=int, default=4)
    ap.add_argument("--chunk-rows", type=int, default=512)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--memory-limit", default="256MiB", help="a worker's")
    ap.add_argument("--threads", type=int, default=None, help="OpenMP threads a chunk")
    ap.add_argument("--dir", type=Path, default=Path("heat-data"))
    ap.add_argument("--check", action="store_true", help="compare with NumPy (small sizes)")
    args = ap.parse_args()
    import dask.array as da
    import distributed
    try:
        import zarr  # noqa: F401
        kind, suffix = "zarr", ".zarr"
    except ImportError:
        kind, suffix = "npy", ".npy"
    args.dir.mkdir(parents=True, exist_ok=True)
    shape = (args.rows, args.cols)
    nbytes = args.rows * args.cols * 4
    print(f"{args.rows} x {args.cols} float32 ({nbytes / 2**20:.0f} MiB) in {kind}, chunks "
          f"of {args.chunk_rows} rows, {args.steps} steps, {args.workers} workers of "
          f"{args.memory_limit}")
    prg = cl2c.Program(SOURCE).build()
    with distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1,
                                  memory_limit=args.memory_limit,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        t = time.perf_counter()
        _, target = store(kind, args.dir / f"input{suffix}", shape, args.chunk_rows, "w")
        field = da.random.default_rng(1).random(shape, chunks=(args.chunk_rows, args.cols),
                                                dtype=np.float32)
        da.store(field, target, lock=False, compute=True)
        print(f"input written in {time.perf_counter() - t:.2f} s")
        u, _ = store(kind, args.dir / f"input{suffix}", shape, args.chunk_rows, "r")
        t = time.perf_counter()
        for _ in range(args.steps):           # lazy: one graph of every step, halos each
            (u,) = cd.map_kernel(prg.heat, (args.cols, args.rows), None, cd.rows(u, halo=1),
                                 cd.empty(shape, np.float32), ALPHA, threads=args.threads)
        (sums,) = cd.map_kernel(prg.row_sums, (256, args.rows), (256, 1), cd.rows(u),
                                cd.groups(cd.empty(args.rows, np.float32)),
                                cl2c.LocalMemory(1024), args.cols, threads=args.threads)
        _, out = store(kind, args.dir / f"output{suffix}", shape, args.chunk_rows, "w")
        stored = da.store(u, out, lock=False, compute=False)
        total = client.compute([stored, sums.sum(dtype=np.float64)])
        _, total = client.gather(total)
        seconds = time.perf_counter() - t
        print(f"{args.steps} steps, the sum and the output written in {seconds:.2f} s "
              f"({args.steps * nbytes / seconds / 2**30:.2f} GiB of steps a second); "
              f"sum {total:.6g}")
    if args.check:
        a = store(kind, args.dir / f"input{suffix}", shape, args.chunk_rows, "r")[1][:]
        assert a.std() > 0.2, "the input is the random field"
        for _ in range(args.steps):
            b = a.copy()
            b[1:-1, 1:-1] = a[1:-1, 1:-1] + ALPHA * (a[1:-1, :-2] + a[1:-1, 2:] +
                                                     a[:-2, 1:-1] + a[2:, 1:-1] -
                                                     4 * a[1:-1, 1:-1])
            a = b
        got = store(kind, args.dir / f"output{suffix}", shape, args.chunk_rows, "r")[1][:]
        np.testing.assert_allclose(got, a, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(total, a.sum(dtype=np.float64), rtol=1e-4)
        print("the same as NumPy")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
