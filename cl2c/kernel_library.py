"""A program's compiled library, as the loader calls it.

A build compiles the generated C into a plain shared library: no Python headers and no
per-program wrappers (cffi's API mode compiled a wrappers' file for each program, 0.13 s
of CPU a build, Python.h's parsing most of it). The library is opened with ``dlopen``
and its functions are called through cffi's ABI mode, one ``FFI`` a process: a call
costs some 0.1 us more than a compiled wrapper's, against a launch's 4-6 us.

A ``Library`` looks to the loader as a cffi extension module does (``lib`` and ``ffi``),
so that the kernels of ``cl2c.load``'s compiled packages, which are such modules, run
through the same code.
"""
from __future__ import annotations

import functools
import re

from .resources import runtime_include_dir

# The kernels' file exports the loader's functions under this prefix (build.py): static
# in the runtime, they would clash with nothing; the export names the library's own.
EXPORTED = "cl2c_export_"
KERNEL_ENTRY = "int (*)(const cl2c_range *, void *const *)"

_RTLD_NOW, _RTLD_LOCAL = 0x2, 0x0       # POSIX values on Linux (glibc, musl)


@functools.lru_cache(maxsize=1)
def range_struct() -> str:
    """``cl2c_range``, the ABI struct of a launch, as cl2c/host.h (its one definition)
    writes it."""
    host = (runtime_include_dir() / "cl2c" / "host.h").read_text()
    m = re.search(r"^typedef struct cl2c_range \{.*?^\} cl2c_range;$", host, re.S | re.M)
    return m.group()


# The functions the loader calls besides the kernels' entry points, as (return type, name,
# parameters): the one list that the loader's function types, the kernels' file's exports
# (build.py) and cl2c.load's modules' declarations (aot.py) come from. Each is the
# runtime's (errors.h, fiber.h), the generated file's (cl2c_globals_init) or build.py's
# _GLOBALS_FOR_LOADER's.
LOADER_FUNCTIONS = (
    ("const char *", "cl2c_error_string", "int code"),
    ("const char *", "cl2c_fiber_last_error", "void"),
    ("size_t", "cl2c_globals_size", "void"),
    ("void", "cl2c_globals_init", "void *storage"),
    ("int", "cl2c_loader_checking", "void"),
    ("void", "cl2c_loader_check_sizes", "const size_t *sizes, unsigned n"),
    ("const char *", "cl2c_loader_check_findings", "void"),
    ("size_t", "cl2c_loader_check_idle_bytes", "void"),
    ("void", "cl2c_loader_check_trim", "void"),
    ("void", "cl2c_loader_after_fork", "void"),
    ("int", "cl2c_loader_local_size",
     "const cl2c_range *r, const size_t *reqd, int non_uniform, size_t *local"),
    ("int", "cl2c_loader_threads", "int n"),
)


@functools.lru_cache(maxsize=1)
def loader_function_types() -> dict[str, str]:
    """{name: C function pointer type} of LOADER_FUNCTIONS."""
    return {name: f"{ret} (*)({params})" for ret, name, params in LOADER_FUNCTIONS}


def ffi():
    """The process's FFI of cl2c's libraries: the range struct, and the C library's
    dlopen, dlsym and dlerror (_abi.py: cffi's out-of-line ABI module of declarations(),
    which needs no C parser at run time)."""
    from ._abi import ffi
    return ffi


def declarations() -> str:
    """What the FFI declares: cl2c_range as cl2c/host.h defines it, and the dl
    functions."""
    return (range_struct() + "\nvoid *dlopen(const char *, int);\n"
            "void *dlsym(void *, const char *);\nchar *dlerror(void);\n")


def generate(path: str) -> None:
    """Write the out-of-line ABI module of declarations() to ``path`` (cl2c/_abi.py:
    ``python -m cl2c.kernel_library cl2c/_abi.py``; tests/test_kernel_library.py holds
    it to host.h)."""
    import cffi
    f = cffi.FFI()
    f.cdef(declarations())
    f.set_source("cl2c._abi", None)
    f.emit_python_code(path)
    with open(path) as generated:
        text = generated.read()
    with open(path, "w") as out:
        out.write("# Written by cl2c/kernel_library.py (python -m cl2c.kernel_library "
                  "cl2c/_abi.py): the\n# FFI of cl2c's libraries, from cl2c_range in "
                  "cl2c/host.h. Do not edit.\n" + text)


@functools.lru_cache(maxsize=1)
def _dl():
    return ffi().dlopen(None)           # the process's own symbols: the C library's


def open_library(path: str) -> object:
    """``dlopen`` of ``path``: its handle; OSError with the loader's message where it
    fails."""
    f, dl = ffi(), _dl()
    handle = dl.dlopen(path.encode(), _RTLD_NOW | _RTLD_LOCAL)
    if handle == f.NULL:
        why = dl.dlerror()
        raise OSError(f.string(why).decode(errors="replace") if why != f.NULL else path)
    return handle


class Library:
    """A loaded library of a program: ``lib``'s attributes are its functions,
    ``ffi`` the FFI they take their arguments in, ``image`` the library's bytes (what a
    program binary carries)."""

    def __init__(self, name: str, handle, image: bytes):
        self.__name__ = name
        self.handle = handle
        self.ffi = ffi()
        self.lib = _Functions(handle)
        self._cl2c_image = image


class _Functions:
    """The functions of a library by name, as the loader declares them (build.py's
    LOADER_FUNCTIONS, and ``cl2c_argv_<kernel>``); a name the library lacks is an
    AttributeError, so that ``hasattr`` asks the library."""

    def __init__(self, handle):
        self._handle = handle

    def __getattr__(self, name: str):
        if name.startswith("cl2c_argv_"):
            symbol, ctype = name, KERNEL_ENTRY
        elif name in loader_function_types():
            symbol, ctype = EXPORTED + name, loader_function_types()[name]
        else:
            raise AttributeError(name)
        f = ffi()
        address = _dl().dlsym(self._handle, symbol.encode())
        if address == f.NULL:
            raise AttributeError(name)
        function = f.cast(ctype, address)
        setattr(self, name, function)       # looked up once
        return function


if __name__ == "__main__":
    import sys
    generate(sys.argv[1])
