"""Initializers of static storage (program-scope and ``static`` variables, and
``__constant`` ones anywhere) are constant expressions (C11 6.7.9p4), as clang reads
them for OpenCL C: arithmetic on constants and vector literals, casts, ``sizeof`` and
``vec_step``, addresses of static objects, and the values of scalar and vector
``__constant`` variables, which clang folds. Swizzles, element reads, calls and vector
conditions are not. Lowering (lower/expressions.py) writes the C of what this accepts
as C constant expressions."""
from __future__ import annotations

from pycparser import c_ast

from .. import types as ty
from ..typed_ast import fact


def has_static_storage(sym) -> bool:
    """A variable whose one instance lives for the whole program."""
    return sym is not None and sym.kind == "var" and (
        sym.program or sym.space == "constant" or
        "static" in (getattr(sym.node, "storage", None) or []))


def is_folded_constant(sym) -> bool:
    """A ``__constant`` scalar or vector variable, whose value (its constant initializer)
    stands for it in other constant expressions."""
    return sym is not None and sym.kind == "var" and sym.space == "constant" and \
        isinstance(sym.type, (ty.Scalar, ty.Vector)) and \
        getattr(sym.node, "init", None) is not None


def first_non_constant(node, fold=None):
    """The first part of initializer ``node`` that is no constant expression, or None.
    ``fold``: the integer value of a constant expression, or None (Folding.const_int):
    a division or remainder by zero is none, as in clang."""
    if isinstance(node, c_ast.InitList):
        for e in node.exprs:
            bad = first_non_constant(e.expr if isinstance(e, c_ast.NamedInitializer) else e,
                                     fold)
            if bad is not None:
                return bad
        return None
    if isinstance(node, c_ast.BinaryOp) and node.op in ("/", "%") and fold is not None and \
            fact(node, "ty") is not None and fact(node, "ty").is_integer and \
            fold(node.right) == 0:
        return node
    if isinstance(node, c_ast.Constant):
        return None
    if isinstance(node, c_ast.ID):
        sym = fact(node, "symbol")
        if sym is None or sym.kind in ("enum", "const", "func") or is_folded_constant(sym):
            return None
        if isinstance(sym.type, ty.Array) and has_static_storage(sym):
            return None                 # its address
        return node
    if isinstance(node, c_ast.UnaryOp):
        if node.op == "sizeof":
            return None
        if node.op == "&":
            return _non_address_constant(node.expr)
        return None if node.op in ("-", "+", "~", "!") and \
            first_non_constant(node.expr, fold) is None else node
    if isinstance(node, c_ast.BinaryOp):
        return first_non_constant(node.left, fold) or first_non_constant(node.right, fold)
    if isinstance(node, c_ast.TernaryOp):
        if isinstance(fact(node.cond, "ty"), ty.Vector):
            return node
        return first_non_constant(node.cond, fold) or \
            first_non_constant(node.iftrue, fold) or first_non_constant(node.iffalse, fold)
    if isinstance(node, c_ast.Cast):
        parts = node.expr.exprs if isinstance(node.expr, c_ast.ExprList) else [node.expr]
        for p in parts:
            bad = first_non_constant(p, fold)
            if bad is not None:
                return bad
        return None
    if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID) and \
            node.name.name == "vec_step":
        return None
    return node


def _non_address_constant(node):
    """The part of ``&node`` that keeps it from being an address constant, or None."""
    if isinstance(node, c_ast.ID):
        sym = fact(node, "symbol")
        return None if sym is not None and (sym.kind == "func" or
                                            has_static_storage(sym)) else node
    if isinstance(node, c_ast.ArrayRef) and isinstance(fact(node.name, "ty"), ty.Array):
        return _non_address_constant(node.name) or first_non_constant(node.subscript)
    if isinstance(node, c_ast.StructRef) and node.type == "." and \
            fact(node, "components") is None:
        return _non_address_constant(node.name)
    return node
