"""The regions schedule's twins of a work-group function for the common image formats
(loops.IMAGE_FORMATS): the same function, run where the kernel's images all have one
format, on copies of their descriptors that say so as constants, as the loops
schedule's twins are, and with its read_imagef and write_imagef calls told the format
as a constant too (images.h's ..._as forms). Reads and writes then test no format and
take the format's inline, branch-free path, and work-item loops that read images
vectorise (the Guide's Sobel on an 8-bit image) under GCC and clang alike: clang does
not fold a copied descriptor's format once its address goes to the out-of-line code of
the other formats, and a loop with that call stays scalar."""
from __future__ import annotations

import copy
from dataclasses import replace

from pycparser import c_ast

from ... import cnodes as cn
from ... import types as ty
from ...image_formats import SAMPLER_FLAGS
from ...lower.calls import FROM_INTS
from ...lower.effects import builtin_name, call_of
from ...samplers import sampler_flags
from ...sema.model import constant_type
from ...typed_ast import changed_names, fact, ids, replace_child, walk
from ..ir import Block, GroupFunction, GroupIf, GroupLoop, c_parts, work_item_loops
from ..names import CHECK_FAST, LOCAL_ID
from .loops import IMAGE_FORMATS
from .splits import X_INSIDE
from ..write import snippet


def format_twins(function: c_ast.FuncDef, images: list, lanes: bool) -> tuple[tuple, int]:
    """A twin of written work-group function ``function`` per common format, its image
    parameters ``images`` (names) taken as ``<name>__any`` and the function's own
    ``<name>`` pointing at the format's copy of the descriptor: a copy for lanes
    (images.h's cl2c_image_<format>_lanes) where ``lanes``; and how many conversions of
    8-bit channels an 8-bit twin makes C's own (_bytes_back)."""
    if not images:
        return (), 0
    made = [_twin(function, images, suffix, fmt, lanes) for suffix, fmt, _ in IMAGE_FORMATS]
    return tuple(twin for twin, _ in made), max(n for _, n in made)


def accesses_in_lanes(gf: GroupFunction) -> bool:
    """Are all the image reads and writes of work-group function ``gf`` in work-item
    loops that vectorise (but for a split's edges, a few work-items a row, and the
    checked loops of a checking build, whose fast versions run where a test passes)?"""
    def within(loops) -> int:
        return sum(_accesses(part) for loop in loops for part, _ in c_parts([loop]))
    items = _fast_only(gf.items)
    loops = list(work_item_loops(items))
    every = sum(_accesses(part) for part, _ in c_parts(items))
    inside = within(loop for loop in loops if loop.simd)
    return inside > 0 and inside == every - within(loop for loop in loops if loop.edge)


def _fast_only(items) -> list:
    """``items`` with each checked loop of a fast version's choice left out
    (check_versions.py: ``if (cl2c_ck_fast) fast else checked``)."""
    out = []
    for it in items:
        if isinstance(it, GroupIf) and isinstance(it.node.cond, c_ast.ID) and \
                it.node.cond.name == CHECK_FAST:
            out.append(GroupIf(it.node, _fast_only(it.then), []))
        elif isinstance(it, GroupIf):
            out.append(GroupIf(it.node, _fast_only(it.then), _fast_only(it.other)))
        elif isinstance(it, GroupLoop):
            out.append(replace(it, body=_fast_only(it.body)))
        elif isinstance(it, Block):
            out.append(Block(_fast_only(it.items)))
        else:
            out.append(it)
    return out


def _accesses(node) -> int:
    return sum(1 for n in walk(node) if isinstance(n, c_ast.FuncCall) and
               (builtin_name(n) or "").startswith(("read_image", "write_image")))


def _twin(function, images, suffix: str, fmt: str, lanes: bool) -> tuple:
    """(the twin for ``fmt``, how many conversions _bytes_back made C's own in it)"""
    twin = copy.deepcopy(function)
    converted = 0
    if fmt in _TOLD_FORMATS:
        _tell_format(twin, images, [f"CL2C_IMG_AS_{fmt.upper()}"] +
                     (["CL2C_IMG_AS_LANES"] if lanes else []))
        converted = _bytes_back(twin)
    fmt += "_lanes" if lanes else ""
    name = f"{function.decl.name}_{suffix}"
    twin.decl.name = name
    twin.decl.type.type.declname = name
    declared = {}       # each image's declarations: its descriptor's copy, the pointer
    for p in twin.decl.type.args.params:
        if not isinstance(p, c_ast.Decl) or p.name not in images:
            continue
        own = copy.deepcopy(p)
        any_name = f"{p.name}__any"
        p.name = any_name
        p.type.declname = any_name
        own.storage, own.funcspec = [], []
        own.init = c_ast.UnaryOp("&", c_ast.ID(f"{own.name}__fmt"))
        declared[own.name] = [
            *snippet(f"cl2c_image {own.name}__fmt = cl2c_image_{fmt}({any_name});"), own]
    prologue = [d for decls in declared.values() for d in decls]
    twin.body.block_items = prologue + list(twin.body.block_items or [])
    _copy_again(twin, declared)
    return twin, converted


# the builtins whose runtime functions (and their X_INSIDE and FROM_INTS forms) have an
# ..._as form that takes the format as its last argument, on every image type but the
# depth ones
_TOLD = ("read_imagef", "write_imagef")
# the formats told so: the 8-bit ones. Told a float image's format, clang vectorises the
# loop with a gather per channel, slower than the scalar loop it keeps otherwise (the
# Guide's Sobel on floats, one Zen 4 core: 11.7 against 27.8 ms under clang 19); GCC
# vectorises it either way, from the descriptor's copy.
_TOLD_FORMATS = ("rgba_unorm8", "bgra_unorm8")


def _tell_format(twin: c_ast.FuncDef, images: list, flags: list) -> None:
    """Each read_imagef and write_imagef call of ``twin`` on one of ``images`` (its
    parameters' names) calls the ..._as form, told the format: ``flags`` (images.h's
    CL2C_IMG_AS_ names) or'ed."""
    for call in (n for n in walk(twin.body) if isinstance(n, c_ast.FuncCall)):
        fact = call_of(call)
        row = fact.row if fact is not None and fact.kind == "builtin" else None
        if row is None or row.name not in _TOLD or row.params[0].endswith("_depth_t"):
            continue
        image = call.args.exprs[0]
        name = call.name.name if isinstance(call.name, c_ast.ID) else None
        plain = row.runtime_name(None)
        if isinstance(image, c_ast.ID) and image.name in images and name is not None and \
                (name in (plain, plain + X_INSIDE) or name.startswith(plain + FROM_INTS)):
            call.name = c_ast.ID(f"{name}_as", call.name.coord)
            told = c_ast.ID(flags[0])
            for flag in flags[1:]:
                told = c_ast.BinaryOp("|", told, c_ast.ID(flag))
            call.args.exprs.append(told)


# The 8-bit idiom: `convert_uchar_sat(c.x * 255.0f)` of a channel that read_imagef took
# from an 8-bit unorm image, the byte back (the Guide's histogram, Listing 14.2). Such a
# channel is k / 255.0f correctly rounded for its byte k, and that times 255.0f rounds
# to k exactly, for each of the 256 (tests/test_image_twins.py checks them): the
# conversion gives k whatever its rounding and saturation, into any type that holds
# 0..255, and so does C's own conversion, without the clamps. (GCC 12 compiles a scalar
# convert_uchar_sat with two branches: the histogram's pixel loop, three of them a pixel,
# took 13.6 ms on one Zen 4 core, 8.9 so. Reading the pixel again as its bytes, for no
# conversion at all, took as long.) Not for reads that filter linearly (a mix of two
# bytes' values), nor where the variable changes after its declaration.
_HOLD_A_BYTE = (ty.UCHAR, ty.SHORT, ty.USHORT, ty.INT, ty.UINT, ty.LONG, ty.ULONG)
_FILTER = SAMPLER_FLAGS["CLK_FILTER_NEAREST"] | SAMPLER_FLAGS["CLK_FILTER_LINEAR"]  # its bits


def _bytes_back(twin: c_ast.FuncDef) -> int:
    """Make each conversion of a told 8-bit read's channel times 255.0f in ``twin`` (an
    8-bit format's) C's own; returns at how many places of the kernel (a split's copies
    of one are one)."""
    params = {p.name for p in twin.decl.type.args.params if isinstance(p, c_ast.Decl)}
    reads: dict[str, bool] = {}     # each declared name: whether all its declarations are
    for n in walk(twin.body):
        if isinstance(n, c_ast.Decl) and n.name:
            reads[n.name] = reads.get(n.name, True) and _unorm8_read(n.init)
    exact = {name for name, ok in reads.items() if ok} - params - changed_names(twin.body)
    sites = [(parent, slot, child) for parent in walk(twin.body)
             for slot, child in parent.children()
             if isinstance(child, c_ast.FuncCall) and _byte_conversion(child, exact)]
    for parent, slot, conversion in sites:
        target = call_of(conversion).generic
        as_int = cn.cast(ty.INT, conversion.args.exprs[0], conversion.coord)
        replace_child(parent, slot, as_int if target == ty.INT else
                      cn.cast(target, as_int, conversion.coord))
    return len({str(conversion.coord) for _, _, conversion in sites})


def _unorm8_read(init) -> bool:
    """Is ``init`` a read_imagef told an 8-bit format (an ..._as call) that takes a texel
    as it is stored: without a sampler, or one known not to filter linearly?"""
    fact_ = call_of(init)
    if fact_ is None or fact_.kind != "builtin" or fact_.row.name != "read_imagef" or \
            not init.name.name.endswith("_as"):
        return False
    if len(fact_.row.params) < 3 or fact_.row.params[1] != "sampler_t":
        return True
    flags = sampler_flags(init.args.exprs[1])
    return flags is not None and flags & _FILTER != SAMPLER_FLAGS["CLK_FILTER_LINEAR"]


def _byte_conversion(call: c_ast.FuncCall, exact: set) -> bool:
    """Is ``call`` convert_<T>[_sat][_<mode>](v.s[i] * 255.0f), T holding 0..255 and v
    one of the ``exact`` reads?"""
    fact_ = call_of(call)
    if fact_ is None or fact_.kind != "convert" or fact_.generic not in _HOLD_A_BYTE or \
            fact_.arg_types != (ty.FLOAT,) or len(call.args.exprs) != 1:
        return False
    mul = call.args.exprs[0]
    return isinstance(mul, c_ast.BinaryOp) and mul.op == "*" and any(
        _is_255f(factor) and _channel_of(channel, exact)
        for channel, factor in ((mul.left, mul.right), (mul.right, mul.left)))


def _is_255f(e) -> bool:
    if not isinstance(e, c_ast.Constant) or constant_type(e) != ty.FLOAT:
        return False
    body = e.value.rstrip("fF")
    try:
        value = float.fromhex(body) if body.lower().startswith("0x") else float(body)
    except ValueError:
        return False
    return value == 255.0


def _channel_of(e, exact: set) -> bool:
    """Is ``e`` ``v.s[i]`` (a channel, 0 <= i < 4) of a variable in ``exact`` (the
    function's own: not a program-scope one of the same name)?"""
    if not (isinstance(e, c_ast.ArrayRef) and isinstance(e.name, c_ast.StructRef) and
            e.name.type == "." and isinstance(e.name.name, c_ast.ID) and
            isinstance(e.name.field, c_ast.ID) and e.name.field.name == "s" and
            isinstance(e.subscript, c_ast.Constant) and e.subscript.type == "int" and
            e.subscript.value in ("0", "1", "2", "3")):
        return False
    symbol = fact(e.name.name, "symbol")
    return e.name.name.name in exact and symbol is not None and not symbol.program


def _copy_again(twin: c_ast.FuncDef, copies: dict) -> None:
    """Each loop nest over the work-items after the first runs in a block of its own
    that declares fresh copies of the descriptors of the images it uses (``copies``:
    each image's declarations in the prologue, shadowed): GCC and clang know a copy's
    format constants until the first nest only (a region split along local id 0, whose
    middle reads whole rows of pixels, then did not vectorise under GCC, and called
    the out-of-line decoder under clang)."""
    first = True
    for block in [n for n in walk(twin.body) if isinstance(n, c_ast.Compound)]:
        items = []
        for item in block.block_items or []:
            if _row_loops(item):
                if not first:
                    used = ids(item)
                    fresh = [d for name, decls in copies.items() if name in used
                             for d in copy.deepcopy(decls)]
                    item = c_ast.Compound([*fresh, item]) if fresh else item
                first = False
            items.append(item)
        block.block_items = items or None


def _row_loops(node) -> bool:
    """Is ``node`` the outermost loop of a nest over the work-items (its local ids 2)?"""
    init = node.init if isinstance(node, c_ast.For) else None
    decls = init.decls if isinstance(init, c_ast.DeclList) else [init]
    return any(isinstance(d, c_ast.Decl) and d.name == LOCAL_ID[2] for d in decls)
