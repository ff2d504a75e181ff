"""Stage 6: compile the emitted C into a Python extension with cffi (API mode).

The extension exports, per kernel, ``cl2c_argv_<name>(range, args)``, which
takes its arguments as an array of pointers to values. That one signature
serves every kernel, so the cffi declarations never depend on user types.
"""
from __future__ import annotations

import functools
import importlib.machinery
import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from filelock import FileLock

from . import cache
from .diagnostics import BuildError, Diagnostic
from .resources import runtime_include_dir

CFLAGS = ["-std=c11", "-O3", "-march=native", "-fopenmp", "-fno-strict-aliasing",
          "-Wno-unused-function", "-Wno-unknown-pragmas",
          # GCC notes that 32-byte vectors (short16, float8) by value changed ABI in
          # GCC 4.6: true, and nothing to act on (the helpers are static inline)
          "-Wno-psabi",
          # a frame larger than a fiber stack's guard page cannot jump over it
          "-fstack-clash-protection",
          # Python's own CFLAGS carry -fwrapv, which makes int indices wrap: loops
          # indexed by int then cannot be proven contiguous (gathers instead of loads)
          "-fno-wrapv",
          # OpenCL C has no errno: without this, sqrt() keeps a call for errno's sake
          # instead of one instruction (1.4x on the N-body bench)
          "-fno-math-errno"]


# Not -mtls-dialect=gnu2 (1.5 ns less per fiber switch): with glibc before 2.39 the
# TLS descriptor call clobbers the upper halves of AVX registers (glibc bug 31372),
# which miscompiled a kernel here (values lost across cl2c_scratch's first call).
LDFLAGS = ["-fopenmp"]


@functools.lru_cache(maxsize=None)
def compiler_has_float16() -> bool:
    """Whether the C compiler that builds kernels (cffi's: $CC, else Python's) has
    _Float16, which half arithmetic (cl_khr_fp16) is built on: clruntime's scalars.h
    makes cl2c_half a _Float16 exactly when __FLT16_MAX__ is defined."""
    cc = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    try:
        out = subprocess.run(cc + ["-std=c11", "-dM", "-E", "-x", "c", "-"], input="",
                             capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return False
    return "__FLT16_MAX__" in out.stdout


CDEF = """
typedef struct cl2c_range {
    unsigned work_dim;
    size_t global_size[3];
    size_t local_size[3];
    size_t global_offset[3];
} cl2c_range;
const char *cl2c_error_string(int code);
const char *cl2c_fiber_last_error(void);
"""


def cdef_for(kernel_names: list[str]) -> str:
    return CDEF + "".join(f"int cl2c_argv_{n}(const cl2c_range *range, void *const *args);\n"
                          for n in kernel_names)


def _wrapper_source(c_source: str) -> str:
    # cl2c_error_string is static inline in the header: give cffi a real symbol.
    return c_source + "\n"


def build_extension(c_source: str, kernel_names: list[str], source_name: str = "<kernel>"):
    """The loaded extension module for ``c_source``, built or taken from the cache.

    Returns (module, cache_hit).
    """
    key = cache.key(c_source, CFLAGS + LDFLAGS, ",".join(kernel_names) + CDEF)
    module_name = f"_cl2c_{key}"
    if not cache.cache_enabled():
        with tempfile.TemporaryDirectory(prefix="cl2c-") as tmp:
            path = _compile(c_source, kernel_names, module_name, Path(tmp), source_name)
            # The .so may be unlinked once loaded (POSIX keeps the mapping).
            return _load(module_name, path), False
    root = cache.cache_root()
    root.mkdir(parents=True, exist_ok=True)
    final = root / f"{module_name}{_suffix()}"
    if final.exists():
        return _load(module_name, final), True
    with FileLock(str(root / f"{module_name}.lock")):
        if final.exists():
            return _load(module_name, final), True
        with tempfile.TemporaryDirectory(prefix="cl2c-build-", dir=root) as tmp:
            built = _compile(c_source, kernel_names, module_name, Path(tmp), source_name)
            staged = Path(tmp) / ("staged" + _suffix())
            shutil.copy2(built, staged)
            os.replace(staged, final)
        (root / f"{module_name}.c").write_text(c_source)
    return _load(module_name, final), False


def _suffix() -> str:
    return importlib.machinery.EXTENSION_SUFFIXES[0]


def _compile(c_source, kernel_names, module_name, tmpdir: Path, source_name) -> Path:
    import cffi
    ffi = cffi.FFI()
    ffi.cdef(cdef_for(kernel_names))
    ffi.set_source(module_name, _wrapper_source(c_source),
                   include_dirs=[str(runtime_include_dir())],
                   extra_compile_args=CFLAGS, extra_link_args=LDFLAGS)
    log = tmpdir / "build.log"
    try:
        with open(log, "w") as out:
            fd = out.fileno()
            saved = os.dup(1), os.dup(2)
            try:
                sys.stdout.flush()
                sys.stderr.flush()
                os.dup2(fd, 1)
                os.dup2(fd, 2)
                path = ffi.compile(tmpdir=str(tmpdir), verbose=False)
            finally:
                os.dup2(saved[0], 1)
                os.dup2(saved[1], 2)
                os.close(saved[0])
                os.close(saved[1])
    except Exception as e:  # cffi raises VerificationError / CompileError
        detail = log.read_text(errors="replace") if log.exists() else ""
        raise BuildError([Diagnostic(
            "error", f"the C compiler failed on the translated kernel (a cl2c bug; please "
                     f"report it with the kernel): {e}\n{detail[-4000:]}", source_name)]) from None
    return Path(path)


def _load(module_name: str, path: Path):
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, str(path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules[module_name] = module
    return module
