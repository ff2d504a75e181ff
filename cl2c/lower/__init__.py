"""Stage 4: lowering, from a typed OpenCL AST to a C AST plus kernel models.

The passes run in this order; each comment says why it comes where it does.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from pycparser import c_ast

from .. import types as ty
from ..sema import FunctionInfo, Module
from . import declarations, workitems
from .expressions import ExpressionLowering
from .schedule import choose_schedule


@dataclass
class KernelParam:
    name: str
    kind: str             # "buffer", "local" or "value"
    type: ty.Type
    space: str
    const: bool
    written: bool
    type_name: str        # OpenCL spelling, e.g. "float4*"
    c_type: str = ""      # C type of the value passed (for buffers, the pointer)
    c_decl: str = ""      # the parameter as the C entry point declares it


@dataclass
class KernelModel:
    name: str
    info: FunctionInfo
    params: list[KernelParam]
    schedule: str
    reason: str
    reqd_work_group_size: tuple | None
    simd: bool = True
    local_decls: list = field(default_factory=list)


@dataclass
class LoweredProgram:
    module: Module
    needs: list[tuple]                # runtime macro instantiations, sorted
    kernels: list[KernelModel]
    program_scope: list               # (kind, node), in source order


def lower(module: Module, schedule: str = "auto") -> LoweredProgram:
    # Expressions first: they read sema's types, keyed by the original nodes.
    expr = ExpressionLowering(module)
    expr.visit(module.ast)
    # Kernel-scope __local variables leave the kernel body before the context
    # parameter goes in, so that cl2c_wi stays the first parameter.
    moved = workitems.hoist_kernel_locals(module)
    workitems.thread_context(module)
    workitems.mark_unused_params(module)
    # Type spelling last: earlier passes built nodes with OpenCL type names too.
    declarations.spell_types(module)
    for decls in moved.values():
        for d in decls:
            declarations._Speller().visit(d)
    kernels = [kernel_model(f, moved.get(f.name, []), schedule) for f in module.kernels]
    return LoweredProgram(module, sorted(expr.needs), kernels, module.program_scope)


def kernel_model(f: FunctionInfo, local_decls, forced: str) -> KernelModel:
    params = []
    for p in f.params:
        if isinstance(p.type, ty.Pointer):
            kind = "local" if p.type.space == "local" else "buffer"
        else:
            kind = "value"
        params.append(KernelParam(p.name, kind, p.type, p.space, p.const, p.written,
                                  p.type_name))
    schedule, reason = choose_schedule(f, forced)
    return KernelModel(f.name, f, params, schedule, reason,
                       f.attributes.get("reqd_work_group_size"),
                       simd=not _uses_atomics(f), local_decls=local_decls)


def _uses_atomics(f: FunctionInfo) -> bool:
    return any(name.startswith(("atomic_", "atom_")) for name in f.callees)


__all__ = ["lower", "LoweredProgram", "KernelModel", "KernelParam", "c_ast"]
