"""Shared fixtures and helpers for the cl2c test suite.

``run_pocl`` runs an OpenCL C kernel through PyOpenCL/PoCL with NumPy arrays (copy in,
run, copy out), so a test can compare cl2c's results with a real OpenCL implementation.
When PyOpenCL or a device is missing, tests asking for it are *skipped* with the reason.

``run_intel`` does the same on Intel's oneAPI OpenCL CPU runtime, which has the OpenCL C
2.0/3.0 constructs this PoCL lacks (program-scope globals shared between kernels,
to_global and the other generic address space functions, sub-groups, work-group
functions). Tests marked ``intel`` use it; they are opt-in (``make test-intel``, which
sets CL2C_INTEL=1) and skipped otherwise, so ``make test`` never runs them.
"""
from __future__ import annotations

import ctypes
import mmap
import os
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

TESTS_DIR = Path(__file__).parent
KERNELS_DIR = TESTS_DIR / "kernels"
INTEL_OPT_IN = "CL2C_INTEL"

# The tier the tests build in (cl2c/tiers.py): the fast one (-O0), with no optimised build
# in the background, where the user chose none: a test of what a kernel computes need not
# wait for the optimiser (the cold suite's compile time halves). Modules about what the
# optimiser does to cl2c's C (the work-group schedules' loops, vector math, the compiler
# bugs, the bench kernels) are marked ``optimised`` and build at -O3.
TIER = "CL2C_TIER"
_TESTS_TIER = os.environ.setdefault(TIER, "fast")


def pytest_configure(config):
    config.addinivalue_line("markers", "intel: a differential test against Intel's OpenCL "
                                       "CPU runtime (opt-in: make test-intel, CL2C_INTEL=1)")
    config.addinivalue_line("markers", "optimised: builds at -O3 (CL2C_TIER=optimised), "
                                       "where the other tests build in the fast tier")
    # The reference PoCL's own build log (Debian's PoCL warns about some of the kernels'
    # constant expressions): not what the tests look at.
    config.addinivalue_line("filterwarnings", "ignore:Non-empty compiler output")


def pytest_collection_modifyitems(config, items):
    if os.environ.get(INTEL_OPT_IN, "") not in ("", "0"):
        return
    skip = pytest.mark.skip(reason="against Intel's OpenCL CPU runtime: opt-in "
                                   "(make test-intel)")
    for item in items:
        if "intel" in item.keywords:
            item.add_marker(skip)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """CL2C_TIER=optimised for the tests marked ``optimised``, set before any of their
    fixtures (a module's builds) are."""
    marked = item.get_closest_marker("optimised") is not None
    os.environ[TIER] = "optimised" if marked else _TESTS_TIER


def fenced(a: np.ndarray) -> np.ndarray:
    """A copy of ``a`` that ends where an unreadable page begins: a read past its end
    faults (a LaunchError), where it would otherwise read whatever lies there."""
    page = mmap.PAGESIZE
    body = -(-a.nbytes // page) * page
    region = np.frombuffer(mmap.mmap(-1, body + page), np.uint8)
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    assert libc.mprotect(region.ctypes.data + body, page, 0) == 0, ctypes.get_errno()
    out = region[body - a.nbytes:body].view(a.dtype).reshape(a.shape)
    out[...] = a
    return out


def kernel_path(name: str) -> Path:
    return KERNELS_DIR / name


def kernel_source(name: str) -> str:
    return kernel_path(name).read_text(encoding="utf-8")


def lecture_source(version: str, dim: int) -> str:
    """The lecture's matrix product ``version`` (v1 to v6, try1: shared/seeds/003) as
    printed, as the bench keeps it, with DIM set to ``dim``."""
    path = TESTS_DIR.parent / "bench" / "kernels" / "gpu" / f"lecture_{version}.cl"
    return path.read_text(encoding="utf-8").replace("#define DIM 1000", f"#define DIM {dim}")


# ---- PoCL reference ---------------------------------------------------------------------
# PoCL's kernel cache, fresh for each test process: an entry left half-written by a PoCL
# that crashed (see run_pocl_isolated) made later builds of the same source find no
# kernels (INVALID_KERNEL_NAME), on every run after it. Each xdist worker gets its own
# too (they inherit the controller's environment): two workers building one source into
# one cache at once gave INVALID_KERNEL_NAME as well.
_OWN_CACHE = "CL2C_TESTS_OWN_POCL_CACHE"
if "POCL_CACHE_DIR" not in os.environ or os.environ.get(_OWN_CACHE) not in (None,
                                                                         str(os.getpid())):
    os.environ[_OWN_CACHE] = str(os.getpid())
    import atexit
    import tempfile
    os.environ["POCL_CACHE_DIR"] = tempfile.mkdtemp(prefix="cl2c-tests-pocl-")
    os.environ.setdefault("PYOPENCL_NO_CACHE", "1")     # PyOpenCL's binaries: the same
    atexit.register(shutil.rmtree, os.environ["POCL_CACHE_DIR"], ignore_errors=True)
_pocl_state: dict = {}
# Which implementation _pocl_context opens: PoCL, or Intel's in run_intel's child.
_reference = {"platform": "PoCL"}
INTEL_PLATFORM = "Intel(R) OpenCL"


def _pocl_context():
    """(cl module, context, queue) or raise pytest.skip with the reason."""
    if "error" in _pocl_state:
        pytest.skip(_pocl_state["error"])
    if "ctx" not in _pocl_state:
        try:
            import pyopencl as cl
        except Exception as e:  # ImportError or a broken ICD loader
            _pocl_state["error"] = (f"{_reference['platform']} not available: cannot "
                                    f"import pyopencl ({e})")
            pytest.skip(_pocl_state["error"])
        try:
            platforms = cl.get_platforms()
            devices = [d for p in platforms for d in p.get_devices()]
            if _reference["platform"] != "PoCL":      # Intel's, in run_intel's child
                devices = [d for d in devices if d.platform.name.strip() == INTEL_PLATFORM
                           and d.type & cl.device_type.CPU]
            else:
                pocl = [d for d in devices if "portable" in d.platform.name.lower()]
                devices = pocl or devices
            if not devices:
                raise RuntimeError("no OpenCL device")
            device, problems = _opencl_platforms().building_device(cl, devices)
            if device is None:
                raise RuntimeError("it builds no kernel on this CPU: " + "; ".join(problems)
                                   + " (Debian's pocl-opencl-icd builds where pyopencl's "
                                   "bundled PoCL cannot)")
            ctx = cl.Context([device])
            queue = cl.CommandQueue(ctx)
        except Exception as e:
            _pocl_state["error"] = (f"{_reference['platform']} not available: no usable "
                                    f"OpenCL device ({e})")
            pytest.skip(_pocl_state["error"])
        _pocl_state.update(cl=cl, ctx=ctx, queue=queue, programs={})
    return _pocl_state["cl"], _pocl_state["ctx"], _pocl_state["queue"]


def pocl_program(source: str, options: str = ""):
    cl, ctx, _ = _pocl_context()
    key = (source, options)
    programs = _pocl_state["programs"]
    if key not in programs:
        programs[key] = cl.Program(ctx, source).build(options=options)
    return programs[key]


def run_pocl(source: str, kernel_name: str, global_size, local_size, *args,
             options: str = "", global_offset=None):
    """Run ``kernel_name`` on PoCL. NumPy arrays are copied in and copied back in place
    (like cl2c does); NumPy scalars/structured scalars pass by value;
    ``cl2c.LocalMemory`` becomes ``pyopencl.LocalMemory``; ``None`` a null buffer."""
    import cl2c
    cl, ctx, queue = _pocl_context()
    prg = pocl_program(source, options)
    kernel = cl.Kernel(prg, kernel_name)
    mf = cl.mem_flags
    cl_args, copies = [], []
    for a in args:
        if isinstance(a, np.ndarray) and a.ndim > 0:
            if a.nbytes == 0:
                cl_args.append(None)
                continue
            buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=a)
            cl_args.append(buf)
            copies.append((buf, a))
        elif isinstance(a, cl2c.LocalMemory):
            cl_args.append(cl.LocalMemory(a.nbytes))
        elif a is None:
            cl_args.append(None)
        elif isinstance(a, (np.generic, np.ndarray)):
            cl_args.append(np.asarray(a)[()] if not isinstance(a, np.void) else a)
        else:
            raise TypeError(f"run_pocl: pass NumPy scalars for by-value args, not {a!r}")
    gs = tuple(global_size) if not isinstance(global_size, int) else (global_size,)
    ls = None if local_size is None else (
        tuple(local_size) if not isinstance(local_size, int) else (local_size,))
    go = None if global_offset is None else tuple(global_offset)
    kernel(queue, gs, ls, *cl_args, global_offset=go)
    for buf, host in copies:
        cl.enqueue_copy(queue, host, buf)
    queue.finish()


def _pocl_launches(source: str, launches: list, options: str) -> list:
    try:
        for name, gsize, lsize, args in launches:
            run_pocl(source, name, gsize, lsize, *args, options=options)
    except Exception as e:        # PyOpenCL's errors do not pickle back to the parent
        raise RuntimeError(f"{_reference['platform']}: {type(e).__name__}: {e}") from None
    return [args for _, _, _, args in launches]


def run_pocl_isolated(source: str, launches: list, options: str = ""):
    """Run ``launches`` ([(kernel name, global size, local size, [args])]) on PoCL in a
    child process, for kernels PoCL's own compiler may crash on. Returns the argument
    lists after the launches, or raises PoclCrashed when the child died."""
    import concurrent.futures
    _pocl_context()                  # skip here, not in the child, when PoCL is missing
    try:
        return _isolated_pool().submit(_pocl_launches, source, launches, options).result()
    except concurrent.futures.process.BrokenProcessPool:
        _isolated.pop("pool").shutdown(wait=False)      # the next call starts another
        raise PoclCrashed("PoCL 3.0 died compiling or running this kernel (its LLVM "
                          "crashes in DAGCombiner::visitEXTRACT_VECTOR_ELT on some "
                          "CPUs): no PoCL reference here") from None


# The child of run_pocl_isolated, kept for the next call while it lives: starting one
# (Python, PyOpenCL, PoCL's device probe) took 3-4 s, ten times a run.
_isolated: dict = {}


def _isolated_pool():
    if "pool" not in _isolated:
        import concurrent.futures
        import multiprocessing
        _isolated["pool"] = concurrent.futures.ProcessPoolExecutor(
            1, mp_context=multiprocessing.get_context("spawn"), initializer=_own_pocl_cache)
    return _isolated["pool"]


def _own_pocl_cache():
    """The child's own PoCL kernel cache: a child that crashes mid-build leaves a broken
    entry, which the parent (sharing the directory it inherits) would then load and find
    no kernels in (INVALID_KERNEL_NAME for every later build of that source)."""
    import atexit
    import tempfile
    os.environ["POCL_CACHE_DIR"] = tempfile.mkdtemp(prefix="cl2c-tests-pocl-child-")
    atexit.register(shutil.rmtree, os.environ["POCL_CACHE_DIR"], ignore_errors=True)


class PoclCrashed(Exception):
    pass


_WIDE_PROBE = """kernel void k(global const int16 *a, global int *o)
{ int16 v = a[get_global_id(0)]; vstore16(v.sfedcba9876543210, get_global_id(0), o); }"""


def pocl_wide_vector_problem() -> str | None:
    """Why PoCL cannot serve as the reference for 512-bit vectors (int16, long8,
    double16) here, or None when it can. PoCL 3.0 on Zen 4 targets znver3 while its
    kernel library passes such vectors in AVX-512 registers: seen here, an int16
    swizzle stored with vstore16 ends in 'LLVM ERROR: Do not know how to scalarize'
    or a crash in DAGCombiner, and other kernels store nothing at all."""
    if "wide" not in _pocl_state:
        a = np.arange(32, dtype=np.int32)
        o = np.full(32, -1, np.int32)
        try:
            [[_, out]] = run_pocl_isolated(_WIDE_PROBE, [("k", (2,), None, [a, o])])
            ok = np.array_equal(out, a.reshape(2, 16)[:, ::-1].ravel())
            _pocl_state["wide"] = None if ok else "PoCL computes int16 swizzles wrongly here"
        except (PoclCrashed, RuntimeError):
            _pocl_state["wide"] = ("PoCL's compiler dies on 512-bit vectors on this CPU "
                                   "(int16 swizzle with vstore16)")
    return _pocl_state["wide"]


@pytest.fixture(scope="session")
def pocl():
    """Skip the test when PoCL is not there; else the ``run_pocl`` helper."""
    _pocl_context()
    return run_pocl


@pytest.fixture(scope="session")
def cc():
    compiler = os.environ.get("CC", "cc")
    if shutil.which(compiler) is None:
        pytest.skip(f"no C compiler '{compiler}' on PATH")
    return compiler


# ---- Intel's OpenCL CPU runtime (opt-in) -----------------------------------------------
def _opencl_platforms():
    """bench/opencl_platforms.py: finds Intel's libintelocl.so and points the ICD loader
    at it."""
    bench = str(TESTS_DIR.parent / "bench")
    if bench not in sys.path:
        sys.path.insert(0, bench)
    import opencl_platforms
    return opencl_platforms


def intel_problem() -> str | None:
    """Why Intel's runtime cannot serve as a reference here, or None."""
    if not (TESTS_DIR.parent / "bench" / "opencl_platforms.py").is_file():
        return "no bench/opencl_platforms.py beside the tests"
    if _opencl_platforms().intel_library() is None:
        return ("Intel's OpenCL CPU runtime is not installed in this environment (`pip "
                "install intel-opencl-rt intel-cmplr-lib-rt`, as `make bench` does)")
    return None


def _intel_child():
    """A child process that opens Intel's runtime: its own ICD folder naming
    libintelocl.so (and PoCL's), set before pyopencl loads."""
    import atexit
    import tempfile
    _own_pocl_cache()
    folder = tempfile.mkdtemp(prefix="cl2c-tests-icd-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    _opencl_platforms().point_loader_at_runtimes(Path(folder))
    _reference["platform"] = "Intel"


def run_intel(source: str, launches: list, options: str = ""):
    """Run ``launches`` ([(kernel name, global size, local size, [args])]) on Intel's
    OpenCL CPU runtime, one program for all of them (so program-scope variables carry
    from one launch to the next), in a child process. Returns the argument lists after
    the launches; skips the test where the runtime is not installed."""
    return _in_intel_child(_pocl_launches, source, launches, options)


def intel_build_error(source: str, options: str = "") -> str | None:
    """Intel's build log where it refuses ``source``, None where it builds it."""
    return _in_intel_child(_build_error, source, options)


def _build_error(source: str, options: str) -> str | None:
    cl, ctx, _ = _pocl_context()
    try:
        cl.Program(ctx, source).build(options=options)
    except cl.RuntimeError as e:
        return str(e)
    return None


def _in_intel_child(function, *args):
    import concurrent.futures
    import multiprocessing
    why = intel_problem()
    if why:
        pytest.skip(why)
    ctx = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=ctx,
                                                initializer=_intel_child) as pool:
        try:
            return pool.submit(function, *args).result()
        except concurrent.futures.process.BrokenProcessPool:
            raise RuntimeError("Intel's OpenCL runtime died building or running the "
                               "kernel") from None
