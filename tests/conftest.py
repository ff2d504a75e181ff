"""Shared fixtures and helpers for the cl2c test suite.

``run_pocl`` runs an OpenCL C kernel through PyOpenCL/PoCL with NumPy arrays (copy in,
run, copy out), so a test can compare cl2c's results with a real OpenCL implementation.
When PyOpenCL or a device is missing, tests asking for it are *skipped* with the reason.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pytest

TESTS_DIR = Path(__file__).parent
KERNELS_DIR = TESTS_DIR / "kernels"


def kernel_path(name: str) -> Path:
    return KERNELS_DIR / name


def kernel_source(name: str) -> str:
    return kernel_path(name).read_text(encoding="utf-8")


# ---- PoCL reference ---------------------------------------------------------------------
_pocl_state: dict = {}


def _pocl_context():
    """(cl module, context, queue) or raise pytest.skip with the reason."""
    if "error" in _pocl_state:
        pytest.skip(_pocl_state["error"])
    if "ctx" not in _pocl_state:
        try:
            import pyopencl as cl
        except Exception as e:  # ImportError or a broken ICD loader
            _pocl_state["error"] = f"PoCL not available: cannot import pyopencl ({e})"
            pytest.skip(_pocl_state["error"])
        try:
            platforms = cl.get_platforms()
            devices = [d for p in platforms for d in p.get_devices()]
            pocl = [d for d in devices if "portable" in d.platform.name.lower()]
            devices = pocl or devices
            if not devices:
                raise RuntimeError("no OpenCL device")
            ctx = cl.Context(devices[:1])
            queue = cl.CommandQueue(ctx)
        except Exception as e:
            _pocl_state["error"] = f"PoCL not available: no usable OpenCL device ({e})"
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
