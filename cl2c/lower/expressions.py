"""Lowering pass: OpenCL expressions to C expressions.

Vector operations become calls of runtime helpers (instantiated on demand:
``needs`` collects the macro lines the emitted file starts with), builtins get
their runtime names, shift counts are masked to the operand width (spec
6.3.j), scalars widen to vectors where OpenCL converts implicitly, and
comparisons of mixed signedness get the casts that C compilers would
otherwise warn about. Every method reads the facts semantic analysis wrote on
the *original* node (typed_ast.py), so they are read before children are replaced.
"""
from __future__ import annotations

import copy

from pycparser import c_ast

from .. import types as ty
from ..diagnostics import UnsupportedError
from ..literals import integer_value
from ..sema import Module
from ..sema.model import Symbol
from ..sema.constant_init import is_folded_constant
from ..sema.initializers import is_braced_string, items
from ..typed_ast import fact, make, replace_child
from .. import cnodes as cn
from .calls import CallLowering
from .effects import UPDATE, has_effects, runtime_call

_BINARY_HELPERS = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "rem", "&": "and",
                   "|": "or", "^": "xor", "<<": "shl", ">>": "shr", "==": "eq", "!=": "ne",
                   "<": "lt", ">": "gt", "<=": "le", ">=": "ge", "&&": "land", "||": "lor"}
_COMPARISONS = ("==", "!=", "<", ">", "<=", ">=")



def lower_expressions(module: Module) -> tuple[Module, list[tuple]]:
    """The module with its expressions in C, and the runtime helper instantiations
    they need (macro lines, sorted)."""
    lowering = ExpressionLowering(module)
    lowering.visit(module.ast)
    return module, sorted(lowering.needs)


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
            if new is not child:
                replace_child(node, name, new)
        return node


# The slots of statements that hold statements: an assignment there is evaluated for
# its effect alone, not its value, and may become a block.
_STATEMENT_SLOTS = ((c_ast.Compound, ("block_items",)), (c_ast.If, ("iftrue", "iffalse")),
                    (c_ast.For, ("stmt",)), (c_ast.While, ("stmt",)),
                    (c_ast.DoWhile, ("stmt",)), (c_ast.Case, ("stmts",)),
                    (c_ast.Default, ("stmts",)), (c_ast.Label, ("stmt",)))


class ExpressionLowering(CallLowering, Transformer):
    def __init__(self, module: Module):
        self.module = module
        self.needs: set[tuple] = set()
        self.func = None
        self.constant_init = False      # lowering an initializer of a C static
        self.statement = None           # the assignment being lowered as a statement

    def children(self, node):
        slots = next((names for cls, names in _STATEMENT_SLOTS if isinstance(node, cls)), ())
        if not slots:
            return super().children(node)
        for name, child in node.children():
            if name.split("[")[0] in slots and isinstance(child, c_ast.Assignment):
                self.statement = child
            new = self.visit(child)
            if new is not child:
                replace_child(node, name, new)
        return node

    # ---- helpers -----------------------------------------------------------------
    @staticmethod
    def type_of(node) -> ty.Type | None:
        return fact(node, "ty")

    def need(self, macro: str, *args) -> None:
        self.needs.add((macro,) + tuple(str(a) for a in args))

    def vec_helper(self, name: str, macro: str, t: ty.Vector) -> str:
        self.need(macro, t.elem.name, t.n)
        return f"cl2c_{name}_{t.name}"

    def splat(self, expr, t: ty.Vector, coord=None):
        self.need("CL2C_VEC_SPLAT", t.elem.name, t.n)
        return runtime_call(f"cl2c_splat_{t.name}", expr, coord=coord)

    def coerce(self, expr, src: ty.Type | None, dst: ty.Type | None, coord=None):
        """Make OpenCL's implicit scalar-to-vector conversion explicit."""
        if isinstance(dst, ty.Vector) and src is not None and not isinstance(src, ty.Vector):
            if src != dst.elem:
                expr = cn.cast(dst.elem, expr, coord)
            return self.splat(expr, dst, coord)
        return expr

    # ---- functions and declarations ------------------------------------------------
    def lower_FuncDef(self, node):
        self.func = self.module.functions.get(node.decl.name)
        node.body = self.visit(node.body)
        self.func = None
        return node

    def lower_Decl(self, node):
        t = fact(node, "ty")
        if node.init is not None:
            # A C static's initializer is a C constant expression: vectors braced lists
            # of their components (sema/constant_init.py accepted only what folds).
            self.constant_init = fact(node, "space") == "constant" or \
                ("static" in (node.storage or []) or self.func is None) and \
                fact(node, "space") != "global"
            if isinstance(node.init, c_ast.InitList):
                node.init = self.init_list(node.init, t)
            elif self.constant_init and isinstance(t, ty.Vector):
                node.init = self.braced_vector(t, self.splat_parts(node.init, t), node.coord)
            else:
                src = self.type_of(node.init)
                node.init = self.coerce(self.visit(node.init), src, t, node.coord)
            self.constant_init = False
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
        """A fully braced initializer (sema made it one), its items converted to the
        types of the places they initialize."""
        if is_braced_string(node, t):
            return node
        if isinstance(t, ty.Vector):
            return self.braced_vector(t, node.exprs, node.coord)
        out = []
        for e, (_, inner, target) in zip(node.exprs, items(node, t)):
            if isinstance(inner, c_ast.InitList):
                lowered = self.init_list(inner, target)
            elif isinstance(target, ty.Vector) and \
                    not isinstance(self.type_of(inner), ty.Vector) and not has_effects(inner):
                # A splat as a list: a constant one where the object is static.
                lowered = self.init_list(make(c_ast.InitList, [inner] + [
                    copy.deepcopy(inner) for _ in range(target.n - 1)], inner.coord), target)
            elif self.constant_init and isinstance(target, ty.Vector):
                lowered = self.braced_vector(target, [inner], inner.coord)
            else:
                lowered = self.coerce(self.visit(inner), self.type_of(inner), target)
            if isinstance(e, c_ast.NamedInitializer):
                e.expr = lowered
                out.append(e)
            else:
                out.append(lowered)
        node.exprs = out
        return node

    def lower_Struct(self, node):
        """A struct or union definition keeps its layout attributes in C (the C
        compiler lays it out): written before the tag, where C accepts them."""
        node = self.children(node)
        rec = fact(node, "record")
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
            return runtime_call(fn, left, right, coord=node.coord)
        if op in ("<<", ">>") and isinstance(t, ty.Scalar):
            right = self.shift_count(right, node.right, t)
            return c_ast.BinaryOp(op, left, right, node.coord)
        if op in _COMPARISONS and lt is not None and rt is not None and \
                lt.is_integer and rt.is_integer and lt.is_scalar and rt.is_scalar:
            common = ty.arithmetic_result(lt, rt)
            if ty.integer_promote(lt).signed != ty.integer_promote(rt).signed:
                left = cn.cast(common, left, node.coord)
                right = cn.cast(common, right, node.coord)
        if op in ("/", "%") and not self.constant_init:
            # (a C constant expression: no call, and sema refused a zero divisor)
            helper = _integer_division(op, lt, rt, right)
            if helper is not None:
                return runtime_call(helper, left, right, coord=node.coord)
        if t == ty.HALF:
            # C may compute _Float16 operations in float (excess precision); the cast
            # rounds each one to half, as OpenCL does.
            return cn.cast(t, c_ast.BinaryOp(op, left, right, node.coord), node.coord)
        return c_ast.BinaryOp(op, left, right, node.coord)

    def shift_count(self, lowered, original, t: ty.Scalar):
        bits = t.bits
        if isinstance(original, c_ast.Constant):
            try:
                value = integer_value(original.value)
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
                comps = fact(node.expr, "components")
                if comps is not None:
                    return self.swizzle_incdec(node, comps, inner_t)
                self.need("CL2C_VEC_INCDEC", inner_t.elem.name, inner_t.n)
                name = {"++": "preinc", "--": "predec", "p++": "postinc", "p--": "postdec"}[op]
                return runtime_call(f"cl2c_{name}_{inner_t.name}",
                                    cn.address_of(self.visit(node.expr)), call=UPDATE,
                                    coord=node.coord)
            expr = self.visit(node.expr)
            if op == "+":
                return expr
            name = {"-": "neg", "~": "bnot", "!": "lnot"}[op]
            fn = self.vec_helper(name, f"CL2C_VEC_{name.upper()}", inner_t)
            return runtime_call(fn, expr, coord=node.coord)
        folding, self.constant_init = self.constant_init, self.constant_init and op != "&"
        node.expr = self.visit(node.expr)       # (&a is a's address, not its value)
        self.constant_init = folding
        return node

    def swizzle_incdec(self, node, comps, t: ty.Vector):
        """++/-- on a swizzle (v.xy++): the compound assignment v.xy += 1, whose value
        is the new one; a postfix form takes 1 back off it (exact: only integer types
        have ++, and their arithmetic wraps)."""
        one = make(c_ast.Constant, "int", "1", node.coord)
        one.ty = ty.INT
        op = "+=" if "+" in node.op else "-="
        update = make(c_ast.Assignment, op, node.expr, one, node.coord)
        update.ty = t
        value = self.swizzle_assignment(update, comps, t, ty.INT)
        if not node.op.startswith("p"):
            return value
        undo = "sub" if op == "+=" else "add"
        return runtime_call(self.vec_helper(undo, f"CL2C_VEC_{undo.upper()}", t), value,
                            self.splat(cn.const_int(1), t), coord=node.coord)

    def lower_StructRef(self, node):
        comps = fact(node, "components")
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
        call = runtime_call(f"cl2c_swz{n}_{base_t.name}", lowered,
                            *[cn.const_int(i) for i in comps], coord=node.coord)
        call.components = tuple(comps)      # (checking: the components it reads)
        return call

    def vector_type_of(self, base) -> ty.Vector:
        t = self.type_of(base)
        if isinstance(t, ty.Pointer):
            t = t.pointee
        return t

    def swizzle_base(self, node, comps):
        """Fold nested swizzles (v.xyz.zx) into one selection from the innermost vector."""
        base = node.name
        while node.type == "." and fact(base, "components") is not None:
            inner = base.components
            comps = [inner[i] for i in comps]
            node = base
            base = base.name
        return base, comps

    def lower_Assignment(self, node):
        op = node.op
        target_t = self.type_of(node.lvalue)
        value_t = self.type_of(node.rvalue)
        comps = fact(node.lvalue, "components")
        if comps is not None and len(comps) > 1:
            return self.swizzle_assignment(node, comps, target_t, value_t)
        if isinstance(target_t, ty.Vector):
            read = self._unlowered(node.lvalue) if op != "=" else None
            lv = self.visit(node.lvalue)
            rv = self.coerce(self.visit(node.rvalue), value_t, target_t, node.coord)
            if op == "=":
                return c_ast.Assignment("=", lv, rv, node.coord)
            if has_effects(node.lvalue):     # (sequencing.py could not hold them)
                raise UnsupportedError("compound assignment to a vector lvalue with side "
                                       "effects is not supported yet")
            name = _BINARY_HELPERS[op[:-1]]
            fn = self.vec_helper(name, f"CL2C_VEC_{name.upper()}", target_t)
            return c_ast.Assignment("=", lv, runtime_call(fn, self.visit(read), rv),
                                    node.coord)
        read = self._unlowered(node.lvalue) if op in ("/=", "%=") else None
        lv = self.visit(node.lvalue)
        rv = self.visit(node.rvalue)
        if op in ("<<=", ">>=") and isinstance(target_t, ty.Scalar):
            rv = self.shift_count(rv, node.rvalue, ty.integer_promote(target_t))
        if op in ("/=", "%=") and isinstance(target_t, ty.Scalar) and \
                not has_effects(node.lvalue):
            # (sequencing.py left effects in the lvalue, (q++)->f /= b with q an unnamed
            # struct's pointer: C's operator evaluates it once, and may still trap)
            helper = _integer_division(op[0], target_t, value_t, rv)
            if helper is not None:
                value = runtime_call(helper, self.visit(read), rv, coord=node.coord)
                return c_ast.Assignment("=", lv, cn.cast(target_t, value, node.coord),
                                        node.coord)
        return c_ast.Assignment(op, lv, rv, node.coord)

    @staticmethod
    def _unlowered(node):
        # Lowering mutates nodes in place; to use an lvalue twice, lower a copy taken
        # before the first lowering, whose nodes carry the same types (a copy taken
        # after it got get_global_id's work-item argument twice). Its effects,
        # a[atomic_inc(p)], are temporaries already where C can declare them:
        # sequencing.py.
        return copy.deepcopy(node)

    def swizzle_assignment(self, node, comps, target_t, value_t):
        base, comps = self.swizzle_base(node.lvalue, comps)
        base_t = self.vector_type_of(base)
        if has_effects(base):               # (sequencing.py could not hold them)
            raise UnsupportedError("assignment to a swizzle of an expression with side effects "
                                   "is not supported yet")
        value = self.coerce(self.visit(node.rvalue), value_t, target_t, node.coord)
        if node.op != "=":
            name = _BINARY_HELPERS[node.op[:-1]]
            fn = self.vec_helper(name, f"CL2C_VEC_{name.upper()}", target_t)
            value = runtime_call(fn, self.visit(self._unlowered(node.lvalue)), value)
        n = len(comps)
        if node is self.statement and node.lvalue.type == "." and \
                self._private_variable(base):
            return self.components_assigned(base, comps, value, target_t, node.coord)
        self.need("CL2C_SWIZZLE_SET", base_t.elem.name, base_t.n, n)
        target = self.visit(self._unlowered(base))
        if isinstance(node.lvalue, c_ast.StructRef) and node.lvalue.type == "->":
            ptr = target
        else:
            ptr = cn.address_of(target)
        call = runtime_call(f"cl2c_swzset{n}_{base_t.name}", ptr,
                            *[cn.const_int(i) for i in comps], value, call=UPDATE,
                            coord=node.coord)
        call.components = tuple(comps)      # (checking: the components it writes)
        return call

    def components_assigned(self, base, comps, value, value_t, coord):
        """v.xyz = x as a statement on a private variable: x into a temporary, then
        each component, in a block. Not through &v: a variable whose address is taken
        in an omp simd loop becomes an array of lanes, and GCC 14 and later then leave
        the loop scalar (the N-body bench: 4-20x slower than under GCC 12)."""
        name = cn.SWIZZLE_VALUE
        symbol = Symbol(name, value_t, "var")
        decl = make(c_ast.Decl, name, [], [], [], [], cn.declarator(value_t, name, coord),
                    value, None, coord=coord)
        decl.ty, decl.space = value_t, "private"
        items = [decl]
        for k, i in enumerate(comps):
            x = make(c_ast.ID, name, coord)
            x.ty, x.symbol = value_t, symbol
            items.append(c_ast.Assignment("=", cn.component(self.visit(self._unlowered(base)),
                                                            i, coord),
                                          cn.component(x, k, coord), coord))
        return make(c_ast.Compound, items, coord)

    @staticmethod
    def _private_variable(base) -> bool:
        """A private vector variable of the function: writing it whole writes no
        component that another work-item could see."""
        sym = fact(base, "symbol")
        return isinstance(base, c_ast.ID) and sym is not None and \
            sym.kind in ("var", "param") and sym.space == "private" and not sym.program

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
        return c_ast.CompoundLiteral(cn.typename(t, coord),
                                     self.braced_vector(t, parts, coord), coord)

    def braced_vector(self, t: ty.Vector, parts, coord) -> c_ast.InitList:
        """The braced list of a vector's components: the runtime's vector is a struct
        holding an array, one more brace."""
        return c_ast.InitList([c_ast.InitList(self.components(t, parts, coord), coord)],
                              coord)

    def splat_parts(self, expr, t: ty.Vector) -> list:
        """The parts of a vector literal of type ``t`` that ``expr`` converts to."""
        if isinstance(self.type_of(expr), ty.Vector):
            return [expr]
        return [expr] + [copy.deepcopy(expr) for _ in range(t.n - 1)]

    def constant_components(self, node, t: ty.Vector) -> list:
        """The components of vector constant expression ``node`` (of type ``t``), each a C
        constant expression: what sema/constant_init.py accepts, operators applied
        component by component as OpenCL defines them for vectors."""
        coord = node.coord
        if isinstance(node, c_ast.Cast):
            if isinstance(node.expr, c_ast.ExprList):
                parts = node.expr.exprs
                if len(parts) == 1:
                    parts = self.splat_parts(parts[0], t)
                return self.components(t, parts, coord)
            src = self.type_of(node.expr)
            if isinstance(src, ty.Vector):
                return self.constant_components(node.expr, src)
            if src == ty.BOOL and t.elem.is_integer:
                # true is -1 (all bits set) in an integer vector (spec 6.2.2)
                parts = [c_ast.UnaryOp("-", cn.cast(ty.INT, self.visit(e), coord), coord)
                         for e in self.splat_parts(node.expr, t)]
                return [cn.cast(t.elem, p, coord) for p in parts]
            return self.components(t, self.splat_parts(node.expr, t), coord)
        if isinstance(node, c_ast.ID):
            # a __constant vector: its own (lowered, braced) initializer's components
            init = fact(node, "symbol").node.init
            return [copy.deepcopy(e) for e in init.exprs[0].exprs]
        if isinstance(node, c_ast.UnaryOp):
            inner_t = self.type_of(node.expr)
            items = self.constant_components(node.expr, inner_t)
            if node.op == "+":
                return items
            if node.op == "!":         # true is -1
                return [cn.cast(t.elem, c_ast.UnaryOp("-", c_ast.UnaryOp("!", e, coord),
                                                      coord), coord) for e in items]
            return [cn.cast(t.elem, c_ast.UnaryOp(node.op, e, coord), coord) for e in items]
        if isinstance(node, c_ast.BinaryOp):
            lt, rt = self.type_of(node.left), self.type_of(node.right)
            v = lt if isinstance(lt, ty.Vector) else rt
            left = self.components(v, self.splat_parts(node.left, v), coord)
            right = self.components(v, self.splat_parts(node.right, v), coord)
            out = []
            for a, b in zip(left, right):
                if node.op in ("<<", ">>"):     # the count modulo the width (6.3.j)
                    b = c_ast.BinaryOp("&", b, cn.const_int(v.elem.bits - 1), coord)
                e = c_ast.BinaryOp(node.op, a, b, coord)
                if node.op in _COMPARISONS or node.op in ("&&", "||"):
                    e = c_ast.UnaryOp("-", e, coord)        # true is -1
                out.append(cn.cast(t.elem, e, coord))
            return out
        if isinstance(node, c_ast.TernaryOp):   # a scalar condition
            cond = self.visit(node.cond)
            a = self.components(t, self.splat_parts(node.iftrue, t), coord)
            b = self.components(t, self.splat_parts(node.iffalse, t), coord)
            return [c_ast.TernaryOp(cond if k == 0 else copy.deepcopy(cond), x, y, coord)
                    for k, (x, y) in enumerate(zip(a, b))]
        raise UnsupportedError("this vector initializer of static storage is not "
                               "supported yet")

    def components(self, t: ty.Vector, parts, coord) -> list:
        """The components of ``t`` that ``parts`` (scalars and vectors) list in order."""
        items = []
        for p in parts:
            pt = self.type_of(p)
            if isinstance(pt, ty.Vector) and self.constant_init:
                items.extend(self.constant_components(p, pt))
            elif isinstance(pt, ty.Vector):
                if has_effects(p):
                    raise UnsupportedError("a vector literal part with side effects is not "
                                           "supported yet")
                copies = [self._unlowered(p) for _ in range(pt.n - 1)]
                lowered = [self.visit(p)] + [self.visit(c) for c in copies]
                items.extend(cn.component(e, k, coord) for k, e in enumerate(lowered))
            elif pt == t.elem:
                items.append(self.visit(p))
            else:
                items.append(cn.cast(t.elem, self.visit(p), coord))
        return items

    def lower_TernaryOp(self, node):
        t = self.type_of(node)
        ct = self.type_of(node.cond)
        at, bt = self.type_of(node.iftrue), self.type_of(node.iffalse)
        cond = self.visit(node.cond)
        a = self.coerce(self.visit(node.iftrue), at, t, node.coord)
        b = self.coerce(self.visit(node.iffalse), bt, t, node.coord)
        if isinstance(ct, ty.Vector):       # sema made t a vector of ct's width
            self.need("CL2C_VEC_TERNARY", t.elem.name, t.n, ct.elem.name)
            return runtime_call(f"cl2c_ternary_{t.name}_{ct.elem.name}", cond, a, b,
                                coord=node.coord)
        return c_ast.TernaryOp(cond, a, b, node.coord)


    def lower_ID(self, node):
        sym = fact(node, "symbol")
        if self.constant_init and is_folded_constant(sym) and \
                isinstance(sym.type, ty.Scalar):
            # its value: C reads no variable in a constant expression
            init = sym.node.init
            if isinstance(init, c_ast.InitList):
                init = init.exprs[0]
            return cn.cast(sym.type, copy.deepcopy(init), node.coord)
        if sym is not None and sym.kind == "const" and sym.c_name != node.name:
            node.name = sym.c_name      # memory_order_relaxed: CL2C_MEMORY_ORDER_RELAXED
        return node


_JUMPS = (c_ast.Break, c_ast.Return, c_ast.Continue, c_ast.Goto)


def _integer_division(op: str, lt, rt, divisor) -> str | None:
    """The runtime helper for integer ``/`` or ``%`` on scalars of types ``lt`` and
    ``rt`` (clruntime scalars.h: no trap on a zero divisor or INT_MIN / -1, whose values
    OpenCL leaves undefined), or None where C's operator is safe: a float operation, or
    a nonzero constant divisor."""
    if not all(isinstance(t, (ty.Scalar, ty.Enum)) for t in (lt, rt)):
        return None
    common = ty.arithmetic_result(lt, rt)
    if not common.is_integer:
        return None
    if isinstance(divisor, c_ast.Constant) and divisor.type != "char":
        try:
            if integer_value(divisor.value) != 0:
                return None
        except ValueError:
            pass
    name = {(4, True): "int", (4, False): "uint", (8, True): "long",
            (8, False): "ulong"}[(common.size, common.signed)]
    return f"{cn.DIVISION_HELPERS[op == '%']}{name}"


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


