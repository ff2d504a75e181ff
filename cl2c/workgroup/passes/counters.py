"""Lowering pass: __local counters that a region only adds to, counted in four copies.

In a work-group function a __local atomic is a plain read-modify-write (a group runs
on one thread), so a histogram's ``atomic_inc(&bins[data[i]])`` becomes, work-item after
work-item, a load, an add and a store of a bin. Two increments of one bin a few
elements apart wait for each other (the second's load for the first's store), and with
256 bins that happens every few elements. Hand-written histograms count neighbouring
elements into different copies of the bins; this pass does the same where it cannot
change a result:

- a statement of the work-group function (a region, or a uniform loop of them) touches
  a kernel-scope __local array of int, uint, long or ulong only through atomic_add,
  _sub, _inc and _dec whose old value nothing uses, each inside a work-item loop and
  inside another loop (many updates a group: the copies' zeroing and summing are paid
  back);
- the kernel names the array nowhere but as ``bins[i]`` (no pointer to it escapes);
- each such work-item loop runs one work-item at a time (not ``omp simd``, not
  interleaved) and its body is a few statements with no jump out of it.

The statement then counts into four private copies, zeroed before it, and each copy is
added to the array after it (a ``Block`` of the work-group function). The work-item loops
run four work-items a step (their ``steps``: the k-th counting into copy k, printed by
workgroup/write.py), so no index arithmetic is added; the last few work-items count
into copy 0. Nothing reads the array while the statement runs, and additions commute and
wrap, so every later read sees what it would have. Checking builds keep the kernel's own
accesses (this pass does not run there).

Measured (bench/kernels/histogram.cl, 2^25 bytes, C driver): 12.8 -> 11.9 ms at one
thread here; counting through ``copy[l0 % 4]`` without the unrolling was slower than
no copies (18.8 ms: four more instructions an element).
"""
from __future__ import annotations

import copy
from collections import Counter

from pycparser import c_ast

from ... import types as ty
from ...typed_ast import walk
from ...lower.effects import call_of
from ..names import LOCALS
from .. import write
from ..ir import (Block, GroupFunction, GroupIf, GroupLoop, Once, WorkItemLoop,
                            c_parts)

COPIES = 4
MAX_ELEMENTS = 1024          # 4 copies of 4 KB of uint at most, on the thread's stack
MAX_BODY = 120               # nodes of a work-item loop's body that are copied four times
# the builtins that only add to a __local integer (their old value unused)
_UPDATES = {"atomic_add", "atomic_sub", "atomic_inc", "atomic_dec",
            "atom_add", "atom_sub", "atom_inc", "atom_dec"}
_LOOPS = (c_ast.For, c_ast.While, c_ast.DoWhile)
_BODIES = ("stmt", "iftrue", "iffalse")          # (a statement's own slots)
_JUMPS = (c_ast.Continue, c_ast.Break, c_ast.Return, c_ast.Goto, c_ast.Label)


def split_local_counters(gf: GroupFunction, local_types: dict) -> list[str]:
    """Count in copies in each top-level item of work-group function ``gf`` that allows
    it (above); returns the arrays' names. ``local_types``: {name: type} of the kernel's
    __local variables (fields of cl2c_locals)."""
    arrays = {name for name, t in local_types.items() if _countable(t)}
    arrays -= _escaping([*gf.prologue, *(node for node, _ in c_parts(gf.items))])
    split = []
    for i, item in enumerate(gf.items):
        for name in sorted(arrays):
            loops = _item_loops(item, name)
            if loops:
                gf.items[i] = item = _counted_in_copies(item, name, local_types[name], loops)
                split.append(name)
    return split


def _countable(t) -> bool:
    return isinstance(t, ty.Array) and t.length is not None and \
        0 < t.length <= MAX_ELEMENTS and t.elem in (ty.INT, ty.UINT, ty.LONG, ty.ULONG)


def _field(node) -> str | None:
    """X of ``cl2c_locals->X``."""
    if isinstance(node, c_ast.StructRef) and node.type == "->" and \
            isinstance(node.name, c_ast.ID) and node.name.name == LOCALS:
        return node.field.name
    return None


def _escaping(parts) -> set[str]:
    """The arrays the function names other than as ``cl2c_locals->X[i]``: more often
    than it indexes them."""
    nodes = [n for part in parts for n in walk(part)]
    named = Counter(_field(n) for n in nodes if _field(n))
    indexed = Counter(_field(n.name) for n in nodes
                      if isinstance(n, c_ast.ArrayRef) and _field(n.name))
    return {name for name, count in named.items() if count > indexed[name]}


def _item_loops(item, name: str) -> list[WorkItemLoop]:
    """The work-item loops of ``item`` that update array ``name``, where the item
    allows counting in copies (above); else []."""
    uses = sum(1 for part, _ in c_parts([item]) for n in walk(part) if _field(n) == name)
    found: list = []
    _collect_items([item], name, found, looped=False)
    if len(found) != uses or not all(loop is not None for _, loop in found):
        return []
    loops = []
    for _, loop in found:
        if not any(loop is seen for seen in loops):
            loops.append(loop)
    return loops if all(_unrollable(loop) for loop in loops) else []


def _collect_items(items, name, found, looped) -> None:
    """The updates of ``name`` in ``items``, each with its work-item loop where it is a
    statement inside one and inside another loop (a group loop around it, or a loop of
    the kernel's in it), else None."""
    for it in items:
        if isinstance(it, WorkItemLoop):
            for part in [*it.row_items, it.row_guard, it.first, it.end, it.row_first,
                         it.row_end]:
                if part is not None:
                    _collect(part, name, found, looped)
            for s in [*it.body, *(it.interleaved or ()), *(it.lanes or ())]:
                _collect(s, name, found, looped, it, statement=True)
        elif isinstance(it, GroupLoop):
            for slot in ("init", "cond", "next"):
                part = getattr(it.node, slot, None)
                if part is not None:
                    _collect(part, name, found, looped)
            _collect_items(it.body, name, found, True)
        elif isinstance(it, GroupIf):
            _collect(it.node.cond, name, found, looped)
            _collect_items(it.then, name, found, looped)
            _collect_items(it.other, name, found, looped)
        elif isinstance(it, Block):
            _collect_items(it.items, name, found, looped)
        elif isinstance(it, Once):
            _collect(it.node, name, found, looped, statement=True)


def _collect(node, name, found, looped, loop=None, statement=False) -> None:
    """The updates of ``name`` under C node ``node`` (in work-item loop ``loop``, if
    any), as in _collect_items."""
    if isinstance(node, _LOOPS):
        looped = True
    if _is_update(node, name):
        found.append((node, loop if loop is not None and looped and statement else None))
        return
    for slot, child in node.children():
        _collect(child, name, found, looped, loop,
                 isinstance(node, c_ast.Compound) or slot in _BODIES)


def _is_update(s, name: str) -> bool:
    """``atomic_add(&cl2c_locals->name[i], v)`` and the like, as lowered."""
    call = call_of(s)
    if call is None or call.kind != "builtin" or call.name not in _UPDATES or \
            not call.row.params[0].startswith("local") or not s.args or not s.args.exprs:
        return False
    target = s.args.exprs[0]
    return isinstance(target, c_ast.UnaryOp) and target.op == "&" and \
        isinstance(target.expr, c_ast.ArrayRef) and _field(target.expr.name) == name


def _unrollable(loop: WorkItemLoop) -> bool:
    """A loop of one work-item at a time, not yet in steps, its body (as the writer
    prints it) small and with no jump out of it."""
    if loop.simd or loop.ways > 1 or loop.lanes is not None or loop.steps is not None:
        return False
    body = [n for s in write.item_body(loop) for n in walk(s)]
    return len(body) + 1 <= MAX_BODY and not any(isinstance(n, _JUMPS) for n in body)


def _counted_in_copies(item, name: str, t: ty.Array, loops) -> Block:
    elem = f"cl2c_{t.elem.name}"
    wide = f"cl2c_u{t.elem.name.lstrip('u')}"
    copies = f"cl2c_{name}__copies"
    at = next(n for part, _ in c_parts([item]) for n in walk(part)
              if _is_update(n, name)).coord     # (the first update's)
    for loop in loops:
        loop.steps = [_counting(loop.body, name, copies, k) for k in range(COPIES)]
    total = " + ".join(f"({wide}){copies}[{c}][cl2c_j]" for c in range(COPIES))
    declared, fold = write.snippet(
        f"{elem} {copies}[{COPIES}][{t.length}] = {{{{0}}}};"
        f"for (int cl2c_j = 0; cl2c_j < {t.length}; ++cl2c_j)"
        f"    {LOCALS}->{name}[cl2c_j] = ({elem})(({wide}){LOCALS}->{name}[cl2c_j] + {total});",
        types=(elem, wide), coord=at)
    return Block([Once(declared), item, Once(fold)])


def _counting(body: list, name: str, copies: str, k: int) -> list:
    """A copy of ``body`` whose updates of ``name`` count into copy k."""
    body = copy.deepcopy(body)
    for n in (n for s in body for n in walk(s)):
        if _is_update(n, name):
            n.args.exprs[0].expr.name = c_ast.ArrayRef(c_ast.ID(copies),
                                                       c_ast.Constant("int", str(k)))
    return body
