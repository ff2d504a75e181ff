"""Lowering of calls: builtins to their runtime functions (instantiated on demand),
conversions, vector loads and stores, printf, user functions. Every call it makes carries
sema's resolution (effects.py)."""
from __future__ import annotations

from pycparser import c_ast

from .. import builtins_match
from .. import types as ty
from ..diagnostics import UnsupportedError
from ..typed_ast import fact, is_typed
from .. import cnodes as cn
from .effects import runtime_call


class CallLowering:
    """The call part of ExpressionLowering (expressions.py), which it is mixed into."""

    def lower_FuncCall(self, node):
        out = self._lowered_call(node)
        if isinstance(out, c_ast.FuncCall) and is_typed(out) and out.ty is None:
            out.ty = fact(node, "ty")        # (the call's value: lockstep.py reads it)
        return out

    def _lowered_call(self, node):
        call = fact(node, "call")
        args = node.args.exprs if node.args else []
        arg_types = [self.type_of(a) for a in args]
        lowered = [self.visit(a) for a in args]
        if call is None:
            return node
        if call.kind == "function":
            # widened to vector parameters; a function only declared keeps its arguments
            callee = self.module.functions.get(call.name)
            if callee is not None:
                lowered = [self.coerce(a, at, pt, node.coord)
                           for a, at, pt in zip(lowered, arg_types, callee.type.params)]
            return runtime_call(call.name, *lowered, call=call, coord=node.coord)
        if call.kind == "builtin":
            return self.builtin(node, call, lowered, arg_types)
        if call.kind in ("convert", "as"):
            return self.conversion(node, call, lowered[0], arg_types[0])
        if call.kind == "vload":
            t = call.generic
            self.need("CL2C_VLOADSTORE", t.elem.name, t.n)
            return runtime_call(f"cl2c_vload{t.n}_{t.elem.name}", *lowered, call=call,
                                coord=node.coord)
        if call.kind == "vstore":
            t = call.generic
            self.need("CL2C_VLOADSTORE", t.elem.name, t.n)
            data = self.coerce(lowered[0], arg_types[0], t, node.coord)   # a scalar widens
            return runtime_call(f"cl2c_vstore{t.n}_{t.elem.name}", data, *lowered[1:],
                                call=call, coord=node.coord)
        if call.kind == "vec_step":
            return cn.const_int(call.value, node.coord)
        if call.kind in ("vload_half", "vstore_half"):
            return runtime_call(self.half_load_store(call), *lowered, call=call,
                                coord=node.coord)
        if call.kind == "printf":
            return self.printf(node, call, lowered, arg_types)
        if call.kind == "address_space":
            # cl2c_to_global(p) returns a void *: the result has the argument's pointee
            query = runtime_call(f"cl2c_{call.name}", lowered[0], call=call, coord=node.coord)
            if call.name == "get_fence":
                return query
            return cn.cast(self.type_of(node), query, node.coord)
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
        return runtime_call("cl2c_printf", *out, call=call, coord=node.coord)

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
            return runtime_call(name, cn.ident("CL2C_WI"), *args, call=call, coord=node.coord)
        if isinstance(t, ty.Vector):
            # scalars widen: S parameters of broadcast rows, and scalars passed for T
            args = [self.coerce(a, at, t, node.coord)
                    if pat == "T" or (pat == "S" and row.broadcast) else
                    self.coerce(a, at, builtins_match.pattern_type(pat, t), node.coord)
                    if pat == "I" else a
                    for a, at, pat in zip(args, arg_types, row.params)]
            args = [self.signed_mask(a, at) if pat == "M" else a
                    for a, at, pat in zip(args, arg_types, row.params)]
        generic_name = not row.c_name or "{T}" in row.c_name   # prefetch: one function
        if isinstance(t, ty.Vector) and generic_name and not row.macro:
            macro = _vector_macro(row)
            if macro is None:
                raise UnsupportedError(f"{row.name}() on vectors is not supported yet")
            name, extra = macro
            self.need(name, *extra(row), t.elem.name, t.n) if extra else \
                self.need(name, t.elem.name, t.n)
        name = row.runtime_name(t, call.width)
        if row.name == "read_imagef" and len(args) == 3:
            ints = self.int_coordinates(node.args.exprs[2], args[2])
            if ints is not None:
                name, args = f"{name}{FROM_INTS}{ints[0]}", [*args[:2], ints[1]]
        return runtime_call(name, *args, call=call, coord=node.coord)

    def int_coordinates(self, source, lowered) -> tuple | None:
        """(int, int2 or int4, the ints) where a read's float coordinates ``source``
        (lowered: ``lowered``) are ints converted, ``(float2)(x, y)`` of int x and y:
        images.h reads there without the float path where the sampler allows; else
        None. Types narrower than int as well, which an int holds."""
        if not isinstance(source, c_ast.Cast):
            return None
        t = self.type_of(source)
        parts = source.expr.exprs if isinstance(source.expr, c_ast.ExprList) else \
            [source.expr]
        if t == ty.FLOAT:
            items = [lowered]
        elif isinstance(t, ty.Vector) and t.elem == ty.FLOAT and len(parts) == t.n and \
                isinstance(lowered, c_ast.CompoundLiteral):
            items = lowered.init.exprs[0].exprs
        else:
            return None
        if any(self.type_of(p) not in _HELD_BY_INT for p in parts) or \
                not all(isinstance(e, c_ast.Cast) for e in items):
            return None
        coord = source.coord
        ints = [e.expr if self.type_of(p) == ty.INT else cn.cast(ty.INT, e.expr, coord)
                for p, e in zip(parts, items)]
        if t == ty.FLOAT:
            return "int", ints[0]
        it = ty.vector_of(ty.INT, t.n)
        return it.name, c_ast.CompoundLiteral(
            cn.typename(it, coord), c_ast.InitList([c_ast.InitList(ints, coord)], coord), coord)

    def signed_mask(self, arg, at: ty.Vector):
        """A vector select's mask as the runtime takes it, signed (its test is the
        elements' top bit): an unsigned one reinterpreted."""
        if at.elem.signed:
            return arg
        signed = ty.Vector(_INTEGER_OF_SIZE[at.elem.size], at.n)
        self.need("CL2C_AS", cn.c_type_name(signed), cn.c_type_name(at), signed.name, at.name)
        return runtime_call(f"cl2c_as_{signed.name}_{at.name}", arg, coord=arg.coord)

    def conversion(self, node, call, arg, src):
        dst = call.generic
        if call.kind == "as":
            self.need("CL2C_AS", cn.c_type_name(dst), cn.c_type_name(src), dst.name, src.name)
            return runtime_call(f"cl2c_as_{dst.name}_{src.name}", arg, call=call,
                                coord=node.coord)
        suffix = call.name[len("convert_") + len(dst.name):]       # "", "_sat", "_sat_rte", ...
        d, s = ty.scalar_of(dst), _SIZE_TYPES.get(ty.scalar_of(src), ty.scalar_of(src))
        if isinstance(src, ty.Vector):
            src = ty.Vector(s, src.n)
        if suffix == "" and not isinstance(dst, ty.Vector) and not (d.is_integer and s.is_float):
            return cn.cast(dst, arg, node.coord)       # C's cast is the spec's default
        scalar = f"cl2c_convert_{d.name}{suffix}_{s.name}"
        self.need(*_conversion_macro(scalar, d, s, suffix))
        if not isinstance(dst, ty.Vector):
            return runtime_call(scalar, arg, call=call, coord=node.coord)
        vector = f"cl2c_convert_{dst.name}{suffix}_{src.name}"
        self.need("CL2C_CVT_VEC", vector, scalar, d.name, s.name, dst.n)
        return runtime_call(vector, arg, call=call, coord=node.coord)


_CONST_VOID_P = ty.Pointer(ty.VOID, const=True)
_INTEGER_OF_SIZE = {t.size: t for t in (ty.CHAR, ty.SHORT, ty.INT, ty.LONG)}


# (toward zero: C's own conversion, CL2C_RTZ; GCC vectorises no truncf, which may not
# raise the inexact exception that the vector instruction would)
_ROUNDING_FUNCTIONS = {"_rte": "rint", "_rtp": "ceil", "_rtn": "floor"}


_ROUNDING_MODES = {"_rte": 0, "_rtz": 1, "_rtp": 2, "_rtn": 3}


# The size types convert as the integer types they are (enums as int).
_SIZE_TYPES = {ty.SIZE_T: ty.ULONG, ty.UINTPTR_T: ty.ULONG, ty.PTRDIFF_T: ty.LONG,
               ty.INTPTR_T: ty.LONG}


# the integer types whose values an int holds: converted to float, an int's coordinates
_HELD_BY_INT = (ty.CHAR, ty.UCHAR, ty.SHORT, ty.USHORT, ty.INT)
# images.h's read_imagef at float coordinates that are ints converted: the row's function
# and this, then the int coordinates' type (cl2c_read_imagef_image2d_s_float2_from_int2)
FROM_INTS = "_from_"


def _conversion_macro(name: str, d: ty.Scalar, s: ty.Scalar, suffix: str) -> tuple:
    """The runtime macro line that defines scalar conversion ``name`` (convert.h)."""
    sat = "_sat" in suffix
    mode = suffix.replace("_sat", "") or None
    if d.is_float and mode in (None, "_rte"):
        return ("CL2C_CVT_CAST", name, d.name, s.name)     # C rounds to nearest even
    if d.is_float:
        return ("CL2C_CVT_2F", name, d.name, s.name, _ROUNDING_MODES.get(mode, 0))
    if s.is_float:
        fn = "CL2C_RTZ" if mode in (None, "_rtz") else \
            _ROUNDING_FUNCTIONS[mode] + ("" if s.name == "double" else "f")
        return ("CL2C_CVT_F2I", name, d.name, s.name, fn, int(sat),
                _ROUNDING_MODES[mode or "_rtz"])
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
    if row.family in ("Fg", "Fgf"):
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
    if p == ("U",) and r == "T":                               # nan
        return "CL2C_VEC_MAPFU", lambda row: (row.name,)
    pointer_output = {("T", "T*"): "CL2C_VEC_MAPP", ("T", "I*"): "CL2C_VEC_MAPPI",
                      ("T", "T", "I*"): "CL2C_VEC_MAP2PI"}   # fract, frexp, remquo, ...
    if p in pointer_output:
        return pointer_output[p], lambda row: (row.name,)
    if r == "T" and arity:
        return f"CL2C_VEC_MAP{arity}", lambda row: (row.name,)
    return None
