"""A loop split in two, run as the one loop it splits.

A tiled matrix product walks its inner dimension a tile at a time::

    for (int t = 0; t < n / TILE; ++t)
        for (int k = 0; k < TILE; ++k)
            acc += A[row * n + t * TILE + k] * B[(t * TILE + k) * n + col];

once its ``__local`` tiles are read from ``A`` and ``B`` (local_copies.py). The two
loops are one loop over ``[0, n / TILE * TILE)``, the product's ``k`` loop, which the
schedules put in register tiles and the panels of B that they pack (1.5x at 1024^2 on
two threads: the tiled matmul at the naive one's speed)::

    for (int k = 0; k < n / TILE * TILE; ++k)
        acc += A[row * n + k] * B[k * n + col];

What is proved, or nothing changes (a normal build only, as the copies' forwarding):
the outer loop ``for (int t = 0; t < M; ++t)`` (or ``t++``, ``t += 1``) has the inner
loop ``for (int k = 0; k < C; ++k)`` for its whole body, ``C`` an integer constant above
0 and ``M`` a constant or ``X / C``, made of constants and unchanged scalar parameters
(so that ``M * C`` is the last ``t * C + k`` plus one and overflows nothing the loops
did not); ``t`` and ``k`` are the loops' own ``int`` variables, changed only by their
steps, and used only as ``t * C + k`` (or ``C * t``, or ``X + t * C + k``: the sum's
last two terms), which becomes the joined loop's ``k`` (``X + k``); the inner loop has
no ``break`` (it would leave the joined loop) and no ``goto``.
"""
from __future__ import annotations

from pycparser import c_ast

from ..checking.counted import steps_by_one
from ..sema import Module
from ..typed_ast import fact, make, replace_child, walk
from .tree_facts import (changed_lvalues, int_constant, is_wide_int, parents_of,
                         strip_casts, symbol_of)
from .unconditional import changed_declarations


def join_split_loops(module: Module) -> tuple[Module, dict[str, tuple[str, ...]]]:
    """Each kernel's split loops joined (above); and, by kernel, the loops joined
    (``"t and k"``), for the schedule's comment."""
    done = {}
    for f in module.kernels:
        body = f.node.body
        changed = changed_declarations(body)
        params = {id(d) for d in _param_decls(f)}
        joined = tuple(what for loop in [n for n in walk(body) if isinstance(n, c_ast.For)]
                       if (what := _join(loop, body, changed, params)))
        if joined:
            done[f.name] = joined
    return module, done


def _param_decls(f) -> list:
    args = f.node.decl.type.args
    return [p for p in args.params if isinstance(p, c_ast.Decl)] if args else []


def _counter(loop):
    """The ``int`` variable that ``for (int v = 0; v < ...; ++v)`` declares, counts from
    0 by one and compares with ``<``; None for any other loop."""
    init, cond, step = loop.init, loop.cond, loop.next
    if not (isinstance(init, c_ast.DeclList) and len(init.decls) == 1 and
            int_constant(init.decls[0].init) == 0 and isinstance(cond, c_ast.BinaryOp) and
            cond.op == "<"):
        return None
    sym = symbol_of(cond.left)
    if sym is None or sym.node is not init.decls[0] or not is_wide_int(sym.type):
        return None
    return sym if steps_by_one(step, sym.name) else None


def _join(outer, body, changed, params) -> str | None:
    """Joins ``outer`` and the loop it holds where they are one loop split in two:
    ``"t and k"``, their counters; else None (and nothing changes)."""
    inner = outer.stmt
    if isinstance(inner, c_ast.Compound) and len(inner.block_items or []) == 1:
        inner = inner.block_items[0]
    if not isinstance(inner, c_ast.For):
        return None
    t, k = _counter(outer), _counter(inner)
    size = int_constant(inner.cond.right) if k is not None else None
    if t is None or k is None or t.type != k.type or size is None or size <= 0:
        return None
    count = outer.cond.right
    if not _uniform(count, changed, params):
        return None
    n = strip_casts(count)
    if int_constant(count) is not None:
        if int_constant(count) * size >= 1 << 31:
            return None
    elif not (isinstance(n, c_ast.BinaryOp) and n.op == "/" and int_constant(n.right) == size):
        return None
    # t and k changed only by their steps, every use a t * C + k; no break (which
    # would leave the joined loop, not the inner one) and no goto
    if any(symbol_of(x) is t or symbol_of(x) is k
           for x in changed_lvalues(inner.stmt, address=True)) or \
            any(isinstance(n, (c_ast.Break, c_ast.Goto, c_ast.Label))
                for n in walk(inner.stmt)):
        return None
    parents = parents_of(outer)
    uses = [n for n in walk(inner.stmt) if isinstance(n, c_ast.ID) and
            (symbol_of(n) is t or symbol_of(n) is k)]
    if any(isinstance(n, c_ast.ID) and symbol_of(n) is t for n in walk(inner.cond)):
        return None
    sums = []
    for use in uses:
        if symbol_of(use) is not k:
            continue
        up = parents.get(id(use))
        if up is None or not isinstance(up[0], c_ast.BinaryOp) or up[0].op != "+" or \
                up[1] != "right":
            return None
        total = up[0]
        scaled = total.left
        rest = None
        if isinstance(scaled, c_ast.BinaryOp) and scaled.op == "+":
            rest, scaled = scaled.left, scaled.right
        if not _scaled(scaled, t, size) or fact(total, "ty") != k.type or \
                (rest is not None and fact(total.left, "ty") != k.type):
            return None
        sums.append((total, rest))
    if len(sums) * 2 != len(uses):
        return None
    # join: each sum becomes its rest + k, the inner loop runs to M * C, and replaces
    # the outer one
    for total, rest in sums:
        if rest is None:
            total_parent, slot = parents[id(total)]
            replace_child(total_parent, slot, total.right)
        else:
            total.left = rest
    bound = make(c_ast.BinaryOp, "*", count, inner.cond.right)
    bound.ty = fact(count, "ty")
    inner.cond.right = bound
    parent, slot = parents_of(body)[id(outer)]
    if isinstance(parent, c_ast.Compound):
        parent.block_items = [inner if s is outer else s for s in parent.block_items]
    else:
        replace_child(parent, slot, inner)
    return f"{t.name} and {k.name}"


def _scaled(e, t, size: int) -> bool:
    """``e`` is ``t * size`` or ``size * t``."""
    e = strip_casts(e) if not isinstance(e, c_ast.BinaryOp) else e
    if not (isinstance(e, c_ast.BinaryOp) and e.op == "*"):
        return False
    return (symbol_of(e.left) is t and int_constant(e.right) == size) or \
        (symbol_of(e.right) is t and int_constant(e.left) == size)


def _uniform(e, changed, params) -> bool:
    """``e`` is made of constants, operators and scalar parameters never changed."""
    for n in walk(e):
        if isinstance(n, c_ast.ID):
            sym = symbol_of(n)
            if sym is None or sym.kind != "param" or id(sym.node) not in params or \
                    id(sym.node) in changed:
                return False
        elif isinstance(n, (c_ast.FuncCall, c_ast.Assignment, c_ast.ArrayRef,
                            c_ast.StructRef, c_ast.UnaryOp, c_ast.TernaryOp)):
            return False
    return True
