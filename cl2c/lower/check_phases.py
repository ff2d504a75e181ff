"""Checking builds on the regions schedule: reads of a kernel-scope __local variable in a
region that writes none of it check its initialisation only (CL2C_CK_LREAD).

A barrier phase begins at the top of the group function and where the group passes a
barrier (``cl2c_ck_phase(cl2c_ck_t);``, regions/plan.py), and nowhere else: the
regions between two barriers, and the iterations of a uniform loop with none, are one
phase. A race needs two accesses of one phase, one a write; where no work-item writes
a variable in the phase, its reads race with nothing, and what a read leaves in the
shadow word matters only to a later write of the same phase. So such a read asks only
that a work-item of the group wrote the memory (the word is this group's and says so).

A phase is known here where its statements are the ones between two phase calls of
one block (or from the last to the end of the function's own body), with no phase
call and no group-level jump among them; elsewhere (the rest of a uniform loop's body,
which the next iteration continues) every read keeps its full check. Sound only where
every checked __local write is inside a region's work-item loop (none in the group's
own statements between regions): ``quiet_local_reads`` checks that first.
"""
from __future__ import annotations

from pycparser import c_ast

from .. import types as ty
from ..typed_ast import fact
from .check_ranges import LOCAL
from .workitems import LOCALS

_ALL = "*"      # every __local variable may be written


def quiet_local_reads(fn: c_ast.FuncDef) -> int:
    """Rewrite the quiet reads of group function ``fn``; returns how many."""
    if _written(fn.body, outside_items_only=True):
        return 0
    count = 0
    for block in _blocks(fn.body):
        items = block.block_items or []
        at = [i for i, s in enumerate(items) if _is_phase(s)]
        ends = at[1:] + ([len(items)] if block is fn.body else [])
        for start, end in zip(at, ends):
            span = c_ast.Compound(items[start + 1:end])
            if _is_closed(span):
                written = _written(span)
                if _ALL not in written:
                    count += _rewrite_reads(span, written)
    return count


def _is_closed(span, inside: bool = False) -> bool:
    """No phase begins in ``span`` and the group does not jump out of it (work-item
    loops' own ``continue`` aside)."""
    if isinstance(span, c_ast.For) and _is_item_loop(span):
        inside = True
    if _is_phase(span) or not inside and isinstance(
            span, (c_ast.Break, c_ast.Continue, c_ast.Return, c_ast.Goto)):
        return False
    return all(_is_closed(c, inside) for _, c in span.children())


def _blocks(node):
    if isinstance(node, c_ast.Compound):
        yield node
    for _, child in node.children():
        yield from _blocks(child)


def _is_phase(s) -> bool:
    return isinstance(s, c_ast.FuncCall) and isinstance(s.name, c_ast.ID) and \
        s.name.name == "cl2c_ck_phase"


def _name(call) -> str:
    return call.name.name if isinstance(call.name, c_ast.ID) else ""


def _field(arg) -> str | None:
    """F of ``cl2c_ck_l_F``, the range of a kernel-scope __local variable."""
    if isinstance(arg, c_ast.ID) and arg.name.startswith(LOCAL):
        return arg.name[len(LOCAL):]
    return None


def _const(arg) -> int:
    return int(arg.value.rstrip("uUlL")) if isinstance(arg, c_ast.Constant) else -1


def _written(node, outside_items_only: bool = False, inside: bool = False) -> set:
    """The __local variables ``node`` may write (_ALL: any); with outside_items_only,
    only writes outside the work-item loops."""
    out: set = set()
    if isinstance(node, c_ast.For) and _is_item_loop(node):
        inside = True
    if isinstance(node, c_ast.FuncCall) and not (outside_items_only and inside):
        out |= _call_writes(node)
    for _, child in node.children():
        out |= _written(child, outside_items_only, inside)
    return out


def _is_item_loop(node: c_ast.For) -> bool:
    init = node.init
    decls = init.decls if isinstance(init, c_ast.DeclList) else []
    return any(isinstance(d, c_ast.Decl) and d.name == "cl2c_l0" for d in decls)


def _call_writes(call: c_ast.FuncCall) -> set:
    name, args = _name(call), (call.args.exprs if call.args else [])
    if name == "CL2C_CK_ARG_STORE" and _field(args[0]):
        return {_field(args[0])}
    if name == "CL2C_CK_ARG" and len(args) == 5:
        if _const(args[2]) & 2:
            return {_field(args[0])} if _field(args[0]) else ({_ALL} if _const(args[3]) else set())
        return set()
    if name == "CL2C_CK_STORE":
        return {_ALL} if _const(args[2]) != 0 else set()
    if name == "CL2C_CK_ACCESS":
        return {_ALL} if _const(args[3]) != 0 and _const(args[2]) & 2 else set()
    if name == "CL2C_CK_FILLED":
        return {_ALL}
    if name == "CL2C_CK_VSTORE":      # (check, r, f, off, p, n, stride, same, local, site, v)
        return {_ALL} if _const(args[8]) != 0 else set()
    if name == "CL2C_CK_ATOMIC":      # (base, p, local, site)
        return {_ALL} if _const(args[2]) != 0 else set()
    if name == "CL2C_CK_GENERIC":     # (base, p, flags, site): maybe into __local memory
        return {_ALL} if _const(args[2]) & 2 else set()
    if name in ("CL2C_CK_GENERIC_STORE", "CL2C_CK_GENERIC_ATOMIC"):
        return {_ALL}
    if name.startswith(("CL2C_CK_", "cl2c_ck_", "cl2c_get_")):
        return set()
    # any other call that may reach __local memory (atomics, vstore, ...): assume a write
    return {_ALL} if any(_reaches_local(a) for a in args) else set()


def _reaches_local(node) -> bool:
    if isinstance(node, c_ast.UnaryOp) and node.op == "*" and \
            isinstance(node.expr, c_ast.FuncCall) and _name(node.expr).startswith("CL2C_CK_"):
        # the value of a checked access: a pointer only where its type says so
        t = fact(node, "ty")
        return isinstance(t, ty.Pointer) and t.space == "local"
    if isinstance(node, c_ast.ID):
        t = fact(node, "ty")
        return node.name == LOCALS or (isinstance(t, ty.Pointer) and t.space == "local")
    return any(_reaches_local(c) for _, c in node.children())


def _rewrite_reads(node, written: set) -> int:
    count = 0
    for _, child in node.children():
        count += _rewrite_reads(child, written)
    if isinstance(node, c_ast.FuncCall) and _name(node) == "CL2C_CK_ARG":
        args = node.args.exprs
        field = _field(args[0])
        if field and field not in written and _const(args[2]) == 1:
            node.name = c_ast.ID("CL2C_CK_LREAD", node.name.coord)
            node.args.exprs = [args[0], args[1], args[4]]
            count += 1
    return count
