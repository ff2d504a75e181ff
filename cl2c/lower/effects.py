"""What a call does, read from the facts on its node; and the one test of whether an
expression has effects (``has_effects``), which every pass asks.

Every call carries a ``call`` fact (typed_ast.py): sema's resolution for an OpenCL call
(a builtin's row, a conversion, a load or store, a user function) or, for one that
lowering makes, ``OPERATOR`` for a runtime helper that implements an operator. The
passes ask here whether a call synchronises, depends on the work-item or has effects:
never by the C name of the function it calls.
"""
from __future__ import annotations

from pycparser import c_ast

from .. import builtins as bi
from .. import types as ty
from ..sema import Call
from ..typed_ast import fact, make, walk
from .. import cnodes as cn

# Runtime helpers of operators, swizzles, splats and conversions: values of their
# arguments only.
OPERATOR = Call("operator", "")
# ... and those that write through their first argument (++ on a vector, a swizzle store).
UPDATE = Call("update", "")
_VALUE_KINDS = {"operator", "convert", "as", "vec_step"}
# ... and the calls (not builtin rows) that read memory but write none
_READING_KINDS = {"vload", "vload_half", "address_space"}
UPDATES = ("++", "--", "p++", "p--")


def runtime_call(name: str, *args, call: Call = OPERATOR, coord=None) -> c_ast.FuncCall:
    """A call of runtime function ``name`` that carries what it does."""
    node = make(c_ast.FuncCall, cn.ident(name, coord), c_ast.ExprList(list(args), coord),
                coord)
    node.call = call
    return node


def builtin_call(name: str, *args, coord=None) -> c_ast.FuncCall:
    """A call of OpenCL builtin ``name`` (without a generic type: the work-item
    functions) that a pass writes itself, with ``args`` as lowered (CL2C_WI first for a
    work-item function)."""
    row = next(r for r in bi.BY_NAME[name]
               if len(r.params) == len(args) - (1 if r.workitem else 0))
    return runtime_call(row.runtime_name(None), *args, call=Call("builtin", name, row),
                        coord=coord)


def call_of(node) -> Call | None:
    """What a FuncCall node calls; None for a node that is not a call, or a call a
    pass made without saying (which counts as having effects)."""
    return fact(node, "call") if isinstance(node, c_ast.FuncCall) else None


def _row(node) -> bi.Builtin | None:
    call = call_of(node)
    return call.row if call is not None and call.kind == "builtin" else None


def is_barrier(node) -> bool:
    """barrier(), work_group_barrier(), wait_group_events(): a synchronisation point
    with no value."""
    row = _row(node)
    return row is not None and row.sync and row.ret == "void"


def is_collective(node) -> bool:
    """A work-group function with a value (work_group_reduce_add, ...)."""
    row = _row(node)
    return row is not None and row.sync and row.ret != "void"


def called_function(node) -> str | None:
    """The user function a call calls."""
    call = call_of(node)
    return call.name if call is not None and call.kind == "function" else None


def synchronises(node, syncing_functions=frozenset()) -> bool:
    return is_barrier(node) or is_collective(node) or \
        called_function(node) in syncing_functions


def work_item_function(node) -> str | None:
    """"group" for a work-item function whose value is the group's (get_group_id),
    "item" for one that tells work-items apart (get_local_id), else None."""
    row = _row(node)
    if row is None or not row.workitem or row.sync:
        return None
    return "group" if row.group_uniform else "item"


def constant_dimension(node) -> int | None:
    """The dimension a work-item function call asks of where it is a constant
    (``get_global_id(0)``; in a work-group function ``cl2c_get_global_id(CL2C_WI, 0)``),
    else None."""
    if work_item_function(node) is None or not node.args or not node.args.exprs:
        return None
    last = node.args.exprs[-1]
    if not isinstance(last, c_ast.Constant) or last.type not in ("int", "unsigned int"):
        return None
    try:
        return int(last.value.rstrip("uU"), 0)
    except ValueError:
        return None


def value_of_arguments(node) -> bool:
    """The call's value depends on its arguments only: no effects, no memory read, not
    a synchronisation point, not a work-item function."""
    call = call_of(node)
    if call is None:
        return False
    if call.kind in _VALUE_KINDS:
        return True
    return call.kind == "builtin" and call.row.pure and not call.row.workitem


def call_has_effects(node, writers=None) -> bool:
    """The call acts beyond its value: a builtin whose row says so (Builtin.has_effects),
    a store, printf, a runtime update, a user function among ``writers`` (any user
    function where that is None), a call a pass made without saying."""
    call = call_of(node)
    if call is None:
        return True
    if call.kind == "builtin":
        return call.row.has_effects
    if call.kind == "function":
        return writers is None or call.name in writers
    return call.kind not in _VALUE_KINDS | _READING_KINDS


def has_effects(node, writers=None, pure: dict | None = None) -> bool:
    """Evaluating ``node`` changes something (assigns, increments, calls one with
    effects): it may not be evaluated twice, or skipped, or moved past another
    expression with effects. ``writers``: the user functions with effects
    (``functions_with_effects``); None counts every one. ``pure``: the subtrees known to
    have none, by id (each with its node, so that the id stays its own), which this
    fills: a caller that asks of every operator's operands in turn, and changes no
    subtree without effects, looks at each node once."""
    stack, seen = [node], []
    while stack:
        n = stack.pop()
        if n is None or pure is not None and id(n) in pure:
            continue
        if isinstance(n, c_ast.Assignment) or isinstance(n, c_ast.UnaryOp) and n.op in UPDATES:
            return True
        if isinstance(n, c_ast.FuncCall) and call_has_effects(n, writers):
            return True
        seen.append(n)
        stack.extend(child for _, child in n.children())
    if pure is not None:
        pure.update((id(n), n) for n in seen)
    return False


def functions_with_effects(module) -> set:
    """User functions that write memory other than their own locals, or call one
    that does (a fixpoint over the call graph)."""
    writers = set()
    changed = True
    while changed:
        changed = False
        for name, f in module.functions.items():
            if name not in writers and _writes_beyond_locals(f.node.body, writers):
                writers.add(name)
                changed = True
    return writers


def _writes_beyond_locals(body, writers: set) -> bool:
    for n in walk(body):
        if isinstance(n, c_ast.FuncCall) and call_has_effects(n, writers):
            return True
        target = assigned_lvalue(n)
        if target is not None and not local_object(target):
            return True
    return False


def local_object(node) -> bool:
    """An lvalue inside a local variable (not reached through a pointer)."""
    while isinstance(node, (c_ast.ArrayRef, c_ast.StructRef)):
        if isinstance(node, c_ast.StructRef) and node.type == "->":
            return False
        if isinstance(node, c_ast.ArrayRef) and isinstance(fact(node.name, "ty"), ty.Pointer):
            return False
        node = node.name
    symbol = fact(node, "symbol") if isinstance(node, c_ast.ID) else None
    return symbol is not None and symbol.kind in ("var", "param") and not symbol.program


def assigned_lvalue(node):
    """The lvalue that ``node`` (an assignment or increment) writes, else None."""
    if isinstance(node, c_ast.Assignment):
        return node.lvalue
    if isinstance(node, c_ast.UnaryOp) and node.op in UPDATES:
        return node.expr
    return None


def is_atomic(node) -> bool:
    """An atomic read-modify-write (its lanes must not run as one SIMD operation)."""
    row = _row(node)
    return row is not None and row.name.startswith(("atomic_", "atom_"))


def builtin_name(node) -> str | None:
    """The OpenCL name of the builtin a call calls."""
    row = _row(node)
    return row.name if row is not None else None


def collective(node) -> tuple[str, object, str]:
    """(operation, element type or None, group function) of a work-group function call:
    ("reduce_add", INT, "cl2c_group_reduce_add_int"). The runtime's group function of a
    collective is its per-work-item function's name with cl2c_group_ for
    cl2c_work_group_ (workgroup.h)."""
    call = call_of(node)
    name = call.row.runtime_name(call.generic)
    # work_group_reduce_add and sub_group_reduce_add alike (a sub-group is the group)
    return (name[len("cl2c_work_group_"):].removesuffix(f"_{call.generic.name}")
            if call.generic is not None else call.row.name.split("group_", 1)[1],
            call.generic, "cl2c_group_" + name[len("cl2c_work_group_"):])
