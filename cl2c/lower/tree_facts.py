"""Small questions the lowering passes ask of sema's tree: an expression without its
casts, an integer constant's value, the symbol an identifier names, each node's parent,
what a statement changes."""
from __future__ import annotations

from pycparser import c_ast

from .. import literals
from .. import types as ty
from ..typed_ast import fact, walk


def strip_casts(e):
    while isinstance(e, c_ast.Cast):
        e = e.expr
    return e


def int_constant(e) -> int | None:
    """The value of integer constant ``e`` (through casts), else None."""
    e = strip_casts(e)
    if isinstance(e, c_ast.Constant) and e.type in ("int", "unsigned int", "long",
                                                     "unsigned long"):
        try:
            return literals.integer_value(e.value)
        except ValueError:
            return None
    return None


def symbol_of(e):
    """The symbol identifier ``e`` names; None for any other node."""
    return fact(e, "symbol") if isinstance(e, c_ast.ID) else None


def parents_of(root) -> dict[int, tuple]:
    """(parent, slot) of each node under ``root``, by the node's id."""
    out = {}
    for n in walk(root):
        for slot, child in n.children():
            out[id(child)] = (n, slot)
    return out


def is_wide_int(t) -> bool:
    """A signed integer type of at least 32 bits (one that holds every local id)."""
    return isinstance(t, ty.Scalar) and t.kind == "int" and t.signed and t.size >= 4


def changed_lvalues(node, shallow: bool = False, address: bool = False):
    """The lvalues that ``node`` (or, ``shallow``, the node alone) assigns or changes
    (and, ``address``, whose address it takes)."""
    ops = ("++", "--", "p++", "p--") + (("&",) if address else ())
    for n in ([node] if shallow else walk(node)):
        if isinstance(n, c_ast.Assignment):
            yield n.lvalue
        elif isinstance(n, c_ast.UnaryOp) and n.op in ops:
            yield n.expr
