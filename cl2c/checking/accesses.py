"""Checking builds (-cl2c-check): every access to __global, __constant and __local
memory goes through the runtime's check, every array index is checked against the
array's length, every integer divisor against zero, every coordinate of an image write
or of a read that no sampler addresses against the image's extents (clruntime check.h);
accesses through pointers into private memory are checked for bounds
(private_bounds.py).

It runs on the C tree, after the other passes: an access ``E`` (``a[i]``, ``*p``,
``s->x``, ``a[i].s[0]``, ...) whose memory a pointer into one of those spaces reaches
becomes ``*CL2C_CK_ACCESS(base, &E, flags, local, &site)``, where ``base`` is the
pointer variable the access starts from (so that an index running into a neighbouring
buffer is blamed on the right one) and ``site`` the access's place in the .cl file.
An address taken (``&a[i]``, as atomics take it) or an operand of ``sizeof`` is no
access. Where ``base`` is a buffer argument the kernel never changes, or the access is
to a kernel-scope __local variable, the range is found once at the function's top and
the access is ``*CL2C_CK_ARG(range, &E, flags, local, &site)`` (ranges.py).
Normal builds never run this pass.
"""
from __future__ import annotations

import copy

from pycparser import c_ast

from .. import cnodes as cn
from .. import literals
from .. import types as ty
from ..builtins import IMAGE_FUNCTIONS
from ..cnodes import DIVISION_HELPERS
from ..samplers import ADDRESS_BITS, sampler_flags
from ..sema import Module
from ..typed_ast import addressed_names, fact, make, map_children
from ..workgroup.names import CHECK_PIXEL, CHECK_THREAD as THREAD, LOCALS
from . import counted
from .private_bounds import register_escaping
from .ranges import ARG, LOCAL, arg_state, fixed_buffer_args, fixed_local_args, local_field, \
    local_state, unwritten_args
from .sites import Sites

_CHECKED_SPACES = ("global", "constant", "local")
_READ, _WRITE = 1, 2
# async copies: contiguous, a gather (a strided source), a scatter (a strided
# destination); (dst, src, elements, ...) after the context
_COPIES = ("cl2c_async_work_group_copy_", "cl2c_async_gather_", "cl2c_async_scatter_")
# the builtin families of atomic functions (builtins.py), whose first argument is the
# object's address
_ATOMICS = ("At32", "At64", "Atf", "Aa", "Ai", "Afl")
# each image type's extents along its coordinates' components, in order: the
# descriptor's field (host.h's cl2c_image) and the axis a finding names (check.h's
# CL2C_CK_PIXEL: 0 x, 1 y, 2 z, 3 the layer)
_EXTENTS = {"image1d_t": (("width", 0),), "image1d_buffer_t": (("width", 0),),
            "image1d_array_t": (("width", 0), ("array_size", 3)),
            "image2d_t": (("width", 0), ("height", 1)),
            "image2d_depth_t": (("width", 0), ("height", 1)),
            "image2d_array_t": (("width", 0), ("height", 1), ("array_size", 3)),
            "image2d_array_depth_t": (("width", 0), ("height", 1), ("array_size", 3)),
            "image3d_t": (("width", 0), ("height", 1), ("depth", 2))}


def instrument(module: Module, local_types: dict, sites: Sites) -> Module:
    """Checks into every function of ``module``; ``local_types`` gives the types of each
    kernel's __local variables (now fields of cl2c_locals): {kernel: {name: type}};
    ``sites`` names the place of each check."""
    rewriter = _Rewriter(sites)
    for f in module.functions.values():
        rewriter.accesses = 0
        rewriter.locals_here = local_types.get(f.name, {})
        rewriter.args = fixed_buffer_args(f) if f.is_kernel else {}
        rewriter.unwritten = unwritten_args(f) if f.is_kernel else set()
        rewriter.args_used = {}
        rewriter.locals_used = []
        rewriter.local_args = fixed_local_args(f) if f.is_kernel else set()
        rewriter.escaped = addressed_names(f.node.body)
        f.node.body = rewriter.visit(f.node.body)
        rewriter.accesses += register_escaping(f.node, THREAD)
        if rewriter.accesses:
            # the thread's checking state, once per call (a fiber keeps its thread)
            f.node.body.block_items = [thread_state()] + [
                arg_state(name, index) for name, index in rewriter.args_used.items()
            ] + [local_state(name, name in rewriter.local_args)
                 for name in rewriter.locals_used] + (
                f.node.body.block_items or [])
    return module


def thread_state() -> c_ast.Decl:
    """``cl2c_ck_thread *const cl2c_ck_t = cl2c_ck_self();``, which the accesses' checks
    read."""
    return c_ast.Decl(THREAD, ["const"], [], [], ["CL2C_UNUSED"], c_ast.PtrDecl(
        ["const"], c_ast.TypeDecl(THREAD, [], None, c_ast.IdentifierType(["cl2c_ck_thread"]))),
        c_ast.FuncCall(c_ast.ID("cl2c_ck_self"), None), None)


def is_thread_state(node) -> bool:
    return isinstance(node, c_ast.Decl) and node.name == THREAD


def is_check_state(node) -> bool:
    """The declarations ``instrument`` puts at the top of a function."""
    return is_thread_state(node) or (isinstance(node, c_ast.Decl) and
                                     (node.name or "").startswith((ARG, LOCAL)))


class _Rewriter:
    def __init__(self, sites: Sites):
        self.sites = sites
        self.locals_here: dict = {}      # the function's own __local variables' types
        self.accesses = 0
        self.args: dict[str, int] = {}       # fixed_buffer_args of a kernel
        self.args_used: dict[str, int] = {}  # those its checks use
        self.locals_used: list[str] = []      # kernel-scope __locals its checks use
        self.local_args: set[str] = set()     # fixed_local_args of a kernel (their
        # ranges as the __local variables', locals_used)
        self.unwritten: set[str] = set()      # arguments the kernel never writes through
        self.escaped: set[str] = set()        # names whose address the function takes
        self.counts: list[counted.Count] = []  # the counted loops around (counted.py)

    def site(self, coord) -> c_ast.Node:
        return c_ast.UnaryOp("&", c_ast.ID(self.sites.name(coord)), coord)

    # ---- the walk: each node's children are rewritten, with the way they are used
    def visit(self, node, mode: str = "read"):
        if node is None or not isinstance(node, c_ast.Node):
            return node
        if isinstance(node, (c_ast.ArrayRef, c_ast.StructRef)) or \
                (isinstance(node, c_ast.UnaryOp) and node.op == "*"):
            return self.access(node, mode)
        if isinstance(node, (c_ast.Typename, c_ast.TypeDecl, c_ast.PtrDecl,
                             c_ast.FuncDecl, c_ast.Struct, c_ast.Union, c_ast.Enum)):
            return node
        if isinstance(node, c_ast.ArrayDecl):
            return node
        if isinstance(node, c_ast.Assignment):
            node.lvalue = self.visit(node.lvalue, "write" if node.op == "=" else "rw")
            node.rvalue = self.visit(node.rvalue)
            if node.op == "=" and _is_checked(node.lvalue):
                # a store with its value: two work-items storing the same value are no
                # race (Oclgrind's default too)
                call = node.lvalue.expr
                if call.name.name == "CL2C_CK_GENERIC":
                    base, address, _, site = call.args.exprs
                    return _call("CL2C_CK_GENERIC_STORE", [base, address, site, node.rvalue],
                                 node.coord)
                if call.name.name == "CL2C_CK_ARG":
                    arg, address, _, local, site = call.args.exprs
                    return _call("CL2C_CK_ARG_STORE", [arg, address, local, site,
                                                       node.rvalue], node.coord)
                base, address, _, local, site = call.args.exprs
                return _call("CL2C_CK_STORE", [base, address, local, site, node.rvalue],
                             node.coord)
            return node
        if isinstance(node, c_ast.UnaryOp):
            if node.op == "sizeof" or node.op == "_Alignof":
                return node
            if node.op in ("++", "--", "p++", "p--"):
                node.expr = self.visit(node.expr, "rw")
            elif node.op == "&":
                node.expr = self.visit(node.expr, "addr")
            else:
                node.expr = self.visit(node.expr)
            return node
        if isinstance(node, c_ast.FuncCall):
            return self.call(node)
        if isinstance(node, c_ast.Cast):
            node.expr = self.visit(node.expr)
            return self.cast(node)
        if isinstance(node, c_ast.ID) and _program_global(node):
            return self.access(node, mode)
        if isinstance(node, c_ast.Decl):
            node.init = self.visit(node.init)
            return node
        if isinstance(node, c_ast.For):
            return self.loop(node)
        self.children(node)
        return node

    def loop(self, node: c_ast.For):
        """A for loop: in the body of a counted one, its counter's range is known."""
        node.init, node.cond, node.next = (self.visit(x) for x in
                                           (node.init, node.cond, node.next))
        count = counted.counted(node, self.escaped)
        if count is not None:
            self.counts.append(count)
        node.stmt = self.visit(node.stmt)
        if count is not None:
            self.counts.pop()
        return node

    def local_argument(self, base) -> str | None:
        """The name of the fixed __local pointer argument ``base`` is, else None."""
        return base.name if isinstance(base, c_ast.ID) and base.name in self.local_args \
            else None

    def within(self, subscript, length: int) -> bool:
        """Whether index ``subscript`` is a counted loop's counter whose every value
        lies in [0, length)."""
        name = counted.index_name(subscript)
        for count in reversed(self.counts):
            if count.name == name:
                return 0 <= count.first and count.end <= length
        return False

    def children(self, node) -> None:
        map_children(node, self.visit)

    def call(self, node: c_ast.FuncCall):
        if node.args is not None:
            outputs = _output_arguments(node)
            node.args.exprs = [
                c_ast.UnaryOp("&", self.visit(a.expr, "write"), a.coord) if i in outputs
                else self.visit(a) for i, a in enumerate(node.args.exprs)]
        checked = self.builtin_access(node)
        if checked is not None:
            return checked
        self.image_coordinates(node)
        name = node.name.name if isinstance(node.name, c_ast.ID) else ""
        if name.startswith(DIVISION_HELPERS) and node.args and len(node.args.exprs) == 2:
            divisor = node.args.exprs[1]
            node.args.exprs[1] = _call("CL2C_CK_DIVISOR", [divisor, self.site(node.coord)],
                                       node.coord)
        if name.startswith(_COPIES) and node.args and len(node.args.exprs) >= 4:
            # (context, dst, src, elements[, stride], event): the destination filled by
            # the group's copy, the source read by it, each strided where the copy is
            dst, src, count = node.args.exprs[1:4]
            stride = node.args.exprs[4] if len(node.args.exprs) == 6 else None
            one = c_ast.Constant("int", "1")
            strides = {"dst": one, "src": one}
            if stride is not None:
                strides["src" if name.startswith(_COPIES[1]) else "dst"] = stride
            node.args.exprs[1] = _call("CL2C_CK_FILLED", [
                dst, copy.deepcopy(count), copy.deepcopy(strides["dst"]),
                self.site(node.coord)], node.coord)
            node.args.exprs[2] = _call("CL2C_CK_SOURCE", [
                src, copy.deepcopy(count), copy.deepcopy(strides["src"]),
                self.site(node.coord)], node.coord)
        return node

    def image_coordinates(self, node: c_ast.FuncCall) -> None:
        """An image write's coordinates, and a read's without a sampler (which reads as
        CLK_ADDRESS_NONE does) or with a constant sampler of CLK_ADDRESS_NONE at integer
        coordinates, each checked against the image's extent along its axis: outside the
        image the spec leaves the access undefined (6.12.14.3-4). A vector
        literal's components, or a variable's, each become ``CL2C_CK_PIXEL(c, extent,
        axis, write, image, site)`` (a fast version's test can take those:
        check_versions.py); another vector expression goes through CL2C_CK_PIXELS, once."""
        call = fact(node, "call")
        if call is None or call.kind != "builtin" or call.name not in IMAGE_FUNCTIONS or \
                node.args is None or len(call.arg_types) != len(node.args.exprs) or \
                len(call.arg_types) < 2:
            return
        args = node.args.exprs
        write = call.name.startswith("write_")
        image, place = args[0], 1
        if not write and len(args) == 3:
            # through a sampler: undefined outside only where it addresses nothing
            flags = sampler_flags(args[1])
            if flags is None or flags & ADDRESS_BITS or \
                    not _integer_coordinates(call.arg_types[2]):
                return
            place = 2
        coordinate = args[place]
        image_t = call.arg_types[0]
        extents = _EXTENTS.get(getattr(image_t, "name", ""))
        if extents is None or not isinstance(image, c_ast.ID) or len(args) > 3:
            return
        self.accesses += 1
        site = self.site(node.coord)
        extent = [c_ast.StructRef(copy.deepcopy(image), "->", c_ast.ID(field))
                  for field, _ in extents]
        named = [cn.const_int(int(write)), c_ast.Constant("string", f'"{image.name}"')]

        def checked(c, i):
            return _call(CHECK_PIXEL, [c, copy.deepcopy(extent[i]),
                                       cn.const_int(extents[i][1]), *copy.deepcopy(named),
                                       copy.deepcopy(site)], node.coord)

        vector = call.arg_types[place]
        if not isinstance(vector, ty.Vector):
            args[place] = checked(coordinate, 0)
        elif isinstance(coordinate, c_ast.CompoundLiteral) and \
                len(coordinate.init.exprs) == 1 and \
                isinstance(coordinate.init.exprs[0], c_ast.InitList) and \
                len(coordinate.init.exprs[0].exprs) >= len(extents):
            parts = coordinate.init.exprs[0].exprs
            parts[:len(extents)] = [checked(c, i) for i, c in enumerate(parts[:len(extents)])]
        elif isinstance(coordinate, c_ast.ID):
            parts = [checked(cn.component(copy.deepcopy(coordinate), i), i)
                     if i < len(extents) else cn.component(copy.deepcopy(coordinate), i)
                     for i in range(vector.n)]
            args[place] = c_ast.CompoundLiteral(cn.typename(vector), c_ast.InitList(
                [c_ast.InitList(parts)]))
        else:
            args[place] = _call(f"CL2C_CK_PIXELS{len(extents)}", [
                coordinate, *extent, *(cn.const_int(axis) for _, axis in extents[1:]),
                *named, site], node.coord)

    def cast(self, node: c_ast.Cast):
        """A cast of the .cl source to a pointer to a type aligned to more than a byte becomes ``CL2C_CK_ALIGNED((T *)e, site)``: the address must be
        aligned to T (C11 6.3.2.3, which OpenCL C keeps), else "misaligned"."""
        to = fact(node, "ty")
        if node.coord is None or not isinstance(to, ty.Pointer):
            return node
        pointee = to.pointee
        if isinstance(pointee, (ty.Opaque, ty.Function)) or pointee is None:
            return node
        try:
            if ty.type_align(pointee) <= 1:
                return node
        except (TypeError, ValueError, AttributeError):
            return node
        self.accesses += 1
        checked = make(c_ast.FuncCall, c_ast.ID("CL2C_CK_ALIGNED", node.coord),
                       c_ast.ExprList([node, self.site(node.coord)], node.coord), node.coord)
        checked.ty = to          # a pointer still, for the accesses through it (_space)
        return checked

    def builtin_access(self, node: c_ast.FuncCall):
        """A builtin that reaches memory through a pointer argument into checked memory:
        ``vloadn(o, p)`` (and vload_half, vloada_half) becomes
        ``CL2C_CK_VLOAD(check, r, f, o, p, n, stride, local, site)`` and ``vstoren(v, o,
        p)`` ``CL2C_CK_VSTORE(check, r, f, o, p, n, stride, same, local, site, v)``, which
        check the n elements at p + o stride as one access (bounds, races, __local
        initialisation; r: the base pointer, or the range of a buffer argument found once,
        as ``access`` has them); an atomic's address ``p`` becomes ``CL2C_CK_ATOMIC(base,
        p, local, site)``: its bounds, and races with plain accesses (two atomics do
        not race). Else None."""
        call = fact(node, "call")
        if call is None or node.args is None or not call.arg_types:
            return None
        args = node.args.exprs
        if call.kind in ("vload", "vstore", "vload_half", "vstore_half"):
            pointer_type, pointer = call.arg_types[-1], args[-1]
        elif call.kind == "builtin" and call.row is not None and call.row.family in _ATOMICS:
            pointer_type, pointer = call.arg_types[0], args[0]
        else:
            return None
        space = pointer_type.space if isinstance(pointer_type, ty.Pointer) else None
        if space not in _CHECKED_SPACES + ("generic",) or len(args) != len(call.arg_types):
            return None
        base = _pointer_base(pointer)
        field = local_field(pointer.expr) if isinstance(pointer, c_ast.UnaryOp) and \
            pointer.op == "&" else None
        if field is not None and call.kind != "builtin":
            return None          # an element of a __local array: its index is checked
        if field is None and call.kind == "builtin" and space == "local":
            field = self.local_argument(base)
        self.accesses += 1
        if call.kind == "builtin" and (field is not None or (
                isinstance(base, c_ast.ID) and base.name in self.args and space == "global")):
            # an atomic through a range found once: a kernel-scope __local variable's, or
            # an unchanged buffer argument's
            if field is not None:
                if field not in self.locals_used:
                    self.locals_used.append(field)
                fixed = LOCAL + field
            else:
                self.args_used[base.name] = self.args[base.name]
                fixed = ARG + base.name
            node.args.exprs[0] = _call("CL2C_CK_ARG_ATOMIC", [
                c_ast.ID(fixed), pointer, c_ast.Constant("int", "1" if field else "0"),
                self.site(node.coord)], node.coord)
            return node
        base = copy.deepcopy(base) if base is not None else c_ast.ID("NULL")
        # generic: maybe __local memory, for the phases' analysis (phases.py)
        local = c_ast.Constant("int", "1" if space in ("local", "generic") else "0")
        site = self.site(node.coord)
        if call.kind == "builtin":
            node.args.exprs[0] = _call("CL2C_CK_GENERIC_ATOMIC", [base, pointer, site],
                                       node.coord) if space == "generic" else \
                _call("CL2C_CK_ATOMIC", [base, pointer, local, site], node.coord)
            return node
        load = call.kind in ("vload", "vload_half")
        check, r = "cl2c_ck_generic_span" if space == "generic" else "cl2c_ck_access", base
        if isinstance(base, c_ast.ID) and base.name in self.args and \
                space not in ("local", "generic"):
            self.args_used[base.name] = self.args[base.name]
            r = c_ast.ID(ARG + base.name)
            check = "cl2c_ck_arg_read_" if load and base.name in self.unwritten \
                else "cl2c_ck_arg_access"
        n = ty.width(call.generic)
        aligned = call.name.startswith(("vloada", "vstorea"))
        shape = [c_ast.Constant("int", str(n)),
                 c_ast.Constant("int", str(4 if aligned and n == 3 else n))]
        head = [c_ast.ID(check), r, node.name]
        if load:
            return _call("CL2C_CK_VLOAD", head + [args[0], pointer] + shape + [local, site],
                         node.coord)
        # the stored value's bytes, for the check's "the same value again" (not where
        # the store converts it to half)
        same = c_ast.Constant("int", "1" if call.kind == "vstore" else "0")
        return _call("CL2C_CK_VSTORE", head + [args[1], pointer] + shape +
                     [same, local, site, args[0]], node.coord)

    # ---- accesses
    def access(self, node, mode: str):
        """An lvalue ``node`` and the chain of sub-objects under it (members, elements
        of arrays) down to the pointer it dereferences."""
        space, pointer = self.chain(node)
        if space not in _CHECKED_SPACES + ("private", "generic") or mode == "addr":
            return node
        if isinstance(self.type_of(node), ty.Array):
            return node          # an array named, which decays to a pointer: no access
        flags = {"read": _READ, "write": _WRITE, "rw": _READ | _WRITE}[mode]
        base = _base(pointer)
        base = copy.deepcopy(base) if base is not None else c_ast.ID("NULL")
        address = c_ast.UnaryOp("&", node, node.coord)
        self.accesses += 1
        if space in ("private", "generic"):
            # private: bounds only (private_bounds.py); generic (OpenCL C 2.0): as
            # the buffer, __local or private variable the pointer points into
            return c_ast.UnaryOp("*", _call(f"CL2C_CK_{space.upper()}", [
                base, address, c_ast.Constant("int", str(flags)), self.site(node.coord)],
                node.coord), node.coord)
        fixed = None       # the range is the same at every access: found once (check.h)
        if isinstance(base, c_ast.ID) and base.name in self.args and space != "local":
            self.args_used[base.name] = self.args[base.name]
            fixed = ARG + base.name
            if mode == "read" and base.name in self.unwritten:
                return c_ast.UnaryOp("*", _call("CL2C_CK_ARG_READ", [
                    c_ast.ID(fixed), address, self.site(node.coord)], node.coord), node.coord)
        elif space == "local" and (local_field(node) is not None or
                                   self.local_argument(base) is not None):
            field = local_field(node) or self.local_argument(base)
            if field not in self.locals_used:
                self.locals_used.append(field)
            fixed = LOCAL + field
        if fixed:
            checked = _call("CL2C_CK_ARG", [c_ast.ID(fixed),
                                            address, c_ast.Constant("int", str(flags)),
                                            c_ast.Constant("int", "1" if space == "local" else "0"),
                                            self.site(node.coord)], node.coord)
            return c_ast.UnaryOp("*", checked, node.coord)
        checked = _call("CL2C_CK_ACCESS",
                        [base, address, c_ast.Constant("int", str(flags)),
                         c_ast.Constant("int", "1" if space == "local" else "0"),
                         self.site(node.coord)], node.coord)
        if isinstance(node, c_ast.ID):
            # a program-scope variable's value keeps its type: a pointer read from one
            # is the base of the accesses through it (_space, _base)
            value = make(c_ast.UnaryOp, "*", checked, node.coord)
            value.ty = fact(node, "ty")
            return value
        return c_ast.UnaryOp("*", checked, node.coord)

    def chain(self, node):
        """Rewrite the parts of an lvalue chain that are not the chain itself (indices,
        the pointer); return the address space the chain's memory is in and the
        pointer expression it starts from."""
        n = node
        while True:
            if isinstance(n, c_ast.ArrayRef):
                base_type = self.type_of(n.name)
                values = _values(n.subscript)
                n.subscript = self.visit(n.subscript)
                if isinstance(base_type, ty.Array) or _is_member_array(n.name, base_type):
                    length = base_type.length if isinstance(base_type, ty.Array) else None
                    if length and values is not None and 0 <= values[0] and \
                            values[1] < length:
                        # (said, for phases.py and check_versions.py: an element in bounds)
                        n.subscript = _call(counted.INDEX_WITHIN, [n.subscript], n.coord)
                    elif length and not self.within(n.subscript, length):
                        n.subscript = _call(counted.INDEX_CHECK,
                                            [n.subscript, c_ast.Constant("int", str(length)),
                                             self.site(n.subscript.coord or n.coord)],
                                            n.coord)
                    if isinstance(n.name, (c_ast.ArrayRef, c_ast.StructRef)):
                        n = n.name
                        continue
                    return self.root(n)
                n.name = self.visit(n.name)
                return _space(n.name), n.name
            if isinstance(n, c_ast.StructRef):
                if n.type == ".":
                    if isinstance(n.name, (c_ast.ArrayRef, c_ast.StructRef)) or \
                            (isinstance(n.name, c_ast.UnaryOp) and n.name.op == "*"):
                        n = n.name
                        continue
                    return self.root(n)
                n.name = self.visit(n.name)
                return _space(n.name), n.name
            if isinstance(n, c_ast.UnaryOp) and n.op == "*":
                n.expr = self.visit(n.expr)
                return _space(n.expr), n.expr
            if isinstance(n, c_ast.ID) and _program_global(n):
                return "global", None
            return None, None

    def root(self, n):
        """The end of a chain at a variable (``a`` of ``a[i].x``): a program-scope
        __global one's memory is checked as a buffer's, found by the access's address;
        other variables' are not checked here."""
        if isinstance(n.name, c_ast.ID) and _program_global(n.name):
            return "global", None
        n.name = self.visit(n.name, "addr")
        return None, None

    def type_of(self, node):
        t = fact(node, "ty")
        if t is None and isinstance(node, c_ast.StructRef) and isinstance(node.name, c_ast.ID) \
                and node.name.name == LOCALS:
            t = self.locals_here.get(node.field.name)
        return t


def _integer_coordinates(t) -> bool:
    """Are image coordinates of type ``t`` integers (int, int2, int4)?"""
    elem = t.elem if isinstance(t, ty.Vector) else t
    return isinstance(elem, ty.Scalar) and elem.kind == "int"


def _values(e) -> tuple[int, int] | None:
    """The least and the greatest value integer expression ``e`` may have, from its
    operands' types (a uchar index: 0 to 255; ``256 + (uint)c``: 256 to 511), constants,
    casts that keep them and sums; None where its type is not known."""
    t = fact(e, "ty")
    if t is None and isinstance(e, c_ast.BinaryOp):
        # (a sum lowering made anew: of int or wider, where its operands' are known)
        whole = (0, (1 << 31) - 1)
    elif not (isinstance(t, ty.Scalar) and t.kind == "int"):
        return None
    else:
        whole = (-(1 << (t.bits - 1)), (1 << (t.bits - 1)) - 1) if t.signed else \
            (0, (1 << t.bits) - 1)
    span = None
    if isinstance(e, c_ast.Constant) and e.type != "char":
        try:
            v = literals.integer_value(e.value)
            span = (v, v)
        except ValueError:
            span = None
    elif isinstance(e, c_ast.Cast):
        span = _values(e.expr)
    elif isinstance(e, c_ast.BinaryOp) and e.op in ("+", "-"):
        a, b = _values(e.left), _values(e.right)
        if a is not None and b is not None:
            span = (a[0] + b[0], a[1] + b[1]) if e.op == "+" else (a[0] - b[1], a[1] - b[0])
    if span is None or span[0] < whole[0] or span[1] > whole[1]:
        return whole if t is not None else None     # (what wraps: any of the type's)
    return span


def _program_global(node: c_ast.ID) -> bool:
    """A program-scope __global variable (OpenCL C 2.0), in the program's storage."""
    symbol = fact(node, "symbol")
    return symbol is not None and symbol.in_program_storage


def _is_checked(node) -> bool:
    """``*CL2C_CK_ACCESS(...)``, as ``access`` makes it."""
    return isinstance(node, c_ast.UnaryOp) and node.op == "*" and \
        isinstance(node.expr, c_ast.FuncCall) and isinstance(node.expr.name, c_ast.ID) and \
        node.expr.name.name in ("CL2C_CK_ACCESS", "CL2C_CK_ARG", "CL2C_CK_GENERIC")


def _is_member_array(node, t) -> bool:
    """A member that lowering made (a vector's ``.s``, a __local variable's field of
    cl2c_locals): arrays, where they carry no type."""
    return t is None and isinstance(node, c_ast.StructRef)


def _space(pointer) -> str | None:
    """The address space a pointer expression points into, from its type (or None)."""
    t = fact(pointer, "ty")
    if isinstance(t, ty.Pointer):
        return t.space
    if isinstance(pointer, c_ast.ID) and pointer.name == LOCALS:
        return "local"
    if isinstance(pointer, c_ast.BinaryOp) and pointer.op in ("+", "-"):
        return _space(pointer.left) or (_space(pointer.right) if pointer.op == "+" else None)
    if isinstance(pointer, c_ast.Cast):
        return _space(pointer.expr) if t is None else None
    return None


def _base(pointer):
    """The pointer variable an access starts from, where it is one (``a`` of ``a[i]``
    and of ``*(a + i)``), else None: the access's own address then finds its buffer."""
    if isinstance(pointer, c_ast.ID) and pointer.name != LOCALS and \
            isinstance(fact(pointer, "ty"), ty.Pointer):
        return pointer
    if isinstance(pointer, c_ast.BinaryOp) and pointer.op in ("+", "-"):
        return _base(pointer.left) or (_base(pointer.right) if pointer.op == "+" else None)
    return None


def _pointer_base(pointer):
    """What an address a builtin takes starts from, as ``_base`` finds it, also through
    ``&E`` (``p`` of ``&p[i]``) and to a kernel-scope __local array
    (``cl2c_locals->a`` of ``cl2c_locals->a + i``); else None."""
    e = pointer
    while True:
        if isinstance(e, c_ast.UnaryOp) and e.op == "&":
            e = e.expr
        elif isinstance(e, c_ast.ArrayRef) or (isinstance(e, c_ast.StructRef) and
                                                e.type == "."):
            e = e.name
        elif isinstance(e, c_ast.BinaryOp) and e.op in ("+", "-") and \
                _base(e) is None and local_field(e.left) is not None:
            e = e.left
        else:
            break
    if isinstance(e, c_ast.StructRef) and e.type == "->" and local_field(e) is not None:
        return e
    return _base(e)


def _output_arguments(node: c_ast.FuncCall) -> set[int]:
    """The arguments ``&E`` that a math builtin stores its second result through (fract,
    modf, sincos, frexp, lgamma_r, remquo): a write of E, which a later read of E
    (__local memory's initialisation check) must see."""
    call = fact(node, "call")
    row = call.row if call is not None and call.kind == "builtin" else None
    if row is None or not row.outputs:
        return set()
    shift = len(node.args.exprs) - len(row.params)      # (a work-item context first)
    return {i + shift for i in row.outputs
            if i + shift < len(node.args.exprs) and
            isinstance(node.args.exprs[i + shift], c_ast.UnaryOp) and
            node.args.exprs[i + shift].op == "&"}


def _call(name: str, args: list, coord) -> c_ast.FuncCall:
    return c_ast.FuncCall(c_ast.ID(name, coord), c_ast.ExprList(args, coord), coord)

