"""The target: the C compiler that builds the emitted C, its flags, and what they imply.

A :class:`Target` is a value handed to translation (which extensions a kernel sees:
cl_khr_fp16 needs the compiler's ``_Float16``) and to the compile step (command, flags,
cache key). Importing this module runs nothing: :meth:`Target.host` probes the compiler
the first time something compiles, and :meth:`Target.assumed` probes nothing, for C that
is compiled elsewhere.

Every compile reads ``$CC``, ``$CFLAGS`` and ``$LDFLAGS``: distutils does so itself for
setuptools' builds (cl2c.load's packages), :meth:`Target.shared_library_command` for
programs' libraries and ``cl2c --shared``.
"""
from __future__ import annotations

import functools
import hashlib
import importlib
import os
import platform
import shlex
import sys
import sysconfig
from dataclasses import dataclass, replace

from .language_version import CL1_0, CL2_0, LanguageVersion

# Extensions cl2c implements; each is also a predefined macro (spec 9.1). cl_khr_fp16
# joins them where the compiler has _Float16 (clruntime's scalars.h).
EXTENSIONS = (
    "cl_khr_fp64", "cl_khr_byte_addressable_store",
    "cl_khr_global_int32_base_atomics", "cl_khr_global_int32_extended_atomics",
    "cl_khr_local_int32_base_atomics", "cl_khr_local_int32_extended_atomics",
    "cl_khr_int64_base_atomics", "cl_khr_int64_extended_atomics",
    # a sub-group is the whole work-group (README): its functions are 2.0's
    "cl_khr_subgroups",
    # images.h writes 3D images as it writes the others
    "cl_khr_3d_image_writes",
    # the platform makes a 2D image of a buffer's storage (clruntime/platform/image.c)
    "cl_khr_image2d_from_buffer",
)
# Extensions that exist from an OpenCL C version on (the others: any version).
EXTENSION_SINCE = {"cl_khr_subgroups": CL2_0}

# OpenCL C 3.0's optional features (spec 6.2.1) cl2c implements; each is a predefined macro
# under -cl-std=CL3.0. Not: pipes, device-side enqueue.
FEATURES = (
    "__opencl_c_fp64", "__opencl_c_int64", "__opencl_c_generic_address_space",
    "__opencl_c_program_scope_global_variables", "__opencl_c_work_group_collective_functions",
    "__opencl_c_atomic_order_acq_rel", "__opencl_c_atomic_order_seq_cst",
    "__opencl_c_atomic_scope_device", "__opencl_c_atomic_scope_all_devices",
    "__opencl_c_subgroups", "__opencl_c_images", "__opencl_c_read_write_images",
    "__opencl_c_3d_image_writes",
)

# A 3.0 feature and the extension that go together (spec 6.2.1: a device offers both or
# neither): removing one removes the other.
FEATURE_EXTENSIONS = {"__opencl_c_fp64": "cl_khr_fp64",
                      "__opencl_c_subgroups": "cl_khr_subgroups",
                      "__opencl_c_3d_image_writes": "cl_khr_3d_image_writes"}


def _with_partners(removed) -> frozenset:
    out = set(removed)
    for feature, ext in FEATURE_EXTENSIONS.items():
        if feature in out or ext in out:
            out |= {feature, ext}
    return frozenset(out)


# The optimisation level, and the one of a build with -cl-opt-disable (OpenCL's "disables
# all optimizations"): it compiles several times faster where a kernel's body is long
# (tests/test_types_conversions.py's 3-wide conversions: 9 s a kernel at -O3, 1.5 s at
# -O0), and a test about what a construct computes need not wait for the optimiser.
OPTIMISED, UNOPTIMISED = "-O3", "-O0"

_CFLAGS = ("-std=c11", OPTIMISED, "-fopenmp", "-fno-strict-aliasing",
           "-Wno-unused-function", "-Wno-unknown-pragmas",
           # a call C has no declaration for is a cl2c bug: fail the build, not at dlopen
           "-Werror=implicit-function-declaration",
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
           "-fno-math-errno",
           # Not -fno-trapping-math: with it GCC folds (double)(short)x into trunc(x),
           # which keeps the sign of -0.0 where the conversion gives +0.0 (and the
           # lock-step loops of workgroup/passes/lockstep.py vectorise without it)
           # math builtins that vectorise (clruntime's math.h; linked with -lm)
           "-DCL2C_VECTOR_MATH")

# GCC tunes for Intel's AVX-512 Xeons with 256-bit vectors: a work-item loop of CL2C_LANES
# (64) floats then takes 8 registers a value, and spills (Mandelbrot on a 16-core Xeon,
# GCC 13, one thread: 121 ms, with this flag 69; Black-Scholes at 16 threads 4.08 -> 3.19
# ms; bench/README.md). Zen 4 and 5 already use 512 bits. Not where $CFLAGS chooses.
_WIDE_VECTORS = "-mprefer-vector-width=512"

# GCC (12.2 at least) puts a loop's zeroing of an array, turned into a memset, after
# the loop it split off that updates the same elements (`f[i] = 0; ...; f[i] |= 1`, with
# other stores between that may alias under -fno-strict-aliasing): checking mode's
# per-work-item flags read 0 (tests/compiler_bugs/). Not for clang, which refuses it.
_GCC_ONLY = ("-fno-tree-loop-distribute-patterns",)

# Not -mtls-dialect=gnu2 (1.5 ns less per fiber switch): with glibc before 2.39 the
# TLS descriptor call clobbers the upper halves of AVX registers (glibc bug 31372),
# which miscompiled a kernel here (values lost across cl2c_scratch's first call).
# -lm: glibc's libm brings libmvec in where the vector math is used (math.h)
_LDFLAGS = ("-fopenmp", "-lm")
# Where the runtime's out-of-line code is compiled (clruntime's linkage.h): once per
# kernel cache into an object (precompiled.py, build.py), which each kernels' file links.
RUNTIME_OBJECT, RUNTIME_LINKED = "-DCL2C_RUNTIME_OBJECT", "-DCL2C_RUNTIME_LINKED"


@dataclass(frozen=True)
class Target:
    """Where the emitted C is compiled. ``native``: code for this very CPU
    (-march=native, the JIT's choice); otherwise for any CPU of the architecture."""
    cc: tuple[str, ...] = ("cc",)
    env_cflags: tuple[str, ...] = ()     # $CPPFLAGS and $CFLAGS
    env_ldflags: tuple[str, ...] = ()    # $LDFLAGS
    native: bool = True
    has_float16: bool = True
    version: str = ""                    # the compiler's --version ("" when not probed)
    cpu: str = ""                        # the CPU, for native code
    sanitize: tuple[str, ...] = ()       # the C compiler's sanitizers (-cl2c-sanitize)
    fast_fma: bool = False               # an fma instruction (probed; math.h's
                                         # CL2C_FAST_FMA): contraction fuses
    avx512: bool = False                 # native code for a CPU with AVX-512 (probed)
    optimise: bool = True                # -O3; False: -O0 (-cl-opt-disable)
    gcc: bool = False                    # the compiler is GCC (probed: not clang)

    @property
    def extensions(self) -> tuple[str, ...]:
        return EXTENSIONS + (("cl_khr_fp16",) if self.has_float16 else ())

    def extensions_for(self, cl_std: LanguageVersion, removed=()) -> tuple[str, ...]:
        """The extensions a kernel built for OpenCL C ``cl_std`` sees, less those
        ``removed`` (-cl-ext=-name; removing a feature removes its extension)."""
        removed = _with_partners(removed)
        return tuple(e for e in self.extensions
                     if EXTENSION_SINCE.get(e, CL1_0) <= cl_std and e not in removed)

    def features(self, cl_std: LanguageVersion, removed=()) -> tuple[str, ...]:
        """The OpenCL C 3.0 features a kernel of version ``cl_std`` sees (none before
        3.0), less those ``removed``."""
        removed = _with_partners(removed)
        return tuple(f for f in FEATURES if f not in removed) if cl_std.feature_macros else ()

    def compile_flags(self) -> list[str]:
        """cl2c's own compile flags (the compiler and $CFLAGS come on top)."""
        flags = list(_CFLAGS)
        if not self.optimise:
            flags[flags.index(OPTIMISED)] = UNOPTIMISED
        if self.native:
            flags.insert(2, "-march=native")
        if self.avx512 and not any(f.startswith("-mprefer-vector-width")
                                   for f in self.env_cflags):
            flags.insert(3, _WIDE_VECTORS)
        if self.gcc:
            flags += _GCC_ONLY
        return flags + self._sanitizer_flags()

    def link_flags(self) -> list[str]:
        return list(_LDFLAGS) + self._sanitizer_flags()[:1]

    def _sanitizer_flags(self) -> list[str]:
        if not self.sanitize:
            return []
        return [f"-fsanitize={','.join(self.sanitize)}", "-fno-omit-frame-pointer", "-g"]

    def for_options(self, opts) -> "Target":
        """This target as a build with parsed options ``opts`` compiles: the C compiler's
        sanitizers (-cl2c-sanitize), no optimisation (-cl-opt-disable)."""
        target = self.sanitized(opts.sanitize) if opts.sanitize else self
        return target if opts.optimise else replace(target, optimise=False)

    def sanitized(self, names) -> "Target":
        """This target with the C compiler's sanitizers ``names`` (address, undefined,
        thread)."""
        return replace(self, sanitize=tuple(names))

    def _compiler(self) -> list[str]:
        """The compiler with its flags in distutils' order: the environment's first,
        cl2c's after them (every command below starts so)."""
        return [*self.cc, *self.env_cflags, *self.compile_flags()]

    def shared_library_command(self, c_file: str, out: str, include_dirs: list[str],
                               runtime_object: str | None = None) -> list[str]:
        """The command that builds a plain shared library (a program's, and ``cl2c
        --shared``'s). With ``runtime_object`` (runtime_object_command's), the kernels'
        file compiles none of the runtime's out-of-line code and links that."""
        linked = [RUNTIME_LINKED] if runtime_object else []
        return [*self._compiler(), *linked, "-fPIC", "-shared",
                *(f"-I{d}" for d in include_dirs), c_file,
                *([runtime_object] if runtime_object else []), "-o", out,
                *self.env_ldflags, *self.link_flags()]

    def kernels_object_command(self, c_file: str, out: str,
                               include_dirs: list[str]) -> list[str]:
        """The command that compiles a kernels' file that links the runtime's object into
        an object of its own (beside runtime_object_command's, at the same time: a cache's
        first build), for link_command."""
        return [*self._compiler(), RUNTIME_LINKED, "-fPIC", "-c",
                *(f"-I{d}" for d in include_dirs), c_file, "-o", out]

    def link_command(self, objects: list[str], out: str) -> list[str]:
        """The command that links ``objects`` into a shared library as
        shared_library_command does (the compile flags too: the driver's choices of
        runtime, -fopenmp's and the sanitizers', follow them)."""
        return [*self._compiler(), "-fPIC", "-shared", *objects, "-o", out,
                *self.env_ldflags, *self.link_flags()]

    def runtime_object_command(self, header: str, out: str,
                               include_dirs: list[str]) -> list[str]:
        """The command that compiles the runtime's out-of-line code (``header``, cl2c.h)
        into the object that shared_library_command's libraries link: the same flags."""
        return [*self._compiler(), RUNTIME_OBJECT, "-fPIC", "-x", "c", "-c",
                *(f"-I{d}" for d in include_dirs), header, "-o", out]

    def header_command(self, header: str, out: str, include_dirs: list[str]) -> list[str]:
        """The command that precompiles ``header`` for shared_library_command's compiles
        that link the runtime's object (GCC: the same flags, or it is not used)."""
        return [*self._compiler(), RUNTIME_LINKED, "-fPIC", "-x", "c-header",
                *(f"-I{d}" for d in include_dirs), header, "-o", out]

    def identity(self) -> str:
        """Everything the compile step reads, for the cache key."""
        return "\n".join([shlex.join(self.cc), " ".join(self.compile_flags()),
                          " ".join(self.link_flags()), "CFLAGS=" + shlex.join(self.env_cflags),
                          "LDFLAGS=" + shlex.join(self.env_ldflags),
                          f"native={int(self.native)} float16={int(self.has_float16)}",
                          self.version, platform.machine(), self.cpu])

    def portable(self) -> "Target":
        return replace(self, native=False, cpu="", avx512=False)

    @staticmethod
    def host(native: bool = True) -> "Target":
        """The compiler of this machine as the environment names it ($CC, else
        Python's), probed once per environment."""
        return _probe(*target_environment(), native)

    @staticmethod
    def assumed(native: bool = True) -> "Target":
        """The host's compiler, not probed: _Float16 assumed (GCC 12+ and clang 15+ on
        x86-64 and AArch64 have it). C that computes in half #errors under a compiler
        without it (templates/translation_unit.c.j2)."""
        cc, cflags, ldflags = target_environment()
        return Target(cc, cflags, ldflags, native)


def _python_cc() -> str:
    """The compiler Python was built with (sysconfig's CC). On Linux, from its build-time
    variables alone: ``sysconfig.get_config_var`` works out every variable first, 10-20
    ms of a cache hit (macOS adjusts CC there: it keeps that way)."""
    if sys.platform.startswith("linux"):
        try:
            data = importlib.import_module(sysconfig._get_sysconfigdata_name())
            return data.build_time_vars.get("CC") or ""
        except (AttributeError, ImportError):
            pass
    return sysconfig.get_config_var("CC") or ""


def target_environment() -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """(compiler, extra compile flags, extra link flags) as distutils reads them: $CC,
    else the compiler Python was built with; $CPPFLAGS and $CFLAGS; $LDFLAGS."""
    env = os.environ
    cc = shlex.split(env.get("CC") or _python_cc() or "cc")
    cflags = shlex.split(env.get("CPPFLAGS", "")) + shlex.split(env.get("CFLAGS", ""))
    return tuple(cc), tuple(cflags), tuple(shlex.split(env.get("LDFLAGS", "")))


def _run_all(*cmds: list[str]) -> list[str]:
    """The standard output of each command, run at once (the probe's two compiler
    runs: a cold build waits for both); "" for one that cannot run."""
    import subprocess           # here: a remembered probe (cache.host_target) runs nothing
    procs = []
    for cmd in cmds:
        try:
            procs.append(subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=subprocess.DEVNULL, text=True))
        except OSError:
            procs.append(None)
    outputs = []
    for proc in procs:
        try:
            outputs.append(proc.communicate("", timeout=60)[0] if proc else "")
        except subprocess.SubprocessError:
            proc.kill()
            proc.wait()
            outputs.append("")
    return outputs


@functools.lru_cache(maxsize=None)
def _probe(cc: tuple[str, ...], cflags: tuple[str, ...], ldflags: tuple[str, ...],
           native: bool) -> Target:
    march = ["-march=native"] if native else []
    # scalars.h makes cl2c_half a _Float16 exactly when __FLT16_MAX__ is defined
    macros, version = _run_all([*cc, *cflags, "-std=c11", *march, "-dM", "-E", "-x", "c", "-"],
                               [*cc, "--version"])
    version = version.strip() or "unknown"
    # a model name ("AMD EPYC") may stand for several ISAs: -march=native's macros tell
    cpu = f"{_cpu_model()} {hashlib.sha256(macros.encode()).hexdigest()[:16]}" if native else ""
    # math.h's CL2C_FAST_FMA, from the same macros
    fma = any(m in macros for m in ("__FP_FAST_FMAF", "__FMA__", "__ARM_FEATURE_FMA"))
    return Target(cc, cflags, ldflags, native, "__FLT16_MAX__" in macros, version, cpu,
                  fast_fma=fma, avx512=native and "__AVX512F__" in macros,
                  gcc="__GNUC__" in macros and "__clang__" not in macros)


def _cpu_model() -> str:
    # -march=native binaries are only valid for this CPU model.
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()
