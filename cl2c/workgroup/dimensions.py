"""The dimension a kernel's work-item loops run along (issue 37, item 3): where its
memory runs along global id 1 and across global id 0, the work-group function is built
from the kernel with its dimensions 0 and 1 exchanged, and the entry launches it on the
range with those dimensions exchanged (``LaunchPlan.transposed``; host.h's
``cl2c_transpose_range``).

The lecture's V3 (``shared/seeds/003``) computes ``C[i*DIM+j]`` with ``i`` global id 0
and ``j`` id 1: along id 0, the loop over its work-items loads ``A[i*DIM+k]`` a row
apart in each lane; along id 1, it loads a row of ``B`` and one element of ``A``, the
register-tiled product of V4 (which names its ids the other way round): 40x faster at
512^2 here.

Exact, or nothing: only a kernel that cannot tell its work-groups apart, whose
work-item functions are all ``get_global_id`` of dimension 0, 1 or 2 (no sizes,
offsets, linear ids, work_dim) in its own body, the functions it calls reading none.
Each work-item then computes what it computes in any order and any grouping, and the
entry gives each the ids it has in the launch. The choice itself is a weighing of the
kernel's array accesses, each by its loops' depth: the one thing it decides is speed.
"""
from __future__ import annotations

import copy

from pycparser import c_ast

from ..lower.effects import builtin_name, constant_dimension, work_item_function
from ..typed_ast import copy_tree, walk
from .strides import WIDE, binary_stride

# an access in a loop counts this many times one outside it: the loops are the time
_LOOP_WEIGHT = 8


def transposable(k, functions: dict) -> bool:
    """Kernel model ``k`` may run its dimensions 0 and 1 exchanged: it cannot tell its
    groups apart and asks of the range only global ids of constant dimensions, its
    callees nothing."""
    if not k.group_blind:
        return False
    calls = [n for n in walk(k.info.node.body) if work_item_function(n) is not None]
    if not calls or any(builtin_name(n) != "get_global_id" or constant_dimension(n) is None
                        for n in calls):
        return False
    seen, todo = set(), list(k.info.callees)
    while todo:
        name = todo.pop()
        if name in seen or name not in functions:
            continue
        seen.add(name)
        if functions[name].workitem:
            return False
        todo += functions[name].callees
    return True


def runs_along_dimension_1(body) -> bool:
    """The kernel's array accesses, weighed by their loops' depth, lie next to each
    other along global id 1 more than along id 0 (and some do: a kernel of one
    dimension, launched so as a rule, keeps it)."""
    strides = _Strides(body)
    score, next_along_1 = [0, 0], False
    for ref, depth in _array_refs(body, 0):
        weight = _LOOP_WEIGHT ** depth
        for d in (0, 1):
            step = strides.of(ref.subscript, d)
            if step in (1, -1):
                score[d] += weight
                next_along_1 = next_along_1 or d == 1
            elif step == WIDE or isinstance(step, int) and step != 0:
                score[d] -= weight
    return next_along_1 and score[1] > score[0]


def transposed(func: c_ast.FuncDef) -> c_ast.FuncDef:
    """A copy of kernel ``func`` whose global ids of dimensions 0 and 1 are exchanged."""
    func = copy_tree(func)
    for n in walk(func.body):
        d = constant_dimension(n) if isinstance(n, c_ast.FuncCall) else None
        if d in (0, 1):
            other = copy.copy(n.args.exprs[-1])        # (its type, as sema gave it)
            other.value = str(1 - d)
            n.args.exprs[-1] = other
    return func


def _array_refs(node, depth: int):
    """(ArrayRef, loops around it) of ``node``'s statements."""
    for _, child in node.children():
        if isinstance(child, c_ast.ArrayRef):
            yield child, depth
        inner = depth + 1 if isinstance(child, (c_ast.For, c_ast.While, c_ast.DoWhile)) \
            else depth
        yield from _array_refs(child, inner)


class _Strides:
    """The stride of integer expressions along a global id, by the names' assignments
    in the whole kernel (not by where they are: a weighing, not a proof): a name
    assigned only values of one stride has that stride (loop counters of uniform loops
    0, ``i = get_global_id(0)`` 1 along id 0); an int, WIDE (a uniform value not known
    here times a changing one), or None (not known)."""

    def __init__(self, body):
        self.assigned: dict[str, list] = {}
        for n in walk(body):
            if isinstance(n, c_ast.Decl) and n.name and n.init is not None:
                self.assigned.setdefault(n.name, []).append(("=", n.init))
            elif isinstance(n, c_ast.Assignment) and isinstance(n.lvalue, c_ast.ID):
                self.assigned.setdefault(n.lvalue.name, []).append((n.op, n.rvalue))
            elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--") and \
                    isinstance(n.expr, c_ast.ID):
                self.assigned.setdefault(n.expr.name, []).append(("+=", c_ast.Constant(
                    "int", "1")))
        self.memo: dict = {}

    def of(self, e, d: int):
        if isinstance(e, c_ast.Constant):
            return 0
        if isinstance(e, c_ast.ID):
            return self._name(e.name, d)
        if isinstance(e, c_ast.Cast):
            return self.of(e.expr, d)
        if isinstance(e, c_ast.FuncCall):
            if builtin_name(e) == "get_global_id":
                return int(constant_dimension(e) == d)
            return None
        if isinstance(e, c_ast.BinaryOp):
            return binary_stride(e, lambda x: self.of(x, d))
        return None

    def _name(self, name: str, d: int):
        key = (name, d)
        if key in self.memo:
            return self.memo[key]
        self.memo[key] = 0          # (a name in its own value: its other values decide)
        values, step = set(), 0
        for op, value in self.assigned.get(name, ()):
            s = self.of(value, d)
            if op == "=":
                values.add(s)
            elif op not in ("+=", "-=") or s != 0:
                values.add(None)    # (a uniform step keeps the stride; others change it)
        if len(values) == 1:
            step = values.pop()
        elif values:
            step = None
        self.memo[key] = step
        return step
