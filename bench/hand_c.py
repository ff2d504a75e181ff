"""The hand-written C+OpenMP baselines (bench/hand/*.c): compiled by the bench into one
shared library, loaded with ctypes, called like a kernel.

Flags: $CC (default gcc) -O3 -march=native -fopenmp -fno-math-errno; the last is
also in cl2c's flags (OpenCL C has no errno), so both get one-instruction sqrt. On a
CPU with AVX-512, -mprefer-vector-width=512 too, as cl2c has (target.py): GCC tunes
Intel's Xeons for 256-bit vectors, and matmul.c's 8x32 block, written for 32 zmm
registers, then spilled (5x slower single-threaded on a 16-core Xeon, GCC 13).
libmvec supplies the vector expf/logf of blackscholes.c.
"""
from __future__ import annotations

import ctypes
import hashlib
import os
import shlex
import subprocess
import time
from pathlib import Path

import numpy as np

from outputs import output_hooks

HAND_DIR = Path(__file__).resolve().parent / "hand"
CFLAGS = ["-O3", "-march=native", "-fopenmp", "-fno-math-errno", "-fPIC", "-shared",
          "-Wall", "-Wextra"]
LIBS = ["-lmvec", "-lm"]


def compiler() -> list[str]:
    return shlex.split(os.environ.get("CC") or "gcc")


def wide_vectors() -> list[str]:
    """-mprefer-vector-width=512 where -march=native has AVX-512."""
    try:
        macros = subprocess.run([*compiler(), "-march=native", "-dM", "-E", "-x", "c",
                                 os.devnull], capture_output=True, text=True).stdout
    except OSError:
        return []
    return ["-mprefer-vector-width=512"] if "__AVX512F__" in macros else []


def build(out_dir: Path) -> tuple[ctypes.CDLL, dict]:
    """Compile (unless the sources and the command are unchanged) and load."""
    sources = sorted(HAND_DIR.glob("*.c"))
    cmd_base = [*compiler(), *CFLAGS, *wide_vectors()]
    digest = hashlib.sha256(shlex.join(cmd_base + LIBS).encode())
    for f in sorted(HAND_DIR.glob("*.[ch]")):
        digest.update(f.name.encode() + f.read_bytes())
    lib_path = out_dir / f"libbenchhand-{digest.hexdigest()[:12]}.so"
    cmd = [*cmd_base, *map(str, sources), "-o", str(lib_path), *LIBS]
    info = {"command": shlex.join(cmd), "cached": lib_path.exists(), "build_s": 0.0}
    if not lib_path.exists():
        out_dir.mkdir(parents=True, exist_ok=True)
        for old in out_dir.glob("libbenchhand-*.so"):
            old.unlink()
        t = time.perf_counter()
        res = subprocess.run(cmd, capture_output=True, text=True)
        info["build_s"] = time.perf_counter() - t
        if res.returncode != 0:
            raise RuntimeError(f"compiling the hand C failed:\n$ {info['command']}\n"
                               f"{res.stderr}")
        if res.stderr.strip():
            info["warnings"] = res.stderr
    return ctypes.CDLL(str(lib_path)), info


_SCALARS = {np.float32: ctypes.c_float, np.int32: ctypes.c_int, np.uint32: ctypes.c_uint,
            np.int64: ctypes.c_long}


def c_arg(v):
    """A ctypes value for a NumPy array (its data pointer), an image argument (its
    array's) or a NumPy scalar."""
    v = getattr(v, "array", v)
    if isinstance(v, np.ndarray):
        return ctypes.c_void_p(v.ctypes.data)
    if isinstance(v, int):
        return ctypes.c_long(v)
    return _SCALARS[type(v)](v)


class HandContender:
    label = "hand C"

    def __init__(self, out_dir: Path):
        self.lib, self.build_info = build(out_dir)
        self.description = (f"hand-written C+OpenMP, bench/hand/*.c: "
                            f"{shlex.join([*compiler(), *CFLAGS[:4], *wide_vectors()])}")

    def launcher(self, case, args: list):
        name, picks = case.hand
        fn = getattr(self.lib, name)
        fn.restype = None
        cargs = [c_arg(p.value) if isinstance(p, Const) else c_arg(args[p]) for p in picks]
        launches = case.launches

        def run():
            for _ in range(launches):
                fn(*cargs)

        return (run, *output_hooks(case, args))


class Const:
    """A value the hand C function takes that the kernel does not (a size)."""

    def __init__(self, value: int):
        self.value = value
