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
- each such work-item loop can be unrolled four times: ``l0 < bound``, ``++l0``, a body
  of a few statements with no jump out of it.

The statement then counts into four private copies, zeroed before it, and each copy is
added to the array after it. The work-item loops run four work-items a step, the k-th
counting into copy k, so no index arithmetic is added; the last few work-items count
into copy 0. Nothing reads the array while the statement runs, and additions commute and
wrap, so every later read sees what it would have. Checking builds keep the kernel's own
accesses (this pass does not run there).

Measured (bench/kernels/histogram.cl, 2^25 bytes, C driver): 12.8 -> 11.9 ms at one
thread here; counting through ``copy[l0 % 4]`` without the unrolling was slower than
no copies (18.8 ms: four more instructions an element).
"""
from __future__ import annotations

import copy
import re
from collections import Counter

from pycparser import CParser, c_ast

from .. import types as ty
from ..typed_ast import walk
from .workitems import LOCALS
from ..workgroup.names import L0, L1, L2

COPIES = 4
MAX_ELEMENTS = 1024          # 4 copies of 4 KB of uint at most, on the thread's stack
MAX_BODY = 120               # nodes of a work-item loop's body that are copied four times
_UPDATE = re.compile(r"cl2c_atomic_(add|sub|inc|dec)_local_(u?int|u?long)")
_ITEM = L0
_ROWS = {L1, L2}
_LOOPS = (c_ast.For, c_ast.While, c_ast.DoWhile)
_BODIES = ("stmt", "iftrue", "iffalse")          # (a statement's own slots)
_JUMPS = (c_ast.Continue, c_ast.Break, c_ast.Return, c_ast.Goto, c_ast.Label)


def split_local_counters(func: c_ast.FuncDef, local_types: dict) -> list[str]:
    """Count in copies in each top-level statement of work-group function ``func``
    that allows it (above); returns the arrays' names. ``local_types``: {name: type} of
    the kernel's __local variables (fields of cl2c_locals)."""
    arrays = {name for name, t in local_types.items() if _countable(t)}
    arrays -= _escaping(func.body)
    split = []
    items = func.body.block_items or []
    for i, s in enumerate(items):
        for name in sorted(arrays):
            loops = _item_loops(s, name)
            if loops:
                items[i] = s = _counted_in_copies(s, name, local_types[name], loops)
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


def _escaping(body) -> set[str]:
    """The arrays the function names other than as ``cl2c_locals->X[i]``: more often
    than it indexes them."""
    named = Counter(_field(n) for n in walk(body) if _field(n))
    indexed = Counter(_field(n.name) for n in walk(body)
                      if isinstance(n, c_ast.ArrayRef) and _field(n.name))
    return {name for name, count in named.items() if count > indexed[name]}


def _item_loops(stmt, name: str) -> list:
    """The work-item loops of ``stmt`` that update array ``name``, as (block, loop),
    where the statement allows counting in copies (above); else []."""
    uses = sum(1 for n in walk(stmt) if _field(n) == name)
    found: list = []
    _collect(stmt, name, found, [], looped=False)
    if len(found) != uses or not all(loop is not None for _, loop in found):
        return []
    loops = []
    for _, loop in found:
        if not any(loop[1] is seen[1] for seen in loops):
            loops.append(loop)
    return loops if all(_unrollable(block, f) for block, f in loops) else []


def _collect(node, name, found, blocks, looped, loop=None, statement=False) -> None:
    """The updates of ``name`` under ``node``, each with its work-item loop as (the
    block holding it, the loop) where it is a statement inside one and inside another
    loop, else None."""
    counters = {d.name for d in node.init.decls} if isinstance(node, c_ast.For) and \
        isinstance(node.init, c_ast.DeclList) else set()
    if _ITEM in counters:
        loop = (blocks[-1] if blocks else None, node)
    elif isinstance(node, _LOOPS) and not counters & _ROWS:
        looped = True       # (the rows of work-items around a work-item loop aside)
    if _is_update(node, name):
        found.append((node, loop if loop is not None and looped and statement else None))
        return
    inner = blocks + [node] if isinstance(node, c_ast.Compound) else blocks
    for slot, child in node.children():
        _collect(child, name, found, inner, looped, loop,
                 isinstance(node, c_ast.Compound) or slot in _BODIES)


def _is_update(s, name: str) -> bool:
    """``cl2c_atomic_add_local_uint(&cl2c_locals->name[i], v)`` and the like."""
    if not (isinstance(s, c_ast.FuncCall) and isinstance(s.name, c_ast.ID) and
            _UPDATE.fullmatch(s.name.name) and s.args and s.args.exprs):
        return False
    target = s.args.exprs[0]
    return isinstance(target, c_ast.UnaryOp) and target.op == "&" and \
        isinstance(target.expr, c_ast.ArrayRef) and _field(target.expr.name) == name


def _unrollable(block, f: c_ast.For) -> bool:
    """``for (T l0 = a; l0 < b; ++l0) { ... }`` in a block (no pragma before it), its
    bound plain arithmetic, its body small, every update a statement of it or of a
    block in it, and no jump out of it."""
    if not isinstance(block, c_ast.Compound) or not any(s is f for s in block.block_items):
        return False
    at = next(i for i, s in enumerate(block.block_items) if s is f)
    if at > 0 and isinstance(block.block_items[at - 1], c_ast.Pragma):
        return False
    cond, step = f.cond, f.next
    if len(f.init.decls) != 1 or not (
            isinstance(cond, c_ast.BinaryOp) and cond.op == "<" and
            isinstance(cond.left, c_ast.ID) and cond.left.name == _ITEM and
            isinstance(step, c_ast.UnaryOp) and step.op in ("++", "p++") and
            isinstance(step.expr, c_ast.ID) and step.expr.name == _ITEM):
        return False
    if any(not isinstance(n, (c_ast.ID, c_ast.Constant, c_ast.Cast, c_ast.BinaryOp,
                              c_ast.Typename, c_ast.TypeDecl, c_ast.IdentifierType))
           for n in walk(cond.right)):
        return False
    body = list(walk(f.stmt))
    if not isinstance(f.stmt, c_ast.Compound) or len(body) > MAX_BODY:
        return False
    return not any(isinstance(n, _JUMPS) for n in body)


def _counted_in_copies(stmt, name: str, t: ty.Array, loops) -> c_ast.Compound:
    elem = f"cl2c_{t.elem.name}"
    wide = f"cl2c_u{t.elem.name.lstrip('u')}"
    copies = f"cl2c_{name}__copies"
    at = next(n for n in walk(stmt) if _is_update(n, name)).coord     # (the first update's)
    for block, f in loops:
        i = next(i for i, s in enumerate(block.block_items) if s is f)
        block.block_items[i] = _unrolled(f, name, copies)
    total = " + ".join(f"({wide}){copies}[{c}][cl2c_j]" for c in range(COPIES))
    declared, fold = _parsed(
        f"{elem} {copies}[{COPIES}][{t.length}] = {{{{0}}}};"
        f"for (int cl2c_j = 0; cl2c_j < {t.length}; ++cl2c_j)"
        f"    {LOCALS}->{name}[cl2c_j] = ({elem})(({wide}){LOCALS}->{name}[cl2c_j] + {total});",
        at, elem, wide)
    return c_ast.Compound([declared, stmt, fold])


def _unrolled(f: c_ast.For, name: str, copies: str) -> c_ast.Compound:
    """``for (T l0 = a; l0 < b; ++l0) B`` as

        { T cl2c_q = a;
          for (; cl2c_q + 3 < b; cl2c_q += 4) { { const T l0 = cl2c_q; B0 } ... { ... + 3; B3 } }
          for (T l0 = cl2c_q; l0 < b; ++l0) B0 }

    where Bk is B counting into copy k."""
    decl = f.init.decls[0]
    bound = f.cond.right
    q = c_ast.ID("cl2c_q")
    start = copy.deepcopy(decl)
    start.name = start.type.declname = "cl2c_q"
    steps = []
    for k in range(COPIES):
        item = copy.deepcopy(decl)
        item.quals = ["const"] + [x for x in item.quals if x != "const"]
        item.type.quals = ["const"] + [x for x in item.type.quals if x != "const"]
        item.init = c_ast.BinaryOp("+", q, c_ast.Constant("int", str(k))) if k else q
        steps.append(c_ast.Compound([item] + _counting(f.stmt, name, copies, k).block_items))
    unrolled = c_ast.For(None, c_ast.BinaryOp(
        "<", c_ast.BinaryOp("+", q, c_ast.Constant("int", str(COPIES - 1))),
        copy.deepcopy(bound)), c_ast.Assignment("+=", q, c_ast.Constant("int", str(COPIES))),
        c_ast.Compound(steps), f.coord)
    rest = copy.deepcopy(f)
    rest.init.decls[0].init = q
    rest.stmt = _counting(f.stmt, name, copies, 0)
    return c_ast.Compound([start, unrolled, rest])


def _counting(body: c_ast.Compound, name: str, copies: str, k: int) -> c_ast.Compound:
    """A copy of ``body`` whose updates of ``name`` count into copy k."""
    body = copy.deepcopy(body)
    for n in walk(body):
        if _is_update(n, name):
            n.args.exprs[0].expr.name = c_ast.ArrayRef(c_ast.ID(copies),
                                                       c_ast.Constant("int", str(k)))
    return body


def _parsed(text: str, coord, *types: str) -> list:
    """The statements ``text`` holds (its type names declared for the parser), placed
    at ``coord`` of the kernel."""
    typedefs = "".join(f"typedef int {t};" for t in set(types))
    unit = CParser().parse(f"{typedefs} struct s {{ int x[1]; }} *{LOCALS};"
                           f"void f(void) {{ {text} }}")
    items = unit.ext[-1].body.block_items
    for n in (n for item in items for n in walk(item)):
        n.coord = coord
    return items
