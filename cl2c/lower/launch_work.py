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

from pycparser import c_ast

from ..sema import FunctionInfo
from ..typed_ast import walk
from .effects import called_function

# work-items x nodes a launch on the calling thread may take: 3-5 µs on a Zen 4 core
SERIAL_WORK = 1 << 19
_LOOPS = (c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.Goto)


def serial_items(kernel: FunctionInfo, functions: dict) -> int:
    """The most work-items a launch of ``kernel`` runs on the calling thread; 0 if it
    has a loop (or calls a function that does)."""
    nodes = work_nodes(kernel, functions)
    return 0 if nodes is None else SERIAL_WORK // max(1, nodes)


def work_nodes(kernel: FunctionInfo, functions: dict) -> int | None:
    """Nodes of the function's body plus its callees' at each call; None where there
    is a loop. Callees first, by an explicit stack (call chains may be long)."""
    sizes: dict[str, int | None] = {}
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
        size = 0
        for node in walk(f.node.body):
            if isinstance(node, _LOOPS):
                size = None
                break
            size += 1
        if size is not None:
            callee_sizes = [sizes.get(c) for c in calls]
            size = None if None in callee_sizes else size + sum(callee_sizes)
        sizes[f.name] = size
    return sizes[kernel.name]
