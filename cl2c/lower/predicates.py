"""Expressions of if-converted lock-step code (lockstep.py): what a lane may compute
whatever it holds (``lane_safe``, ``float_valued``), conditions as branch-free predicates of 0
or 1 (``branch_free``, ``predicate``, ``conjoin``), and the updates and loop shapes the
pass rewrites (``update_target``, ``unit_step``, ``tests_at_top``)."""
from __future__ import annotations

import copy

from pycparser import c_ast, c_generator

from ..typed_ast import fact, walk
from .. import cnodes as cn
from .effects import UPDATES, value_of_arguments
from ..typed_ast import replace_child

_TRUTH = ("<", ">", "<=", ">=", "==", "!=", "&&", "||")     # values 0 or 1


def lane_safe(e) -> bool:
    """``e`` reads private values and computes: no memory access, effect or fault, so a
    lane may compute it whatever it holds (an effect is never lane-safe: see
    effects.has_effects for the test of effects alone)."""
    if e is None or isinstance(e, (c_ast.ID, c_ast.Constant, c_ast.Typename)):
        return True
    if isinstance(e, c_ast.BinaryOp):
        return lane_safe(e.left) and lane_safe(e.right)
    if isinstance(e, c_ast.UnaryOp):
        return e.op in ("-", "+", "!", "~", "sizeof") and lane_safe(e.expr)
    if isinstance(e, c_ast.TernaryOp):
        return lane_safe(e.cond) and lane_safe(e.iftrue) and lane_safe(e.iffalse)
    if isinstance(e, c_ast.Cast):
        return lane_safe(e.expr)
    if isinstance(e, c_ast.FuncCall):
        # integer division reaches here as a runtime helper that cannot trap
        return value_of_arguments(e) and \
            all(lane_safe(a) for a in (e.args.exprs if e.args else []))
    return False


def update_target(e) -> str | None:
    """The private variable the expression statement ``e`` assigns (``x = ...``,
    ``x += ...``, ``x++``), or None when it is something else."""
    if isinstance(e, c_ast.Assignment) and isinstance(e.lvalue, c_ast.ID) and \
            lane_safe(e.rvalue):
        return e.lvalue.name
    if isinstance(e, c_ast.UnaryOp) and e.op in UPDATES and isinstance(e.expr, c_ast.ID):
        return e.expr.name
    return None


def conjuncts(e) -> list:
    """The terms of ``a && b && c`` (``e`` itself where it is no ``&&``)."""
    if isinstance(e, c_ast.BinaryOp) and e.op == "&&":
        return conjuncts(e.left) + conjuncts(e.right)
    return [e] if e is not None else []


def conjunction(terms: list):
    out = None
    for t in terms:
        out = t if out is None else c_ast.BinaryOp("&&", out, t)
    return out


def is_increment(e, name: str) -> bool:
    """``name++``, ``++name`` or ``name += 1`` as a statement."""
    if isinstance(e, c_ast.UnaryOp) and e.op in ("++", "p++") and \
            isinstance(e.expr, c_ast.ID) and e.expr.name == name:
        return True
    return isinstance(e, c_ast.Assignment) and e.op == "+=" and \
        isinstance(e.lvalue, c_ast.ID) and e.lvalue.name == name and \
        isinstance(e.rvalue, c_ast.Constant) and e.rvalue.value.rstrip("uUlL") == "1"


def unit_step(e) -> str | None:
    """``+=`` or ``-=`` for ``x++``, ``x--``, ``x += 1`` or ``x -= 1`` of an integer
    ``x`` (not a bool, whose ``+= 2`` is not ``++`` twice); None for anything else."""
    if isinstance(e, c_ast.UnaryOp) and e.op in UPDATES:
        x, op = e.expr, "+=" if "+" in e.op else "-="
    elif isinstance(e, c_ast.Assignment) and e.op in ("+=", "-=") and \
            isinstance(e.rvalue, c_ast.Constant) and e.rvalue.type == "int" and \
            e.rvalue.value.rstrip("uUlL") == "1":
        x, op = e.lvalue, e.op
    else:
        return None
    t = fact(x, "ty")
    return op if t is not None and t.is_scalar and t.kind == "int" else None


def float_valued(e, floats: set) -> bool:
    """``e`` computes a float or double with float operations only, from constants,
    the variables ``floats`` and other scalars read as they are: its value is defined
    whatever they hold (no integer operation that could overflow, no conversion of a
    float to an integer)."""
    t = fact(e, "ty")
    if isinstance(e, c_ast.ID):
        return e.name in floats or t is not None and t.is_scalar and t.is_float
    if isinstance(e, c_ast.Constant):
        return e.type in ("float", "double")
    if isinstance(e, c_ast.UnaryOp):
        return e.op in ("-", "+") and float_valued(e.expr, floats)
    if isinstance(e, c_ast.BinaryOp):
        if e.op not in ("+", "-", "*", "/"):
            return False
        sides = (e.left, e.right)
        return any(float_valued(x, floats) for x in sides) and \
            all(float_valued(x, floats) or _read(x) for x in sides)
    if isinstance(e, c_ast.FuncCall):
        args = e.args.exprs if e.args else []
        return t is not None and t.is_scalar and t.is_float and value_of_arguments(e) and \
            all(float_valued(a, floats) or _read(a) for a in args)
    return False


def tests_at_top(loop) -> bool:
    """Does the lock-step loop test its condition at the top of each step, next to the
    body, rather than after it? Where the condition and the body compute the same value
    (Mandelbrot's ``zi * zi``), then the compiler computes it once a step (1.16x faster);
    elsewhere at the bottom, which spares the last step, where no lane runs."""
    if isinstance(loop, c_ast.DoWhile) or loop.cond is None:
        return False
    render = c_generator.CGenerator().visit
    shared = {render(n) for n in walk(loop.cond) if _computed(n)}
    return any(render(n) in shared for n in walk(loop.stmt) if _computed(n))


def _computed(e) -> bool:
    """An arithmetic value or a call: worth computing once (a name or constant is not)."""
    return isinstance(e, c_ast.BinaryOp) and e.op not in _TRUTH or \
        isinstance(e, c_ast.FuncCall)


def _read(e) -> bool:
    """A constant or a variable's value: reading it is defined whatever it holds."""
    return isinstance(e, (c_ast.ID, c_ast.Constant))


def conjoin(pred: list):
    """The conjunction of predicate terms (each 0 or 1)."""
    out = copy.deepcopy(pred[0])
    for p in pred[1:]:
        out = c_ast.BinaryOp("&", out, copy.deepcopy(p))
    return out



def branch_free(e):
    """A copy of lane-safe expression ``e`` with ``&&`` and ``||`` as ``&`` and ``|`` of 0 or
    1: both sides computed, no branch (gcc keeps a short-circuit as control flow, and
    then vectorises nothing). Every lane computes every value anyway."""
    e = copy.deepcopy(e)

    def visit(x):
        for name, child in list(x.children()):
            replace_child(x, name, visit(child))
        if isinstance(x, c_ast.BinaryOp) and x.op in ("&&", "||"):
            return c_ast.BinaryOp("&" if x.op == "&&" else "|", _truth(x.left), _truth(x.right))
        return x

    return visit(e) if e is not None else None


def predicate(cond):
    """Condition ``cond`` as 0 or 1, branch-free (``branch_free``): predicates combine
    with ``&``, so ``if (x & 4)`` must give 1, not 4."""
    return _truth(branch_free(cond)) if cond is not None else None


def _truth(x):
    """``x`` itself where it is 0 or 1 already, else ``x != 0``."""
    return x if _is_truth(x) else c_ast.BinaryOp("!=", x, cn.const_int(0))


def _is_truth(x) -> bool:
    """A comparison, ``!``, or ``&`` and ``|`` of such (``branch_free``'s ``&&`` and
    ``||``): 0 or 1."""
    if isinstance(x, c_ast.UnaryOp):
        return x.op == "!"
    return isinstance(x, c_ast.BinaryOp) and (
        x.op in _TRUTH or x.op in ("&", "|") and _is_truth(x.left) and _is_truth(x.right))
