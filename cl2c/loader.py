"""Stage 7: the Python side. Programs, kernels and their arguments.

PyOpenCL's shape without a context or a queue::

    prg = cl2c.Program(src, options="-DN=4").build()
    prg.vadd((n,), None, a, b, c)

Arrays are read and written in place; every mistake in a call is a
``KernelArgError`` (a ``TypeError``/``ValueError``) naming the kernel and the
argument.
"""
from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
import operator
import os
import struct
import sys
import time
import warnings

import numpy as np

from . import buffer_kinds, cache, check_shadows, error_codes, tiers
from . import extents
from . import types as ty
from .diagnostics import BuildError
from .images import Image, Sampler
from .interface import ArgInfo, KernelInterface
from .launch_layout import (SIZE_LIMIT, VALUES_AT, aligned_empty, dtype_for, is_integer,
                            plain_sizes, program_globals, range_formats)
from .timing import StageTimes, timing_wanted


class BuildWarning(UserWarning):
    """A build succeeded with warnings (the text is also in ``Program.build_log``)."""


class KernelArgError(TypeError, ValueError):
    """A wrong argument or launch size in a kernel call."""


class BufferWarning(UserWarning):
    """An array of other numbers than a buffer's pointee (float64 for ``float *``) whose
    bytes are reinterpreted, as ``strict_buffers=False`` asks."""


# cl2c's own launch errors (error_codes): work-items of a group disagreed on their
# barriers (-cl2c-check-barriers); the kernel faulted; SIGINT stopped the launch; checking
# mode (-cl2c-check) found a bug in the kernel (the first finding stops it).
FIBER_BARRIER_DIVERGENCE = error_codes.value("BARRIER_DIVERGENCE")
KERNEL_FAULT = error_codes.value("KERNEL_FAULT")
INTERRUPTED = error_codes.value("INTERRUPTED")
CHECK_FAILED = error_codes.value("CHECK_FAILED")
# check.h's CL2C_CHECK_READ_ONLY: a checked launch's buffer size with it is read-only
_CHECK_READ_ONLY = 1 << (struct.calcsize("N") * 8 - 1)
# codes whose detail (which group, why) is the launching thread's last error
_DETAILED = (error_codes.value("OUT_OF_RESOURCES"), error_codes.value("INVALID_OPERATION"),
             FIBER_BARRIER_DIVERGENCE, KERNEL_FAULT, CHECK_FAILED)


# A module that can set a child of fork() to launch on its calling thread alone (build.py's
# cl2c_loader_after_fork): libgomp's threads do not survive a fork, and a launch in the
# child would wait for them forever. All modules share the one OpenMP runtime: one will do.
_fork_lib = None


def _after_fork_in_child():
    if _fork_lib is not None:
        _fork_lib.cl2c_loader_after_fork()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


class CheckWarning(UserWarning):
    """Checking mode with -cl2c-check=collect found bugs in a launch (one warning per
    launch; ``Kernel.findings`` has them one by one)."""


class LaunchError(RuntimeError):
    """The runtime refused a launch (an OpenCL error code, with its meaning)."""

    def __init__(self, kernel: str, code: int, message: str):
        self.code = code
        super().__init__(f"kernel '{kernel}': {message} (error {code})")


@dataclass(frozen=True)
class WorkGroupInfo:
    """What ``Kernel.work_group_info()`` answers (OpenCL's CL_KERNEL_WORK_GROUP_SIZE,
    CL_KERNEL_COMPILE_WORK_GROUP_SIZE, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE)."""
    max_size: int                 # the most work-items a group of this kernel may have
    compile_size: tuple           # its reqd_work_group_size, (0, 0, 0) where it has none
    preferred_multiple: int       # local sizes that are multiples of it run best


@dataclass(frozen=True)
class LaunchTimes:
    """When a launch ran, as ``kernel(..., profile=True)`` returns it: ``start`` and
    ``end`` in nanoseconds of ``time.perf_counter_ns()``, taken just before and after
    the compiled launch (the arguments packed, NumPy copies not yet made back), as
    PyOpenCL's ``event.profile.start`` and ``.end`` are for an enqueued kernel.
    Launches are synchronous: ``end`` is when the last work-group finished."""
    start: int
    end: int

    @property
    def seconds(self) -> float:
        return (self.end - self.start) * 1e-9


class LocalMemory:
    """A ``__local`` pointer argument: ``nbytes`` of memory per work-group."""

    def __init__(self, nbytes: int):
        if int(nbytes) < 0:
            raise ValueError("LocalMemory size must not be negative")
        self.nbytes = int(nbytes)

    def __repr__(self):
        return f"LocalMemory({self.nbytes})"


class Program:
    """An OpenCL C program: build it, then call its kernels as attributes."""

    def __init__(self, source: str, options: str | list[str] | None = None,
                 filename: str = "<kernel>", strict_buffers: bool | None = None):
        self.source = source
        self.options = options
        self.filename = filename
        # A buffer argument takes any C-contiguous buffer of whole pointee elements, as
        # PyOpenCL's buffers do, but not an array of other numbers (buffer_kinds); False:
        # that too, with a BufferWarning; True: only arrays of the pointee's dtype.
        self.strict_buffers = strict_buffers
        self._translation = None
        self._module = None
        self._kernels: dict[str, Kernel] = {}
        self._globals = None       # its own program-scope __global variables (2.0)
        self.build_seconds = None
        self.from_cache = None
        self.sanitized = False     # built with -cl2c-sanitize=...
        self.build_log = ""        # the translator's warnings, as clGetProgramBuildInfo has
        self._target = None        # what built it (binary.py records its facts)
        self._binary = None        # the program binary it was loaded from (binary.py)
        self._reload = None        # what unpickling calls to load it again (aot.py's)
        self._c_source = None      # its generated C, where a binary carried it
        self._upgrade = None       # the optimised build of a fast tier (tiers.py)

    @classmethod
    def from_file(cls, path: str | os.PathLike, options=None,
                  strict_buffers: bool | None = None) -> "Program":
        path = os.fspath(path)
        from .source_text import read_source
        return cls(read_source(path), options, filename=path, strict_buffers=strict_buffers)

    def build(self, options: str | list[str] | None = None) -> "Program":
        """Translate and compile (or load from the cache). Raises BuildError."""
        # The translator and the compiler only when building: cl2c.load() needs neither.
        from .options import parse_options
        if self.source is None:
            raise RuntimeError(f"program '{self.filename}' was loaded precompiled (cl2c.load);"
                               f" it has no source to build")
        if options is not None:
            self.options = options
        self._binary = self._c_source = None
        start = time.perf_counter()
        times = StageTimes()
        with times.stage("options"):
            parsed = parse_options(self.options)
        with times.stage("compiler probe (remembered)"):
            # probed once per compiler and CPU: it compiles (and then this build will)
            target = cache.host_target(meanwhile=_import_translator, then=lambda probed:
                                       self._start_runtime_early(parsed, probed))
            sanitize = parsed.sanitize
            self.sanitized = bool(sanitize)
            if sanitize:
                from .sanitizers import require_runtime
                require_runtime(sanitize, target)
            target = target.for_options(parsed)
            self._target = target
        self._upgrade = None
        source_key = None
        if cache.cache_enabled():
            with times.stage("digests of cl2c's files"):
                cache.translator_digest()
                cache.runtime_digest()
            with times.stage("cache key"):
                source_key = cache.source_key(self.source, self.filename, parsed.key(),
                                              target.identity())
        entry = source_key is not None and self._load_cached(source_key, bool(sanitize), times)
        hit = bool(entry)
        tier = self._tier_mode(parsed, target, source_key)
        if not hit and tier != tiers.OPTIMISED:
            # the fast tier: -cl-opt-disable's build, from the cache or compiled now
            fast_parsed = dataclasses.replace(parsed, optimise=False)
            fast_target = dataclasses.replace(target, optimise=False)
            fast_key = source_key and cache.source_key(self.source, self.filename,
                                                       fast_parsed.key(),
                                                       fast_target.identity())
            entry = fast_key and self._load_cached(fast_key, bool(sanitize), times)
            hit = bool(entry)
            if not hit:
                entry = self._compile(fast_target, fast_key, times)
            self._target = fast_target
            if tier == tiers.AUTO:
                with times.stage("optimised build started (in the background)"):
                    self._start_upgrade(entry, fast_target, target, source_key)
        elif not hit:
            self._compile(target, source_key, times)
        if self.build_log:
            # as PyOpenCL reports a non-empty build log; -w silences, -Werror fails
            warnings.warn(BuildWarning(self.build_log), stacklevel=2)
        self.build_seconds = time.perf_counter() - start
        if timing_wanted():
            print(times.report(f"{self.filename} (from the cache)" if hit else self.filename),
                  file=sys.stderr)
        return self

    def _start_runtime_early(self, parsed, probed) -> None:
        """Start compiling the runtime's object for the target this build (which will
        compile: a new cache's) compiles for, while it imports and translates."""
        from . import precompiled
        target = probed.for_options(parsed)
        if self._tier_mode(parsed, target, "") != tiers.OPTIMISED:
            target = dataclasses.replace(target, optimise=False)     # the fast tier's
        precompiled.start_early(cache.usable_root(), target)

    def _compile(self, target, source_key: str | None, times: StageTimes) -> dict:
        """Translate and compile for ``target``; cache the program's manifest under
        ``source_key`` (None: no cache). Returns the manifest."""
        from . import precompiled
        if source_key is not None:      # (a cached build links the runtime's object)
            precompiled.start_early(cache.usable_root(), target)    # before the imports
        from .build import build_extension
        from .pipeline import translate
        self._translation = translate(self.source, self.filename, self.options,
                                      target=target, times=times)
        self.build_log = self._translation.warnings
        names = [k.name for k in self._translation.kernels]
        with times.stage("C compile and load"):
            self._module, self.from_cache = build_extension(
                self._translation.c_source, names, self.filename, target,
                self._translation.emitted.parts)
        self._globals = program_globals(self._module)
        interfaces = [k.interface for k in self._translation.kernels]
        self._kernels = {k.name: self._kernel_class()(self, k) for k in interfaces}
        deps = self._translation.preprocessed.dependencies
        entry = {"module": self._module.__name__, "log": self.build_log,
                 "kernels": [k.to_json() for k in interfaces],
                 "dependencies": {p: cache.file_digest(p) for p in deps}}
        if source_key is not None:
            cache.write_manifest(source_key, entry)
        return entry

    def _tier_mode(self, parsed, target, source_key) -> str:
        """CL2C_TIER for this build: optimised where there is nothing to tier (a build
        asked to be unoptimised, -cl-opt-disable), and where the optimised library could
        not take over (checked and sanitized builds keep state in their library; a build
        with no cache has no way to receive it; a process that is not Python cannot start
        the child) unless only the fast tier is asked for."""
        if not target.optimise:
            return tiers.OPTIMISED
        mode = tiers.mode()
        if mode == tiers.AUTO and (parsed.check or parsed.check_barriers or parsed.sanitize
                                   or source_key is None or cache.usable_root() is None
                                   or not tiers.can_start()):
            return tiers.OPTIMISED
        return mode

    def _start_upgrade(self, entry: dict, fast_target, target, source_key: str) -> None:
        """Start the optimised build of the fast tier's C (its translation's, else the
        cache's copy of it), which caches its manifest under ``source_key``."""
        from . import cachedir
        from .build import module_name_for
        root = cache.usable_root()
        names = [k["name"] for k in entry["kernels"]]
        c_source = self._translation.c_source if self._translation is not None else None
        if c_source is None:
            data = cachedir.read_trusted(root / f"{entry['module']}.c")
            c_source = data.decode() if data is not None else None
            if c_source is None or module_name_for(c_source, names, fast_target) != \
                    entry["module"]:
                from .pipeline import translate
                c_source = translate(self.source, self.filename, self.options,
                                     target=target).c_source
        module_name = module_name_for(c_source, names, target)
        parts = self._translation.emitted.parts if self._translation is not None else None
        self._upgrade = tiers.start(c_source, names, self.filename, target, module_name,
                                    root, source_key, dict(entry, module=module_name), parts)
        self._upgrade_target = target

    @property
    def tier(self) -> str:
        """Which library the kernels run on: ``"optimised"``, or ``"fast"`` (compiled
        at -O0: a cold build's first tier, or -cl-opt-disable's)."""
        return "optimised" if self._target is None or self._target.optimise else "fast"

    def wait_optimised(self) -> "Program":
        """Wait for the optimised library of a cold build's fast tier, and run the
        kernels on it from now on (CL2C_TIER, cl2c/tiers.py). Returns the program."""
        if self._upgrade is not None:
            self._upgrade.wait()
            self._take_upgrade()
        return self

    def _take_upgrade(self) -> None:
        """Where the optimised build is done: its library for the next launches, or,
        where it failed, a warning and the fast tier for good."""
        upgrade = self._upgrade
        if upgrade is None or not upgrade.ready():
            return
        self._upgrade = None
        from .build import load_built
        failure = upgrade.failure()
        module = None if failure else load_built(upgrade.module_name, self.filename,
                                                 list(self._kernels))
        if module is None:
            why = failure or "its library is not in the kernel cache"
            warnings.warn(f"{self.filename}: the optimised build failed, and the kernels "
                          f"run unoptimised: {why}",
                          BuildWarning, stacklevel=3)
            return
        self._module, self._target = module, self._upgrade_target
        if timing_wanted():
            print(f"cl2c: {self.filename}: kernels run on the optimised library from now "
                  f"on", file=sys.stderr)

    def _load_cached(self, source_key: str, sanitized: bool, times: StageTimes):
        """Load what an earlier build of the same source, options and target left in the
        cache, with no translation; returns its manifest, or None where there is
        none."""
        from .build import load_built
        with times.stage("manifest and included files"):
            entry = cache.read_manifest(source_key)
        if entry is None:
            return None
        with times.stage("library (verified, loaded)"):
            interfaces = [KernelInterface.from_json(k) for k in entry["kernels"]]
            module = load_built(entry["module"], self.filename, [k.name for k in interfaces],
                                named=sanitized)
        if module is None:
            return None
        with times.stage("kernels' argument tables"):
            self._module, self.from_cache, self.build_log = module, True, entry["log"]
            self._globals = program_globals(module)
            self._translation = None
            self._kernels = {k.name: self._kernel_class()(self, k) for k in interfaces}
        return entry

    @staticmethod
    def _kernel_class():
        """Kernel, or under CL2C_TIME the kind that reports where its first launch's time
        goes."""
        return _TimedKernel if timing_wanted() else Kernel

    @classmethod
    def _from_compiled(cls, module, interfaces, filename: str) -> "Program":
        """A built program from an extension module compiled ahead of time
        (cl2c.load), whose kernels ``interfaces`` describe."""
        prg = cls(None, filename=filename)
        prg._module = module
        prg._globals = program_globals(module)
        prg._kernels = {k.name: Program._kernel_class()(prg, k) for k in interfaces}
        prg.build_seconds = 0.0
        prg.from_cache = False
        return prg

    def to_bytes(self) -> bytes:
        """This program as a program binary (cl2c/binary.py): source and options, and
        once built its compiled library and kernels, which ``Program.from_bytes`` loads
        with no compiler."""
        from .binary import to_bytes
        return to_bytes(self)

    @classmethod
    def from_bytes(cls, data, strict_buffers: bool | None = None) -> "Program":
        """The program of a binary from ``to_bytes``: built from its library (no compiler,
        no translation), or unbuilt where it held only source. Raises cl2c.BinaryError
        where it is damaged, from another cl2c, or its library cannot run here."""
        return program_from_bytes(data, strict_buffers)

    def __reduce__(self):
        # A pickle carries the program binary; unpickling loads its library (a worker
        # needs no compiler), or builds from its source where the library cannot run
        # there. A program of cl2c.load() pickles as its module's name.
        if self.source is None and self._module is not None and self._reload is not None:
            return self._reload, (self._module.__name__, self.strict_buffers)
        return restore_program, (self.to_bytes(), self.strict_buffers)

    @property
    def device(self):
        """The OpenCL device this program's options model (cl2c.device_model.Device): OpenCL C
        version, extensions, 3.0 features."""
        from .device_model import device
        return device(self.options)

    @property
    def kernel_names(self) -> list[str]:
        self._require_built()
        return list(self._kernels)

    @property
    def c_source(self) -> str:
        self._require_built()
        if self._translation is None:
            if self._c_source is not None:      # a program binary carried it
                return self._c_source
            if self.source is None:
                raise RuntimeError(f"program '{self.filename}' was loaded precompiled "
                                   f"(cl2c.load); its C source is not kept")
            # loaded from the cache without translating: translate now (same result)
            from .pipeline import translate
            from .target import Target
            self._translation = translate(self.source, self.filename, self.options,
                                          target=Target.host())
        return self._translation.c_source

    def kernel(self, name: str) -> "Kernel":
        self._require_built()
        try:
            return self._kernels[name]
        except KeyError:
            raise AttributeError(f"program has no kernel named '{name}' (kernels: "
                                 f"{', '.join(self._kernels) or 'none'})") from None

    def all_kernels(self) -> list["Kernel"]:
        self._require_built()
        return list(self._kernels.values())

    def __getattr__(self, name: str) -> "Kernel":
        # Only reached for names that are not regular attributes, so kernels
        # named like "_private" work too.
        if name.startswith("__") or "_kernels" not in self.__dict__:
            raise AttributeError(name)
        return self.kernel(name)

    def _require_built(self):
        if self._module is None:
            raise RuntimeError("the program is not built yet: call .build() first")


# The alignment of value slots: the widest vector's (double16, long16). In a frame's
# block the range comes first, the values at VALUES_AT (launch_layout.py).
_VALUE_ALIGN = 128
_NO_SIZES = (0, 0, 0)        # no local size (cl2c picks one), no global offset
_INVALID_VALUE = error_codes.value("INVALID_VALUE")   # of a launch: a part outside it
_WHOLE = (0, 0)              # group_first, group_count of the whole launch (no part)

# The struct code that packs a scalar dtype, by (kind, size): standard sizes, native order.
_STRUCT_CODES = {("i", 1): "b", ("u", 1): "B", ("i", 2): "h", ("u", 2): "H", ("i", 4): "i",
                 ("u", 4): "I", ("i", 8): "q", ("u", 8): "Q", ("f", 2): "e", ("f", 4): "f",
                 ("f", 8): "d"}
# What a struct code refuses: the argument then takes the slow path, which names it.
_PACK_ERRORS = (struct.error, TypeError, ValueError, OverflowError)


class _Frame:
    """The C memory of one launch: the argument array, the range and the value slots in
    one block, the buffer pointers beside. A kernel keeps a pool of frames, so a launch
    allocates no C memory; two launches at once (two threads, or a launch inside an
    argument's ``__index__``) take two frames."""
    __slots__ = ("argv", "cells", "raw", "base", "block", "range")

    def __init__(self, kernel: "Kernel"):
        ffi = kernel._ffi
        self.argv = ffi.new("void *[]", max(1, len(kernel._params)))
        self.cells = ffi.new("void *[]", max(1, len(kernel._buffers)))
        self.raw = ffi.new("char[]", VALUES_AT + kernel._values_size + _VALUE_ALIGN)
        self.base = -int(ffi.cast("uintptr_t", self.raw)) % _VALUE_ALIGN
        self.block = ffi.buffer(self.raw)          # what struct packs into, from base on
        self.range = ffi.cast("cl2c_range *", self.raw + self.base)
        for j, (i, _) in enumerate(kernel._buffers):
            self.argv[i] = self.cells + j
        for i, _, offset, _ in kernel._values:
            self.argv[i] = self.raw + self.base + VALUES_AT + offset


class Kernel:
    def __init__(self, program: Program, interface: KernelInterface):
        self.program = program
        self.name = interface.name
        self.interface = interface
        self._bind(program._module)
        lib = program._module.lib
        # checking builds: each launch passes its buffers' byte sizes; findings of the
        # last launch (-cl2c-check=collect), one string each
        self._checking = hasattr(lib, "cl2c_loader_checking") and lib.cl2c_loader_checking()
        global _fork_lib
        if _fork_lib is None and hasattr(lib, "cl2c_loader_after_fork"):
            _fork_lib = lib
        self.findings: list[str] = []
        self._params = interface.args
        self.arg_info = [a.info() for a in interface.args]
        self.reqd_work_group_size = interface.reqd_work_group_size
        # printf writes to C's stdout, which the kernel flushes as it ends; what Python
        # printed before the launch goes out first.
        self._printf = interface.printf
        # the program's own __global variables (2.0), which every launch passes
        self._globals = int(self._ffi.cast("uintptr_t", program._globals)) \
            if program._globals is not None else 0
        self._prepare_arguments()
        # buffers with accesses of a known index (extents.py): (their place among the
        # buffer pointers, the argument), and the integer arguments those indices take.
        # Not in checking or sanitized builds: their checks stop such an access, and
        # name its line.
        places = {i: j for j, (i, _) in enumerate(self._buffers)}
        checked = self._checking or getattr(program, "sanitized", False)
        self._extents = [(places[i], p) for i, p in enumerate(self._params)
                         if p.accesses and not checked]
        self._extent_args = sorted(extents.argument_indices(
            [a for _, p in self._extents for a in p.accesses]))
        self._extent_places = [j for j, _ in self._extents]
        self._extents_passed: set = set()

    def _bind(self, module) -> None:
        """Launch through ``module``'s entry point (its cffi types: the frames too)."""
        self._module = module
        self._fn = getattr(module.lib, f"cl2c_argv_{self.interface.name}")
        self._ffi = module.ffi

    def _follow_program(self) -> None:
        """At a launch boundary: the optimised library, once the program has it."""
        if self.program._upgrade is not None:
            self.program._take_upgrade()
        if self._module is not self.program._module:
            self._bind(self.program._module)
            self._prepare_arguments()

    @property
    def num_args(self) -> int:
        return len(self._params)

    @property
    def schedule(self) -> str:
        """How a work-group runs: ``"loops"``, ``"regions"`` or ``"fibers"``."""
        return self.interface.schedule

    @property
    def schedule_reason(self) -> str:
        """Why that schedule, and what it did to the kernel (as the C's first comment
        says)."""
        return self.interface.reason

    def work_group_info(self) -> WorkGroupInfo:
        """The kernel's work-group limits, as clGetKernelWorkGroupInfo answers them (the
        OpenCL platform answers from the same device model)."""
        device = self.program.device
        reqd = self.reqd_work_group_size
        return WorkGroupInfo(
            max_size=reqd[0] * reqd[1] * reqd[2] if reqd else device.max_work_group_size,
            compile_size=tuple(reqd) if reqd else (0, 0, 0),
            preferred_multiple=device.preferred_work_group_size_multiple)

    def __reduce__(self):
        # as its program (a program binary) and its name: a task that takes a kernel
        # travels as one that takes the program
        return _kernel_of, (self.program, self.name)

    def __repr__(self):
        args = ", ".join(f"{a.type_name} {a.name}" for a in self.arg_info)
        return f"<cl2c.Kernel {self.name}({args})>"

    def __call__(self, global_size, local_size=None, *args, global_offset=None,
                 groups=None, rebase=None, profile=False):
        if self._module is not self.program._module or self.program._upgrade is not None:
            self._follow_program()
        frames = self._frames       # (a launch that changes library starts a new pool)
        try:
            frame = frames.pop()
        except IndexError:
            frame = _Frame(self)
        try:
            if type(global_size) is int and 0 <= global_size < SIZE_LIMIT \
                    and local_size is None and global_offset is None:
                nd = (1, global_size, 0, 0)     # work_dim, global, local (0: cl2c picks), offset
            else:
                nd = self._range(global_size, local_size, global_offset)
            part = _WHOLE if groups is None else self._part(groups)
            if len(args) != len(self._params):
                names = ", ".join(p.name for p in self._params)
                raise KernelArgError(f"kernel '{self.name}' takes {len(self._params)} "
                                     f"argument(s) ({names}), {len(args)} given")
            shifts = () if rebase is None else self._rebase_offsets(rebase, args)
            copies = []
            if self._buffers:
                # the buffers' pointers, which keep their memory alive until the launch ends
                held = [convert(args[i], copies) for i, convert in self._buffers]
                if copies:
                    self._share_copies(held, copies)
                frame.cells[0:len(held)] = held
                for j, shift in shifts:
                    frame.cells[j] = self._ffi.cast("char *", held[j]) - shift
            try:
                self._pack[len(nd)](frame.block, frame.base, *nd, self._globals, *part,
                                    *self._pick_values(args))
            except _PACK_ERRORS:
                self._pack_slowly(frame, nd, part, args)
            if self._printf and sys.stdout is not None:
                sys.stdout.flush()
            if self._extents and part is _WHOLE and not shifts:
                # (a part's or a rebased buffer's accesses are not what extents.py bounds)
                self._check_extents(nd, args, held)
            if self._checking:
                self._check_sizes(args, dict((self._buffers[j][0], s) for j, s in shifts))
            if profile:
                start = time.perf_counter_ns()
                code = self._fn(frame.range, frame.argv)
                times = LaunchTimes(start, time.perf_counter_ns())
            else:
                code = self._fn(frame.range, frame.argv)
        finally:
            frames.append(frame)
        for tmp, target in copies:
            np.copyto(target, tmp.view(target.dtype).reshape(target.shape))
        if self._checking:
            self._collect_findings(code)
            check_shadows.after_launch(self.program._module.lib)
        if code == INTERRUPTED:     # (Python's own handler saw the SIGINT too, as a rule)
            raise KeyboardInterrupt(f"kernel '{self.name}' interrupted")
        if code != 0:
            ffi, lib = self._ffi, self.program._module.lib
            message = ffi.string(lib.cl2c_error_string(code)).decode()
            if code in _DETAILED:
                message = ffi.string(lib.cl2c_fiber_last_error()).decode() or message
                message = message.removeprefix(f"kernel '{self.name}': ")
            elif code == _INVALID_VALUE and part is not _WHOLE:
                _, counts = self.work_groups(global_size, local_size)
                message = (f"groups={groups!r} are not all among the launch's "
                           f"{counts[-1]} work-groups of dimension {len(counts) - 1}")
            raise LaunchError(self.name, code, message)
        return times if profile else None

    # ---- parts of a launch -----------------------------------------------------------
    def _part(self, groups) -> tuple:
        """(group_first, group_count) of ``groups``: a range or slice of the launch's
        work-groups along its slowest dimension, start and stop given, step 1. The C side
        checks that they are among the launch's groups."""
        if isinstance(groups, (range, slice)) and groups.step in (None, 1) and \
                is_integer(groups.start) and is_integer(groups.stop) and \
                0 <= groups.start < groups.stop < SIZE_LIMIT:
            return (int(groups.start), int(groups.stop) - int(groups.start))
        raise KernelArgError(f"kernel '{self.name}': groups must be a range or slice of "
                             f"work-groups with a start and a larger stop, step 1 (say "
                             f"range(2, 5)), not {groups!r}")

    def _rebase_offsets(self, rebase, args) -> list:
        """[(place among the buffer pointers, byte offset)] of ``rebase``: a mapping from
        buffer arguments (by name or index) to the bytes subtracted from their pointers
        (a negative offset moves the pointer forward: a block with rows before the
        NDRange's first, a halo)."""
        if not isinstance(rebase, dict):
            raise KernelArgError(f"kernel '{self.name}': rebase must be a dict from buffer "
                                 f"arguments (names or indices) to byte offsets, not "
                                 f"{type(rebase).__name__}")
        names = {p.name: i for i, p in enumerate(self._params)}
        places = {i: j for j, (i, _) in enumerate(self._buffers)}
        shifts = []
        for key, shift in rebase.items():
            i = names.get(key, key if is_integer(key) else None)
            if i is None or not 0 <= i < len(self._params) or \
                    self._params[i].kind != "buffer":
                raise KernelArgError(f"kernel '{self.name}': rebase names {key!r}, which "
                                     f"is not one of its buffer arguments")
            if not is_integer(shift) or not -SIZE_LIMIT < shift < SIZE_LIMIT:
                raise KernelArgError(f"{self._where(self._params[i])}: rebase offset must "
                                     f"be a number of bytes (an int), not {shift!r}")
            if shift and args[i] is not None:
                shifts.append((places[i], int(shift)))
        return shifts

    def work_groups(self, global_size, local_size=None) -> tuple[tuple, tuple]:
        """The local size and the number of work-groups, per dimension, of a launch of this
        kernel with these sizes: the groups cl2c picks where ``local_size`` is None, as the
        launch resolves them (what ``groups=`` counts). LaunchError where the launch would
        fail."""
        nd = self._range(global_size, local_size, None)
        lib, ffi = self.program._module.lib, self._ffi
        if not hasattr(lib, "cl2c_loader_local_size"):
            raise RuntimeError(f"kernel '{self.name}': its library is older than "
                               f"work_groups(); build the program again")
        r = ffi.new("cl2c_range *")
        self._pack_range[len(nd)](ffi.buffer(r), 0, *nd, 0, *_WHOLE)
        reqd = ffi.new("size_t[3]", list(self.reqd_work_group_size)) \
            if self.reqd_work_group_size else ffi.NULL
        local = ffi.new("size_t[3]")
        from .options import parse_options
        non_uniform = parse_options(self.program.options).cl_std.non_uniform_work_groups
        code = lib.cl2c_loader_local_size(r, reqd, int(non_uniform), local)
        if code != 0:
            raise LaunchError(self.name, code, ffi.string(lib.cl2c_error_string(code)).decode())
        dims = nd[0]
        loc = tuple(int(local[d]) for d in range(dims))
        g = nd[1:1 + dims]
        return loc, tuple(-(-n // m) for n, m in zip(g, loc))

    def _check_extents(self, nd, args, held):
        """Refuse a launch whose every work-item makes an access past the end of a buffer
        (or before its start): such writes corrupt the heap, and may not even fault.
        What a launch's range, integer arguments and buffer sizes passed is remembered
        (working it out costs tens of microseconds, a launch a few)."""
        try:        # (a null pointer has no len, an unhashable argument no hash)
            key = (nd, *map(len, held), *map(args.__getitem__, self._extent_args))
            if key in self._extents_passed:
                return
        except TypeError:
            key = None
        sizes = [len(held[j]) if held[j] else 0 for j in self._extent_places]
        values = {k: extents.as_int(args[k]) for k in self._extent_args}
        if None in values.values():
            return
        if len(nd) == 4:        # the short form: 1-D, no offset
            launch = extents.launch_values(1, (nd[1],), (0,), values)
        else:
            launch = extents.launch_values(nd[0], nd[1:4], nd[7:10], values)
        for (_, p), nbytes in zip(self._extents, sizes):
            if launch is None or nbytes == 0:       # no work-items; a null pointer
                continue
            elements = nbytes // max(1, ty.type_size(p.type.pointee))
            for writes in (True, False):
                spans = [s for s in (extents.touched(a, *launch) for a in p.accesses
                                     if a.writes == writes) if s is not None]
                if not spans:
                    continue
                first, last = min(s[0] for s in spans), max(s[1] for s in spans)
                if first < 0 or last >= elements:
                    raise KernelArgError(
                        f"kernel '{self.name}' {'writes' if writes else 'reads'} "
                        f"`{p.name}[{first}..{last}]` but the buffer holds {elements} "
                        f"element{'s' if elements != 1 else ''}")
        if key is not None:
            if len(self._extents_passed) >= 64:
                self._extents_passed.clear()
            self._extents_passed.add(key)

    # ---- checking mode ----------------------------------------------------------------
    def _check_sizes(self, args, shifts=None):
        """The byte size of each buffer argument, for the kernel's bounds checks (of a
        rebased one, from its rebased pointer: the bytes before its memory pass too),
        marked read-only (check.h's CL2C_CHECK_READ_ONLY) where the array is not
        writeable."""
        sizes = [0] * len(self._params)
        read_only = []
        for i, p in enumerate(self._params):
            if p.kind == "buffer" and args[i] is not None:
                try:
                    view = memoryview(args[i])
                    sizes[i] = max(0, view.nbytes + (shifts or {}).get(i, 0))
                    if view.readonly:
                        read_only.append(i)
                except TypeError:
                    sizes[i] = 0
        for i in read_only:
            # not where a writeable argument shares the memory: the range is the buffer's
            if not any(j not in read_only and sizes[j] and
                       np.may_share_memory(args[i], args[j]) for j in range(len(sizes))):
                sizes[i] |= _CHECK_READ_ONLY
        self.program._module.lib.cl2c_loader_check_sizes(sizes, len(sizes))

    def _collect_findings(self, code: int):
        text = self._ffi.string(self.program._module.lib.cl2c_loader_check_findings())
        self.findings = text.decode(errors="replace").splitlines()
        if self.findings and code == 0:
            warnings.warn(CheckWarning("\n".join(self.findings)), stacklevel=3)

    # ---- sizes ----------------------------------------------------------------------
    def _sizes(self, what, value, dims=None):
        if is_integer(value):
            value = (value,)
        elif isinstance(value, np.ndarray) and value.ndim == 1:
            value = tuple(value)        # its elements: NumPy integers, or not sizes
        if not isinstance(value, (tuple, list)) or not all(is_integer(v) for v in value):
            # a string would be its characters, a float truncated: neither is a size
            hint = ""
            if type(value).__module__.startswith("pyopencl"):
                hint = (f" ({type(value).__name__} is PyOpenCL's: cl2c needs no queue or "
                        f"context, call kernel(global_size, local_size, *args) with NumPy "
                        f"arrays; or keep the PyOpenCL program unchanged and run it on the "
                        f"cl2c platform, `cl2c --icd`)")
            raise KernelArgError(f"kernel '{self.name}': {what} must be an int or a tuple of "
                                 f"1 to 3 ints, not {value!r}{hint}")
        sizes = tuple(int(v) for v in value)
        if not 1 <= len(sizes) <= 3 or (dims is not None and len(sizes) != dims):
            want = f"{dims} dimension(s) like the global size" if dims else "1 to 3 dimensions"
            raise KernelArgError(f"kernel '{self.name}': {what} {sizes} must have {want}")
        if any(s < 0 for s in sizes):
            raise KernelArgError(f"kernel '{self.name}': {what} {sizes} must not be negative")
        if any(s >= 1 << 64 for s in sizes):
            raise KernelArgError(f"kernel '{self.name}': {what} {sizes} does not fit a size_t")
        return sizes

    def _range(self, global_size, local_size, global_offset) -> tuple:
        """The launch's cl2c_range as a tuple: work_dim, then global size, local size
        and global offset, 3 each (unused dimensions are not read)."""
        g = plain_sizes(global_size)
        if g is None:
            g = self._sizes("global size", global_size)
        dims = len(g)
        loc = _NO_SIZES
        if local_size is not None:
            loc = plain_sizes(local_size)
            if loc is None or len(loc) != dims or 0 in loc:
                loc = self._sizes("local size", local_size, dims)
                if 0 in loc:
                    raise KernelArgError(f"kernel '{self.name}': local size {loc} has a zero")
        offset = _NO_SIZES
        if global_offset is not None:
            offset = plain_sizes(global_offset)
            if offset is None or len(offset) != dims:
                offset = self._sizes("global offset", global_offset, dims)
        pad = _NO_SIZES[dims:]
        return (dims, *g, *pad, *loc, *_NO_SIZES[len(loc):], *offset, *_NO_SIZES[len(offset):])

    # ---- arguments ------------------------------------------------------------------
    def _prepare_arguments(self):
        """Decide once, from the interface, how each argument is marshalled: a buffer by a
        converter to its pointer; the range, the values and __local sizes packed at once
        by one struct.Struct into fixed slots. A launch then only converts and copies."""
        self._buffers = []          # (argument index, converter to a C pointer)
        self._values = []           # (argument index, param, slot offset, converter|None)
        codes, offset = [], 0
        for i, p in enumerate(self._params):
            if p.kind == "buffer":
                self._buffers.append((i, self._buffer_converter(p)))
                continue
            if p.kind == "image":        # a pointer too: to the image's struct cl2c_image
                self._buffers.append((i, functools.partial(self._image_pointer, p)))
                continue
            code, convert, size, align = self._value_code(p)
            start = -(-offset // align) * align
            codes.append(f"{start - offset}x{code}")
            self._values.append((i, p, start, convert))
            offset = start + size
        self._values_size = offset
        # by the length of the range tuple: a 1-D range with no local size or offset, or all
        ranges = range_formats(self._ffi)
        self._pack = {n: struct.Struct(f"={fmt}{VALUES_AT - size}x{''.join(codes)}").pack_into
                      for n, (fmt, size) in ranges.items()}
        self._pack_range = {n: struct.Struct("=" + fmt).pack_into
                            for n, (fmt, _) in ranges.items()}
        picks = [i for i, *_ in self._values]
        converts = [(i, c) for i, _, _, c in self._values]
        if any(c is not None for _, c in converts):
            self._pick_values = lambda args: [args[i] if c is None else c(args[i])
                                              for i, c in converts]
        elif len(picks) == 1:
            only = picks[0]
            self._pick_values = lambda args: (args[only],)
        else:
            self._pick_values = operator.itemgetter(*picks) if picks else lambda args: ()
        self._frames: list[_Frame] = []

    def _value_code(self, p):
        """(struct code, converter or None, size, alignment) of the slot of value or
        __local argument p. Scalars are packed as given (struct checks them; what it
        refuses takes the slow path); vectors and structs go through _value."""
        if p.kind == "local":
            return "Q", functools.partial(self._local_size, p), 8, 8
        if p.kind == "sampler":
            return "I", functools.partial(self._sampler_value, p), 4, 4
        t = p.type
        dt = dtype_for(t) if isinstance(t, (ty.Scalar, ty.Enum)) else None
        code = _STRUCT_CODES.get((dt.kind, dt.itemsize)) if dt is not None else None
        size, align = max(1, ty.type_size(t)), ty.type_align(t)
        if code is not None:
            return code, None, size, align
        return f"{size}s", functools.partial(self._value, p), size, align

    def _pack_slowly(self, frame, nd, part, args):
        """The range, then each value by the rules of _value: a KernelArgError naming the
        first argument the packed path refused, or the bytes it takes."""
        self._pack_range[len(nd)](frame.block, frame.base, *nd, self._globals, *part)
        at = frame.raw + frame.base + VALUES_AT
        for i, p, offset, _ in self._values:
            if p.kind == "local":
                data = np.uint64(self._local_size(p, args[i])).tobytes()
            elif p.kind == "sampler":
                data = np.uint32(self._sampler_value(p, args[i])).tobytes()
            else:
                data = self._value(p, args[i])
            self._ffi.memmove(at + offset, data, len(data))

    def _where(self, p) -> str:
        return f"kernel '{self.name}' argument '{p.name}' ({p.type_name})"

    def _local_size(self, p, value) -> int:
        if not isinstance(value, LocalMemory):
            raise KernelArgError(f"{self._where(p)}: a __local pointer takes "
                                 f"cl2c.LocalMemory(nbytes), not {type(value).__name__}")
        return value.nbytes

    def _sampler_value(self, p, value) -> int:
        if not isinstance(value, Sampler):
            raise KernelArgError(f"{self._where(p)}: a sampler_t takes cl2c.Sampler("
                                 f"normalized_coords, addressing_mode, filter_mode), not "
                                 f"{type(value).__name__}")
        return value.value

    def _image_pointer(self, p, value, copies):
        """The C pointer to the struct cl2c_image of image argument p (a cdata that keeps
        the image alive): a cl2c.Image of the kernel's image type."""
        if not isinstance(value, Image):
            raise KernelArgError(f"{self._where(p)}: an image takes a cl2c.Image, not "
                                 f"{type(value).__name__}")
        if value.type_name != p.type.name:
            raise KernelArgError(f"{self._where(p)}: expected an image for {p.type.name}, "
                                 f"got a {value.kind} {value.channel_order} image "
                                 f"({value.type_name})")
        return self._ffi.from_buffer(value._desc)

    def _buffer_converter(self, p):
        """The function that turns what a caller passes for buffer p into a C pointer
        (a cdata that keeps the memory alive): a fast path for an array of the
        pointee's own dtype, _buffer_pointer for everything else and every error."""
        slow = functools.partial(self._buffer_pointer, p)
        want = dtype_for(p.type.pointee)
        if want is None:
            return slow
        from_buffer, as_bytes = self._ffi.from_buffer, self._ffi.typeof("char[]")
        # NumPy's "aligned" flag says the pointee's alignment too where the dtype's is as large
        # (and the alignment the kernel's casts rely on)
        aligned_by_dtype = want.alignment >= p.start_align
        written = p.written

        def convert(value, copies):
            if type(value) is np.ndarray and value.dtype is want and aligned_by_dtype:
                try:    # refuses an array that is not C-contiguous, or read-only if written
                    ptr = from_buffer(as_bytes, value, written)
                except (ValueError, TypeError, BufferError):
                    return slow(value, copies)
                if len(ptr) and value.flags.aligned:
                    return ptr
            return slow(value, copies)
        return convert

    def _buffer_pointer(self, p, value, copies):
        """The C pointer for buffer argument p (a cdata that keeps the memory alive), by
        the rules of any buffer: C-contiguous, writable where the kernel writes, a whole
        number of pointee elements; the dtype too in strict mode. Memory not aligned as
        the pointee needs is copied to memory that is (and back, if the kernel writes)."""
        ffi = self._ffi
        if value is None:
            return ffi.NULL          # OpenCL's null buffer: the kernel must not dereference it
        arr = value
        if not isinstance(arr, np.ndarray):
            try:
                mv = memoryview(value)
            except TypeError:
                raise KernelArgError(f"{self._where(p)}: expected a NumPy array or a buffer, "
                                     f"not {type(value).__name__}") from None
            if not mv.c_contiguous:
                raise KernelArgError(f"{self._where(p)}: the buffer is not C-contiguous")
            if p.written and mv.readonly:
                raise KernelArgError(f"{self._where(p)}: the kernel writes this buffer but "
                                     f"the object given is read-only")
            arr = np.frombuffer(mv, np.uint8)  # its bytes; no dtype to check, even strict
        else:
            if not arr.flags.c_contiguous:
                raise KernelArgError(f"{self._where(p)}: the array is not C-contiguous "
                                     f"(use np.ascontiguousarray)")
            if p.written and not arr.flags.writeable:
                raise KernelArgError(f"{self._where(p)}: the kernel writes this buffer but the "
                                     f"array is read-only")
            if self.program.strict_buffers:
                self._check_dtype(p, arr)
            else:
                self._check_numbers(p, value, arr.dtype)
            arr = arr.reshape(-1).view(np.uint8)
        self._check_size(p, arr.nbytes)
        # Vector and struct pointees need their natural alignment in C, and a pointer the
        # kernel casts to a more aligned type (float * to float16 *) what OpenCL's buffers
        # have (sema/whole_program.py); NumPy's large arrays start 16 bytes past a line.
        # (Checking builds pass an array misaligned for its pointee as it is: they report
        # it "misaligned", check.h.)
        align = p.start_align
        if self._checking and arr.ctypes.data % ty.type_align(p.type.pointee):
            align = 1
        if align > 1 and arr.ctypes.data % align:
            tmp = aligned_empty(arr.nbytes, align)
            tmp[:] = arr
            copies.append((tmp, arr, p.written))
            arr = tmp
        return ffi.from_buffer(arr)

    def _share_copies(self, held, copies):
        """One buffer is one buffer, placed or not: the arguments that name the memory
        of a placed copy (the same array twice, one of them cast to float16 *) all get
        that copy, which goes back if any of them may write. Leaves in ``copies`` the
        (copy, array) pairs to write back."""
        ffi = self._ffi
        placed, of_copy = {}, {}        # (address, bytes) of the memory -> [copy, array, written]
        for tmp, target, _ in copies:
            key = (target.ctypes.data, target.nbytes)
            placed.setdefault(key, [tmp, target, False])
            of_copy[tmp.ctypes.data] = key
        for j, (i, _) in enumerate(self._buffers):
            if held[j] == ffi.NULL:
                continue
            address = int(ffi.cast("uintptr_t", held[j]))
            key = of_copy.get(address, (address, len(held[j])))
            entry = placed.get(key)
            if entry is not None:
                entry[2] |= bool(self._params[i].written)
                if address != entry[0].ctypes.data:
                    held[j] = ffi.from_buffer(entry[0])
        copies[:] = [(tmp, target) for tmp, target, written in placed.values() if written]

    def _check_size(self, p, nbytes: int):
        """A buffer holds a whole number of pointee elements, and at least one: OpenCL
        has no empty buffers (clCreateBuffer refuses size 0), None is the null one."""
        pointee = p.type.pointee
        size = 1 if pointee.is_void else max(1, ty.type_size(pointee))
        if nbytes == 0:
            raise KernelArgError(f"{self._where(p)}: the buffer is empty (OpenCL has no "
                                 f"buffers of 0 bytes; None passes a null pointer)")
        if nbytes % size:
            raise KernelArgError(f"{self._where(p)}: {nbytes} bytes are not a whole number "
                                 f"of {pointee} elements ({size} bytes each)")

    def _check_numbers(self, p, value, got):
        """An array of other numbers than the pointee's: an error, or with
        strict_buffers=False a warning that its bytes are reinterpreted."""
        want = buffer_kinds.mismatch(p.type.pointee, got)
        if want is None:
            return
        article = "an" if got.name.startswith("i") else "a"
        what = f"{self._where(p)}: {article} {got} array for `{p.type_name}`"
        fix = f"pass {p.name}.astype(np.{want})"
        if self.program.strict_buffers is None:
            raise KernelArgError(f"{what} ({fix}, or strict_buffers=False to reinterpret "
                                 f"its bytes)")
        warnings.warn(f"{what}: its bytes are reinterpreted, as strict_buffers=False asks "
                      f"({fix} to convert it)", BufferWarning, stacklevel=_outside_cl2c())

    def _check_dtype(self, p, arr):
        pointee = p.type.pointee
        if isinstance(pointee, ty.Atomic):      # atomic_int *: an int32 array
            pointee = pointee.value
        want = dtype_for(pointee)
        got = arr.dtype
        if want is None:                      # structs and unions: by size
            size = ty.type_size(pointee)
            if got.itemsize == size or (got.itemsize == 1 and arr.nbytes % max(1, size) == 0):
                return
            raise KernelArgError(f"{self._where(p)}: expected elements of {size} bytes "
                                 f"(a structured dtype or bytes), got dtype {got}")
        if isinstance(pointee, ty.Vector):
            elem = dtype_for(pointee.elem)
            if got == want or (got.fields is not None and got.itemsize == want.itemsize):
                return
            if got == elem:
                padded = 4 if pointee.n == 3 else pointee.n
                if arr.size % padded:
                    raise KernelArgError(f"{self._where(p)}: a {elem} array for {pointee}* "
                                         f"needs a multiple of {padded} elements, got "
                                         f"{arr.size}")
                return
            raise KernelArgError(f"{self._where(p)}: expected dtype {elem} (groups of "
                                 f"{pointee.n}) or cl2c.cltypes.{pointee.name}, got {got}")
        if pointee.is_void:
            return
        if pointee == ty.HALF and got == np.uint16:
            return                   # half bits as cl_half (uint16), as OpenCL hosts keep them
        if got != want:
            raise KernelArgError(f"{self._where(p)}: expected dtype {want}, got {got}")

    def _value(self, p, value) -> bytes:
        t = p.type
        if isinstance(t, ty.Scalar) or isinstance(t, ty.Enum):
            dt = dtype_for(t) if isinstance(t, ty.Scalar) else np.dtype(np.int32)
            return _scalar_bytes(value, dt, self._where(p))
        if isinstance(t, ty.Pointer):
            raise KernelArgError(f"{self._where(p)}: pointers are passed as arrays")
        size = ty.type_size(t)
        if isinstance(value, (bytes, bytearray, memoryview)):
            data = bytes(value)
        elif isinstance(value, (np.void, np.ndarray)):
            data = np.asarray(value).tobytes()
        elif isinstance(t, ty.Vector) and isinstance(value, (tuple, list)):
            if len(value) != t.n:
                raise KernelArgError(f"{self._where(p)}: expected {t.n} components, got "
                                     f"{len(value)}")
            elem = dtype_for(t.elem)
            parts = [_scalar_bytes(v, elem, self._where(p)) for v in value]
            data = b"".join(parts) + b"\0" * (size - len(parts) * elem.itemsize)
        else:
            raise KernelArgError(f"{self._where(p)}: expected a cl2c.cltypes value, a NumPy "
                                 f"structured scalar or {size} bytes, not "
                                 f"{type(value).__name__}")
        if len(data) != size:
            raise KernelArgError(f"{self._where(p)}: expected {size} bytes, got {len(data)}")
        return data


class _TimedKernel(Kernel):
    """A kernel that says, under CL2C_TIME, where its first launch's time goes: the
    Python side (a frame, the arguments' conversion and packing, the checks) and the C
    call (the kernel's work and, at a process's first launch, OpenMP starting its
    threads). Its later launches run as any kernel's."""

    def __call__(self, *args, **kwargs):
        if getattr(self, "_timed", False):
            return super().__call__(*args, **kwargs)
        self._timed = True
        self._follow_program()
        c_call, times = self._fn, StageTimes()

        def timed_c_call(*c_args):
            t = time.perf_counter()
            try:
                return c_call(*c_args)
            finally:
                c_seconds.append(time.perf_counter() - t)

        c_seconds: list[float] = []
        self._fn = timed_c_call
        start = time.perf_counter()
        try:
            return super().__call__(*args, **kwargs)
        finally:
            total = time.perf_counter() - start
            if self._fn is timed_c_call:    # (not where the launch changed library)
                self._fn = c_call
            ran = sum(c_seconds)
            times.stages = [("frame, arguments, checks (Python)", total - ran),
                            ("kernel (C; the first launch also starts OpenMP)", ran)]
            print(times.report(f"the first launch of kernel '{self.name}'"), file=sys.stderr)


def _import_translator() -> None:
    """What a build that misses the cache imports (while the compiler is probed)."""
    from . import pipeline, build  # noqa: F401


def _kernel_of(program: Program, name: str) -> Kernel:
    return program.kernel(name)


def _outside_cl2c() -> int:
    """The stacklevel for warnings.warn, called where this is, of the first caller
    outside cl2c: the user's line that passed the argument."""
    here = os.path.dirname(__file__)
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(here + os.sep):
        frame, level = frame.f_back, level + 1
    return level


def _scalar_bytes(value, dt: np.dtype, where: str) -> bytes:
    if isinstance(value, np.ndarray) and value.shape == ():
        value = value[()]
    if isinstance(value, (str, bytes)):     # int("64") would take it: PyOpenCL does not
        raise KernelArgError(f"{where}: expected a number, got {type(value).__name__}")
    if dt.kind in "iub":
        if isinstance(value, (float, np.floating)) and not float(value).is_integer():
            raise KernelArgError(f"{where}: expected an integer, got {value!r}")
        try:
            iv = int(value)
        except (TypeError, ValueError):
            raise KernelArgError(f"{where}: expected an integer, got "
                                 f"{type(value).__name__}") from None
        info = np.iinfo(dt) if dt.kind != "b" else None
        if info is not None and not info.min <= iv <= info.max:
            raise KernelArgError(f"{where}: {iv} is out of range [{info.min}, {info.max}]")
        return np.array(iv, dtype=dt).tobytes()
    try:
        fv = float(value)
    except (TypeError, ValueError):
        raise KernelArgError(f"{where}: expected a number, got "
                             f"{type(value).__name__}") from None
    return np.array(fv, dtype=dt).tobytes()


__all__ = ["Program", "Kernel", "LocalMemory", "ArgInfo", "KernelArgError", "BufferWarning",
           "LaunchError", "BuildError"]


# ---- programs from program binaries (binary.py's format) -------------------------------

def program_from_bytes(data, strict_buffers: bool | None = None, rebuild: bool = False):
    """The :class:`cl2c.Program` of a binary: built from its library with no compiler and
    no translation (or, unbuilt, as its source and options). BinaryError where it cannot
    be used; with ``rebuild``, a binary whose library alone cannot run here is built from
    its source instead (with a BinaryRebuildWarning)."""
    from .binary import BinaryError, BinaryRebuildWarning, ProgramBinary
    start = time.perf_counter()
    binary = ProgramBinary.decode(data)
    if not binary.libraries and binary.kernels is None:
        if binary.source is None:
            raise BinaryError("program binary holds neither a library nor a source",
                              "library")
        return Program(binary.source, binary.options or None, binary.filename,
                       strict_buffers)
    problem = binary.unusable("extension")
    if problem is None:
        try:
            prg = _program_of_binary(binary, strict_buffers)
        except BinaryError as e:
            problem = e
        else:
            prg.build_seconds = time.perf_counter() - start
            return prg
    if not (rebuild and problem.rebuildable):
        raise problem
    import shutil
    from .target import target_environment
    compiler = target_environment()[0][0]
    if shutil.which(compiler) is None:     # say so before translating for nothing
        raise BinaryError(f"{problem}; it cannot be built from its source here either: "
                          f"no C compiler ('{compiler}' is not found)", problem.reason)
    prg = Program(binary.source, binary.options or None, binary.filename, strict_buffers)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")      # its build log was the builder's to see
            prg.build()
    except Exception as e:
        raise BinaryError(f"{problem}; building from its source failed too: {e}",
                          problem.reason) from e
    warnings.warn(BinaryRebuildWarning(f"cl2c: {problem}; built from its source instead"),
                  stacklevel=2)
    return prg


def _program_of_binary(binary, strict_buffers) -> "Program":
    """The Program of a binary whose library runs here, loaded from it."""
    from .binary import MODULE_NAME, BinaryError, malformed
    from .build import load_image
    from .diagnostics import BuildError
    from .interface import KernelInterface
    from .launch_layout import program_globals
    module_name = binary.info.get("module", "")
    if not MODULE_NAME.match(module_name) or binary.kernels is None:
        raise malformed("its library has no valid module name or kernel list")
    try:
        interfaces = [KernelInterface.from_json(k) for k in binary.kernels]
    except (KeyError, TypeError, ValueError) as e:
        raise malformed(f"its kernel interfaces do not read ({e})") from None
    names = [k.name for k in interfaces]
    try:
        module = load_image(module_name, binary.libraries["extension"], binary.filename,
                            names, named=bool(binary.info.get("sanitize")))
    except BuildError as e:
        raise BinaryError(f"program binary's library does not load: {e}", "library",
                          binary.source is not None) from None
    missing = [n for n in names if not hasattr(module.lib, f"cl2c_argv_{n}")]
    if missing:
        raise malformed(f"its library lacks kernels {', '.join(missing)}")
    prg = Program(binary.source, binary.options or None, binary.filename, strict_buffers)
    prg._module = module
    prg._globals = program_globals(module)
    prg._kernels = {k.name: Program._kernel_class()(prg, k) for k in interfaces}
    prg.build_log = binary.build_log
    prg.sanitized = bool(binary.info.get("sanitize"))
    prg.from_cache = False
    prg._c_source = binary.c_source
    prg._binary = binary
    return prg


def restore_program(data: bytes, strict_buffers: bool | None = None):
    """What a pickled Program unpickles through: from_bytes, rebuilding from the source
    where the library cannot run here and a compiler can."""
    return program_from_bytes(data, strict_buffers, rebuild=True)
