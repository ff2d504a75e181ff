"""How a work-group function's work-item loops step through memory: the stride of an
index along the local id 0, for the schedule choice (schedules.py) and register tiles
(passes/tiling.py, loads_defeat_tiles).

A barrier-free kernel whose loops move outside its work-item loops (the regions
schedule's hoisting) runs each work-item's step of those loops in lanes. That pays
where the work-items' accesses lie next to each other or at one address, and costs where
each work-item stores far from the next: the lecture's V1 (``C[i*DIM+j] += ...`` in
its ``j`` and ``k`` loops, ``i`` the global id 0) stored one scattered element per
lane and step, and ran 3.3x slower so than with each work-item running its own loops
(487 against 130 ms at 512^2 on 2 threads, PoCL 128 ms).
"""
from __future__ import annotations

from pycparser import c_ast

from ..literals import integer_value
from ..lower.effects import builtin_name, constant_dimension
from ..typed_ast import assigned_names, walk
from .ir import GroupIf, GroupLoop, WorkItemLoop, Block
from .names import INDEX, L0

_ID_FUNCTIONS = ("get_global_id", "get_local_id")
# elements a step may move a row of loads and stay in the lines the last step read
_NEAR = 16
# a stride that a uniform value not known here multiplies (``i * n``, n a kernel
# argument): a row's length, as a rule, so not 0 or 1
WIDE = "wide"


def scattered_stores(items: list) -> int:
    """How many work-item loops of ``items`` (a work-group function's) directly inside
    an innermost uniform loop store memory at a stride along the local id 0 that is
    known and neither 0 nor 1 (-1), or wide: each lane's element apart from the next's,
    at every step of the loops around."""
    return sum(_scatters(loop) for loop in _innermost_item_loops(items))


def _innermost_item_loops(items):
    """The work-item loops directly in a uniform loop with no uniform loop in it."""
    for it in items:
        if isinstance(it, GroupLoop):
            if not any(isinstance(x, GroupLoop) for x in _flat(it.body)):
                yield from (x for x in _flat(it.body) if isinstance(x, WorkItemLoop))
            else:
                yield from _innermost_item_loops(it.body)
        elif isinstance(it, GroupIf):
            yield from _innermost_item_loops(it.then + it.other)
        elif isinstance(it, Block):
            yield from _innermost_item_loops(it.items)


def _flat(items):
    for it in items:
        if isinstance(it, Block):
            yield from _flat(it.items)
        elif isinstance(it, GroupIf):
            yield from _flat(it.then + it.other)
        else:
            yield it


def _scatters(loop: WorkItemLoop) -> bool:
    strides = Strides(loop.body)
    for n in (n for s in loop.body for n in walk(s)):
        if isinstance(n, c_ast.Assignment) and isinstance(n.lvalue, c_ast.ArrayRef) and \
                isinstance(n.lvalue.name, c_ast.ID) and n.lvalue.name.name not in strides.local:
            step = strides.of(n.lvalue.subscript)
            if step == WIDE or isinstance(step, int) and step not in (0, 1, -1):
                return True
    return False


def loads_defeat_tiles(body: list, counter: str, exclude=frozenset()) -> bool:
    """Would tiles of one row cost a work-item loop (``body``, its statements, inside a
    loop counting ``counter``) locality? Where a step loads memory, from an array not in
    ``exclude``:

    - next to the next work-item's (a stride of 1 or -1 along the local id 0), moving
      far at each step of ``counter``: the loop reads a large array's row in a run,
      which tiles of a few work-items would cut into short pieces of many rows
      (k-means over a column-major array: 1.8x slower in tiles of one row); a window
      that slides by an element a step (``in[gid + k]``) stays in its lines;
    - apart from it (each lane's row of its own: the lecture's V2, ``A[i*DIM+k]``): in
      such tiles GCC 13 on a Xeon ran V2 20x slower than the loop as it was (GCC 12 on
      a Zen 4, 2.3x faster)."""
    along_items, along_counter = Strides(body), Strides(body, counter)
    for n in (n for s in body for n in walk(s)):
        if isinstance(n, c_ast.ArrayRef) and isinstance(n.name, c_ast.ID) and \
                n.name.name not in exclude and n.name.name not in along_items.local:
            across = along_items.of(n.subscript)
            if across not in (0, 1, -1):
                return True     # (apart, or not known)
            step = along_counter.of(n.subscript)
            if across != 0 and (not isinstance(step, int) or abs(step) > _NEAR):
                return True
    return False


class Strides:
    """The stride of integer expressions of one work-item's statements along the local
    id 0 (or, given ``counter``, along that loop counter): an int, WIDE, or None where
    it is not known (a product of two values that both change, a call, a load)."""

    def __init__(self, body: list, counter: str | None = None):
        self.counter = counter      # the name that counts 1 (None: the local id 0)
        self.changed = set().union(*(assigned_names(s) for s in body)) if body else set()
        self.of_name: dict = {}
        # names declared in the body, at any depth (a loop's counter too, even one its
        # loop never steps): the work-item's own, of no stride known but the leading
        # declarations'
        self.local: set = {n.name for s in body for n in walk(s)
                           if isinstance(n, c_ast.Decl) and n.name}
        for s in body:
            if isinstance(s, c_ast.Decl) and s.init is not None and s.name not in self.changed:
                self.of_name[s.name] = self.of(s.init)

    def of(self, e):
        if isinstance(e, c_ast.Constant):
            return 0
        if isinstance(e, c_ast.ID):
            if e.name == self.counter or self.counter is None and e.name in (L0, INDEX):
                return 1
            if e.name in self.of_name:
                return self.of_name[e.name]
            return None if e.name in self.changed or e.name in self.local else 0
        if isinstance(e, c_ast.Cast):
            return self.of(e.expr)
        if isinstance(e, c_ast.FuncCall):
            d = constant_dimension(e) if builtin_name(e) in _ID_FUNCTIONS else None
            if d is None:
                return None
            return 1 if self.counter is None and d == 0 else 0
        if isinstance(e, c_ast.BinaryOp):
            return binary_stride(e, self.of)
        return None


def binary_stride(e: c_ast.BinaryOp, of):
    """The stride of ``a + b``, ``a - b`` or ``a * b`` from its operands' (``of``: an
    expression's stride, an int, WIDE or None where not known)."""
    if e.op not in ("+", "-", "*"):
        return None
    a, b = of(e.left), of(e.right)
    if a is None or b is None:
        return None
    if e.op != "*":
        if WIDE in (a, b):
            return WIDE if 0 in (a, b) else None
        return a + b if e.op == "+" else a - b
    if a == 0 and b == 0:
        return 0
    for step, other, by in ((a, e.right, b), (b, e.left, a)):
        if step in (0, WIDE) or by != 0:
            continue
        if isinstance(other, c_ast.Constant) and other.type == "int":
            return step * integer_value(other.value)
        return WIDE
    return None
