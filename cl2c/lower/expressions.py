"""Lowering pass: OpenCL expressions to C expressions.

Vector operations become calls of runtime helpers (instantiated on demand:
``needs`` collects the macro lines the emitted file starts with), builtins get
their runtime names, shift counts are masked to the operand width (spec
6.3.j), scalars widen to vectors where OpenCL converts implicitly, and
comparisons of mixed signedness get the casts that C compilers would
otherwise warn about. Every method reads types from semantic analysis, which
keys them by the *original* node, so types are looked up before children are
replaced.
"""
from __future__ import annotations

import copy

from pycparser import c_ast

from .. import types as ty
from ..diagnostics import UnsupportedError
from ..sema import Module
from . import cnodes as cn

_BINARY_HELPERS = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "rem", "&": "and",
                   "|": "or", "^": "xor", "<<": "shl", ">>": "shr", "==": "eq", "!=": "ne",
                   "<": "lt", ">": "gt", "<=": "le", ">=": "ge", "&&": "land", "||": "lor"}
_COMPARISONS = ("==", "!=", "<", ">", "<=", ">=")


class Transformer:
    """Rebuilds a pycparser AST bottom-up: ``visit`` returns the replacement node."""

    def visit(self, node):
        if node is None:
            return None
        method = getattr(self, "lower_" + type(node).__name__, None)
        try:
            if method is not None:
                return method(node)
            return self.children(node)
        except UnsupportedError as e:
            if e.coord is None:     # the innermost node that knows its position
                e.coord = getattr(node, "coord", None)
            raise

    def children(self, node):
        for name, child in node.children():
            new = self.visit(child)
            if new is child:
                continue
            if name.endswith("]"):
                attr, index = name[:-1].split("[")
                getattr(node, attr)[int(index)] = new
            else:
                setattr(node, name, new)
        return node


class ExpressionLowering(Transformer):
    def __init__(self, module: Module):
        self.module = module
        self.needs: set[tuple] = set()
        self.func = None

    # ---- helpers -----------------------------------------------------------------
    def type_of(self, node) -> ty.Type | None:
        return self.module.types.get(id(node))

    def need(self, macro: str, *args) -> None:
        self.needs.add((macro,) + tuple(str(a) for a in args))

    def vec_helper(self, name: str, macro: str, t: ty.Vector) -> str:
        self.need(macro, t.elem.name, t.n)
        return f"cl2c_{name}_{t.name}"

    def splat(self, expr, t: ty.Vector, coord=None):
        self.need("CL2C_VEC_SPLAT", t.elem.name, t.n)
        return cn.call(f"cl2c_splat_{t.name}", expr, coord=coord)

    def coerce(self, expr, src: ty.Type | None, dst: ty.Type | None, coord=None):
        """Make OpenCL's implicit scalar-to-vector conversion explicit."""
        if isinstance(dst, ty.Vector) and src is not None and not isinstance(src, ty.Vector):
            if src != dst.elem:
                expr = cn.cast(dst.elem, expr, coord)
            return self.splat(expr, dst, coord)
        return expr

    def pure(self, node) -> bool:
        if isinstance(node, c_ast.FuncCall):
            call = self.module.calls.get(id(node))
            if call is None or call.kind in ("function", "printf"):
                return False
            args = node.args.exprs if node.args else []
            return all(self.pure(a) for a in args)
        if isinstance(node, (c_ast.Assignment,)):
            return False
        if isinstance(node, c_ast.UnaryOp) and node.op in ("++", "--", "p++", "p--"):
            return False
        return all(self.pure(c) for _, c in node.children())

    # ---- functions and declarations ------------------------------------------------
    def lower_FuncDef(self, node):
        self.func = self.module.functions.get(node.decl.name)
        node.body = self.visit(node.body)
        self.func = None
        return node

    def lower_Decl(self, node):
        t = self.module.decl_types.get(id(node), (None, None))[0]
        if node.init is not None:
            if isinstance(node.init, c_ast.InitList):
                node.init = self.init_list(node.init, t)
            else:
                src = self.type_of(node.init)
                node.init = self.coerce(self.visit(node.init), src, t, node.coord)
        if node.bitsize is not None:
            node.bitsize = self.visit(node.bitsize)
        node.type = self.visit(node.type)
        return node

    def lower_ArrayDecl(self, node):
        node.type = self.visit(node.type)
        # Dimensions are constant expressions: lowering keeps them, but for the
        # OpenCL-only ones among them (vec_step) it spells in C.
        node.dim = self.visit(node.dim)
        return node

    def init_list(self, node: c_ast.InitList, t: ty.Type):
        out = []
        for i, e in enumerate(node.exprs):
            target = ty.initializer_target(t, i)
            inner = e.expr if isinstance(e, c_ast.NamedInitializer) else e
            if isinstance(inner, c_ast.InitList):
                lowered = self.init_list(inner, target)
            else:
                lowered = self.coerce(self.visit(inner), self.type_of(inner), target)
            if isinstance(e, c_ast.NamedInitializer):
                e.expr = lowered
                out.append(e)
            else:
                out.append(lowered)
        node.exprs = out
        if isinstance(t, ty.Vector):
            # The runtime's vector is a struct holding an array: one more brace.
            return c_ast.InitList([node], node.coord)
        return node

    def lower_Struct(self, node):
        """A struct or union definition keeps its layout attributes in C (the C
        compiler lays it out): written before the tag, where C accepts them."""
        node = self.children(node)
        rec = self.module.records.get(id(node))
        if rec is None or not (rec.packed or rec.align_attr):
            return node
        attrs = ", ".join((["packed"] if rec.packed else []) +
                          ([f"aligned({rec.align_attr})"] if rec.align_attr else []))
        kind = c_ast.Union if rec.union else c_ast.Struct
        return kind(f"__attribute__(({attrs})) {rec.tag or ''}".rstrip(), node.decls,
                    node.coord)

    lower_Union = lower_StructExt = lower_UnionExt = lower_Struct

    def lower_Switch(self, node):
        node.cond = self.visit(node.cond)
        node.stmt = self.visit(node.stmt)
        mark_fallthrough(node)
        return node

    def lower_Return(self, node):
        if node.expr is not None:
            src = self.type_of(node.expr)
            ret = self.func.type.ret if self.func else None
            node.expr = self.coerce(self.visit(node.expr), src, ret, node.coord)
        return node

    # ---- expressions --------------------------------------------------------------------
    def lower_BinaryOp(self, node):
        t = self.type_of(node)
        lt, rt = self.type_of(node.left), self.type_of(node.right)
        left, right = self.visit(node.left), self.visit(node.right)
        op = node.op
        if isinstance(lt, ty.Vector) or isinstance(rt, ty.Vector):
            v = lt if isinstance(lt, ty.Vector) else rt
            left = self.coerce(left, lt, v, node.coord)
            right = self.coerce(right, rt, v, node.coord)
            name = _BINARY_HELPERS.get(op)
            if name is None:
                raise UnsupportedError(f"operator '{op}' on vectors is not supported yet")
            fn = self.vec_helper(name, f"CL2C_VEC_{name.upper()}", v)
            return cn.call(fn, left, right, coord=node.coord)
        if op in ("<<", ">>") and isinstance(t, ty.Scalar):
            right = self.shift_count(right, node.right, t)
            return c_ast.BinaryOp(op, left, right, node.coord)
        if op in _COMPARISONS and lt is not None and rt is not None and \
                lt.is_integer and rt.is_integer and lt.is_scalar and rt.is_scalar:
            common = ty.arithmetic_result(lt, rt)
            if ty.integer_promote(lt).signed != ty.integer_promote(rt).signed:
                left = cn.cast(common, left, node.coord)
                right = cn.cast(common, right, node.coord)
        if t == ty.HALF:
            # C may compute _Float16 operations in float (excess precision); the cast
            # rounds each one to half, as OpenCL does.
            return cn.cast(t, c_ast.BinaryOp(op, left, right, node.coord), node.coord)
        return c_ast.BinaryOp(op, left, right, node.coord)

    def shift_count(self, lowered, original, t: ty.Scalar):
        bits = t.bits
        if isinstance(original, c_ast.Constant):
            try:
                value = int(original.value.rstrip("uUlL"), 0)
            except ValueError:
                value = -1
            if 0 <= value < bits:
                return lowered
        return c_ast.BinaryOp("&", lowered, cn.const_int(bits - 1), original.coord)

    def lower_UnaryOp(self, node):
        op = node.op
        if op == "sizeof":
            node.expr = self.visit(node.expr)
            return node
        inner_t = self.type_of(node.expr)
        if isinstance(inner_t, ty.Vector) and op not in ("&", "*"):
            if op in ("++", "--", "p++", "p--"):
                comps = self.module.components.get(id(node.expr))
                if comps is not None:
                    return self.swizzle_incdec(node, comps, inner_t)
                self.need("CL2C_VEC_INCDEC", inner_t.elem.name, inner_t.n)
                name = {"++": "preinc", "--": "predec", "p++": "postinc", "p--": "postdec"}[op]
                return cn.call(f"cl2c_{name}_{inner_t.name}",
                               cn.address_of(self.visit(node.expr)), coord=node.coord)
            expr = self.visit(node.expr)
            if op == "+":
                return expr
            name = {"-": "neg", "~": "bnot", "!": "lnot"}[op]
            return cn.call(self.vec_helper(name, f"CL2C_VEC_{name.upper()}", inner_t), expr,
                           coord=node.coord)
        node.expr = self.visit(node.expr)
        return node

    def swizzle_incdec(self, node, comps, t: ty.Vector):
        """++/-- on a swizzle (v.xy++): the compound assignment v.xy += 1, whose value
        is the new one; a postfix form takes 1 back off it (exact: only integer types
        have ++, and their arithmetic wraps)."""
        one = c_ast.Constant("int", "1", node.coord)
        self.module.types[id(one)] = ty.INT
        self.module.nodes.append(one)
        op = "+=" if "+" in node.op else "-="
        update = c_ast.Assignment(op, node.expr, one, node.coord)
        self.module.types[id(update)] = t
        self.module.nodes.append(update)
        value = self.swizzle_assignment(update, comps, t, ty.INT)
        if not node.op.startswith("p"):
            return value
        undo = "sub" if op == "+=" else "add"
        return cn.call(self.vec_helper(undo, f"CL2C_VEC_{undo.upper()}", t), value,
                       self.splat(cn.const_int(1), t), coord=node.coord)

    def lower_StructRef(self, node):
        comps = self.module.components.get(id(node))
        if comps is None:
            node.name = self.visit(node.name)
            return node
        base, comps = self.swizzle_base(node, comps)
        base_t = self.vector_type_of(base)
        lowered = self.visit(base)
        if node.type == "->":
            lowered = c_ast.UnaryOp("*", lowered, node.coord)
        if len(comps) == 1:
            return cn.component(lowered, comps[0], node.coord)
        n = len(comps)
        self.need("CL2C_SWIZZLE", base_t.elem.name, base_t.n, n)
        return cn.call(f"cl2c_swz{n}_{base_t.name}", lowered,
                       *[cn.const_int(i) for i in comps], coord=node.coord)

    def vector_type_of(self, base) -> ty.Vector:
        t = self.type_of(base)
        if isinstance(t, ty.Pointer):
            t = t.pointee
        return t

    def swizzle_base(self, node, comps):
        """Fold nested swizzles (v.xyz.zx) into one selection from the innermost vector."""
        base = node.name
        while node.type == "." and id(base) in self.module.components:
            inner = self.module.components[id(base)]
            comps = [inner[i] for i in comps]
            node = base
            base = base.name
        return base, comps

    def lower_Assignment(self, node):
        op = node.op
        target_t = self.type_of(node.lvalue)
        value_t = self.type_of(node.rvalue)
        comps = self.module.components.get(id(node.lvalue))
        if comps is not None and len(comps) > 1:
            return self.swizzle_assignment(node, comps, target_t, value_t)
        if isinstance(target_t, ty.Vector):
            lv = self.visit(node.lvalue)
            rv = self.coerce(self.visit(node.rvalue), value_t, target_t, node.coord)
            if op == "=":
                return c_ast.Assignment("=", lv, rv, node.coord)
            if not self.pure(node.lvalue):
                raise UnsupportedError("compound assignment to a vector lvalue with side "
                                       "effects is not supported yet")
            name = _BINARY_HELPERS[op[:-1]]
            fn = self.vec_helper(name, f"CL2C_VEC_{name.upper()}", target_t)
            return c_ast.Assignment("=", lv, cn.call(fn, self._relower(node.lvalue), rv),
                                    node.coord)
        lv = self.visit(node.lvalue)
        rv = self.visit(node.rvalue)
        if op in ("<<=", ">>=") and isinstance(target_t, ty.Scalar):
            rv = self.shift_count(rv, node.rvalue, ty.integer_promote(target_t))
        return c_ast.Assignment(op, lv, rv, node.coord)

    def _relower(self, node):
        # Lowering mutates nodes in place; to use an lvalue twice, lower a fresh
        # copy whose nodes carry the same types.
        clone = copy.deepcopy(node)
        self._copy_types(node, clone)
        return self.visit(clone)

    def _copy_types(self, old, new):
        m = self.module
        for table in (m.types, m.components, m.symbols, m.calls):
            if id(old) in table:
                table[id(new)] = table[id(old)]
        m.nodes.append(new)
        for (_, a), (_, b) in zip(old.children(), new.children()):
            self._copy_types(a, b)

    def swizzle_assignment(self, node, comps, target_t, value_t):
        base, comps = self.swizzle_base(node.lvalue, comps)
        base_t = self.vector_type_of(base)
        if not self.pure(base):
            raise UnsupportedError("assignment to a swizzle of an expression with side effects "
                                   "is not supported yet")
        value = self.coerce(self.visit(node.rvalue), value_t, target_t, node.coord)
        if node.op != "=":
            name = _BINARY_HELPERS[node.op[:-1]]
            fn = self.vec_helper(name, f"CL2C_VEC_{name.upper()}", target_t)
            value = cn.call(fn, self._relower(node.lvalue), value)
        n = len(comps)
        self.need("CL2C_SWIZZLE_SET", base_t.elem.name, base_t.n, n)
        target = self._relower(base)
        if isinstance(node.lvalue, c_ast.StructRef) and node.lvalue.type == "->":
            ptr = target
        else:
            ptr = cn.address_of(target)
        return cn.call(f"cl2c_swzset{n}_{base_t.name}", ptr,
                       *[cn.const_int(i) for i in comps], value, coord=node.coord)

    def lower_Cast(self, node):
        t = self.type_of(node)
        if isinstance(t, ty.Vector):
            if isinstance(node.expr, c_ast.ExprList):
                parts = node.expr.exprs
                if len(parts) == 1 and not isinstance(self.type_of(parts[0]), ty.Vector):
                    return self.coerce(self.visit(parts[0]), self.type_of(parts[0]), t,
                                       node.coord)
                return self.vector_literal(t, parts, node.coord)
            src = self.type_of(node.expr)
            if isinstance(src, ty.Vector):
                return self.visit(node.expr)     # a cast to its own type
            value = self.visit(node.expr)
            if src == ty.BOOL and t.elem.is_integer:
                # A bool cast to an integer vector gives -1 (all bits set) for true
                # (spec 6.2.2).
                value = c_ast.UnaryOp("-", cn.cast(ty.INT, value, node.coord), node.coord)
            return self.coerce(cn.cast(t.elem, value, node.coord), t.elem, t, node.coord)
        node.expr = self.visit(node.expr)
        return node

    def vector_literal(self, t: ty.Vector, parts, coord):
        items = []
        for p in parts:
            pt = self.type_of(p)
            if isinstance(pt, ty.Vector):
                if not self.pure(p):
                    raise UnsupportedError("a vector literal part with side effects is not "
                                           "supported yet")
                lowered = self.visit(p)
                for k in range(pt.n):
                    items.append(cn.component(lowered if k == 0 else self._relower(p), k,
                                              coord))
            elif pt == t.elem:
                items.append(self.visit(p))
            else:
                items.append(cn.cast(t.elem, self.visit(p), coord))
        init = c_ast.InitList([c_ast.InitList(items, coord)], coord)
        return c_ast.CompoundLiteral(cn.typename(t, coord), init, coord)

    def lower_TernaryOp(self, node):
        t = self.type_of(node)
        ct = self.type_of(node.cond)
        at, bt = self.type_of(node.iftrue), self.type_of(node.iffalse)
        cond = self.visit(node.cond)
        a = self.coerce(self.visit(node.iftrue), at, t, node.coord)
        b = self.coerce(self.visit(node.iffalse), bt, t, node.coord)
        if isinstance(ct, ty.Vector):       # sema made t a vector of ct's width
            self.need("CL2C_VEC_TERNARY", t.elem.name, t.n, ct.elem.name)
            return cn.call(f"cl2c_ternary_{t.name}_{ct.elem.name}", cond, a, b,
                           coord=node.coord)
        return c_ast.TernaryOp(cond, a, b, node.coord)

    def lower_FuncCall(self, node):
        call = self.module.calls.get(id(node))
        args = node.args.exprs if node.args else []
        arg_types = [self.type_of(a) for a in args]
        lowered = [self.visit(a) for a in args]
        if call is None:
            return node
        if call.kind == "function":
            callee = self.module.functions.get(call.name)
            params = callee.type.params if callee else ()
            lowered = [self.coerce(a, at, pt, node.coord)
                       for a, at, pt in zip(lowered, arg_types, params)]
            return cn.call(call.name, *lowered, coord=node.coord)
        if call.kind == "builtin":
            return self.builtin(node, call, lowered, arg_types)
        if call.kind in ("convert", "as"):
            return self.conversion(node, call, lowered[0], arg_types[0])
        if call.kind == "vload":
            t = call.generic
            self.need("CL2C_VLOADSTORE", t.elem.name, t.n)
            return cn.call(f"cl2c_vload{t.n}_{t.elem.name}", *lowered, coord=node.coord)
        if call.kind == "vstore":
            t = call.generic
            self.need("CL2C_VLOADSTORE", t.elem.name, t.n)
            return cn.call(f"cl2c_vstore{t.n}_{t.elem.name}", *lowered, coord=node.coord)
        if call.kind == "vec_step":
            return cn.const_int(call.value, node.coord)
        if call.kind in ("vload_half", "vstore_half"):
            return cn.call(self.half_load_store(call), *lowered, coord=node.coord)
        if call.kind == "printf":
            return self.printf(node, call, lowered, arg_types)
        raise UnsupportedError(f"{call.name}() is not supported yet")

    def printf(self, node, call, args, arg_types):
        """cl2c_printf(format, ...) (printf.h), each argument converted to the C type
        the runtime reads for its conversion (sema checked they suit): integers to
        int, uint, long or ulong, floats to double, and strings, pointers and
        vectors to a const void * (a vector through a compound literal holding it).
        Arguments beyond the format's conversions are evaluated and passed unread."""
        out = [args[0]]
        for c, a, at in zip(call.conversions, args[1:], arg_types[1:]):
            want = c.argument_type()
            if c.vector:
                held = c_ast.CompoundLiteral(cn.typename(ty.Array(at, 1), node.coord),
                                             c_ast.InitList([a], node.coord), node.coord)
                a = cn.cast(_CONST_VOID_P, held, node.coord)
            else:    # the exact type read, whatever C calls the argument's type
                a = cn.cast(want or _CONST_VOID_P, a, node.coord)
            out.append(a)
        out += args[1 + len(call.conversions):]
        return cn.call("cl2c_printf", *out, coord=node.coord)

    def half_load_store(self, call) -> str:
        """The runtime function of a vload_half/vstore_half call (vloadstore.h), named
        after the call (cl2c_vstorea_half3_rtz_double), instantiated here."""
        t = call.generic
        n = ty.width(t)
        aligned = call.name.startswith(("vloada", "vstorea"))
        stride = 4 if aligned and n == 3 else n
        if call.kind == "vload_half":
            name = f"cl2c_{call.name}"
            if n == 1:
                self.need("CL2C_VLOAD_HALF1", name)
            else:
                self.need("CL2C_VLOAD_HALFN", name, n, stride)
            return name
        elem = ty.scalar_of(t).name
        name = f"cl2c_{call.name}_{elem}"
        mode = _ROUNDING_MODES.get(call.name[-4:], 0)
        if n == 1:
            self.need("CL2C_VSTORE_HALF1", name, elem, mode)
        else:
            self.need("CL2C_VSTORE_HALFN", name, elem, n, stride, mode)
        return name

    def builtin(self, node, call, args, arg_types):
        row, t = call.row, call.generic
        if row.macro and t is not None:
            self.need(row.macro, *row.macro_args(t, call.width))
        if row.workitem:
            name = row.runtime_name(t if row.family != "-" else None)
            return cn.call(name, cn.ident("CL2C_WI"), *args, coord=node.coord)
        if isinstance(t, ty.Vector):
            # scalars widen: S parameters of broadcast rows, and scalars passed for T
            args = [self.coerce(a, at, t, node.coord)
                    if pat == "T" or (pat == "S" and row.broadcast) else a
                    for a, at, pat in zip(args, arg_types, row.params)]
        generic_name = not row.c_name or "{T}" in row.c_name   # prefetch: one function
        if isinstance(t, ty.Vector) and generic_name and not row.macro:
            macro = _vector_macro(row)
            if macro is None:
                raise UnsupportedError(f"{row.name}() on vectors is not supported yet")
            name, extra = macro
            self.need(name, *extra(row), t.elem.name, t.n) if extra else \
                self.need(name, t.elem.name, t.n)
        return cn.call(row.runtime_name(t, call.width), *args, coord=node.coord)

    def conversion(self, node, call, arg, src):
        dst = call.generic
        if call.kind == "as":
            self.need("CL2C_AS", cn.c_type_name(dst), cn.c_type_name(src), dst.name, src.name)
            return cn.call(f"cl2c_as_{dst.name}_{src.name}", arg, coord=node.coord)
        suffix = call.name[len("convert_") + len(dst.name):]       # "", "_sat", "_sat_rte", ...
        d, s = ty.scalar_of(dst), _SIZE_TYPES.get(ty.scalar_of(src), ty.scalar_of(src))
        if isinstance(src, ty.Vector):
            src = ty.Vector(s, src.n)
        if suffix == "" and not isinstance(dst, ty.Vector) and not (d.is_integer and s.is_float):
            return cn.cast(dst, arg, node.coord)       # C's cast is the spec's default
        scalar = f"cl2c_convert_{d.name}{suffix}_{s.name}"
        self.need(*_conversion_macro(scalar, d, s, suffix))
        if not isinstance(dst, ty.Vector):
            return cn.call(scalar, arg, coord=node.coord)
        vector = f"cl2c_convert_{dst.name}{suffix}_{src.name}"
        self.need("CL2C_CVT_VEC", vector, scalar, d.name, s.name, dst.n)
        return cn.call(vector, arg, coord=node.coord)

    def lower_ID(self, node):
        return node


_JUMPS = (c_ast.Break, c_ast.Return, c_ast.Continue, c_ast.Goto)


def mark_fallthrough(switch: c_ast.Switch) -> None:
    """End each case that runs into the next with CL2C_FALLTHROUGH, as the
    programmer meant it (C compilers warn about it otherwise)."""
    if not isinstance(switch.stmt, c_ast.Compound):
        return
    labels = [item for item in switch.stmt.block_items or []
              if isinstance(item, (c_ast.Case, c_ast.Default))]
    for label, following in zip(labels, labels[1:]):
        stmts = label.stmts or []
        if stmts and not isinstance(stmts[-1], _JUMPS):
            stmts.append(c_ast.ID("CL2C_FALLTHROUGH", stmts[-1].coord))


_CONST_VOID_P = ty.Pointer(ty.VOID, const=True)

_ROUNDING_FUNCTIONS = {"_rte": "rint", "_rtz": "trunc", "_rtp": "ceil", "_rtn": "floor"}
_ROUNDING_MODES = {"_rte": 0, "_rtz": 1, "_rtp": 2, "_rtn": 3}


# The size types convert as the integer types they are (enums as int).
_SIZE_TYPES = {ty.SIZE_T: ty.ULONG, ty.UINTPTR_T: ty.ULONG, ty.PTRDIFF_T: ty.LONG,
               ty.INTPTR_T: ty.LONG}


def _conversion_macro(name: str, d: ty.Scalar, s: ty.Scalar, suffix: str) -> tuple:
    """The runtime macro line that defines scalar conversion ``name`` (convert.h)."""
    sat = "_sat" in suffix
    mode = suffix.replace("_sat", "") or None
    if d.is_float and mode in (None, "_rte"):
        return ("CL2C_CVT_CAST", name, d.name, s.name)     # C rounds to nearest even
    if d.is_float:
        return ("CL2C_CVT_2F", name, d.name, s.name, _ROUNDING_MODES.get(mode, 0))
    if s.is_float:
        fn = _ROUNDING_FUNCTIONS.get(mode, "trunc") + ("" if s.name == "double" else "f")
        return ("CL2C_CVT_F2I", name, d.name, s.name, fn, int(sat))
    if sat:
        return ("CL2C_CVT_I2I_SAT", name, d.name, s.name)
    return ("CL2C_CVT_CAST", name, d.name, s.name)


def _vector_macro(row):
    """The runtime macro that instantiates ``row`` for a vector type."""
    p, r = row.params, row.ret
    if row.name in ("any", "all"):
        return "CL2C_VEC_ANY_ALL", None
    if row.name == "select":
        return "CL2C_VEC_SELECT", None
    if row.family == "Fg":
        return "CL2C_GEOMETRIC", None
    if row.family == "Fc":
        return "CL2C_CROSS", None
    if row.name == "ldexp" and p == ("T", "int"):
        return "CL2C_VEC_LDEXPI", None
    shapes = {("T",): "1", ("T", "T"): "2", ("T", "T", "T"): "3", ("T", "S"): "2",
              ("S", "T"): "2", ("T", "S", "S"): "3", ("S", "S", "T"): "3", ("T", "T", "S"): "3"}
    arity = shapes.get(p)
    if r == "K" and arity:
        return f"CL2C_VEC_REL{arity}", lambda row: (row.name,)
    if r == "D" and p == ("T", "U"):
        return "CL2C_VEC_MAPD2", lambda row: (row.name,)
    if r == "U" and arity in ("1", "2"):
        return f"CL2C_VEC_MAPU{arity}", lambda row: (row.name,)
    if r == "I" and p == ("T",):
        return "CL2C_VEC_MAPI1", lambda row: (row.name,)
    if p == ("T", "I"):
        return "CL2C_VEC_MAP2I", lambda row: (row.name,)
    pointer_output = {("T", "T*"): "CL2C_VEC_MAPP", ("T", "I*"): "CL2C_VEC_MAPPI",
                      ("T", "T", "I*"): "CL2C_VEC_MAP2PI"}   # fract, frexp, remquo, ...
    if p in pointer_output:
        return pointer_output[p], lambda row: (row.name,)
    if r == "T" and arity:
        return f"CL2C_VEC_MAP{arity}", lambda row: (row.name,)
    return None
