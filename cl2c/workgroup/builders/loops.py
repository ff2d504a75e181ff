"""The loops schedule's work-group function: one work-item loop (ir.WorkItemLoop) that
calls the kernel's work-item function, printed by write.py like every other.

It is a function of its own, out of line: in the function that holds the thread's
setjmp (faults.h) GCC 13 inlines no helper, and a loop that calls one does not
vectorise. A kernel that takes images has one more for each common format
(IMAGE_FORMATS: RGBA float, RGBA and BGRA 8-bit unorm) that runs when its images all have it: on
copies of their descriptors that say so as constants, so that reads and writes test no
format and take the format's inline, branch-free path (images.h).
"""
from __future__ import annotations

import copy

from pycparser import c_ast

from ...sema.model import Call
from ...typed_ast import make
from ..ir import WorkItemLoop
from ..names import (CHECK_THREAD, GROUP, GROUP_POINTER, LOCAL_ID, UNUSED, way_id)
from ..write import snippet, work_item_loop

SUFFIX = "__items"
# The formats a kernel's images get a work-group function of their own for: its suffix
# after SUFFIX, and images.h's cl2c_image_is_<format> / cl2c_image_<format>.
IMAGE_FORMATS = (("rgbaf", "rgba_float", "RGBA float"),
                 ("rgba8", "rgba_unorm8", "RGBA 8-bit unorm"),
                 ("bgra8", "bgra_unorm8", "BGRA 8-bit unorm"))
_SIZES = tuple(f"{GROUP}.local_size[{d}]" for d in range(3))


def group_functions(k, check: str = "", interleaving=None, interleaved=None) -> tuple:
    """Kernel model ``k``'s work-group functions in the loops schedule: the one that
    runs its work-items, and one per IMAGE_FORMATS where it takes images.
    ``check``: the checking mode ("" off); ``interleaved``: the kernel's interleaved
    function (workgroup/passes/interleaving.py) that runs ``interleaving.ways`` work-items at
    once, or None."""
    images = [a.name for a in k.args if a.kind == "image"]
    out = [_function(k, SUFFIX, [], "", check, interleaving, interleaved)]
    if images:
        out += [_function(k, f"{SUFFIX}_{suffix}", images, fmt, check, interleaving,
                          interleaved) for suffix, fmt, _ in IMAGE_FORMATS]
    return tuple(out)


def image_format_of(function: str) -> str | None:
    """The description of the format work-group function ``function`` is for (the loops
    schedule's or the regions schedule's twin, image_twins.py), or None."""
    return next((what for suffix, _, what in IMAGE_FORMATS
                 if function.endswith((f"{SUFFIX}_{suffix}", f"__group_{suffix}"))), None)


def _function(k, suffix: str, images: list, fmt: str, check: str, interleaving,
              interleaved) -> c_ast.FuncDef:
    node = k.info.node
    # (the kernel's __local variables' struct among them, where it has some)
    params = [_param(p) for p in node.decl.type.args.params[1:]]
    pointer = snippet(f"const cl2c_workitem *{GROUP_POINTER};")[0]
    names = [p.name for p in params]
    body = snippet(f"const cl2c_workitem {GROUP} = *{GROUP_POINTER};")
    simd = k.simd and not check
    for name in images:     # (its loop vectorises: the copies say so, images.h)
        body += snippet(f"cl2c_image {name}__fmt = cl2c_image_{fmt}{'_lanes' if simd else ''}"
                        f"({name});")
    if check:
        body += snippet(f"cl2c_ck_thread *const {CHECK_THREAD} = cl2c_ck_self();")
    args = [c_ast.UnaryOp("&", c_ast.ID(f"{n}__fmt")) if n in images else c_ast.ID(n)
            for n in names]
    ids = [c_ast.UnaryOp("&", c_ast.ID(GROUP))] + [c_ast.ID(i) for i in LOCAL_ID]
    loop = WorkItemLoop([_call(node.decl.name, ids + args)], counter="size_t",
                        sizes=_SIZES, simd=simd, index=bool(check),
                        checked=bool(check))
    if interleaved is not None:
        ways = [c_ast.ID(way_id(w)) for w in range(2, interleaving.ways + 1)]
        loop.ways = interleaving.ways
        loop.interleaved = [_call(interleaved.decl.name, ids + ways + args)]
    body += work_item_loop(loop)
    name = f"{k.name}{suffix}"
    decl = c_ast.Decl(name, [], [], [], ["static", "CL2C_NOINLINE"], c_ast.FuncDecl(
        c_ast.ParamList([pointer] + params), c_ast.TypeDecl(
            name, [], None, c_ast.IdentifierType(["void"]))), None, None)
    return make(c_ast.FuncDef, decl, None, c_ast.Compound(body))


def _param(p: c_ast.Decl) -> c_ast.Decl:
    """A kernel parameter as the group function takes it (it passes every one on)."""
    p = copy.deepcopy(p)
    p.funcspec = [f for f in p.funcspec or [] if f != UNUSED]
    return p


def _call(name: str, args: list) -> c_ast.FuncCall:
    """A call of user function ``name`` (the kernel's work-item function), saying so."""
    call = make(c_ast.FuncCall, c_ast.ID(name), c_ast.ExprList(args))
    call.call = Call("function", name)
    return call
