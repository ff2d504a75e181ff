"""The kernels the bench runs, at the sizes the command line asks: their OpenCL source,
launch sizes, arguments, the hand C function that does the same work, a NumPy
reference where one is cheap, and the bytes or flops a launch moves or does."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from hand_c import Const


class Img:
    """An 8-bit RGBA image argument, (height, width, 4) uint8: a cl2c.Image or cl.Image
    of UNORM_INT8 channels for the kernels, the array itself for the hand C."""

    def __init__(self, array: np.ndarray):
        self.array = array

    def copy(self) -> "Img":
        return Img(self.array.copy())


class Local:
    """A __local pointer argument of nbytes (cl2c.LocalMemory, cl.LocalMemory)."""

    def __init__(self, nbytes: int):
        self.nbytes = nbytes

KERNEL_DIR = Path(__file__).resolve().parent / "kernels"

# Every kernel class, in the order the bench runs and reports them.
CLASSES = ("copy", "triad", "reduce", "matmul", "tiled", "stencil", "histogram", "nbody",
           "blackscholes", "mandelbrot", "launches")


@dataclass
class Case:
    key: str                      # the kernel class (CLASSES)
    label: str                    # shown in the table
    src_file: str                 # in bench/kernels/
    kernel: str
    gsize: tuple
    local: tuple | None
    args: list                    # NumPy arrays and scalars, in the kernel's order
    outs: list                    # indices of the arguments the kernel writes
    hand: tuple                   # (C function, [argument index or Const, ...])
    ref: Callable | None = None   # args -> expected outputs (else cl2c's are the reference)
    rtol: float = 1e-5
    atol: float = 1e-6
    # Compare by the fraction of elements that differ (Mandelbrot: where a compiler fuses
    # a multiply-add, which OpenCL allows, a pixel near the set's edge may escape an
    # iteration sooner or later).
    max_mismatch: float | None = None
    bytes: float | None = None    # memory traffic of one launch (minimum: each array once)
    flops: float | None = None
    flops_per_output: float | None = None  # flops = this * sum of the output (Mandelbrot)
    streaming: bool = False       # compared with the STREAM triad
    launches: int = 1             # launches per timed sample
    slow: bool = False            # fewer repetitions by default
    options: str = ""             # cl2c build options
    notes: dict = field(default_factory=dict)
    # A host loop of launches (the GPU-style corpus): [(kernel, global, local, [argument
    # index or Const, ...]), ...] run in order as one sample; None: `kernel` `launches` times
    steps: list | None = None
    # The host loop of the Guide's shortest paths: after `steps`, these launches again and
    # again until the argument `flag` reads back all zero (no vertex marked), as the Guide's
    # host does; (steps of a round, flag's index, most rounds). None: `steps` once.
    until_clear: tuple | None = None
    defines: dict = field(default_factory=dict)   # "#define NAME value" lines rewritten
    scratch: list = field(default_factory=list)   # arguments written but not compared

    @property
    def src(self) -> str:
        text = (KERNEL_DIR / self.src_file).read_text()
        for name, value in self.defines.items():
            text = re.sub(rf"^#define {name} .*$", f"#define {name} {value}", text,
                          count=1, flags=re.M)
        return text

    def calls(self) -> list:
        """The launches of one sample: (kernel, global, local, argument picks)."""
        if self.steps is not None:
            return self.steps
        every = list(range(len(self.args)))
        return [(self.kernel, self.gsize, self.local, every)] * self.launches

    def kernel_names(self) -> set:
        again = self.until_clear[0] if self.until_clear else []
        return {name for name, *_ in [*self.calls(), *again]}

    def host_loop(self, prepare, launch, cleared):
        """A sample's runner: the calls prepared once (prepare(kernel, global, local,
        picks) -> call); then launch(calls) for the case's calls and, with until_clear,
        for a round of its launches until cleared(flag index) says no flag is set."""
        first = [prepare(*c) for c in self.calls()]
        if self.until_clear is None:
            return lambda: launch(first)
        again_steps, flag, most = self.until_clear
        again = [prepare(*c) for c in again_steps]

        def run():
            launch(first)
            for _ in range(most):
                launch(again)
                if cleared(flag):
                    return
            raise RuntimeError(f"{self.label}: still marked after {most} rounds")
        return run

    def local_text(self) -> str:
        return "None" if self.local is None else "x".join(map(str, self.local))


def _cnd(d):
    """Abramowitz-Stegun normal CDF, as blackscholes.cl has it (float64)."""
    a1, a2, a3, a4, a5 = 0.31938153, -0.356563782, 1.781477937, -1.821255978, 1.330274429
    k = 1.0 / (1.0 + 0.2316419 * np.abs(d))
    c = 0.39894228040143267794 * np.exp(-0.5 * d * d) * (
        k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))))
    return np.where(d > 0, 1.0 - c, c)


def _black_scholes_ref(a):
    s, x, t = (v.astype(np.float64) for v in a[:3])
    r, v = float(a[5]), float(a[6])
    sqrt_t = np.sqrt(t)
    d1 = (np.log(s / x) + (r + 0.5 * v * v) * t) / (v * sqrt_t)
    d2 = d1 - v * sqrt_t
    e = np.exp(-r * t)
    n1, n2 = _cnd(d1), _cnd(d2)
    return [(s * n1 - x * e * n2).astype(np.float32),
            (x * e * (1.0 - n2) - s * (1.0 - n1)).astype(np.float32)]


def _stencil_ref(a):
    g, out = a[0], np.zeros_like(a[1])
    out[1:-1, 1:-1] = 0.25 * (g[1:-1, :-2] + g[1:-1, 2:] + g[:-2, 1:-1] + g[2:, 1:-1]) \
        - g[1:-1, 1:-1]
    return [out]


def _reduce_ref(a):
    x = a[0]
    half = x.size // 2
    return [(x[:half].reshape(-1, 256).astype(np.float64).sum(1)
             + x[half:].reshape(-1, 256).astype(np.float64).sum(1)).astype(np.float32)]


def make_cases(s, rng: np.random.Generator) -> list[Case]:
    """s: the sizes (the parsed command line)."""
    f32 = np.float32
    cases = []

    n = 1 << s.stream_log2
    src = rng.random(n, dtype=f32)
    cases.append(Case("copy", f"copy 2^{s.stream_log2}", "copy.cl", "copy", (n,), None,
                      [np.zeros(n, f32), src], [0], ("hand_copy", [0, 1, Const(np.int64(n))]),
                      ref=lambda a: [a[1]], rtol=0, atol=0, bytes=8 * n, streaming=True))

    b, c = rng.random(n, dtype=f32), rng.random(n, dtype=f32)
    cases.append(Case("triad", f"triad 2^{s.stream_log2}", "triad.cl", "triad", (n,), None,
                      [np.zeros(n, f32), b, c, f32(3.0)], [0],
                      ("hand_triad", [0, 1, 2, 3, Const(np.int64(n))]),
                      ref=lambda a: [a[1] + a[3] * a[2]], rtol=1e-6, bytes=12 * n,
                      flops=2 * n, streaming=True))

    x = rng.random(n, dtype=f32)
    cases.append(Case("reduce", f"tree reduction 2^{s.stream_log2}", "reduce.cl", "reduce",
                      (n // 2,), (256,), [x, np.zeros(n // 512, f32)], [1],
                      ("hand_reduce", [0, 1, Const(np.int64(n))]), ref=_reduce_ref,
                      rtol=1e-4, atol=1e-4, bytes=4 * n, flops=n, streaming=True))

    N = s.matmul_n
    A, B = rng.random((N, N), dtype=f32), rng.random((N, N), dtype=f32)
    for key, src_file, local in (("matmul", "matmul.cl", None), ("tiled", "tiled.cl", (16, 16))):
        what = "naive matmul" if key == "matmul" else "tiled matmul 16x16"
        cases.append(Case(key, f"{what} {N}^2", src_file, src_file[:-3], (N, N), local,
                          [A, B, np.zeros((N, N), f32), np.int32(N)], [2],
                          ("hand_matmul", [0, 1, 2, 3]), ref=lambda a: [a[0] @ a[1]],
                          rtol=1e-4, atol=1e-5 * N, flops=2 * N ** 3, slow=True))

    nx, ny = s.stencil
    grid = rng.random((ny, nx), dtype=f32)
    for local in (None, (16, 16), (8, 8)):
        cases.append(Case("stencil", f"5-point stencil {nx}x{ny}", "stencil.cl", "stencil",
                          (nx, ny), local,
                          [grid, np.zeros((ny, nx), f32), np.int32(nx), np.int32(ny)], [1],
                          ("hand_stencil", [0, 1, 2, 3]), ref=_stencil_ref, rtol=1e-5,
                          atol=1e-6, bytes=8 * nx * ny, flops=5 * nx * ny, streaming=True))

    m = 1 << s.stream_log2
    data = rng.integers(0, 256, m, dtype=np.uint8)
    groups = min(512, max(1, m // 256))
    cases.append(Case("histogram", f"histogram 2^{s.stream_log2} bytes", "histogram.cl",
                      "histogram", (256 * groups,), (256,),
                      [data, np.int32(m), np.zeros(256, np.uint32)], [2],
                      ("hand_histogram", [0, 1, 2]),
                      ref=lambda a: [np.bincount(a[0], minlength=256).astype(np.uint32)],
                      rtol=0, atol=0, bytes=m, streaming=True))

    nb = s.nbody_n
    pos = rng.random((nb, 4), dtype=f32)
    pos[:, 3] += 0.5                                   # masses in [0.5, 1.5)
    vel = (rng.random((nb, 4), dtype=f32) - 0.5) * 0.1
    cases.append(Case("nbody", f"N-body {nb} float4", "nbody.cl", "nbody", (nb,), None,
                      [pos, vel, np.zeros_like(pos), np.zeros_like(vel), np.int32(nb),
                       f32(0.01), f32(0.01)], [2, 3], ("hand_nbody", list(range(7))),
                      rtol=1e-3, atol=1e-4, flops=20 * nb * nb))

    nopt = 1 << s.bs_log2
    S = (5 + 25 * rng.random(nopt)).astype(f32)
    X = (1 + 99 * rng.random(nopt)).astype(f32)
    T = (0.25 + 9.75 * rng.random(nopt)).astype(f32)
    cases.append(Case("blackscholes", f"Black-Scholes 2^{s.bs_log2}", "blackscholes.cl",
                      "blackscholes", (nopt,), None,
                      [S, X, T, np.zeros(nopt, f32), np.zeros(nopt, f32), f32(0.02), f32(0.30)],
                      [3, 4], ("hand_blackscholes", [0, 1, 2, 3, 4, 5, 6, Const(np.int64(nopt))]),
                      ref=_black_scholes_ref, rtol=1e-3, atol=2e-3, bytes=20 * nopt,
                      streaming=True))

    w, h = s.mandelbrot
    x0, x1, y0, y1 = -2.0, 0.6, -1.2, 1.2
    cases.append(Case("mandelbrot", f"Mandelbrot {w}x{h} (divergent)", "mandelbrot.cl",
                      "mandelbrot", (w, h), None,
                      [np.zeros(w * h, np.uint32), f32(x0), f32(y0), f32((x1 - x0) / w),
                       f32((y1 - y0) / h), np.int32(w), np.uint32(s.mandelbrot_iter)], [0],
                      ("hand_mandelbrot", [0, 1, 2, 3, 4, 5, Const(np.int32(h)), 6]),
                      max_mismatch=0.02, flops_per_output=10, slow=True,
                      notes={"max_iter": s.mandelbrot_iter}))

    ns = 1 << s.launch_log2
    cases.append(Case("launches", f"{s.launches} launches, triad 2^{s.launch_log2}",
                      "triad.cl", "triad", (ns,), None,
                      [np.zeros(ns, f32), rng.random(ns, dtype=f32), rng.random(ns, dtype=f32),
                       f32(3.0)], [0], ("hand_triad", [0, 1, 2, 3, Const(np.int64(ns))]),
                      ref=lambda a: [a[1] + a[3] * a[2]], rtol=1e-6, launches=s.launches,
                      slow=True))
    return cases

