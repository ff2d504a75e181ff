"""What may be assigned and converted (spec 6.2-6.5): lvalues and what makes one
read-only, implicit pointer conversions and pointer casts between address spaces."""
from __future__ import annotations

from pycparser import c_ast

from .. import types as ty
from .checker import Checker


class Assignability(Checker):
    def check_assignable(self, node):
        t = node.ty
        lvalue = isinstance(node, (c_ast.ArrayRef, c_ast.StructRef)) or \
            isinstance(node, c_ast.UnaryOp) and node.op == "*" or \
            isinstance(node, c_ast.ID) and getattr(node.symbol, "kind", None) in ("var",
                                                                                 "param")
        if not lvalue:
            self.error("expression is not assignable", node)
        self._check_const_members(node, t)
        # Walk from the lvalue to the object it is part of: a variable, or memory
        # through a pointer. Either may be read-only.
        root = node
        while isinstance(root, c_ast.StructRef) and root.type == "." or \
                isinstance(root, c_ast.ArrayRef) and \
                isinstance(root.name.ty, ty.Array):
            root = root.name
        sym = root.symbol if isinstance(root, c_ast.ID) else None
        if sym is not None and sym.const and not isinstance(sym.type, ty.Pointer):
            what = "memory in the __constant address space" if sym.space == "constant" else \
                f"variable '{sym.name}' with const-qualified type"
            self.error(f"cannot assign to {what}", node)
        inner = root.name if isinstance(root, (c_ast.ArrayRef, c_ast.StructRef)) else \
            root.expr if isinstance(root, c_ast.UnaryOp) and root.op == "*" else None
        pt = inner.ty if inner is not None else None
        if isinstance(pt, ty.Pointer):
            if pt.space == "constant":
                self.error("cannot assign to memory in the __constant address space", node)
            if pt.const:
                self.error("cannot assign to a const-qualified location", node)
        comps = node.components
        if comps is not None and len(set(comps)) != len(comps):
            self.error("vector is not assignable (contains duplicate components)", node)
        if t is not None and isinstance(t, ty.Array):
            self.error("array type is not assignable", node)

    def _check_const_members(self, node, t) -> None:
        """A member declared const, or a struct holding one (C11 6.3.2.1: not a
        modifiable lvalue), anywhere in the member chain from ``node`` down."""
        member = t.read_only_member() if isinstance(t, ty.Record) else None
        if member is not None:
            self.error(f"cannot assign to a value of type '{t}' with const-qualified "
                       f"member '{member}'", node)
            return
        n = node
        while isinstance(n, (c_ast.StructRef, c_ast.ArrayRef)):
            if isinstance(n, c_ast.StructRef):
                rec = n.name.ty.pointee if n.type == "->" and \
                    isinstance(n.name.ty, ty.Pointer) else n.name.ty
                if isinstance(rec, ty.Record) and \
                        rec.read_only_member(n.field.name) is not None:
                    self.error(f"cannot assign to non-static data member "
                               f"'{n.field.name}' with const-qualified type", node)
                    return
                if n.type == "->":
                    return
            elif not isinstance(n.name.ty, ty.Array):
                return
            n = n.name

    @staticmethod
    def incompatible(target, value) -> bool:
        """A value of type ``value`` does not convert implicitly to ``target``: vectors
        of another type, a vector or a record to a scalar, another struct or union, a
        pointer to or from a vector or a record (spec 6.2: a scalar does convert to a
        vector); an image, a sampler_t or an event_t to or from any other type."""
        objects = ty.RUNTIME_OBJECTS
        return ((isinstance(target, objects) or isinstance(value, objects)) and
                target != value) or \
            (target.is_vector and value.is_vector and target != value) or \
            (target.is_scalar and (value.is_vector or isinstance(value, ty.Record))) or \
            (isinstance(target, ty.Record) and target != value) or \
            (isinstance(value, ty.Pointer) and (target.is_vector or
                                                  isinstance(target, ty.Record))) or \
            (isinstance(target, ty.Pointer) and (value.is_vector or
                                                 isinstance(value, ty.Record)))

    def check_pointer_conversion(self, target, value, value_node, node, what):
        """Implicit pointer conversions keep the address space (spec 6.5), except to the
        generic one (OpenCL C 2.0) and for null pointer constants. A pointer and an
        integer do not convert implicitly (clang: an error in OpenCL C)."""
        if isinstance(value, ty.Pointer) and target.is_arithmetic and target != ty.BOOL:
            self.error(f"incompatible pointer to integer conversion {what} '{target}' "
                       f"from '{value}'", node)
        if isinstance(target, ty.Pointer) and value.is_arithmetic and \
                not self._null_pointer(value_node):
            self.error(f"incompatible integer to pointer conversion {what} '{target}' "
                       f"from '{value}'", node)
        if not (isinstance(target, ty.Pointer) and isinstance(value, ty.Pointer)):
            return
        if not (target.space == value.space or target.space == "generic" and
                value.space != "constant" or self._null_pointer(value_node)):
            self.error(f"{what} '{target}' from '{value}' changes the address space of the "
                       f"pointer", node)
        if not _compatible_pointees(target.pointee, value.pointee):
            self.reporter.warning("incompatible pointer types " + _INCOMPATIBLE[
                what.split()[0]].format(target=target, value=value), node.coord)

    def _null_pointer(self, node) -> bool:
        while isinstance(node, c_ast.Cast):
            node = node.expr
        return self.const_int(node) == 0

    def _check_pointer_cast(self, src: ty.Pointer, t: ty.Pointer, node):
        """OpenCL C 2.0 (6.5.5): a cast may change a pointer's address space only to or
        from the generic one, and never for __constant (which generic does not cover)."""
        spaces = {src.space, t.space}
        if len(spaces) == 2 and ("generic" not in spaces or "constant" in spaces):
            self.error(f"casting '{src}' to '{t}' changes the address space of the pointer "
                       f"(only to or from the generic address space, not __constant)", node)


# clang's -Wincompatible-pointer-types, by the conversion's kind (check_pointer_conversion's
# ``what``)
_INCOMPATIBLE = {
    "initializing": "initializing '{target}' with an expression of type '{value}'",
    "assigning": "assigning to '{target}' from '{value}'",
    "passing": "passing '{value}' to parameter of type '{target}'",
    "returning": "returning '{value}' from a function with result type '{target}'"}


def _compatible_pointees(a: ty.Type, b: ty.Type) -> bool:
    """Pointers to ``a`` and ``b`` convert implicitly without clang's warning of
    incompatible pointer types: the same type, void, or (-Wpointer-sign, which cl2c
    leaves to clang) integers that differ only in sign. Below the first level only
    qualifiers may differ (another clang warning's)."""
    if a == b or ty.VOID in (a, b):
        return True
    if isinstance(a, ty.Pointer) and isinstance(b, ty.Pointer):
        return _unqualified(a) == _unqualified(b)
    integers = [isinstance(t, (ty.Scalar, ty.Enum)) and t.is_integer and t != ty.BOOL
                for t in (a, b)]
    return all(integers) and ty.type_size(a) == ty.type_size(b)


def _unqualified(t: ty.Type) -> ty.Type:
    if isinstance(t, ty.Pointer):
        return ty.Pointer(_unqualified(t.pointee), t.space)
    return t
