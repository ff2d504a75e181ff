"""Stage 5: emission. The lowered program becomes C text through Jinja2 templates."""
from __future__ import annotations

import copy
import hashlib
import os
import re
from dataclasses import dataclass

import jinja2
from pycparser import c_ast

from ..version import __version__
from ..lower import KernelModel, LoweredProgram
from ..lower import interleaving
from ..lower.workitems import is_type_declaration
from ..language_version import CL1_2, LanguageVersion
from ..resources import templates_dir
from ..source_text import line_marker_name
from . import c_names
from .. import declarators
from .. import types as ty
from .cgen import CGenerator


@dataclass
class Emitted:
    source: str     # the .c translation unit
    header: str     # declarations of its entry points


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates_dir())),
                             undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["c_string"] = c_string
    env.filters["dedent"] = lambda text, n=4: re.sub(rf"(?m)^ {{1,{n}}}", "", text)
    return env


def emit(program: LoweredProgram, source_name: str, output_name: str = "kernel.c",
         cl_std: LanguageVersion = CL1_2, line_directives: bool = True) -> Emitted:
    nodes = [node for _, node in program.program_scope] + \
        [d for k in program.kernels for d in k.local_decls]
    renames = c_names.renames_for(nodes)
    for node in nodes:
        c_names.apply(node, renames)
    gen = CGenerator(line_directives)
    kernels = {renames.get(k.name, k.name): k for k in program.kernels}
    env = _environment()
    chunks, type_chunks = [], []
    storage = [node for kind, node in program.program_scope if _in_program_storage(kind, node)]
    items = program.program_scope
    if storage:
        # The types come first, then the variables' struct that may use them.
        items = [i for i in items if i[0] in ("typedef", "tag")] + \
            [("program_globals", None)] + \
            [i for i in items if i[0] not in ("typedef", "tag") and i[1] not in storage]
    for kind, node in items:
        if kind == "program_globals":
            chunks.append(_program_storage(storage, env))
            continue
        chunks.extend(_program_item(kind, node, kernels, gen))
        if kind in ("typedef", "tag"):
            type_chunks.append(_guarded_type(CGenerator(False).visit(node) + ";"))
    if storage:
        chunks.append(_program_initial_values(storage, env))
    constants = [node for kind, node in program.program_scope if _is_constant(kind, node)]
    kernel_views = [_kernel_view(k, cl_std, renames, constants, storage)
                    for k in program.kernels]
    context = dict(version=__version__, source=os.path.basename(source_name),
                   needs=[f"{m}({', '.join(args)})" for m, *args in program.needs],
                   program=chunks, kernels=kernel_views,
                   schedule_headers=sorted({k.schedule.header for k in program.kernels
                                            if k.schedule.header}),
                   uses_fp16=program.module.uses_fp16,
                   checking=program.checking,
                   check_sites=_check_sites(program.check_sites, chunks))
    context["program_symbol"] = program_symbol(output_name)
    context["program_globals"] = bool(storage)
    text = env.get_template("translation_unit.c.j2").render(**context)
    text = _resolve_tail_line(text, os.path.basename(output_name), line_directives)
    guard = re.sub(r"\W", "_", os.path.basename(output_name).upper()) + "_H"
    header = env.get_template("header.h.j2").render(
        version=__version__, source=os.path.basename(source_name), guard="CL2C_" + guard,
        types=type_chunks, kernels=kernel_views, program_symbol=context["program_symbol"],
        checking=context["checking"])
    return Emitted(text, header)


def _check_sites(sites: list, chunks: list) -> list:
    """The statics of the check sites that the emitted functions use: not those of
    helpers that no kernel calls, which are not emitted."""
    used = set(re.findall(r"\bcl2c_ck_s\d+\b", "\n".join(chunks))) if sites else set()
    return [f"static cl2c_ck_site {name} = {{{c_string(f)}, {line}, {col}, 0, 0}};"
            for name, f, line, col in sites if name in used]


def _is_constant(kind: str, node) -> bool:
    """A program-scope __constant variable (a C static)."""
    return kind == "variable" and getattr(node, "space", None) == "constant" and \
        bool(node.name)


def _in_program_storage(kind: str, node) -> bool:
    """A program-scope __global variable (OpenCL C 2.0), which is no C static."""
    return kind == "variable" and getattr(node, "space", None) == "global"


def _program_storage(variables: list, env: jinja2.Environment) -> str:
    fields = []
    for decl in variables:
        field = copy.copy(decl)
        field.init, field.storage = None, []
        fields.append(CGenerator(False).visit(field))
    return env.get_template("program_globals.c.j2").module.storage(fields)


def _program_initial_values(variables: list, env: jinja2.Environment) -> str:
    inits = []
    for decl in variables:
        if decl.init is None:
            continue
        local = copy.copy(decl)
        local.storage = []
        inits.append(_Param(name=decl.name, decl=CGenerator(False).visit(local)))
    return env.get_template("program_globals.c.j2").module.initial_values(inits)


def _guarded_type(text: str) -> str:
    """A type definition of a header, guarded by a hash of its text: one C file may
    include the headers of two .cl files that define the same type (one shared .h),
    while two different definitions of one name still clash, as they should."""
    guard = "CL2C_TYPE_" + hashlib.sha1(text.encode()).hexdigest()[:16].upper()
    return f"#ifndef {guard}\n#define {guard}\n{text}\n#endif"


def program_symbol(output_name: str) -> str:
    """The name of a generated file's cl2c_program_info: from the file's name, so
    that the files of one program do not clash."""
    stem = os.path.splitext(os.path.basename(output_name))[0]
    return "cl2c_program_" + re.sub(r"\W", "_", stem, flags=re.ASCII)


def c_string(text: str) -> str:
    """A C string literal (ASCII; other characters as octal escapes)."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif " " <= ch <= "~":
            out.append(ch)
        else:
            out.extend(f"\\{b:03o}" for b in ch.encode("utf-8"))
    return '"' + "".join(out) + '"'


_ADDRESS = {"global": "CL2C_ADDRESS_GLOBAL", "constant": "CL2C_ADDRESS_CONSTANT",
            "local": "CL2C_ADDRESS_LOCAL"}


def _arg_info(p, argv_type: str) -> _Param:
    """One entry of a kernel's cl2c_arg_info table (see cl2c/host.h)."""
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
    return _Param(name=c_string(p.name), type_name=c_string(p.type_name), space=space,
                  kind=kind, size=size, is_const=int(bool(p.const)), writes=writes)


def _resolve_tail_line(text: str, output_name: str, line_directives: bool) -> str:
    """Point the generated entry points back at the .c file itself."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line == "#line CL2C_TAIL_LINE":
            lines[i] = f'#line {i + 2} "{line_marker_name(output_name)}"' if line_directives else ""
    return "\n".join(lines)


def _program_item(kind: str, node, kernels: dict, gen: CGenerator) -> list[str]:
    if kind == "function":
        decl = node.decl
        kernel = kernels.get(decl.name)
        out = []
        if kernel is not None and kernel.local_decls:
            out += [gen.line_marker(d.coord) + gen.visit(d) + ";"
                    for d in kernel.local_decls if is_type_declaration(d)]
            fields = "".join(f"    {CGenerator(False).visit(d)};\n" for d in kernel.local_decls
                             if not is_type_declaration(d))
            out.append(f"/* The __local variables of kernel {kernel.name}, one set per "
                       f"work-group. */\nstruct {kernel.name}__locals {{\n{fields}}};\n")
        if kernel is not None and not kernel.item_function:
            return out          # its work-group function replaces it
        decl.storage = []
        decl.funcspec = ["static", "CL2C_ALWAYS_INLINE" if kernel is not None else "inline"]
        if kernel is not None:
            out.append(f"/* Kernel {kernel.name}: the work of one work-item. */")
        out.append(gen.visit(node))
        return out
    if kind == "group_function":
        node.decl.storage = []
        node.decl.funcspec = ["static", "CL2C_NOINLINE"]   # see Schedule.group_comment
        kernel = next(k for k in kernels.values() if any(f is node for f in k.group_functions))
        return [kernel.schedule.group_comment(kernel.name, node.decl.name), gen.visit(node)]
    if kind == "interleaved_function":
        node.decl.storage = []
        node.decl.funcspec = ["static", "CL2C_ALWAYS_INLINE"]
        name = node.decl.name[:-len(interleaving.SUFFIX)]
        return [f"/* Kernel {name} for several work-items at once, cl2c_l0's and the "
                f"cl2c_l0_<n>'s,\n * statement by statement: their chains of operations "
                f"overlap (lower/interleaving.py). */", gen.visit(node)]
    if kind == "prototype":
        node.storage = []
        node.funcspec = ["static", "inline"]
        return [gen.line_marker(node.coord) + gen.visit(node) + ";"]
    if kind == "variable":
        if "static" not in node.storage:
            node.storage = ["static"] + list(node.storage)
        return [gen.line_marker(node.coord) + gen.visit(node) + ";"]
    if kind in ("typedef", "tag", "static_assert"):
        return [gen.line_marker(node.coord) + gen.visit(node) + ";"]
    if kind == "pragma":
        return [gen.visit(node)]
    return []


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


class _Param:
    def __init__(self, **kw):
        self.__dict__.update(kw)


def _kernel_view(k: KernelModel, cl_std: LanguageVersion, renames: dict[str, str], constants=(),
                 program_globals=()):
    decls = {p.name: p for p in k.info.node.decl.type.args.params
             if isinstance(p, c_ast.Decl)}
    entry, argv, locals_ = ["const cl2c_range *cl2c_r"], [], []
    call = ["&cl2c_grp"]
    fields, values, fcall = [], [], ["a->cl2c_grp, cl2c_l0, cl2c_l1, cl2c_l2"]
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
            argv.append(_Param(argv_type="const size_t"))
            locals_.append(_Param(name=name, c_type=_type_text(decl),
                                  offset=" + ".join(offsets) or "0"))
            fields.append(_decl_text(_unqualified(decl)))
            offsets.append(f"cl2c_local_round(cl2c_{name}_bytes)")
        else:
            entry.append(_decl_text(decl))
            argv.append(_Param(argv_type=_type_text(decl)))
            fields.append(_decl_text(_unqualified(decl)))
        if p.kind == "image":
            images.append(name)
        call.append(name)
        values.append(name)
        fcall.append(f"a->{name}")
        arg_infos.append(_arg_info(p, argv[-1].argv_type))
    locals_offset = " + ".join(offsets) or "0"
    if k.local_decls:
        offsets.append(f"cl2c_local_round(sizeof(struct {k.name}__locals))")
    reqd = k.reqd_work_group_size
    return _Param(
        name=k.name, c_name=renames.get(k.name, k.name), schedule=k.schedule, reason=k.reason,
        dynamic=k.schedule.dynamic or k.uneven,
        uses_globals=k.info.globals,
        regroup=k.group_blind and k.schedule.regroups,
        tile_rows=k.tile_rows, serial_items=k.serial_items,
        entry_params=", ".join(entry), params=argv, image_args=images,
        local_params=locals_, local_bytes=" + ".join(offsets),
        locals_struct=bool(k.local_decls), locals_offset=locals_offset,
        reqd=f"(const size_t[3]){{{reqd[0]}, {reqd[1]}, {reqd[2]}}}" if reqd else "NULL",
        non_uniform=1 if cl_std.non_uniform_work_groups else 0,
        group_call_args=", ".join(call),
        fiber_fields=fields, fiber_values=values, fiber_call_args=", ".join(fcall),
        fiber_stack=k.fiber_stack, check=int(k.check_barriers or bool(k.check)),
        printf=k.printf,
        address_spaces=k.address_spaces, asan_locals=bool(k.local_bytes_poisoned),
        arg_infos=arg_infos, reqd_sizes=", ".join(str(n) for n in (reqd or (0, 0, 0))),
        **_check_view(k, renames, constants, program_globals if k.info.globals else ()))


def _granule(t) -> int:
    """log2 of the shadow granule of memory of element type ``t``: 4 bytes where its
    elements are a multiple of 4 bytes, else 1 (work-items may write neighbouring
    bytes)."""
    while isinstance(t, ty.Array):
        t = t.elem
    size = ty.type_size(t) if t is not None else 0
    return 2 if size and size % 4 == 0 else 0


def _check_view(k: KernelModel, renames: dict[str, str], constants=(),
                program_globals=()) -> dict:
    """What a checking build's entry registers: its buffers (argument index, name,
    space, whether written, log2 of the shadow granule), the program's __constant
    variables (bounds only: accesses through pointers into them; shift -1: no shadow),
    the __global ones it uses (bounds and races) and __local memory."""
    if not k.check:
        return dict(checking=False)
    buffers, locals_ = [], []
    for i, p in enumerate(k.args):
        name = renames.get(p.name, p.name)
        if p.kind == "buffer":
            buffers.append(_Param(index=i, name=p.name, c_name=name,
                                  space=f"__{p.space or 'global'}", written=int(p.written),
                                  shift=_granule(p.type.pointee)))
        elif p.kind == "local":
            locals_.append(_Param(name=p.name, pointer=name, size=f"cl2c_{name}_bytes",
                                  shift=_granule(p.type.pointee)))
    for d in k.local_decls:
        if isinstance(d, c_ast.Decl) and d.name and not is_type_declaration(d):
            field = renames.get(d.name, d.name)
            locals_.append(_Param(name=d.name, pointer=f"&cl2c_locals->{field}",
                                  size=f"sizeof cl2c_locals->{field}",
                                  shift=_granule(getattr(d, "ty", None))))
    variables = [_Param(name=d.name, c_name=renames.get(d.name, d.name), space="__constant",
                        shift=-1) for d in constants] + \
        [_Param(name=d.name, space="__global", shift=_granule(getattr(d, "ty", None)),
                c_name=f"((struct cl2c_globals *)cl2c_nd.globals)->{renames.get(d.name, d.name)}")
         for d in program_globals if d.name]
    return dict(checking=True, collect=int(k.check == "collect"), check_buffers=buffers,
                check_variables=variables, check_locals=locals_)
