"""How many work-items a launch of a kernel may have and still run on the calling
thread alone.

Waking OpenMP's threads costs a microsecond or two where they spin, and tens where
they sleep between launches (cl2c's default: threads.py; on this project's 2-core
machine 50-80 µs a launch, bench/launch_cost.py). A launch of a few thousand
work-items of a short kernel takes less than that on one core. Without loops, a
work-item's time is about proportional to the size of the kernel's C tree, helpers
counted at each call: on a Zen 4 core 0.007 ns a node for the triad (23 nodes, 0.16 ns
a work-item) and 0.010 for Black-Scholes (303 nodes, 3.0 ns), vectorised.
A kernel with a loop has no such bound: its launches keep the team.
"""
from __future__ import annotations

from dataclasses import dataclass

from pycparser import c_ast

from .. import types as ty
from ..sema import FunctionInfo
from ..typed_ast import walk
from ..lower.effects import called_function

# work-items x nodes a launch on the calling thread may take: 3-5 µs on a Zen 4 core
SERIAL_WORK = 1 << 19
_LOOPS = (c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.Goto)


def serial_items(w: Work | None) -> int:
    """The most work-items a launch of a kernel of work ``w`` (``work``) runs on the
    calling thread; 0 if it has a loop (or calls a function that does)."""
    return 0 if w is None else SERIAL_WORK // max(1, w.nodes)


@dataclass(frozen=True)
class Work:
    """A loop-free work-item's work: nodes of its C tree and, among them, accesses to
    memory outside the work-item (global or constant: an element read or written, or
    a pointer to it passed to a call), helpers' counted at each call."""
    nodes: int
    accesses: int

    def __add__(self, other: "Work") -> "Work":
        return Work(self.nodes + other.nodes, self.accesses + other.accesses)


def _shared_pointer(node) -> bool:
    t = getattr(node, "ty", None)
    return isinstance(t, ty.Pointer) and t.space in ("global", "constant")


def _is_access(node) -> bool:
    if isinstance(node, c_ast.ArrayRef):
        return _shared_pointer(node.name)
    if isinstance(node, c_ast.UnaryOp) and node.op == "*" or \
            isinstance(node, c_ast.StructRef) and node.type == "->":
        return _shared_pointer(node.expr if isinstance(node, c_ast.UnaryOp) else node.name)
    if isinstance(node, c_ast.FuncCall) and node.args is not None and \
            called_function(node) is None:           # a helper's accesses are its own
        return any(_shared_pointer(a) for a in node.args.exprs)
    return False


def work(kernel: FunctionInfo, functions: dict) -> Work | None:
    """The work of the function's body plus its callees' at each call; None where
    there is a loop. Callees first, by an explicit stack (call chains may be long)."""
    sizes: dict[str, Work | None] = {}
    pending: set[str] = set()
    stack = [(kernel, False)]
    while stack:
        f, ready = stack.pop()
        if f.name in sizes:
            continue
        if not ready and f.name in pending:     # recursion (sema refuses it): no bound
            sizes[f.name] = None
            continue
        calls = [name for node in walk(f.node.body)
                 if (name := called_function(node)) in functions]
        if not ready:
            pending.add(f.name)
            stack.append((f, True))
            stack += [(functions[c], False) for c in set(calls) if c not in sizes]
            continue
        size = Work(0, 0)
        for node in walk(f.node.body):
            if isinstance(node, _LOOPS):
                size = None
                break
            size += Work(1, _is_access(node))
        if size is not None:
            callee_sizes = [sizes.get(c) for c in calls]
            size = None if None in callee_sizes else sum(callee_sizes, size)
        sizes[f.name] = size
    return sizes[kernel.name]
