"""The built-in functions of spec 6.12 as a table of signatures.

A row names the function, its parameter and result *patterns*, and the family
of types the generic ``T`` ranges over. Semantic analysis resolves a call
against the rows; lowering calls ``cl2c_<name>_<T>`` (or the row's ``c_name``),
which the runtime headers define for every type of the family. Adding a
builtin is adding a row here and its definition in ``clruntime``.

Patterns: ``T`` the generic type; ``S`` its element (scalar) type; ``U`` the
unsigned type of T's width; ``I`` an int (vector) of T's width; ``R`` a
scalar result of T's element type (dot, length); ``K`` int for scalar T and
the signed integer vector of T's element size for vector T (relational
results); ``T*`` a pointer to T in any address space; and fixed type names.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import types as ty

# ---- type families ---------------------------------------------------------

def _with_vectors(scalars):
    out = list(scalars)
    for s in scalars:
        out += [ty.Vector(s, n) for n in ty.VECTOR_WIDTHS]
    return tuple(out)


FLOATS = (ty.FLOAT, ty.DOUBLE)
INTEGERS = (ty.CHAR, ty.UCHAR, ty.SHORT, ty.USHORT, ty.INT, ty.UINT, ty.LONG, ty.ULONG)
FAMILIES = {
    "F": _with_vectors(FLOATS),                          # gentype of the math functions
    "Fv": tuple(t for t in _with_vectors(FLOATS) if t.is_vector),
    "Fg": FLOATS + tuple(ty.Vector(s, n) for s in FLOATS for n in (2, 3, 4)),  # geometric
    "Fc": tuple(ty.Vector(s, n) for s in FLOATS for n in (3, 4)),           # cross
    "I": _with_vectors(INTEGERS),
    "Iv": tuple(t for t in _with_vectors(INTEGERS) if t.is_vector),
    "I32": _with_vectors((ty.INT, ty.UINT)),
    "A": _with_vectors(INTEGERS + FLOATS),
    "Av": tuple(t for t in _with_vectors(INTEGERS + FLOATS) if t.is_vector),
    "-": (),
}


@dataclass(frozen=True)
class Builtin:
    name: str
    params: tuple
    ret: str
    family: str = "-"
    c_name: str = ""             # default: cl2c_<name>_<T>, or cl2c_<name> without T
    workitem: bool = False       # reads the work-item context
    broadcast: bool = False      # scalar S arguments are widened to T before the call

    def runtime_name(self, t: ty.Type | None) -> str:
        if self.c_name:
            return self.c_name.format(T=t.name if t else "")
        return f"cl2c_{self.name}_{t.name}" if t is not None else f"cl2c_{self.name}"


def _rows(names, params, ret, family, **kw):
    return [Builtin(n, tuple(params), ret, family, **kw) for n in names.split()]


TABLE: list[Builtin] = []
_add = TABLE.extend

# 6.12.1 work-item functions
_add(_rows("get_global_id get_local_id get_global_size get_local_size get_num_groups "
           "get_group_id get_global_offset get_enqueued_local_size", ["uint"], "size_t", "-",
           workitem=True))
_add(_rows("get_work_dim", [], "uint", "-", workitem=True))
_add(_rows("get_global_linear_id get_local_linear_id", [], "size_t", "-", workitem=True))

# 6.12.2 math functions
_add(_rows("acos acosh acospi asin asinh asinpi atan atanh atanpi cbrt ceil cos cosh cospi "
           "erfc erf exp exp2 exp10 expm1 fabs floor lgamma log log2 log10 log1p logb rint "
           "round rsqrt sin sinh sinpi sqrt tan tanh tanpi tgamma trunc "
           "native_cos native_exp native_exp2 native_exp10 native_log native_log2 native_log10 "
           "native_recip native_rsqrt native_sin native_sqrt native_tan "
           "half_cos half_exp half_exp2 half_exp10 half_log half_log2 half_log10 half_recip "
           "half_rsqrt half_sin half_sqrt half_tan", ["T"], "T", "F"))
_add(_rows("atan2 atan2pi copysign fdim fmod hypot maxmag minmag nextafter pow powr remainder "
           "native_divide native_powr half_divide half_powr", ["T", "T"], "T", "F"))
_add(_rows("fmax fmin", ["T", "T"], "T", "F"))
_add(_rows("fmax fmin", ["T", "S"], "T", "Fv", broadcast=True))
_add(_rows("fma mad", ["T", "T", "T"], "T", "F"))
_add(_rows("pown rootn ldexp", ["T", "I"], "T", "F"))
_add(_rows("ldexp", ["T", "int"], "T", "Fv", c_name="cl2c_ldexpi_{T}"))
_add(_rows("ilogb", ["T"], "I", "F"))
_add(_rows("nan", ["U"], "T", "F"))
_add(_rows("fract modf", ["T", "T*"], "T", "F"))
_add(_rows("frexp lgamma_r", ["T", "I*"], "T", "F"))
_add(_rows("sincos", ["T", "T*"], "T", "F"))
_add(_rows("remquo", ["T", "T", "I*"], "T", "F"))

# 6.12.3 integer functions
_add(_rows("abs", ["T"], "U", "I"))
_add(_rows("abs_diff", ["T", "T"], "U", "I"))
_add(_rows("add_sat sub_sat hadd rhadd mul_hi rotate", ["T", "T"], "T", "I"))
_add(_rows("clz popcount", ["T"], "T", "I"))
_add(_rows("mad_hi mad_sat", ["T", "T", "T"], "T", "I"))
_add(_rows("mad24", ["T", "T", "T"], "T", "I32"))
_add(_rows("mul24", ["T", "T"], "T", "I32"))

# 6.12.3 / 6.12.4 functions of both families
_add(_rows("min max", ["T", "T"], "T", "A"))
_add(_rows("min max", ["T", "S"], "T", "Av", broadcast=True))
_add(_rows("clamp", ["T", "T", "T"], "T", "A"))
_add(_rows("clamp", ["T", "S", "S"], "T", "Av", broadcast=True))
_add(_rows("degrees radians sign", ["T"], "T", "F"))
_add(_rows("mix", ["T", "T", "T"], "T", "F"))
_add(_rows("mix", ["T", "T", "S"], "T", "Fv", broadcast=True))
_add(_rows("step", ["T", "T"], "T", "F"))
_add(_rows("step", ["S", "T"], "T", "Fv", broadcast=True))
_add(_rows("smoothstep", ["T", "T", "T"], "T", "F"))
_add(_rows("smoothstep", ["S", "S", "T"], "T", "Fv", broadcast=True))

# 6.12.5 geometric functions
_add(_rows("dot distance", ["T", "T"], "R", "Fg"))
_add(_rows("length", ["T"], "R", "Fg"))
_add(_rows("normalize fast_normalize", ["T"], "T", "Fg"))
_add(_rows("fast_length", ["T"], "R", "Fg"))
_add(_rows("fast_distance", ["T", "T"], "R", "Fg"))
_add(_rows("cross", ["T", "T"], "T", "Fc"))

# 6.12.6 relational functions
_add(_rows("isequal isnotequal isgreater isgreaterequal isless islessequal islessgreater "
           "isordered isunordered", ["T", "T"], "K", "F"))
_add(_rows("isfinite isinf isnan isnormal signbit", ["T"], "K", "F"))
_add(_rows("any all", ["T"], "int", "I"))
_add(_rows("bitselect", ["T", "T", "T"], "T", "A"))
_add(_rows("select", ["T", "T", "K"], "T", "A"))


def _index() -> dict[str, list[Builtin]]:
    by_name: dict[str, list[Builtin]] = {}
    for row in TABLE:
        by_name.setdefault(row.name, []).append(row)
    return by_name


BY_NAME = _index()

# Functions the spec defines that cl2c does not implement yet: named in errors.
NOT_YET = {
    "barrier": "barrier() is not supported yet",
    "work_group_barrier": "work_group_barrier() is not supported yet",
    "mem_fence": "mem_fence() is not supported yet",
    "read_mem_fence": "read_mem_fence() is not supported yet",
    "write_mem_fence": "write_mem_fence() is not supported yet",
    "async_work_group_copy": "async_work_group_copy() is not supported yet",
    "async_work_group_strided_copy": "async_work_group_strided_copy() is not supported yet",
    "wait_group_events": "wait_group_events() is not supported yet",
    "printf": "printf() is not supported yet",
}
for _n in ("add", "sub", "xchg", "inc", "dec", "cmpxchg", "min", "max", "and", "or", "xor"):
    NOT_YET[f"atomic_{_n}"] = f"atomic_{_n}() is not supported yet"
    NOT_YET[f"atom_{_n}"] = f"atom_{_n}() is not supported yet"

# Identifiers the spec defines as constants of a type (6.12.2), spelled in C by
# the runtime under the same name.
CONSTANTS = {
    "INFINITY": (ty.FLOAT, "INFINITY"),
    "NAN": (ty.FLOAT, "NAN"),
    "HUGE_VALF": (ty.FLOAT, "HUGE_VALF"),
    "HUGE_VAL": (ty.DOUBLE, "HUGE_VAL"),
}
