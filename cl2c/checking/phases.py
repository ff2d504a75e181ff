"""Checking builds on the regions schedule: reads of a kernel-scope __local variable in a
region that writes none of it check its initialisation only (CL2C_CK_LREAD), and so do
atomics on one that the phase touches only with atomics (CL2C_CK_LATOMIC, or
CL2C_CK_LATOMIC_IN on an element whose indices are checked: a histogram's counters).

A barrier phase begins at the top of the group function and where the group passes a
barrier (``cl2c_ck_phase(cl2c_ck_t);``, builders/plan.py), and nowhere else: the
regions between two barriers, and the iterations of a uniform loop with none, are one
phase. A race needs two accesses of one phase, one a write; where no work-item writes
a variable in the phase, its reads race with nothing, and what a read leaves in the
shadow word matters only to a later write of the same phase. So such a read asks only
that a work-item of the group wrote the memory (the word is this group's and says so).

A kernel with a barrier that does not fence __local memory (cl2c_ck_fences) keeps every
read's full check. A phase is known here where its statements are the ones between two phase calls of
one block (or from the last to the end of the function's own body), with no phase
call and no group-level jump among them; elsewhere (the rest of a uniform loop's body,
which the next iteration continues) every read keeps its full check. Sound only where
every checked __local write is inside a region's work-item loop (none in the group's
own statements between regions): ``quiet_local_reads`` checks that first.

Two atomics do not race; an atomic races with a plain access of the same phase. Where a
phase has no plain access of a variable (none that may reach it: a pointer into
__local memory, a builtin given one, ``atomic_init`` count as plain), its atomics race
with nothing, and what they leave in the shadow matters to nothing later (the next
phase's accesses are ordered after them by the barrier).
"""
from __future__ import annotations

from pycparser import c_ast

from .. import types as ty
from ..literals import integer_value
from ..typed_ast import fact, walk
from ..workgroup.ir import GroupFunction, Once, c_parts, item_lists
from ..workgroup.names import LOCALS
from . import counted
from .ranges import LOCAL

_ALL = "*"      # every __local variable may be written


def quiet_local_reads(gf: GroupFunction) -> int:
    """Rewrite the quiet reads of work-group function ``gf``; returns how many."""
    prologue = [(s, False) for s in gf.prologue]
    if any(_written(part, True, inside) for part, inside in prologue + list(c_parts(gf.items))):
        return 0
    if any(_unfenced(part) for part, _ in c_parts(gf.items)):
        return 0
    count = 0
    for items, top in item_lists(gf.items):
        at = [i for i, it in enumerate(items) if isinstance(it, Once) and _is_phase(it.node)]
        ends = at[1:] + ([len(items)] if top else [])
        for start, end in zip(at, ends):
            span = items[start + 1:end]
            if _is_closed(span):
                parts = list(c_parts(span))
                written = set().union(*(_written(p, False, inside) for p, inside in parts))
                if _ALL not in written:
                    count += sum(_rewrite_reads(p, written) for p, _ in parts)
                plain = set().union(*(_plain(p) for p, _ in parts))
                if _ALL not in plain:
                    count += sum(_rewrite_atomics(p, plain) for p, _ in parts)
    return count


def _unfenced(node) -> bool:
    """A barrier that may not fence __local memory (sync_points.py's
    ``cl2c_ck_fences(flags)`` without CLK_LOCAL_MEM_FENCE's bit, or not a constant):
    __local accesses on both sides are of one phase, which the phase calls do not
    show."""
    if isinstance(node, c_ast.FuncCall) and _name(node) == "cl2c_ck_fences":
        flags = node.args.exprs[0] if node.args else None
        return not (isinstance(flags, c_ast.Constant) and _const(flags) >= 0 and
                    _const(flags) & 1)
    return any(_unfenced(c) for _, c in node.children())


def _is_closed(span: list) -> bool:
    """No phase begins in ``span`` and the group does not jump out of it (work-item
    loops' own ``continue`` aside)."""
    return all(_is_closed_c(part, inside) for part, inside in c_parts(span))


def _is_closed_c(node, inside: bool) -> bool:
    if _is_phase(node) or not inside and isinstance(
            node, (c_ast.Break, c_ast.Continue, c_ast.Return, c_ast.Goto)):
        return False
    return all(_is_closed_c(c, inside) for _, c in node.children())


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
    return integer_value(arg.value) if isinstance(arg, c_ast.Constant) else -1


def _written(node, outside_items_only: bool = False, inside: bool = False) -> set:
    """The __local variables ``node`` may write (_ALL: any); with outside_items_only,
    only writes outside the work-item loops (``inside``: ``node`` is in one)."""
    out: set = set()
    if isinstance(node, c_ast.FuncCall) and not (outside_items_only and inside):
        out |= _call_writes(node)
    for _, child in node.children():
        out |= _written(child, outside_items_only, inside)
    return out


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
    if name == "CL2C_CK_ARG_ATOMIC":  # (range, p, local, site)
        return ({_field(args[0])} if _field(args[0]) else {_ALL}) if _const(args[2]) else set()
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


def loud_local_reads(node) -> bool:
    """Whether function ``node`` keeps a read of __local memory (or maybe of it) with
    its full check: one this pass did not make CL2C_CK_LREAD."""
    for n in walk(node):
        if isinstance(n, c_ast.FuncCall) and n.args is not None:
            name, args = _name(n), n.args.exprs
            if name in ("CL2C_CK_ARG", "CL2C_CK_ACCESS") and len(args) == 5 and \
                    _const(args[3]) != 0 and _const(args[2]) & 1 or \
                    name == "CL2C_CK_GENERIC" and _const(args[2]) & 1:
                return True
    return False


def loud_local_atomics(node) -> bool:
    """Whether function ``node`` keeps an atomic on __local memory (or maybe on it)
    with its full check: one this pass did not make CL2C_CK_LATOMIC."""
    for n in walk(node):
        if isinstance(n, c_ast.FuncCall) and n.args is not None:
            name, args = _name(n), n.args.exprs
            if name in ("CL2C_CK_ARG_ATOMIC", "CL2C_CK_ATOMIC") and _const(args[2]) != 0 or \
                    name == "CL2C_CK_GENERIC_ATOMIC":
                return True
    return False


def _local_atomic(node) -> str | None:
    """F of ``CL2C_CK_ARG_ATOMIC(cl2c_ck_l_F, p, 1, site)``, an atomic on kernel-scope
    __local variable F; else None."""
    if isinstance(node, c_ast.FuncCall) and _name(node) == "CL2C_CK_ARG_ATOMIC":
        args = node.args.exprs
        if _const(args[2]) == 1:
            return _field(args[0])
    return None


def _plain(node) -> set:
    """The __local variables that ``node`` may access other than atomically (_ALL: any)."""
    out: set = set()
    if isinstance(node, c_ast.FuncCall):
        out |= _call_plain(node)
    for _, child in node.children():
        out |= _plain(child)
    return out


def _call_plain(call: c_ast.FuncCall) -> set:
    name, args = _name(call), (call.args.exprs if call.args else [])
    if name == "CL2C_CK_ARG_ATOMIC":
        return set() if _local_atomic(call) or _const(args[2]) == 0 else {_ALL}
    if name in ("CL2C_CK_ARG", "CL2C_CK_ARG_STORE", "CL2C_CK_LREAD"):
        if _field(args[0]):
            return {_field(args[0])}
        return {_ALL} if name == "CL2C_CK_ARG" and len(args) == 5 and _const(args[3]) else set()
    if name in (counted.INDEX_CHECK, counted.INDEX_WITHIN, "CL2C_CK_DIVISOR") or \
            name.startswith("cl2c_get_"):
        return set()
    # a builtin or check given __local memory otherwise (an atomic's own address aside,
    # but not atomic_init's, which is a plain store)
    atomic_ok = "atomic_init" not in name
    return {_ALL} if any(_reaches_local(a) for a in args
                         if not (atomic_ok and _local_atomic(a))) else set()


def _rewrite_atomics(node, plain: set) -> int:
    count = 0
    for _, child in node.children():
        count += _rewrite_atomics(child, plain)
    if isinstance(node, c_ast.FuncCall) and "atomic_init" not in _name(node) and node.args:
        for arg in node.args.exprs:
            field = _local_atomic(arg)
            if field and field not in plain:
                args = arg.args.exprs
                quiet = "CL2C_CK_LATOMIC_IN" if _element_of(args[1], field) else "CL2C_CK_LATOMIC"
                arg.name = c_ast.ID(quiet, arg.name.coord)
                arg.args.exprs = [args[0], args[1], args[3]]
                count += 1
    return count


def _element_of(pointer, field: str) -> bool:
    """``&cl2c_locals->F`` or ``&cl2c_locals->F[CL2C_CK_INDEX(..)]..`` (or
    ``CL2C_CK_WITHIN(..)``: an index in bounds by its operands' types), no cast between:
    variable F or an element of it, in bounds (an index out of them is reported, and
    becomes 0)."""
    if not (isinstance(pointer, c_ast.UnaryOp) and pointer.op == "&"):
        return False
    e = pointer.expr
    while isinstance(e, c_ast.ArrayRef):
        if not (isinstance(e.subscript, c_ast.FuncCall) and
                _name(e.subscript) in (counted.INDEX_CHECK, counted.INDEX_WITHIN)):
            return False
        e = e.name
    return isinstance(e, c_ast.StructRef) and e.type == "->" and \
        isinstance(e.name, c_ast.ID) and e.name.name == LOCALS and e.field.name == field
