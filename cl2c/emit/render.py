"""Stage 5: emission. The lowered program becomes C text through Jinja2 templates."""
from __future__ import annotations

import copy
import os
import re
from dataclasses import dataclass

import jinja2
from pycparser import c_ast

from .. import __version__
from ..lower import KernelModel, LoweredProgram
from ..resources import templates_dir
from .cgen import CGenerator


@dataclass
class Emitted:
    source: str     # the .c translation unit
    header: str     # declarations of its entry points


def _environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates_dir())),
                              undefined=jinja2.StrictUndefined, trim_blocks=True,
                              lstrip_blocks=True, keep_trailing_newline=True)


def emit(program: LoweredProgram, source_name: str, output_name: str = "kernel.c",
         cl_std: int = 120, line_directives: bool = True) -> Emitted:
    gen = CGenerator(line_directives)
    kernels = {k.name: k for k in program.kernels}
    chunks, type_chunks = [], []
    for kind, node in program.program_scope:
        chunks.extend(_program_item(kind, node, kernels, gen))
        if kind in ("typedef", "tag"):
            type_chunks.append(CGenerator(False).visit(node) + ";")
    kernel_views = [_kernel_view(k, cl_std) for k in program.kernels]
    env = _environment()
    context = dict(version=__version__, source=os.path.basename(source_name),
                   needs=[f"{m}({', '.join(args)})" for m, *args in program.needs],
                   program=chunks, kernels=kernel_views)
    text = env.get_template("translation_unit.c.j2").render(**context)
    text = _resolve_tail_line(text, os.path.basename(output_name), line_directives)
    guard = re.sub(r"\W", "_", os.path.basename(output_name).upper()) + "_H"
    header = env.get_template("header.h.j2").render(
        version=__version__, source=os.path.basename(source_name), guard="CL2C_" + guard,
        types=type_chunks, kernels=kernel_views)
    return Emitted(text, header)


def _resolve_tail_line(text: str, output_name: str, line_directives: bool) -> str:
    """Point the generated entry points back at the .c file itself."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line == "#line CL2C_TAIL_LINE":
            lines[i] = f'#line {i + 2} "{output_name}"' if line_directives else ""
    return "\n".join(lines)


def _program_item(kind: str, node, kernels: dict, gen: CGenerator) -> list[str]:
    if kind == "function":
        decl = node.decl
        kernel = kernels.get(decl.name)
        out = []
        if kernel is not None and kernel.local_decls:
            fields = "".join(f"    {CGenerator(False).visit(d)};\n" for d in kernel.local_decls)
            out.append(f"/* The __local variables of kernel {kernel.name}, one set per "
                       f"work-group. */\nstruct {kernel.name}__locals {{\n{fields}}};\n")
        decl.storage = []
        decl.funcspec = ["static", "CL2C_ALWAYS_INLINE" if kernel is not None else "inline"]
        if kernel is not None:
            out.append(f"/* Kernel {kernel.name}: the work of one work-item. */")
        out.append(gen.visit(node))
        return out
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
    t = copy.deepcopy(decl.type)
    inner = t
    while not isinstance(inner, c_ast.TypeDecl):
        inner = inner.type
    inner.declname = None
    return CGenerator(False)._generate_type(t, emit_declname=False).strip()


def _decl_text(decl: c_ast.Decl) -> str:
    d = copy.deepcopy(decl)
    d.funcspec = [f for f in d.funcspec or [] if f != "CL2C_UNUSED"]
    return CGenerator(False).visit(d)


class _Param:
    def __init__(self, **kw):
        self.__dict__.update(kw)


def _kernel_view(k: KernelModel, cl_std: int):
    decls = {p.name: p for p in k.info.node.decl.type.args.params
             if isinstance(p, c_ast.Decl)}
    entry, argv, call, locals_ = ["const cl2c_range *cl2c_r"], [], ["&group, l0, l1, l2"], []
    if k.local_decls:
        call.append("cl2c_locals")
    offsets = []
    for p in k.params:
        decl = decls[p.name]
        if p.kind == "local":
            entry.append(f"size_t {p.name}_bytes")
            argv.append(_Param(argv_type="const size_t"))
            locals_.append(_Param(name=p.name, c_type=_type_text(decl),
                                  offset=" + ".join(offsets) or "0"))
            offsets.append(f"cl2c_local_round({p.name}_bytes)")
        else:
            entry.append(_decl_text(decl))
            argv.append(_Param(argv_type=_type_text(decl)))
        call.append(p.name)
    locals_offset = " + ".join(offsets) or "0"
    if k.local_decls:
        offsets.append(f"cl2c_local_round(sizeof(struct {k.name}__locals))")
    reqd = k.reqd_work_group_size
    return _Param(
        name=k.name, schedule=k.schedule, reason=k.reason, simd=k.simd,
        entry_params=", ".join(entry), params=argv, call_args=", ".join(call),
        local_params=locals_, local_bytes=" + ".join(offsets),
        locals_struct=bool(k.local_decls), locals_offset=locals_offset,
        reqd=f"(const size_t[3]){{{reqd[0]}, {reqd[1]}, {reqd[2]}}}" if reqd else "NULL",
        non_uniform=1 if cl_std >= 200 else 0)
