"""Lowering pass: floating-point contraction, as ``#pragma OPENCL FP_CONTRACT`` allows.

OpenCL C lets an implementation contract an expression (spec 6.10, FP_CONTRACT, whose
default is ON): evaluate ``a * b + c`` with one rounding, as an fma. Every OpenCL
compiler built on clang does so within an expression; C11 compilers in ISO mode, which
cl2c's C is compiled in, never do. This pass makes the spec's permission explicit on
the typed tree, within one expression as C's contraction is:

    a * b + c   ->  mad(a, b, c)        c + a * b  ->  mad(a, b, c)
    a * b - c   ->  mad(a, b, -c)       c - a * b  ->  mad(-a, b, c)
    x += a * b  ->  x = mad(a, b, x)    x -= a * b ->  x = mad(-a, b, x)

for float and double scalars and vectors, where the product has the sum's type.
``mad`` (math.h) is one fma where the CPU has a fast one and the product and sum as
written elsewhere: either is what the source means under contraction, and the C stays
portable. ``#pragma OPENCL FP_CONTRACT OFF`` turns it off, at program scope to the next
such pragma, in a compound statement to its end. Operands move only where none has an
effect, so the order of evaluation (sequencing.py, next) is the source's.
"""
from __future__ import annotations

from pycparser import c_ast

from .. import builtins as bi
from .. import builtins_match
from .. import types as ty
from ..sema import Module
from ..sema.model import Call
from ..typed_ast import FACTS, copy_tree, fact, make, walk
from .. import cnodes as cn
from ..typed_ast import replace_child
from .effects import functions_with_effects, has_effects

_FLOATS = (ty.FLOAT, ty.DOUBLE)


def contract(module: Module) -> Module:
    writers = functions_with_effects(module)
    on = True
    for kind, node in module.program_scope:
        if kind == "pragma":
            on = _switch(node, on)
        elif kind == "function":
            _Contraction(writers).compound(node.body, on)
    return module


def _switch(pragma: c_ast.Pragma, on: bool) -> bool:
    """The FP_CONTRACT state after ``pragma`` (``on`` before it)."""
    words = pragma.string.split()
    if words[:2] != ["OPENCL", "FP_CONTRACT"] or len(words) != 3:
        return on
    return {"ON": True, "DEFAULT": True, "OFF": False}.get(words[2].upper(), on)


def _contractible(t) -> bool:
    return t in _FLOATS or isinstance(t, ty.Vector) and t.elem in _FLOATS


class _Contraction:
    def __init__(self, writers: set):
        self.writers = writers

    def compound(self, block: c_ast.Compound, on: bool) -> None:
        """Rewrite the statements of ``block``; a pragma in it holds to its end."""
        for i, item in enumerate(block.block_items or ()):
            if isinstance(item, c_ast.Pragma):
                on = _switch(item, on)
            else:
                block.block_items[i] = self.statement(item, on)

    def statement(self, node, on: bool):
        """``node`` with its expressions contracted (where ``on``); nested compound
        statements keep their own pragma state."""
        if isinstance(node, c_ast.Compound):
            self.compound(node, on)
            return node
        if not isinstance(node, _STATEMENTS):
            return self.expression(node, on)         # an expression statement
        if isinstance(node, c_ast.Decl) and (
                "static" in (node.storage or []) or fact(node, "space") == "constant"):
            return node                  # its initializer is a constant expression
        for name, child in node.children():
            if isinstance(child, c_ast.Compound):
                self.compound(child, on)
                continue
            new = self.statement(child, on) if isinstance(child, _STATEMENTS) else \
                self.expression(child, on)
            if new is not child:
                replace_child(node, name, new)
        return node

    def expression(self, node, on: bool):
        """``node`` with every contractible sum in it (innermost first) rewritten."""
        for name, child in node.children():
            new = self.expression(child, on)
            if new is not child:
                replace_child(node, name, new)
        if not on:
            return node
        if isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-"):
            return self.sum(node) or node
        if isinstance(node, c_ast.Assignment) and node.op in ("+=", "-="):
            return self.update(node) or node
        return node

    def sum(self, node: c_ast.BinaryOp):
        t = fact(node, "ty")
        if not _contractible(t):
            return None
        left, right = node.left, node.right
        if self.product(left, t):
            if node.op == "+":
                return _mad(left.left, left.right, right, t, node.coord)
            return _mad(left.left, left.right, _negated(_floated(right, t)), t, node.coord)
        if self.product(right, t) and not self.effects(left, right):
            a, b = right.left, right.right
            if node.op == "-":
                a, b = _negate_one(a, b, t)
                if a is None:
                    return None
            return _mad(a, b, left, t, node.coord)
        return None

    def update(self, node: c_ast.Assignment):
        """``x += a * b`` for an lvalue ``x`` of the product's type: a variable, or an
        element or a pointer's target whose evaluation has no effect (``C[i * n + j] +=
        A[..] * B[..]``, the lecture's V1: its loop 1.5x slower unfused), which the mad
        then reads as the compound assignment did."""
        t, product, target = fact(node, "ty"), node.rvalue, node.lvalue
        if not (_contractible(t) and _updatable(target) and fact(target, "ty") == t and
                self.product(product, t) and not self.effects(product, target)):
            return None
        a, b = product.left, product.right
        if node.op == "-=":
            a, b = _negate_one(a, b, t)
            if a is None:
                return None
        value = _mad(a, b, _copy_lvalue(target), t, node.coord)
        if value is None:
            return None
        out = make(c_ast.Assignment, "=", node.lvalue, value, node.coord)
        out.ty = t
        return out

    @staticmethod
    def product(node, t) -> bool:
        """A product of type ``t`` that clang would contract: not one of two constants
        (``3.0f * 0.1f``), which clang folds, rounded, before it forms an fma."""
        return isinstance(node, c_ast.BinaryOp) and node.op == "*" and \
            fact(node, "ty") == t and not (_constant(node.left) and _constant(node.right))

    def effects(self, *nodes) -> bool:
        return any(has_effects(n, self.writers) for n in nodes)


# what is a statement (or holds some); any other node in a statement's place is an
# expression statement
_STATEMENTS = (c_ast.If, c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.Switch, c_ast.Case,
               c_ast.Default, c_ast.Label, c_ast.DeclList, c_ast.Decl, c_ast.Compound,
               c_ast.Return, c_ast.Goto, c_ast.Break, c_ast.Continue, c_ast.EmptyStatement,
               c_ast.Pragma, c_ast.Typedef, c_ast.StaticAssert)


def _constant(node) -> bool:
    """An arithmetic of literals alone (``-2.0f``, ``(float)3``, ``(float4)(0.5f)``,
    ``1.0f / 3.0f``): what clang folds while it emits the code."""
    if isinstance(node, c_ast.Constant):
        return True
    if isinstance(node, c_ast.Cast):
        return _constant(node.expr)
    if isinstance(node, c_ast.ExprList):
        return all(_constant(e) for e in node.exprs)
    if isinstance(node, c_ast.UnaryOp):
        return node.op in ("-", "+") and _constant(node.expr)
    if isinstance(node, c_ast.BinaryOp):
        return node.op in ("+", "-", "*", "/") and _constant(node.left) and \
            _constant(node.right)
    return False


def _negated(node):
    out = make(c_ast.UnaryOp, "-", node, node.coord)
    out.ty = fact(node, "ty")
    return out


def _floating(operand_type, t) -> bool:
    """An operand of sum type ``t`` that negates exactly: of ``t`` or its element type
    (an integer's negation could overflow or wrap)."""
    return operand_type == t or isinstance(t, ty.Vector) and operand_type == t.elem


def _floated(node, t):
    """``node`` converted to the floating type of sum type ``t`` first where it is an
    integer, as the sum would (-(1u) is no -1.0f)."""
    if _floating(fact(node, "ty"), t):
        return node
    elem = t.elem if isinstance(t, ty.Vector) else t
    out = make(c_ast.Cast, cn.typename(elem, node.coord), node, node.coord)
    out.ty = elem
    return out


def _negate_one(a, b, t):
    """(-a, b) or (a, -b), the factor negated a floating one; (None, None) where
    neither is."""
    if _floating(fact(a, "ty"), t):
        return _negated(a), b
    if _floating(fact(b, "ty"), t):
        return a, _negated(b)
    return None, None


def _updatable(target) -> bool:
    """An lvalue that ``update`` may read again: a variable, an element (``x[e]``), a
    pointer's target (``*p``); not a vector's components (a swizzle), which are stored
    one by one."""
    if isinstance(target, c_ast.ArrayRef):
        return not isinstance(fact(target.name, "ty"), ty.Vector)
    return isinstance(target, c_ast.ID) or \
        isinstance(target, c_ast.UnaryOp) and target.op == "*"


def _copy_lvalue(node):
    """``node`` again, its facts (types, symbols, calls) the same objects."""
    memo = {}
    for n in walk(node):
        for name in FACTS:
            value = fact(n, name)
            if value is not None:
                memo[id(value)] = value
    return copy_tree(node, memo)


def _mad(a, b, c, t, coord):
    arg_types = [fact(a, "ty"), fact(b, "ty"), fact(c, "ty")]
    row = next((r for r in bi.BY_NAME["mad"] if builtins_match.match(r, [t, t, t])), None)
    if row is None:             # (every float and double type has one)
        return None
    call = make(c_ast.FuncCall, make(c_ast.ID, "mad", coord),
                c_ast.ExprList([a, b, c], coord), coord)
    call.ty = t
    call.call = Call("builtin", "mad", row, t, tuple(arg_types))
    return call
