"""Stage 5: emission. The lowered program becomes C text through Jinja2 templates."""
from __future__ import annotations

import copy
import functools
import hashlib
import os
import re
from dataclasses import dataclass

import jinja2

from ..version import __version__
from ..lower import LoweredProgram
from ..cnodes import LoopHint
from ..typed_ast import walk
from ..workgroup.builders import splits
from ..workgroup.passes import interleaving
from ..lower.workitems import is_type_declaration
from ..language_version import CL1_2, LanguageVersion
from ..resources import templates_dir
from ..source_text import line_marker_name
from . import c_names, shipped_templates, template_code
from .c_text import c_string
from .cgen import CGenerator
from .kernel_view import kernel_view
from .shipped_templates import OPTIONS
from ..split_compile import CompileParts
from ..workgroup.names import LOCAL_ID, way_id


@dataclass
class Emitted:
    source: str     # the .c translation unit
    header: str     # declarations of its entry points
    parts: CompileParts | None = None      # source cut for a compile in parts


@dataclass(frozen=True)
class InitialValue:
    """A program-scope __global variable with an initializer, for cl2c_globals_init."""
    name: str
    decl: str       # its declaration as a local, with the initializer


@functools.lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    """The templates' environment, one a process: it keeps each template compiled (60-140
    ms a template; every build paid them again when each made its own). Their code comes
    with the installed package (shipped_templates.py), else from the kernel cache, where
    this process keeps what it compiled for the next (template_code.py)."""
    templates = templates_dir()
    shipped = shipped_templates.loader(templates)
    if shipped is not None:
        env = jinja2.Environment(loader=shipped, **OPTIONS)
    else:
        env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates)),
                                 bytecode_cache=template_code.bytecode_cache(OPTIONS),
                                 **OPTIONS)
    env.filters.update(FILTERS)
    return env


def _dedent(text: str, n: int = 4) -> str:
    return re.sub(rf"(?m)^ {{1,{n}}}", "", text)


# (shipped_templates.FILTERS names them for the build)
FILTERS = {"c_string": c_string, "dedent": _dedent}


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
    defined = {node.name for kind, node in program.program_scope
               if kind == "variable" and "extern" not in (node.storage or [])}
    items = program.program_scope
    if storage:
        # The types come first, then the variables' struct that may use them.
        items = [i for i in items if i[0] in ("typedef", "tag")] + \
            [("program_globals", None)] + \
            [i for i in items if i[0] not in ("typedef", "tag") and i[1] not in storage]
    owners = []         # of each chunk: the index of the kernel it is alone to, or None
    for kind, node in items:
        if kind == "program_globals":
            chunks.append(_program_storage(storage, env))
            owners.append(None)
            continue
        item = _program_item(kind, node, kernels, gen, defined)
        chunks.extend(item)
        owners.extend([_owner(kind, node, program.kernels)] * len(item))
        if kind in ("typedef", "tag"):
            type_chunks.append(_guarded_type(CGenerator(False).visit(node) + ";"))
    if storage:
        chunks.append(_program_initial_values(storage, env))
        owners.append(None)
    constants = [node for kind, node in program.program_scope if _is_constant(kind, node)]
    kernel_views = [kernel_view(k, cl_std, renames, constants, storage)
                    for k in program.kernels]
    context = dict(version=__version__, source=os.path.basename(source_name),
                   needs=[f"{m}({', '.join(args)})" for m, *args in program.needs],
                   program=chunks, kernels=kernel_views,
                   schedule_headers=sorted({k.plan.schedule.header for k in program.kernels
                                            if k.plan.schedule.header}),
                   uses_fp16=program.module.uses_fp16,
                   runtime_headers=sorted(program.module.runtime_headers),
                   checking=program.checking,
                   check_sites=_check_sites(program.check_sites, chunks))
    context["program_symbol"] = program_symbol(output_name)
    context["program_globals"] = bool(storage)
    # clang's loop hints (workgroup/tiles.py), which GCC warns of under -Wall
    context["clang_loop_hints"] = _plans_hold(program, lambda n: isinstance(n, LoopHint))
    # regions split where a comparison with the local id is known (builders/splits.py)
    context["split_regions"] = _plans_hold(program, splits.narrows)
    pieces = _resolve_tail_line(env.get_template("translation_unit.c.j2").render(
        part=_PART, **context), os.path.basename(output_name), line_directives).split(_PART)
    text = "".join(pieces)
    guard = re.sub(r"\W", "_", os.path.basename(output_name).upper()) + "_H"
    header = env.get_template("header.h.j2").render(
        version=__version__, source=os.path.basename(source_name), guard="CL2C_" + guard,
        types=type_chunks, kernels=kernel_views, program_symbol=context["program_symbol"],
        checking=context["checking"])
    parts = None if program.checking else _parts(
        pieces, owners, env, kernel_views,
        os.path.basename(output_name) if line_directives else None)
    return Emitted(text, header, parts)


# Where the template cuts the translation unit (emit strips it): a character no C has.
_PART = "\x01"


def _parts(pieces: list[str], owners: list, env: jinja2.Environment, kernel_views: list,
           output_name: str | None) -> CompileParts | None:
    """The parts of a translation unit cut at _PART: what comes before the program's
    chunks, each chunk (with its owner), one entry a kernel and the metadata. None where
    it holds no kernel."""
    if len(pieces) != 1 + len(owners) + len(kernel_views) + 1 or not kernel_views:
        return None
    first_lines, line = [], 1
    for piece in pieces:
        first_lines.append(line)
        line += piece.count("\n")
    prelude = len(owners) + 1
    declare = env.get_template("entry_points.c.j2").module.argv_declaration
    return CompileParts(
        tuple(zip([None, *owners], first_lines, pieces[:prelude])),
        tuple(pieces[prelude:-1]), pieces[-1], tuple(first_lines[prelude:]),
        line_marker_name(output_name) if output_name else None,
        "".join(str(declare(k)) for k in kernel_views))


def _plans_hold(program: LoweredProgram, found) -> bool:
    """Whether a node of a function that some kernel's launch plan runs is ``found``."""
    return any(found(node) for k in program.kernels for f in k.plan.functions()
               for node in walk(f))


def _owner(kind: str, node, kernels: list) -> int | None:
    """The index of the kernel that alone calls program item ``node``: a work-group
    function, which every C compile outputs (GCC compiles every static function at
    -O0, and these are out of line). None for an item that any kernel may use."""
    return _group_function_kernel(node, kernels) if kind == "group_function" else None


def _group_function_kernel(node, kernels: list) -> int:
    """The index in ``kernels`` of the kernel whose work-group function ``node`` is."""
    return next(i for i, k in enumerate(kernels)
                if any(f is node for f in k.plan.group_functions) or
                k.plan.loop and any(f is node for f in k.plan.loop.group_functions))


def _check_sites(sites: list, chunks: list) -> list:
    """The statics of the check sites that the emitted functions use: not those of
    helpers that no kernel calls, which are not emitted."""
    used = set(re.findall(r"\bcl2c_ck_s\d+\b", "\n".join(chunks))) if sites else set()
    return [f"static cl2c_ck_site {name} = {{{c_string(f)}, {line}, {col}, 0, 0}};"
            for name, f, line, col in sites if name in used]


def _is_constant(kind: str, node) -> bool:
    """A program-scope __constant variable (a C static), as defined (not an extern
    declaration of it)."""
    return kind == "variable" and getattr(node, "space", None) == "constant" and \
        bool(node.name) and "extern" not in (node.storage or [])


def _in_program_storage(kind: str, node) -> bool:
    """A program-scope __global variable (OpenCL C 2.0), which is no C static (its
    definition: an extern declaration adds no storage)."""
    return kind == "variable" and getattr(node, "space", None) == "global" and \
        "extern" not in (node.storage or [])


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
        inits.append(InitialValue(decl.name, CGenerator(False).visit(local)))
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


def _resolve_tail_line(text: str, output_name: str, line_directives: bool) -> str:
    """Point the generated entry points back at the .c file itself."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line == "#line CL2C_TAIL_LINE":
            lines[i] = f'#line {i + 2} "{line_marker_name(output_name)}"' if line_directives else ""
    return "\n".join(lines)


def _program_item(kind: str, node, kernels: dict, gen: CGenerator,
                  defined: set[str]) -> list[str]:
    """The C of one program-scope item; ``defined``: the names of the variables the
    program defines."""
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
        if kernel is not None and not kernel.plan.item_function:
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
        in_order = list(kernels.values())
        kernel = in_order[_group_function_kernel(node, in_order)]
        comment = kernel.plan.schedule.group_comment(kernel.name, node.decl.name)
        if kernel.plan.loop and node is kernel.plan.loop.group_functions[0]:
            comment = comment[:-3] + (f"\n * Its last loop, over {kernel.plan.loop.var}, runs "
                                      f"as dimension 1 of the range: each iteration a "
                                      f"work-item\n * ({kernel.plan.loop.reason}). */")
        return [comment, gen.visit(node)]
    if kind == "interleaved_function":
        node.decl.storage = []
        node.decl.funcspec = ["static", "CL2C_ALWAYS_INLINE"]
        name = node.decl.name[:-len(interleaving.SUFFIX)]
        return [f"/* Kernel {name} for several work-items at once, {LOCAL_ID[0]}'s and the "
                f"{way_id('<n>')}'s,\n * statement by statement: their chains of operations "
                f"overlap (workgroup/passes/interleaving.py). */", gen.visit(node)]
    if kind == "prototype":
        node.storage = []
        node.funcspec = ["static", "inline"]
        return [gen.line_marker(node.coord) + gen.visit(node) + ";"]
    if kind == "variable":
        if "extern" in node.storage:
            # one program (a link's units translated together): an extern declaration
            # of a variable the program defines is a C static's declaration ahead of
            # its definition; of one it does not (unused: check_defined) or of a
            # __global one (a field of the program's storage), nothing
            if node.name not in defined or getattr(node, "space", None) == "global":
                return []
            node.storage = [s for s in node.storage if s != "extern"]
        if "static" not in node.storage:
            node.storage = ["static"] + list(node.storage)
        return [gen.line_marker(node.coord) + gen.visit(node) + ";"]
    if kind in ("typedef", "tag", "static_assert"):
        return [gen.line_marker(node.coord) + gen.visit(node) + ";"]
    if kind == "pragma":
        return [gen.visit(node)]
    return []
