"""Launch every kernel of one .cl file with arguments made from its interface, and print
what the launches computed (a digest of every buffer after it) as JSON into OUT (not
stdout: kernels may printf).

tests/test_build_paths.py runs this in fresh processes, one for each way a build can go
(translate and compile, a hit found after translating, a hit found from the source
alone), and compares what they print. Before the launches it dirties the C heap with a
pattern the caller picks, as a process that did other work first would: memory that a
kernel reads before anything wrote it must not make the paths differ.

    python build_paths_run.py FILE.cl PATTERN OUT [OPTIONS]
"""
from __future__ import annotations

import ctypes
import hashlib
import json
import sys
import warnings

import numpy as np

import cl2c
from cl2c import cltypes, types as ty
from cl2c.launch_layout import dtype_for

ELEMENTS = 65536          # a buffer's elements, with as many on each side of it
# The launch: one dimension (a kernel written for one, launched in two, would race with
# itself), 16 groups; a required work-group size replaces the local size.
GLOBAL = (256,)
LOCAL = (16,)


def dirty_heap(pattern: int) -> None:
    """Fill and free blocks of the C heap, so that memory malloc hands out next holds
    ``pattern`` where it would otherwise hold whatever the process left."""
    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    libc.malloc.argtypes = [ctypes.c_size_t]
    libc.free.argtypes = [ctypes.c_void_p]
    blocks = []
    for size in (1 << s for s in range(6, 17)):
        for _ in range(4):
            p = libc.malloc(size)
            ctypes.memset(p, pattern, size)
            blocks.append(p)
    _kept.append(libc.malloc(64))    # the heap's top stays here: freed, the blocks
    for p in blocks:                  # are reused, not given back to the system
        libc.free(p)


_kept: list = []


def argument(arg, rng):
    """A value for one argument, or None where this harness makes none (images)."""
    if arg.kind == "local":
        return cl2c.LocalMemory(4096)
    if arg.kind in ("image", "sampler"):
        return None
    t = arg.type.pointee if arg.kind == "buffer" else arg.type
    dt = dtype_for(t)
    if dt is None:                            # records and the like: their bytes
        size = ty.type_size(t) if arg.kind == "value" else ty.type_size(t) * 3 * ELEMENTS
        return np.zeros(size, np.uint8) if arg.kind == "buffer" else bytes(size)
    count = 3 * ELEMENTS if arg.kind == "buffer" else 1
    base = np.dtype(cltypes.vec_type_to_scalar_and_count.get(dt, (dt, 1))[0])
    lanes = dt.itemsize // base.itemsize      # a 3-vector's padding too
    if base.kind == "f":
        flat = rng.uniform(0.0, 1.0, count * lanes).astype(base)
    else:
        flat = rng.integers(1, 8, count * lanes).astype(base)   # no 0: while (n != 1)
    if arg.kind == "buffer":
        return flat.view(dt)
    return flat.view(dt)[0]


def middle(value):
    """The buffer a kernel gets: the middle third of the storage, so that an index a
    little past either end, which these arguments may well make, stays inside it."""
    if isinstance(value, np.ndarray):
        return value[len(value) // 3:2 * len(value) // 3]
    return value


def launch_all(prg, pattern: int) -> dict:
    results = {}
    rng = np.random.default_rng(7)
    for name in prg.kernel_names:
        kernel = prg.kernel(name)
        iface = kernel.interface
        args = [argument(a, rng) for a in iface.args]
        if any(v is None for v in args):
            results[name] = "not launched: an image or sampler argument"
            continue
        reqd = iface.reqd_work_group_size
        local = tuple(reqd[:2 if reqd[1] > 1 else 1]) if reqd else LOCAL
        global_ = tuple(l * (16 if i == 0 else 1) for i, l in enumerate(local))
        dirty_heap(pattern)          # last: making the arguments takes memory too
        try:
            kernel(global_, local, *map(middle, args))
        except (cl2c.LaunchError, cl2c.KernelArgError) as e:
            results[name] = f"{type(e).__name__}: {e}"
            continue
        h = hashlib.sha256()
        for a in args:
            if isinstance(a, np.ndarray):
                h.update(a.tobytes())
        results[name] = h.hexdigest()
    return results


def main(path: str, pattern: int, out: str, options: str) -> None:
    dirty_heap(pattern)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        prg = cl2c.Program.from_file(path, options=options).build()
    path_taken = ("translated and compiled" if not prg.from_cache else
                  "translated, then found compiled" if prg._translation is not None else
                  "found from the source")
    results = launch_all(prg, pattern)
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"path": path_taken, "results": results}, f)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else "")
