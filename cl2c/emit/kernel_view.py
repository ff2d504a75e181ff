"""What the templates read of one kernel (``KernelView``): its launch plan, as lowering
decided it (workgroup/launch_plan.py), and the C text of its entry's parts, spelled
here once. The templates decide nothing about the launch: they print these."""
from __future__ import annotations

import copy
from dataclasses import dataclass

from pycparser import c_ast

from .. import declarators
from .. import types as ty
from ..language_version import LanguageVersion
from ..checking import loud_local_atomics, loud_local_reads
from ..lower import KernelModel
from ..lower.alike_groups import ATOMICS, READS
from ..lower.workitems import is_type_declaration
from ..workgroup.builders.loops import IMAGE_FORMATS
from ..workgroup.launch_plan import LaunchPlan, LiveBound
from ..workgroup.names import GROUP, LOCAL_ID
from .cgen import CGenerator
from . import c_names
from .c_text import c_string


@dataclass(frozen=True)
class ArgInfo:
    """One entry of a kernel's cl2c_arg_info table (see cl2c/host.h), as C."""
    name: str              # a C string literal
    type_name: str         # a C string literal
    space: str             # CL2C_ADDRESS_...
    kind: str              # CL2C_ARG_...
    size: str              # the bytes args[i] points to, a C expression
    is_const: int
    writes: int            # 1: written; for images 2: read_write
    is_volatile: int       # a pointer to volatile
    is_restrict: int       # a restrict pointer
    align: int             # buffers: the alignment the kernel's C assumes of the pointer


@dataclass(frozen=True)
class LocalParam:
    """A __local pointer argument: its C type and its offset in the group's block."""
    name: str
    c_type: str
    offset: str


@dataclass(frozen=True)
class CheckedBuffer:
    """A buffer argument that a checking build's entry registers (cl2c_ck_buffer)."""
    index: int             # its argument index
    name: str              # as the kernel names it
    c_name: str
    space: str             # "__global" or "__constant"
    written: int
    shift: int             # log2 of its shadow granule
    align: int             # the alignment its address needs (its pointee type's)
    site: str              # where the kernel declares it, a cl2c_ck_site's initializer
    owned: str = ""        # cl2c_ck_owned's arguments after the buffer's, where each of its
                           # elements is one work-item's at most (lower/owned.py)


@dataclass(frozen=True)
class CheckedVariable:
    """A program-scope variable a checking build registers (cl2c_ck_variable)."""
    name: str
    c_name: str            # how the entry reaches it
    space: str
    shift: int             # log2 of its shadow granule; -1: bounds only


@dataclass(frozen=True)
class CheckedLocal:
    """__local memory a checking build's group registers (cl2c_ck_local)."""
    name: str
    pointer: str
    size: str
    shift: int


@dataclass(frozen=True)
class Checks:
    """What a checking build's entry registers."""
    collect: int           # 1: findings are collected, not stopped at
    buffers: tuple[CheckedBuffer, ...]
    variables: tuple[CheckedVariable, ...]
    locals: tuple[CheckedLocal, ...]
    alike_groups: int = 0  # 1: every group makes the same __local accesses, | 2: but
                           # atomics, | 4: but reads (check.h's cl2c_ck_group)


@dataclass(frozen=True)
class KernelView:
    """A kernel as the templates read it."""
    name: str
    c_name: str                    # its work-item function's C name
    plan: LaunchPlan
    uses_globals: bool             # reaches the program's __global variables
    printf: bool
    address_spaces: bool           # each group says where its __local memory is
    entry_params: str              # cl2c_kernel_<name>'s parameters
    argv_types: tuple[str, ...]    # each argument's C type in cl2c_argv_<name>
    image_args: tuple[str, ...]
    image_formats: tuple[tuple[str, str], ...]   # (suffix, images.h's name) per common
                                                 # format, where it takes images
    local_params: tuple[LocalParam, ...]
    local_bytes: str               # a group's __local block, a C expression ("": none)
    local_block: str               # where a group's block starts and its bytes, as the
                                   # arguments of a call ("NULL, 0": none)
    local_span: str                # the same as a cl2c_span (spaces.h)
    locals_struct: bool            # its kernel-scope __local variables' struct
    locals_offset: str             # where that struct starts in the block
    local_vars_bytes: str          # that struct's size, a C expression ("0": none)
    reqd: str                      # its reqd_work_group_size, a C expression or NULL
    reqd_sizes: str                # the same as an initializer's values
    attributes: str                # as CL_KERNEL_ATTRIBUTES tells them, a C string
    non_uniform: int               # the last groups may be smaller (2.0)
    group_call_args: str           # the arguments of its work-group function
    fiber_fields: tuple[str, ...]  # the fibers' argument struct's fields
    fiber_values: tuple[str, ...]  # and their values
    fiber_call_args: str
    arg_infos: tuple[ArgInfo, ...]
    checks: Checks | None          # a checking build's registrations; None: unchecked
    live_bounds: tuple[str, ...] = ()  # the plan's live bounds (live_groups.py), each a
                                   # call of cl2c_live_below in the entry
    live_dims: tuple[int, ...] = ()    # the dimensions they bound
    loop: "LoopView | None" = None  # its last loop as a dimension (plan.loop), as the
                                   # entry checks and runs it


@dataclass(frozen=True)
class LoopView:
    """A plan's LoopLaunch as the entry's C: ``args`` the C names of the arguments its
    accesses span (cl2c_least and cl2c_most by their index), ``tests`` what the entry
    checks, in order (host.h's cl2c_loop_span and cl2c_loop_apart)."""
    var: str
    count: int
    group: str                     # the work-group function the entry calls
    transposed: bool
    tile_rows: int
    tile_cols: str
    args: tuple[str, ...]
    tests: tuple[str, ...]


_ADDRESS = {"global": "CL2C_ADDRESS_GLOBAL", "constant": "CL2C_ADDRESS_CONSTANT",
            "local": "CL2C_ADDRESS_LOCAL"}


def kernel_view(k: KernelModel, cl_std: LanguageVersion, renames: dict[str, str],
                constants=(), program_globals=()) -> KernelView:
    """``k`` as the templates read it: ``renames`` the C spellings of names
    (emit/c_names.py), ``constants`` the program's __constant variables and
    ``program_globals`` its __global ones."""
    decls = {p.name: p for p in k.info.node.decl.type.args.params
             if isinstance(p, c_ast.Decl)}
    entry, argv, locals_ = ["const cl2c_range *cl2c_r"], [], []
    call = [f"&{GROUP}"]
    fields, values, fcall = [], [], [f"a->{GROUP}, {', '.join(LOCAL_ID)}"]
    if k.local_decls:
        call.append("cl2c_locals")
        fields.append(f"struct {k.name}__locals *cl2c_locals")
        values.append("cl2c_locals")
        fcall.append("a->cl2c_locals")
    offsets, arg_infos, images = [], [], []
    for p in k.args:
        name = renames.get(p.name, p.name)      # its C spelling (emit/c_names.py)
        decl = decls[name]
        if p.kind == "local":
            entry.append(f"size_t cl2c_{name}_bytes")
            argv.append("const size_t")
            locals_.append(LocalParam(name, _type_text(decl), " + ".join(offsets) or "0"))
            fields.append(_decl_text(_unqualified(decl)))
            offsets.append(f"cl2c_local_round(cl2c_{name}_bytes)")
        else:
            entry.append(_decl_text(decl))
            argv.append(_type_text(decl))
            fields.append(_decl_text(_unqualified(decl)))
        if p.kind == "image":
            images.append(name)
        call.append(name)
        values.append(name)
        fcall.append(f"a->{name}")
        arg_infos.append(_arg_info(p, argv[-1]))
    locals_offset = " + ".join(offsets) or "0"
    if k.local_decls:
        offsets.append(f"cl2c_local_round(sizeof(struct {k.name}__locals))")
    reqd = k.reqd_work_group_size
    return KernelView(
        name=k.name, c_name=renames.get(k.name, k.name), plan=k.plan,
        uses_globals=bool(k.info.globals), printf=k.printf, address_spaces=k.address_spaces,
        entry_params=", ".join(entry), argv_types=tuple(argv), image_args=tuple(images),
        image_formats=tuple((suffix, fmt) for suffix, fmt, _ in IMAGE_FORMATS) if images else (),
        local_params=tuple(locals_), local_bytes=" + ".join(offsets),
        local_block="cl2c_local_block, cl2c_local_stride" if offsets else "NULL, 0",
        local_span="(cl2c_span){cl2c_local_block, cl2c_local_block + cl2c_local_stride}"
        if offsets else "(cl2c_span){NULL, NULL}",
        locals_struct=bool(k.local_decls), locals_offset=locals_offset,
        local_vars_bytes=f"sizeof(struct {k.name}__locals)" if k.local_decls else "0",
        reqd=f"(const size_t[3]){{{reqd[0]}, {reqd[1]}, {reqd[2]}}}" if reqd else "NULL",
        reqd_sizes=", ".join(str(n) for n in (reqd or (0, 0, 0))),
        attributes=c_string(k.info.attribute_text),
        non_uniform=1 if cl_std.non_uniform_work_groups else 0,
        group_call_args=", ".join(call),
        fiber_fields=tuple(fields), fiber_values=tuple(values),
        fiber_call_args=", ".join(fcall), arg_infos=tuple(arg_infos),
        checks=_checks(k, renames, constants, program_globals if k.info.globals else ()),
        live_bounds=tuple(_live_bound_text(b, renames) for b in k.plan.live),
        live_dims=tuple(sorted({b.dim for b in k.plan.live})),
        loop=_loop_view(k.plan.loop, renames))


def _loop_view(loop, renames: dict[str, str]) -> LoopView | None:
    if loop is None:
        return None
    names = sorted({s.param for s in loop.spans})
    at = {a: i for i, a in enumerate(names)}
    args = tuple(renames.get(a, a) for a in names)
    span = "cl2c_loop_span(cl2c_g_lo, cl2c_g_hi, {}, {}, {}, &{}, &{})"
    spanned = {(s.gid, s.lo, s.hi) for s in loop.spans}     # (which check their range too)
    tests = [span.format(s.gid, s.lo, s.hi, "cl2c_lo", "cl2c_hi") for s in loop.fits
             if (s.gid, s.lo, s.hi) not in spanned]
    tests += [span.format(s.gid, s.lo, s.hi, f"cl2c_least[{at[s.param]}]",
                          f"cl2c_most[{at[s.param]}]") for s in loop.spans]
    for a, b in loop.apart:
        i, j = at[a], at[b]
        tests.append(f"cl2c_loop_apart({args[i]}, cl2c_least[{i}], cl2c_most[{i}], "
                     f"sizeof *{args[i]}, {args[j]}, cl2c_least[{j}], cl2c_most[{j}], "
                     f"sizeof *{args[j]})")
    return LoopView(loop.var, loop.count, loop.group_functions[0].decl.name, loop.transposed,
                    loop.regroup.tile_rows, loop.regroup.tile_cols, args, tuple(tests))


def _live_bound_text(b: LiveBound, renames: dict[str, str]) -> str:
    """The entry's call that narrows ``cl2c_live`` by bound ``b``."""
    def text(e) -> str:
        e = copy.deepcopy(e)
        c_names.apply(e, renames)
        return CGenerator(False).visit(e)

    def value(e, signed: bool) -> str:
        return f"cl2c_live_value((long long)({text(e)}))" if signed \
            else f"cl2c_live_uvalue((unsigned long long)({text(e)}))"

    def ll(v: int) -> str:
        return f"(-{-v}LL)" if v < 0 else f"{v}LL"
    shift = "0" if b.shift is None else \
        ("-" if b.negate else "") + value(b.shift, b.shift_signed)
    exact = f"({text(b.limit)}) >= 0" if b.limit_nonneg else "1"
    return (f"cl2c_live_below(cl2c_live, &cl2c_nd, {b.dim}, {int(b.relative)}, "
            f"{ll(b.id_range[0])}, "
            f"{ll(b.id_range[1])}, {shift}, {ll(b.x_range[0])}, {ll(b.x_range[1])}, "
            f"{value(b.limit, b.limit_signed)}, {int(b.inclusive)}, {exact})")


def _arg_info(p, argv_type: str) -> ArgInfo:
    if p.kind == "buffer":
        kind, size = "CL2C_ARG_BUFFER", "sizeof(void *)"
    elif p.kind == "local":
        kind, size = "CL2C_ARG_LOCAL", "sizeof(size_t)"
    elif p.kind == "image":
        kind, size = "CL2C_ARG_IMAGE", "sizeof(cl2c_image *)"
    elif p.kind == "sampler":
        kind, size = "CL2C_ARG_SAMPLER", "sizeof(cl2c_sampler_t)"
    else:
        kind, size = "CL2C_ARG_VALUE", f"sizeof({argv_type})"
    space = _ADDRESS.get(p.space, "CL2C_ADDRESS_PRIVATE") if p.kind in ("buffer", "local") \
        else "CL2C_ADDRESS_GLOBAL" if p.kind == "image" else "CL2C_ADDRESS_PRIVATE"
    # an image's writes: 1 for write_only, 2 for read_write (its access qualifier)
    writes = int(p.kind in ("buffer", "image") and bool(p.written))
    if p.kind == "image" and getattr(p.type, "access", None) == "read_write":
        writes = 2
    pointer = p.type if isinstance(p.type, ty.Pointer) else None
    return ArgInfo(c_string(p.name), c_string(p.type_name), space, kind, size,
                   int(bool(p.const)), writes, int(bool(pointer and pointer.volatile)),
                   int(bool(pointer and pointer.restrict)), p.start_align)


def _type_text(decl: c_ast.Decl) -> str:
    """The C type of a parameter declaration, without its name."""
    t = declarators.declaring(copy.deepcopy(decl.type), None)
    return CGenerator(False)._generate_type(t, emit_declname=False).strip()


def _unqualified(decl: c_ast.Decl) -> c_ast.Decl:
    """A parameter as a struct member: top-level const dropped (the struct is
    initialised once, then read)."""
    d = copy.deepcopy(decl)
    if isinstance(d.type, c_ast.TypeDecl):
        d.type.quals = [q for q in d.type.quals or [] if q != "const"]
    d.quals = [q for q in d.quals or [] if q != "const"]
    return d


def _decl_text(decl: c_ast.Decl) -> str:
    d = copy.deepcopy(decl)
    d.funcspec = [f for f in d.funcspec or [] if f != "CL2C_UNUSED"]
    return CGenerator(False).visit(d)


def _alignment(t) -> int:
    """The alignment a pointer to ``t`` needs (1: none to check; void, opaque types)."""
    try:
        return ty.type_align(t) if t is not None else 1
    except (TypeError, ValueError, AttributeError):
        return 1


def _granule(t) -> int:
    """log2 of the shadow granule of memory of element type ``t``: 4 bytes where its
    elements are a multiple of 4 bytes, else 1 (work-items may write neighbouring
    bytes)."""
    while isinstance(t, ty.Array):
        t = t.elem
    size = ty.type_size(t) if t is not None else 0
    return 2 if size and size % 4 == 0 else 0


def _owned_arguments(owned, k: KernelModel, renames: dict[str, str]) -> str:
    """cl2c_ck_owned's arguments for a buffer of Owned ``owned``: the dimensions, the
    width (a long long expression of the entry's) and whether a guard bounds the ids."""
    width = "0"
    if owned.width:
        (c, factors), = owned.width
        width = f"{c}LL"
        for f in factors:
            if f.startswith("arg"):
                arg = k.args[int(f[3:])]
                width += f" * (long long){renames.get(arg.name, arg.name)}"
            else:                                   # gsize<d>
                width += f" * (long long)cl2c_ck_count(cl2c_r, {f[5:]})"
    return f"{owned.along}, {owned.across}, {width}, {int(owned.guarded)}"


def _checks(k: KernelModel, renames: dict[str, str], constants=(),
            program_globals=()) -> Checks | None:
    """What a checking build's entry registers: its buffers (argument index, name,
    space, whether written, log2 of the shadow granule), the program's __constant
    variables (bounds only: accesses through pointers into them; shift -1: no shadow),
    the __global ones it uses (bounds and races) and __local memory."""
    if not k.plan.check:
        return None
    buffers, locals_ = [], []
    for i, p in enumerate(k.args):
        name = renames.get(p.name, p.name)
        if p.kind == "buffer":
            coord = k.info.params[i].coord if i < len(k.info.params) else None
            site = f"{{{c_string(str(coord.file))}, {coord.line}, {coord.column}, 0, 0}}" \
                if coord else '{"?", 0, 0, 0, 0}'
            owned = k.owned.get(p.name)
            buffers.append(CheckedBuffer(i, p.name, name, f"__{p.space or 'global'}",
                                         int(p.written), _granule(p.type.pointee),
                                         _alignment(p.type.pointee), site,
                                         _owned_arguments(owned, k, renames)
                                         if owned is not None and p.written else ""))
        elif p.kind == "local":
            locals_.append(CheckedLocal(p.name, name, f"cl2c_{name}_bytes",
                                        _granule(p.type.pointee)))
    for d in k.local_decls:
        if isinstance(d, c_ast.Decl) and d.name and not is_type_declaration(d):
            field = renames.get(d.name, d.name)
            locals_.append(CheckedLocal(d.name, f"&cl2c_locals->{field}",
                                        f"sizeof cl2c_locals->{field}",
                                        _granule(getattr(d, "ty", None))))
    variables = [CheckedVariable(d.name, renames.get(d.name, d.name), "__constant", -1)
                 for d in constants] + \
        [CheckedVariable(d.name, f"((struct cl2c_globals *)cl2c_nd.globals)->"
                         f"{renames.get(d.name, d.name)}", "__global",
                         _granule(getattr(d, "ty", None)))
         for d in program_globals if d.name]
    return Checks(int(k.plan.check == "collect"), tuple(buffers), tuple(variables),
                  tuple(locals_), _alike(k))


def _alike(k: KernelModel) -> int:
    """cl2c_ck_group's alike: 0 where the kernel's groups may make different __local
    accesses (alike_groups.py); else 1, plus 2 where its atomics may vary and plus 4
    where its reads may, where every function that runs the kernel checks each such
    access as one of a phase that touches its variable only so (phases.py)."""
    varying, plan = k.alike_groups, k.plan
    if varying is None:
        return 0
    if not varying:
        return 1
    if plan.schedule.calls_item_function or not plan.group_functions:
        return 0
    functions = plan.functions()
    if ATOMICS in varying and any(loud_local_atomics(f) for f in functions) or \
            READS in varying and any(loud_local_reads(f) for f in functions):
        return 0
    return 1 | (2 if ATOMICS in varying else 0) | (4 if READS in varying else 0)
