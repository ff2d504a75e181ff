"""The __attribute__s that mean something to cl2c (spec 6.11): a kernel's work-group
sizes, ``vec_type_hint``'s type, ``aligned`` on records and variables. Their arguments
are integer constant expressions, folded as array sizes are (folding.py), however they
are spelled (``8u``, ``4 * 2``, a macro)."""
from __future__ import annotations

from pycparser import c_ast
from pycparserext.ext_c_parser import AttributeSpecifier

from .. import declarators
from .. import types as ty
from ..device_limits import MAX_WORK_GROUP_SIZE, STORAGE_ALIGN
from ..parse import attribute_name
from .checker import Checker

# The kernel attributes whose three arguments are a work-group size.
_WORK_GROUP_SIZES = ("reqd_work_group_size", "work_group_size_hint")


def attributes_of(specs) -> list[c_ast.Node]:
    """Every attribute in ``specs``: a declaration's funcspec or a declarator's
    attribute list (AttributeSpecifiers, lists of attributes; words are skipped)."""
    out = []
    for spec in specs:
        if isinstance(spec, AttributeSpecifier):
            out += spec.exprlist.exprs
        elif isinstance(spec, c_ast.ExprList):
            out += spec.exprs
    return out


def _declarator_attributes(decl: c_ast.Decl) -> list[c_ast.Node]:
    """The attributes written after a variable's declarator (``float t[16]
    __attribute__((aligned(64)))``), which pycparserext keeps on its innermost TypeDecl."""
    return attributes_of([getattr(declarators.inner(decl.type), "attributes", None)])


class Attributes(Checker):
    def kernel_attributes(self, decl: c_ast.Decl) -> tuple[dict, str]:
        """{name: (x, y, z)} of a kernel's work-group size attributes (``vec_type_hint``
        checked for naming a type), and the kernel's attributes as CL_KERNEL_ATTRIBUTES
        tells them: as declared, without white space, space-separated (the sizes folded
        and the type's own name, as PoCL says them)."""
        attrs, written = {}, []
        for a in attributes_of(decl.funcspec or []):
            name = attribute_name(a)
            if name in _WORK_GROUP_SIZES:
                attrs[name] = self._work_group_size(name, a)
                written.append(f"{name}({','.join(str(n) for n in attrs[name])})")
            elif name == "vec_type_hint":
                written.append(f"{name}({self._vec_type_hint(a)})")
        return attrs, " ".join(written)

    def _work_group_size(self, name: str, a) -> tuple[int, int, int]:
        args = a.args.exprs if isinstance(a, c_ast.FuncCall) and a.args else []
        if len(args) != 3:
            self.error(f"'{name}' attribute requires exactly 3 arguments", a)
        sizes = []
        for i, arg in enumerate(args):
            value = self.const_int(arg)
            if value is None:
                self.error(f"'{name}' attribute requires parameter {i} to be an integer "
                           f"constant", arg)
            if value <= 0:
                self.error(f"'{name}' attribute must be greater than 0", arg)
            sizes.append(value)
        if name == "reqd_work_group_size" and sizes[0] * sizes[1] * sizes[2] > \
                MAX_WORK_GROUP_SIZE:
            self.error(f"'{name}' asks for {sizes[0] * sizes[1] * sizes[2]} work-items a "
                       f"group; a work-group holds at most {MAX_WORK_GROUP_SIZE}", a)
        return tuple(sizes)

    def _vec_type_hint(self, a) -> ty.Type:
        args = a.args.exprs if isinstance(a, c_ast.FuncCall) and a.args else []
        if len(args) != 1:
            self.error("'vec_type_hint' attribute takes one argument, a type", a)
        if isinstance(args[0], c_ast.ID):
            self.error(f"unknown type name '{args[0].name}'", args[0])
        if not isinstance(args[0], c_ast.Typename):
            self.error("expected a type", args[0])
        return self.resolve(args[0])[0]

    def alignment(self, a) -> int | None:
        """The bytes of an ``aligned(N)`` attribute; None for a bare ``aligned``."""
        args = a.args.exprs if isinstance(a, c_ast.FuncCall) and a.args else []
        if not args:
            return None
        value = self.const_int(args[0])
        if value is None:
            self.error("'aligned' attribute requires integer constant", args[0])
        if value <= 0 or value & (value - 1):
            self.error("requested alignment is not a positive power of 2", args[0])
        return value

    def member_alignment(self, decl: c_ast.Decl) -> int:
        """The bytes a record member's ``aligned(N)`` asks (0: none)."""
        wanted = [self.alignment(a) for a in
                  attributes_of(decl.funcspec or []) + _declarator_attributes(decl)
                  if attribute_name(a) == "aligned"]
        return max((n for n in wanted if n is not None), default=0)

    def variable_alignment(self, decl: c_ast.Decl, t: ty.Type, space: str) -> None:
        """A variable's ``aligned(N)``, as C11's ``_Alignas(N)`` on its declaration
        (where it asks more than its type's alignment: C cannot ask less)."""
        wanted = [self.alignment(a) for a in
                  attributes_of(decl.funcspec or []) + _declarator_attributes(decl)
                  if attribute_name(a) == "aligned"]
        align = max((n for n in wanted if n is not None), default=0)
        if align <= ty.type_align(t):
            return
        if align > STORAGE_ALIGN and space in ("local", "global"):
            self.error(f"requested alignment {align} is more than cl2c gives __{space} "
                       f"variables ({STORAGE_ALIGN} bytes)", decl)
        decl.align = [c_ast.Alignas(c_ast.Constant("int", str(align)), decl.coord)]
