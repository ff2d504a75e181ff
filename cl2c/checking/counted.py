"""Loops that count a private integer one by one between constants (checking builds):
``for (k = 0; k < 1000; k++)``, as the seeds' kernels fill and read private arrays.
Inside such a loop an index ``k`` is within the array's bounds without a check
(accesses.py), and after one whose every iteration stores ``a[k]`` the whole array is
written (definite_assignment.py), so that neither the index nor the element's shadow
costs a check per access.

A loop counts where its first clause sets the counter to a constant (``k = 0``,
``int k = 0``), its condition compares it with a constant (``k < N``, ``k <= N``,
``N > k``), its last clause adds one (``k++``, ``++k``, ``k += 1``), and its body
neither changes the counter, declares another of its name, nor jumps (break, continue,
return, goto); and the function never takes the counter's address (``typed_ast.addressed_names``).
"""
from __future__ import annotations

from typing import NamedTuple

from pycparser import c_ast

from ..literals import integer_value
from ..typed_ast import changed_names, fact, walk
from ..workgroup.names import CHECK_WITHIN

INDEX_CHECK = "CL2C_CK_INDEX"      # accesses.py's check of an index (check.h)
INDEX_WITHIN = CHECK_WITHIN        # an index its operands' types keep in bounds (no check)


class Count(NamedTuple):
    """A counted loop's counter ``name`` runs through [first, end) in its body, whose
    statements run once for each value."""
    name: str
    first: int
    end: int
    body: c_ast.Node


def counted(loop, escaped_names: set) -> Count | None:
    """``loop`` as a Count, or None where it is not one (the module's rules)."""
    if not isinstance(loop, c_ast.For):
        return None
    start = _start(loop.init)
    if start is None:
        return None
    name, first, t = start
    end = _end(loop.cond, name)
    # the counter's type holds every value up to the end, which the loop reaches (a
    # char counted to 300 wraps and runs on)
    bits = 8 * t.size - (1 if t.signed else 0)
    if end is None or not -(1 << bits) * t.signed <= first or end > (1 << bits) - 1 or \
            not steps_by_one(loop.next, name) or name in escaped_names or \
            name in changed_names(loop.stmt):
        return None
    if any(isinstance(n, (c_ast.Break, c_ast.Continue, c_ast.Return, c_ast.Goto,
                          c_ast.Label)) or
           isinstance(n, c_ast.Decl) and n.name == name for n in walk(loop.stmt)):
        return None
    return Count(name, first, end, loop.stmt)


def index_name(subscript) -> str | None:
    """The variable an index names: ``k``, or ``k`` under accesses.py's check."""
    if isinstance(subscript, c_ast.FuncCall) and isinstance(subscript.name, c_ast.ID) and \
            subscript.name.name in (INDEX_CHECK, INDEX_WITHIN) and subscript.args:
        subscript = subscript.args.exprs[0]
    return subscript.name if isinstance(subscript, c_ast.ID) else None


def _integer(node):
    """The integer type of ``node``'s value, else None."""
    t = fact(node, "ty")
    return t if t is not None and t.is_scalar and t.is_integer else None


def _start(init):
    if isinstance(init, c_ast.DeclList) and len(init.decls) == 1:
        d = init.decls[0]
        value = _constant(d.init)
        if d.name and value is not None and isinstance(d.type, c_ast.TypeDecl) and \
                _integer(d):
            return d.name, value, _integer(d)
        return None
    if isinstance(init, c_ast.Assignment) and init.op == "=" and \
            isinstance(init.lvalue, c_ast.ID) and _integer(init.lvalue):
        value = _constant(init.rvalue)
        return None if value is None else (init.lvalue.name, value, _integer(init.lvalue))
    return None


def _end(cond, name: str) -> int | None:
    if not isinstance(cond, c_ast.BinaryOp):
        return None
    op, left, right = cond.op, cond.left, cond.right
    if _is(right, name):
        op, left, right = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}.get(op), right, left
    value = _constant(right)
    if not _is(left, name) or value is None:
        return None
    return {"<": value, "<=": value + 1}.get(op)


def steps_by_one(step, name: str) -> bool:
    """Does a for loop's last clause ``step`` add one to ``name`` (``k++``, ``++k``,
    ``k += 1``, ``k = k + 1``)?"""
    if isinstance(step, c_ast.UnaryOp):
        return step.op in ("++", "p++") and _is(step.expr, name)
    if isinstance(step, c_ast.Assignment) and _is(step.lvalue, name):
        if step.op == "+=":
            return _constant(step.rvalue) == 1
        r = step.rvalue
        return step.op == "=" and isinstance(r, c_ast.BinaryOp) and r.op == "+" and (
            _is(r.left, name) and _constant(r.right) == 1 or
            _is(r.right, name) and _constant(r.left) == 1)
    return False


def _is(x, name: str) -> bool:
    # (no casts: `(char)k < 300` holds again once k passes 255)
    return isinstance(x, c_ast.ID) and x.name == name


def _constant(x) -> int | None:
    # (no casts: `(char)300` is not 300)
    if isinstance(x, c_ast.UnaryOp) and x.op == "-":
        value = _constant(x.expr)
        return None if value is None else -value
    if isinstance(x, c_ast.BinaryOp) and x.op in ("+", "-", "*"):   # (N - 1)
        a, b = _constant(x.left), _constant(x.right)
        if a is None or b is None:
            return None
        value = a + b if x.op == "+" else a - b if x.op == "-" else a * b
        return value if -(1 << 31) <= value < 1 << 31 else None
    if not (isinstance(x, c_ast.Constant) and x.type == "int"):
        return None
    try:
        return integer_value(x.value)
    except ValueError:
        return None
