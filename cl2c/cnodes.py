"""Small constructors for the C AST that lowering passes build."""
from __future__ import annotations

from pycparser import c_ast

from . import declarators
from . import types as ty
from .typed_ast import fact, make

# the runtime's integer / and % helpers (scalars.h: cl2c_idiv_int, ...), which lowering
# calls and checking mode tests the divisor of
DIVISION_HELPERS = ("cl2c_idiv_", "cl2c_irem_")

# A vector value assigned to a private variable's components (v.xyz = x), held once
# in a block of its own (lower/expressions.py).
SWIZZLE_VALUE = "cl2c_x"

# How OpenCL scalars are spelled in C. int, short, float, double and the
# size types keep their names; the rest get exact-width runtime typedefs.
_C_SCALARS = {"int": "int", "short": "short", "float": "float", "double": "double",
              "void": "void", "bool": "_Bool", "size_t": "size_t", "ptrdiff_t": "ptrdiff_t",
              "intptr_t": "intptr_t", "uintptr_t": "uintptr_t"}


def c_type_name(t: ty.Type) -> str:
    """The C spelling of a scalar, vector or opaque type."""
    if isinstance(t, ty.Vector):
        return f"cl2c_{t.elem.name}{t.n}"
    if isinstance(t, ty.Enum):
        return "int"
    if isinstance(t, ty.Scalar):
        return _C_SCALARS.get(t.name, f"cl2c_{t.name}")
    if isinstance(t, (ty.Opaque, ty.Image, ty.Sampler)):     # images: cl2c_image2d_t, ...
        return f"cl2c_{t.name}"
    if isinstance(t, ty.Atomic):        # its value type: only the runtime's atomics use it
        return c_type_name(t.value)
    if isinstance(t, ty.Record):
        return f"{'union' if t.union else 'struct'} {t.tag}"
    raise ValueError(f"no C name for {t}")


def generic_suffix(t: ty.Type) -> str:
    """``float4`` for cl2c_<op>_float4 helper names."""
    return t.name


class LoopHint(c_ast.Pragma):
    """A pragma that cl2c writes itself to steer a C compiler's loop optimiser
    (``clang loop ...``), which the emitter prints as it is; a kernel's own pragmas of
    that kind (c_ast.Pragma) are comments in the C."""


def ident(name: str, coord=None) -> c_ast.ID:
    return c_ast.ID(name, coord)


def call(name: str, *args, coord=None) -> c_ast.FuncCall:
    return c_ast.FuncCall(ident(name, coord), c_ast.ExprList(list(args), coord), coord)


def const_int(value: int, coord=None) -> c_ast.Constant:
    return c_ast.Constant("int", str(value), coord)


def typename(t: ty.Type, coord=None) -> c_ast.Typename:
    """The type name of ``t``, which knows it is ``t``."""
    node = make(c_ast.Typename, None, [], None, declarator(t, None, coord), coord)
    node.ty = t
    return node


def declarator(t: ty.Type, name: str | None, coord=None):
    """A declarator chain that declares ``name`` with type ``t``."""
    if isinstance(t, ty.Pointer):
        inner = declarator(t.pointee, name, coord)
        if t.const:
            declarators.type_decl(inner).quals = ["const"]
        return c_ast.PtrDecl([], inner, coord)
    if isinstance(t, ty.Array):
        return c_ast.ArrayDecl(declarator(t.elem, name, coord),
                               None if t.length is None else const_int(t.length), [], coord)
    if isinstance(t, ty.Record) and t.tag:
        node = (c_ast.Union if t.union else c_ast.Struct)(t.tag, None, coord)
        return c_ast.TypeDecl(name, [], None, node, coord)
    return c_ast.TypeDecl(name, [], None, c_ast.IdentifierType([c_type_name(t)], coord), coord)


def cast(t: ty.Type, expr, coord=None) -> c_ast.Cast:
    return c_ast.Cast(typename(t, coord), expr, coord)


def address_of(expr, coord=None) -> c_ast.UnaryOp:
    return c_ast.UnaryOp("&", expr, coord)


def component(base, index: int, coord=None):
    """``base.s[index]``: one component of a vector value, an lvalue if base is."""
    return c_ast.ArrayRef(c_ast.StructRef(base, ".", ident("s", coord), coord),
                          const_int(index, coord), coord)


def expression_type(e):
    """The type of expression ``e`` (None where it has none): a cast's is its type
    name's, and an arithmetic operation that lowering made without one has its
    operands' common type."""
    if isinstance(e, c_ast.Cast):
        return fact(e.to_type, "ty")
    t = fact(e, "ty")
    if t is not None:
        return t
    if isinstance(e, c_ast.BinaryOp) and e.op in _TRUTH_VALUED or \
            isinstance(e, c_ast.UnaryOp) and e.op == "!":
        return ty.INT
    pair = (e.left, e.right) if isinstance(e, c_ast.BinaryOp) and e.op in "+-*" else \
        (e.iftrue, e.iffalse) if isinstance(e, c_ast.TernaryOp) else None
    types = pair and [expression_type(p) for p in pair]
    if pair is not None and _is_int(types[0]) and _is_int(types[1]):
        return ty.arithmetic_result(*types)
    if isinstance(e, c_ast.UnaryOp) and e.op in ("-", "+") and _is_int(expression_type(e.expr)):
        return ty.integer_promote(expression_type(e.expr))
    return None


_TRUTH_VALUED = ("<", "<=", ">", ">=", "==", "!=", "&&", "||")


def _is_int(t) -> bool:
    return isinstance(t, ty.Scalar) and t.kind == "int"
