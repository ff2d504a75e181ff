"""Work-items four (or two) an iteration, their statements interleaved (the loops
schedule).

A loop-free kernel is a chain of dependent operations per work-item. Black-Scholes's is
a division, a log, a division and three exps: once vectorised, about 200 instructions an
iteration of its work-item loop, and the CPU's out-of-order window holds about two
iterations, too few to hide the chain's latency. Several work-items in one iteration,
their statements alternating, give the CPU independent work within its window. On a
Zen 5 core, Black-Scholes in cache (GCC 12): 1.92 ns an option one at a time, 1.44 two
at a time, 1.27 three, 1.24 four, 1.24 six (clang 14: 1.45 two, 1.26 four). Four it
is, though the copies' values no longer fit the registers (the spills cost less than
the waits they replace); but not where the work is mostly memory accesses: a kernel of
float4 stores (tests/kernels/vectors.cl's ``vec``, 26 nodes an access) ran 1.6x slower
four at a time than two, and there it is two. Calling the kernel several times an
iteration does not do it: the compiler may not move a later work-item's loads above an
earlier one's stores (the buffers may alias), so the chains stay one after the other.

The function ``k__interleaved`` has each top-level statement of kernel ``k`` once a
way: for the work-item at ``cl2c_l0`` and, with its variables respelled ``name__2``,
``name__3``, ..., for those at ``cl2c_l0_2``, ``cl2c_l0_3``, ... (``CL2C_WI_2``, ... in
workitem.h), each a block (``CL2C_WAY_BLOCK``, 16) after the one before
(templates/schedule_loops.c.j2). Each work-item keeps its own order; between them,
non-atomic accesses between synchronisation points are unordered in OpenCL (a conflict
would be a data race), so any interleaving is one the device may run.

Where: kernels whose range cl2c cuts itself (long rows), loop-free (launch_work.py), in
normal builds, with no atomics (no ``omp simd`` then), images or printf; a body of
declarations, expression statements and ``if``s that do not return, as a ``return``
in the first copy would skip the others; variables assigned only if the copies declare
them (a parameter is each work-item's own: the copies would share it). A guarded
kernel (``if (i >= n) return;``) takes the regions schedule, whose writer interleaves
the statements of its bounded work-item loop with ``interleaved`` (builders/group_function.py).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass

from pycparser import c_ast

from ... import declarators
from ...typed_ast import walk
from ..launch_work import Work
from ..names import L0, way_id

# A work-item's work, in nodes of its C tree (helpers' at each call), from which it
# pays: below, the CPU overlaps iterations itself (the triad, 23 nodes, and the copy
# gained nothing from two ways); Black-Scholes has 303.
MIN_NODES = 128
# Nodes of work an access to memory from which four ways pay: Black-Scholes has 61
# (303 nodes, 5 accesses), tests/kernels/interleaved.cl's scramble 108 (1.2x from two
# to four ways, one thread), vectors.cl's vec 26 (1.6x slower).
CHAIN_NODES = 40
MAX_WAYS = 4               # workitem.h has CL2C_WI_2 .. CL2C_WI_4
SUFFIX = "__interleaved"


@dataclass(frozen=True)
class Interleaving:
    """How a kernel's work-items run interleaved: ``ways`` an iteration, their copies
    declaring none of the names ``outside`` (the program scope's and the kernel's
    parameters)."""
    ways: int
    outside: frozenset


def copy_suffix(way: int) -> str:
    """The suffix of way ``way``'s variables (1-based; the first keeps its names):
    name__2, name__3, ... (reserved_names.py)."""
    return f"__{way}"



# statements that leave a copy early, or jump: a copy must run to its end
_JUMPS = (c_ast.Return, c_ast.Goto, c_ast.Label, c_ast.Break, c_ast.Continue, c_ast.Switch,
          c_ast.For, c_ast.While, c_ast.DoWhile)
# the names through which a statement reads its work-item's ids (respelled a way)
_WORK_ITEM = ("CL2C_WI", L0)
_PLAIN = (c_ast.Decl, c_ast.Assignment, c_ast.FuncCall, c_ast.UnaryOp, c_ast.BinaryOp,
          c_ast.Cast, c_ast.ExprList, c_ast.TernaryOp, c_ast.EmptyStatement, c_ast.If,
          c_ast.Compound)


def interleavable(k, outside: set[str], work: Work | None,
                  checking: bool = False) -> Interleaving | None:
    """How kernel model ``k``'s work-items may run interleaved (whatever its schedule),
    ``outside`` the program scope's names; None where they may not (and in checking
    builds). ``work``: a work-item's work (launch_work.work), None with loops."""
    if not (k.group_blind and k.simd and not checking and work is not None and
            work.nodes >= MIN_NODES and not k.printf and
            not any(a.kind == "image" for a in k.args)):
        return None
    params = {p.name for p in k.info.node.decl.type.args.params
              if isinstance(p, c_ast.Decl) and p.name}
    ways = MAX_WAYS if work.nodes >= CHAIN_NODES * max(1, work.accesses) else 2
    return Interleaving(ways, frozenset(outside | params))


def interleaved_function(k, schedule, how: Interleaving | None,
                         serial_items: int) -> c_ast.FuncDef | None:
    """The interleaved function of kernel model ``k`` (``how``: interleavable's) under
    ``schedule``, or None where it does not apply: a schedule that does not call the
    work-item function, or no launch small enough to run serially (``serial_items``)."""
    if not schedule.calls_item_function or how is None or serial_items <= 0:
        return None
    node = k.info.node
    items = list(node.body.block_items or [])
    if items and isinstance(items[-1], c_ast.Return) and items[-1].expr is None:
        items.pop()                                   # a last `return;` ends nothing
    body = interleaved(items, how)
    if body is None:
        return None
    decl = copy.deepcopy(node.decl)
    decl.name = decl.type.type.declname = node.decl.name + SUFFIX
    params = decl.type.args.params
    params[1:1] = [c_ast.Decl(way_id(w), [], [], [], [],
                              c_ast.TypeDecl(way_id(w), [], None,
                                             c_ast.IdentifierType(["size_t"])), None, None)
                   for w in range(2, how.ways + 1)]
    return type(node)(decl, node.param_decls, type(node.body)(body, node.body.coord),
                      node.coord)


def interleaved(items: list, how: Interleaving) -> list | None:
    """The statements ``items`` of the work-item at ``cl2c_l0`` and, respelled, of those
    at ``cl2c_l0_2`` .. (``how.ways`` in all), alternating; None where they cannot be
    or need not be: no id read (the work-items are alike), a jump, a declaration of a
    type or a static, a name of ``how.outside`` declared, or a variable assigned that
    they do not declare (a parameter is each work-item's own: one copy here)."""
    if not items or not all(isinstance(s, _PLAIN) for s in items) or \
            any(isinstance(n, _JUMPS) for s in items for n in walk(s)):
        return None
    if not any(isinstance(n, c_ast.ID) and n.name in _WORK_ITEM for s in items
               for n in walk(s)):
        return None             # no id read: every copy would do what the first does
    local = _declared(items)
    if local is None or local & how.outside:
        return None                                   # shadowing: names would mislead
    if _changed(items) - local:
        return None
    ways = [copy.deepcopy(items)] + [[_respelled(s, local, w) for s in copy.deepcopy(items)]
                                     for w in range(2, how.ways + 1)]
    return [s for each in zip(*ways) for s in each]


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


def _respelled(stmt, local: set[str], way: int):
    """``stmt`` for way ``way``'s work-item: its variables and the work-item context
    respelled (members and designators keep their names)."""
    suffix = copy_suffix(way)
    skip = set()
    for n in walk(stmt):
        if isinstance(n, c_ast.StructRef):
            skip.add(n.field)
        elif isinstance(n, c_ast.NamedInitializer):
            skip.update(n.name)
    for n in walk(stmt):
        if isinstance(n, c_ast.ID) and n not in skip:
            if n.name in local:
                n.name += suffix
            elif n.name == "CL2C_WI":
                n.name = f"CL2C_WI_{way}"
            elif n.name == L0:
                n.name = way_id(way)
        elif isinstance(n, c_ast.Decl) and n.name in local:
            declarators.rename(n, n.name + suffix)
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
