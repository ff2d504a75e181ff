"""Lowering pass: a kernel becomes a work-group function (the "regions" schedule).

``regions.py`` decides what runs once per group and what per work-item; this
module rewrites the kernel's C AST accordingly: per-work-item arrays for the
private variables that cross a cut, recomputed ids, a loop over the work-items
for every region (bounded by the kernel's own guard where it has the form
``if (get_global_id(0) < n)``), and work-item returns that skip the rest.
"""
from __future__ import annotations

import copy

from pycparser import c_ast, c_parser

from . import cnodes as cn
from .regions import (COUNT, INDEX, LID, Analysis, Builder, Collective, GroupIf, GroupLoop,
                      NeedFibers, Once, Privates, Region, _at,
                      _escaping_jumps, _ids, _replace_child, _set_declname, _stmts, _walk,
                      all_items, call_name, inline_sync_calls, interchange_grid_stride_loops,
                      rename_locals)

_TYPEDEFS = ("typedef int size_t; typedef int ptrdiff_t; typedef int cl2c_workitem; "
             "typedef int cl2c_uint;")
_INT_TYPES = {"int", "short", "long", "char", "unsigned", "signed", "size_t", "ptrdiff_t",
              "cl2c_uint", "cl2c_ulong", "cl2c_long", "cl2c_ushort", "cl2c_uchar",
              "cl2c_char", "cl2c_short", "cl2c_int", "intptr_t", "uintptr_t"}


def _snippet(code: str) -> list:
    """Block items of C code (boilerplate is clearer written as C than as nodes)."""
    ast = c_parser.CParser().parse(_TYPEDEFS + " void f(void) {" + code + "}")
    return list(ast.ext[-1].body.block_items or [])


def make_group_function(func: c_ast.FuncDef, params: dict, helpers: dict,
                        reqd: tuple | None, simd: bool, hoist_loops: bool) -> str:
    """Rewrite kernel ``func`` in place into its work-group function.

    params: {name: Decl} of the kernel's by-value parameters.
    helpers: {name: FuncDef} of the lowered helper functions (for inlining).
    Returns a short description of what was done (for the emitted comment).
    Raises NeedFibers when the kernel cannot be expressed this way.
    """
    body = func.body
    inline_sync_calls(body, helpers)
    params = _privatize_written_params(func, params)
    taken = {p.name for p in func.decl.type.args.params if getattr(p, "name", None)}
    rename_locals(body, taken | set(helpers))
    _complete_array_bounds(body)
    _sizeof_by_type(body)
    strided = interchange_grid_stride_loops(body) if hoist_loops else 0
    an = Analysis(body, set(params), hoist_loops)
    builder = Builder(an)
    items = builder.build(_stmts(body))
    priv = Privates(an, items)
    writer = _Writer(an, priv, builder, params, reqd, simd)
    func.body = c_ast.Compound(writer.prologue() + writer.items(items, top=True), body.coord)
    params = func.decl.type.args.params
    params[0] = c_ast.Decl(None, [], [], [], [], c_ast.TypeDecl(
        None, [], None, c_ast.IdentifierType(["CL2C_GROUP_PARAMS"])), None, None)
    regions = len(priv.regions)
    parts = [f"{regions} region{'s' if regions != 1 else ''}"]
    if priv.promoted:
        parts.append("per-work-item arrays: " + ", ".join(d.name for d in priv.promoted))
    if priv.remat:
        parts.append("recomputed: " + ", ".join(sorted(priv.remat)))
    if writer.bounded:
        parts.append(f"{writer.bounded} guard{'s' if writer.bounded != 1 else ''} as "
                     f"loop bounds")
    loops = sum(1 for it in all_items(items) if isinstance(it, GroupLoop))
    if loops:
        parts.append(f"{loops} uniform loop{'s' if loops != 1 else ''} around the "
                     f"work-item loops")
    if strided:
        parts.append(f"{strided} grid-stride loop{'s' if strided != 1 else ''} interchanged")
    big = [d.name for d in priv.promoted if not isinstance(d.type, c_ast.TypeDecl)]
    wide = [d.name for d in priv.promoted if _is_vector_or_record(d.type)]
    return GroupFunction("; ".join(parts), loops, writer.bounded, big, writer.done, wide)


def _privatize_written_params(func: c_ast.FuncDef, params: dict) -> dict:
    """A parameter is a private of each work-item (spec 6.5: kernel arguments are
    in the private address space). In a work-group function one parameter serves
    the whole group, so each parameter the kernel assigns (or takes the address
    of) becomes a local variable initialised from it, ``int *data =
    cl2c_param_data;``, which the region analysis treats as any other private:
    once per group if every assignment is uniform, else per work-item.
    Returns the by-value parameters left (those of the old dict still named)."""
    written = _params_written(func.body)
    copies = []
    for p in func.decl.type.args.params:
        if not isinstance(p, c_ast.Decl) or p.name not in written:
            continue
        local = copy.deepcopy(p)
        local.funcspec = [f for f in local.funcspec or [] if f != "CL2C_UNUSED"]
        local.init = cn.ident(f"cl2c_param_{p.name}")
        copies.append(local)
        _set_declname(p, f"cl2c_param_{p.name}")
    if copies:
        func.body.block_items = copies + list(func.body.block_items or [])
    return {n: d for n, d in params.items() if n not in written}


def _params_written(body) -> set:
    """Names whose own value the body changes: ``p = ...``, ``p += ...``, ``p++``,
    ``v.x = ...``, ``&p``; not ``p[i] = ...`` nor ``p->x = ...`` (the pointee)."""
    def base(lvalue):
        while True:
            if isinstance(lvalue, c_ast.ID):
                return lvalue.name
            if isinstance(lvalue, c_ast.ArrayRef) and not isinstance(lvalue.name, c_ast.ID):
                lvalue = lvalue.name          # v.s[0]: a component of a vector value
            elif isinstance(lvalue, c_ast.StructRef) and lvalue.type == ".":
                lvalue = lvalue.name
            else:
                return None

    out = set()
    for n in _walk(body):
        target = None
        if isinstance(n, c_ast.Assignment):
            target = n.lvalue
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&"):
            target = n.expr
        name = base(target) if target is not None else None
        if name:
            out.add(name)
    return out


def _is_vector_or_record(t) -> bool:
    """A TypeDecl of a cl2c vector (``cl2c_float4``, as spelled by then) or a struct."""
    if not isinstance(t, c_ast.TypeDecl):
        return False
    if isinstance(t.type, (c_ast.Struct, c_ast.Union)):
        return True
    names = getattr(t.type, "names", None) or []
    return bool(names) and names[-1].startswith("cl2c_") and names[-1][-1].isdigit()


class GroupFunction:
    """What make_group_function did, for the schedule choice and the comment."""

    def __init__(self, description, loops, bounded, array_privates, done_flags,
                 vector_privates=()):
        self.description = description
        self.loops = loops                    # uniform loops hoisted over the regions
        self.bounded = bounded                # guards turned into loop bounds
        self.array_privates = array_privates  # private arrays now stored per work-item
        self.done_flags = done_flags          # work-items that return early are tracked
        self.vector_privates = vector_privates  # vector or struct privates stored per item

    def __str__(self):
        return self.description


class _Writer:
    def __init__(self, an: Analysis, priv: Privates, builder: Builder, params: dict,
                 reqd, simd: bool):
        self.an, self.priv, self.builder = an, priv, builder
        self.params = params
        self.reqd = reqd
        self.simd = simd
        self.labels = 0
        self.bounded = 0
        self._lead = []
        self.promoted = {d.name for d in priv.promoted}
        regions = priv.regions
        with_returns = [r for r in regions if any(isinstance(n, c_ast.Return)
                                                  for s in r.stmts for n in _walk(s))]
        # A work-item that returns before the last region must skip the later ones.
        self.done = bool(with_returns) and (len(regions) > 1)
        self._prepare_regions()

    # -- per-work-item storage
    def prologue(self) -> list:
        # reqd_work_group_size makes the work-item loops' trip counts constants
        ls = [str(n) for n in self.reqd] if self.reqd else \
            [f"cl2c_wi->local_size[{d}]" for d in range(3)]
        code = (f"const size_t cl2c_ls0 = {ls[0]}, cl2c_ls1 = {ls[1]}, cl2c_ls2 = {ls[2]};"
                f"const size_t {COUNT} = cl2c_ls0 * cl2c_ls1 * cl2c_ls2;"
                "const size_t cl2c_l0 = 0, cl2c_l1 = 0, cl2c_l2 = 0;")
        items = _snippet(code)
        for d in items:
            d.funcspec = ["CL2C_UNUSED"]
        items.insert(0, cn.ident("CL2C_GROUP_COPY"))
        arrays = []    # (name, element Typename)
        for d in self.priv.promoted:
            arrays.append((d.name, _typename(d.type)))
        for name, ctype in self.builder.buffers:
            arrays.append((name, c_ast.Typename(None, [], None, c_ast.TypeDecl(
                None, [], None, c_ast.IdentifierType([ctype])))))
        if self.done:
            arrays.append(("cl2c_done", c_ast.Typename(None, [], None, c_ast.TypeDecl(
                None, [], None, c_ast.IdentifierType(["unsigned", "char"])))))
        if not arrays:
            return items
        total = None
        for _, t in arrays:
            size = c_ast.BinaryOp("+", c_ast.BinaryOp("*", cn.ident(COUNT),
                                                      c_ast.UnaryOp("sizeof", t)),
                                  cn.const_int(64))
            total = size if total is None else c_ast.BinaryOp("+", total, size)
        items += _snippet("char *cl2c_mem;")
        items[-1].init = cn.call("cl2c_scratch", total)
        for name, t in arrays:
            ptr = c_ast.PtrDecl([], _retyped(copy.deepcopy(t.type), name))
            items.append(c_ast.Decl(name, [], [], [], [], ptr, cn.call(
                "cl2c_take", c_ast.UnaryOp("&", cn.ident("cl2c_mem")),
                c_ast.BinaryOp("*", cn.ident(COUNT), c_ast.UnaryOp("sizeof", t))), None))
        if self.done:
            items += _snippet("__builtin_memset(cl2c_done, 0, cl2c_nwi);")
        return items

    # -- rewriting region statements
    def _prepare_regions(self):
        priv, an = self.priv, self.an
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
                if isinstance(s, c_ast.Assignment) and isinstance(s.lvalue, c_ast.ID) and \
                        s.lvalue.name in remat and single.get(s.lvalue.name) is s:
                    out.append(self._remat_decl(s.lvalue.name))
                    continue
                out.append(s)
            # recompute the ids this region uses but does not define
            defined = {s.name for s in out if isinstance(s, c_ast.Decl)}
            needed = self._remat_closure(set().union(*(_ids(s) for s in out)) if out else set(),
                                         defined)
            r.stmts = [self._remat_decl(n) for n in needed] + out
            for s in r.stmts:
                if isinstance(s, c_ast.Decl) and s.name in remat:
                    s.funcspec = ["CL2C_UNUSED"]    # recomputed where needed, maybe unused
            for s in r.stmts:
                self._index_promoted(s)

    def _remat_closure(self, used: set, defined: set) -> list:
        order: list = []
        remat = self.priv.remat

        def visit(name):
            if name in order or name in defined or name not in remat:
                return
            for dep in sorted(_ids(self._remat_value(name))):
                visit(dep)
            order.append(name)

        for name in sorted(used):
            visit(name)
        return order

    def _remat_value(self, name):
        d = self.priv.remat[name]
        return d.init if d.init is not None else self.priv.single[name].rvalue

    def _remat_decl(self, name) -> c_ast.Decl:
        d = copy.deepcopy(self.priv.remat[name])
        d.init = copy.deepcopy(self._remat_value(name))
        return d

    def _promoted_init(self, d: c_ast.Decl) -> list:
        if d.init is None:
            return []
        if isinstance(d.init, c_ast.InitList):
            tmp = copy.deepcopy(d)
            _set_name(tmp, d.name + "_init")
            copy_call = cn.call("__builtin_memcpy", c_ast.UnaryOp("&", cn.ident(d.name)),
                                c_ast.UnaryOp("&", cn.ident(tmp.name)),
                                c_ast.UnaryOp("sizeof", cn.ident(tmp.name)))
            return [c_ast.Compound([tmp, copy_call], d.coord)]
        return [c_ast.Assignment("=", cn.ident(d.name), d.init, d.coord)]

    def _index_promoted(self, node) -> None:
        promoted = self.promoted
        if not promoted:
            return
        for name, child in list(node.children()):
            if isinstance(child, c_ast.ID) and child.name in promoted and \
                    not (isinstance(node, c_ast.StructRef) and name == "field"):
                _replace_child(node, name, c_ast.ArrayRef(child, cn.ident(INDEX), child.coord))
            elif child is not None:
                self._index_promoted(child)

    # -- the group-level code
    def items(self, items: list, top: bool = False) -> list:
        out = []
        for it in items:
            if isinstance(it, Once):
                out.append(it.node)
            elif isinstance(it, Region):
                out.extend(self.region(it))
            elif isinstance(it, GroupIf):
                node = it.node
                node.iftrue = c_ast.Compound(self.items(it.then), node.coord)
                node.iffalse = c_ast.Compound(self.items(it.other), node.coord) \
                    if it.other else None
                out.append(node)
            elif isinstance(it, GroupLoop):
                it.node.stmt = c_ast.Compound(self.items(it.body), it.node.coord)
                out.append(it.node)
            elif isinstance(it, Collective):        # pragma: no cover (built as Once/Region)
                raise AssertionError("collective left in the structure")
        return out

    def region(self, r: Region) -> list:
        stmts = list(r.stmts)
        label = None
        nested_return = any(isinstance(n, c_ast.Return) for s in stmts
                            for n in _walk(s) if n not in self._top_returns(stmts))
        if nested_return:
            self.labels += 1
            label = f"cl2c_next{self.labels}"
        stmts = [self._returns(s, label) for s in stmts]
        self.outer_guard = None
        lo, hi, stmts = self._bounds(stmts)
        head = _snippet(f"const size_t {INDEX} = cl2c_l0 + cl2c_ls0 * "
                        f"(cl2c_l1 + cl2c_ls1 * cl2c_l2);")
        head[0].funcspec = ["CL2C_UNUSED"]
        if self.done:
            head += _snippet(f"if (cl2c_done[{INDEX}]) continue;")
        tail = [c_ast.Label(label, c_ast.EmptyStatement())] if label else []
        bases = self._affine_ids(stmts)
        # The work-item loop counts in int (a group holds at most 4096 work-items):
        # ids then stay affine in it, and the compiler sees contiguous accesses.
        inner = c_ast.For(
            c_ast.DeclList([_snippet("int cl2c_l0 = 0;")[0]]),
            c_ast.BinaryOp("<", cn.ident("cl2c_l0"), _int(cn.ident("cl2c_hi") if hi else
                                                          cn.ident("cl2c_ls0"))),
            c_ast.UnaryOp("++", cn.ident("cl2c_l0")),
            c_ast.Compound(head + stmts + tail))
        bounds = []
        if hi:
            inner.init.decls[0].init = _int(cn.ident("cl2c_lo"))
            bounds = _snippet("const size_t cl2c_lo = 0, cl2c_hi = 0;")
            bounds[0].init, bounds[1].init = lo, hi
        bounds += bases
        simd = self.simd and not any("atom" in (call_name(n) or "") for s in stmts
                                     for n in _walk(s))
        loop = bounds + ([c_ast.Pragma("omp simd"), inner] if simd else [inner])
        if self.outer_guard is not None:
            # the guard's terms that do not depend on the local id 0 (they may use
            # l1 and l2, the enclosing loops' ids)
            loop = [c_ast.If(self.outer_guard, c_ast.Compound(loop), None)]
        reqd = self.reqd
        if reqd and reqd[1] == 1 and reqd[2] == 1:
            return [c_ast.Compound(loop)]
        outer = _snippet("for (size_t cl2c_l2 = 0; cl2c_l2 < cl2c_ls2; ++cl2c_l2)"
                         " for (size_t cl2c_l1 = 0; cl2c_l1 < cl2c_ls1; ++cl2c_l1) {}")[0]
        outer.stmt.stmt = c_ast.Compound(loop)
        return [outer]

    def _affine_ids(self, stmts) -> list:
        """``int x = get_global_id(0)`` at the head of a region becomes ``int x =
        x__base + cl2c_l0``, x__base computed once before the loop: a signed sum
        the compiler may assume does not wrap, unlike a truncated size_t."""
        bases = []
        for i, d in enumerate(stmts):
            if not isinstance(d, c_ast.Decl):
                break
            if d.init is None or not _is_signed_int_decl(d) or d.name in self.priv.assigned:
                continue
            base = self._affine(d.init, [])
            if base is None:
                continue
            name = f"{d.name}__base"
            decl = copy.deepcopy(d)
            _set_name(decl, name)
            decl.type.quals = ["const"]
            decl.funcspec = ["CL2C_UNUSED"]
            decl.init = c_ast.Cast(_typename(d.type), base)
            bases.append(decl)
            d = stmts[i] = copy.deepcopy(d)     # the original also defines recomputations
            d.init = c_ast.BinaryOp("+", cn.ident(name), cn.ident("cl2c_l0"))
        return bases

    def _top_returns(self, stmts):
        return [s for s in stmts if isinstance(s, c_ast.Return)]

    def _returns(self, s, label):
        """``return`` in a region ends this work-item's part of it (and, when later
        regions follow, marks the work-item done)."""
        def jump():
            go = c_ast.Goto(label) if label else c_ast.Continue()
            if not self.done:
                return go
            mark = c_ast.Assignment("=", _at("cl2c_done"), cn.const_int(1))
            return c_ast.Compound([mark, go])

        if isinstance(s, c_ast.Return):
            return jump()
        for name, child in list(s.children()):
            if isinstance(child, c_ast.Return):
                _replace_child(s, name, jump())
            elif child is not None:
                self._returns(child, label)
        return s

    # -- guards as loop bounds
    def _bounds(self, stmts):
        """(lo, hi, statements): a whole-region guard affine in the local id 0
        becomes the bounds of the work-item loop; (None, None, stmts) if none."""
        lead = [s for s in stmts if isinstance(s, c_ast.Decl)]
        rest = stmts[len(lead):]
        if len(rest) != 1 or not isinstance(rest[0], c_ast.If) or rest[0].iffalse is not None \
                or self.done or any(isinstance(s, c_ast.Decl) for s in rest):
            return None, None, stmts
        guard = rest[0]
        self._lead = lead
        los, his, outer = [], [], []
        for t in _conjuncts(guard.cond):
            b = self._affine_bound(t, lead)
            if b is not None:
                for kind, value in b:
                    (los if kind == "lo" else his).append(value)
            elif self._l0_invariant(t):
                outer.append(t)
            else:
                return None, None, stmts
        if not los and not his and not outer:
            return None, None, stmts
        self.bounded += 1
        self.outer_guard = _conjunction([self._inline_remat(t) for t in outer])
        lo_expr = cn.const_int(0)
        for e in los:
            lo_expr = cn.call("cl2c_bound_lo", lo_expr, e, cn.ident("cl2c_ls0"))
        hi_expr = cn.ident("cl2c_ls0")
        for e in his:
            hi_expr = cn.call("cl2c_bound_hi", hi_expr, e)
        return lo_expr, hi_expr, lead + _stmts(guard.iftrue)

    def _l0_invariant(self, e) -> bool:
        """Does ``e`` not depend on the local id 0 (so it can guard the whole
        loop over it)? Uniform values and ids of dimensions 1 and 2."""
        for n in _walk(e):
            if isinstance(n, c_ast.ID) and n.name in ("cl2c_l0", INDEX, "CL2C_WI") and \
                    not any(call_name(m) for m in [e]):
                if n.name != "CL2C_WI":
                    return False
            if isinstance(n, c_ast.ID) and self._value_of(n.name, self._lead) is not None:
                if not self._l0_invariant(self._value_of(n.name, self._lead)):
                    return False
            elif isinstance(n, c_ast.ID) and (n.name in self.an.decls and
                                              n.name not in self.an.uniform):
                return False
            elif call_name(n) in ("cl2c_get_local_id", "cl2c_get_global_id"):
                d = n.args.exprs[1]
                if not (isinstance(d, c_ast.Constant) and d.value.rstrip("uU") in ("1", "2")):
                    return False
            elif isinstance(n, c_ast.FuncCall) and call_name(n) not in (
                    "cl2c_get_local_size", "cl2c_get_num_groups", "cl2c_get_group_id",
                    "cl2c_get_global_size", "cl2c_get_global_offset",
                    "cl2c_get_enqueued_local_size", "cl2c_get_local_id",
                    "cl2c_get_global_id"):
                return False
            elif isinstance(n, (c_ast.Assignment, c_ast.ArrayRef)) or \
                    (isinstance(n, c_ast.UnaryOp) and n.op in ("*", "&", "++", "--", "p++",
                                                               "p--")):
                return False
        return True

    def _value_of(self, name, lead):
        """The expression a never-assigned variable holds: recomputed ones, and
        those declared with a value at the head of the region."""
        if name in self.priv.remat:
            return self._remat_value(name)
        if name in self.priv.assigned:
            return None
        for d in lead:
            if isinstance(d, c_ast.Decl) and d.name == name and d.init is not None and \
                    _is_int_decl(d) and name not in self.an.addressed:
                return d.init
        return None

    def _inline_remat(self, e):
        """``e`` with recomputed variables replaced by their definitions."""
        e = copy.deepcopy(e)
        if isinstance(e, c_ast.ID) and self._value_of(e.name, self._lead) is not None:
            d = self.priv.remat.get(e.name) or next(
                x for x in self._lead if isinstance(x, c_ast.Decl) and x.name == e.name)
            return c_ast.Cast(_typename(d.type),
                              self._inline_remat(self._value_of(e.name, self._lead)))
        for name, child in list(e.children()):
            _replace_child(e, name, self._inline_remat(child))
        return e

    def _affine_bound(self, t, lead):
        """For ``X op U`` with X = l0 + B: [("lo"|"hi", U - B [+ 1])] as ptrdiff_t."""
        if not isinstance(t, c_ast.BinaryOp) or t.op not in ("<", "<=", ">", ">=", "=="):
            return None
        op, x, u = t.op, t.left, t.right
        base = self._affine(x, lead)
        if base is None:
            base = self._affine(u, lead)
            if base is None:
                return None
            x, u = u, x
            op = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "=="}[op]
        if not self._integer_uniform(u):
            return None
        diff = c_ast.BinaryOp("-", c_ast.Cast(_ptrdiff(), copy.deepcopy(u)),
                              c_ast.Cast(_ptrdiff(), base))
        one = cn.const_int(1)
        plus_one = c_ast.BinaryOp("+", copy.deepcopy(diff), one)
        if op == "<":
            return [("hi", diff)]
        if op == "<=":
            return [("hi", plus_one)]
        if op == ">":
            return [("lo", plus_one)]
        if op == "==":
            return [("lo", diff), ("hi", plus_one)]
        return [("lo", diff)]

    def _affine(self, x, lead):
        """B (an expression valid at group level) if ``x`` == cl2c_l0 + B."""
        while isinstance(x, c_ast.Cast):
            if not _is_int_typename(x.to_type):
                return None
            x = x.expr
        if isinstance(x, c_ast.ID) and self._value_of(x.name, lead) is not None:
            return self._affine(self._value_of(x.name, lead), lead)
        if isinstance(x, c_ast.BinaryOp) and x.op == "+":
            for a, b in ((x.left, x.right), (x.right, x.left)):
                base = self._affine(a, lead)
                if base is not None and self._integer_uniform(b):
                    return c_ast.BinaryOp("+", copy.deepcopy(b), base)
        name = call_name(x)
        if name in ("cl2c_get_local_id", "cl2c_get_global_id"):
            args = x.args.exprs
            if len(args) == 2 and isinstance(args[1], c_ast.Constant) and \
                    args[1].value in ("0", "0u", "0U"):
                return copy.deepcopy(x)     # evaluated at group level, where cl2c_l0 == 0
        return None

    def _integer_uniform(self, u) -> bool:
        if not self.an.is_uniform(u):
            return False
        for n in _walk(u):
            if isinstance(n, c_ast.ID):
                d = self.an.decls.get(n.name) or self.params.get(n.name)
                if d is not None and not _is_int_decl(d):
                    return False
            if isinstance(n, c_ast.Constant) and n.type not in ("int", "unsigned int",
                                                                "long int", "unsigned long int",
                                                                "long long int", "char"):
                return False
            if isinstance(n, c_ast.FuncCall) and call_name(n) not in (
                    "cl2c_get_local_size", "cl2c_get_num_groups", "cl2c_get_group_id",
                    "cl2c_get_global_size", "cl2c_get_global_offset",
                    "cl2c_get_enqueued_local_size"):
                return False
            if isinstance(n, c_ast.Cast) and not _is_int_typename(n.to_type):
                return False
            if isinstance(n, c_ast.BinaryOp) and n.op not in ("+", "-", "*"):
                return False
        return True


def _complete_array_bounds(body) -> None:
    """``long a[] = {1, 2}`` -> ``long a[2]``: a per-work-item array needs the size."""
    for n in _walk(body):
        if isinstance(n, c_ast.Decl) and isinstance(n.type, c_ast.ArrayDecl) and \
                n.type.dim is None:
            if isinstance(n.init, c_ast.InitList) and not any(
                    isinstance(e, c_ast.NamedInitializer) for e in n.init.exprs):
                n.type.dim = cn.const_int(len(n.init.exprs))
            elif isinstance(n.init, c_ast.Constant) and n.init.type == "string":
                n.type.dim = c_ast.UnaryOp("sizeof", copy.deepcopy(n.init))


def _sizeof_by_type(body) -> None:
    """``sizeof(x)`` and ``sizeof(x[0])`` of local variables become sizeof of their
    types: a variable moved into a per-work-item array changes what its name is."""
    decls = {n.name: n for n in _walk(body) if isinstance(n, c_ast.Decl) and n.name}
    for n in list(_walk(body)):
        if isinstance(n, c_ast.UnaryOp) and n.op == "sizeof" and \
                not isinstance(n.expr, c_ast.Typename):
            e, depth = n.expr, 0
            while isinstance(e, c_ast.ArrayRef):
                e, depth = e.name, depth + 1
            if not (isinstance(e, c_ast.ID) and e.name in decls):
                continue
            t = copy.deepcopy(decls[e.name].type)
            for _ in range(depth):
                if not isinstance(t, (c_ast.ArrayDecl, c_ast.PtrDecl)):
                    break
                t = t.type
            else:
                n.expr = _typename(t)


def _conjunction(terms):
    if not terms:
        return None
    out = terms[0]
    for t in terms[1:]:
        out = c_ast.BinaryOp("&&", out, t)
    return out


def _conjuncts(e):
    if isinstance(e, c_ast.BinaryOp) and e.op == "&&":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _ptrdiff():
    return c_ast.Typename(None, [], None, c_ast.TypeDecl(
        None, [], None, c_ast.IdentifierType(["ptrdiff_t"])))


def _is_int_typename(t) -> bool:
    inner = t.type if isinstance(t, c_ast.Typename) else t
    return isinstance(inner, c_ast.TypeDecl) and isinstance(inner.type, c_ast.IdentifierType) \
        and all(n in _INT_TYPES for n in inner.type.names)


_SIGNED = {"int", "short", "long", "char", "signed", "ptrdiff_t", "cl2c_long", "cl2c_short",
           "cl2c_char", "intptr_t"}


def _is_signed_int_decl(d) -> bool:
    return isinstance(d.type, c_ast.TypeDecl) and isinstance(d.type.type, c_ast.IdentifierType) \
        and all(n in _SIGNED for n in d.type.type.names)


def _int(e):
    return c_ast.Cast(c_ast.Typename(None, [], None, c_ast.TypeDecl(
        None, [], None, c_ast.IdentifierType(["int"]))), e)


def _is_int_decl(d) -> bool:
    return isinstance(d.type, c_ast.TypeDecl) and isinstance(d.type.type, c_ast.IdentifierType) \
        and all(n in _INT_TYPES for n in d.type.type.names)


def _typename(t) -> c_ast.Typename:
    t = copy.deepcopy(t)
    _retyped(t, None)
    return c_ast.Typename(None, [], None, t)


def _retyped(t, name):
    """``t`` (a declarator chain) declaring ``name``; returns t."""
    inner = t
    while not isinstance(inner, c_ast.TypeDecl):
        inner = inner.type
    inner.declname = name
    inner.quals = [q for q in inner.quals or [] if q != "const"]
    return t


def _set_name(d: c_ast.Decl, name: str) -> None:
    d.name = name
    _retyped(d.type, name)


__all__ = ["make_group_function", "NeedFibers"]
