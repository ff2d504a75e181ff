"""The regions schedule's twins of a work-group function for the common image formats
(loops.IMAGE_FORMATS): the same function, run where the kernel's images all have one
format, on copies of their descriptors that say so as constants, as the loops
schedule's twins are. Reads and writes then test no format and take the format's
inline, branch-free path (images.h), and work-item loops that read images vectorise
(the Guide's Sobel on an 8-bit image)."""
from __future__ import annotations

import copy

from pycparser import c_ast

from ...typed_ast import walk
from .loops import IMAGE_FORMATS
from ..write import snippet


def format_twins(function: c_ast.FuncDef, images: list) -> tuple:
    """A twin of written work-group function ``function`` per common format, its image
    parameters ``images`` (names) taken as ``<name>__any`` and the function's own
    ``<name>`` pointing at the format's copy of the descriptor: a copy for lanes
    (images.h's cl2c_image_<format>_lanes) where every image access of the function
    is in a loop that vectorises."""
    if not images:
        return ()
    lanes = reads_in_lanes(function)
    return tuple(_twin(function, images, suffix, fmt + ("_lanes" if lanes else ""))
                 for suffix, fmt, _ in IMAGE_FORMATS)


def reads_in_lanes(function: c_ast.FuncDef) -> bool:
    """Is every image access of written function ``function`` (a call of an images.h
    read or write) in a loop marked ``omp simd``?"""
    every = sum(1 for n in walk(function) if _is_image_access(n))
    inside = 0
    for body in (n for n in walk(function) if isinstance(n, c_ast.Compound)):
        items = body.block_items or []
        for pragma, item in zip(items, items[1:]):
            if isinstance(pragma, c_ast.Pragma) and pragma.string.startswith("omp simd"):
                inside += sum(1 for n in walk(item) if _is_image_access(n))
    return every > 0 and inside == every


def _is_image_access(n) -> bool:
    return isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID) and \
        n.name.name.startswith(("cl2c_read_image", "cl2c_write_image"))


def _twin(function, images, suffix: str, fmt: str) -> c_ast.FuncDef:
    twin = copy.deepcopy(function)
    name = f"{function.decl.name}_{suffix}"
    twin.decl.name = name
    twin.decl.type.type.declname = name
    prologue = []
    for p in twin.decl.type.args.params:
        if not isinstance(p, c_ast.Decl) or p.name not in images:
            continue
        own = copy.deepcopy(p)
        any_name = f"{p.name}__any"
        p.name = any_name
        p.type.declname = any_name
        own.storage, own.funcspec = [], []
        own.init = c_ast.UnaryOp("&", c_ast.ID(f"{own.name}__fmt"))
        prologue += snippet(f"cl2c_image {own.name}__fmt = cl2c_image_{fmt}({any_name});")
        prologue.append(own)
    twin.body.block_items = prologue + list(twin.body.block_items or [])
    return twin
