"""Kernels compiled ahead of time, into extension modules shipped in a wheel.

At build time (``cl2c.setuptools_hook``), each .cl file becomes a cffi
extension module holding the translated kernels plus a JSON description of
them: what ``Program.build()`` learns by translating (each kernel's name,
arguments with their OpenCL types and address spaces, reqd_work_group_size).
At run time, ``cl2c.load("pkg.kernels")`` imports the module and reads that
description, so it needs no C compiler and no translation, and returns a
``Program`` whose kernels are the same ``Kernel`` objects as a built one's.

The run-time half of this module imports only ``interface`` and ``loader``: not
the translator.
"""
from __future__ import annotations

import importlib
import json

from .version import __version__
from .interface import KernelInterface

FORMAT = 1                               # of the JSON description
METADATA_FUNCTION = "cl2c_aot_metadata"  # const char *(void), in every AOT module


# ---- kernels as JSON -------------------------------------------------------------------

def metadata(translation) -> dict:
    """The JSON-ready description of a translated program's kernels."""
    return {"format": FORMAT, "cl2c": __version__, "source": translation.source_name,
            "kernels": [k.interface.to_json() for k in translation.kernels]}


def kernels_from_metadata(meta: dict) -> list[KernelInterface]:
    return [KernelInterface.from_json(k) for k in meta["kernels"]]


# ---- build time ------------------------------------------------------------------------

def module_source(translation) -> tuple[str, str]:
    """(cdef, C source) of the extension module for a translated program."""
    from .build import cdef_for, extension_source
    from .emit.render import c_string
    names = [k.name for k in translation.kernels]
    text = json.dumps(metadata(translation), separators=(",", ":"), ensure_ascii=True)
    chunks = [c_string(text[i:i + 96]) for i in range(0, len(text), 96)] or ['""']
    literal = "\n    ".join(chunks)
    source = (extension_source(translation.c_source) +
              f"\n/* The kernels described for cl2c.load() (cl2c/aot.py). */\n"
              f"static const char cl2c_aot_metadata_json[] =\n    {literal};\n"
              f"static const char *{METADATA_FUNCTION}(void) "
              f"{{ return cl2c_aot_metadata_json; }}\n")
    cdef = cdef_for(names) + f"const char *{METADATA_FUNCTION}(void);\n"
    return cdef, source


# ---- run time --------------------------------------------------------------------------

class LoadError(ImportError):
    """cl2c.load() found no usable compiled kernels."""


def load(module_name: str):
    """The Program of the kernels compiled into extension module ``module_name``
    (by ``setup(cl2c_modules=[...])``): no compiler, no translation."""
    from .loader import Program
    from .threads import affinity_kept, omp_defaults
    try:
        with affinity_kept(), omp_defaults():
            module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name is not None and module_name.startswith(e.name):
            raise LoadError(f"cl2c.load: no module named '{module_name}' (was the package "
                            f"built with setup(cl2c_modules=[...]) and installed?)",
                            name=module_name) from None
        raise
    lib = getattr(module, "lib", None)
    if lib is None or not hasattr(lib, METADATA_FUNCTION):
        raise LoadError(f"cl2c.load: module '{module_name}' holds no compiled kernels (build "
                        f"it with setup(cl2c_modules=['path/file.cl:{module_name}']))",
                        name=module_name)
    meta = json.loads(module.ffi.string(getattr(lib, METADATA_FUNCTION)()).decode())
    if meta.get("format") != FORMAT:
        raise LoadError(f"cl2c.load: module '{module_name}' was built by cl2c "
                        f"{meta.get('cl2c', '?')} with kernel description format "
                        f"{meta.get('format')}; this cl2c ({__version__}) reads format "
                        f"{FORMAT}: rebuild the package", name=module_name)
    prg = Program._from_compiled(module, kernels_from_metadata(meta),
                                 filename=meta.get("source", module_name))
    prg._reload = load_again            # a pickle of it names its module
    return prg


def load_again(module_name: str, strict_buffers: bool | None = None):
    """What a pickled program of ``load`` unpickles through: the module, imported again."""
    prg = load(module_name)
    prg.strict_buffers = strict_buffers
    return prg


__all__ = ["load", "LoadError", "metadata", "kernels_from_metadata", "module_source"]
