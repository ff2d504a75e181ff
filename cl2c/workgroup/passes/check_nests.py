"""What check_versions.py reads in the C of a nest (a uniform loop's header, the
declarations at the head of a work-item's body) and the small pieces of C it builds its
tests from."""
from __future__ import annotations

import copy

from pycparser import c_ast

from ...literals import integer_value
from ...typed_ast import changed_names, fact, walk  # (changed_names: re-exported)
from ..builders.syntax import statements
from .. import write
from ..names import CHECK_ITEM, L0

COUNTER = L0               # the work-item loop's counter
ITEM = CHECK_ITEM


def item_head(body) -> list:
    """The declarations at the head of a work-item loop's body (its cl2c_ck_item call
    aside)."""
    out = []
    for s in body:
        if isinstance(s, c_ast.Decl):
            out.append(s)
        elif not is_item_call(s):
            break
    return out


def is_increment(x, name: str) -> bool:
    return isinstance(x, c_ast.UnaryOp) and x.op in ("++", "p++") and is_id(x.expr, name)


def counted_loop(s, name=None):
    """(counter, first, end, C type, body) of ``for (T i = first; i < end; ++i) body``,
    or of ``for (i = first; ...)`` with ``i`` a variable of integer type T declared
    before (C89 style, as the seeds' kernels are written)."""
    if not isinstance(s, c_ast.For):
        return None
    if isinstance(s.init, c_ast.DeclList) and len(s.init.decls) == 1:
        d = s.init.decls[0]
        if d.init is None or not isinstance(d.type, c_ast.TypeDecl) or \
                not isinstance(d.type.type, c_ast.IdentifierType):
            return None
        counter, first, ctype = d.name, d.init, " ".join(d.type.type.names)
    elif isinstance(s.init, c_ast.Assignment) and s.init.op == "=" and \
            isinstance(s.init.lvalue, c_ast.ID) and integer_typename(s.init.lvalue):
        counter, first = s.init.lvalue.name, s.init.rvalue
        ctype = fact(s.init.lvalue, "ty").name
    else:
        return None
    if name is not None and counter != name:
        return None
    if not (isinstance(s.cond, c_ast.BinaryOp) and s.cond.op == "<" and
            is_id(s.cond.left, counter) and is_increment(s.next, counter)):
        return None
    return counter, first, s.cond.right, ctype, s.stmt


def uniform_loop(s):
    """A uniform loop of the group's own code around rows: ``for (int i = a; i < b;
    ++i) { rows }`` whose body changes no i."""
    loop = counted_loop(s)
    if loop is None or loop[0].startswith("cl2c_") or loop[3] != "int":
        return None
    name, first, end, ctype, body = loop
    items = statements(body)
    if len(items) != 1 or name in changed_names(body):
        return None
    return name, first, end, ctype, items[0]


def is_phase(n) -> bool:
    return isinstance(n, c_ast.FuncCall) and called(n) == "cl2c_ck_phase"




def called(n: c_ast.FuncCall) -> str:
    return n.name.name if isinstance(n.name, c_ast.ID) else ""


def is_item_call(s) -> bool:
    return isinstance(s, c_ast.FuncCall) and called(s) == ITEM


def is_id(x, name: str) -> bool:
    return isinstance(x, c_ast.ID) and x.name == name


def integer_typename(t) -> bool:
    """A type name (or, as ``integer_decl``, a declaration) of an integer type, by its
    fact (one a pass made without a fact is none)."""
    ty = fact(t, "ty")
    return ty is not None and ty.is_scalar and ty.is_integer


integer_decl = integer_typename


def int_constant(x) -> int | None:
    if isinstance(x, c_ast.Constant) and x.type == "int":
        return integer_value(x.value)
    return None


def long_long_type():
    return c_ast.Typename(None, [], None, c_ast.TypeDecl(
        None, [], None, c_ast.IdentifierType(["long", "long"])))


def type_named(name: str):
    return c_ast.Typename(None, [], None, c_ast.TypeDecl(
        None, [], None, c_ast.IdentifierType(name.split())))


def as_long_long(e):
    return c_ast.Cast(long_long_type(), copy.deepcopy(e))


def size_t_type():
    return c_ast.Typename(None, [], None, c_ast.TypeDecl(
        None, [], None, c_ast.IdentifierType(["size_t"])))


def parse_expr(text: str):
    return parse_decls(f"x = {text};")[0].rvalue


def char_pointer_type():
    return c_ast.Typename(None, ["const"], None, c_ast.PtrDecl([], c_ast.TypeDecl(
        None, ["const"], None, c_ast.IdentifierType(["char"]))))


def declaration(type_text: str, name: str, init) -> c_ast.Decl:
    d = parse_decls(f"{type_text} {name};")[0]
    d.init = init
    return d


def parse_decls(text: str) -> list:
    return write.snippet(text)


def parse_stmt(text: str):
    return parse_decls(text)[0]
