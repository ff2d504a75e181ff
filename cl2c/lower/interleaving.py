"""Two work-items an iteration, their statements interleaved (the loops schedule).

A loop-free kernel is a chain of dependent operations per work-item. Black-Scholes's is
a division, a log, a division and two exps: once vectorised, about 200 instructions an
iteration of its work-item loop, and the CPU's out-of-order window holds about two
iterations, too few to hide the chain's latency. Two work-items in one iteration, their
statements alternating, give the CPU independent work within its window: on a Zen 5
core 1.85 -> 1.33 ns an option (GCC 12 and clang 14 alike). Calling the kernel twice an
iteration does not do it: the compiler may not move the second work-item's loads above
the first one's stores (the buffers may alias), so the chains stay one after the other.

The pair function ``k__pair`` has each top-level statement of kernel ``k`` twice: for
the work-item at ``cl2c_l0`` and, with its variables respelled ``name__2``, for the one
at ``cl2c_l0b`` (``CL2C_PAIR_PARAMS``, ``CL2C_WI_2`` in workitem.h), a block
(``CL2C_PAIR_BLOCK``, 16) after the first (templates/schedule_loops.c.j2). Each
work-item keeps its own order; between the two, non-atomic accesses between
synchronisation points are unordered in OpenCL (a conflict would be a data race), so
any interleaving is one the device may run.

Where: kernels whose range cl2c cuts itself (long rows), loop-free (launch_work.py), in
normal builds, with no atomics (no ``omp simd`` then), images or printf; a body of
declarations, expression statements and ``if``s that do not return, as a ``return``
in the first copy would skip the second; variables assigned only if the copies declare
them (a parameter is each work-item's own: the two copies would share it). A guarded
kernel (``if (i >= n) return;``) takes the regions schedule, whose writer pairs the
statements of its bounded work-item loop with ``interleaved`` (regions/writer.py).
"""
from __future__ import annotations

import copy

from pycparser import c_ast

from ..typed_ast import walk

# A work-item's work, in nodes of its C tree (helpers' at each call), from which it
# pays: below, the CPU overlaps iterations itself (the triad, 23 nodes, and the copy
# gained nothing, and each array became two streams); Black-Scholes has 303.
MIN_NODES = 128
PAIR_SUFFIX = "__pair"
SECOND = "__2"             # the second work-item's variables: name__2 (reserved_names.py)

# statements that leave a copy early, or jump: a copy must run to its end
_JUMPS = (c_ast.Return, c_ast.Goto, c_ast.Label, c_ast.Break, c_ast.Continue, c_ast.Switch,
          c_ast.For, c_ast.While, c_ast.DoWhile)
_PLAIN = (c_ast.Decl, c_ast.Assignment, c_ast.FuncCall, c_ast.UnaryOp, c_ast.BinaryOp,
          c_ast.Cast, c_ast.ExprList, c_ast.TernaryOp, c_ast.EmptyStatement, c_ast.If,
          c_ast.Compound)


def pairable(k, outside: set[str], nodes: int | None) -> frozenset | None:
    """Where kernel model ``k``'s work-items may run two an iteration (whatever its
    schedule): the names its statements' copies must not declare (``outside``, the
    program scope's, and its parameters); None where they may not. ``nodes``: the size
    of a work-item's work (launch_work.work_nodes), None with loops."""
    if not (k.group_blind and k.simd and not k.check and nodes is not None and
            nodes >= MIN_NODES and not k.printf and not any(a.kind == "image" for a in k.args)):
        return None
    params = {p.name for p in k.info.node.decl.type.args.params
              if isinstance(p, c_ast.Decl) and p.name}
    return frozenset(outside | params)


def pair_function(k) -> c_ast.FuncDef | None:
    """The loops schedule's pair function of kernel model ``k``, or None where it does
    not apply."""
    if k.schedule.name != "loops" or k.pairable is None or k.serial_items <= 0:
        return None
    node = k.info.node
    items = list(node.body.block_items or [])
    if items and isinstance(items[-1], c_ast.Return) and items[-1].expr is None:
        items.pop()                                   # a last `return;` ends nothing
    body = interleaved(items, k.pairable)
    if body is None:
        return None
    decl = copy.deepcopy(node.decl)
    decl.name = decl.type.type.declname = node.decl.name + PAIR_SUFFIX
    decl.type.args.params[0].type.type.names = ["CL2C_PAIR_PARAMS"]
    return type(node)(decl, node.param_decls, type(node.body)(body, node.body.coord),
                      node.coord)


def interleaved(items: list, outside: frozenset) -> list | None:
    """The statements ``items`` of the work-item at ``cl2c_l0`` and, respelled, of the
    one at ``cl2c_l0b``, alternating; None where they cannot be: a jump, a declaration
    of a type or a static, a name of ``outside`` declared, or a variable assigned that
    they do not declare (a parameter is each work-item's own: one copy here)."""
    if not items or not all(isinstance(s, _PLAIN) for s in items) or \
            any(isinstance(n, _JUMPS) for s in items for n in walk(s)):
        return None
    local = _declared(items)
    if local is None or local & outside:
        return None                                   # shadowing: names would mislead
    if _changed(items) - local:
        return None
    first = copy.deepcopy(items)
    second = [_second(s, local) for s in copy.deepcopy(items)]
    return [s for both in zip(first, second) for s in both]


def _declared(items) -> set[str] | None:
    """The names the statements declare; None where one declares a type or an enum
    constant (a respelled copy would declare it twice), or a static variable."""
    names = set()
    for s in items:
        for n in walk(s):
            if isinstance(n, c_ast.Typedef) or \
                    isinstance(n, c_ast.Enum) and n.values is not None or \
                    isinstance(n, (c_ast.Struct, c_ast.Union)) and n.decls is not None:
                return None
            if isinstance(n, c_ast.Decl) and n.name:
                if "static" in (n.storage or []):
                    return None               # one object, not one per work-item
                names.add(n.name)
    return names


def _changed(items) -> set[str]:
    """The variables the statements assign, increment or take the address of, as a
    whole or a member (``p = ..``, ``s.f++``, ``&v``); not what they point to."""
    out = set()
    for s in items:
        for n in walk(s):
            target = n.lvalue if isinstance(n, c_ast.Assignment) else \
                n.expr if isinstance(n, c_ast.UnaryOp) and \
                n.op in ("++", "--", "p++", "p--", "&") else None
            while isinstance(target, c_ast.StructRef) and target.type == ".":
                target = target.name
            if isinstance(target, c_ast.ID):
                out.add(target.name)
    return out


def _second(stmt, local: set[str]):
    """``stmt`` for the second work-item: its variables and the work-item context
    respelled (members and designators keep their names)."""
    skip = set()
    for n in walk(stmt):
        if isinstance(n, c_ast.StructRef):
            skip.add(n.field)
        elif isinstance(n, c_ast.NamedInitializer):
            skip.update(n.name)
    for n in walk(stmt):
        if isinstance(n, c_ast.ID) and n not in skip:
            if n.name in local:
                n.name += SECOND
            elif n.name == "CL2C_WI":
                n.name = "CL2C_WI_2"
            elif n.name == "cl2c_l0":
                n.name = "cl2c_l0b"
        elif isinstance(n, c_ast.Decl) and n.name in local:
            n.name += SECOND
            inner = n.type
            while not isinstance(inner, c_ast.TypeDecl):
                inner = inner.type
            inner.declname = n.name
    return stmt


def program_names(module) -> set[str]:
    """The ordinary identifiers declared at program scope: functions, variables, type
    names and enum constants (not struct members, nor other functions' parameters)."""
    names = set(module.functions)
    for _, node in module.program_scope:
        if isinstance(node, c_ast.FuncDef):
            node = node.decl
        if isinstance(node, (c_ast.Decl, c_ast.Typedef)) and node.name:
            names.add(node.name)
        names.update(n.name for n in walk(node) if isinstance(n, c_ast.Enumerator))
    return names
