"""Stage 4: lowering, from a typed OpenCL AST to a C AST plus kernel models.

The passes run in this order; each comment says why it comes where it does.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from pycparser import c_ast

from .. import builtins as bi
from .. import declarators
from .. import types as ty
from ..interface import Arg, KernelInterface
from ..sema import FunctionInfo, Module
from .. import checking
from ..timing import StageTimes
from ..typed_ast import copy_tree, fact, walk
from . import declarations, workitems
from .expressions import lower_expressions
from .contraction import contract
from .local_copies import forward_local_copies
from .split_loops import join_split_loops
from .sequencing import sequence_operands
from .alike_groups import alike_groups
from .own_locals import own_local_arrays
from .owned import keeps_pointers, owned_buffers
from .unconditional import unconditional_accesses
from ..workgroup.launch_plan import LaunchPlan


@dataclass(frozen=True)
class KernelModel:
    """A kernel as lowering leaves it: its interface (``interface``), what its source
    says, and how its launches run (``plan``, made once the schedule has decided)."""
    name: str
    info: FunctionInfo
    args: list[Arg]
    reqd_work_group_size: tuple | None
    simd: bool = True
    local_decls: list = field(default_factory=list)   # types they use, then the __local Decls
    printf: bool = False              # calls printf: its output is flushed when it ends
    group_blind: bool = False         # cannot tell its work-groups apart: cl2c may cut
                                      # the range its own way (cl2c_regroup)
    own_locals: tuple = ()            # or only through these __local arrays, each work-item
                                      # its own elements: cl2c may cut it into pieces of
                                      # rows (own_locals.py)
    address_spaces: bool = False      # calls to_local, ...: each group says where its
                                      # __local memory is (spaces.h)
    plan: LaunchPlan | None = None    # its schedule and launch (workgroup/launch_plan.py);
                                      # None until the work-group stage has decided
    unchecked: object = None          # a checking build: a copy of its function before the
                                      # checks went in, from which the work-group stage may
                                      # build a version of its own to check (loop_dimension.py)
    owned: dict = field(default_factory=dict)   # a checking build: {buffer argument: Owned}
                                      # whose elements one work-item at most touches (owned.py)
    alike_groups: frozenset | None = None   # a checking build: every group makes the
                                      # same __local accesses but these kinds (alike_groups.py)
    forwarded: tuple = ()             # __local copies read from their memory instead
    joined: tuple = ()                # loops split in two, run as one ("t and k")
                                      # ("Bl from B"; local_copies.py)

    @property
    def regroupable(self) -> bool:
        """cl2c may cut its range into groups of its own (host.h's cl2c_regroup): of
        several rows (register tiles) only where it cannot tell its groups apart."""
        return self.group_blind or bool(self.own_locals)

    @property
    def interface(self) -> KernelInterface:
        return KernelInterface(self.name, tuple(self.args), self.reqd_work_group_size,
                               self.plan.schedule.name, self.printf, self.plan.reason)


@dataclass
class LoweredProgram:
    module: Module
    needs: list[tuple]                # runtime macro instantiations, sorted
    kernels: list[KernelModel]
    program_scope: list               # (kind, node), in source order (and the work-group
                                      # stage's functions after their kernels)
    check_sites: list = field(default_factory=list)   # checking builds: (name, file,
                                                      # line, column) of each check
    checking: bool = False            # a checking build (its helpers too: no kernel needed)


def lower(module: Module, times: StageTimes | None = None,
          check: str = "", uniform_groups: bool = True) -> LoweredProgram:
    """The passes in order, each taking the module (its tree) and returning it rewritten;
    then each kernel's interface. Its schedule and launch come after, in the work-group
    stage (workgroup/stage.py). ``check``: a checking build's -cl2c-check value."""
    times = times or StageTimes()
    # The accesses every work-item makes, on sema's tree: the passes rewrite it.
    accesses = {f.name: unconditional_accesses(f) for f in module.kernels}
    # Checking builds: the buffers each of whose elements one work-item at most touches.
    kept = bool(check) and keeps_pointers(module)
    owned = {f.name: owned_buffers(f, kept) for f in module.kernels} if check else {}
    # ...and the kernels whose groups all make the same __local accesses.
    alike = {f.name: alike_groups(f, module.functions) for f in module.kernels} \
        if check else {}
    # Normal builds: the __local arrays each work-item has its own elements of (a checking
    # build runs groups as launched: its race checks see the work-items that share one).
    own = {} if check else {f.name: own_local_arrays(f) for f in module.kernels}
    # __local copies of memory the kernel does not change, read from it (a normal build:
    # a checking build checks the kernel as written)
    forwarded, joined = {}, {}
    if not check:
        with times.stage("lower: __local copies"):
            module, forwarded = forward_local_copies(module, uniform_groups)
        with times.stage("lower: split loops"):
            module, joined = join_split_loops(module)
    # Contraction first: it reads the expressions as the source wrote them.
    with times.stage("lower: contraction"):
        module = contract(module)
    # Operands with effects left to right, before the operators become C calls.
    with times.stage("lower: evaluation order"):
        module = sequence_operands(module)
    # Expressions next: they read the facts sema wrote on the nodes they replace.
    with times.stage("lower: expressions"):
        module, needs = lower_expressions(module)
    with times.stage("lower: work-item context"):
        # Kernel-scope __local variables leave the kernel body before the context
        # parameter goes in, so that cl2c_wi stays the first parameter.
        module, moved = workitems.hoist_kernel_locals(module)
        module = workitems.thread_context(module)
        module = workitems.mark_unused_params(module)
    with times.stage("lower: C types"):
        # Type spelling last: earlier passes built nodes with OpenCL type names too.
        module = declarations.spell_types(module, [d for ds in moved.values() for d in ds])
    # Lowered and spelled in their functions, a function's statics now move out.
    module = hoist_function_statics(module)
    sites = None
    unchecked = {f.name: copy_tree(f.node) for f in module.kernels} if check else {}
    if check:
        # Checking builds: on the C tree, every check at its access (the schedules copy
        # the functions after).
        local_types = {k: {d.name: fact(d, "ty") for d in ds
                           if isinstance(d, c_ast.Decl) and d.name}
                       for k, ds in moved.items()}
        module, sites = checking.instrument(module, local_types)
    kernels = [replace(kernel_model(f, moved.get(f.name, []), module.functions,
                                    accesses[f.name], own.get(f.name, ())),
                       unchecked=unchecked.get(f.name),
                       owned=owned.get(f.name, {}), alike_groups=alike.get(f.name),
                       forwarded=forwarded.get(f.name, ()),
                       joined=joined.get(f.name, ()))
               for f in module.kernels]
    return LoweredProgram(module, needs, kernels, list(module.program_scope),
                          sites.listed() if sites is not None else [], bool(check))


def hoist_function_statics(module: Module) -> Module:
    """A function's static __global variables (OpenCL C 2.0) join the program's own,
    as fields named function__variable (their symbols' c_name)."""
    for f in module.functions.values():
        for block in walk(f.node.body):
            if not isinstance(block, c_ast.Compound) or not block.block_items:
                continue
            kept = []
            for item in block.block_items:
                if isinstance(item, c_ast.Decl) and "static" in (item.storage or []) and \
                        getattr(item, "space", None) == "global":
                    declarators.rename(item, f"{f.name}__{item.name}")
                    module.program_scope.append(("variable", item))
                else:
                    kept.append(item)
            block.block_items = kept
    return module


def kernel_model(f: FunctionInfo, local_decls, functions=None,
                 accesses=None, own_locals=()) -> KernelModel:
    """The kernel's interface; its schedule comes after (workgroup/stage.py).
    ``accesses``: unconditional_accesses' of the kernel; ``own_locals``:
    own_local_arrays' names."""
    args = []
    for p in f.params:
        written = p.written
        if isinstance(p.type, ty.Pointer):
            kind = "local" if p.type.space == "local" else "buffer"
        elif isinstance(p.type, ty.Image):
            kind, written = "image", p.type.access != "read_only"
        elif isinstance(p.type, ty.Sampler):
            kind, written = "sampler", False
        else:
            kind = "value"
        args.append(Arg(p.name, kind, p.type, p.space, p.const, written, p.type_name,
                        (accesses or {}).get(p.name, ()) if kind == "buffer" else (),
                        p.cast_align if kind == "buffer" else 1))
    functions = functions or {}
    # Atomics: the work-item loop must not be ``omp simd`` (lanes would race on
    # __local read-modify-writes, which are plain, and on the order of returned values).
    atomics = _calls(f, functions, lambda n: n.startswith(("atomic_", "atom_")))
    # No local ids or sizes, no group ids, no barriers and no __local memory: how the
    # range is cut into groups cannot change what the kernel does.
    # (a __local parameter the kernel does not use is no __local memory)
    no_local_args = all(a.kind != "local" or a.name not in f.used_params for a in args)
    sees_groups = _calls(f, functions,
                         lambda n: any(r.sees_groups for r in bi.BY_NAME.get(n, ())))
    blind = not local_decls and no_local_args and not sees_groups
    # With none of those but __local arrays each work-item has its own elements of, and
    # no atomics: no work-item sees another's __local stores but through a race, so cl2c
    # may cut the range into pieces of rows (own_locals.py).
    own = tuple(own_locals) if no_local_args and not sees_groups and not atomics else ()
    # to_local and the like: calls no compiler can vectorise
    address_spaces = _calls(f, functions, lambda n: n in bi.ADDRESS_SPACE_QUERIES)
    return KernelModel(f.name, f, args, f.attributes.get("reqd_work_group_size"),
                       simd=not (atomics or address_spaces), local_decls=local_decls,
                       printf=_calls(f, functions, lambda n: n == "printf"),
                       group_blind=blind, own_locals=own, address_spaces=address_spaces)


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


__all__ = ["lower", "LoweredProgram", "KernelModel"]
