"""Stage 4: lowering, from a typed OpenCL AST to a C AST plus kernel models.

The passes run in this order; each comment says why it comes where it does.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from pycparser import c_ast

from .. import types as ty
from ..sema import FunctionInfo, Module
from ..diagnostics import BuildError, Diagnostic
from . import declarations, workitems
from .expressions import ExpressionLowering
from .group_function import NeedFibers, make_group_function
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
    group_function: object = None     # the regions schedule's FuncDef
    check_barriers: bool = False
    fiber_stack: int = 0
    printf: bool = False              # calls printf: its output is flushed when it ends


@dataclass
class LoweredProgram:
    module: Module
    needs: list[tuple]                # runtime macro instantiations, sorted
    kernels: list[KernelModel]
    program_scope: list               # (kind, node), in source order


def lower(module: Module, schedule: str = "auto", check_barriers: bool = False,
          fiber_stack: int = 0) -> LoweredProgram:
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
    kernels = [kernel_model(f, moved.get(f.name, []), schedule, module.functions,
                            check_barriers) for f in module.kernels]
    for k in kernels:
        k.fiber_stack = fiber_stack
        if k.schedule == "regions":
            _group_function(k, module, forced=schedule == "regions")
        elif k.schedule == "loops" and schedule == "auto":
            _group_function(k, module, forced=False, only_if_better=True)
    scope = []
    for kind, node in module.program_scope:
        scope.append((kind, node))
        for k in kernels:
            if kind == "function" and node is k.info.node and k.group_function is not None:
                scope.append(("group_function", k.group_function))
    return LoweredProgram(module, sorted(expr.needs), kernels, scope)


def _group_function(k: KernelModel, module: Module, forced: bool,
                    only_if_better: bool = False) -> None:
    """Build the regions schedule's work-group function of kernel ``k`` (a copy:
    the work-item function stays for kernels that call it), or fall back."""
    node = copy.deepcopy(k.info.node)
    name = f"{k.name}__group"
    node.decl.name = name
    node.decl.type.type.declname = name
    helpers = {n: f.node for n, f in module.functions.items() if not f.is_kernel or n != k.name}
    params = {p.name: p for p in node.decl.type.args.params
              if isinstance(p, c_ast.Decl) and p.name}
    try:
        what = make_group_function(node, params, helpers, k.reqd_work_group_size, k.simd,
                                   hoist_loops=True)
    except NeedFibers as e:
        if only_if_better:
            return
        if forced:
            raise BuildError([Diagnostic("error", f"kernel '{k.name}': the 'regions' schedule "
                                                  f"cannot run it: {e}")])
        k.schedule, k.reason = "fibers", f"{e}: one fiber per work-item"
        return
    if only_if_better:
        # A barrier-free kernel gains from the work-group function when a uniform
        # loop moves outside the work-item loop (the work-item loop inside it
        # vectorises) or a guard becomes loop bounds; not when that would store
        # private arrays per work-item or test a "returned" flag in every region, nor
        # when vector privates would become arrays of structs per work-item (the
        # vectorised loop transposes them: N-body's float4s ran 1.3x slower so).
        if not (what.loops or what.bounded) or what.array_privates or what.done_flags \
                or what.vector_privates:
            return
        k.schedule = "regions"
        k.reason = "no barriers, but a work-group function vectorises better"
    k.group_function = node
    k.reason = f"{k.reason} ({what})"


def kernel_model(f: FunctionInfo, local_decls, forced: str, functions=None,
                 check_barriers: bool = False) -> KernelModel:
    params = []
    for p in f.params:
        if isinstance(p.type, ty.Pointer):
            kind = "local" if p.type.space == "local" else "buffer"
        else:
            kind = "value"
        params.append(KernelParam(p.name, kind, p.type, p.space, p.const, p.written,
                                  p.type_name))
    schedule, reason = choose_schedule(f, forced, check_barriers)
    functions = functions or {}
    # Atomics: the work-item loop must not be ``omp simd`` (lanes would race on
    # __local read-modify-writes, which are plain, and on the order of returned values).
    atomics = _calls(f, functions, lambda n: n.startswith(("atomic_", "atom_")))
    return KernelModel(f.name, f, params, schedule, reason,
                       f.attributes.get("reqd_work_group_size"),
                       simd=not atomics, local_decls=local_decls,
                       check_barriers=check_barriers,
                       printf=_calls(f, functions, lambda n: n == "printf"))


def _calls(f: FunctionInfo, functions: dict, builtin) -> bool:
    """Whether ``f`` or a function it calls calls a builtin whose name passes
    the test ``builtin``."""
    seen, todo = set(), [f]
    while todo:
        g = todo.pop()
        if g.name in seen:
            continue
        seen.add(g.name)
        if any(builtin(n) for n in g.builtins):
            return True
        todo += [functions[c] for c in g.callees if c in functions]
    return False


__all__ = ["lower", "LoweredProgram", "KernelModel", "KernelParam", "c_ast"]
