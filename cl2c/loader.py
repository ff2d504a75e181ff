"""Stage 7: the Python side. Programs, kernels and their arguments.

PyOpenCL's shape without a context or a queue::

    prg = cl2c.Program(src, options="-DN=4").build()
    prg.vadd((n,), None, a, b, c)

Arrays are read and written in place; every mistake in a call is a
``KernelArgError`` (a ``TypeError``/``ValueError``) naming the kernel and the
argument.
"""
from __future__ import annotations

import os
import sys
import time
import warnings

import numpy as np

from . import cache
from . import types as ty
from .cltypes import SCALARS
from .diagnostics import BuildError
from .interface import ArgInfo, KernelInterface
from .timing import StageTimes


class BuildWarning(UserWarning):
    """A build succeeded with warnings (the text is also in ``Program.build_log``)."""


class KernelArgError(TypeError, ValueError):
    """A wrong argument or launch size in a kernel call."""


# cl2c's own launch errors (clruntime host.h): work-items of a group disagreed on their
# barriers (-cl2c-check-barriers); the kernel faulted; SIGINT stopped the launch.
FIBER_BARRIER_DIVERGENCE = -1100
KERNEL_FAULT = -1101
INTERRUPTED = -1102
# codes whose detail (which group, why) is the launching thread's last error
_DETAILED = (-5, -59, FIBER_BARRIER_DIVERGENCE, KERNEL_FAULT)


class LaunchError(RuntimeError):
    """The runtime refused a launch (an OpenCL error code, with its meaning)."""

    def __init__(self, kernel: str, code: int, message: str):
        self.code = code
        super().__init__(f"kernel '{kernel}': {message} (error {code})")


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
                 filename: str = "<kernel>"):
        self.source = source
        self.options = options
        self.filename = filename
        self._translation = None
        self._module = None
        self._kernels: dict[str, Kernel] = {}
        self._globals = None       # its own program-scope __global variables (2.0)
        self.build_seconds = None
        self.from_cache = None
        self.build_log = ""        # the translator's warnings, as clGetProgramBuildInfo has

    @classmethod
    def from_file(cls, path: str | os.PathLike, options=None) -> "Program":
        path = os.fspath(path)
        from .source_text import read_source
        return cls(read_source(path), options, filename=path)

    def build(self, options: str | list[str] | None = None) -> "Program":
        """Translate and compile (or load from the cache). Raises BuildError."""
        # The translator and the compiler only when building: cl2c.load() needs neither.
        from .options import parse_options
        from .target import Target
        if self.source is None:
            raise RuntimeError(f"program '{self.filename}' was loaded precompiled (cl2c.load);"
                               f" it has no source to build")
        if options is not None:
            self.options = options
        start = time.perf_counter()
        times = StageTimes()
        with times.stage("target"):
            target = Target.host()     # probed here, once per environment: it compiles
        with times.stage("cache lookup"):
            source_key = cache.source_key(self.source, self.filename,
                                          parse_options(self.options).key(),
                                          target.identity()) \
                if cache.cache_enabled() else None
            hit = source_key is not None and self._load_cached(source_key)
        if not hit:
            from .build import build_extension
            from .pipeline import translate
            self._translation = translate(self.source, self.filename, self.options,
                                          target=target, times=times)
            self.build_log = self._translation.warnings
            names = [k.name for k in self._translation.kernels]
            with times.stage("C compile and load"):
                self._module, self.from_cache = build_extension(
                    self._translation.c_source, names, self.filename, target)
            self._globals = _program_globals(self._module)
            interfaces = [k.interface for k in self._translation.kernels]
            self._kernels = {k.name: Kernel(self, k) for k in interfaces}
            if source_key is not None:
                deps = self._translation.preprocessed.dependencies
                cache.write_manifest(source_key, {
                    "module": self._module.__name__, "log": self.build_log,
                    "kernels": [k.to_json() for k in interfaces],
                    "dependencies": {p: cache.file_digest(p) for p in deps}})
        if self.build_log:
            # as PyOpenCL reports a non-empty build log; -w silences, -Werror fails
            warnings.warn(BuildWarning(self.build_log), stacklevel=2)
        self.build_seconds = time.perf_counter() - start
        if os.environ.get("CL2C_TIME", "") not in ("", "0"):
            print(times.report(f"{self.filename} (from the cache)" if hit else self.filename),
                  file=sys.stderr)
        return self

    def _load_cached(self, source_key: str) -> bool:
        """Load what an earlier build of the same source, options and target left in the
        cache, with no translation; False where there is none."""
        from .build import load_built
        entry = cache.read_manifest(source_key)
        if entry is None:
            return False
        interfaces = [KernelInterface.from_json(k) for k in entry["kernels"]]
        module = load_built(entry["module"], self.filename, [k.name for k in interfaces])
        if module is None:
            return False
        self._module, self.from_cache, self.build_log = module, True, entry["log"]
        self._globals = _program_globals(module)
        self._translation = None
        self._kernels = {k.name: Kernel(self, k) for k in interfaces}
        return True

    @classmethod
    def _from_compiled(cls, module, interfaces, filename: str) -> "Program":
        """A built program from an extension module compiled ahead of time
        (cl2c.load), whose kernels ``interfaces`` describe."""
        prg = cls(None, filename=filename)
        prg._module = module
        prg._globals = _program_globals(module)
        prg._kernels = {k.name: Kernel(prg, k) for k in interfaces}
        prg.build_seconds = 0.0
        prg.from_cache = False
        return prg

    @property
    def kernel_names(self) -> list[str]:
        self._require_built()
        return list(self._kernels)

    @property
    def c_source(self) -> str:
        self._require_built()
        if self._translation is None:
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


class Kernel:
    def __init__(self, program: Program, interface: KernelInterface):
        self.program = program
        self.name = interface.name
        self.interface = interface
        self._fn = getattr(program._module.lib, f"cl2c_argv_{interface.name}")
        self._ffi = program._module.ffi
        self._params = interface.args
        self.arg_info = [a.info() for a in interface.args]
        self.reqd_work_group_size = interface.reqd_work_group_size
        # printf writes to C's stdout, which the kernel flushes as it ends; what Python
        # printed before the launch goes out first.
        self._printf = interface.printf

    @property
    def num_args(self) -> int:
        return len(self._params)

    def __repr__(self):
        args = ", ".join(f"{a.type_name} {a.name}" for a in self.arg_info)
        return f"<cl2c.Kernel {self.name}({args})>"

    def __call__(self, global_size, local_size=None, *args, global_offset=None, wait=True):
        ffi = self._ffi
        rng = ffi.new("cl2c_range *")
        self._fill_range(rng, global_size, local_size, global_offset)
        rng.globals = self.program._globals
        if len(args) != len(self._params):
            names = ", ".join(p.name for p in self._params)
            raise KernelArgError(f"kernel '{self.name}' takes {len(self._params)} argument(s) "
                                 f"({names}), {len(args)} given")
        keep, copies = [], []
        argv = ffi.new("void *[]", max(1, len(args)))
        for i, (p, value) in enumerate(zip(self._params, args)):
            argv[i] = self._marshal(p, value, keep, copies)
        if self._printf and sys.stdout is not None:
            sys.stdout.flush()
        code = self._fn(rng, argv)
        for tmp, target in copies:
            np.copyto(target, tmp.view(target.dtype).reshape(target.shape))
        if code == INTERRUPTED:     # (Python's own handler saw the SIGINT too, as a rule)
            raise KeyboardInterrupt(f"kernel '{self.name}' interrupted")
        if code != 0:
            lib = self.program._module.lib
            message = ffi.string(lib.cl2c_error_string(code)).decode()
            if code in _DETAILED:
                message = ffi.string(lib.cl2c_fiber_last_error()).decode() or message
                message = message.removeprefix(f"kernel '{self.name}': ")
            raise LaunchError(self.name, code, message)
        return None

    # ---- sizes ----------------------------------------------------------------------
    def _sizes(self, what, value, dims=None):
        if _is_integer(value):
            value = (value,)
        elif isinstance(value, np.ndarray) and value.ndim == 1:
            value = tuple(value)        # its elements: NumPy integers, or not sizes
        if not isinstance(value, (tuple, list)) or not all(_is_integer(v) for v in value):
            # a string would be its characters, a float truncated: neither is a size
            raise KernelArgError(f"kernel '{self.name}': {what} must be an int or a tuple of "
                                 f"1 to 3 ints, not {value!r}")
        sizes = tuple(int(v) for v in value)
        if not 1 <= len(sizes) <= 3 or (dims is not None and len(sizes) != dims):
            want = f"{dims} dimension(s) like the global size" if dims else "1 to 3 dimensions"
            raise KernelArgError(f"kernel '{self.name}': {what} {sizes} must have {want}")
        if any(s < 0 for s in sizes):
            raise KernelArgError(f"kernel '{self.name}': {what} {sizes} must not be negative")
        if any(s >= 1 << 64 for s in sizes):
            raise KernelArgError(f"kernel '{self.name}': {what} {sizes} does not fit a size_t")
        return sizes

    def _fill_range(self, rng, global_size, local_size, global_offset):
        g = self._sizes("global size", global_size)
        rng.work_dim = len(g)
        for d, v in enumerate(g):
            rng.global_size[d] = v
        if local_size is not None:
            loc = self._sizes("local size", local_size, len(g))
            for d, v in enumerate(loc):
                if v == 0:
                    raise KernelArgError(f"kernel '{self.name}': local size {loc} has a zero")
                rng.local_size[d] = v
        if global_offset is not None:
            for d, v in enumerate(self._sizes("global offset", global_offset, len(g))):
                rng.global_offset[d] = v

    # ---- arguments ------------------------------------------------------------------
    def _where(self, p) -> str:
        return f"kernel '{self.name}' argument '{p.name}' ({p.type_name})"

    def _marshal(self, p, value, keep, copies):
        ffi = self._ffi
        if p.kind == "local":
            if not isinstance(value, LocalMemory):
                raise KernelArgError(f"{self._where(p)}: a __local pointer takes "
                                     f"cl2c.LocalMemory(nbytes), not {type(value).__name__}")
            return self._value_bytes(np.uint64(value.nbytes).tobytes(), keep)
        if p.kind == "buffer":
            ptr = self._buffer_pointer(p, value, keep, copies)
            cell = ffi.new("void **", ptr)
            keep.append(cell)
            return cell
        return self._value_bytes(self._value(p, value), keep)

    def _value_bytes(self, data: bytes, keep):
        # 64-byte alignment: the alignment of the widest vector (double16/long16).
        ffi = self._ffi
        raw = ffi.new("char[]", len(data) + 64)
        keep.append(raw)
        addr = int(ffi.cast("uintptr_t", raw))
        offset = (-addr) % 64
        dst = raw + offset
        ffi.memmove(dst, data, len(data))
        return ffi.cast("void *", dst)

    def _buffer_pointer(self, p, value, keep, copies):
        ffi = self._ffi
        if value is None:
            return ffi.NULL
        arr = value
        if not isinstance(arr, np.ndarray):
            try:
                mv = memoryview(value)
            except TypeError:
                raise KernelArgError(f"{self._where(p)}: expected a NumPy array or a buffer, "
                                     f"not {type(value).__name__}") from None
            if p.written and mv.readonly:
                raise KernelArgError(f"{self._where(p)}: the kernel writes this buffer but "
                                     f"the object given is read-only")
            keep.append(value)
            return ffi.cast("void *", ffi.from_buffer(value, require_writable=False))
        if not arr.flags.c_contiguous:
            raise KernelArgError(f"{self._where(p)}: the array is not C-contiguous "
                                 f"(use np.ascontiguousarray)")
        if p.written and not arr.flags.writeable:
            raise KernelArgError(f"{self._where(p)}: the kernel writes this buffer but the "
                                 f"array is read-only")
        self._check_dtype(p, arr)
        align = ty.type_align(p.type.pointee)
        if align > 1 and arr.ctypes.data % align:
            # Vector and struct pointees need their natural alignment in C.
            tmp = _aligned_empty(arr.nbytes, align)
            tmp[:] = arr.reshape(-1).view(np.uint8)
            if p.written:
                copies.append((tmp, arr))
            arr = tmp
        keep.append(arr)
        return ffi.cast("void *", arr.ctypes.data) if arr.size else ffi.NULL

    def _check_dtype(self, p, arr):
        pointee = p.type.pointee
        if isinstance(pointee, ty.Atomic):      # atomic_int *: an int32 array
            pointee = pointee.value
        want = _dtype_for(pointee)
        got = arr.dtype
        if want is None:                      # structs and unions: by size
            size = ty.type_size(pointee)
            if got.itemsize == size or (got.itemsize == 1 and arr.nbytes % max(1, size) == 0):
                return
            raise KernelArgError(f"{self._where(p)}: expected elements of {size} bytes "
                                 f"(a structured dtype or bytes), got dtype {got}")
        if isinstance(pointee, ty.Vector):
            elem = _dtype_for(pointee.elem)
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
            dt = _dtype_for(t) if isinstance(t, ty.Scalar) else np.dtype(np.int32)
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
            elem = _dtype_for(t.elem)
            parts = [_scalar_bytes(v, elem, self._where(p)) for v in value]
            data = b"".join(parts) + b"\0" * (size - len(parts) * elem.itemsize)
        else:
            raise KernelArgError(f"{self._where(p)}: expected a cl2c.cltypes value, a NumPy "
                                 f"structured scalar or {size} bytes, not "
                                 f"{type(value).__name__}")
        if len(data) != size:
            raise KernelArgError(f"{self._where(p)}: expected {size} bytes, got {len(data)}")
        return data


def _program_globals(module):
    """A program's own instance of its program-scope __global variables (OpenCL C
    2.0), initialised, or NULL where it has none. Each Program has one, kept across
    launches: two Programs of one source share the compiled module, not these."""
    ffi, lib = module.ffi, module.lib
    size = lib.cl2c_globals_size() if hasattr(lib, "cl2c_globals_size") else 0
    if size == 0:
        return ffi.NULL
    storage = _aligned_empty(size, 128)     # as __local blocks: any vector type fits
    storage[:] = 0
    pointer = ffi.from_buffer(storage)
    lib.cl2c_globals_init(pointer)
    return pointer          # keeps storage alive


def _aligned_empty(nbytes: int, align: int) -> np.ndarray:
    raw = np.empty(nbytes + align, dtype=np.uint8)
    offset = (-raw.ctypes.data) % align
    return raw[offset:offset + nbytes]


def _dtype_for(t) -> np.dtype | None:
    if isinstance(t, ty.Scalar):
        if t.is_void:
            return np.dtype(np.uint8)
        return np.dtype(SCALARS[t.name])
    if isinstance(t, ty.Vector):
        from . import cltypes
        return cltypes.vec_types[(np.dtype(SCALARS[t.elem.name]), t.n)]
    if isinstance(t, ty.Enum):
        return np.dtype(np.int32)
    return None


def _is_integer(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


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


__all__ = ["Program", "Kernel", "LocalMemory", "ArgInfo", "KernelArgError", "LaunchError",
           "BuildError"]
