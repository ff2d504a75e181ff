"""Lowering pass: divergent loops run in lock-step across work-items.

A work-item loop whose body holds a loop with a data-dependent trip count (Mandelbrot's
escape loop) does not vectorise: gcc refuses a loop with control flow in it. This pass
rewrites such a work-item loop of a work-group function (a vectorisable ``WorkItemLoop``
of its IR, workgroup/ir.py: the pass sets its ``lanes``) into blocks of ``CL2C_LANES`` work-items
(regions.h: four vectors of the target's width) that run in lock-step:

- the statements before the divergent loop run for every lane of the block, in a
  vectorisable loop over the lanes, leaving the privates the rest needs in small
  per-lane arrays (``zr__lanes``) and whether each lane enters the loop (``cl2c_run``);
- the divergent loop becomes ``while (any lane runs)`` around a vectorisable loop over the
  lanes whose body is if-converted: each assignment is ``x = active ? new : x`` (an
  integer's ``x++`` is ``x += active``), an ``if`` a predicate, ``break`` and
  ``continue`` clear the lane's predicate, so the compiler sees straight-line code and
  makes masked vector operations of it;
- the statements after it run per lane again, reading the per-lane arrays.

Work-items left over after the last whole block run in the original work-item loop.
Where every running lane's iteration counter holds the same value (``it < max_iter``
of a counter that starts at a constant and goes up by one each iteration), its bound is
tested once a step for the block, not in each lane (10-20% on Mandelbrot). Where the
loop's condition and body compute the same value (Mandelbrot's ``zi * zi``), each step
tests the condition at its top, next to the body, so that the compiler computes it once
(1.16x on Mandelbrot); elsewhere at the bottom, which spares a last step in which no lane
runs.
Running the work-items' statements phase by phase reorders them across work-items, as
the ``omp simd`` loop already allows: a region has no barrier in it.

What the divergent loop may hold is checked conservatively: private scalar variables
(declared in the work-item loop, their address never taken) and values the loop only
reads, arithmetic, comparisons and pure calls (every lane computes every value, the
masked ones too: nothing may fault or write memory), assignments of private scalars,
``if``, ``break`` and ``continue``; no memory access, nested loop, ``return`` or
``goto``. Every other work-item loop is left as it is.
"""
from __future__ import annotations

import copy

from pycparser import c_ast

from ... import declarators
from ...typed_ast import fact, walk
from ... import cnodes as cn
from .check_versions import has_checks
from ...lower.predicates import (branch_free, conjoin, conjunction, conjuncts, float_valued,
                         is_increment, lane_safe, predicate, tests_at_top, unit_step,
                         update_target)
from ..builders.syntax import escaping_jumps, ids, set_declname
from .. import write
from ..ir import GroupFunction, c_parts, work_item_loops
from ..names import BLOCK as BASE, L0, LANE

LANES = "CL2C_LANES"        # work-items per block (cl2c/regions.h)

_LOOPS = (c_ast.For, c_ast.While, c_ast.DoWhile)


def lockstep_divergent_loops(gf: GroupFunction) -> int:
    """Run, in work-group function ``gf``, each vectorisable work-item loop that holds
    divergent loops the lanes can run in lock-step so (its ``lanes``); returns how many
    divergent loops."""
    taken = set().union(*(ids(s) for s in gf.prologue),
                        *(ids(part) for part, _ in c_parts(gf.items)))
    done = 0
    for loop in list(work_item_loops(gf.items)):
        if not loop.simd or loop.ways > 1:
            continue
        lockstep = _Lockstep(write.inner_loop(loop), taken)
        new = lockstep.rewrite()
        if new is not None:
            loop.lanes = [new]
            done += lockstep.loops
    return done


def _is_check_item(s) -> bool:
    """``cl2c_ck_item(...);``: checking builds say which work-item runs (check.h)."""
    return isinstance(s, c_ast.FuncCall) and isinstance(s.name, c_ast.ID) and \
        s.name.name == "cl2c_ck_item"


def _is_scalar(d) -> bool:
    """A declaration of one scalar variable (by its type fact: a declaration a pass
    made without one is none)."""
    t = fact(d, "ty") if isinstance(d, c_ast.Decl) else None
    return t is not None and t.is_scalar and isinstance(d.type, c_ast.TypeDecl) and \
        not (d.storage or [])


class _Lockstep:
    """One work-item loop: its phases, the per-lane variables, the code of the blocks."""

    def __init__(self, loop: c_ast.For, taken: set):
        self.loop = loop
        self.taken = taken
        self.locals: dict[str, c_ast.Decl] = {}   # top-level declarations of the body
        self.starts: dict[c_ast.For, dict] = {}     # a for's `k = constant`, by loop
        self.loops = 0                              # divergent loops in lock-step

    # -- what qualifies
    def rewrite(self):
        body = copy.deepcopy(self.loop.stmt.block_items or [])
        if any(isinstance(n, (c_ast.Goto, c_ast.Label, c_ast.Return)) for s in body
               for n in walk(s)):
            return None
        if any(True for s in body for _ in escaping_jumps(s)):
            return None          # a work-item skips the rest (cl2c_done)
        phases = self._phases(body)
        self.loops = sum(isinstance(p, c_ast.Node) for p in phases)
        if not self.loops:
            return None
        if any(isinstance(n, c_ast.UnaryOp) and n.op == "&" and
               isinstance(n.expr, c_ast.ID) and n.expr.name in self.locals
               for s in body for n in walk(s)):
            return None          # a pointer to a private that would move into an array
        lanes = self._lane_variables(phases)
        if lanes is None or any(f"{n}__lanes" in self.taken for n in lanes) or \
                {LANE, BASE, "cl2c_run", "cl2c_any"} & self.taken:
            return None
        return self._blocks(phases, lanes)

    def _phases(self, body):
        """The body as a list alternating segments (lists of statements, run per lane)
        and divergent loops (nodes, run in lock-step), a segment first and last."""
        phases, segment = [], []
        item = next((s for s in body if _is_check_item(s)), None)
        for s in body:
            if isinstance(s, c_ast.Decl):
                self.locals[s.name] = s
            if isinstance(s, _LOOPS) and self._divergent(s):
                if isinstance(s, c_ast.For) and s.init is not None:
                    # the loop's initialisation runs per lane, before it
                    init = s.init.decls if isinstance(s.init, c_ast.DeclList) else [s.init]
                    for d in init:
                        if isinstance(d, c_ast.Decl):
                            self.locals[d.name] = d
                        elif isinstance(d, c_ast.Assignment) and d.op == "=" and \
                                isinstance(d.lvalue, c_ast.ID) and \
                                isinstance(d.rvalue, c_ast.Constant):
                            self.starts[s] = {d.lvalue.name: d.rvalue}
                    segment += init
                    s.init = None
                phases += [segment, s]
                # checking builds: the lane's work-item runs again (its checks say who)
                segment = [self._item_again(item)] if item is not None else []
            else:
                segment.append(s)
        phases.append(segment)
        return phases

    def _item_again(self, item: c_ast.FuncCall) -> c_ast.FuncCall:
        """``cl2c_ck_item(...)`` of a segment after a lock-step loop, with the local
        linear id computed again rather than kept per lane."""
        again = copy.deepcopy(item)
        last = again.args.exprs[-1]
        if isinstance(last, c_ast.ID) and last.name in self.locals and \
                self.locals[last.name].init is not None:
            again.args.exprs[-1] = copy.deepcopy(self.locals[last.name].init)
        return again

    def _divergent(self, loop) -> bool:
        """Can the lanes run ``loop`` in lock-step, masked?"""
        if not lane_safe(loop.cond):
            return False
        nxt = getattr(loop, "next", None)
        steps = nxt.exprs if isinstance(nxt, c_ast.ExprList) else [nxt] if nxt else []
        if any(update_target(e) is None for e in steps):
            return False
        if isinstance(loop, c_ast.For) and isinstance(loop.init, c_ast.DeclList) and \
                not all(_is_scalar(d) and lane_safe(d.init) for d in loop.init.decls):
            return False
        if isinstance(loop, c_ast.For) and loop.init is not None and \
                not isinstance(loop.init, c_ast.DeclList) and update_target(loop.init) is None:
            return False
        inner: dict[str, c_ast.Decl] = {}
        if not self._convertible(loop.stmt, inner):
            return False
        assigned = {update_target(e) for e in steps} | self._assigned(loop.stmt)
        if isinstance(loop, c_ast.For) and isinstance(loop.init, c_ast.DeclList):
            declared = {d.name: d for d in loop.init.decls}
        else:
            declared = {}
        known = {**self.locals, **declared, **inner}
        return all(n in known and _is_scalar(known[n]) for n in assigned)

    def _convertible(self, s, inner: dict) -> bool:
        """Statement ``s`` of a divergent loop's body can be if-converted."""
        if s is None or isinstance(s, (c_ast.EmptyStatement, c_ast.Break, c_ast.Continue)):
            return True
        if isinstance(s, c_ast.Compound):
            return all(self._convertible(t, inner) for t in s.block_items or [])
        if isinstance(s, c_ast.Decl):
            inner[s.name] = s
            return _is_scalar(s) and lane_safe(s.init)
        if isinstance(s, c_ast.If):
            return lane_safe(s.cond) and self._convertible(s.iftrue, inner) and \
                self._convertible(s.iffalse, inner)
        return update_target(s) is not None

    @staticmethod
    def _assigned(s) -> set:
        return {update_target(n) for n in walk(s) if update_target(n) is not None}

    def _lane_variables(self, phases) -> list | None:
        """The body's top-level variables that a later phase reads or writes: they live
        in per-lane arrays. None when one of them cannot (an array)."""
        lanes = []
        for i, p in enumerate(phases):
            if isinstance(p, c_ast.Node):
                continue
            later = _names_after(phases, i)
            for s in p:
                if isinstance(s, c_ast.Decl) and s.name in later:
                    if not isinstance(s.type, (c_ast.TypeDecl, c_ast.PtrDecl)):
                        return None
                    lanes.append(s.name)
        # a pointer kept across phases must not point into a phase's own array
        if any(isinstance(self.locals[n].type, c_ast.PtrDecl) for n in lanes) and \
                any(isinstance(n, c_ast.ArrayDecl) for p in phases
                    for s in ([p] if isinstance(p, c_ast.Node) else p) for n in walk(s)):
            return None
        # the divergent loops read and write only scalars among them
        for p in phases:
            if isinstance(p, c_ast.Node) and \
                    any(not _is_scalar(self.locals[n]) for n in ids(p) if n in lanes):
                return None
        return lanes

    def _dead_floats(self, loop, later: set) -> set:
        """The float and double privates that ``loop`` assigns and nothing after it
        reads: a lane that has left the loop may go on computing them (garbage no one
        reads), so that their assignments at the top of the body need no select."""
        declared = {n.name: n for n in walk(loop) if isinstance(n, c_ast.Decl)}
        known = {**self.locals, **declared}
        return {n for n in self._assigned(loop) if n in known and n not in later and
                _is_floating(known[n])}

    # -- the code
    def _blocks(self, phases, lanes) -> c_ast.Compound:
        """``{ int cl2c_b = LO; for (blocks) {...} omp simd loop over the rest }``"""
        lo = self.loop.init.decls[0].init
        hi = self.loop.cond.right
        code = []
        for name in lanes:
            d = copy.deepcopy(self.locals[name])
            t = declarators.type_decl(d.type)
            # the variable's own const goes (the array is written); a pointee's stays
            top = d.type
            top.quals = [q for q in top.quals if q != "const"]
            t.declname = f"{name}__lanes"
            code.append(c_ast.Decl(t.declname, [], [], [], [],
                                   c_ast.ArrayDecl(d.type, cn.ident(LANES), []), None, None))
        code.append(_decl("int", "cl2c_run", array=True))
        code.append(_decl("int", "cl2c_any"))
        written: set = set()       # lane variables the phases so far stored
        for i, p in enumerate(phases):
            if isinstance(p, c_ast.Node):
                code += self._lockstep(p, lanes, written, _names_after(phases, i))
                continue
            following = phases[i + 1] if i + 1 < len(phases) else None
            if p or following is not None:
                code += self._segment(p, lanes, written, following)
        block = c_ast.For(None, c_ast.BinaryOp("<=", c_ast.BinaryOp("+", cn.ident(BASE),
                                                                    cn.ident(LANES)),
                                               copy.deepcopy(hi)),
                          c_ast.Assignment("+=", cn.ident(BASE), cn.ident(LANES)),
                          c_ast.Compound(code))
        rest = self.loop        # not `omp simd`: its divergent loop does not vectorise
        rest.init.decls[0].init = cn.ident(BASE)     # (and clang warns that it did not)
        return c_ast.Compound([_decl("int", BASE, lo), block, rest])

    def _lane_loop(self, items, reduction=False) -> list:
        """``#pragma omp simd`` and ``for (int cl2c_k = 0; cl2c_k < CL2C_LANES; ++cl2c_k)``
        around ``items``, with the local id 0 where they read it."""
        if any(L0 in ids(s) for s in items):
            l0 = _decl("int", L0, c_ast.BinaryOp("+", cn.ident(BASE), cn.ident(LANE)))
            l0.quals = ["const"]
            l0.type.quals = ["const"]
            items = [l0] + items
        loop = c_ast.For(c_ast.DeclList([_decl("int", LANE, cn.const_int(0))]),
                         c_ast.BinaryOp("<", cn.ident(LANE), cn.ident(LANES)),
                         c_ast.UnaryOp("++", cn.ident(LANE)), c_ast.Compound(items))
        if not reduction and any(has_checks(s) for s in items):
            return [loop]       # checks' reports keep it scalar (clang warns of omp simd)
        pragma = "omp simd reduction(|: cl2c_any)" if reduction else "omp simd"
        return [c_ast.Pragma(pragma), loop]

    def _load(self, name, written: set, zero=False) -> c_ast.Decl:
        """The lane's value of ``name``, declared; before anything stored one, the bare
        declaration (0 where a predicate keeps the old value)."""
        d = copy.deepcopy(self.locals[name])
        d.init = _lane(name) if name in written else cn.const_int(0) if zero else None
        return d

    def _segment(self, stmts, lanes, written: set, following) -> list:
        """A segment's statements per lane, between loading the lane variables it reads
        and storing those it sets; then, before a divergent loop, whether each lane
        enters it."""
        enter = None
        if following is not None:
            # every lane enters a do-while, and a loop that tests its condition at the
            # top of each step; the others as their condition says
            by_condition = not isinstance(following, c_ast.DoWhile) and \
                following.cond is not None and not tests_at_top(following)
            enter = predicate(following.cond) if by_condition else cn.const_int(1)
        # a lane variable declared without a value starts at 0: every phase after this
        # one loads it, the divergent loops on every iteration
        stmts = [_zeroed(s) if isinstance(s, c_ast.Decl) and s.name in lanes and
                 s.init is None else s for s in stmts]
        used = set().union(ids(enter) if enter is not None else set(), *(ids(s) for s in stmts))
        declared = {s.name: s for s in stmts if isinstance(s, c_ast.Decl)}
        loads = [n for n in lanes if n in used and n not in declared]
        assigned = set().union(set(), *(_assigned_names(s) for s in stmts))
        stores = [n for n in lanes if n in assigned or
                  n in declared and declared[n].init is not None]
        items = [self._load(n, written) for n in loads] + list(stmts) + \
            [c_ast.Assignment("=", _lane(n), cn.ident(n)) for n in stores]
        written |= set(stores)
        if enter is None:
            return self._lane_loop(items)
        items += [c_ast.Assignment("=", _lane("cl2c_run"), enter),
                  c_ast.Assignment("|=", cn.ident("cl2c_any"), _lane("cl2c_run"))]
        return [c_ast.Assignment("=", cn.ident("cl2c_any"), cn.const_int(0))] + \
            self._lane_loop(items, reduction=True)

    def _lockstep(self, loop, lanes, written: set, later: set) -> list:
        """``while (cl2c_any)`` around the if-converted loop body over the lanes."""
        at_top = tests_at_top(loop)
        counter = self._uniform_counter(loop)
        if counter is not None:
            loop = copy.copy(loop)          # its condition without the counter's bound
            loop.cond = counter.rest
        conv = _IfConverter(loop, self._dead_floats(loop, later), at_top)
        body = conv.statements(loop.stmt)
        used = ids(loop)
        loads = [n for n in lanes if n in used]
        assigned = self._assigned(loop.stmt) | {update_target(e) for e in conv.steps}
        stores = [c_ast.Assignment("=", _lane(n), cn.ident(n)) for n in loads if n in assigned]
        items = [self._load(n, written, zero=True) for n in loads] + conv.prologue() + body + \
            conv.epilogue() + \
            stores + [c_ast.Assignment("|=", cn.ident("cl2c_any"), _lane("cl2c_run"))]
        inner = [c_ast.Assignment("=", cn.ident("cl2c_any"), cn.const_int(0))] + \
            self._lane_loop(items, reduction=True)
        written |= {n for n in loads if n in assigned}
        if counter is None:
            return [c_ast.While(cn.ident("cl2c_any"), c_ast.Compound(inner))]
        # every running lane's counter is the block's: its bound is tested once a step
        if at_top:
            go_on = c_ast.BinaryOp("&&", cn.ident("cl2c_any"), counter.bound)
            inner = inner + [counter.step]
        else:
            go_on = cn.ident("cl2c_any")
            inner = [counter.step] + inner + [
                c_ast.Assignment("&=", cn.ident("cl2c_any"), counter.bound)]
        return [c_ast.Compound([counter.decl, c_ast.While(go_on, c_ast.Compound(inner))])]

    def _uniform_counter(self, loop):
        """A counter that every running lane holds the same value of, and its bound:
        ``while (it < max_iter && ...)`` where ``it`` starts at a constant, the loop
        adds one to it on each iteration (``it++`` at the top of its body or as a
        ``for``'s step, with no ``break`` or ``continue``) and nothing else assigns
        it, and ``max_iter`` is the same for the whole block. Then ``it < max_iter``
        holds for all running lanes or for none: a uniform counter (``cl2c_steps``)
        tests it once a step, not each lane. None where there is no such counter."""
        if "cl2c_steps" in self.taken or \
                any(isinstance(n, (c_ast.Break, c_ast.Continue)) for n in walk(loop.stmt)):
            return None
        terms = conjuncts(loop.cond)
        nxt = getattr(loop, "next", None)
        steps = nxt.exprs if isinstance(nxt, c_ast.ExprList) else [nxt] if nxt else []
        body = loop.stmt.block_items if isinstance(loop.stmt, c_ast.Compound) else [loop.stmt]
        for i, term in enumerate(terms):
            if not (isinstance(term, c_ast.BinaryOp) and term.op in ("<", "<=") and
                    isinstance(term.left, c_ast.ID)):
                continue
            name = term.left.name
            decl = self.locals.get(name)
            # where every lane's count starts: the for's `k = 0`, else the declaration's
            start = self.starts.get(loop, {}).get(name)
            if decl is None or not _is_scalar(decl) or \
                    not isinstance(start or decl.init, c_ast.Constant) or \
                    not _uniform(term.right, self.loop.stmt):
                continue
            increments = [e for e in list(body or []) + steps if is_increment(e, name)]
            writes = [n for n in walk(self.loop.stmt) if update_target(n) == name or
                      isinstance(n, c_ast.Assignment) and isinstance(n.lvalue, c_ast.ID) and
                      n.lvalue.name == name]
            if len(increments) != 1 or len(writes) != (2 if start is not None else 1):
                continue
            rest = terms[:i] + terms[i + 1:]
            counter = _Counter()
            d = copy.deepcopy(decl)
            d.init = copy.deepcopy(start or decl.init)
            set_declname(d, "cl2c_steps")
            d.quals = [q for q in d.quals if q != "const"]      # it steps
            d.type.quals = [q for q in d.type.quals if q != "const"]
            counter.decl = d
            counter.step = c_ast.UnaryOp("++", cn.ident("cl2c_steps"))
            counter.bound = c_ast.BinaryOp(term.op, cn.ident("cl2c_steps"),
                                           copy.deepcopy(term.right))
            counter.rest = conjunction(rest)
            return counter
        return None


class _IfConverter:
    """A divergent loop's body as straight-line code under predicates: ``cl2c_in``
    (this lane runs this iteration), ``cl2c_go`` (and has not met ``break`` or
    ``continue`` yet), ``cl2c_out`` (met ``break``) and one ``cl2c_cN`` per ``if``."""

    def __init__(self, loop, free: set = frozenset(), at_top: bool = False):
        self.loop = loop
        self.free = free        # privates assigned unmasked on the lane's own path
        self.at_top = at_top    # the condition is tested before the body, not after it
        jumps = [n for n in walk(loop.stmt) if isinstance(n, (c_ast.Break, c_ast.Continue))]
        self.jumps = bool(jumps)
        self.breaks = any(isinstance(n, c_ast.Break) for n in jumps)
        self.conds = 0
        nxt = getattr(loop, "next", None)
        self.steps = nxt.exprs if isinstance(nxt, c_ast.ExprList) else [nxt] if nxt else []

    def prologue(self) -> list:
        cond = predicate(self.loop.cond) if self.at_top else None
        items = [_decl("int", "cl2c_in", _lane("cl2c_run") if cond is None
                       else c_ast.BinaryOp("&", _lane("cl2c_run"), cond))]
        items[0].type.quals = items[0].quals = ["const"]
        if self.jumps:
            items.append(_decl("int", "cl2c_go", cn.ident("cl2c_in")))
        if self.breaks:
            items.append(_decl("int", "cl2c_out", cn.const_int(0)))
        return items

    def epilogue(self) -> list:
        """Whether the lane goes on: not after ``break``; then the step of a ``for``,
        and the condition."""
        run = _lane("cl2c_run")
        left = c_ast.BinaryOp("&", cn.ident("cl2c_in"), c_ast.UnaryOp("!", cn.ident("cl2c_out"))) \
            if self.breaks else cn.ident("cl2c_in")
        cond = None if self.at_top else predicate(self.loop.cond)
        if not self.steps:
            return [c_ast.Assignment("=", run, left if cond is None
                                     else c_ast.BinaryOp("&", left, cond))]
        items = [c_ast.Assignment("=", run, left)]
        items += [self._assign(e, [_lane("cl2c_run")]) for e in self.steps]
        if cond is not None:
            items.append(c_ast.Assignment("=", _lane("cl2c_run"), c_ast.BinaryOp(
                "&", _lane("cl2c_run"), cond)))
        return items

    def statements(self, s) -> list:
        return self._convert(s, [cn.ident("cl2c_go" if self.jumps else "cl2c_in")])

    def _convert(self, s, pred: list) -> list:
        if s is None or isinstance(s, c_ast.EmptyStatement):
            return []
        if isinstance(s, c_ast.Compound):
            out = []
            for t in s.block_items or []:
                out += self._convert(t, pred)
            return [c_ast.Compound(out)] if out else []
        if isinstance(s, c_ast.Decl):
            # assigned under a predicate: never indeterminate
            s.init = branch_free(s.init) if s.init is not None else cn.const_int(0)
            return [s]
        if isinstance(s, c_ast.If):
            self.conds += 1
            c = f"cl2c_c{self.conds}"
            d = _decl("int", c, predicate(s.cond))
            d.type.quals = d.quals = ["const"]
            then = self._convert(s.iftrue, pred + [cn.ident(c)])
            other = self._convert(s.iffalse, pred + [c_ast.UnaryOp("!", cn.ident(c))])
            return [d] + then + other
        if isinstance(s, (c_ast.Break, c_ast.Continue)):
            out = []
            if isinstance(s, c_ast.Break):
                out.append(c_ast.Assignment("|=", cn.ident("cl2c_out"), conjoin(pred)))
            rest = pred[1:]
            out.append(c_ast.Assignment("&=", cn.ident("cl2c_go"),
                                        c_ast.UnaryOp("!", conjoin(rest))) if rest
                       else c_ast.Assignment("=", cn.ident("cl2c_go"), cn.const_int(0)))
            return out
        return [self._assign(s, pred, self.free if pred[0].name == "cl2c_in" and
                             len(pred) == 1 else ())]

    @staticmethod
    def _assign(e, pred: list, free=()):
        """``x = P ? new : x`` for the update ``e`` of private ``x`` under predicate P;
        ``x = new`` where P is the lane's running and x one of ``free``, when computing
        ``new`` from any values is defined (float arithmetic)."""
        if isinstance(e, c_ast.Assignment):
            x = e.lvalue.name
            new = branch_free(e.rvalue)
            if e.op != "=":
                new = c_ast.BinaryOp(e.op[:-1], cn.ident(x), new)
        else:
            x = e.expr.name
            new = c_ast.BinaryOp("+" if "+" in e.op else "-", cn.ident(x), cn.const_int(1))
        if x in free and float_valued(new, free):
            return c_ast.Assignment("=", cn.ident(x), new, e.coord)
        step = unit_step(e)
        if step is not None:
            # x++ under P as x += P (P is 0 or 1): an add, not a compare and a select
            # (1.1x on Mandelbrot)
            return c_ast.Assignment(step, cn.ident(x), conjoin(pred), e.coord)
        return c_ast.Assignment("=", cn.ident(x), c_ast.TernaryOp(conjoin(pred), new,
                                                                    cn.ident(x)), e.coord)


class _Counter:
    """A lock-step loop's uniform counter: its declaration, its step, its bound, and the
    loop's condition without the bound (None: nothing left)."""
    decl = step = bound = rest = None


def _uniform(e, work_item_body) -> bool:
    """``e`` has one value for the whole block: constants and variables declared
    outside the work-item loop (the group function's parameters and uniform values)
    that the loop never assigns, with arithmetic."""
    if isinstance(e, c_ast.Constant):
        return True
    if isinstance(e, c_ast.ID):
        declared = {n.name for n in walk(work_item_body) if isinstance(n, c_ast.Decl)}
        assigned = {update_target(n) for n in walk(work_item_body)} | \
            {n.lvalue.name for n in walk(work_item_body)
             if isinstance(n, c_ast.Assignment) and isinstance(n.lvalue, c_ast.ID)}
        return e.name not in declared and e.name not in assigned and \
            not e.name.startswith("cl2c_")
    if isinstance(e, c_ast.BinaryOp):
        return e.op in ("+", "-", "*") and _uniform(e.left, work_item_body) and \
            _uniform(e.right, work_item_body)
    if isinstance(e, c_ast.Cast):
        return _uniform(e.expr, work_item_body)
    return False


def _names_after(phases, i: int) -> set:
    """The names that the phases after phase ``i`` read or write."""
    return set().union(set(), *(ids(s) for q in phases[i + 1:]
                                for s in ([q] if isinstance(q, c_ast.Node) else q)))


def _is_floating(d) -> bool:
    """A float or double scalar declaration."""
    return _is_scalar(d) and set(d.type.type.names) <= {"float", "double"}


def _assigned_names(s) -> set:
    return {update_target(n) for n in walk(s) if update_target(n) is not None} | \
        {n.lvalue.name for n in walk(s)
         if isinstance(n, c_ast.Assignment) and isinstance(n.lvalue, c_ast.ID)}


def _zeroed(d: c_ast.Decl) -> c_ast.Decl:
    d = copy.deepcopy(d)
    d.init = cn.const_int(0)
    return d


def _lane(name: str) -> c_ast.ArrayRef:
    """``cl2c_run[cl2c_k]``, the block's own array, or ``x__lanes[cl2c_k]`` for a private
    ``x`` (whatever its name: checking mode's flags start with cl2c_ too)."""
    array = name if name == "cl2c_run" else f"{name}__lanes"
    return c_ast.ArrayRef(cn.ident(array), cn.ident(LANE))


def _decl(ctype: str, name: str, init=None, array: bool = False) -> c_ast.Decl:
    t = c_ast.TypeDecl(name, [], None, c_ast.IdentifierType([ctype]))
    if array:
        t = c_ast.ArrayDecl(t, cn.ident(LANES), [])
    return c_ast.Decl(name, [], [], [], [], t, init, None)
