"""The work-group function of the regions schedule, as IR: the kernel's C AST
rewritten after the plan, with per-work-item arrays for the private variables that
cross a cut (a vector's components each in an array of their own, gathered into a local
vector in each work-item loop that uses it: contiguous loads, no transposes), recomputed
ids, a loop over the work-items for every region (bounded
by the kernel's own guard, bounds.py), and work-item returns that skip the rest."""
from __future__ import annotations

import copy

from pycparser import c_ast

from ... import declarators
from ... import types as ty
from ...literals import integer_value
from ... import cnodes as cn
from ...typed_ast import fact
from ...lower.effects import call_of, has_effects, is_atomic
from ..passes.interleaving import interleaved
from ..ir import Block, Once, WorkItemLoop
from ..names import LOCAL_ID, LOCAL_SIZE, NEXT
from ..write import item_body, snippet
from .bounds import LoopBounds
from .plan import Builder, Collective, GroupIf, GroupLoop, Region
from .privates import Privates
from .fission import cut
from .splits import middle_bounds, one_item, split
from .syntax import (COUNT, INDEX, assigned_names, at, base_ids, ids, replace_child,
                     retyped, set_name, typename, walk)
from .uniformity import Analysis

class Writer:
    """Writes the work-group function of a kernel from its plan."""

    def __init__(self, an: Analysis, priv: Privates, builder: Builder, params: dict,
                 reqd, simd: bool, checking: bool = False, interleavable=None,
                 counters=frozenset()):
        self.an, self.priv, self.builder = an, priv, builder
        self.checking = checking      # checking mode: who runs, and each region a phase
        self.reqd = reqd
        self.simd = simd
        self.interleavable = interleavable  # work-items an iteration (interleaving.py)
        self.interleaving = False
        self.labels = 0
        self.splits = 0               # regions split where comparisons are known
        self.inside = set()           # the image accesses those split at x inside
        self.row_splits = 0           # their rows too (local id 1)
        self.cuts = 0                 # regions cut where a statement runs for one
                                      # work-item of each row (fission.py)
        self.promoted = {d.name for d in priv.promoted}
        self.item_arrays: dict = {}   # prologue's: {name: element C type} (ir.GroupFunction)
        # vector privates stored as a structure of arrays: one array per component
        self.soa = {d.name: v for d in priv.promoted
                    if (v := _vector_type(d)) is not None and _soa_safe(d.name, an.body)}
        # array privates indexed only element by element: the work-items' elements side
        # by side (element k of every work-item, then k + 1), so that a work-item loop
        # loads them as vectors, not gathers a row apart
        self.transposed = {d.name: dims for d in priv.promoted
                           if d.init is None and (dims := _array_dims(d)) and
                           _only_elements(d.name, len(dims), an.body)}
        regions = priv.regions
        with_returns = [r for r in regions if any(isinstance(n, c_ast.Return)
                                                  for s in r.stmts for n in walk(s))]
        # A work-item that returns before the last region must skip the later ones.
        self.done = bool(with_returns) and (len(regions) > 1)
        self.bounds = LoopBounds(an, priv, params, self.done, counters)
        self._prepare_regions()

    @property
    def bounded(self) -> int:
        """How many guards became loop bounds."""
        return self.bounds.bounded

    # -- per-work-item storage
    def prologue(self) -> list:
        # reqd_work_group_size makes the work-item loops' trip counts constants
        ls = [str(n) for n in self.reqd] if self.reqd else \
            [f"cl2c_wi->local_size[{d}]" for d in range(3)]
        sizes = ", ".join(f"{n} = {v}" for n, v in zip(LOCAL_SIZE, ls))
        zeros = ", ".join(f"{n} = 0" for n in LOCAL_ID)
        code = (f"const size_t {sizes};"
                f"const size_t {COUNT} = {' * '.join(LOCAL_SIZE)};"
                f"const size_t {zeros};")
        items = snippet(code)
        for d in items:
            d.funcspec = ["CL2C_UNUSED"]
        items.insert(0, cn.ident("CL2C_GROUP_COPY"))
        if self.checking:
            items += snippet("cl2c_ck_thread *const cl2c_ck_t = cl2c_ck_self();")
            items[-1].funcspec = ["CL2C_UNUSED"]
        arrays = []    # (name, element Typename[, Typename of a work-item's part])
        for d in self.priv.promoted:
            if d.name in self.soa:
                v = self.soa[d.name]
                elem = cn.typename(v.elem)
                arrays += [(_component(d.name, c), elem) for c in range(v.n)]
            elif d.name in self.transposed:
                arrays.append((d.name, typename(declarators.inner(d.type)), typename(d.type)))
            else:
                arrays.append((d.name, typename(d.type)))
        for name, ctype in self.builder.buffers:
            arrays.append((name, c_ast.Typename(None, [], None, c_ast.TypeDecl(
                None, [], None, c_ast.IdentifierType([ctype])))))
        if self.done:
            arrays.append(("cl2c_done", c_ast.Typename(None, [], None, c_ast.TypeDecl(
                None, [], None, c_ast.IdentifierType(["unsigned", "char"])))))
        self.item_arrays = {name: " ".join(t.type.type.names) for name, t, *part in arrays
                            if not part and isinstance(t.type, c_ast.TypeDecl) and
                            isinstance(t.type.type, c_ast.IdentifierType)}
        if not arrays:
            return items

        def bytes_of(part):
            return c_ast.BinaryOp("*", cn.ident(COUNT), c_ast.UnaryOp("sizeof", part))
        total = None
        for _, t, *part in arrays:
            size = c_ast.BinaryOp("+", bytes_of(copy.deepcopy(part[0] if part else t)),
                                  cn.const_int(64))
            total = size if total is None else c_ast.BinaryOp("+", total, size)
        items += snippet("char *cl2c_mem;")
        items[-1].init = cn.call("cl2c_scratch", total)
        for name, t, *part in arrays:
            ptr = c_ast.PtrDecl([], retyped(copy.deepcopy(t.type), name))
            items.append(c_ast.Decl(name, [], [], [], [], ptr, cn.call(
                "cl2c_take", c_ast.UnaryOp("&", cn.ident("cl2c_mem")),
                bytes_of(copy.deepcopy(part[0] if part else t))), None))
        if self.done:
            items += snippet("__builtin_memset(cl2c_done, 0, cl2c_nwi);")
        return items

    # -- rewriting region statements
    def _prepare_regions(self):
        priv = self.priv
        remat = priv.remat
        single = priv.single
        for i, r in enumerate(priv.regions):
            out = []
            for s in r.stmts:
                if isinstance(s, c_ast.Decl) and s.name in self.promoted:
                    out.extend(self._promoted_init(s))
                    continue
                if isinstance(s, c_ast.Decl) and s.name in remat and s.init is None:
                    continue            # declared where it is assigned
                if isinstance(s, c_ast.Decl) and s.name in priv.per_region and \
                        not (s.init is not None and has_effects(s.init)) and \
                        not any(s.name in ids(t) for t in r.stmts if t is not s):
                    continue            # declared in the regions that use it
                if isinstance(s, c_ast.Assignment) and isinstance(s.lvalue, c_ast.ID) and \
                        s.lvalue.name in remat and single.get(s.lvalue.name) is s:
                    out.append(self._remat_decl(s.lvalue.name))
                    continue
                out.append(s)
            # recompute the ids this region uses but does not define
            defined = {s.name for s in out if isinstance(s, c_ast.Decl)}
            used = set().union(*(ids(s) for s in out)) if out else set()
            needed = self._remat_closure(used, defined)
            r.stmts = [self._remat_decl(n) for n in needed] + \
                self._per_region_decls(used, defined) + out
            for s in r.stmts:
                if isinstance(s, c_ast.Decl) and s.name in remat:
                    s.funcspec = ["CL2C_UNUSED"]    # recomputed where needed, maybe unused
            for s in r.stmts:
                self._index_promoted(s)

    def _per_region_decls(self, used: set, defined: set) -> list:
        """The declarations of the variables of each region (``Privates.per_region``)
        that this region uses and does not declare: written here before any read."""
        out = []
        for name in self.an.in_order(used - defined):
            if name in self.priv.per_region:
                d = copy.deepcopy(self.priv.per_region[name])
                d.init = None
                out.append(d)
        return out

    def _remat_closure(self, used: set, defined: set) -> list:
        order: list = []
        remat = self.priv.remat

        def visit(name):
            if name in order or name in defined or name not in remat:
                return
            for dep in sorted(ids(self.priv.remat_value(name))):
                visit(dep)
            order.append(name)

        for name in sorted(used):
            visit(name)
        return order

    def _remat_decl(self, name) -> c_ast.Decl:
        d = copy.deepcopy(self.priv.remat[name])
        d.init = copy.deepcopy(self.priv.remat_value(name))
        return d

    def _promoted_init(self, d: c_ast.Decl) -> list:
        if d.init is None:
            return []
        if isinstance(d.init, c_ast.InitList):
            tmp = copy.deepcopy(d)
            set_name(tmp, d.name + "_init")
            copy_call = cn.call("__builtin_memcpy", c_ast.UnaryOp("&", cn.ident(d.name)),
                                c_ast.UnaryOp("&", cn.ident(tmp.name)),
                                c_ast.UnaryOp("sizeof", cn.ident(tmp.name)))
            return [c_ast.Compound([tmp, copy_call], d.coord)]
        return [c_ast.Assignment("=", cn.ident(d.name), d.init, d.coord)]

    def _index_promoted(self, node) -> None:
        promoted = self.promoted - set(self.soa) - set(self.transposed)
        if not promoted and not self.transposed:
            return
        for name, child in list(node.children()):
            chain = _element_of(child, self.transposed)
            if chain is not None:
                # a[i][j] of a work-item's int a[M][N]: a[(i * N + j) * cl2c_nwi + cl2c_i]
                base, subscripts = chain
                dims = self.transposed[base.name]
                flat = subscripts[0]
                for sub, n in zip(subscripts[1:], dims[1:]):
                    flat = c_ast.BinaryOp("+", c_ast.BinaryOp("*", flat, cn.const_int(n)), sub)
                flat = c_ast.BinaryOp("+", c_ast.BinaryOp("*", flat, cn.ident(COUNT)),
                                      cn.ident(INDEX))
                self._index_promoted(flat)
                replace_child(node, name, c_ast.ArrayRef(base, flat, child.coord))
            elif isinstance(child, c_ast.ID) and child.name in promoted and \
                    not (isinstance(node, c_ast.StructRef) and name == "field"):
                replace_child(node, name, c_ast.ArrayRef(child, cn.ident(INDEX), child.coord))
            elif child is not None:
                self._index_promoted(child)

    # -- the group-level code
    def items(self, items: list) -> list:
        """The plan's items, each region a work-item loop."""
        out = []
        for it in items:
            if isinstance(it, Region) and _idle(it.stmts):
                continue        # (its statements went to a uniform loop: nothing left)
            if isinstance(it, Region):
                out.append(self.region(it))
            elif isinstance(it, GroupIf):
                out.append(GroupIf(it.node, self.items(it.then), self.items(it.other)))
            elif isinstance(it, GroupLoop):
                out.append(GroupLoop(it.node, self.items(it.body)))
            elif isinstance(it, Collective):        # pragma: no cover (built as Once/Region)
                raise AssertionError("collective left in the structure")
            else:
                out.append(it)
        return out

    def region(self, r: Region):
        """Region ``r``'s work-item loop, or a Block of the loops of its split (splits.py)."""
        stmts = list(r.stmts)
        label = None
        top = {id(s) for s in stmts if isinstance(s, c_ast.Return)}
        nested_return = any(isinstance(n, c_ast.Return) and id(n) not in top
                            for s in stmts for n in walk(s))
        if nested_return:
            self.labels += 1
            label = f"{NEXT}{self.labels}"
        stmts = [self._returns(s, label) for s in stmts]
        lo, hi, stmts = self.bounds.of_region(stmts)
        first = lo if hi else None
        stmts = self._soa_copies(stmts)
        # (a split's bounds are computed once for the group, a row's bounds in its row)
        splits = self.simd and label is None and not self.bounds.row_bounds
        pieces = cut(stmts, self.bounds, self._held_once) if splits else None
        if pieces is None:
            return self._rows_split(stmts, first, hi, label, splits)
        self.cuts += 1
        counts = self.splits, self.row_splits
        loops = Block([self._rows_split(copy.deepcopy(p.stmts), copy.deepcopy(first),
                                        copy.deepcopy(hi), label, splits)
                       if p.point is None else self._one_a_row(p, first, hi, label)
                       for p in pieces])
        # (the region's splits, once however many of its loops were)
        self.splits, self.row_splits = (min(now, was + 1) for now, was in
                                        zip((self.splits, self.row_splits), counts))
        return loops

    def _held_once(self, name: str, subscripted: bool) -> bool:
        """Is the kernel's variable ``name``, written (an element of it, where
        ``subscripted``), held once for the group: a private that is not an array of one
        a work-item, nor a pointer to memory?"""
        d = self.an.decls.get(name)
        if d is None or name in self.promoted:
            return False        # a parameter, the schedule's own, or one a work-item
        return not (subscripted and isinstance(fact(d, "ty"), ty.Pointer))

    def _one_a_row(self, piece, first, hi, label):
        """The loop of a statement that one work-item of each row runs (fission.py):
        over [first, hi) narrowed to ``piece.point``."""
        setup = one_item(first if first is not None else cn.const_int(0),
                         hi if hi is not None else cn.ident(LOCAL_SIZE[0]), piece.point)
        lo, end = (cn.ident(n) for n in middle_bounds(0))
        return Block([*(Once(s) for s in setup),
                      self._loop(copy.deepcopy(piece.stmts), lo, end, label, False)])

    def _rows_split(self, stmts, first, hi, label, splits: bool):
        """The loops of a region's ``stmts``, split along local ids 1 and 0 where
        ``splits`` allows (splits.py)."""
        rows = split(stmts, self.bounds, None, None, 1) if splits and self._rows() else None
        if rows is None:
            loops, cut = self._columns(stmts, first, hi, label, splits)
            self.splits += cut
            return loops
        lo1, hi1 = (cn.ident(n) for n in middle_bounds(1))
        # (the middle rows' loops go where folding left them nothing to do: a tile's
        # halo rows, whose loads have loops of their own, fission.py)
        parts = [self._columns(body, copy.deepcopy(first), copy.deepcopy(hi), label, splits,
                               (row_first, row_end))
                 for body, row_first, row_end in ((copy.deepcopy(stmts), rows.first, lo1),
                                                  (rows.middle, copy.deepcopy(lo1),
                                                   copy.deepcopy(hi1)),
                                                  (stmts, copy.deepcopy(hi1), rows.end))
                 if not _idle(body)]
        self.row_splits += 1
        self.splits += any(cut for _, cut in parts)
        return Block([*(Once(s) for s in rows.setup), *(loops for loops, _ in parts)])

    def _columns(self, stmts, first, hi, label, splits: bool, rows=None):
        """(the work-item loops of a region's ``stmts`` in rows ``rows`` (first, end;
        None: the group's), split along the local id 0 where ``splits`` allows, whether
        they were)."""
        cut = split(stmts, self.bounds, first, hi) if splits else None
        if cut is None:
            return self._loop(stmts, first, hi, label, rows=rows), False
        self.inside.update(cut.inside)
        mid_lo, mid_hi = (cn.ident(n) for n in middle_bounds(0))
        rows = rows or (None, None)
        copied = [copy.deepcopy(rows) for _ in range(2)]
        middle = [] if _idle(cut.middle) else [     # (nothing left to do there)
            self._loop(cut.middle, copy.deepcopy(mid_lo), mid_hi, label, rows=copied[1])]
        return Block([*(Once(s) for s in cut.setup),
                      self._loop(copy.deepcopy(stmts), cut.first, mid_lo, label, False,
                                 copied[0]),
                      *middle,
                      self._loop(stmts, copy.deepcopy(mid_hi), cut.end, label, False,
                                 rows)]), True

    def _rows(self) -> bool:
        """Do work-item loops run in rows (loops over local ids 1 and 2)?"""
        reqd = self.reqd
        return not (reqd and reqd[1] == 1 and reqd[2] == 1)

    def _loop(self, stmts, first, end, label, middle=True, rows=None) -> WorkItemLoop:
        """The work-item loop of a region's ``stmts``, from ``first`` to ``end`` (None:
        the group's local ids 0), in rows ``rows`` (first, end; None: the group's); not
        ``middle``: the few work-items on either side of a split's middle, not worth
        vectorising."""
        bases = self.bounds.affine_ids(stmts)
        row_first, row_end = rows or (None, None)
        loop = WorkItemLoop(
            stmts, sizes=LOCAL_SIZE, first=first, end=end, row_items=bases,
            rows=self._rows(), row_first=row_first, row_end=row_end,
            # the guard's terms that do not depend on the local id 0 (they may use
            # l1 and l2, the enclosing loops' ids)
            row_guard=copy.deepcopy(self.bounds.outer_guard),
            simd=middle and self.simd and not any(is_atomic(n) for s in stmts
                                                  for n in walk(s)),
            edge=not middle, checked=self.checking, skips_done=self.done,
            end_label=label)
        if loop.simd:
            self._interleave(loop)
        return loop

    def _interleave(self, loop: WorkItemLoop) -> None:
        """The work-item loop of a loop-free kernel's one region as the loops schedule's
        interleaved function has it (interleaving.py): blocks of CL2C_WAY_BLOCK
        work-items, each with the next blocks (one a way), their statements alternating;
        the rest one at a time. Left as it is where that does not apply."""
        if self.interleavable is None or len(self.priv.regions) != 1 or self.done:
            return
        body = interleaved(item_body(loop), self.interleavable)
        if body is None:
            return
        self.interleaving = True
        loop.ways, loop.interleaved = self.interleavable.ways, body

    def _soa_copies(self, stmts) -> list:
        """A vector private stored as a structure of arrays is a local of the work-item
        loop's body: gathered from its arrays first, scattered back at the end if the
        region changes it (a work-item that returns skips that: it is done)."""
        used = set().union(set(), *(ids(s) for s in stmts))
        changed = set().union(set(), *(assigned_names(s) for s in stmts))
        loads, stores = [], []
        for name, v in self.soa.items():
            if name not in used:
                continue
            parts = [c_ast.ArrayRef(cn.ident(_component(name, c)), cn.ident(INDEX))
                     for c in range(v.n)]
            # none to gather where the region first sets the whole vector
            first = next(s for s in stmts if name in ids(s))
            fresh = isinstance(first, c_ast.Assignment) and first.op == "=" and \
                isinstance(first.lvalue, c_ast.ID) and first.lvalue.name == name and \
                name not in ids(first.rvalue)
            init = None if fresh else c_ast.InitList([c_ast.InitList(parts)])
            loads.append(c_ast.Decl(name, [], [], [], [], cn.declarator(v, name), init, None))
            if name in changed:
                stores += [c_ast.Assignment("=", copy.deepcopy(parts[c]),
                                            cn.component(cn.ident(name), c))
                           for c in range(v.n)]
        return loads + stmts + stores

    def _returns(self, s, label):
        """``return`` in a region ends this work-item's part of it (and, when later
        regions follow, marks the work-item done)."""
        def jump():
            go = c_ast.Goto(label) if label else c_ast.Continue()
            if not self.done:
                return go
            mark = c_ast.Assignment("=", at("cl2c_done"), cn.const_int(1))
            return c_ast.Compound([mark, go])

        if isinstance(s, c_ast.Return):
            return jump()
        for name, child in list(s.children()):
            if isinstance(child, c_ast.Return):
                replace_child(s, name, jump())
            elif child is not None:
                self._returns(child, label)
        return s


def _int(e):
    return cn.cast(ty.INT, e)


def _vector_type(d: c_ast.Decl):
    """The vector type a declaration declares (``float4 v``), or None."""
    t = fact(d, "ty")
    return t if isinstance(d.type, c_ast.TypeDecl) and isinstance(t, ty.Vector) else None


def _soa_safe(name: str, body) -> bool:
    """Whether private ``name`` may live in a local copy per region: its address (or a
    component's) only goes to the runtime's swizzle stores, never into a pointer that
    could outlive a region."""
    updating = {id(a) for n in walk(body) if isinstance(n, c_ast.FuncCall) and
                n.args is not None and call_of(n) is not None and call_of(n).kind == "update"
                for a in n.args.exprs}
    return not any(isinstance(n, c_ast.UnaryOp) and n.op == "&" and
                   name in base_ids(n.expr) and id(n) not in updating for n in walk(body))


def _idle(stmts: list) -> bool:
    """Whether a region's statements do nothing: declarations without effects of
    variables nothing else in it uses (recomputed ids a moved loop left behind)."""
    decls = [s for s in stmts if isinstance(s, c_ast.Decl)]
    if len(decls) != len(stmts):
        return False
    used = set().union(set(), *(ids(s.init) for s in decls if s.init is not None))
    return not any(s.name in used or (s.init is not None and has_effects(s.init))
                   for s in decls)


def _array_dims(d: c_ast.Decl) -> list[int]:
    """The constant extents of array ``d`` (``int a[M][N]``: [M, N]); [] for others."""
    dims, t = [], d.type
    while isinstance(t, c_ast.ArrayDecl):
        if not isinstance(t.dim, c_ast.Constant) or _int_value(t.dim) is None:
            return []
        dims.append(_int_value(t.dim))
        t = t.type
    return dims if isinstance(t, c_ast.TypeDecl) else []


def _int_value(c: c_ast.Constant) -> int | None:
    try:
        return integer_value(c.value)
    except ValueError:
        return None


def _element_of(node, arrays: dict):
    """(base ID, subscripts) where ``node`` is an element ``a[i]...`` of an array of
    ``arrays`` (name: extents) subscripted to its full rank, else None."""
    subscripts = []
    while isinstance(node, c_ast.ArrayRef):
        subscripts.append(node.subscript)
        node = node.name
    if isinstance(node, c_ast.ID) and node.name in arrays and \
            len(subscripts) == len(arrays[node.name]):
        return node, subscripts[::-1]
    return None


def _only_elements(name: str, rank: int, body) -> bool:
    """Whether every use of array ``name`` in ``body`` is one element, ``a[i]...`` of
    ``rank`` subscripts, whose address nothing takes: no pointer to a row of it."""
    uses = sum(1 for n in walk(body) if isinstance(n, c_ast.ID) and n.name == name)
    elements = 0
    for n in walk(body):
        if isinstance(n, c_ast.UnaryOp) and n.op in ("&", "sizeof") and \
                name in ids(n.expr):
            return False
        if _element_of(n, {name: [0] * rank}) is not None:
            elements += 1
    return uses == elements


def _component(name: str, c: int) -> str:
    """The array of component ``c`` of a vector private stored as a structure of arrays."""
    return f"{name}__s{c}"
