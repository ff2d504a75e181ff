"""Panels: the loads that every row of a register tile shares, copied once per column.

A naive matrix multiply in register tiles (passes/tiling.py) loads, at each step ``k``
of its loop, a run of CL2C_TILE_COLS elements of B's row ``k``, the same for each row of
the tile: ``B[k * N + col]``. A group is a column of tiles (host.h's cl2c_regroup_tiles),
so each of its tiles reads the same runs, a row of B apart. At 2048^2 those rows are
8 KiB apart: the column's 2048 lines fall into few sets of the L2 and on as many pages,
and every tile takes them from memory again (one thread of the 2-core Zen: 245 ms,
hand C, which packs B into panels, 170).

Here the first whole tile of a column of tiles stores what it loads into a panel, the
runs one after the other, and asks for the loads of CL2C_PANEL_AHEAD steps on, which no
hardware prefetcher follows; the column's other tiles read the panel (that machine: 188
ms; the tiles alone, from a panel, 151). Where the loads' rows lie close (their column
spans less than CL2C_PANEL_SPAN: the caches hold it), where a panel would be larger than
CL2C_PANEL_BYTES, and in a group of one row of tiles, the loop runs as written (at
512^2 panels cost 10%).

Legality: tiling already requires that the loop's body write nothing but its own locals
and its work-item's elements of per-work-item arrays, and call nothing with effects.
Memory does not change while the group's tiles run the loop, then (another group's
write of it would be a data race), so a panel's copy holds what each tile would load.
A load is a panel's where it reads a __global or __constant buffer (not volatile) at a
subscript that does not change along the tile's rows, steps 1 along the local id 0,
and moves far at each step of the loop (strides.py), in a statement of the work-item
loop's body that runs unconditionally (no ``?:``, ``&&`` or ``if`` around it, and no
``continue``, ``break`` or ``return`` anywhere in the body: the first tile's first row
loads it at every step, before the statement, as the statement would). The loop counts an
``int`` by one from a value to a bound (``<`` or ``<=``) that the body does not change,
so that its steps are known before it runs.
"""
from __future__ import annotations

import copy
from typing import NamedTuple

from pycparser import c_ast

from .. import types as ty
from ..lower.effects import builtin_name, constant_dimension, work_item_function
from ..checking.counted import steps_by_one
from ..typed_ast import assigned_names, replace_child, substituted, walk
from .names import L0
from .strides import WIDE, Strides

# a step of the loop that moves a load this many elements or fewer keeps it in the
# lines it read (strides.py's _NEAR): hardware prefetchers follow such runs
_NEAR = 16
# work-item functions whose value is the group's, whatever the work-item
_GROUP_LEVEL = {"get_group_id", "get_local_size", "get_enqueued_local_size",
                "get_global_size", "get_num_groups", "get_global_offset", "get_work_dim"}


class Header(NamedTuple):
    """A loop ``for (int counter = first; counter < end; ++counter)`` (``<=``:
    ``inclusive``)."""
    counter: str
    first: c_ast.Node
    end: c_ast.Node
    inclusive: bool


def header(loop: c_ast.For) -> Header | None:
    """The loop's header as a Header, where it has that shape and its counter is an
    int; else None."""
    init = loop.init
    if not (isinstance(init, c_ast.DeclList) and len(init.decls) == 1 and
            init.decls[0].init is not None):
        return None
    d = init.decls[0]
    if not (isinstance(d.type, c_ast.TypeDecl) and
            isinstance(d.type.type, c_ast.IdentifierType) and d.type.type.names == ["int"]):
        return None
    k = d.name
    cond = loop.cond
    if not (isinstance(cond, c_ast.BinaryOp) and cond.op in ("<", "<=") and
            isinstance(cond.left, c_ast.ID) and cond.left.name == k):
        return None
    return Header(k, d.init, cond.right, cond.op == "<=") \
        if steps_by_one(loop.next, k) else None


def panel_loads(loop: c_ast.For, body: c_ast.Compound, row_items: list) -> list:
    """The loads of ``body`` (the work-item loop's, as printed, inside tiled loop
    ``loop``; ``row_items`` the row's declarations before it) that panels can hold, a
    list of the loads of each panel (the same buffer at the same subscript), in the
    order of the body's statements; [] where the loop's header does not allow panels."""
    h = header(loop)
    items = body.block_items or []
    if h is None or not items or _jumps(body):
        return []
    changed = set().union(*(assigned_names(s) for s in items))
    if changed & (_names(h.end) | {h.counter}):
        return []
    defined = {d.name: d.init for d in [*row_items, *items]
               if isinstance(d, c_ast.Decl) and d.init is not None and d.name not in changed}
    declared = {d.name for d in [*row_items, *items] if isinstance(d, c_ast.Decl)}
    along_items, along_counter = Strides(items), Strides(items, h.counter)
    found = []
    for stmt in items:
        for n in _unconditional(stmt):
            if not _buffer_load(n):
                continue
            sub = n.subscript
            if not _row_invariant(sub, h.counter, defined,
                                  (declared - set(defined)) | changed, set()):
                continue
            if along_items.of(sub) != 1:
                continue
            step = along_counter.of(sub)
            if step == WIDE or isinstance(step, int) and abs(step) > _NEAR:
                found.append(n)
    panels: list = []
    for n in found:
        same = next((p for p in panels if _same(p[0], n)), None)
        if same is None:
            panels.append([n])
        else:
            same.append(n)
    return panels


def subscript_at(load: c_ast.ArrayRef, counter: str, decls: list, value) -> c_ast.Node:
    """``load``'s subscript where the loop's counter is ``value``, with the declarations
    ``decls`` (the body's, and the row's where they are not in scope) it reads written
    out."""
    defined = {d.name: d.init for d in decls if isinstance(d, c_ast.Decl) and d.init is not None}
    return substituted(_written_out(copy.deepcopy(load.subscript), defined), counter, value)


def statement_of(load, body: c_ast.Compound) -> int:
    """The index, in ``body``'s items, of the statement that holds ``load``."""
    return next(i for i, s in enumerate(body.block_items or [])
                if any(n is load for n in walk(s)))


def _same(a, b) -> bool:
    """Are expressions ``a`` and ``b`` the same tree (names, operators, constants)?"""
    if type(a) is not type(b):
        return False
    if not isinstance(a, c_ast.Node):
        return a == b
    if any(getattr(a, n) != getattr(b, n) for n in a.attr_names):
        return False
    ca, cb = a.children(), b.children()
    return len(ca) == len(cb) and all(x[0] == y[0] and _same(x[1], y[1])
                                      for x, y in zip(ca, cb))


def _jumps(body) -> bool:
    """Does a work-item leave ``body``'s step early somewhere (``continue``, ``return``,
    ``goto``, a ``break`` of the step)? Its tile's first row may then skip a load that
    its other rows read from the panel."""
    return any(isinstance(n, (c_ast.Continue, c_ast.Break, c_ast.Return, c_ast.Goto))
               for n in walk(body))


def _names(e) -> set:
    return {n.name for n in walk(e) if isinstance(n, c_ast.ID)} if e is not None else set()


def _unconditional(node):
    """The nodes of a statement that run whenever it does: not below ``?:``, ``&&``,
    ``||``, a loop or an ``if``; nor the operand of ``&`` (an address, not a load) or
    ``sizeof``, nor an assignment's target."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n is None or isinstance(n, (c_ast.TernaryOp, c_ast.If, c_ast.For, c_ast.While,
                                       c_ast.DoWhile, c_ast.Switch)):
            continue
        if isinstance(n, c_ast.BinaryOp) and n.op in ("&&", "||"):
            stack.append(n.left)        # (the left operand always runs)
            continue
        if isinstance(n, c_ast.UnaryOp) and n.op in ("&", "sizeof", "_Alignof"):
            continue        # (an address, or not evaluated)
        yield n
        if isinstance(n, c_ast.Assignment):
            stack.append(n.rvalue)
            if not isinstance(n.lvalue, c_ast.ArrayRef):
                stack.append(n.lvalue)
            else:
                stack.extend([n.lvalue.subscript])
            continue
        stack.extend(child for _, child in reversed(n.children()))


def _buffer_load(n) -> bool:
    """``X[i]`` of a buffer X: a __global or __constant pointer, not volatile, to a
    scalar."""
    if not (isinstance(n, c_ast.ArrayRef) and isinstance(n.name, c_ast.ID)):
        return False
    t = getattr(n.name, "ty", None)
    return isinstance(t, ty.Pointer) and t.space in ("global", "constant") and \
        not t.volatile and isinstance(t.pointee, ty.Scalar) and \
        isinstance(getattr(n, "ty", None), ty.Scalar)


def _row_invariant(e, counter: str, defined: dict, local: set, seen: set) -> bool:
    """Does ``e`` have one value for a column of the tile at each step: does it read
    only the loop's counter, the local id 0, the group's values, and declarations of
    such values (``defined``; ``local``: the row's and body's others)?"""
    if isinstance(e, c_ast.Constant):
        return True
    if isinstance(e, c_ast.ID):
        if e.name in (counter, L0):
            return True
        if e.name in defined:
            if e.name in seen:
                return False
            return _row_invariant(defined[e.name], counter, defined, local, seen | {e.name})
        return e.name not in local and not e.name.startswith("cl2c_")
    if isinstance(e, c_ast.Cast):
        return _row_invariant(e.expr, counter, defined, local, seen)
    if isinstance(e, c_ast.UnaryOp) and e.op in ("-", "+", "~"):
        return _row_invariant(e.expr, counter, defined, local, seen)
    if isinstance(e, c_ast.BinaryOp) and e.op in ("+", "-", "*", "/", "%", "<<", ">>",
                                                  "&", "|", "^"):
        return _row_invariant(e.left, counter, defined, local, seen) and \
            _row_invariant(e.right, counter, defined, local, seen)
    if isinstance(e, c_ast.FuncCall) and work_item_function(e) is not None:
        name = builtin_name(e)
        return name in _GROUP_LEVEL or \
            name in ("get_global_id", "get_local_id") and constant_dimension(e) == 0
    return False


def _written_out(e, defined: dict, depth: int = 0):
    """``e`` with the names in ``defined`` replaced by (copies of) their values."""
    if isinstance(e, c_ast.ID) and e.name in defined and depth < 32:
        return _written_out(copy.deepcopy(defined[e.name]), defined, depth + 1)
    for name, child in e.children():
        replace_child(e, name, _written_out(child, defined, depth))
    return e


