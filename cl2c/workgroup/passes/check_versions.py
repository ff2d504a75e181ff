"""Checking builds: a fast version of each checked work-item loop whose checks a test
before it can settle (loop versioning).

Checking mode (checking/accesses.py) wraps every access in a check whose out-of-line report keeps
the compiler from vectorising the work-item loops of the regions schedule: a matrix
multiply ran 60x slower than its normal build. A *nest* is a work-item loop (an omp simd
loop over cl2c_l0) and what the test can cover around it: the group's rows (cl2c_l1,
cl2c_l2, a guard of them, the declarations before the loop) and a uniform loop around
those (no barrier in it). Where every check in the work-item loop is

- a bounds-only read of an argument the kernel never writes (CL2C_CK_ARG_READ),
- a read of __local memory in a barrier phase that writes none of it (CL2C_CK_LREAD),
- a store (CL2C_CK_ARG_STORE) or an update of __local memory (``*CL2C_CK_ARG(...) op=
  v;``) that each work-item makes once (a statement of the loop's body, which has no
  jumps, or one under a guard ``if (a < b)`` that the test finds true for all of the
  box or for none), each apart from the loop's other accesses of its buffer, or a read
  of __local memory the loop also writes,
- an atomic on an element of a __local variable, its indices in bounds, in a phase that
  touches the variable only with atomics (CL2C_CK_LATOMIC_IN), at any address: the test
  asks that the group wrote all of the variable,
- an array index of those (CL2C_CK_INDEX), an image coordinate (CL2C_CK_PIXEL: the image's
  extent its bound),

at addresses affine in the nest's counters, the accesses of the whole nest lie in the box
their corners span. The test computes each address (and index) at the box's origin, at
the second value along each axis and at each corner, and asks of the runtime
(clruntime's check.h, cl2c_ck_box_*): every corner in range, the steps along each axis
even (no wrap of the arithmetic between), and of the shadow words: __local memory read
written by the group (in an earlier phase, where the loop writes it too), stores and
updates at granules of their own that race with nothing so far, and what the loop writes
apart from what it reads. Then

    if (test)  the nest, its work-item loop unchecked (omp simd), each row then marked
    else       the nest, its work-item loop checked (no omp simd)

where the marks (cl2c_ck_mark, cl2c_ck_mark_read) write the shadow words the row's
checks would have left, for later accesses' checks; the checked loop reports, as before,
what is out of range or races, with its work-item. Stores in a uniform loop, whose
work-items write again at each step, get a nest of the work-item loop alone.

A value at a point is computed by replaying, for it, the declarations the address uses:
integer arithmetic (+, -, *, shifts and divisions by constants, casts), work-item ids,
values the nest does not change; nothing that reads memory, divides by a variable or
calls a function runs early.
"""
from __future__ import annotations

import copy

from pycparser import c_ast

from ...typed_ast import addressed_names, fact, walk
from ... import cnodes as cn
from .check_nests import (COUNTER, ITEM, as_long_long, called, changed_names,
                          char_pointer_type, declaration, int_constant, integer_decl,
                          integer_typename, is_id, is_phase, item_head, long_long_type,
                          parse_decls, parse_expr, parse_stmt, size_t_type, type_named,
                          uniform_loop)
from ...lower.effects import builtin_name, work_item_function
from ..builders.syntax import ids, replace_child, statements
from ..names import LOCALS
from .. import names as wg
from .. import write
from ..ir import (Block, GroupFunction, GroupIf, GroupLoop, Once, Versions,
                            WorkItemLoop, c_parts, work_item_loops)
from ..names import L1, L2, LS0, LS1

READ, STORE, LREAD = "CL2C_CK_ARG_READ", "CL2C_CK_ARG_STORE", "CL2C_CK_LREAD"
LATOMIC = "CL2C_CK_LATOMIC_IN"  # an atomic on a __local element in bounds (phases.py)
ARG = "CL2C_CK_ARG"           # a full check: of __local memory, a read (WREAD) or an update
UPDATE, WREAD = "update", "reread"          # (UPDATE, ``*CL2C_CK_ARG(...) op= v;``)
INDEX = "CL2C_CK_INDEX"
WITHIN = wg.CHECK_WITHIN      # an index in bounds by its operands' types: no check
PIXEL = wg.CHECK_PIXEL        # an image access's coordinate (checking/accesses.py)
THREAD = wg.CHECK_THREAD
FAST, AT, IX, POINT = wg.CHECK_FAST, "cl2c_ck_at", "cl2c_ck_ix", "cl2c_ck_j"
COUNT, BASE, MARK = "cl2c_ck_count", "cl2c_ck_base", "cl2c_ck_mk"
GUARD, GUARDS = "cl2c_ck_gd", "cl2c_ck_gs"    # a guard's a - b at each point; its state
# the work-items a box needs for its test to cost less than the checks it spares
# (cl2c_ck_box_worth), and where the loop has guards
_LEAST, _LEAST_GUARDED = 8, 32
# a guard's comparison, as cl2c_ck_box_guard numbers them
_GUARD_OPS = {"<": 0, "<=": 1, ">": 2, ">=": 3, "==": 4}
_INT_CONSTANTS = ("int", "unsigned int", "long int", "unsigned long int", "long long int",
                  "unsigned long long int", "char")
# names the schedule's own code gives integer values (builders/group_function.py, bounds.py)
_GENERATED_INTS = (*wg.LOCAL_SIZE, L1, L2, wg.FIRST, wg.END, wg.INDEX, wg.COUNT, wg.MID_LO,
                   wg.MID_HI, *wg.MID_ROWS)


def version_checked_loops(gf: GroupFunction, helpers: dict, scalar: bool = False) -> int:
    """Give each work-item loop of work-group function ``gf`` that allows it a fast
    version (above); returns how many. ``helpers``: {name: FuncDef} of the functions
    it may call (a call of one with checks of its own keeps a loop as it is).
    ``scalar``: a kernel none of whose loops is omp simd (its atomics)."""
    parts = [*gf.prologue, *(node for node, _ in c_parts(gf.items))]
    taken = set().union(*(ids(part) for part in parts))
    if any(n in taken for n in (FAST, AT, IX, POINT, COUNT, BASE, MARK, GUARD, GUARDS)):
        return 0
    return _Versioner(_checked_functions(helpers),
                      set().union(*(addressed_names(part) for part in parts)),
                      scalar).items(gf.items)


class _Versioner:
    def __init__(self, checked: set, addressed: set, scalar: bool):
        self.checked = checked                    # functions with checks
        self.scalar = scalar
        # names a pointer may change: no uniform loop counts with one (its box test
        # would bound what the pointer moves)
        self.addressed = addressed

    def items(self, items: list) -> int:
        """Version what ``items`` hold, outermost first."""
        done = 0
        for i, it in enumerate(items):
            nest = _Nest.around(it, self.addressed, self.scalar)
            versions = nest.versioned(self.checked) if nest else None
            if versions is not None:
                items[i] = nest.choice(versions)
                done += 1
            elif isinstance(it, GroupLoop):
                done += self.items(it.body)
            elif isinstance(it, GroupIf):
                done += self.items(it.then) + self.items(it.other)
            elif isinstance(it, Block):
                done += self.items(it.items)
            elif isinstance(it, WorkItemLoop):
                done += self.alone(it)
        return done

    def alone(self, loop: WorkItemLoop) -> int:
        """Version work-item loop ``loop`` on its own, in each row."""
        if not _plain(loop, self.scalar):
            return 0
        nest = _Nest.of_loop(loop)
        versions = nest.versioned(self.checked)
        if versions is not None:
            loop.versions = versions
            return 1
        if has_checks(nest.loop, ignore=ITEM) or _calls_checked(nest.loop, self.checked):
            # its checks' reports keep it from vectorising (and clang warns of an omp
            # simd loop it cannot vectorise)
            loop.simd = False
        elif not any(isinstance(n, c_ast.ID) and n.name.startswith("cl2c_cks_")
                     for n in walk(nest.loop)):
            # nothing in it reports (a product of private arrays that counted loops
            # filled): no note of who runs, which would keep it scalar and untiled
            loop.checked = False
        return 0


def _plain(loop: WorkItemLoop, scalar: bool = False) -> bool:
    """An omp simd loop of one work-item an iteration, not yet changed by a pass; in a
    ``scalar`` kernel (atomics keep its loops from omp simd), any such loop. (The few
    work-items on either side of a split region's middle keep their checks: a test
    costs more than they do.)"""
    return (loop.simd or scalar) and loop.lanes is None and loop.ways == 1 and \
        loop.steps is None and loop.versions is None and not loop.after


class _Nest:
    """A work-item loop (``item``) and the loops around it that its test covers too: the
    group's rows (local ids 2 and 1) and a uniform loop around them (``outer``).
    ``stmt``, ``loop``: the nest and its loop over local id 0 as C; ``axes``: (counter,
    first, end) outermost first, the work-item loop's last; ``row``: the declarations
    between the rows' loops and the work-item loop (the first and end of a guarded
    loop, the ids' bases)."""

    def __init__(self, stmt, loop, axes, row, ctype, item, outer=None):
        self.stmt, self.loop, self.axes, self.row = stmt, loop, axes, row
        self.ctype = ctype                      # {counter: its C type} of the outer axes
        self.item, self.outer = item, outer

    @classmethod
    def of_loop(cls, item: WorkItemLoop):
        loop = write.inner_loop(item)
        return cls(loop, loop, [(COUNTER, loop.init.decls[0].init, loop.cond.right)], [],
                   {}, item)

    @classmethod
    def around(cls, it, addressed: set, scalar: bool = False):
        """The nest of item ``it``, if it is a uniform loop (its counter in no
        ``addressed``) around a work-item loop or the work-item loop itself (with
        declarations only before it in a row)."""
        if isinstance(it, GroupLoop):
            if len(it.body) != 1:
                return None
            s = write.items([it])[0]
            uniform = uniform_loop(s)
            inner = cls.around(it.body[0], addressed, scalar)
            if uniform is None or uniform[0] in addressed or inner is None or \
                    any(is_phase(n) for n in walk(s.stmt)):
                return None
            name, first, end, ctype, _ = uniform
            return cls(s, inner.loop, [(name, first, end)] + inner.axes, inner.row,
                       dict(inner.ctype, **{name: ctype}), inner.item, it)
        if not isinstance(it, WorkItemLoop) or not _plain(it, scalar):
            return None
        row = write.row_head(it)
        if not all(isinstance(d, c_ast.Decl) for d in row):
            return None
        s = write.work_item_loop(it)[0]
        axes = []
        if it.rows:                     # (else a group of one row: reqd_work_group_size)
            rows = (s, s.stmt)
            axes = [(name, r.init.decls[0].init, r.cond.right)
                    for name, r in zip((L2, L1), rows)]
        loop = write.inner_loop(it)
        ctype = {name: "size_t" for name, _, _ in axes}
        return cls(s, loop, axes + [(COUNTER, loop.init.decls[0].init, loop.cond.right)],
                   row, ctype, it)

    def choice(self, versions: Versions) -> Block:
        """The nest's test, then the nest with its work-item loop unchecked (omp simd,
        each row then marked) or checked (no omp simd)."""
        fast, checked = copy.deepcopy(self.outer or self.item), \
            copy.deepcopy(self.outer or self.item)
        fast_loop = next(work_item_loops([fast]))
        fast_loop.checked, fast_loop.body = False, versions.fast
        fast_loop.after = versions.marks
        next(work_item_loops([checked])).simd = False
        then = [fast] + [Once(s) for s in versions.nest_marks]
        return Block([Once(s) for s in versions.test] +
                     [GroupIf(c_ast.If(cn.ident(FAST), None, None), then, [checked])])

    # -- whether the nest's test can settle its work-item loop's checks
    def versioned(self, checked: set):
        loop = self.loop
        body = statements(loop.stmt)
        self.axis_names = [a[0] for a in self.axes]
        self.changed = changed_names(self.stmt) - set(self.axis_names)
        self.row_defs = self._defs(self.row)
        self.item_defs = self._defs(item_head(body))
        declared = [n.name for n in walk(self.stmt) if isinstance(n, c_ast.Decl)]
        for name in {n for n in declared if declared.count(n) > 1}:
            self.row_defs.pop(name, None)       # declared again in an inner block
            self.item_defs.pop(name, None)
        self.changed |= set(declared) - set(self.row_defs) - set(self.item_defs)
        self.cache: dict = {}
        # ``if (a < b) store;`` (the Guide's ``if (tid < j)``, a tile's halo loads under
        # ``if (lx == 1)``): statements of the body where the test finds the comparison
        # true all over the box (they run) or false all over it (they do not)
        self.guards = []
        flat, within = [], {}
        for s in body:
            guarded = self._guarded(s)
            if guarded is None:
                flat.append(s)
            else:
                within.update((id(n), len(self.guards)) for n in walk(s.iftrue))
                self.guards.append(s.cond)
                flat += guarded
        # stores and updates: statements of the body, which every work-item runs
        checks = [s for s in flat if isinstance(s, c_ast.FuncCall) and called(s) == STORE]
        checks += [s.lvalue.expr for s in flat if isinstance(s, c_ast.Assignment) and
                   isinstance(s.lvalue, c_ast.UnaryOp) and s.lvalue.op == "*" and
                   _local_access(s.lvalue.expr) == 3]
        checks += [n for n in walk(loop.stmt) if isinstance(n, c_ast.FuncCall) and (
            called(n) in (READ, LREAD) or _local_access(n) == 1)]
        nodes = list(walk(loop.stmt))         # (in the body's order)
        checks.sort(key=lambda c: next(i for i, n in enumerate(nodes) if n is c))
        # image coordinates: indices of the image's extents (its descriptor's fields)
        pixels = [n for n in nodes if isinstance(n, c_ast.FuncCall) and called(n) == PIXEL]
        # atomics on __local elements in bounds, at any address: the group wrote all of
        # the variable, or they need their checks
        atomics = [n for n in nodes if isinstance(n, c_ast.FuncCall) and called(n) == LATOMIC]
        if not checks and not pixels and not atomics:
            return None
        if any(not isinstance(a.args.exprs[0], c_ast.ID) for a in atomics):
            return None
        if any(self._vars(p.args.exprs[0]) is None or not self._extent(p.args.exprs[1])
               for p in pixels):
            return None
        if any(self._vars(d.init, True) is None for d in self.row if d.init is not None):
            return None             # the probe replays the rows' declarations: arithmetic
        for name, first, end in self.axes:
            row = name == COUNTER
            if self._vars(first, row) != frozenset() or self._vars(end, row) != frozenset():
                return None         # a box: every axis's bounds the same for all of it
        accesses = [self._access(c) for c in checks]
        if any(a is None for a in accesses):
            return None
        for c, a in zip(checks, accesses):
            a.guard = within.get(id(c))
        if len(self.axes) > 1 and any(a.kind in (STORE, UPDATE) for a in accesses) and \
                self.axis_names[0] not in (L2, L1):
            return None             # a store in a uniform loop: not for the box's test
        known = checks + pixels + atomics + [x for a in accesses for x, _ in a.indices]
        for n in walk(loop.stmt):
            if isinstance(n, c_ast.FuncCall):
                name = called(n)
                if name in (ITEM, WITHIN) or any(n is k for k in known):
                    continue
                if name.lower().startswith("cl2c_ck") or name in checked:
                    return None     # another check, or a function with checks of its own
            elif isinstance(n, c_ast.ID) and n.name.startswith("cl2c_cks_"):
                return None         # checks of uninitialized privates
            elif isinstance(n, (c_ast.Continue, c_ast.Break, c_ast.Goto, c_ast.Return,
                                c_ast.Label)):
                return None         # a store then might not run for every work-item
        return self._rewrite(accesses, [(p, within.get(id(p))) for p in pixels],
                             sorted({a.args.exprs[0].name for a in atomics}))

    def _extent(self, e) -> bool:
        """Is ``e`` an image's extent the whole box shares: ``image->field``, the image a
        name the nest does not change?"""
        return isinstance(e, c_ast.StructRef) and e.type == "->" and \
            isinstance(e.name, c_ast.ID) and e.name.name not in self.changed and \
            e.name.name not in self.item_defs and e.name.name not in self.row_defs and \
            e.name.name not in self.axis_names

    def _guarded(self, s):
        """The statements of ``if (a < b) S`` (<, <=, >, >=, ==; no else) where a and b
        are affine in the axes, of signed types of int's rank or below (whose
        difference as long long is exact and orders them as the comparison does), and S
        stores or updates; else None."""
        if not (isinstance(s, c_ast.If) and s.iffalse is None and
                isinstance(s.cond, c_ast.BinaryOp) and s.cond.op in _GUARD_OPS):
            return None
        inner = statements(s.iftrue)
        if not inner or not all(
                isinstance(x, c_ast.FuncCall) and called(x) == STORE or
                isinstance(x, c_ast.Assignment) and isinstance(x.lvalue, c_ast.UnaryOp) and
                x.lvalue.op == "*" and _local_access(x.lvalue.expr) == 3 for x in inner):
            return None
        for side in (s.cond.left, s.cond.right):
            if self._vars(side) is None or not _small_signed(side):
                return None
        return inner

    def _defs(self, decls) -> dict:
        return {d.name: d for d in decls if isinstance(d, c_ast.Decl) and d.init is not None
                and isinstance(d.type, c_ast.TypeDecl) and d.name not in self.changed}

    def _access(self, call: c_ast.FuncCall):
        """The _Access of a check, if its address is affine in the axes."""
        args = call.args.exprs
        kind = called(call)
        if kind == ARG:
            kind = UPDATE if int_constant(args[2]) == 3 else WREAD
        if not (args and isinstance(args[0], c_ast.ID)):
            return None
        if kind == STORE and not (len(args) == 5 and int_constant(args[2]) in (0, 1)):
            return None
        target = args[1]
        if not (isinstance(target, c_ast.UnaryOp) and target.op == "&"):
            return None
        indices = []
        e = target.expr
        if not isinstance(e, c_ast.ArrayRef):
            return None
        while isinstance(e, c_ast.ArrayRef):
            sub = e.subscript
            if isinstance(sub, c_ast.FuncCall) and called(sub) == WITHIN:
                sub = sub.args.exprs[0]
            if isinstance(sub, c_ast.FuncCall) and called(sub) == INDEX:
                i, n = sub.args.exprs[0], sub.args.exprs[1]
                if self._vars(i) is None or self._vars(n) != frozenset():
                    return None
                indices.append((sub, n))
            elif self._vars(sub) is None:
                return None
            e = e.name
        base_ok = isinstance(e, c_ast.ID) and e.name not in self.changed and \
            e.name not in self.item_defs and e.name not in self.row_defs and \
            e.name not in self.axis_names and not e.name.startswith("cl2c_ck") or \
            isinstance(e, c_ast.StructRef) and e.type == "->" and is_id(e.name, LOCALS)
        if not base_ok:
            return None
        local = kind in (LREAD, UPDATE, WREAD) or kind == STORE and int_constant(args[2]) == 1
        return _Access(kind, args[0].name, target, indices, local,
                       args[4] if kind == STORE else None)

    # -- which values are affine in the axes
    def _vars(self, x, row: bool = False):
        """The axes ``x`` is affine in (an empty set: the same all over the nest), or
        None: not affine, not integer arithmetic, or not safe to compute ahead. ``row``:
        at the rows' level, where cl2c_l0 is 0."""
        none = frozenset()
        if isinstance(x, c_ast.Constant):
            return none if x.type in _INT_CONSTANTS else None
        if isinstance(x, c_ast.ID):
            return self._id_vars(x, row)
        if isinstance(x, c_ast.Cast):
            return self._vars(x.expr, row) if integer_typename(x.to_type) else None
        if isinstance(x, c_ast.UnaryOp) and x.op in ("-", "+"):
            return self._vars(x.expr, row)
        if isinstance(x, c_ast.BinaryOp):
            a, b = self._vars(x.left, row), self._vars(x.right, row)
            if a is None or b is None:
                return None
            if x.op in ("+", "-"):
                return a | b
            if x.op == "*":
                return a | b if not (a and b) else None
            if x.op == "<<" and isinstance(x.right, c_ast.Constant):
                return a
            if a or b:
                return None
            if x.op in ("/", "%"):      # computed ahead: a divisor that cannot be 0
                return none if int_constant(x.right) not in (None, 0) else None
            return none
        if isinstance(x, c_ast.FuncCall):
            args = x.args.exprs if x.args else []
            if builtin_name(x) in ("get_local_id", "get_global_id") and len(args) == 2 and \
                    isinstance(args[1], c_ast.Constant):
                d = args[1].value.rstrip("uU")
                name = {"0": COUNTER, "1": L1, "2": L2}.get(d)
                if name is None or name == COUNTER and row or name not in self.axis_names:
                    return none
                return frozenset([name])
            if called(x) in ("cl2c_bound_lo", "cl2c_bound_hi"):
                inner = [self._vars(a, row) for a in args]
                return none if all(v == none for v in inner) else None
            return none if work_item_function(x) == "group" else None
        return None

    def _id_vars(self, x: c_ast.ID, row: bool):
        name = x.name
        if name in self.axis_names and not (row and name == COUNTER):
            return frozenset([name])
        if row:
            if name in self.item_defs and name not in self.row_defs:
                return None
            defs = self.row_defs if name in self.row_defs else None
        else:
            defs = self.item_defs if name in self.item_defs else \
                self.row_defs if name in self.row_defs else None
        if defs is not None:
            key = (name, defs is self.row_defs)
            if key not in self.cache:
                self.cache[key] = None              # (a cycle: none)
                d = defs[name]
                self.cache[key] = self._vars(d.init, defs is self.row_defs) \
                    if integer_decl(d) else None
            return self.cache[key]
        if name in self.changed or name.startswith("cl2c_ck"):
            return None
        t = fact(x, "ty")
        if t is not None:
            return frozenset() if t.is_scalar and t.is_integer else None
        return frozenset() if name in _GENERATED_INTS or name.endswith("__base") else None

    # -- the two versions
    def _rewrite(self, accesses, pixels=(), atomics=()) -> Versions:
        """The two versions; ``pixels``: the image coordinates' checks (CL2C_CK_PIXEL
        calls) and the guard each is under, which the test bounds by their extents;
        ``atomics``: the ranges of the __local variables the loop's atomics are on."""
        axes = self.axes
        na = len(axes)
        points = _points(na)
        indices = [(x, n) for a in accesses for x, n in a.indices] + \
            [(p, p.args.exprs[1]) for p, _ in pixels]
        k, q = len(accesses), len(indices)
        # the probe: each point's addresses and indices
        probe_body = []
        codes = f"{POINT}s"
        for a, (name, first, end) in enumerate(axes):
            if name == COUNTER:
                for d in self.row:
                    probe_body.append(copy.deepcopy(d))
                    probe_body[-1].funcspec = ["CL2C_UNUSED"]
            value = cn.call("cl2c_ck_point", copy.deepcopy(first), copy.deepcopy(end),
                            c_ast.ArrayRef(c_ast.ArrayRef(cn.ident(codes), cn.ident(POINT)),
                                           cn.const_int(a)))
            ctype = "int" if name == COUNTER else self.ctype[name]
            d = declaration(f"const {ctype}", name, value if ctype == "int" else
                      c_ast.Cast(type_named(ctype), value))
            d.funcspec = ["CL2C_UNUSED"]
            probe_body.append(d)
            probe_body.append(c_ast.Assignment("=", c_ast.ArrayRef(
                cn.ident(COUNT), cn.const_int(a)), c_ast.BinaryOp(
                "-", as_long_long(end), as_long_long(first))))
        # a box with too few work-items for a test (an empty one: a split's side of the
        # group that has none, most of a tile's) asks no more than its counts (5% of the
        # Jacobi tile's checked time)
        least = _LEAST_GUARDED if self.guards else _LEAST
        probe_body.append(c_ast.If(parse_expr(
            f"{POINT} == 0 && !cl2c_ck_box_worth({na}, {COUNT}, {least})"), c_ast.Break(),
            None))
        used = set().union(*(ids(a.target) for a in accesses), *map(ids, self.guards),
                           *(ids(p.args.exprs[0]) for p, _ in pixels))
        needed = self._needed(used)
        probe_body += [copy.deepcopy(d) for name, d in self.item_defs.items() if name in needed]
        base = c_ast.BinaryOp("+", c_ast.Cast(size_t_type(), copy.deepcopy(self.loop.init.decls[0]
                                                                      .init)), parse_expr(
            f"{LS0} * ({L1} + {LS1} * {L2})"))
        probe_body.append(c_ast.If(parse_expr(f"{POINT} == 0"), c_ast.Assignment(
            "=", cn.ident(BASE), base), None))
        for j, a in enumerate(accesses):
            probe_body.append(c_ast.Assignment("=", _slot(AT, j, cn.ident(POINT)),
                                               c_ast.Cast(char_pointer_type(),
                                                          _unchecked_copy(a.target))))
        for r, (x, _) in enumerate(indices):
            probe_body.append(c_ast.Assignment("=", _slot(IX, r, cn.ident(POINT)), c_ast.Cast(
                long_long_type(), _unchecked_copy(x.args.exprs[0]))))
        for r, cond in enumerate(self.guards):
            probe_body.append(c_ast.Assignment("=", _slot(GUARD, r, cn.ident(POINT)),
                                               c_ast.BinaryOp(
                "-", c_ast.Cast(long_long_type(), copy.deepcopy(cond.left)),
                c_ast.Cast(long_long_type(), copy.deepcopy(cond.right)))))
        probe = parse_stmt(f"for (int {POINT} = 0; {POINT} < {len(points)}; ++{POINT}) {{}}")
        probe.stmt = c_ast.Compound(probe_body)
        # the tests
        tests = [parse_expr(f"cl2c_ck_box_empty({na}, {COUNT})")]
        # every guard true or false all over the box (cl2c_ck_box_guard: 1 or 0)
        rest = [parse_expr(f"{GUARDS}[{r}] >= 0") for r in range(len(self.guards))]
        for j, a in enumerate(accesses):
            at = c_ast.ArrayRef(cn.ident(AT), cn.const_int(j))
            size = c_ast.UnaryOp("sizeof", _element(a.target.expr))
            where = [cn.ident(a.range), at, cn.const_int(na), cn.ident(COUNT), size]
            if a.kind == STORE:
                t = cn.call("cl2c_ck_box_fresh", cn.ident(THREAD), *where,
                            cn.const_int(int(a.local)), cn.ident(BASE))
            elif a.kind == UPDATE:
                t = cn.call("cl2c_ck_box_update", cn.ident(THREAD), *where, cn.ident(BASE))
            elif a.kind == WREAD:
                t = cn.call("cl2c_ck_box_reread", cn.ident(THREAD), *where)
            elif a.kind == LREAD:
                t = cn.call("cl2c_ck_box_inited", cn.ident(THREAD), *where)
            else:
                t = cn.call("cl2c_ck_box_in_range", *where)
            rest.append(_unless_skipped(t, a.guard))
        for j, a in enumerate(accesses):
            # what a work-item of the loop writes, no other reads or writes (nor its
            # other stores: the guards of a tile's halo loads)
            for i, b in enumerate(accesses):
                if i != j and a.kind in (STORE, UPDATE) and b.range == a.range:
                    t = cn.call(
                        "cl2c_ck_box_apart", cn.ident(a.range),
                        c_ast.ArrayRef(cn.ident(AT), cn.const_int(j)),
                        c_ast.ArrayRef(cn.ident(AT), cn.const_int(i)), cn.const_int(na),
                        c_ast.UnaryOp("sizeof", _element(a.target.expr)),
                        c_ast.UnaryOp("sizeof", _element(b.target.expr)))
                    rest.append(_unless_skipped(_unless_skipped(t, a.guard), b.guard))
        guards = [a.guard for a in accesses for _ in a.indices] + [g for _, g in pixels]
        rest += [cn.call("cl2c_ck_box_whole", cn.ident(THREAD), cn.ident(r)) for r in atomics]
        for r, (_, n) in enumerate(indices):
            rest.append(_unless_skipped(cn.call(
                "cl2c_ck_box_index", c_ast.ArrayRef(cn.ident(IX), cn.const_int(r)),
                cn.const_int(na), cn.ident(COUNT), copy.deepcopy(n)), guards[r]))
        test = parse_expr(f"cl2c_ck_box_worth({na}, {COUNT}, {least})")
        for t in rest:
            test = c_ast.BinaryOp("&&", test, t)
        test = c_ast.BinaryOp("||", tests[0], test)
        table = ", ".join("{" + ", ".join(str(c) for c in p) + "}" for p in points)
        decls = parse_decls(
            f"static const unsigned char {codes}[{len(points)}][{na}] = {{{table}}};" +
            (f"const char *{AT}[{k}][{len(points)}] = {{{{0}}}};" if k else "") +
            f"long long {COUNT}[{na}] = {{0}};"
            f"size_t {BASE} = 0;")
        decls[-1].funcspec = ["CL2C_UNUSED"]
        if q:
            decls += parse_decls(f"long long {IX}[{q}][{len(points)}] = {{{{0}}}};")
        if self.guards:
            decls += parse_decls(
                f"long long {GUARD}[{len(self.guards)}][{len(points)}] = {{{{0}}}};")
            states = ", ".join(f"cl2c_ck_box_guard({GUARD}[{r}], {na}, {COUNT}, "
                               f"{_GUARD_OPS[c.op]})" for r, c in enumerate(self.guards))
            probe = [probe, *parse_decls(f"const int {GUARDS}[{len(self.guards)}] = "
                                         f"{{{states}}};")]
        else:
            probe = [probe]
        # the fast version: the body unchecked, its marks after it
        fast = c_ast.Compound(copy.deepcopy(self.item.body))
        _unchecked(fast)
        test = decls + probe + [declaration("const int", FAST, test)]
        if self.outer is None and len(axes) > 1 and self.item.row_guard is None and \
                all(a.kind in (STORE, READ, LREAD) for a in accesses):
            # only stores to mark, each work-item's once, in every row of the box: the
            # whole box's at once
            return Versions(test, fast.block_items, [], self._box_marks(accesses))
        return Versions(test, fast.block_items, self._marks(accesses))

    def _box_marks(self, accesses) -> list:
        """After the fast nest: the shadow words its stores leave, the box's at once
        (cl2c_ck_mark_box: one call where each row made one, a tiled matmul's 32 a
        tile, and a run of words where the rows' stores follow each other)."""
        na = len(self.axes)
        calls = [cn.call("cl2c_ck_mark_box", cn.ident(THREAD), cn.ident(a.range),
                         c_ast.ArrayRef(cn.ident(AT), cn.const_int(j)), cn.const_int(na),
                         cn.ident(COUNT), c_ast.UnaryOp("sizeof", _element(a.target.expr)),
                         cn.const_int(int(a.local)), cn.ident(BASE))
                 for j, a in enumerate(accesses) if a.kind == STORE]
        # (a guarded store marks what it stored: where its guard holds)
        return [c if a.guard is None else
                c_ast.If(parse_expr(f"{GUARDS}[{a.guard}] == 1"), c, None)
                for c, a in zip(calls, [a for a in accesses if a.kind == STORE])]

    def _marks(self, accesses) -> list:
        """After the fast loop of each row: the shadow words its stores leave."""
        stores = [a for a in accesses if a.kind in (STORE, UPDATE, WREAD)]
        if not stores:
            return []
        loop = self.loop
        first = loop.init.decls[0].init
        end = loop.cond.right
        counter = declaration("const int", COUNTER, cn.call("cl2c_ck_point", copy.deepcopy(first),
                                                       copy.deepcopy(end), cn.ident(POINT)))
        counter.funcspec = ["CL2C_UNUSED"]
        needed = self._needed(set().union(*(ids(a.target) for a in stores)))
        body = [counter] + [copy.deepcopy(d) for name, d in self.item_defs.items()
                            if name in needed]
        for j, a in enumerate(stores):
            body.append(c_ast.Assignment("=", _slot(MARK, j, cn.ident(POINT)), c_ast.Cast(
                char_pointer_type(), _unchecked_copy(a.target))))
        at = parse_stmt(f"for (int {POINT} = 0; {POINT} < 2; ++{POINT}) {{}}")
        at.stmt = c_ast.Compound(body)
        steps = c_ast.BinaryOp("-", c_ast.BinaryOp("-", copy.deepcopy(end), copy.deepcopy(first)),
                               cn.const_int(1))
        llid = c_ast.BinaryOp("+", c_ast.Cast(size_t_type(), copy.deepcopy(first)), parse_expr(
            f"{LS0} * ({L1} + {LS1} * {L2})"))
        calls = [cn.call("cl2c_ck_mark_read" if a.kind == WREAD else "cl2c_ck_mark",
                         cn.ident(THREAD), cn.ident(a.range),
                         _slot(MARK, j, cn.const_int(0)), _slot(MARK, j, cn.const_int(1)),
                         copy.deepcopy(steps),
                         c_ast.UnaryOp("sizeof", _element(a.target.expr)),
                         cn.const_int(int(a.local)), copy.deepcopy(llid))
                 for j, a in enumerate(stores)]
        # (a guarded store marks what it stored: where its guard holds)
        calls = [c if a.guard is None else
                 c_ast.If(parse_expr(f"{GUARDS}[{a.guard}] == 1"), c, None)
                 for c, a in zip(calls, stores)]
        decl = parse_decls(f"const char *{MARK}[{len(stores)}][2] = {{{{0}}}};")
        return [c_ast.Compound(decl + [at] + calls)]

    def _needed(self, names: set) -> set:
        """The work-item loop's head declarations ``names`` depend on, transitively."""
        defs = self.item_defs
        out, todo = set(), [n for n in names if n in defs]
        while todo:
            n = todo.pop()
            if n not in out:
                out.add(n)
                todo += [m for m in ids(defs[n].init) if m in defs]
        return out


def _points(na: int) -> list:
    """The probe's points of a box of ``na`` axes, each a code per axis (0 its first
    value, 1 its second, 2 its last): the origin, the second along each axis, then
    each corner (bit a of c: axis a at its last) at 1 + na + c."""
    out = [[0] * na]
    for a in range(na):
        p = [0] * na
        p[a] = 1
        out.append(p)
    for c in range(1 << na):
        out.append([2 if c >> a & 1 else 0 for a in range(na)])
    return out


def _small_signed(x) -> bool:
    """Is ``x`` of a signed integer type of int's rank or below (as its facts, or its
    declaration's, say)?"""
    t = fact(x, "ty")
    if t is None and isinstance(x, c_ast.Constant):
        return x.type in ("int", "char") and not x.value.lower().endswith("u")
    if t is None and isinstance(x, c_ast.BinaryOp) and x.op in ("+", "-", "*"):
        return _small_signed(x.left) and _small_signed(x.right)
    if t is None and isinstance(x, c_ast.Cast):
        t = fact(x.to_type, "ty")
    return t is not None and t.is_scalar and t.is_integer and t.signed and t.size <= 4


def _slot(array: str, j: int, point):
    return c_ast.ArrayRef(c_ast.ArrayRef(cn.ident(array), cn.const_int(j)), point)


class _Access:
    """A check of a loop's fast version: its kind (READ, LREAD, STORE), the range it
    checks against (cl2c_ck_a_X, cl2c_ck_l_F), ``&E`` and its checked indices
    ((CL2C_CK_INDEX call, length)), whether the memory is __local, the stored value,
    and the guard it is under (its number, or None)."""

    def __init__(self, kind, range_name, target, indices, local, value):
        self.kind, self.range, self.target = kind, range_name, target
        self.indices, self.local, self.value = indices, local, value
        self.guard = None


def _unless_skipped(test, guard):
    """``test``, or (for an access under a guard) ``gs == 0 || test``: no access where
    the guard is false all over the box."""
    if guard is None:
        return test
    return c_ast.BinaryOp("||", parse_expr(f"{GUARDS}[{guard}] == 0"), test)


def _unchecked(body) -> None:
    """The checks of a fast version go: ``*CL2C_CK_ARG_READ(A, &E, site)`` and
    ``*CL2C_CK_LREAD(A, &E, site)`` become ``E`` (the access itself),
    ``CL2C_CK_ARG_STORE(A, &E, local, site, v)`` becomes ``E = v``,
    ``CL2C_CK_LATOMIC_IN(A, p, site)`` ``p`` and ``CL2C_CK_INDEX(i, n, site)`` (and
    ``CL2C_CK_PIXEL(i, n, ...)``) ``i``."""
    for n in list(walk(body)):
        for name, child in n.children():
            if not isinstance(child, c_ast.FuncCall):
                continue
            what, args = called(child), (child.args.exprs if child.args else [])
            if what in (READ, LREAD, ARG, LATOMIC):
                replace_child(n, name, args[1])
            elif what == STORE:
                replace_child(n, name, c_ast.Assignment(
                    "=", c_ast.UnaryOp("*", args[1]), args[4], child.coord))
            elif what in (INDEX, PIXEL, WITHIN):
                replace_child(n, name, args[0])
    for n in list(walk(body)):              # *&E is E: the access as the kernel wrote it
        for name, child in n.children():
            if isinstance(child, c_ast.UnaryOp) and child.op == "*" and \
                    isinstance(child.expr, c_ast.UnaryOp) and child.expr.op == "&":
                replace_child(n, name, child.expr.expr)


def _element(e):
    """``E`` (``X[i][j]``) with every index 0, for its size where i and j are not in
    scope."""
    e = copy.deepcopy(e)
    node = e
    while isinstance(node, c_ast.ArrayRef):
        node.subscript = cn.const_int(0)
        node = node.name
    return e


def _unchecked_copy(node):
    holder = c_ast.Compound([copy.deepcopy(node)])
    _unchecked(holder)
    return holder.block_items[0]


def _local_access(n) -> int | None:
    """The flags of ``CL2C_CK_ARG(A, &E, flags, 1, site)`` (a __local access), else None."""
    if not (isinstance(n, c_ast.FuncCall) and called(n) == ARG and n.args and
            len(n.args.exprs) == 5 and int_constant(n.args.exprs[3]) == 1):
        return None
    return int_constant(n.args.exprs[2])


def has_checks(node, ignore: str = "") -> bool:
    """Does ``node`` hold checks (whose out-of-line reports keep a loop scalar)? (The
    call ``ignore`` aside.)"""
    return any(isinstance(n, c_ast.FuncCall) and called(n).lower().startswith("cl2c_ck")
               and called(n) != ignore for n in walk(node))


def _calls_checked(node, checked: set) -> bool:
    """Does ``node`` call one of the ``checked`` functions (with checks of their own)?"""
    return any(isinstance(n, c_ast.FuncCall) and called(n) in checked for n in walk(node))


def _checked_functions(helpers: dict) -> set:
    """The functions of ``helpers`` that check something, or call one that does."""
    def own(body) -> bool:
        return any(isinstance(n, c_ast.FuncCall) and called(n).lower().startswith("cl2c_ck")
                   or isinstance(n, c_ast.ID) and n.name.startswith("cl2c_cks_")
                   for n in walk(body))
    checked = {name for name, f in helpers.items() if own(f.body)}
    grew = True
    while grew:
        grew = False
        for name, f in helpers.items():
            if name not in checked and any(
                    isinstance(n, c_ast.FuncCall) and called(n) in checked for n in walk(f.body)):
                checked.add(name)
                grew = True
    return checked


