"""A kernel's interface: what launching it takes. Lowering produces it once per kernel
(``KernelModel.interface``); emit renders it into the C metadata (``cl2c_kernel_info``,
cl2c/host.h); ahead-of-time modules carry it as JSON (aot.py); the loader reads nothing
else. ``ArgInfo`` is its public view, ``Kernel.arg_info``.

A leaf module (types only): ``cl2c.load()`` needs no translator.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import types as ty
from .extents import Access


@dataclass(frozen=True)
class Arg:
    name: str
    kind: str              # "buffer", "local", "image", "sampler" or "value"
    type: ty.Type
    space: str             # a pointer's pointee's address space; "private" for values
    const: bool            # the pointee (or the value) is const
    written: bool          # for buffers: the kernel may write through it
    type_name: str         # as the kernel writes it: "float*", "int4", "S"
    # for buffers: the accesses every work-item makes at a known index (extents.py)
    accesses: tuple[Access, ...] = ()
    # for buffers: where the kernel's pointer conversions rely on more alignment than the
    # pointee's, that (sema/whole_program.py); the loader places the buffer so
    align: int = 1

    @property
    def start_align(self) -> int:
        """For buffers: where the kernel's C assumes the pointer starts (its pointee's
        alignment, or what its casts rely on); 1 for the other kinds."""
        if self.kind != "buffer" or not isinstance(self.type, ty.Pointer):
            return 1
        return max(ty.type_align(self.type.pointee), self.align)

    def info(self) -> "ArgInfo":
        space = "global" if self.kind == "image" else \
            self.space if self.kind in ("buffer", "local") else "private"
        return ArgInfo(self.name, self.type_name, space, self.kind, bool(self.written))


@dataclass(frozen=True)
class ArgInfo:
    """An argument as ``Kernel.arg_info`` shows it."""
    name: str
    type_name: str         # as the kernel writes it: "float*", "int4", "S"
    address_space: str     # "global", "constant", "local" or "private"
    kind: str              # "buffer", "local", "image", "sampler" or "value"
    writes: bool           # for buffers and images: the kernel may write through it


@dataclass(frozen=True)
class KernelInterface:
    name: str
    args: tuple[Arg, ...]
    reqd_work_group_size: tuple | None
    schedule: str          # the name of its work-group schedule (workgroup/schedules.py)
    printf: bool = False   # calls printf: its output is flushed as it ends
    reason: str = ""       # why that schedule, and what it did (the C's header comment)

    def to_json(self) -> dict:
        return {"name": self.name,
                "params": [{"name": a.name, "kind": a.kind, "type": type_to_json(a.type),
                            "space": a.space, "const": bool(a.const),
                            "written": bool(a.written), "type_name": a.type_name,
                            "accesses": [x.to_json() for x in a.accesses],
                            "align": a.align}
                           for a in self.args],
                "reqd_work_group_size": list(self.reqd_work_group_size)
                if self.reqd_work_group_size else None,
                "schedule": self.schedule, "printf": self.printf, "reason": self.reason}

    @classmethod
    def from_json(cls, d: dict) -> "KernelInterface":
        args = tuple(Arg(p["name"], p["kind"], type_from_json(p["type"]), p["space"],
                         p["const"], p["written"], p["type_name"],
                         tuple(Access.from_json(x) for x in p.get("accesses", ())),
                         p.get("align", 1))
                     for p in d["params"])
        reqd = tuple(d["reqd_work_group_size"]) if d["reqd_work_group_size"] else None
        return cls(d["name"], args, reqd, d.get("schedule", ""), d.get("printf", False),
                   d.get("reason", ""))


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
                "align_attr": t.align_attr, "field_align": t.field_align,
                "fields": [[name, type_to_json(ft, True)] for name, ft in t.fields]}
    if isinstance(t, ty.Opaque):
        return {"opaque": t.name}
    if isinstance(t, ty.Atomic):
        return {"atomic": t.value.name}
    if isinstance(t, ty.Image):
        return {"image": t.name, "access": t.access}
    if isinstance(t, ty.Sampler):
        return {"sampler": True}
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
                         d["packed"], d["align_attr"],
                         field_align=d.get("field_align", {}))
    if "opaque" in d:
        return ty.Opaque(d["opaque"])
    if "atomic" in d:
        return ty.Atomic(ty.SCALARS[d["atomic"]])
    if "image" in d:
        return ty.Image(d["image"], d["access"])
    if "sampler" in d:
        return ty.SAMPLER_T
    raise ValueError(f"cl2c: unknown type description {d!r}")
