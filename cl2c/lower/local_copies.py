"""A ``__local`` buffer that a work-group fills with a copy of memory the kernel does not
change, then reads after a barrier, read from that memory directly.

The lecture's last matrix product (``shared/seeds/003``, Version 6) copies a column of
``B`` into ``__local`` memory at each step of its ``j`` loop, the work-items taking every
``nl``-th element, waits at a barrier, and sums a row of ``A`` times the copy::

    for (k = il; k < DIM; k += nl)      // il = get_local_id(0), nl = get_local_size(0)
        Bl[k] = B[k*DIM+j];
    barrier(CLK_LOCAL_MEM_FENCE);
    sum = 0.0;
    for (k = 0; k < DIM; k++)
        sum += Al[k] * Bl[k];

On a CPU the copy is the cost (the column's elements a row apart, 64% of the time), and
``Bl[k]`` is ``B[k*DIM+j]``: the group's work-items together write every element of
``[0, DIM)``, each the load at its index, and between the copy and the reads nothing
stores to memory. So each read becomes the load (``B[k*DIM+j]``), the copy goes, and with
no ``__local`` memory left, so do the barriers (a ``CLK_LOCAL_MEM_FENCE`` orders
``__local`` memory only): the kernel runs as the rows it computes, in groups of cl2c's
choosing.

What is proved, or nothing changes (a normal build only: a checking build checks the
kernel as written):

- the buffer (a ``__local`` pointer parameter or kernel-scope array) is used only as
  ``L[i]``: one store, ``L[k] = E``, the whole body of a loop ``for (k = lid; k < N; k +=
  size)`` over the local id 0 in steps of the local size 0 (variables initialised to
  ``get_local_id(0)`` and ``get_local_size(0)`` and never changed count), which writes
  ``[0, N)``; the loop is a statement of a block, and a barrier that fences ``__local``
  memory (its flags constants) follows it there;
- every read is after that barrier in the same block (the same step of a loop around),
  at a subscript ``r``: the counter of a loop around the read from a constant at least 0
  by one below ``N`` (or a constant no larger), ``r`` of ``k``'s type and unchanged in
  it, so that each element read was written;
- ``E`` is made of constants, operators, ``k``, loads of ``__global``/``__constant``
  buffer parameters that the kernel never writes through (nor assigns; not volatile),
  scalar parameters the kernel never changes, and counters of loops around the block whose starts, bounds and
  steps are made of those: the same for every work-item and at the read as at the copy;
- from the copy to the last read, nothing stores to memory other than private variables
  and arrays, and nothing is called but builtins without effects and the barrier.

The barriers go only where no ``__local`` memory is left in the kernel, each fences
``__local`` memory alone, and no buffer parameter is both read and written (work-items
that pass values through global memory with a ``__local`` fence, wrongly, keep them).
Variables that then go unused and were initialised by a builtin without effects (the
local id and size above) go too, so that the kernel no longer sees its groups.

The other copy GPU code makes is a tile, each work-item storing one element at its
local ids (the tiled matrix product's ``As[ty][tx] = A[row*n + t*TILE + tx]``), which
covers the tile where the kernel requires a work-group size of the tile's shape
(``reqd_work_group_size(TILE, TILE, 1)`` for ``As[TILE][TILE]``; ``(N, 1, 1)`` for
``L[N]``) and every group has that size (OpenCL 1.x: from 2.0 the last group of a range
may be smaller, and a read of what it did not write the element of an earlier step).
What is proved there: one store, ``L[ly][lx] = E`` (``L[lx] = E``), a statement
of a block followed there by a barrier fencing ``__local`` memory, in a kernel without
``goto``; ``E`` as above but for the work-item's local and global ids (variables
initialised to them and never changed, or the calls); every read after the barrier in
the block, each subscript either the reader's own local id of that dimension (the
writer's ids there are the reader's) or the counter of a loop from a constant at least 0
by one below the tile's extent there, of ``E``'s local id's type: ``E``'s local id of that
dimension becomes the counter, and ``E`` may not use that dimension's global id; between
the store and the last read, stores to other ``__local`` arrays too (the second tile).
``As[ty][k]`` becomes ``A[row*n + t*TILE + k]``; split_loops.py then makes the product's
``t`` and ``k`` loops one.

A forwarded value that is a floating product is read as a cast to its own type: the copy
rounded it, and contraction.py must not fuse it with a sum it is read into.

Runs on sema's tree, after the launch's provable accesses were read from the kernel as
written (unconditional.py) and before contraction.
"""
from __future__ import annotations

from pycparser import c_ast

from .. import types as ty
from ..checking.counted import steps_by_one
from ..sema import FunctionInfo, Module
from .. import cnodes as cn
from ..typed_ast import copy_tree, fact, make, replace_child, walk
from .effects import call_of, has_effects
from .tree_facts import (changed_lvalues, int_constant, is_wide_int, parents_of,
                         strip_casts, symbol_of)
from .unconditional import changed_declarations

_BARRIERS = ("barrier", "work_group_barrier")
_LOCAL_FENCE = 1                      # CLK_LOCAL_MEM_FENCE (preprocess.py)


def forward_local_copies(module: Module, uniform_groups: bool = True
                         ) -> tuple[Module, dict[str, tuple[str, ...]]]:
    """Each kernel's copies forwarded (above); and, by kernel, the buffers it forwarded
    with what they copied (``"Bl, a copy of B"``), for the schedule's comment.
    ``uniform_groups``: every group has the local size (OpenCL 1.x), so that a tile of
    the required size is all written."""
    done = {}
    for f in module.kernels:
        forwarded = _Kernel(f, uniform_groups).forward()
        if forwarded:
            done[f.name] = forwarded
    return module, done


def _builtin(e, name: str | None = None):
    """The builtin call ``e`` (through casts) is, of ``name`` where given."""
    call = call_of(strip_casts(e))
    if call is None or call.kind != "builtin" or call.row is None or \
            (name is not None and call.name != name):
        return None
    return call


def _flags(e) -> int | None:
    """A barrier's flags, constants or'd together (``CLK_LOCAL_MEM_FENCE |
    CLK_GLOBAL_MEM_FENCE``), or None."""
    e = strip_casts(e)
    if isinstance(e, c_ast.BinaryOp) and e.op == "|":
        left, right = _flags(e.left), _flags(e.right)
        return None if left is None or right is None else left | right
    return int_constant(e)


class _Kernel:
    def __init__(self, f: FunctionInfo, uniform_groups: bool = True):
        self.f, self.body, self.uniform_groups = f, f.node.body, uniform_groups
        self.changed = changed_declarations(self.body)
        params = [p for p in f.node.decl.type.args.params if isinstance(p, c_ast.Decl)] \
            if f.node.decl.type.args else []
        self.param_decls = {id(d): p for d, p in zip(params, f.params)}
        # (a label lets a work-item reach a barrier past a tile's store)
        self._jumps = any(isinstance(n, (c_ast.Goto, c_ast.Label)) for n in walk(self.body))

    # ---- what is stable and the same for every work-item --------------------------------
    def _unchanged_param(self, sym) -> bool:
        return sym is not None and sym.kind == "param" and id(sym.node) in self.param_decls \
            and id(sym.node) not in self.changed

    def _uniform(self, e, allowed=frozenset()) -> bool:
        """``e`` is made of constants, operators, unchanged scalar parameters and the
        variables (declarations' ids) ``allowed``."""
        for n in walk(e):
            if isinstance(n, c_ast.ID):
                sym = symbol_of(n)
                if sym is None:
                    return False
                if id(sym.node) in allowed:
                    continue
                if not (self._unchanged_param(sym) and isinstance(sym.type, ty.Scalar)):
                    return False
            elif isinstance(n, (c_ast.FuncCall, c_ast.Assignment, c_ast.ArrayRef,
                                c_ast.StructRef)) or \
                    (isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--",
                                                                "&", "*")):
                return False
        return True

    def _loop_counter(self, loop) -> object | None:
        """The variable (its symbol) that For ``loop`` starts, or None."""
        init = loop.init
        if isinstance(init, c_ast.Assignment) and init.op == "=":
            return symbol_of(init.lvalue)
        if isinstance(init, c_ast.DeclList) and len(init.decls) == 1 and \
                isinstance(loop.cond, c_ast.BinaryOp):
            sym = symbol_of(loop.cond.left)
            return sym if sym is not None and sym.node is init.decls[0] else None
        return None

    def _start(self, loop):
        init = loop.init
        return init.rvalue if isinstance(init, c_ast.Assignment) else init.decls[0].init

    def _uniform_counter(self, sym, ancestors) -> bool:
        """``sym`` is the counter of one of the For loops ``ancestors`` (around the copy
        and its reads), assigned nowhere else, from a uniform start by a uniform step
        while a uniform bound holds."""
        for loop in ancestors:
            if not isinstance(loop, c_ast.For) or self._loop_counter(loop) is not sym:
                continue
            mine = {id(sym.node)}
            start, cond, step = self._start(loop), loop.cond, loop.next
            if start is None or cond is None or step is None or \
                    not self._uniform(start) or not self._uniform(cond, mine):
                return False
            if isinstance(step, c_ast.UnaryOp) and step.op in ("++", "--", "p++", "p--"):
                ok = symbol_of(step.expr) is sym
            elif isinstance(step, c_ast.Assignment) and step.op in ("+=", "-="):
                ok = symbol_of(step.lvalue) is sym and self._uniform(step.rvalue)
            else:
                ok = False
            # assigned only by this loop's start and step
            return ok and self._assignments(sym) == self._assignments(sym, loop)
        return False

    def _assignments(self, sym, within=None) -> int:
        """How many times the body (or only For ``within``'s start and step) assigns
        ``sym``, or takes its address."""
        roots = [self.body] if within is None else [within.init, within.next]
        return sum(symbol_of(t) is sym for root in roots for t in changed_lvalues(root, address=True))

    def _id_variable(self, e, name: str, dim: int = 0) -> bool:
        """``e`` is ``name(dim)`` (get_local_id, get_local_size, get_global_id), or a
        variable initialised to it and never changed."""
        call = _builtin(e, name)
        if call is not None:
            args = strip_casts(e).args
            return args is not None and len(args.exprs) == 1 and \
                int_constant(args.exprs[0]) == dim
        sym = symbol_of(strip_casts(e))
        if sym is None or sym.kind != "var" or id(sym.node) in self.changed or \
                not (isinstance(sym.type, ty.Scalar) and sym.type.kind == "int" and
                     sym.type.size >= 4):       # (one that holds every local id)
            return False
        init = getattr(sym.node, "init", None)
        return init is not None and not isinstance(init, c_ast.InitList) and \
            self._id_variable(init, name, dim)

    def _work_item_id(self, e) -> tuple[str, int] | None:
        """(builtin, dimension) where ``e`` is a local or global id (above), else None."""
        if not isinstance(strip_casts(e), (c_ast.ID, c_ast.FuncCall)):
            return None
        for name in ("get_local_id", "get_global_id"):
            for dim in range(3):
                if self._id_variable(e, name, dim):
                    return name, dim
        return None

    # ---- the buffer, its copy and its reads ---------------------------------------------
    def forward(self) -> tuple[str, ...]:
        done = []
        for sym in self._local_buffers():
            what = self._forward(sym)
            if what:
                done.append(what)
        if done:
            self._drop_barriers()
            self._drop_unused()
            self._update_facts()
        return tuple(done)

    def _local_buffers(self) -> list:
        seen, out = set(), []
        for n in walk(self.body):
            sym = symbol_of(n)
            if sym is not None and _is_local(sym) and id(sym) not in seen:
                seen.add(id(sym))
                out.append(sym)
        return out

    def _forward(self, sym) -> str | None:
        parents = parents_of(self.body)
        uses = [n for n in walk(self.body) if isinstance(n, c_ast.ID) and symbol_of(n) is sym]
        if sym.kind == "var":
            if not _dimensions(sym.type) or _element_type(sym.type) is None:
                return None
        elif not (isinstance(sym.type, ty.Pointer) and isinstance(sym.type.pointee, ty.Scalar)):
            return None
        rank = len(_dimensions(sym.type)) if sym.kind == "var" else 1
        writer, reads = None, []
        for use in uses:
            access = _element(use, parents, rank)
            if access is None:
                return None
            up = parents.get(id(access))
            if up is None:
                return None
            parent, slot = up
            if isinstance(parent, c_ast.Assignment) and slot == "lvalue":
                if parent.op != "=" or writer is not None:
                    return None
                writer = parent
            elif (isinstance(parent, c_ast.UnaryOp) and parent.op in ("&", "++", "--", "p++",
                                                                       "p--")) or \
                    isinstance(parent, (c_ast.ArrayRef,)) and slot == "name":
                return None
            else:
                reads.append(access)
        if writer is None or not reads:
            return None
        if _subscripts(writer.lvalue, rank)[-1] is not None and \
                self._work_item_id(_subscripts(writer.lvalue, rank)[-1]):
            return self._forward_tile(sym, writer, reads, parents)
        if rank != 1:
            return None
        copy = self._copy_loop(writer, parents)
        if copy is None:
            return None
        loop, block, at, counter, bound = copy
        barrier = self._next_barrier(block, at)
        if barrier is None:
            return None
        value = writer.rvalue
        element = sym.type.elem if sym.kind == "var" else sym.type.pointee
        ancestors = self._ancestors(block, parents)
        if fact(value, "ty") != element or not self._stable_value(value, counter, ancestors):
            return None     # (a store that converts: the read is of the converted value)
        # every read after the barrier in the block, at a counter within [0, bound)
        after = block.block_items[barrier + 1:]
        inside = {id(n) for item in after for n in walk(item)}
        last = barrier
        for read in reads:
            if id(read) not in inside or not self._read_in_range(
                    read, read.subscript, parents, bound, block, counter.type):
                return None
            last = max(last, next(i for i in range(barrier + 1, len(block.block_items))
                                  if any(n is read for n in walk(block.block_items[i]))))
        if not all(self._stores_nothing(s) for s in block.block_items[at + 1:last + 1]):
            return None
        # each read the copy's value at its subscript
        for read in reads:
            parent, slot = parents[id(read)]
            replace_child(parent, slot, _substituted(value, counter, read.subscript))
        block.block_items.remove(loop)
        if sym.kind == "var":
            self._remove_declaration(sym)
        return f"{sym.name}, a copy of {_sources(value)}"

    def _forward_tile(self, sym, writer, reads, parents) -> str | None:
        """A tile: ``L[ly][lx] = E`` (or ``L[lx] = E``), each work-item storing the element
        at its local ids, in a kernel whose required work-group size is the array's
        shape, so that the group writes every element. A read ``L[a][b]`` after the
        barrier is ``E`` as the work-item at (b, a) computed it: where a subscript is the
        reader's own local id of that dimension, the writer's ids there are the reader's;
        where it is the counter of a loop within the dimension, ``E``'s local id of that
        dimension becomes the counter (and ``E`` may not use that dimension's global id)."""
        dims = _dimensions(sym.type)
        rank, reqd = len(dims), self.f.attributes.get("reqd_work_group_size")
        if sym.kind != "var" or reqd is None or not self.uniform_groups or \
                tuple(reqd) != tuple(reversed(dims)) + (1,) * (3 - rank) or self._jumps:
            return None
        for place, sub in enumerate(_subscripts(writer.lvalue, rank)):
            if not self._id_variable(sub, "get_local_id", rank - 1 - place):
                return None
        place = _place(writer, parents)
        if place is None:
            return None
        block, at = place
        barrier = self._next_barrier(block, at)
        if barrier is None:
            return None
        value = writer.rvalue
        nodes = {id(n): n for n in walk(value) if self._work_item_id(n) is not None}
        inner = {id(d) for n in nodes.values() for d in walk(n) if d is not n}
        ids = {k: self._work_item_id(n) for k, n in nodes.items() if k not in inner}
        if fact(value, "ty") != _element_type(sym.type) or \
                not self._stable_value(value, None, self._ancestors(block, parents),
                                       skip=set(ids) | inner):
            return None
        after = block.block_items[barrier + 1:]
        inside = {id(n) for item in after for n in walk(item)}
        last, plans = barrier, []
        for read in reads:
            if id(read) not in inside:
                return None
            moved = {}                  # dimension -> the subscript the writer's id becomes
            for place, sub in enumerate(_subscripts(read, rank)):
                dim = rank - 1 - place
                if self._id_variable(sub, "get_local_id", dim):
                    continue
                if not self._read_in_range(read, sub, parents, dims[place], block):
                    return None
                # (the counter takes the id's place: of its type, so that the
                # arithmetic around it stays what it was)
                if ("get_global_id", dim) in ids.values() or \
                        any(v == ("get_local_id", dim) and
                            fact(nodes[k], "ty") != fact(sub, "ty") for k, v in ids.items()):
                    return None
                moved[dim] = sub
            plans.append((read, moved))
            last = max(last, next(i for i in range(barrier + 1, len(block.block_items))
                                  if any(n is read for n in walk(block.block_items[i]))))
        if not all(self._stores_nothing(s, local_arrays=True)
                   for s in block.block_items[at + 1:last + 1]):
            return None
        for read, moved in plans:
            parent, slot = parents[id(read)]
            replace_child(parent, slot, _with_ids(value, ids, moved))
        block.block_items.remove(writer)
        self._remove_declaration(sym)
        return f"{sym.name}, a copy of {_sources(value)}"

    def _copy_loop(self, writer, parents):
        """(loop, its block, its place there, the counter's symbol, the bound) of the
        copy loop whose body is ``writer``, or None."""
        up = parents.get(id(writer))
        node = writer
        if up is not None and isinstance(up[0], c_ast.Compound) and \
                len(up[0].block_items or []) == 1:
            node = up[0]
            up = parents.get(id(node))
        if up is None or not isinstance(up[0], c_ast.For) or up[1] != "stmt":
            return None
        loop = up[0]
        counter = self._loop_counter(loop)
        sub = symbol_of(strip_casts(writer.lvalue.subscript))
        if counter is None or sub is not counter or not is_wide_int(counter.type):
            return None
        start, cond, step = self._start(loop), loop.cond, loop.next
        if start is None or not self._id_variable(start, "get_local_id"):
            return None
        if not (isinstance(cond, c_ast.BinaryOp) and cond.op == "<" and
                symbol_of(cond.left) is counter and self._uniform(cond.right)):
            return None
        if not (isinstance(step, c_ast.Assignment) and step.op == "+=" and
                symbol_of(step.lvalue) is counter and
                self._id_variable(step.rvalue, "get_local_size")):
            return None
        if any(symbol_of(t) is counter for t in changed_lvalues(writer.rvalue)):
            return None
        place = _place(loop, parents)
        return None if place is None else (loop, *place, counter, cond.right)

    def _next_barrier(self, block, at: int) -> int | None:
        """The place of the first barrier fencing __local memory after ``at`` in
        ``block``."""
        return next((i for i in range(at + 1, len(block.block_items))
                     if self._is_barrier(block.block_items[i])), None)

    def _is_barrier(self, stmt) -> bool:
        """``stmt`` is a barrier that fences __local memory (its flags constants)."""
        call = _builtin(stmt)
        if call is None or call.name not in _BARRIERS or stmt.args is None:
            return False
        flags = _flags(stmt.args.exprs[0])
        return flags is not None and flags & _LOCAL_FENCE != 0

    def _ancestors(self, node, parents) -> list:
        out = []
        while id(node) in parents:
            node = parents[id(node)][0]
            out.append(node)
        return out

    def _stable_value(self, value, counter, ancestors, skip=frozenset()) -> bool:
        """The copy's value: constants, operators, the counter, unchanged scalar
        parameters, uniform counters of loops around, loads of unchanged buffers (and
        the nodes ``skip``: a tile's work-item ids)."""
        for n in walk(value):
            if id(n) in skip:
                continue
            if isinstance(n, c_ast.ID):
                sym = symbol_of(n)
                if sym is None or sym is counter:
                    continue
                if self._unchanged_param(sym):
                    p = self.param_decls[id(sym.node)]
                    if isinstance(p.type, ty.Pointer):
                        # (memory the kernel writes may change between the copy and a
                        # read: another work-item's store after its own reads)
                        if p.type.space not in ("global", "constant") or p.type.volatile \
                                or p.written:
                            return False
                    elif not isinstance(p.type, ty.Scalar):
                        return False
                    continue
                if sym.kind == "var" and isinstance(sym.type, ty.Scalar) and \
                        self._uniform_counter(sym, ancestors):
                    continue
                return False
            if isinstance(n, c_ast.ArrayRef):
                base = symbol_of(n.name)
                if base is None or not self._unchanged_param(base):
                    return False
            elif isinstance(n, (c_ast.FuncCall, c_ast.Assignment, c_ast.StructRef,
                                c_ast.TernaryOp, c_ast.CompoundLiteral)) or \
                    (isinstance(n, c_ast.UnaryOp) and
                     n.op in ("++", "--", "p++", "p--", "&", "*", "sizeof")):
                return False
        return True

    def _read_in_range(self, read, sub, parents, bound, block, of_type=None) -> bool:
        """The read's subscript ``sub`` is the counter of a loop around it (inside
        ``block``), from a constant >= 0 by one below the copy's ``bound`` (or a constant
        no larger), of the type ``of_type`` (an int, where not given) and unchanged in
        the loop."""
        sym = symbol_of(strip_casts(sub))
        if sym is None or not isinstance(sub, c_ast.ID) or \
                (sym.type != of_type if of_type is not None else not is_wide_int(sym.type)):
            return False
        node = read
        while id(node) in parents and node is not block:
            node = parents[id(node)][0]
            if isinstance(node, c_ast.For) and self._loop_counter(node) is sym:
                start = int_constant(self._start(node))
                cond, step = node.cond, node.next
                if start is None or start < 0 or not isinstance(cond, c_ast.BinaryOp) or \
                        cond.op != "<" or symbol_of(cond.left) is not sym or \
                        not _within(cond.right, bound):
                    return False
                if not steps_by_one(step, sym.name):
                    return False
                return not any(symbol_of(t) is sym for t in changed_lvalues(node.stmt))
        return False

    def _stores_nothing(self, stmt, local_arrays: bool = False) -> bool:
        """``stmt`` stores only to private variables and arrays (and, ``local_arrays``,
        to kernel-scope ``__local`` arrays: another tile), and calls only builtins
        without effects and barriers."""
        for n in walk(stmt):
            if isinstance(n, c_ast.FuncCall):
                call = _builtin(n)
                if call is None or not (call.name in _BARRIERS or
                                        call.row.pure):
                    return False
            for target in changed_lvalues(n, shallow=True):
                base = target
                while isinstance(base, c_ast.ArrayRef):
                    base = base.name
                sym = symbol_of(base)
                space = ("private", "local") if local_arrays else ("private",)
                if sym is None or sym.space not in space or sym.kind not in ("var",) or \
                        (base is not target and not isinstance(sym.type, ty.Array)) or \
                        (sym.space == "local" and base is target):
                    return False
        return True

    def _remove_declaration(self, sym) -> None:
        for n in walk(self.body):
            if isinstance(n, c_ast.Compound) and n.block_items:
                n.block_items = [s for s in n.block_items if s is not sym.node]

    # ---- what no longer has a use -------------------------------------------------------
    def _local_left(self) -> bool:
        return any(_is_local(symbol_of(n)) for n in walk(self.body))

    def _drop_barriers(self) -> None:
        if self._local_left() or self.f.callees or not self._buffers_stored_only():
            return
        for n in walk(self.body):
            if isinstance(n, c_ast.Compound) and n.block_items:
                n.block_items = [s for s in n.block_items
                                 if not (self._is_barrier(s) and
                                         _flags(s.args.exprs[0]) == _LOCAL_FENCE)]

    def _buffers_stored_only(self) -> bool:
        """Each buffer or image the kernel writes it only stores to (``p[i] = v``): no
        work-item reads what another wrote."""
        written = {p.name for p in self.f.params if isinstance(p.type, ty.Pointer) and
                   p.type.space == "global" and p.written}
        if any(isinstance(p.type, ty.Image) for p in self.f.params):
            return False
        parents = parents_of(self.body)
        for n in walk(self.body):
            sym = symbol_of(n)
            if sym is None or sym.kind != "param" or sym.name not in written:
                continue
            ref = parents.get(id(n))
            up = parents.get(id(ref[0])) if ref is not None else None
            if not (ref is not None and isinstance(ref[0], c_ast.ArrayRef) and
                    ref[1] == "name" and up is not None and
                    isinstance(up[0], c_ast.Assignment) and up[0].op == "=" and
                    up[1] == "lvalue"):
                return False
        return True

    def _drop_unused(self) -> None:
        """Declarations of variables no longer read, initialised by a builtin call
        without effects (or a constant)."""
        while True:
            used = {id(symbol_of(n).node) for n in walk(self.body)
                    if isinstance(n, c_ast.ID) and symbol_of(n) is not None}
            gone = False
            for n in walk(self.body):
                if not (isinstance(n, c_ast.Compound) and n.block_items):
                    continue
                kept = [s for s in n.block_items if not (
                    isinstance(s, c_ast.Decl) and s.name and id(s) not in used and
                    isinstance(fact(s, "ty"), ty.Scalar) and s.init is not None and
                    not has_effects(s.init) and
                    (int_constant(s.init) is not None or
                     (_builtin(s.init) is not None and _builtin(s.init).row.pure)))]
                if len(kept) != len(n.block_items):
                    n.block_items, gone = kept, True
            if not gone:
                return

    def _update_facts(self) -> None:
        names, params = set(), set()
        for n in walk(self.body):
            call = _builtin(n) if isinstance(n, c_ast.FuncCall) else None
            if call is not None:
                names.add(call.name)
            sym = symbol_of(n)
            if sym is not None and sym.kind == "param":
                params.add(sym.name)
        self.f.builtins = {b for b in self.f.builtins if b in names}
        self.f.used_params = {p for p in self.f.used_params if p in params}
        self.f.sync = any(b in _BARRIERS for b in names) or \
            (self.f.sync and bool(self.f.callees))


def _is_local(sym) -> bool:
    """``sym`` is __local memory: a kernel-scope variable, or a pointer parameter to it."""
    if sym is None:
        return False
    if sym.kind == "param":
        return isinstance(sym.type, ty.Pointer) and sym.type.space == "local"
    return sym.kind == "var" and sym.space == "local"


def _within(bound, copy_bound) -> bool:
    """A read loop's ``bound`` is the copy loop's, or both are constants (or the copy's
    an int: a tile's extent) and it is no larger."""
    a, b = int_constant(bound), copy_bound if isinstance(copy_bound, int) else int_constant(copy_bound)
    if a is not None and b is not None:
        return a <= b
    if isinstance(copy_bound, int):
        return False
    sa, sb = symbol_of(strip_casts(bound)), symbol_of(strip_casts(copy_bound))
    return sa is not None and sa is sb and isinstance(strip_casts(bound), c_ast.ID)


def _substituted(value, counter, subscript):
    """A copy of ``value`` with the counter's uses replaced by copies of ``subscript``."""
    out = copy_tree(value)
    if isinstance(out, c_ast.ID) and symbol_of(out) is counter:
        return copy_tree(subscript)
    for n in list(walk(out)):
        for slot, child in n.children():
            if isinstance(child, c_ast.ID) and symbol_of(child) is counter:
                replace_child(n, slot, copy_tree(subscript))
    return _rounded(out)


def _rounded(value):
    """``value``, a floating product, as the copy stored it: rounded (a cast to its own
    type, which contraction.py does not see through), so that a read in a sum is not
    contracted with it into one fma, which would round once."""
    t = fact(value, "ty")
    elem = t.elem if isinstance(t, ty.Vector) else t
    if not (isinstance(value, c_ast.BinaryOp) and value.op == "*" and
            isinstance(elem, ty.Scalar) and elem.kind == "float"):
        return value
    out = make(c_ast.Cast, cn.typename(t, value.coord), value, value.coord)
    out.ty = t
    return out


def _sources(value) -> str:
    names = []
    for n in walk(value):
        if isinstance(n, c_ast.ArrayRef) and isinstance(n.name, c_ast.ID) and \
                n.name.name not in names:
            names.append(n.name.name)
    return ", ".join(names) or "its values"


def _place(stmt, parents) -> tuple | None:
    """(the block that holds statement ``stmt``, its place there), or None where a
    statement other than a block holds it."""
    up = parents.get(id(stmt))
    if up is None or not isinstance(up[0], c_ast.Compound):
        return None
    return up[0], next(i for i, s in enumerate(up[0].block_items) if s is stmt)


def _dimensions(t) -> list[int]:
    """The lengths of array type ``t``, outermost first (``[TILE + 2, TILE + 2]``)."""
    out = []
    while isinstance(t, ty.Array) and t.length:
        out.append(t.length)
        t = t.elem
    return out


def _element_type(t):
    """The scalar element of an array of scalars (of any rank), else None."""
    while isinstance(t, ty.Array) and t.length:
        t = t.elem
    return t if isinstance(t, ty.Scalar) else None


def _element(use, parents, rank: int):
    """The access ``L[a]...[z]`` of all ``rank`` subscripts that the identifier ``use``
    begins, or None where it is used otherwise."""
    node = use
    for _ in range(rank):
        up = parents.get(id(node))
        if up is None or not isinstance(up[0], c_ast.ArrayRef) or up[1] != "name":
            return None
        node = up[0]
    return node


def _subscripts(access, rank: int) -> list:
    """The subscripts of ``L[a]...[z]``, outermost (``a``) first."""
    out = []
    for _ in range(rank):
        out.append(access.subscript)
        access = access.name
    return out[::-1]


def _with_ids(value, ids: dict, moved: dict):
    """A copy of a tile's ``value`` as the work-item a read names computed it: each
    local id (``ids``: node id -> (builtin, dimension)) of a dimension in ``moved`` is
    that read's subscript there."""
    memo = {}
    out = copy_tree(value, memo)
    swaps = {id(memo[k]): moved[dim] for k, (name, dim) in ids.items()
             if name == "get_local_id" and dim in moved}
    if id(out) in swaps:
        return copy_tree(swaps[id(out)])
    for n in list(walk(out)):
        for slot, child in n.children():
            if id(child) in swaps:
                replace_child(n, slot, copy_tree(swaps[id(child)]))
    return _rounded(out)
