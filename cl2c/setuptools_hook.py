"""Kernels compiled while a wheel builds: the ``cl2c_modules`` keyword of setup().

In the spirit of cffi's ``cffi_modules``::

    # setup.py (pyproject.toml: [build-system] requires = ["setuptools", "cl2c"])
    setup(cl2c_modules=["src/mypkg/kernels.cl:mypkg.kernels"])

    # mypkg/__init__.py, at run time: no compiler, no translation
    prg = cl2c.load("mypkg.kernels")
    prg.saxpy(x.shape, None, x, y, 2.0)

Each entry is ``"path/to/file.cl:package.module"`` or a dict
``{"source": ..., "module": ..., "options": "-DN=4 -Iinclude",
"extra_compile_args": [...]}``; the path is relative to setup.py. build_ext
translates each file and compiles it, with the runtime headers, into the
extension module ``package.module``, which also carries the description of its
kernels that cl2c.load() reads (cl2c/aot.py). The C is compiled for the
architecture, not the machine (a portable :class:`~cl2c.target.Target`, no
-march=native): the wheel runs on any CPU of its platform tag. The compiler is
probed (for _Float16) when build_ext runs, not when setup() registers the modules.
"""
from __future__ import annotations

import io
import os
import re


def portable_flags() -> tuple[list[str], list[str]]:
    """(compile, link) flags of a portable target (no probe: flags need none)."""
    from .target import Target
    target = Target.assumed(native=False)
    return target.compile_flags(), target.link_flags()


_PLACEHOLDER = "$CL2C_PLACEHOLDER.c"
_MODULE = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")


class _Spec:
    def __init__(self, source: str, module: str, options: str = "",
                 extra_compile_args: list | None = None):
        self.source = source
        self.module = module
        self.options = options
        self.extra_compile_args = list(extra_compile_args or [])


def _setup_error(message: str):
    from setuptools.errors import SetupError
    return SetupError(f"cl2c_modules: {message}")


def _spec(entry) -> _Spec:
    if isinstance(entry, str):
        source, sep, module = entry.rpartition(":")
        if not sep or not source:
            raise _setup_error(f"{entry!r} must be of the form 'path/to/file.cl:package.module'")
        spec = _Spec(source, module)
    elif isinstance(entry, dict):
        unknown = set(entry) - {"source", "module", "options", "extra_compile_args"}
        if unknown or "source" not in entry or "module" not in entry:
            raise _setup_error(f"{entry!r}: a dict entry takes 'source' and 'module', and "
                               f"optionally 'options' and 'extra_compile_args'")
        spec = _Spec(entry["source"], entry["module"], entry.get("options") or "",
                     entry.get("extra_compile_args"))
    else:
        raise _setup_error(f"expected 'path/to/file.cl:package.module' or a dict, not "
                           f"{type(entry).__name__}")
    if not _MODULE.match(spec.module):
        raise _setup_error(f"{spec.module!r} is not a module name (like 'package.kernels')")
    if not os.path.isfile(spec.source):
        raise _setup_error(f"{spec.source!r} does not name a file (paths are relative to "
                           f"setup.py's folder)")
    return spec


def cl2c_modules(dist, attr, value) -> None:
    """The setup() keyword: registers one extension module per .cl file."""
    from setuptools import Extension
    from .resources import runtime_include_dir
    entries = [value] if isinstance(value, (str, dict)) else list(value or [])
    specs = [_spec(e) for e in entries]
    cflags, ldflags = portable_flags()
    if dist.ext_modules is None:
        dist.ext_modules = []
    for spec in specs:
        ext = Extension(spec.module, sources=[_PLACEHOLDER],
                        include_dirs=[str(runtime_include_dir())],
                        extra_compile_args=cflags + spec.extra_compile_args,
                        extra_link_args=ldflags, depends=[spec.source])
        ext._cl2c_spec = spec
        dist.ext_modules.append(ext)
    dist.cmdclass["build_ext"] = _build_ext_class(dist.cmdclass.get("build_ext"))


def _build_ext_class(base):
    if base is None:
        from setuptools.command.build_ext import build_ext as base
    if getattr(base, "_cl2c_translates", False):
        return base

    class build_ext_cl2c(base):
        """build_ext that first translates the kernels of cl2c_modules to C."""
        _cl2c_translates = True

        def run(self):
            from .target import Target
            for ext in self.extensions:
                spec = getattr(ext, "_cl2c_spec", None)
                if spec is not None and ext.sources[0] == _PLACEHOLDER:
                    c_file, deps = generate(spec, self.build_temp, Target.host(native=False))
                    ext.sources[0] = c_file
                    ext.depends = list(dict.fromkeys([spec.source, *deps]))
            super().run()

    return build_ext_cl2c


def generate(spec: _Spec, build_temp: str, target=None) -> tuple[str, list[str]]:
    """Translate spec.source for ``target`` (portable, not probed, by default) and write
    the extension's C file into build_temp (only when its content changed). Returns
    (C file, files the kernel read)."""
    import cffi
    from setuptools.errors import CompileError
    from .aot import module_source
    from .diagnostics import BuildError
    from .outputs import write_atomic
    from .pipeline import translate
    from .target import Target
    with open(spec.source, encoding="utf-8") as f:
        text = f.read()
    try:
        tr = translate(text, spec.source, spec.options,
                       target=target or Target.assumed(native=False))
    except BuildError as e:
        raise CompileError(f"cl2c: cannot translate {spec.source} for module "
                           f"{spec.module}:\n{e.render()}") from None
    cdef, source = module_source(tr)
    ffi = cffi.FFI()
    ffi.cdef(cdef)
    ffi.set_source(spec.module, source)
    os.makedirs(build_temp, exist_ok=True)
    c_file = os.path.join(build_temp, spec.module + ".c")
    c_text = io.StringIO()
    ffi.emit_c_code(c_text)
    # an unchanged file keeps its time: setuptools compiles it again only when it changed
    write_atomic(c_file, c_text.getvalue().encode(), mode=0o666, keep_unchanged=True)
    return c_file, list(tr.preprocessed.dependencies)


__all__ = ["cl2c_modules", "generate", "portable_flags"]
