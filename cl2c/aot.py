"""Kernels compiled ahead of time, into extension modules shipped in a wheel.

At build time (``cl2c.setuptools_hook``), each .cl file becomes a cffi
extension module holding the translated kernels plus a JSON description of
them: what ``Program.build()`` learns by translating (each kernel's name,
arguments with their OpenCL types and address spaces, reqd_work_group_size).
At run time, ``cl2c.load("pkg.kernels")`` imports the module and reads that
description, so it needs no C compiler and no translation, and returns a
``Program`` whose kernels are the same ``Kernel`` objects as a built one's.

The run-time half of this module imports only ``types`` and ``loader``: not
the translator.
"""
from __future__ import annotations

import importlib
import json
from dataclasses import dataclass

from .version import __version__
from . import types as ty

FORMAT = 1                               # of the JSON description
METADATA_FUNCTION = "cl2c_aot_metadata"  # const char *(void), in every AOT module


# ---- types as JSON ---------------------------------------------------------------------
# Enough to marshal arguments as a built program does: dtypes, sizes, alignments.
# Pointers inside structs keep only their size (their pointee may be the struct).

def type_to_json(t: ty.Type, inside_record: bool = False) -> dict:
    if isinstance(t, ty.Scalar):
        return {"scalar": t.name}
    if isinstance(t, ty.Vector):
        return {"vector": t.elem.name, "n": t.n}
    if isinstance(t, ty.Enum):
        return {"enum": t.tag}
    if isinstance(t, ty.Pointer):
        pointee = {"scalar": "void"} if inside_record else type_to_json(t.pointee)
        return {"pointer": pointee, "space": t.space, "const": t.const}
    if isinstance(t, ty.Array):
        return {"array": type_to_json(t.elem, inside_record), "length": t.length}
    if isinstance(t, ty.Record):
        return {"record": t.tag, "union": t.union, "packed": t.packed,
                "align_attr": t.align_attr,
                "fields": [[name, type_to_json(ft, True)] for name, ft in t.fields]}
    if isinstance(t, ty.Opaque):
        return {"opaque": t.name}
    raise TypeError(f"cl2c: no JSON form for the kernel argument type {t}")


def type_from_json(d: dict) -> ty.Type:
    if "scalar" in d:
        return ty.SCALARS[d["scalar"]]
    if "vector" in d:
        return ty.Vector(ty.SCALARS[d["vector"]], d["n"])
    if "enum" in d:
        return ty.Enum(d["enum"])
    if "pointer" in d:
        return ty.Pointer(type_from_json(d["pointer"]), d["space"], d["const"])
    if "array" in d:
        return ty.Array(type_from_json(d["array"]), d["length"])
    if "record" in d:
        return ty.Record(d["record"], d["union"],
                         [(name, type_from_json(ft)) for name, ft in d["fields"]],
                         d["packed"], d["align_attr"])
    if "opaque" in d:
        return ty.Opaque(d["opaque"])
    raise ValueError(f"cl2c: unknown type description {d!r}")


# ---- kernels as JSON -------------------------------------------------------------------

@dataclass
class ParamMeta:
    """What the loader reads of a KernelParam."""
    name: str
    kind: str
    type: ty.Type
    space: str
    const: bool
    written: bool
    type_name: str


@dataclass
class KernelMeta:
    """What the loader reads of a KernelModel."""
    name: str
    params: list[ParamMeta]
    reqd_work_group_size: tuple | None
    schedule: str = ""
    printf: bool = False


def metadata(translation) -> dict:
    """The JSON-ready description of a translated program's kernels."""
    kernels = []
    for k in translation.kernels:
        params = [{"name": p.name, "kind": p.kind, "type": type_to_json(p.type),
                   "space": p.space, "const": bool(p.const), "written": bool(p.written),
                   "type_name": p.type_name} for p in k.params]
        reqd = list(k.reqd_work_group_size) if k.reqd_work_group_size else None
        kernels.append({"name": k.name, "params": params, "reqd_work_group_size": reqd,
                        "schedule": k.schedule, "printf": k.printf})
    return {"format": FORMAT, "cl2c": __version__, "source": translation.source_name,
            "kernels": kernels}


def kernels_from_metadata(meta: dict) -> list[KernelMeta]:
    out = []
    for k in meta["kernels"]:
        params = [ParamMeta(p["name"], p["kind"], type_from_json(p["type"]), p["space"],
                            p["const"], p["written"], p["type_name"]) for p in k["params"]]
        reqd = tuple(k["reqd_work_group_size"]) if k["reqd_work_group_size"] else None
        out.append(KernelMeta(k["name"], params, reqd, k.get("schedule", ""),
                              k.get("printf", False)))
    return out


# ---- build time ------------------------------------------------------------------------

def module_source(translation) -> tuple[str, str]:
    """(cdef, C source) of the extension module for a translated program."""
    from .build import cdef_for
    from .emit.render import c_string
    names = [k.name for k in translation.kernels]
    text = json.dumps(metadata(translation), separators=(",", ":"), ensure_ascii=True)
    chunks = [c_string(text[i:i + 96]) for i in range(0, len(text), 96)] or ['""']
    literal = "\n    ".join(chunks)
    source = (translation.c_source +
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
    try:
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
    return Program._from_compiled(module, kernels_from_metadata(meta),
                                  filename=meta.get("source", module_name))


__all__ = ["load", "LoadError", "metadata", "kernels_from_metadata", "module_source",
           "type_to_json", "type_from_json"]
