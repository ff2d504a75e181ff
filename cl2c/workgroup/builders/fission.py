"""A region's work-item loop cut in consecutive loops where a statement runs for one
work-item of each row (the regions schedule).

A tile's halo loads (``if (lx == 1) tile[ly][0] = ...;``) run for one local id 0 of
each row. Left in the region's loop, they split it (splits.py) into a middle two
work-items narrower than the row and two edges of one work-item each that run the whole
body as written, scalar: a 16x16 Jacobi tile spent a third of its time there. Cut out,
each runs in a loop of its own over that one work-item of each row, and the rest of the
body in loops of the whole rows, which vectorise.

The loops run one after the other, each over the region's work-items: each work-item
still runs its statements in their order; only the order between work-items changes,
which the kernel cannot observe between two barriers (work-items that communicate there
without atomics race). A cut is made only where nothing a later loop reads was declared
or changed by an earlier one: the declarations at the head of the region that a loop
uses are copied into it, and must be values (no loads, no effects) that the body does
not change.
"""
from __future__ import annotations

from typing import NamedTuple

from pycparser import c_ast

from ...lower.effects import has_effects
from ...typed_ast import changed_names, walk
from .splits import reads_no_memory
from .syntax import ids


class Piece(NamedTuple):
    stmts: list       # the piece's body: the head declarations it uses, its statements
    point: object     # for a statement of one work-item a row: the local id 0 where its
                      # guard holds (a ptrdiff_t C expression); None: the whole rows


def cut(stmts: list, bounds, held_once) -> list[Piece] | None:
    """``stmts``, a region's body, as the bodies of consecutive loops (above); None where
    no statement holds for one local id 0 alone, or the cut is not safe.
    ``held_once(name, subscripted)``: whether a variable the body writes (an element of
    it, where ``subscripted``) is held once for the group in the generated C (a
    private of the kernel's, not an array of one a work-item nor memory a pointer
    reaches): a value of it may not pass from one loop to the next."""
    head = []
    for s in stmts:
        if not isinstance(s, c_ast.Decl):
            break
        head.append(s)
    rest = stmts[len(head):]
    changed = changed_names(c_ast.Compound(rest))
    points = [_point(s, head, bounds, changed) for s in rest]
    if not any(p is not None for p in points) or \
            any(isinstance(n, (c_ast.Return, c_ast.Label, c_ast.Goto))
                for s in rest for n in walk(s)):
        return None
    if any(d.name in changed or d.init is not None and (
            has_effects(d.init) or not reads_no_memory(d.init)) for d in head):
        return None
    groups: list = []           # (point, statements): a run of statements of whole rows
    for s, p in zip(rest, points):
        if p is None and groups and groups[-1][0] is None:
            groups[-1][1].append(s)
        else:
            groups.append((p, [s]))
    uses = [set().union(*(ids(s) for s in body)) for _, body in groups]
    declared: set = set()       # by the pieces before
    pieces = []
    for k, (p, body) in enumerate(groups):
        if uses[k] & declared:
            return None         # a value an earlier piece made
        declared |= {n.name for s in body for n in walk(s) if isinstance(n, c_ast.Decl)}
        others = set().union(*(u for j, u in enumerate(uses) if j != k))
        if any(held_once(name, sub) and name in others for name, sub in _written(body)):
            return None         # a value in one variable for all the work-items
        pieces.append(Piece(_needed(head, uses[k]) + body, p))
    return pieces


def _written(body: list):
    """(name, subscripted) of each variable that statements ``body`` write, or whose
    address they take, other than through a pointer (``*p``, ``p->f``)."""
    for n in (n for s in body for n in walk(s)):
        if isinstance(n, c_ast.Assignment):
            target = n.lvalue
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&"):
            target = n.expr
        else:
            continue
        subscripted = False
        while isinstance(target, (c_ast.ArrayRef, c_ast.StructRef)):
            if isinstance(target, c_ast.StructRef) and target.type == "->":
                break
            subscripted |= isinstance(target, c_ast.ArrayRef)
            target = target.name
        if isinstance(target, c_ast.ID):
            yield target.name, subscripted


def _point(s, head: list, bounds, changed: set):
    """Where ``if (X == U) S`` holds: the one local id 0 (X affine in it, U uniform,
    neither changed by the region's body); None for any other statement."""
    if not (isinstance(s, c_ast.If) and s.iffalse is None and
            isinstance(s.cond, c_ast.BinaryOp) and s.cond.op == "==") or \
            has_effects(s.cond) or ids(s.cond) & changed:
        return None
    where = bounds.known_where(s.cond, head, 0)
    return where[1] if where is not None and where[0] == "at" else None


def _needed(head: list, used: set) -> list:
    """The head's declarations that names ``used`` need, in their order."""
    need = set(used)
    keep = []
    for d in reversed(head):
        if d.name in need:
            keep.append(d)
            need |= ids(d.init) if d.init is not None else set()
    return [d for d in head if any(d is k for k in keep)]
