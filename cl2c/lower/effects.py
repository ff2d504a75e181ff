"""What a call in the lowered tree does, read from the facts on its node.

Every call that lowering makes carries a ``call`` fact (typed_ast.py): sema's
resolution for an OpenCL call (a builtin's row, a conversion, a load or store, a user
function) or ``OPERATOR`` for a runtime helper that implements an operator. The
work-group passes ask here whether a call synchronises, depends on the work-item or
has effects: never by the C name of the function it calls.
"""
from __future__ import annotations

from pycparser import c_ast

from .. import builtins as bi
from ..sema import Call
from ..typed_ast import fact, make
from . import cnodes as cn

# Runtime helpers of operators, swizzles, splats and conversions: values of their
# arguments only.
OPERATOR = Call("operator", "")
# ... and those that write through their first argument (++ on a vector, a swizzle store).
UPDATE = Call("update", "")
_PURE_KINDS = {"operator", "convert", "as", "vec_step"}


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


def is_pure(node) -> bool:
    """The call's value depends on its arguments only: no effects, no memory read, not
    a synchronisation point, not a work-item function."""
    call = call_of(node)
    if call is None:
        return False
    if call.kind in _PURE_KINDS:
        return True
    return call.kind == "builtin" and call.row.pure and not call.row.workitem


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
