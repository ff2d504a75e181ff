"""Subscripts summed in ``ptrdiff_t`` in a register tile's loop over its columns.

GPU code keeps its ids in ``int`` (``int col = get_global_id(0)``), which a work-item
loop computes as ``int col = col__base + cl2c_l0``, and indexes with ``int`` sums
(``B[k * N + col]``). GCC sees that such a subscript steps by one along the loop; clang
(21) does not, and reads the tile's row with gathers: the bench's naive matmul took 12 ms
at one thread under clang 21 against GCC's 2.5. With the subscript summed in
``ptrdiff_t`` and the id's own sum in its place (``B[(ptrdiff_t) (k * N) + (ptrdiff_t)
col__base + (ptrdiff_t) cl2c_l0]``), 3.3 ms.

The value is the same: a sum of ``int``s that overflows is undefined in OpenCL C as in C,
and one that does not equals its sum in 64 bits. Only sums of side-effect-free terms of
signed integer types of at most 32 bits are rewritten, and an id only where neither it
nor its own terms are assigned in the loop.
"""
from __future__ import annotations

import copy

from pycparser import c_ast

from .. import cnodes as cn
from .. import types as ty
from ..lower.effects import has_effects
from ..typed_ast import addressed_names, changed_names, ids as ids_of, walk


def widen_subscripts(block: c_ast.Compound, outer: list) -> None:
    """Rewrite, in place, the subscripts of ``block`` (the tile's column loop's body) that
    sum ``int`` terms, one of them an id declared in it, before them, as a sum.
    ``outer``: the declarations before the loop (the ids' bases)."""
    # (a variable whose address it takes may change through a pointer)
    assigned = changed_names(block) | addressed_names(block)
    items = block.block_items or []
    decls = [d for d in [*outer, *items] if isinstance(d, c_ast.Decl)]
    declared = {d.name for d in decls if _declared_int(d)} - \
        {d.name for d in decls if not _declared_int(d)}
    sums: dict = {}                 # id -> the (sign, term)s of its declaration's sum
    for item in items:
        for n in walk(item):
            if sums and isinstance(n, c_ast.ArrayRef):
                wide = _widened(n.subscript, sums, declared)
                if wide is not None:
                    n.subscript = wide
        if isinstance(item, c_ast.Decl) and item.init is not None and \
                item.name in declared and item.name not in assigned:
            terms = _terms(item.init)
            if len(terms) > 1 and all(_narrow(t, declared) and
                                      not (ids_of(t) & assigned) for _, t in terms):
                sums[item.name] = terms


def _widened(subscript, sums: dict, declared: set):
    """``subscript`` summed in ptrdiff_t with the ids of ``sums`` expanded, or None where
    it is not such a sum."""
    terms = _terms(subscript)
    if not any(isinstance(t, c_ast.ID) and t.name in sums for _, t in terms):
        return None
    if not all(_narrow(t, declared) and not has_effects(t) for _, t in terms):
        return None
    out = []
    for sign, t in terms:
        if isinstance(t, c_ast.ID) and t.name in sums:
            out += [(sign * s, copy.deepcopy(u)) for s, u in sums[t.name]]
        else:
            out.append((sign, t))
    expr = None
    for sign, t in out:
        term = cn.cast(ty.PTRDIFF_T, t)
        if expr is None:
            expr = term if sign > 0 else c_ast.UnaryOp("-", term)
        else:
            expr = c_ast.BinaryOp("+" if sign > 0 else "-", expr, term)
    return expr


def _terms(e, sign: int = 1) -> list:
    """The signed terms of a tree of + and -, binary and unary (``e`` itself where it
    is neither)."""
    if isinstance(e, c_ast.BinaryOp) and e.op in ("+", "-"):
        right = _terms(e.right, sign if e.op == "+" else -sign)
        return _terms(e.left, sign) + right
    if isinstance(e, c_ast.UnaryOp) and e.op in ("+", "-"):
        return _terms(e.expr, sign if e.op == "+" else -sign)
    return [(sign, e)]


def _narrow(e, declared: set) -> bool:
    """``e`` is of a signed integer type of at most 32 bits: by its type where it has one,
    an id declared ``int``, or an int constant."""
    if isinstance(e, c_ast.ID) and e.name in declared:
        return True
    if isinstance(e, c_ast.Constant):
        return e.type == "int"
    t = cn.expression_type(e)
    return isinstance(t, ty.Scalar) and t.kind == "int" and t.signed and t.size <= 4


def _declared_int(d: c_ast.Decl) -> bool:
    return isinstance(d.type, c_ast.TypeDecl) and \
        isinstance(d.type.type, c_ast.IdentifierType) and d.type.type.names == ["int"]

