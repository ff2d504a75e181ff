"""Expressions: operators, conversions, swizzles, lvalues (spec 6.2-6.3)."""
from __future__ import annotations

from pycparser import c_ast

from .. import builtins as bi
from .. import literals
from .. import types as ty
from .checker import Checker
from .model import Symbol, components_of, constant_type
from .type_names import incomplete


# Types no cast makes or takes apart from themselves: records, images, samplers, events.
_NOT_CAST = (ty.Record, *ty.RUNTIME_OBJECTS)


class Expressions(Checker):
    # the operand of a unary & being typed: its element's address is taken, no half
    # value loaded (``&f[i]``, ``&*p``: pointer arithmetic, spec 6.1.1.1)
    _address_of = None

    # ---- expressions -------------------------------------------------------------------
    def expr(self, node) -> ty.Type:
        method = getattr(self, "expr_" + type(node).__name__, None)
        if method is None:
            self.error(f"unsupported expression {type(node).__name__}", node)
        t = method(node)
        node.ty = t
        return t

    def rvalue(self, node) -> ty.Type:
        """The type of an expression after array-to-pointer decay."""

        t = self.expr(node)
        if isinstance(t, ty.Atomic):
            self._atomic_access(t, node)
        if isinstance(t, ty.Array):
            sym = self._base_symbol(node)
            space = sym.space if sym else "private"
            return ty.Pointer(t.elem, space, sym.const if sym else False)
        return t

    def _atomic_access(self, t, node):
        self.error(f"an object of type '{t}' is read and written only by the atomic "
                   f"functions (atomic_load, atomic_store, atomic_init, ...; OpenCL C "
                   f"6.13.11)", node)

    def _base_symbol(self, node) -> Symbol | None:
        while isinstance(node, (c_ast.ArrayRef, c_ast.StructRef)):
            node = node.name
        if isinstance(node, c_ast.ID):
            return node.symbol
        return None

    def expr_Constant(self, node):
        if "'" in node.value or node.type == "string":
            if literals.hex_escape_without_digits(node.value):
                self.error("\\x used with no following hex digits", node)
            if node.type != "string" and literals.char_count(node.value) != 1:
                # (clang's warning; the C gets the value, for no warning of its own)
                self.reporter.warning("multi-character character constant", node.coord)
                node.value, node.type = str(literals.char_value(node.value)), "int"
        t = constant_type(node)
        if t.is_float and node.type not in ("char", "string"):
            wrong = literals.float_out_of_range(node.value)
            if wrong == "overflow":
                self.reporter.warning(f"magnitude of floating-point constant too large for "
                                      f"type '{t}': it is infinity", node.coord)
            elif wrong == "underflow":
                self.reporter.warning(f"magnitude of floating-point constant too small for "
                                      f"type '{t}': it is zero", node.coord)
        if t.is_integer and node.type not in ("char", "string") and \
                literals.integer_value(node.value) >= 1 << 64:
            self.error("integer literal is too large to be represented in any integer "
                       "type", node)
        if t == ty.DOUBLE and "cl_khr_fp64" not in self.offered:
            # as clang: a device without double reads 1.0 as 1.0f (spec 6.1.1.1)
            self.reporter.warning("double precision constant requires cl_khr_fp64, "
                                  "casting to single precision", node.coord)
            node.value, node.type = node.value + "f", "float"
            return ty.FLOAT
        return t

    def expr_ID(self, node):
        sym = self.lookup(node.name)
        if sym is None:
            if node.name in bi.CONSTANTS and bi.CONSTANTS[node.name][2] <= self.cl_std:
                t, c_name, _ = bi.CONSTANTS[node.name]
                sym = Symbol(node.name, t, "const", c_name=c_name)
            elif node.name in bi.BY_NAME or node.name in bi.NOT_YET or node.name == "printf":
                self.error(f"built-in function '{node.name}' used as a value", node)
            else:
                self.error(f"use of undeclared identifier '{node.name}'", node)
        if sym.kind == "typedef":
            self.error(f"unexpected type name '{node.name}': expected expression", node)
        if sym.kind == "func":
            self.error(f"function '{node.name}' used as a value (OpenCL C has no function "
                       f"pointers)", node)
        node.symbol = sym
        if sym.kind == "var" and "extern" in (getattr(sym.node, "storage", None) or []):
            self.module.extern_uses.setdefault(node.name, node)
        if sym.kind == "param" and self.func is not None:
            self.func.used_params.add(sym.name)
        if sym.in_program_storage and self.func is not None:
            self.func.workitem = self.func.globals = True
        return sym.type

    def expr_ArrayRef(self, node):
        base = self.rvalue(node.name)
        index = self.rvalue(node.subscript)
        if isinstance(index, ty.Pointer) and not isinstance(base, ty.Pointer):
            base, index = index, base
        if not isinstance(base, ty.Pointer):
            if isinstance(base, ty.Vector):
                self.error("subscripted value is a vector: use .sN or .xyzw", node)
            self.error("subscripted value is not an array or pointer", node)
        if not index.is_integer or index.is_vector:
            self.error("array subscript is not an integer", node.subscript)
        if base.pointee == ty.VOID or incomplete(base.pointee):
            self.error(f"subscript of pointer to incomplete type '{base.pointee}'", node)
        if node is not self._address_of:
            self._check_not_half(base.pointee, node)
        return base.pointee

    def _check_not_half(self, t, node):
        """Without cl_khr_fp16, half values are read and written only through
        vload_half and vstore_half (spec 6.1.1.1)."""
        if ty.scalar_of(t) == ty.HALF and not self.fp16:
            self.error(f"loading or storing '{t}' directly needs '#pragma OPENCL EXTENSION "
                       f"cl_khr_fp16 : enable' (or use vload_half / vstore_half)", node)

    def expr_StructRef(self, node):
        base = self.rvalue(node.name)
        field_name = node.field.name
        if node.type == "->":
            if not isinstance(base, ty.Pointer):
                self.error(f"member reference type '{base}' is not a pointer", node)
            base = base.pointee
        if isinstance(base, ty.Vector):
            idx = components_of(field_name, base.n)
            if idx is None or (field_name[0] in "xyzw" and not all(c in "xyzw" for c in
                                                                    field_name)):
                self.error(f"vector component access '.{field_name}' is invalid for "
                           f"'{base}'", node.field)
            if len(idx) not in (1, 2, 3, 4, 8, 16):
                self.error(f"vector component access '.{field_name}' selects {len(idx)} "
                           f"components", node.field)
            node.components = idx
            return ty.vector_of(base.elem, len(idx))
        if not isinstance(base, ty.Record):
            self.error(f"member reference base type '{base}' is not a structure or union", node)
        ft = base.field_type(field_name)
        if ft is None:
            self.error(f"no member named '{field_name}' in '{base}'", node.field)
        return ft

    def expr_UnaryOp(self, node):
        op = node.op
        if op == "sizeof":
            if isinstance(node.expr, c_ast.Typename):
                t, _, _ = self.resolve(node.expr)
                node.expr.ty = t
            else:
                t = self.expr(node.expr)
            if incomplete(t) or isinstance(t, ty.Array) and t.length is None:
                self.error(f"invalid application of 'sizeof' to an incomplete type '{t}'",
                           node)
            if t.is_void:       # (GCC's C says 1)
                self.error("invalid application of 'sizeof' to a void type", node)
            return ty.SIZE_T
        if op == "vec_step":
            return ty.INT
        if op == "&":
            self._address_of = node.expr
            try:
                t = self.expr(node.expr)
            finally:
                self._address_of = None
            if not isinstance(node.expr, (c_ast.ID, c_ast.ArrayRef, c_ast.StructRef,
                                          c_ast.CompoundLiteral)) and \
                    not (isinstance(node.expr, c_ast.UnaryOp) and node.expr.op == "*"):
                self.error(f"cannot take the address of an rvalue of type '{t}'", node)
            sym = self._base_symbol(node.expr)
            space = sym.space if sym else "private"
            if isinstance(node.expr, c_ast.UnaryOp) and node.expr.op == "*":
                inner = node.expr.expr.ty
                if isinstance(inner, ty.Pointer):
                    space = inner.space
            elif isinstance(node.expr, (c_ast.ArrayRef, c_ast.StructRef)):
                base = node.expr
                while isinstance(base, (c_ast.ArrayRef, c_ast.StructRef)):
                    if isinstance(base, c_ast.ArrayRef):
                        bt = base.name.ty
                        if isinstance(bt, ty.Pointer):
                            space = bt.space
                            break
                    elif base.type == "->":
                        bt = base.name.ty
                        if isinstance(bt, ty.Pointer):
                            space = bt.space
                            break
                    base = base.name
            if node.expr.components is not None:
                self.error("address of vector element requested", node)
            return ty.Pointer(t, space, sym.const if sym else False)
        t = self.rvalue(node.expr)
        if op == "*":
            if not isinstance(t, ty.Pointer):
                self.error(f"indirection requires pointer operand ('{t}' invalid)", node)
            if node is not self._address_of:
                self._check_not_half(t.pointee, node)
            return t.pointee
        if op in ("++", "--", "p++", "p--"):
            if t == ty.VOID:
                self.error(f"cannot {'increment' if '+' in op else 'decrement'} value of type "
                           f"'void'", node)
            if t.is_float:
                self.error(f"cannot {'increment' if '+' in op else 'decrement'} value of type "
                           f"'{t}' (++ and -- do not apply to floating-point types, spec "
                           f"6.3.c)", node)
            self.check_assignable(node.expr)
            return t
        if op in ("!", "-", "+", "~") and (t.is_void or isinstance(t, ty.Record)):
            self.error(f"invalid argument type '{t}' to unary expression", node)
        if op == "!":
            if t.is_vector:
                return self._mask_type(t)
            return ty.INT
        if op in ("-", "+"):
            if not (t.is_scalar or t.is_vector):
                self.error(f"invalid argument type '{t}' to unary expression", node)
            return ty.integer_promote(t) if t.is_scalar else t
        if op == "~":
            if t.is_float or not (t.is_scalar or t.is_vector):       # (a pointer: fuzzer)
                self.error(f"invalid argument type '{t}' to unary expression", node)
            return ty.integer_promote(t) if t.is_scalar else t
        self.error(f"unsupported operator '{op}'", node)

    def _mask_type(self, t: ty.Vector) -> ty.Vector:
        return ty.Vector({1: ty.CHAR, 2: ty.SHORT, 4: ty.INT, 8: ty.LONG}[t.elem.size], t.n)

    def binary_vector(self, node, a, b, op):
        """The type of a binary operation with at least one vector operand (spec 6.2.6):
        vectors of one type, or a vector and a scalar of no greater rank than its element
        type, which is converted and widened."""
        if a.is_vector and b.is_vector:
            if a != b:
                self.error(f"implicit conversions between vector types ('{a}' and '{b}') are "
                           f"not permitted", node)
            return a
        v, s = (a, b) if a.is_vector else (b, a)
        if not s.is_scalar or s.is_void:
            self.error(f"invalid operands to binary expression ('{a}' and '{b}')", node)
        if op not in ("<<", ">>") and ty.opencl_rank(s) > ty.opencl_rank(v.elem):
            self.error(f"scalar operand type '{s}' has greater rank than the type of the "
                       f"vector element ('{v}')", node)
        return v

    def expr_BinaryOp(self, node):
        return self.binary_type(node, node.op, self.rvalue(node.left), self.rvalue(node.right))

    def binary_type(self, node, op, a, b):
        """The type of ``a op b`` (also of the ``op`` of a compound assignment)."""
        if op in ("&&", "||"):
            if a.is_vector or b.is_vector:
                return self._mask_type(self.binary_vector(node, a, b, op))
            if any(x.is_void or not (x.is_scalar or isinstance(x, ty.Pointer)) for x in (a, b)):
                self.error(f"invalid operands to binary expression ('{a}' and '{b}')", node)
            return ty.INT
        if a.is_vector or b.is_vector:
            v = self.binary_vector(node, a, b, op)
            if op in ("<", ">", "<=", ">=", "==", "!="):
                return self._mask_type(v)
            if op in ("%", "&", "|", "^", "<<", ">>") and v.is_float:
                self.error(f"invalid operands to binary expression ('{a}' and '{b}')", node)
            if op in ("<<", ">>") and a.is_scalar:
                self.error("a vector shift count needs a vector left operand", node)
            return v
        if isinstance(a, ty.Pointer) or isinstance(b, ty.Pointer):
            other = b if isinstance(a, ty.Pointer) else a
            if op in ("<", ">", "<=", ">=", "==", "!=") and \
                    (isinstance(other, ty.Pointer) or other.is_integer):
                return ty.INT
            if op == "-" and isinstance(a, ty.Pointer) and isinstance(b, ty.Pointer):
                return ty.PTRDIFF_T
            if op in ("+", "-") and isinstance(a, ty.Pointer) and b.is_integer:
                return a
            if op == "+" and isinstance(b, ty.Pointer) and a.is_integer:
                return b
            self.error(f"invalid operands to binary expression ('{a}' and '{b}')", node)
        if not (a.is_arithmetic and b.is_arithmetic):
            self.error(f"invalid operands to binary expression ('{a}' and '{b}')", node)
        if op in ("<", ">", "<=", ">=", "==", "!="):
            return ty.INT
        if op in ("<<", ">>"):
            if a.is_float or b.is_float:
                self.error(f"invalid operands to binary expression ('{a}' and '{b}')", node)
            return ty.integer_promote(a)
        if op in ("%", "&", "|", "^") and (a.is_float or b.is_float):
            self.error(f"invalid operands to binary expression ('{a}' and '{b}')", node)
        return ty.arithmetic_result(a, b)

    def expr_Assignment(self, node):
        target = self.expr(node.lvalue)
        if isinstance(target, ty.Atomic):
            self._atomic_access(target, node)
        value = self.rvalue(node.rvalue)
        self.check_assignable(node.lvalue)
        if isinstance(target, ty.Sampler):      # (OpenCL C 6.12.14.1: a sampler is set once)
            self.error(f"invalid operands to binary expression ('{target}' and '{value}')",
                       node)
        if target == ty.VOID:
            self.error("incomplete type 'void' is not assignable", node.lvalue)
        if value == ty.VOID:
            self.error(f"assigning to '{target}' from incompatible type 'void'", node)
        if node.op != "=":
            value = self.binary_type(node, node.op[:-1], target, value)
        self.check_pointer_conversion(target, value, node.rvalue, node, "assigning to")
        if self.incompatible(target, value):
            self.error(f"assigning to '{target}' from incompatible type '{value}'", node)
        return target

    def expr_TernaryOp(self, node):
        c = self.rvalue(node.cond)
        a = self.rvalue(node.iftrue)
        b = self.rvalue(node.iffalse)
        if c.is_vector:
            # Per component: select(b, a, c), on the sign bit of c (spec 6.3.i).
            if not c.is_integer:
                self.error(f"used type '{c}' where floating point type is not allowed "
                           f"(a vector condition must be an integer vector)", node.cond)
            if a.is_vector or b.is_vector:
                t = self.binary_vector(node, a, b, "?:")
            elif a.is_arithmetic and b.is_arithmetic:
                t = ty.Vector(ty.arithmetic_result(a, b), c.n)
            else:
                self.error(f"invalid operands to a vector '?:' ('{a}' and '{b}')", node)
            if t.n != c.n or t.elem.size != c.elem.size:
                self.error(f"vector condition type '{c}' and result type '{t}' do not have "
                           f"elements of the same number and size", node)
            return t
        if a.is_vector or b.is_vector:
            return self.binary_vector(node, a, b, "?:")
        if a.is_arithmetic and b.is_arithmetic:
            return ty.arithmetic_result(a, b)
        if isinstance(a, ty.Pointer):
            return a
        if isinstance(b, ty.Pointer):
            return b
        return a

    def expr_Cast(self, node):
        t, _, _ = self.resolve(node.to_type)
        node.to_type.ty = t
        if isinstance(node.expr, c_ast.ExprList) and t.is_vector:
            # A vector literal: (float4)(a, b.xy, c)
            total = 0
            for e in node.expr.exprs:
                et = self.rvalue(e)
                if et.is_vector:
                    if et.elem != t.elem:
                        self.error(f"vector literal component of type '{et}' does not match "
                                   f"'{t}'", e)
                    total += et.n
                elif et.is_scalar and not et.is_void:
                    total += 1
                else:
                    self.error(f"invalid vector literal component of type '{et}'", e)
            if total != t.n and not (total == 1 and len(node.expr.exprs) == 1):
                self.error(f"vector literal of type '{t}' needs {t.n} components, "
                           f"{total} given", node)
            node.expr.ty = t
            return t
        if t.is_function or isinstance(t, ty.Array):    # `(int4())x`: C refuses it
            self.error(f"used type '{t}' where arithmetic or pointer type is required", node)
        src = self.rvalue(node.expr)
        if incomplete(t):
            self.error(f"cast to incomplete type '{t}'", node)
        elif not t.is_void and t != src and (src.is_void or isinstance(src, _NOT_CAST)):
            # C99 6.5.4: the operand of a cast to a type other than void is scalar (an
            # image, a sampler or an event is none in OpenCL C, though C holds them so)
            self.error(f"operand of type '{src}' where arithmetic or pointer type is "
                       f"required", node.expr)
        elif isinstance(t, _NOT_CAST) and t != src and not (
                t == ty.EVENT_T and src.is_integer and self.const_int(node.expr) == 0):
            # ((event_t)0, no event, is clang's too)
            self.error(f"used type '{t}' where arithmetic or pointer type is required", node)
        elif (isinstance(src, ty.Pointer) and t.is_vector) or \
                (isinstance(t, ty.Pointer) and src.is_vector):
            vector, pointer = (t, src) if t.is_vector else (src, t)
            self.error(f"invalid conversion between vector type '{vector}' and scalar type "
                       f"'{pointer}'", node)
        elif isinstance(src, ty.Pointer) and t.is_float:
            # C99 6.5.4: no cast between a pointer and a floating type
            self.error(f"pointer cannot be cast to type '{t}'", node.expr)
        elif isinstance(t, ty.Pointer) and src.is_float:
            self.error(f"operand of type '{src}' cannot be cast to a pointer type", node.expr)
        self._check_not_half(t, node)
        if isinstance(t, ty.Pointer) and isinstance(src, ty.Pointer):
            if self.cl_std.generic_address_space:
                self._check_pointer_cast(src, t, node)
            elif src.space != t.space:
                # OpenCL C 1.2 (6.5): a pointer keeps its address space, cast or not
                self.error(f"casting '{src}' to type '{t}' changes address space of "
                           f"pointer", node)
        if t.is_vector and src.is_vector and t != src:
            self.error(f"invalid conversion between vector types '{src}' and '{t}'", node)
        if t.is_scalar and src.is_vector:
            self.error(f"invalid conversion from vector '{src}' to scalar '{t}'", node)
        return t

    def expr_ExprList(self, node):
        t = ty.VOID
        for e in node.exprs:
            t = self.rvalue(e)
        return t

    def expr_CompoundLiteral(self, node):
        if node.coord is None:          # (pycparser gives a compound literal none)
            node.coord = node.type.coord
        t, _, _ = self.resolve(node.type)
        if incomplete(t) and not isinstance(t, ty.Array):     # (fuzzer seed 7706)
            self.error(f"variable has incomplete type '{t}'", node)
        node.init = self.init_list(node.init, t)
        return t

    def expr_InitList(self, node):
        for e in node.exprs:
            self.expr(e)
        return ty.VOID

    def expr_Typename(self, node):
        t, _, _ = self.resolve(node)
        return t
