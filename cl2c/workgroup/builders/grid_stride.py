"""Grid-stride loops, ``for (int i = get_global_id(0); i < n; i +=
get_global_size(0))``, interchanged so that the outer loop is uniform and the
work-items' loop goes inside it (the regions schedule hoists uniform loops).

A group then reads each buffer that it indexes by the loop's counter in runs of its
local size, one run every stride (the global size: a jump of pages, which hardware
prefetchers do not follow, so that every run waits for memory). The loop's step
asks for the run two iterations ahead (regions.h's CL2C_PREFETCH_STEP): a hint,
which changes no value (the bench's histogram: 1.3x faster)."""
from __future__ import annotations

import copy

from pycparser import c_ast

from ... import declarators
from ... import types as ty
from ...literals import integer_value
from ...typed_ast import fact, make
from ... import cnodes as cn
from ...lower.effects import builtin_call, builtin_name, runtime_call
from .syntax import assigned_names, contains_sync, escaping_jumps, ids, set_declname, walk

# Sizes of the range: never zero.
_POSITIVE_BUILTINS = {"get_global_size", "get_local_size", "get_num_groups",
                      "get_enqueued_local_size"}


def interchange_grid_stride_loops(body: c_ast.Compound) -> list[str]:
    """``for (int i = get_global_id(0); i < n; i += get_global_size(0)) S`` becomes
    ``for (int i__k = <id of local id 0>; i__k < n; i__k += <stride>) { int i =
    i__k + get_local_id(0); if (i < n) S }``: the same iterations for every
    work-item, but the outer loop is uniform, so the work-items' loop goes
    inside it and walks memory contiguously. Returns the outer loops' counters
    (``i__k``: each below a limit of its own type, which it counts up to)."""
    counters = []
    for node in list(walk(body)):
        if isinstance(node, c_ast.For) and _rewrite_grid_stride(node, body):
            counters.append(node.init.decls[0].name)
    return counters


def _rewrite_grid_stride(loop: c_ast.For, body) -> bool:
    init = loop.init
    if not (isinstance(init, c_ast.DeclList) and len(init.decls) == 1):
        return False
    d = init.decls[0]
    name = d.name
    if not (isinstance(d.type, c_ast.TypeDecl) and isinstance(d.type.type, c_ast.IdentifierType)
            and d.init is not None):
        return False
    base = _group_base(d.init)
    cond, step = loop.cond, loop.next
    if base is None or not (isinstance(cond, c_ast.BinaryOp) and cond.op == "<" and
                            isinstance(cond.left, c_ast.ID) and cond.left.name == name):
        return False
    if not (isinstance(step, c_ast.Assignment) and step.op == "+=" and
            isinstance(step.lvalue, c_ast.ID) and step.lvalue.name == name and
            _positive(step.rvalue)):
        return False
    if name in assigned_names(loop.stmt) or name in ids(cond.right) | ids(step.rvalue) or \
            any(True for _ in escaping_jumps(loop.stmt)) or contains_sync(loop.stmt):
        return False
    outer = name + "__k"
    k_decl = copy.deepcopy(d)
    set_declname(k_decl, outer)
    k_decl.init = c_ast.Cast(_typename_of(d), base)
    item = copy.deepcopy(d)
    item.init = c_ast.BinaryOp("+", cn.ident(outer), c_ast.Cast(
        _typename_of(d),
        builtin_call("get_local_id", cn.ident("CL2C_WI"), c_ast.Constant("int", "0"))))
    guard = c_ast.If(c_ast.BinaryOp("<", cn.ident(name), copy.deepcopy(cond.right)),
                     loop.stmt, None)
    loop.init = c_ast.DeclList([k_decl])
    loop.cond = c_ast.BinaryOp("<", cn.ident(outer), cond.right)
    loop.next = c_ast.Assignment("+=", cn.ident(outer),
                                 _prefetching(step.rvalue, outer, name, loop.stmt, body))
    loop.stmt = c_ast.Compound([item, guard])
    return True


_BUFFERS = 4        # buffers prefetched at most


def _prefetching(stride, outer: str, name: str, stmt, body):
    """The loop's step, ``stride``, as ``CL2C_PREFETCH_STEP(stride, stride, P, outer,
    count, sizeof P[0])`` for each buffer P that ``stmt`` reads as ``P[name]``: a
    __global or __constant pointer that the kernel does not assign."""
    assigned = assigned_names(body)
    buffers = []
    for n in walk(stmt):
        if isinstance(n, c_ast.ArrayRef) and isinstance(n.name, c_ast.ID) and \
                isinstance(n.subscript, c_ast.ID) and n.subscript.name == name:
            t = fact(n.name, "ty")
            if isinstance(t, ty.Pointer) and t.space in ("global", "constant") and \
                    n.name.name not in assigned and n.name.name not in buffers:
                buffers.append(n.name.name)
    value = stride
    for p in buffers[:_BUFFERS]:
        size = c_ast.UnaryOp("sizeof", c_ast.ArrayRef(cn.ident(p), c_ast.Constant("int", "0")))
        count = builtin_call("get_local_size", cn.ident("CL2C_WI"), c_ast.Constant("int", "0"))
        value = runtime_call("CL2C_PREFETCH_STEP", value, copy.deepcopy(stride), cn.ident(p),
                             cn.ident(outer), count, size)
    return value


def _group_base(e):
    """For an id affine in the local id 0 (l0 + B), B in uniform terms; else None."""
    while isinstance(e, c_ast.Cast):
        e = e.expr
    name = builtin_name(e)
    args = e.args.exprs if name else []
    if len(args) != 2 or not (isinstance(args[1], c_ast.Constant) and
                              args[1].value.rstrip("uU") == "0"):
        return None
    if name == "get_local_id":
        return c_ast.Constant("int", "0")
    if name == "get_global_id":
        wi = [cn.ident("CL2C_WI"), c_ast.Constant("int", "0")]
        return c_ast.BinaryOp("+", c_ast.BinaryOp(
            "*", builtin_call("get_group_id", *copy.deepcopy(wi)),
            builtin_call("get_enqueued_local_size", *copy.deepcopy(wi))),
            builtin_call("get_global_offset", *copy.deepcopy(wi)))
    return None


def _positive(e) -> bool:
    """Provably > 0: positive constants and the (never zero) sizes of the range."""
    while isinstance(e, c_ast.Cast):
        e = e.expr
    if isinstance(e, c_ast.Constant):
        try:
            return integer_value(e.value) > 0
        except ValueError:
            return False
    if builtin_name(e) in _POSITIVE_BUILTINS:
        return True
    if isinstance(e, c_ast.BinaryOp) and e.op == "*":
        return _positive(e.left) and _positive(e.right)
    return False


def _typename_of(d: c_ast.Decl) -> c_ast.Typename:
    """The type name of declaration ``d``'s type, which knows that type."""
    node = make(c_ast.Typename, None, [], None, _retype(d.type, None))
    node.ty = fact(d, "ty")
    return node


def _retype(t, name):
    return declarators.declaring(copy.deepcopy(t), name)
