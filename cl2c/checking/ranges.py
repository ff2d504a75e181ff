"""Checking builds: the ranges an access checks against where they are the same at every
access of a function, found once at its top (check.h's cl2c_ck_argr): a kernel's buffer
arguments it never changes, its kernel-scope __local variables and __local pointer
arguments. accesses.py's accesses
through them become CL2C_CK_ARG (CL2C_CK_ARG_READ for an argument never written
through), whose bounds GCC keeps in registers out of the work-item loops.
"""
from __future__ import annotations

from pycparser import c_ast

from .. import types as ty
from ..workgroup.names import CHECK_THREAD as THREAD, LOCALS


def _call(name: str, args: list) -> c_ast.FuncCall:
    return c_ast.FuncCall(c_ast.ID(name), c_ast.ExprList(args))


def _arg_decls(f) -> list:
    """The C declarations of kernel ``f``'s arguments, as sema's ``f.params``."""
    decls = [p for p in f.node.decl.type.args.params if isinstance(p, c_ast.Decl)]
    return decls[len(decls) - len(f.params):]     # the work-item context comes first


ARG = "cl2c_ck_a_"


def arg_state(name: str, index: int) -> c_ast.Decl:
    """``const cl2c_ck_argr cl2c_ck_a_NAME = cl2c_ck_arg(cl2c_ck_t, INDEX, NAME);``: the
    range of a buffer argument, found once per call (check.h)."""
    var = ARG + name
    return c_ast.Decl(var, ["const"], [], [], [], c_ast.TypeDecl(
        var, ["const"], None, c_ast.IdentifierType(["cl2c_ck_argr"])),
        _call("cl2c_ck_arg", [c_ast.ID(THREAD), c_ast.Constant("int", f"{index}u"),
                              c_ast.ID(name)]), None)


LOCAL = "cl2c_ck_l_"


def local_state(field: str, argument: bool = False) -> c_ast.Decl:
    """``const cl2c_ck_argr cl2c_ck_l_F = cl2c_ck_local_var(cl2c_ck_t, &cl2c_locals->F);``:
    the range of a kernel-scope __local variable, found once per call; or, where
    ``argument``, of the __local memory that argument F points to (``..., F)``)."""
    var = LOCAL + field
    at = c_ast.ID(field) if argument else c_ast.UnaryOp(
        "&", c_ast.StructRef(c_ast.ID(LOCALS), "->", c_ast.ID(field)))
    return c_ast.Decl(var, ["const"], [], [], [], c_ast.TypeDecl(
        var, ["const"], None, c_ast.IdentifierType(["cl2c_ck_argr"])),
        _call("cl2c_ck_local_var", [c_ast.ID(THREAD), at]), None)


def local_field(node) -> str | None:
    """F of an lvalue chain ``cl2c_locals->F[i]...`` (a kernel-scope __local), else None."""
    while isinstance(node, (c_ast.ArrayRef, c_ast.StructRef)):
        if isinstance(node, c_ast.StructRef) and node.type == "->":
            return node.field.name if isinstance(node.name, c_ast.ID) and \
                node.name.name == LOCALS else None
        node = node.name
    return None


def fixed_buffer_args(f) -> dict[str, int]:
    """{C name: argument index} of the kernel's __global and __constant pointer
    arguments that its body never changes (nor takes the address of): their accesses
    check against the argument's range found once (CL2C_CK_ARG)."""
    decls = _arg_decls(f)
    changed = _changed_names(f.node.body)
    return {d.name: i for i, (d, p) in enumerate(zip(decls, f.params))
            if isinstance(p.type, ty.Pointer) and p.type.space in ("global", "constant")
            and d.name and d.name not in changed}


def fixed_local_args(f) -> set[str]:
    """The C names of the kernel's __local pointer arguments that its body never changes
    (nor takes the address of): each points to the start of a __local block of its
    own, whose range (as a kernel-scope __local variable's) is found once."""
    decls = _arg_decls(f)
    changed = _changed_names(f.node.body)
    return {d.name for d, p in zip(decls, f.params)
            if isinstance(p.type, ty.Pointer) and p.type.space == "local"
            and d.name and d.name not in changed}


def unwritten_args(f) -> set[str]:
    """The C names of the kernel's pointer arguments it never writes through (sema's
    conservative answer): their ranges have no shadow but where two are one buffer."""
    decls = _arg_decls(f)
    return {d.name for d, p in zip(decls, f.params) if not p.written}


def _changed_names(body) -> set[str]:
    """Names assigned, incremented or whose address is taken anywhere in ``body``."""
    out = set()

    class V(c_ast.NodeVisitor):
        def visit_Assignment(self, n):
            if isinstance(n.lvalue, c_ast.ID):
                out.add(n.lvalue.name)
            self.generic_visit(n)

        def visit_UnaryOp(self, n):
            if n.op in ("++", "--", "p++", "p--", "&") and isinstance(n.expr, c_ast.ID):
                out.add(n.expr.name)
            self.generic_visit(n)
    V().visit(body)
    return out
