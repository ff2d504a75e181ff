"""Integer constant expressions (array sizes, case labels, enumerators)."""
from __future__ import annotations

from pycparser import c_ast

from .. import literals
from .. import types as ty
from .checker import Checker
from .model import SemaError, constant_type


class Folding(Checker):
    # ---- constant folding (array sizes, case labels, enums) -------------------------------
    def const_int(self, node) -> int | None:
        try:
            return self._fold(node)
        except (SemaError, ValueError, ZeroDivisionError, TypeError, KeyError):
            return None

    def _fold(self, node):
        if isinstance(node, c_ast.Constant):
            if node.type == "char":
                return literals.char_value(node.value)
            if constant_type(node).is_float:
                raise ValueError
            return literals.integer_value(node.value)
        if isinstance(node, c_ast.ID):
            sym = self.lookup(node.name)
            if sym is not None and sym.kind == "enum":
                return sym.node
            raise ValueError
        if isinstance(node, c_ast.UnaryOp):
            if node.op == "sizeof":
                if isinstance(node.expr, c_ast.Typename):
                    t, _, _ = self.resolve(node.expr)
                else:
                    t = self.expr(node.expr)
                return ty.type_size(t)
            v = self._fold(node.expr)
            return {"-": -v, "+": v, "~": ~v, "!": int(not v)}[node.op]
        if isinstance(node, c_ast.BinaryOp):
            a, b = self._fold(node.left), self._fold(node.right)
            ops = {"+": a + b, "-": a - b, "*": a * b, "<<": a << b if b >= 0 else 0,
                   ">>": a >> b if b >= 0 else 0, "&": a & b, "|": a | b, "^": a ^ b,
                   "<": int(a < b), ">": int(a > b), "<=": int(a <= b), ">=": int(a >= b),
                   "==": int(a == b), "!=": int(a != b), "&&": int(bool(a and b)),
                   "||": int(bool(a or b))}
            if node.op in ("/", "%"):
                q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
                return q if node.op == "/" else a - q * b
            return ops[node.op]
        if isinstance(node, c_ast.TernaryOp):
            return self._fold(node.iftrue) if self._fold(node.cond) else self._fold(node.iffalse)
        if isinstance(node, c_ast.Cast):
            v = self._fold(node.expr)
            t, _, _ = self.resolve(node.to_type)
            if isinstance(t, ty.Enum):
                t = ty.INT                  # (an enum's values are ints here)
            if not (t.is_scalar and t.is_integer):
                raise ValueError            # (a float or a pointer: no integer constant)
            return int(v != 0) if t == ty.BOOL else ty.wrapped(v, t)
        if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID) and \
                node.name.name == "vec_step":
            self.expr(node)
            return node.call.value
        raise ValueError
