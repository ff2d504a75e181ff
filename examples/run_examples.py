"""Translate and run the bundled example kernels, and check them against NumPy.

    python examples/run_examples.py          (or `make run` from the top folder)

Each example in kernels/ is built with cl2c, run on NumPy arrays and compared
with the same computation written in NumPy. The translated C of each one is
written to out/<name>.c for reading. If a C compiler and make are present, the
C program in c_program/ (a kernel called from plain C, no Python) is built and
run too; if PyOpenCL is installed, the PyOpenCL program in pyopencl_program/ runs,
unchanged, on the cl2c platform; if Dask is installed, the out-of-core example runs at
a small size on two worker processes (`--skip dask` leaves it out). Each one skipped
says the command that enables it. The exit status is 1 if any result is wrong.
"""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import cl2c

HERE = Path(__file__).resolve().parent
KERNELS = HERE / "kernels"
OUT = HERE / "out"

rng = np.random.default_rng(12345)


def timed(kernel, *args, **kw):
    """Run a kernel once to warm up (threads, pages), then the best of 3 runs."""
    kernel(*args, **kw)
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        kernel(*args, **kw)
        best = min(best, time.perf_counter() - t0)
    return best


def fma32(a, b, c):
    """a * b + c in float32, rounded once. OpenCL contracts a * b + c written in one
    expression (#pragma OPENCL FP_CONTRACT is ON by default), and cl2c does so into
    one fma where the CPU has one: the NumPy references below do the same. The product
    is exact in double; where the double sum lands on a midpoint of two floats, its
    rounding error (TwoSum) says which way the one rounding goes."""
    a, b, c = (np.asarray(v, np.float32).astype(np.float64) for v in (a, b, c))
    p = a * b
    s = p + c
    d = s - p
    err = (p - (s - d)) + (c - d)
    r = s.astype(np.float32)
    up, down = np.nextafter(r, np.float32(np.inf)), np.nextafter(r, np.float32(-np.inf))
    r = np.where((s == (r.astype(np.float64) + up) / 2) & (err > 0), up, r)
    return np.where((s == (r.astype(np.float64) + down) / 2) & (err < 0), down, r)


# what the kernels' a * b + c is here: one fma, or a rounded product and a sum
mad = fma32 if cl2c.device().fast_fma else (lambda a, b, c: a * b + c)


# ---- the examples: each returns (size shown, seconds, matches) --------------------

def ex_vadd(prg):
    n = 1 << 20
    a = rng.random(n, dtype=np.float32)
    b = rng.random(n, dtype=np.float32)
    result = np.empty_like(a)
    t = timed(prg.hello_kernel, (n,), None, a, b, result)
    return f"n={n}", t, np.array_equal(result, a + b)


def ex_saxpy(prg):
    n = 1_000_003                      # not a multiple of any work-group size
    alpha = np.float32(2.5)
    x = rng.standard_normal(n, dtype=np.float32)
    y0 = rng.standard_normal(n, dtype=np.float32)
    y = y0.copy()
    # The global size rounded up to a multiple of 64; the kernel checks i < n.
    global_size = (n + 63) // 64 * 64
    prg.saxpy((global_size,), (64,), alpha, x, y, n)
    ok = np.array_equal(y, mad(alpha, x, y0))
    t = timed(prg.saxpy, (global_size,), (64,), alpha, x, y0.copy(), n)
    return f"n={n}", t, ok


def ex_matmul(prg):
    M, K, N = 300, 200, 250
    A = rng.standard_normal((M, K), dtype=np.float32)
    B = rng.standard_normal((K, N), dtype=np.float32)
    C = np.empty((M, N), dtype=np.float32)
    t = timed(prg.matmul, (N, M), None, A, B, C, M, N, K)
    # The kernel sums in another order than NumPy's BLAS: compare with a tolerance.
    expected = A.astype(np.float64) @ B.astype(np.float64)
    return f"{M}x{K} @ {K}x{N}", t, np.allclose(C, expected, rtol=1e-4, atol=1e-4)


def ex_grayscale(prg):
    width, height, gain = 640, 480, np.float32(1.2)
    src = rng.integers(0, 256, size=(height, width, 4), dtype=np.uint8)
    dst = np.zeros_like(src)
    t = timed(prg.grayscale, (width, height), None, src, dst, width, height, gain)
    # The same float32 arithmetic, step by step as the kernel does it.
    p = src.astype(np.float32)
    luma = gain * mad(np.float32(0.114), p[..., 2], mad(np.float32(0.299), p[..., 0],
                                                        np.float32(0.587) * p[..., 1]))
    v = np.clip(luma + np.float32(0.5), 0, 255).astype(np.uint8)
    expected = np.stack([v, v, v, src[..., 3]], axis=-1)
    return f"{width}x{height} px", t, np.array_equal(dst, expected)


def ex_mandelbrot(prg):
    width, height, max_iter = 512, 384, 256
    x0, y0, step = np.float32(-2.25), np.float32(-1.125), np.float32(3.0 / 512)
    out = np.zeros((height, width), dtype=np.int32)
    t = timed(prg.mandelbrot, (width, height), None, out, width, height, x0, y0, step,
              max_iter)
    # The same iteration in float32 over the whole image at once.
    px = np.arange(width, dtype=np.float32)
    py = np.arange(height, dtype=np.float32)
    cr = np.broadcast_to(mad(px, step, x0), (height, width))
    ci = np.broadcast_to(mad(py, step, y0)[:, None], (height, width))
    zr = np.zeros((height, width), np.float32)
    zi = np.zeros((height, width), np.float32)
    n = np.zeros((height, width), np.int32)
    for _ in range(max_iter):
        live = mad(zr, zr, zi * zi) <= np.float32(4)
        if not live.any():
            break
        t_ = mad(zr, zr, -(zi * zi)) + cr
        zi = np.where(live, mad(np.float32(2) * zr, zi, ci), zi)
        zr = np.where(live, t_, zr)
        n += live
    wrong = np.count_nonzero(out != n)
    if wrong:
        print(f"  mandelbrot: {wrong} of {out.size} pixels differ from NumPy's float32")
    return f"{width}x{height} px, {max_iter} iter", t, wrong == 0


def ex_blur(prg):
    n = 1 << 20
    src = rng.random(n, dtype=np.float32)
    dst = np.empty_like(src)
    t = timed(prg.blur3, (n,), None, src, dst, n)
    left = np.concatenate([src[:1], src[:-1]])
    right = np.concatenate([src[1:], src[-1:]])
    expected = (left + src + right) / np.float32(3)
    return f"n={n}", t, np.array_equal(dst, expected)


EXAMPLES = [
    ("vadd", ex_vadd),
    ("saxpy", ex_saxpy),
    ("matmul", ex_matmul),
    ("grayscale", ex_grayscale),
    ("mandelbrot", ex_mandelbrot),
    ("blur", ex_blur),
]


def run_kernel_example(name, func):
    path = KERNELS / f"{name}.cl"
    t0 = time.perf_counter()
    prg = cl2c.Program.from_file(path).build()
    build = time.perf_counter() - t0
    c_file = OUT / f"{name}.c"
    c_file.write_text(prg.c_source, encoding="utf-8")
    size, seconds, ok = func(prg)
    verdict = "OK (matches NumPy)" if ok else "MISMATCH"
    print(f"{name:<11} {size:<26} build {build:6.2f} s   run {seconds * 1e3:8.2f} ms   "
          f"{verdict}")
    return ok


def run_c_program():
    """Build c_program/ in out/c_program with make and run it. None: skipped."""
    if not (shutil.which("make") and shutil.which("cc")):
        print(f"{'c_program':<11} skipped: needs `make` and `cc`")
        return None
    work = OUT / "c_program"
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(HERE / "c_program", work,
                    ignore=shutil.ignore_patterns("*.o", "vadd.c", "vadd.h", "vadd.d",
                                                  "vadd_demo"))
    cl2c_cmd = f"{shlex.quote(sys.executable)} -m cl2c.cli"
    t0 = time.perf_counter()
    made = subprocess.run(["make", "-C", str(work), f"CL2C={cl2c_cmd}"],
                          capture_output=True, text=True)
    build = time.perf_counter() - t0
    if made.returncode != 0:
        print(f"{'c_program':<11} MISMATCH: make failed\n{made.stdout}{made.stderr}")
        return False
    t0 = time.perf_counter()
    ran = subprocess.run([str(work / "vadd_demo")], capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    verdict_line = ran.stdout.strip().splitlines()[-1] if ran.stdout.strip() else ""
    ok = ran.returncode == 0 and verdict_line.endswith(": OK")
    verdict = "OK (checked in C)" if ok else "MISMATCH"
    print(f"{'c_program':<11} {'n=1000000 (plain C)':<26} build {build:6.2f} s   "
          f"run {seconds * 1e3:8.2f} ms   {verdict}")
    if not ok:
        print(ran.stdout + ran.stderr)
    return ok


def run_gaussian_filter():
    """The Guide's chapter 8 Gaussian filter (gaussian_filter/) on its PNG: from Python,
    then from C (make, if present), each compared with NumPy. None: skipped."""
    sys.path.insert(0, str(HERE / "gaussian_filter"))
    try:
        import gaussian_filter as gf
        src = gf.read_png(HERE / "gaussian_filter" / "input.png")
    except ImportError as e:
        print(f"{'gaussian':<11} skipped: {e}; this enables it:\n"
              f"    {shlex.quote(sys.executable)} -m pip install pillow")
        return None
    finally:
        sys.path.pop(0)
    want = gf.reference(src)
    size = f"{src.shape[1]}x{src.shape[0]} px RGBA"
    t0 = time.perf_counter()
    prg = cl2c.Program.from_file(HERE / "gaussian_filter" / "gaussian_filter.cl").build()
    build = time.perf_counter() - t0
    (OUT / "gaussian_filter.c").write_text(prg.c_source, encoding="utf-8")
    got = gf.blur(prg, src)
    seconds = timed(gf.blur, prg, src)
    ok = np.array_equal(got, want)
    print(f"{'gaussian':<11} {size:<26} build {build:6.2f} s   run {seconds * 1e3:8.2f} ms   "
          f"{'OK (matches NumPy)' if ok else 'MISMATCH'}")
    if not (shutil.which("make") and shutil.which("cc")):
        print(f"{'gaussian_c':<11} skipped: needs `make` and `cc`")
        return ok
    work = OUT / "gaussian_filter"
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(HERE / "gaussian_filter", work, ignore=shutil.ignore_patterns(
        "*.o", "gaussian_filter.c", "gaussian_filter.h", "gaussian_filter.d",
        "gaussian_demo", "__pycache__"))
    made = subprocess.run(["make", "-C", str(work),
                           f"CL2C={shlex.quote(sys.executable)} -m cl2c.cli"],
                          capture_output=True, text=True)
    if made.returncode != 0:
        print(f"{'gaussian_c':<11} MISMATCH: make failed\n{made.stdout}{made.stderr}")
        return False
    h, w, _ = src.shape
    header = f"P7\nWIDTH {w}\nHEIGHT {h}\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
    (work / "input.pam").write_bytes(header.encode() + src.tobytes())
    t0 = time.perf_counter()
    ran = subprocess.run([str(work / "gaussian_demo"), str(work / "input.pam"),
                          str(work / "output.pam")], capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    c_ok = ran.returncode == 0
    if c_ok:
        data = (work / "output.pam").read_bytes()
        pixels = np.frombuffer(data[len(header):], np.uint8)
        c_ok = data.startswith(header.encode()) and np.array_equal(pixels.reshape(src.shape),
                                                                  want)
    print(f"{'gaussian_c':<11} {size + ' (plain C)':<26} build        -   "
          f"run {seconds * 1e3:8.2f} ms   {'OK (matches NumPy)' if c_ok else 'MISMATCH'}")
    if not c_ok:
        print(ran.stdout + ran.stderr)
    return ok and c_ok


def run_pyopencl_program():
    """pyopencl_program/histogram.py, an ordinary PyOpenCL program, on the cl2c platform:
    chosen from outside it, by OCL_ICD_VENDORS (the loader finds the platform) and
    PYOPENCL_CTX (create_some_context picks it). None: skipped (no PyOpenCL)."""
    program = HERE / "pyopencl_program" / "histogram.py"
    python = shlex.quote(sys.executable)
    command = (f"OCL_ICD_VENDORS=$({python} -m cl2c --icd) PYOPENCL_CTX=cl2c "
               f"{python} {shlex.quote(str(program))}")
    try:
        import pyopencl  # noqa: F401
    except ImportError:
        print(f"{'pyopencl':<11} skipped: PyOpenCL is not installed; after `pip install "
              f"pyopencl` this runs it on cl2c:\n    {command}")
        return None
    from cl2c.platform import icd_folder
    from cl2c.platform.device_facts import PLATFORM_NAME
    env = dict(os.environ, OCL_ICD_VENDORS=str(icd_folder()), PYOPENCL_CTX=PLATFORM_NAME)
    env.pop("PYOPENCL_TEST", None)           # it would win over PYOPENCL_CTX
    t0 = time.perf_counter()
    ran = subprocess.run([sys.executable, str(program)], env=env, capture_output=True,
                         text=True)
    seconds = time.perf_counter() - t0
    lines = ran.stdout.strip().splitlines()
    ok = (ran.returncode == 0 and bool(lines) and f"on {PLATFORM_NAME}" in lines[0]
          and all(line.endswith(": OK") for line in lines[1:]) and len(lines) > 1)
    print(f"{'pyopencl':<11} {'640x480 px (PyOpenCL)':<26} build+run {seconds:6.2f} s   "
          f"{'OK (checked with NumPy)' if ok else 'MISMATCH'}")
    if not ok:
        print(ran.stdout + ran.stderr)
    print(f"  the same by hand: {command}")
    return ok


def run_dask_example():
    """dask_out_of_core/heat.py at a small size, checked against NumPy: a stencil over
    a Dask array on disk in chunks, on two worker processes. None: skipped (no Dask)."""
    program = HERE / "dask_out_of_core" / "heat.py"
    python = shlex.quote(sys.executable)
    try:
        import dask.array  # noqa: F401
        import distributed  # noqa: F401
    except ImportError:
        print(f"{'dask':<11} skipped: Dask is not installed; this enables it:\n"
              f"    {python} -m pip install 'cl2c[dask]' zarr")
        return None
    with tempfile.TemporaryDirectory() as tmp:
        args = ["--rows", "512", "--cols", "256", "--chunk-rows", "128", "--steps", "2",
                "--workers", "2", "--dir", tmp, "--check"]
        t0 = time.perf_counter()
        ran = subprocess.run([sys.executable, str(program), *args], capture_output=True,
                             text=True)
        seconds = time.perf_counter() - t0
    ok = ran.returncode == 0 and "the same as NumPy" in ran.stdout
    print(f"{'dask':<11} {'512x256 floats, 4 chunks':<26} build+run {seconds:6.2f} s   "
          f"{'OK (checked with NumPy)' if ok else 'MISMATCH'}")
    if not ok:
        print(ran.stdout + ran.stderr)
    print(f"  at scale: {python} {shlex.quote(str(program))} --help")
    return ok


def main() -> int:
    skip = set(sys.argv[sys.argv.index("--skip") + 1:]) if "--skip" in sys.argv else set()
    OUT.mkdir(exist_ok=True)
    print(f"cl2c {cl2c.__version__}: example kernels from {KERNELS}")
    all_ok = True
    for name, func in EXAMPLES:
        try:
            ok = run_kernel_example(name, func)
        except Exception as e:          # a build or launch error: report it, go on
            print(f"{name:<11} MISMATCH: {type(e).__name__}: {e}")
            ok = False
        all_ok &= ok
    c_ok = run_c_program()
    if c_ok is False:
        all_ok = False
    try:
        if run_gaussian_filter() is False:
            all_ok = False
    except Exception as e:              # a build or launch error: report it, go on
        print(f"{'gaussian':<11} MISMATCH: {type(e).__name__}: {e}")
        all_ok = False
    if run_pyopencl_program() is False:
        all_ok = False
    if "dask" not in skip and run_dask_example() is False:
        all_ok = False
    print(f"Translated C: {OUT}/<name>.c; the C program: {OUT / 'c_program'}")
    print("All examples OK." if all_ok else "Some examples FAILED (MISMATCH above).")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
