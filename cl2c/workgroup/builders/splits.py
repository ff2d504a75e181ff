"""Index-set splitting of a region's work-item loop (the regions schedule).

A comparison in a region's body that is affine in the local id 0 (``lx == 1``,
``gx < nx``, X = l0 + B against a uniform U) has one value over a range of work-items:
``gx < nx`` holds below nx - B, ``lx == 1`` fails everywhere but at 1 - B. The
work-items where every such comparison has its usual value (true for <, <=, >, >=; false
for ==, true for !=) run a copy of the body with the comparisons replaced by those
values and the ifs and ?: they decide folded away: no conditional stores to one
address, no masked loads, a loop the C compiler vectorises. The work-items before and
after them run the body as written. Each work-item runs its whole region in one of the
three loops, and the loops run in the order of the local ids, so nothing the kernel
can observe changes. The middle's bounds are found once per group (regions.h's
cl2c_mid_*): every bound is a group-level value.

An image read or write at integer coordinates whose x is affine in the local id 0
(``(int2)(x - 1, y)`` of a stencil, clamped to the edge) is such a comparison too: its x
lies inside the image, 0 <= x < width, over a range of work-items, and there the middle
reads without addressing x and writes without testing it (images.h's ``_xin`` reads and
writes): neighbouring work-items' pixels are one load instead of a gather, and a store
that the row's test alone guards.

Comparisons affine in the local id 1 (``ly == 1`` of a tile's halo row, ``gy < ny``)
split the group's rows likewise, before the split along local id 0: the rows before the
middle ones, the middle rows (the body with those comparisons folded) and the rows
after, each a loop over its rows (WorkItemLoop.row_first, row_end) around the work-item
loops of its own split along local id 0. A region's work-items then run row range by
row range, each row in the order of its local ids 0.
"""
from __future__ import annotations

import copy
from typing import NamedTuple

from pycparser import c_ast, c_generator

from ... import cnodes as cn
from ... import types as ty
from ...lower.effects import (UPDATE, builtin_call, call_of, has_effects, runtime_call,
                               value_of_arguments, work_item_function)
from ...typed_ast import changed_names, make, walk
from ..names import (CHECK_PIXEL, LS0, LS1, MID_BELOW, MID_BESIDES, MID_FROM, MID_HI, MID_LO,
                     MID_ROWS, UNUSED)
from ..write import snippet, typed
from .syntax import ids, replace_child

_C = c_generator.CGenerator()
COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")
_LOGICAL = ("&&", "||")
# a body larger than this (C nodes) is not copied: three copies to compile (of the
# local id 0), nine (of the local ids 1 and 0)
_LARGEST = (600, 400)


class Split(NamedTuple):
    setup: list      # C statements run once per group: the middle's bounds
    first: object    # the loop's first local id 0 and its end (C expressions)
    end: object
    middle: list     # the body for the work-items of the middle: [MID_LO, MID_HI) of
                     # the local ids 0, or the rows [MID_ROWS)
    inside: tuple = ()  # where the image accesses are ("file:line:col") that the middle
                        # makes at an x known inside the image


def middle_bounds(dim: int) -> tuple:
    """The C names of the first and end of a split's middle along local id ``dim``."""
    return (MID_LO, MID_HI) if dim == 0 else MID_ROWS


def split(stmts: list, bounds, first, end, dim: int = 0) -> Split | None:
    """``stmts``, a region's body run by the local ids ``dim`` (0 or 1) in [first, end)
    (None: the group's), split where comparisons affine in that local id are known
    (above); None where none decides an if or a ?:, or the body cannot be copied."""
    if any(isinstance(n, (c_ast.Label, c_ast.Goto)) for s in stmts for n in walk(s)) or \
            sum(1 for s in stmts for _ in walk(s)) > _LARGEST[dim]:
        return None
    found = _Known(stmts, bounds, dim)
    known = found.found + [(t, where, True) for _, tests in found.accesses
                           for t, where in tests]
    if not any(decides for _, _, decides in known):
        return None
    first = first if first is not None else cn.const_int(0)
    end = end if end is not None else cn.ident(LS1 if dim else LS0)
    lo, hi = middle_bounds(dim)
    setup = _bounds_decl(first, end, lo, hi)
    # the ranges first, then the points (a point's side is the larger part of the range)
    narrowed = set()
    for node, (kind, where), _ in sorted(known, key=lambda k: k[1][0] == "at"):
        for helper, v in ([(MID_FROM if side == "lo" else MID_BELOW, v)
                           for side, v in where] if kind == "in" else
                          [(MID_BESIDES, where)]):
            call = _narrow(helper, v, lo, hi)
            text = _C.visit(call)
            if text not in narrowed:        # (a comparison the body makes again)
                narrowed.add(text)
                setup.append(call)
    memo: dict = {}
    middle = copy.deepcopy(stmts, memo)
    values = {id(memo[id(node)]): _value(node) for node, _, _ in found.found}
    for access, _ in found.accesses:
        name = memo[id(access)].name
        name.name = f"{name.name}{X_INSIDE}"
    middle = _fold_list(middle, values)
    read = set().union(*(ids(s) for s in middle))
    for d in (n for s in middle for n in walk(s) if isinstance(n, c_ast.Decl)):
        if d.name not in read and UNUSED not in d.funcspec:
            d.funcspec = [*d.funcspec, UNUSED]      # its readers were folded away
    return Split(setup, first, end, middle,
                 tuple(str(access.coord) for access, _ in found.accesses))


class _Known:
    """The comparisons of a body whose value a range of work-items knows: (node, where,
    decides) with ``where`` from LoopBounds.known_where and ``decides`` when an if or
    a ?: (through &&, || and !) or a declaration's value tests it; and its image reads
    and writes whose x a range knows inside the image: (call, [(test, where)]) with the
    tests 0 <= x, x < width made for it."""

    def __init__(self, stmts: list, bounds, dim: int):
        self.bounds, self.dim = bounds, dim
        declared = [n.name for s in stmts for n in walk(s) if isinstance(n, c_ast.Decl)]
        # a name declared twice may mean two variables; one the body changes, another
        # value where the bounds are found
        self.unsure = {n for n in declared if declared.count(n) > 1} | \
            changed_names(c_ast.Compound(stmts))
        self.declared = set(declared)
        self.found: list = []
        self.accesses: list = []
        self._looked: set = set()   # id() of the comparisons looked at
        seen: list = []          # the top-level declarations so far (their values)
        for s in stmts:
            self._statement(s, seen)
            if isinstance(s, c_ast.Decl):
                seen.append(s)

    def _statement(self, s, seen) -> None:
        for n in walk(s):
            if isinstance(n, (c_ast.If, c_ast.TernaryOp)):
                self._condition(n.cond, seen)
            elif isinstance(n, c_ast.Decl) and n.init is not None and \
                    not isinstance(n.init, c_ast.InitList):
                self._condition(n.init, seen)
        for n in walk(s):           # the rest: known, though they decide nothing
            if isinstance(n, c_ast.BinaryOp) and n.op in COMPARISONS:
                self._comparison(n, seen, False)
            elif self.dim == 0 and isinstance(n, c_ast.FuncCall):
                self._image_access(n, seen)

    def _image_access(self, call, seen) -> None:
        """A read_imagef or write_imagef at integer coordinates: the tests that its x is
        inside the image."""
        x = _access_x(call)
        if x is None:
            return
        width = builtin_call("get_image_width", copy.deepcopy(call.args.exprs[0]))
        width.ty = ty.INT
        tests = [make(c_ast.BinaryOp, ">=", copy.deepcopy(x), _constant(0)),
                 make(c_ast.BinaryOp, "<", copy.deepcopy(x), width)]
        for t in tests:
            t.ty = ty.INT
        wheres = [self._where(t, seen) for t in tests]
        if None not in wheres:
            self.accesses.append((call, list(zip(tests, wheres))))

    def _condition(self, e, seen) -> None:
        """The comparisons that decide ``e``, through &&, || and !."""
        if isinstance(e, c_ast.BinaryOp) and e.op in _LOGICAL:
            self._condition(e.left, seen)
            self._condition(e.right, seen)
        elif isinstance(e, c_ast.UnaryOp) and e.op == "!":
            self._condition(e.expr, seen)
        elif isinstance(e, c_ast.BinaryOp) and e.op in COMPARISONS:
            self._comparison(e, seen, True)

    def _comparison(self, t, seen, decides: bool) -> None:
        if id(t) in self._looked:
            return
        self._looked.add(id(t))
        where = self._where(t, seen)
        if where is not None:
            self.found.append((t, where, decides))

    def _where(self, t, seen):
        """Where comparison ``t`` is known (LoopBounds.known_where), if its bounds can
        be found once per group; else None."""
        names = ids(t)
        if names & self.unsure or has_effects(t) or \
                names & self.declared - {d.name for d in seen}:
            return None
        where = self.bounds.known_where(t, seen, self.dim)
        if where is None:
            return None
        bound = [where[1]] if where[0] == "at" else [v for _, v in where[1]]
        # found once per group, before the body declares or changes anything, and
        # reading no memory (which the work-item may write before the comparison)
        if any(ids(v) & (self.declared | self.unsure) or not reads_no_memory(v)
               for v in bound):
            return None
        return where


# the suffix of images.h's reads and writes that take x as inside the image: the
# row's runtime function's name and this
X_INSIDE = "_xin"
_INT_COORDINATES = ("int", "int2", "int4")


def _access_x(call):
    """The x coordinate of ``call`` if it is a read_imagef with a sampler or a
    write_imagef, at integer coordinates given as a vector literal (or a scalar, 1D);
    else None."""
    call_fact = call_of(call)
    row = call_fact.row if call_fact is not None and call_fact.kind == "builtin" else None
    if row is None or row.name not in ("read_imagef", "write_imagef") or \
            not isinstance(call.name, c_ast.ID) or call.name.name != row.runtime_name(None):
        return None
    reads = row.name == "read_imagef"
    if reads and (len(row.params) != 3 or row.params[1] != "sampler_t"):
        return None
    place = 2 if reads else 1
    if row.params[place] not in _INT_COORDINATES:
        return None
    c = call.args.exprs[place]
    if isinstance(c, c_ast.CompoundLiteral):
        init = c.init.exprs
        if len(init) == 1 and isinstance(init[0], c_ast.InitList):
            init = init[0].exprs
        x = init[0] if init and not isinstance(init[0], c_ast.InitList) else None
    else:
        x = c if row.params[place] == "int" else None
    # (a checking build's x, checked against the image: the check holds in the middle)
    if isinstance(x, c_ast.FuncCall) and isinstance(x.name, c_ast.ID) and \
            x.name.name == CHECK_PIXEL:
        x = x.args.exprs[0]
    return x


def reads_no_memory(e) -> bool:
    """Does ``e`` compute from values only (names, constants, work-item functions,
    operators' helpers), with no load?"""
    for n in walk(e):
        if isinstance(n, c_ast.ArrayRef) or isinstance(n, c_ast.UnaryOp) and n.op == "*" or \
                isinstance(n, c_ast.StructRef) and n.type == "->":
            return False
        if isinstance(n, c_ast.FuncCall) and work_item_function(n) is None and \
                not value_of_arguments(n):
            return False
    return True


def _value(t) -> int:
    """The value comparison ``t`` has in the middle."""
    return 0 if t.op == "==" else 1


def one_item(first, end, v) -> list:
    """``size_t MID_LO, MID_HI``: [first, end) narrowed to the local id 0 ``v`` (C
    statements; an empty range where v lies outside)."""
    lo, hi = middle_bounds(0)
    after = c_ast.BinaryOp("+", copy.deepcopy(v), cn.const_int(1))
    return _bounds_decl(first, end, lo, hi) + [
        _narrow(MID_FROM, v, lo, hi), _narrow(MID_BELOW, after, lo, hi)]


def _bounds_decl(first, end, lo: str, hi: str) -> list:
    """``size_t lo = first, hi = end;``"""
    decls = [typed(d, ty.SIZE_T) for d in snippet(f"size_t {lo} = 0, {hi} = 0;")]
    decls[0].init, decls[1].init = copy.deepcopy(first), copy.deepcopy(end)
    return decls


def narrows(node) -> bool:
    """Whether ``node`` narrows a split region's middle range (a call of a MID_* helper)."""
    return isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID) and \
        node.name.name in (MID_FROM, MID_BELOW, MID_BESIDES)


def _narrow(helper: str, v, lo: str, hi: str):
    return runtime_call(helper, c_ast.UnaryOp("&", cn.ident(lo)),
                        c_ast.UnaryOp("&", cn.ident(hi)), copy.deepcopy(v), call=UPDATE)


# ---- folding the known values ------------------------------------------------------

def _constant(value: int) -> c_ast.Constant:
    c = make(c_ast.Constant, "int", str(value))
    c.ty = ty.INT
    return c


def _known_value(e):
    """``e``'s value if it is an int constant 0 or 1 (what folding leaves), else None."""
    if isinstance(e, c_ast.Constant) and e.type == "int" and e.value in ("0", "1"):
        return int(e.value)
    return None


def _boolean(e) -> bool:
    """Is ``e`` 0 or 1 by its operator (so ``1 && e`` is ``e``)?"""
    return isinstance(e, c_ast.BinaryOp) and e.op in COMPARISONS + _LOGICAL or \
        isinstance(e, c_ast.UnaryOp) and e.op == "!" or _known_value(e) is not None


def _fold(node, values: dict):
    """``node`` with the comparisons of ``values`` ({id: value}) replaced and what they
    decide folded; None for a statement left with nothing to do."""
    if id(node) in values:
        return _constant(values[id(node)])
    if isinstance(node, c_ast.Compound):
        node.block_items = _fold_list(node.block_items or [], values) or None
        return node
    for name, child in list(node.children()):
        new = _fold(child, values)
        if new is None:         # a statement slot: an if's branch, a loop's body
            new = None if name == "iffalse" else c_ast.Compound([])
        replace_child(node, name, new)
    if isinstance(node, (c_ast.If, c_ast.TernaryOp)):
        v = _known_value(node.cond)
        if v is not None:
            return node.iftrue if v else node.iffalse
    if isinstance(node, c_ast.UnaryOp) and node.op == "!":
        v = _known_value(node.expr)
        if v is not None:
            return _constant(1 - v)
    if isinstance(node, c_ast.BinaryOp) and node.op in _LOGICAL:
        return _logical(node)
    return node


def _logical(node):
    """``a && b`` or ``a || b`` with a known operand, where C's value is that of the
    other (or the known one)."""
    left, right = _known_value(node.left), _known_value(node.right)
    absorbing = 0 if node.op == "&&" else 1
    if left is not None:
        if left == absorbing:
            return _constant(absorbing)       # (the right operand is not evaluated)
        return node.right if _boolean(node.right) else node
    if right is not None:
        if right != absorbing:
            return node.left if _boolean(node.left) else node
        if not has_effects(node.left):
            return _constant(absorbing)
    return node


def _fold_list(items: list, values: dict) -> list:
    out = []
    for s in items:
        s = _fold(s, values)
        if s is not None and not (isinstance(s, c_ast.Compound) and not s.block_items):
            out.append(s)
    return out
