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
results); ``M`` a select mask: for vector T an integer vector of T's width and element
size, signed or unsigned (igentype or ugentype), for scalar T an integer; ``D`` the integer type of twice T's element size, of T's signedness
and width (upsample); ``T*`` a pointer to T in any address space; ``local T*`` or
``global|generic|private T*`` a pointer into those address spaces only, to a
non-const T (``const global T*``: const or not); ``atomic T*`` a pointer to the atomic
type of T (``global|generic atomic T*``: atomic_int* for T int); and fixed type names
(``event_t`` also takes an integer: 0 is "no event"). A ``T*`` argument decides
T when its pointee is in the family (``atomic_inc(p)``).

A second width: the patterns ``Tn`` (a vector of T's element type) and ``Un``
(a vector of the unsigned integer type of T's element size) have a width n of
their own, which the first argument matching such a pattern decides and which
ranges over the vector widths of the family. ``shuffle(x, mask)`` is
``["T", "Un"] -> "Tn"``: the result takes its element type from x and its
width from the mask. Such a row's runtime function is ``cl2c_<name>_<T>_<n>``
(``c_name`` may use ``{n}``); its ``macro`` instantiates it from T's element
type, T's width and n.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import types as ty
from .language_version import CL1_0, CL2_0, CL3_0, LanguageVersion

# ---- type families ---------------------------------------------------------

def _with_vectors(scalars):
    out = list(scalars)
    for s in scalars:
        out += [ty.Vector(s, n) for n in ty.VECTOR_WIDTHS]
    return tuple(out)


# half is in the families too: it has values only where cl_khr_fp16 is enabled (sema).
FLOATS = (ty.HALF, ty.FLOAT, ty.DOUBLE)
INTEGERS = (ty.CHAR, ty.UCHAR, ty.SHORT, ty.USHORT, ty.INT, ty.UINT, ty.LONG, ty.ULONG)
FAMILIES = {
    "F": _with_vectors(FLOATS),                          # gentype of the math functions
    # the half_ and native_ functions take float and floatn only (spec 6.12.2, table 9;
    # neither cl_khr_fp64 nor cl_khr_fp16 adds them)
    "Ff": _with_vectors((ty.FLOAT,)),
    "Fv": tuple(t for t in _with_vectors(FLOATS) if t.is_vector),
    "Fg": FLOATS + tuple(ty.Vector(s, n) for s in FLOATS for n in (2, 3, 4)),  # geometric
    "Fc": tuple(ty.Vector(s, n) for s in FLOATS for n in (3, 4)),           # cross
    # the fast_ geometric functions take float and floatn only (spec 6.12.5)
    "Fgf": (ty.FLOAT,) + tuple(ty.Vector(ty.FLOAT, n) for n in (2, 3, 4)),
    "I": _with_vectors(INTEGERS),
    "Iv": tuple(t for t in _with_vectors(INTEGERS) if t.is_vector),
    # any/all take signed integers only (spec 6.12.6: igentype)
    "Is": _with_vectors((ty.CHAR, ty.SHORT, ty.INT, ty.LONG)),
    "I32": _with_vectors((ty.INT, ty.UINT)),
    "Id": _with_vectors(INTEGERS[:6]),                   # integers with a D (upsample)
    "A": _with_vectors(INTEGERS + FLOATS),
    "Av": tuple(t for t in _with_vectors(INTEGERS + FLOATS) if t.is_vector),
    # shuffle's gentypem: no 3-vectors (spec 6.12.12: m and n are 2, 4, 8 or 16)
    "Ap": tuple(t for t in _with_vectors(INTEGERS + FLOATS) if t.is_vector and t.n != 3),
    # the types of the 2.0 work-group collective functions
    "W": (ty.INT, ty.UINT, ty.LONG, ty.ULONG, ty.FLOAT, ty.DOUBLE),
    # the 1.x atomic functions: atomic_* on 32-bit integers, atom_* also on
    # 64-bit ones (cl_khr_int64_base_atomics / cl_khr_int64_extended_atomics)
    "At32": (ty.INT, ty.UINT),
    "At64": (ty.INT, ty.UINT, ty.LONG, ty.ULONG),
    "Atf": (ty.FLOAT,),
    # the value types of the OpenCL C 2.0 atomic types: all of them (load, store,
    # exchange, compare-exchange), the integer ones (fetch_<op>), atomic_flag's
    "Aa": ty.ATOMIC_VALUES,
    "Ai": tuple(t for t in ty.ATOMIC_VALUES if t.is_integer),
    "Afl": (ty.INT,),
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
    group_uniform: bool = False  # a work-item function whose value is the group's, the
                                 # same for every work-item (get_group_id)
    range_only: bool = False     # a work-item function of the NDRange alone, blind to
                                 # its work-groups (get_global_id)
    broadcast: bool = False      # scalar S arguments are widened to T before the call
    sync: bool = False           # a work-group synchronisation point (a barrier)
    effects: bool = False        # acts beyond its value (fences; pointer parameters,
                                 # atomics and sync are effects by their rows already)
    macro: str = ""              # runtime macro that instantiates the row for T, on use
    since: LanguageVersion = CL1_0  # the OpenCL C version that has it
    reads: bool = False          # reads memory its arguments do not show (an image's)
    exact: bool = False          # arguments of fixed scalar types must be of exactly
                                 # those types (image coordinates: int and float choose
                                 # different functions, as overloads do in clang)
    outputs: tuple = ()          # the pointer parameters it stores a second result
                                 # through, reading nothing there (fract's, sincos's)
    header: str = ""             # the runtime header that defines it, where cl2c/cl2c.h
                                 # leaves it out (a program's C includes it on use)

    @property
    def has_effects(self) -> bool:
        """It acts beyond its value: a synchronisation point, a fence or an image write
        (``effects``), or it writes through a pointer parameter (the atomics, fract's
        and sincos's results, the async copies' destinations)."""
        return self.sync or self.effects or \
            any(p.endswith("*") and not p.startswith("const ") for p in self.params)

    @property
    def pure(self) -> bool:
        """Its value depends on its arguments (and the work-item) only: it writes
        nothing, reads no memory and is no synchronisation point."""
        return not (self.has_effects or self.reads or
                    any(p.endswith("*") for p in self.params))

    @property
    def sees_groups(self) -> bool:
        """Its value or effect depends on how the NDRange is cut into work-groups."""
        return self.sync or (self.workitem and not self.range_only)

    def runtime_name(self, t: ty.Type | None, n: int | None = None) -> str:
        """The C function for generic type ``t`` (and free width ``n``)."""
        if self.c_name:
            return self.c_name.format(T=t.name if t else "", n=n)
        name = f"cl2c_{self.name}_{t.name}" if t is not None else f"cl2c_{self.name}"
        return name if n is None else f"{name}_{n}"

    def macro_args(self, t: ty.Type, n: int | None = None) -> tuple:
        """The arguments of ``macro``: T, or T's element type, T's width and n."""
        return (t.name,) if n is None else (ty.scalar_of(t).name, ty.width(t), n)


def free_width_base(pat: str) -> str | None:
    """``T`` for ``Tn``, ``U`` for ``Un``: the pattern a second-width pattern widens."""
    return pat[0] if len(pat) == 2 and pat[0] in "TU" and pat[1] == "n" else None


def family_widths(family: str) -> set:
    """The vector widths among a family's types: the range of a free width n."""
    return {t.n for t in FAMILIES[family] if t.is_vector}


def _rows(names, params, ret, family, **kw):
    return [Builtin(n, tuple(params), ret, family, **kw) for n in names.split()]


TABLE: list[Builtin] = []
_add = TABLE.extend

# 6.12.1 work-item functions
_add(_rows("get_global_id", ["uint"], "size_t", "-", workitem=True, range_only=True))
_add(_rows("get_local_id", ["uint"], "size_t", "-", workitem=True))
_add(_rows("get_global_size get_global_offset", ["uint"], "size_t", "-", workitem=True,
           group_uniform=True, range_only=True))
_add(_rows("get_local_size get_num_groups get_group_id get_enqueued_local_size", ["uint"],
           "size_t", "-", workitem=True, group_uniform=True))
_add(_rows("get_work_dim", [], "uint", "-", workitem=True, group_uniform=True,
           range_only=True))
_add(_rows("get_global_linear_id", [], "size_t", "-", workitem=True, range_only=True))
_add(_rows("get_local_linear_id", [], "size_t", "-", workitem=True))

# 6.12.8 synchronisation; 6.13.15 work-group functions (2.0). Every one is a
# point all work-items of a group reach together: the schedules treat them as
# barriers (workgroup/builders/ cuts the kernel there; fibers switch there).
_add(_rows("barrier", ["uint"], "void", "-", sync=True, c_name="cl2c_barrier"))
_add(_rows("work_group_barrier", ["uint"], "void", "-", sync=True, c_name="cl2c_barrier",
           since=CL2_0))
_add(_rows("work_group_barrier", ["uint", "int"], "void", "-", sync=True,
           c_name="cl2c_barrier2", since=CL2_0))
_add(_rows("work_group_all work_group_any", ["int"], "int", "-", sync=True, workitem=True,
           since=CL2_0))
_add(_rows("work_group_reduce_add work_group_reduce_min work_group_reduce_max "
           "work_group_scan_inclusive_add work_group_scan_inclusive_min "
           "work_group_scan_inclusive_max work_group_scan_exclusive_add "
           "work_group_scan_exclusive_min work_group_scan_exclusive_max", ["T"], "T", "W",
           sync=True, workitem=True, since=CL2_0))
for coordinates in (1, 2, 3):
    _add(_rows("work_group_broadcast", ["T"] + ["size_t"] * coordinates, "T", "W", sync=True,
               workitem=True, c_name=f"cl2c_work_group_broadcast{coordinates}_{{T}}",
               since=CL2_0))

# cl_khr_subgroups (2.0): a sub-group is the whole work-group, so its functions are
# the work-group's, with the sub-group local id its local linear id.
_add(_rows("get_sub_group_size get_max_sub_group_size get_num_sub_groups "
           "get_enqueued_num_sub_groups get_sub_group_id", [], "uint", "-", workitem=True,
           group_uniform=True, since=CL2_0))
_add(_rows("get_sub_group_local_id", [], "uint", "-", workitem=True, since=CL2_0))
_add(_rows("sub_group_barrier", ["uint"], "void", "-", sync=True, c_name="cl2c_barrier",
           since=CL2_0))
_add(_rows("sub_group_barrier", ["uint", "int"], "void", "-", sync=True,
           c_name="cl2c_barrier2", since=CL2_0))
for op in ("all", "any"):
    _add(_rows(f"sub_group_{op}", ["int"], "int", "-", sync=True, workitem=True,
               c_name=f"cl2c_work_group_{op}", since=CL2_0))
for op in ("reduce_add", "reduce_min", "reduce_max", "scan_inclusive_add",
           "scan_inclusive_min", "scan_inclusive_max", "scan_exclusive_add",
           "scan_exclusive_min", "scan_exclusive_max"):
    _add(_rows(f"sub_group_{op}", ["T"], "T", "W", sync=True, workitem=True,
               c_name=f"cl2c_work_group_{op}_{{T}}", since=CL2_0))
_add(_rows("sub_group_broadcast", ["T", "uint"], "T", "W", sync=True, workitem=True,
           c_name="cl2c_work_group_broadcast_linear_{T}", since=CL2_0))

# 6.12.2 math functions
_add(_rows("acos acosh acospi asin asinh asinpi atan atanh atanpi cbrt ceil cos cosh cospi "
           "erfc erf exp exp2 exp10 expm1 fabs floor lgamma log log2 log10 log1p logb rint "
           "round rsqrt sin sinh sinpi sqrt tan tanh tanpi tgamma trunc", ["T"], "T", "F"))
_add(_rows("atan2 atan2pi copysign fdim fmod hypot maxmag minmag nextafter pow powr remainder",
           ["T", "T"], "T", "F"))
_add(_rows("native_cos native_exp native_exp2 native_exp10 native_log native_log2 native_log10 "
           "native_recip native_rsqrt native_sin native_sqrt native_tan "
           "half_cos half_exp half_exp2 half_exp10 half_log half_log2 half_log10 half_recip "
           "half_rsqrt half_sin half_sqrt half_tan", ["T"], "T", "Ff"))
_add(_rows("native_divide native_powr half_divide half_powr", ["T", "T"], "T", "Ff"))
_add(_rows("fmax fmin", ["T", "T"], "T", "F"))
_add(_rows("fmax fmin", ["T", "S"], "T", "Fv", broadcast=True))
_add(_rows("fma mad", ["T", "T", "T"], "T", "F"))
_add(_rows("pown rootn ldexp", ["T", "I"], "T", "F"))
_add(_rows("ldexp", ["T", "int"], "T", "Fv", c_name="cl2c_ldexpi_{T}"))
_add(_rows("ilogb", ["T"], "I", "F"))
_add(_rows("nan", ["U"], "T", "F"))
_add(_rows("fract modf", ["T", "T*"], "T", "F", outputs=(1,)))
_add(_rows("frexp lgamma_r", ["T", "I*"], "T", "F", outputs=(1,)))
_add(_rows("sincos", ["T", "T*"], "T", "F", outputs=(1,)))
_add(_rows("remquo", ["T", "T", "I*"], "T", "F", outputs=(2,)))

# 6.12.3 integer functions
_add(_rows("abs", ["T"], "U", "I"))
_add(_rows("abs_diff", ["T", "T"], "U", "I"))
_add(_rows("add_sat sub_sat hadd rhadd mul_hi rotate", ["T", "T"], "T", "I"))
_add(_rows("clz popcount", ["T"], "T", "I"))
_add(_rows("ctz", ["T"], "T", "I", since=CL2_0))
_add(_rows("mad_hi mad_sat", ["T", "T", "T"], "T", "I"))
_add(_rows("mad24", ["T", "T", "T"], "T", "I32"))
_add(_rows("mul24", ["T", "T"], "T", "I32"))
# upsample(hi, lo): ((D)hi << bits) | lo, lo unsigned, the result twice as wide
_add(_rows("upsample", ["T", "U"], "D", "Id"))

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
_add(_rows("normalize", ["T"], "T", "Fg"))
_add(_rows("fast_normalize", ["T"], "T", "Fgf"))
_add(_rows("fast_length", ["T"], "R", "Fgf"))
_add(_rows("fast_distance", ["T", "T"], "R", "Fgf"))
_add(_rows("cross", ["T", "T"], "T", "Fc"))

# 6.12.6 relational functions
_add(_rows("isequal isnotequal isgreater isgreaterequal isless islessequal islessgreater "
           "isordered isunordered", ["T", "T"], "K", "F"))
_add(_rows("isfinite isinf isnan isnormal signbit", ["T"], "K", "F"))
_add(_rows("any all", ["T"], "int", "Is"))
_add(_rows("bitselect", ["T", "T", "T"], "T", "A"))
_add(_rows("select", ["T", "T", "M"], "T", "A"))

# 6.12.9 explicit memory fences. A work-group runs on one thread, so a fence on
# __local memory only (CLK_LOCAL_MEM_FENCE) needs just a compiler barrier; with
# CLK_GLOBAL_MEM_FENCE it is a thread fence (sync.h).
_add(_rows("mem_fence read_mem_fence write_mem_fence", ["uint"], "void", "-", effects=True))

# 6.12.10 async copies and prefetch. The copy is done once per work-group, by
# the work-item whose local ids are all 0 (it needs the work-item context); the
# direction of a strided copy follows the address spaces of its pointers.
# wait_group_events is a work-group synchronisation point: a barrier to the
# schedules (sync); the call itself does nothing (async.h).
_add(_rows("async_work_group_copy", ["local T*", "const global T*", "size_t", "event_t"],
           "event_t", "A", workitem=True, macro="CL2C_ASYNC_COPY"))
_add(_rows("async_work_group_copy", ["global T*", "const local T*", "size_t", "event_t"],
           "event_t", "A", workitem=True, macro="CL2C_ASYNC_COPY"))
_add(_rows("async_work_group_strided_copy",
           ["local T*", "const global T*", "size_t", "size_t", "event_t"], "event_t", "A",
           workitem=True, macro="CL2C_ASYNC_GATHER", c_name="cl2c_async_gather_{T}"))
_add(_rows("async_work_group_strided_copy",
           ["global T*", "const local T*", "size_t", "size_t", "event_t"], "event_t", "A",
           workitem=True, macro="CL2C_ASYNC_SCATTER", c_name="cl2c_async_scatter_{T}"))
_add(_rows("wait_group_events", ["int", "event_t*"], "void", "-", sync=True))
_add(_rows("prefetch", ["const global T*", "size_t"], "void", "A", c_name="cl2c_prefetch"))

# 6.12.11 atomic functions (OpenCL 1.1/1.2) and the atom_* functions of the
# cl_khr_{global,local}_int32_{base,extended}_atomics and cl_khr_int64_*_atomics
# extensions. They return the old value. They take __global and __local pointers only
# (clang declares no others: a private or 2.0 generic pointer finds no overload). The
# address space picks the runtime function: __global ones get real atomics, __local
# ones plain read-modify-writes, since a work-group runs on one thread (atomics.h).
ATOMICS_H = "cl2c/atomics.h"     # half the runtime's header text: only where used
for _prefix, _family in (("atomic_", "At32"), ("atom_", "At64")):
    for _space in ("global", "local"):
        _p = f"{_space} T*"
        _c = "cl2c_atomic_{op}_" + _space + "_{{T}}"
        for _op in ("add", "sub", "xchg", "min", "max", "and", "or", "xor"):
            _add(_rows(_prefix + _op, [_p, "T"], "T", _family, c_name=_c.format(op=_op),
                       header=ATOMICS_H))
        for _op in ("inc", "dec"):
            _add(_rows(_prefix + _op, [_p], "T", _family, c_name=_c.format(op=_op),
                       header=ATOMICS_H))
        _add(_rows(_prefix + "cmpxchg", [_p, "T", "T"], "T", _family,
                   c_name=_c.format(op="cmpxchg"), header=ATOMICS_H))
        if _prefix == "atomic_":      # atomic_xchg on float: OpenCL 1.1
            _add(_rows("atomic_xchg", [_p, "T"], "T", "Atf", c_name=_c.format(op="xchg"),
                       header=ATOMICS_H))


# 6.13.11 the C11 atomic functions of OpenCL C 2.0, on the atomic types (atomic_int,
# ...) through pointers; `atomic.h`'s header comment says how they are done. Like the
# 1.x functions, a __local object gets plain reads and writes (a work-group runs on one
# thread), any other pointer real atomics. Each <op>_explicit takes a memory_order (two
# for compare_exchange: success, failure) and optionally a memory_scope after it; cl2c
# honours all with seq_cst, which the spec always allows.
_ANYWHERE = "global|generic|private"     # a pointer that may point anywhere: real atomics


def _c11_rows(name, params, ret, family, orders):
    for space, spaces in (("global", _ANYWHERE), ("local", "local")):
        ps = [f"{spaces} atomic T*"] + params
        c = f"cl2c_{name}_{space}_{{T}}"
        _add(_rows(name, ps, ret, family, c_name=c, since=CL2_0, header=ATOMICS_H))
        if orders:
            explicit = f"cl2c_{name}_explicit_{space}_{{T}}"
            _add(_rows(name + "_explicit", ps + ["memory_order"] * orders, ret, family,
                       c_name=explicit, since=CL2_0, header=ATOMICS_H))
            _add(_rows(name + "_explicit", ps + ["memory_order"] * orders + ["memory_scope"],
                       ret, family, c_name=explicit + "_scope", since=CL2_0,
                       header=ATOMICS_H))


# atomic_init: a plain store, the object's first value (spec: not atomic)
_c11_rows("atomic_init", ["T"], "void", "Aa", 0)
_c11_rows("atomic_store", ["T"], "void", "Aa", 1)
_c11_rows("atomic_load", [], "T", "Aa", 1)
_c11_rows("atomic_exchange", ["T"], "T", "Aa", 1)
for _strength in ("strong", "weak"):
    # expected: a generic pointer (or a private one), where the old value goes on failure
    _c11_rows("atomic_compare_exchange_" + _strength, [f"{_ANYWHERE} T*", "T"], "bool", "Aa",
              2)
for _op in ("add", "sub", "or", "xor", "and", "min", "max"):
    _c11_rows("atomic_fetch_" + _op, ["T"], "T", "Ai", 1)
_c11_rows("atomic_flag_test_and_set", [], "bool", "Afl", 1)
_c11_rows("atomic_flag_clear", [], "void", "Afl", 1)
_add(_rows("atomic_work_item_fence", ["cl_mem_fence_flags", "memory_order", "memory_scope"],
           "void", "-", effects=True, since=CL2_0))


# 6.12.12 miscellaneous vector functions: the result has x's element type and the
# mask's width; the mask's elements are unsigned and of the size of x's (spec 6.12.12).
_add(_rows("shuffle", ["T", "Un"], "Tn", "Ap", macro="CL2C_SHUFFLE"))
_add(_rows("shuffle2", ["T", "T", "Un"], "Tn", "Ap", macro="CL2C_SHUFFLE2"))


# 6.12.14 image read and write functions and the image queries (runtime: images.h). An
# image is a pointer to the runtime's struct cl2c_image (host.h) and a sampler its CLK_*
# flags (a uint), so a row per image type, access qualifier, with or without a sampler and
# coordinate type; its runtime function is cl2c_<name>_<image>[_s]_<coordinates>
# (cl2c_read_imagef_image2d_s_float2). Reads with a sampler are read_only's; samplerless
# reads and writes are also read_write's (OpenCL C 2.0). The mip-mapped forms (a lod or
# gradients) are refused by sema (Calls.expr_FuncCall).
IMAGE_COORDINATES = {     # the image type: (int coordinates, float coordinates or None)
    "image1d_t": ("int", "float"), "image1d_buffer_t": ("int", None),
    "image1d_array_t": ("int2", "float2"), "image2d_t": ("int2", "float2"),
    "image2d_array_t": ("int4", "float4"), "image3d_t": ("int4", "float4"),
    "image2d_depth_t": ("int2", "float2"), "image2d_array_depth_t": ("int4", "float4"),
}
IMAGES_H = "cl2c/images.h"       # a program that declares an image or a sampler includes it
IMAGE_FUNCTIONS = ("read_imagef", "read_imagei", "read_imageui", "read_imageh",
                   "write_imagef", "write_imagei", "write_imageui", "write_imageh")
_PIXEL = {"f": "float4", "i": "int4", "ui": "uint4", "h": "half4"}


def _image_rows(image: str, coords: tuple) -> None:
    depth = image.endswith("_depth_t")
    short = image.removesuffix("_t")
    kinds = ("f",) if depth else ("f", "i", "ui", "h")
    access_since = (("read_only", CL1_0), ("read_write", CL2_0))
    for k in kinds:
        pixel = "float" if depth else _PIXEL[k]
        name = f"read_image{k}"
        if image != "image1d_buffer_t":
            for c in coords:
                if c is not None:
                    _add(_rows(name, ["read_only " + image, "sampler_t", c], pixel, "-",
                               c_name=f"cl2c_{name}_{short}_s_{c}", reads=True, exact=True))
        for access, since in access_since:
            _add(_rows(name, [f"{access} {image}", coords[0]], pixel, "-",
                       c_name=f"cl2c_{name}_{short}_{coords[0]}", reads=True, exact=True,
                       since=since))
        for access, since in (("write_only", CL1_0), ("read_write", CL2_0)):
            name = f"write_image{k}"
            _add(_rows(name, [f"{access} {image}", coords[0], pixel], "void", "-",
                       c_name=f"cl2c_{name}_{short}_{coords[0]}", effects=True, exact=True,
                       since=since))


def _image_query_rows(names: str, images, ret: str, c_name: str = "") -> None:
    for image in images:
        for access, since in (("read_only", CL1_0), ("write_only", CL1_0), ("read_write", CL2_0)):
            for name in names.split():
                _add(_rows(name, [f"{access} {image}"], ret, "-",
                           c_name=c_name or f"cl2c_{name}", since=since))


for _image, _coords in IMAGE_COORDINATES.items():
    _image_rows(_image, _coords)
_image_query_rows("get_image_width get_image_channel_data_type get_image_channel_order",
                  IMAGE_COORDINATES, "int")
_image_query_rows("get_image_height", ("image2d_t", "image2d_array_t", "image3d_t",
                                       "image2d_depth_t", "image2d_array_depth_t"), "int")
_image_query_rows("get_image_depth", ("image3d_t",), "int")
_image_query_rows("get_image_dim", ("image2d_t", "image2d_array_t", "image2d_depth_t",
                                    "image2d_array_depth_t"), "int2", "cl2c_get_image_dim2")
_image_query_rows("get_image_dim", ("image3d_t",), "int4", "cl2c_get_image_dim3")
_image_query_rows("get_image_array_size", ("image1d_array_t", "image2d_array_t",
                                           "image2d_array_depth_t"), "size_t")


# 6.13.9 address space qualifier functions (OpenCL C 2.0): on a pointer to any type, so
# sema knows them by name (Calls.address_space_query) and lowering calls
# cl2c_<name>(p) (spaces.h). The address space each one's result points into:
ADDRESS_SPACE_QUERIES = {"to_global": "global", "to_local": "local", "to_private": "private",
                         "get_fence": None}


def _index() -> dict[str, list[Builtin]]:
    by_name: dict[str, list[Builtin]] = {}
    for row in TABLE:
        by_name.setdefault(row.name, []).append(row)
    return by_name


BY_NAME = _index()

# Functions the spec defines that cl2c does not implement yet: named in errors.
# (printf is not a row: sema checks its format, cl2c/printf_format.py.)
NOT_YET: dict[str, str] = {}
# Pipes and device-side enqueue (OpenCL C 2.0, 6.13.16 and 6.13.17): not in cl2c; their
# syntax (pipe, blocks) is refused by the parser (parse.py).
NOT_YET.update(dict.fromkeys(
    "read_pipe write_pipe reserve_read_pipe reserve_write_pipe commit_read_pipe "
    "commit_write_pipe is_valid_reserve_id get_pipe_num_packets get_pipe_max_packets "
    "work_group_reserve_read_pipe work_group_reserve_write_pipe "
    "work_group_commit_read_pipe work_group_commit_write_pipe".split(),
    "pipes (read_pipe, write_pipe, ...) are not supported by cl2c"))
NOT_YET.update(dict.fromkeys(
    "enqueue_kernel enqueue_marker get_default_queue ndrange_1D ndrange_2D ndrange_3D "
    "retain_event release_event create_user_event is_valid_event set_user_event_status "
    "capture_event_profiling_info get_kernel_work_group_size "
    "get_kernel_preferred_work_group_size_multiple".split(),
    "device-side enqueue (enqueue_kernel, get_default_queue, ...) is not supported by "
    "cl2c"))

NOT_YET.update(dict.fromkeys(
    "get_image_num_mip_levels get_image_num_samples".split(),
    "mip-mapped and multi-sample images are not supported by cl2c"))

# Identifiers the spec defines as constants of a type (6.12.2), spelled in C by
# the runtime under the C name: (type, C name, the OpenCL C version that has it).
CONSTANTS = {
    "INFINITY": (ty.FLOAT, "INFINITY", CL1_0),
    "NAN": (ty.FLOAT, "NAN", CL1_0),
    "HUGE_VALF": (ty.FLOAT, "HUGE_VALF", CL1_0),
    "HUGE_VAL": (ty.DOUBLE, "HUGE_VAL", CL1_0),
}
# The enumerators of memory_order and memory_scope (OpenCL C 2.0, 6.13.11.4;
# sub_group and all_devices: 3.0), as atomics.h spells them.
CONSTANTS.update({f"memory_order_{o}": (ty.INT, f"CL2C_MEMORY_ORDER_{o.upper()}", CL2_0)
                  for o in ("relaxed", "acquire", "release", "acq_rel", "seq_cst")})
CONSTANTS.update({f"memory_scope_{s}": (ty.INT, f"CL2C_MEMORY_SCOPE_{s.upper()}", since)
                  for s, since in (("work_item", CL2_0), ("work_group", CL2_0), ("device", CL2_0),
                                   ("all_svm_devices", CL2_0), ("sub_group", CL3_0),
                                   ("all_devices", CL3_0))})
