"""A kernel's last loop as a dimension of the range (issue 37, item 3): where each
work-item of a launch of one dimension computes a row in a loop whose iterations touch
memory of their own, the iterations become work-items of a second dimension.

The lecture's V1 and V2 (``shared/seeds/003``) give each work-item ``i`` a row of C::

    i = get_global_id(0);
    for (j = 0; j < DIM; j++) { sum = 0.0; for (k ...) sum += ...; C[i*DIM+j] = sum; }

Run as loops over the work-items inside the kernel's loops, the loads of ``A`` are a
row apart in each lane. Each iteration ``j`` writes ``C[i*DIM+j]`` only, and reads
memory that no iteration writes: the kernel computes the same with ``j =
get_global_id(1)`` on a range ``DIM`` wide in dimension 1, which is V3, whose work-item
loops run along ``j`` (dimensions.py) in register tiles.

Exact, or the loop stays a loop. Translation proves what does not depend on the
launch: the kernel cannot tell its groups apart and asks only ``get_global_id(0)``; the
statements before the loop compute private values from it and read no memory; the
loop counts from 0 to a constant; in an iteration, each private value it assigns is
assigned before it is read, every memory access is an element of a pointer argument
at an index of ``get_global_id(0)``, the counter and the counters of inner loops with
constant bounds (affine, with constant factors), and an argument it writes is
accessed at one index, a multiple of the counter plus what the iteration does not
change. The launch then checks the rest (host.h's ``cl2c_loop_span``): a range of one
dimension, the indices within an int's range (no arithmetic that could wrap), and the
elements an argument it writes apart from those of every other argument (pointer
arguments may alias), else it runs the loop as written.

The new kernel may take what that check gives: a private array that copies an
argument's elements (V5's row of ``A``, Try 1's column of ``B``) is read from the
argument (``_forwarded``), and the written element, where every iteration writes it, is
held in a private value through the iteration (``_held``: V1's ``C[i*DIM+j] +=``).
"""
from __future__ import annotations

from dataclasses import dataclass

from pycparser import c_ast

from .. import cnodes as cn
from .. import types as ty
from ..literals import integer_value
from ..lower.effects import (UPDATES, assigned_lvalue, builtin_name, constant_dimension,
                             local_object, value_of_arguments, work_item_function)
from ..sema import Symbol
from ..checking.counted import counted
from ..typed_ast import copy_tree, fact, ids, make, map_children, substituted, walk
from .names import ELEMENT_SUFFIX

_INT_LIMIT = (1 << 31) - 1
_GID = "get_global_id(0)"          # the key of its factor in an affine form


@dataclass(frozen=True)
class Span:
    """The indices of one access of pointer argument ``param`` (or, with ``param``
    None, of an integer subexpression of an index): ``gid`` times the global id of
    dimension 0 plus a value from ``lo`` to ``hi``."""
    param: str | None
    gid: int
    lo: int
    hi: int


@dataclass(frozen=True)
class LoopDimension:
    """Kernel ``node`` with its last loop, over ``var``, as the global id of dimension
    1 on a range ``count`` wide; what the launch checks before it runs so."""
    var: str
    count: int
    node: c_ast.FuncDef
    spans: tuple            # Spans of the pointer arguments' accesses
    fits: tuple             # Spans (param None) that must stay within an int's range
    apart: tuple            # (written argument, other argument): their elements must not meet


def loop_as_dimension(k, hold: bool = True) -> LoopDimension | None:
    """Kernel model ``k``'s last loop as a dimension, where that is exact (above): of its
    function as lowering left it (in a checking build, before the checks went in: the
    new kernel is checked then). ``hold``: the written element may be held wherever
    ``_held`` allows; else (a checking build, whose checks must see the accesses the
    kernel makes) only where the iteration reads it first anyway."""
    if not k.group_blind or k.info.globals:
        return None     # (program-scope variables: memory no argument spans)
    func = k.unchecked or k.info.node
    return _as_dimension(_forwarded(func) or func, hold)


def _as_dimension(func: c_ast.FuncDef, hold: bool) -> LoopDimension | None:
    body = func.body.block_items or []
    if not body or not isinstance(body[-1], c_ast.For):
        return None
    gids = [n for n in walk(func.body) if work_item_function(n) is not None]
    if not gids or any(builtin_name(n) != "get_global_id" or constant_dimension(n) != 0
                       for n in gids):
        return None
    loop, before = body[-1], body[:-1]
    header = _counted(loop)
    if header is None or header[1] != 0 or header[2] < 1:
        return None
    var, _, count = header
    params = _params(func)
    declared = [n.name for n in walk(func.body) if isinstance(n, c_ast.Decl)]
    if len(declared) != len(set(declared)) or set(declared) & set(params):
        return None             # (a name for one variable only: no shadowing)
    defined = _invariants(before, params)
    if defined is None:
        return None
    facts = _Iteration(loop.stmt, var, params, defined)
    if not facts.ok:
        return None
    analysis = _Indices(var, count, facts.counters, defined)
    spans, written = [], {}
    for ref, writes in facts.accesses:
        form = analysis.form(ref.subscript)
        if form is None:
            return None
        name = ref.name.name
        if name in facts.written:
            other = written.setdefault(name, form)
            if other != form or not form.get(var) or set(form) - {var, _GID, 1}:
                return None     # one element an iteration, a different one each
        spans.append(analysis.span(name, form))
    if not facts.written or analysis.failed:
        return None
    touched = sorted({s.param for s in spans})
    apart = tuple((w, p) for w in sorted(facts.written) for p in touched
                  if p != w and (p not in facts.written or p > w))
    node = _with_dimension(func, var)
    for name in sorted(facts.written):
        body = node.body.block_items[-1]
        if hold or _read_first(body, name):
            _held(body, name)
    return LoopDimension(var, count, node, tuple(spans),
                         tuple(dict.fromkeys(analysis.fits)), apart)


def _params(func: c_ast.FuncDef) -> dict:
    return {p.name: p for p in func.decl.type.args.params
            if isinstance(p, c_ast.Decl) and p.name}


def _forwarded(func: c_ast.FuncDef) -> c_ast.FuncDef | None:
    """A copy of kernel ``func`` whose private arrays that copy an argument's elements
    (``for (k = 0; k < DIM; k++) Al[k] = A[i*DIM+k];``, the lecture's V5 and Try 1) are
    read from the argument (``A[i*DIM+k]`` for ``Al[k]``), the copies gone; None where
    there is none. Exact where no store meets the copied elements between the copy and
    the reads: the new kernel's entry checks that the elements its loop writes are
    apart from every other argument's (so not for the kernel as written)."""
    func = copy_tree(func)
    params = _params(func)
    arrays = [n for n in walk(func.body) if isinstance(n, c_ast.Decl) and
              isinstance(fact(n, "ty"), ty.Array)]
    done = [a for a in arrays if _forward(func, a, params, {
        id(c): n for n in walk(func.body) for _, c in n.children()})]
    return func if done else None


def _forward(func, decl, params: dict, parents: dict) -> bool:
    """Forward private array ``decl``'s copy (``_forwarded``), where it is the one
    store into the array, a loop of constant bounds, and every other use a read of an
    element it copied, after it, in a loop over those elements."""
    name = decl.name
    uses = [n for n in walk(func.body) if isinstance(n, c_ast.ID) and n.name == name]
    refs = [parents.get(id(u)) for u in uses]
    if any(not isinstance(r, c_ast.ArrayRef) or r.name is not u for r, u in zip(refs, uses)):
        return False
    stores = [r for r in refs if _is_target(parents.get(id(r)), r)]
    if len(stores) != 1:
        return False
    store = parents[id(stores[0])]
    loop = parents.get(id(store))
    if isinstance(loop, c_ast.Compound) and len(loop.block_items or []) == 1:
        loop = parents.get(id(loop))
    header = _counted(loop) if isinstance(loop, c_ast.For) else None
    source = store.rvalue if isinstance(store, c_ast.Assignment) and store.op == "=" \
        else None
    if header is None or not _is_id(stores[0].subscript, header[0]) or \
            not isinstance(source, c_ast.ArrayRef) or not isinstance(source.name, c_ast.ID) \
            or source.name.name not in params or not _pure_value(source.subscript):
        return False
    counter, first, end = header
    block, holder = parents.get(id(loop)), parents.get(id(decl))
    kept = fact(stores[0], "ty")
    if not isinstance(block, c_ast.Compound) or not isinstance(holder, c_ast.Compound) or \
            kept is None or kept != fact(source, "ty"):
        return False        # (a copy that converts keeps its values' type: not forwarded)
    items = block.block_items
    at = next(i for i, s in enumerate(items) if s is loop)
    later = items[at + 1:]
    # the copy's index reads the same values at each read: its names unassigned after it
    names = ids(source.subscript) - {counter}
    if any(_assigns(n, v) for s in later for n in walk(s) for v in names):
        return False
    reads = [r for r in refs if r is not stores[0]]
    for r in reads:
        inside = _enclosing(r, parents, later)
        if inside is None or not _within(r.subscript, inside, first, end):
            return False
    for r in reads:
        new = copy_tree(source)
        new.subscript = substituted(new.subscript, counter, r.subscript)
        map_children(parents[id(r)], lambda c, r=r, new=new: new if c is r else c)
    block.block_items = [s for s in items if s is not loop]
    holder.block_items = [s for s in holder.block_items if s is not decl]
    return True


def _is_target(parent, node) -> bool:
    """``node`` is what ``parent`` writes, or whose address it takes."""
    return assigned_lvalue(parent) is node or \
        isinstance(parent, c_ast.UnaryOp) and parent.op == "&"


def _enclosing(node, parents: dict, later: list) -> list | None:
    """The For loops around ``node``, innermost first, where it lies in one of the
    statements ``later``; None elsewhere."""
    loops, n = [], node
    while id(n) in parents:
        n = parents[id(n)]
        if isinstance(n, c_ast.For):
            loops.append(n)
        if any(n is s for s in later):
            return loops
    return None


def _within(index, loops: list, first: int, end: int) -> bool:
    """``index`` a counter of one of ``loops`` whose values lie in [first, end) (a
    constant: itself)."""
    c = _int_constant(index)
    if c is not None:
        return first <= c < end
    for loop in loops:
        header = _counted(loop)
        if header is not None and _is_id(index, header[0]):
            return first <= header[1] and header[2] <= end
    return False


def _int_constant(node) -> int | None:
    if isinstance(node, c_ast.Constant) and node.type in ("int", "unsigned int", "long",
                                                           "unsigned long"):
        try:
            return integer_value(node.value)
        except ValueError:
            return None
    return None


def _counted(loop) -> tuple | None:
    """(counter, first, end) of a loop that counts one by one between constants, its
    body neither changing the counter nor jumping (checking/counted.py's rules; a
    counter's address is not taken here: the iteration and the statements before the
    loop take none)."""
    c = counted(loop, set())
    return None if c is None else (c.name, c.first, c.end)


def _is_id(node, name: str) -> bool:
    return isinstance(node, c_ast.ID) and node.name == name


def _integer(t) -> bool:
    """An integer type of at least 32 bits (whose arithmetic on an int's range does not
    wrap)."""
    return isinstance(t, ty.Scalar) and t.kind == "int" and t.bits >= 32


def _invariants(before: list, params: dict) -> dict | None:
    """The private values the statements before the loop define: name -> its one
    value (None for one assigned more than once); None where those statements do more
    than compute private values without reading memory."""
    defined: dict = {}
    for stmt in before:
        if isinstance(stmt, c_ast.Decl):
            if isinstance(fact(stmt, "ty"), ty.Array) or stmt.name is None:
                return None
            if stmt.init is not None:
                defined[stmt.name] = stmt.init if stmt.name not in defined else None
            value = stmt.init
        elif isinstance(stmt, c_ast.Assignment) and stmt.op == "=" and \
                isinstance(stmt.lvalue, c_ast.ID) and stmt.lvalue.name not in params:
            name = stmt.lvalue.name
            defined[name] = stmt.rvalue if name not in defined else None
            value = stmt.rvalue
        else:
            return None
        if value is not None and not _pure_value(value):
            return None
    return defined


def _pure_value(node) -> bool:
    """An expression of values only: no assignment, no memory read, no call but of
    get_global_id(0) and functions of their arguments."""
    for n in walk(node):
        if isinstance(n, (c_ast.Assignment, c_ast.ArrayRef)) or \
                isinstance(n, c_ast.UnaryOp) and n.op in UPDATES + ("*", "&") or \
                isinstance(n, c_ast.StructRef) and n.type == "->":
            return False
        if isinstance(n, c_ast.FuncCall) and not value_of_arguments(n) and \
                builtin_name(n) != "get_global_id":
            return False
    return True


class _Iteration:
    """What one iteration of the loop body ``stmt`` does: ``accesses`` ((ArrayRef of a
    pointer argument, writes)), ``written`` arguments, ``counters`` (inner loops'
    counter -> (least, most) values); ``ok`` where it does nothing else that ties one
    iteration to another."""

    def __init__(self, stmt, var: str, params: dict, defined: dict):
        self.accesses, self.written, self.counters = [], set(), {}
        self.ok = self._scan(stmt, var, params) and self._privates(stmt, var, params, defined)

    def _scan(self, stmt, var: str, params: dict) -> bool:
        targets = {}
        for n in walk(stmt):
            if isinstance(n, (c_ast.Return, c_ast.Goto, c_ast.Label, c_ast.Switch)) or \
                    isinstance(n, c_ast.UnaryOp) and n.op in ("&", "*") or \
                    isinstance(n, c_ast.StructRef) and n.type == "->":
                return False
            if isinstance(n, c_ast.FuncCall) and not value_of_arguments(n):
                return False
            if isinstance(n, c_ast.ArrayRef):
                base = n.name
                t = fact(base, "ty")
                if not isinstance(base, c_ast.ID) or base.name not in params or \
                        not isinstance(t, ty.Pointer) or t.volatile:
                    return False
            target = assigned_lvalue(n)
            if target is not None:
                if isinstance(target, c_ast.ArrayRef):
                    targets[id(target)] = target
                    self.written.add(target.name.name)
                elif not isinstance(target, c_ast.ID) or target.name in params or \
                        target.name == var or not local_object(target):
                    return False
        self.accesses = [(n, id(n) in targets) for n in walk(stmt)
                         if isinstance(n, c_ast.ArrayRef)]
        return True

    def _privates(self, stmt, var: str, params: dict, defined: dict) -> bool:
        """Each private variable the iteration assigns (declared before the loop) is
        assigned before it is read, in every iteration: by a statement of the body's
        top level, or as the counter of inner loops that every use is inside."""
        inside = {n.name for n in walk(stmt) if isinstance(n, c_ast.Decl)}
        assigned = set()
        for n in walk(stmt):
            target = assigned_lvalue(n)
            if isinstance(target, c_ast.ID):
                assigned.add(target.name)
        items = stmt.block_items or [] if isinstance(stmt, c_ast.Compound) else [stmt]
        for name in sorted(assigned):
            if name in defined:
                defined[name] = None        # (no value of the loop's for an index)
            counter = self._counter(stmt, name)
            if counter is not None:
                self.counters[name] = counter
            elif name not in inside and not _killed_first(items, name):
                return False
        return True

    @staticmethod
    def _counter(stmt, name: str) -> tuple | None:
        """(least, most) of ``name`` where it is assigned only as the counter of inner
        loops ``for (name = a; name < b; ...)`` (constant a >= 0 and b, a step of 1)
        and every use of it is inside one."""
        loops = [n for n in walk(stmt) if isinstance(n, c_ast.For) and
                 (_counted(n) or (None,))[0] == name]
        if not loops:
            return None
        covered = {id(x) for loop in loops for x in walk(loop)}
        if any(isinstance(n, c_ast.ID) and n.name == name and id(n) not in covered
               for n in walk(stmt)):
            return None
        firsts = [_counted(loop)[1] for loop in loops]
        ends = [_counted(loop)[2] for loop in loops]
        if min(firsts) < 0:
            return None
        return min(firsts), max(ends + firsts)


def _assigns(node, name: str) -> bool:
    return _is_id(assigned_lvalue(node), name)


def _killed_first(items: list, name: str) -> bool:
    """The first statement of ``items`` that names ``name`` assigns it a value that
    does not read it."""
    for item in items:
        if name not in ids(item):
            continue
        init = item.init if isinstance(item, c_ast.For) else item
        return isinstance(init, c_ast.Assignment) and init.op == "=" and \
            _is_id(init.lvalue, name) and name not in ids(init.rvalue)
    return True


class _Indices:
    """Indices as affine forms ({variable or _GID or 1: factor}) of the global id, the
    loop's counter and the inner loops' counters; the integer subexpressions' spans go
    to ``fits``, a form that is not one sets ``failed``."""

    def __init__(self, var: str, count: int, counters: dict, defined: dict):
        self.ranges = {var: (0, count - 1), **counters}
        self.defined, self.fits, self.failed = defined, [], False
        self.memo: dict = {}

    def form(self, node) -> dict | None:
        f = self._form(node)
        if f is None:
            self.failed = True
        return f

    def _form(self, node) -> dict | None:
        t = cn.expression_type(node)
        if not _integer(t):
            return None
        f = self._affine(node)
        if f is None or any(abs(c) > _INT_LIMIT for c in f.values()):
            return None
        if not t.signed and any(c < 0 for c in f.values()):
            return None         # (an unsigned value that could wrap below 0)
        s = self.span(None, f)
        if max(abs(s.lo), abs(s.hi)) > _INT_LIMIT:
            return None
        self.fits.append(s)
        return f

    def _affine(self, node) -> dict | None:
        c = _int_constant(node)
        if c is not None:
            return {1: c} if c else {}
        if isinstance(node, c_ast.ID):
            if node.name in self.ranges:
                return {node.name: 1}
            value = self.defined.get(node.name)
            if value is None or node.name in self.memo and self.memo[node.name] is None:
                return None
            if node.name not in self.memo:
                self.memo[node.name] = None     # (a value that names itself: none)
                self.memo[node.name] = self._form(value)
            return self.memo[node.name]
        if isinstance(node, c_ast.FuncCall):
            if builtin_name(node) == "get_global_id" and constant_dimension(node) == 0:
                return {_GID: 1}
            return None
        if isinstance(node, c_ast.Cast):
            return self._form(node.expr)
        if isinstance(node, c_ast.UnaryOp) and node.op in ("-", "+"):
            f = self._form(node.expr)
            return None if f is None else {v: -c if node.op == "-" else c
                                           for v, c in f.items()}
        if isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-", "*"):
            a, b = self._form(node.left), self._form(node.right)
            if a is None or b is None:
                return None
            if node.op == "*":
                if set(a) <= {1}:
                    a, b = b, a
                if not set(b) <= {1}:
                    return None
                return {v: c * b.get(1, 0) for v, c in a.items() if c * b.get(1, 0)}
            sign = -1 if node.op == "-" else 1
            out = dict(a)
            for v, c in b.items():
                out[v] = out.get(v, 0) + sign * c
            return {v: c for v, c in out.items() if c}
        return None

    def span(self, param: str | None, form: dict) -> Span:
        lo = hi = form.get(1, 0)
        for v, c in form.items():
            if v in self.ranges:
                a, b = self.ranges[v]
                lo += min(c * a, c * b)
                hi += max(c * a, c * b)
        return Span(param, form.get(_GID, 0), lo, hi)


def _with_dimension(func: c_ast.FuncDef, var: str) -> c_ast.FuncDef:
    """A copy of kernel ``func`` whose last loop's counter ``var`` is the global id of
    dimension 1: the loop's body, after the counter's first value replaced by it."""
    func = copy_tree(func)
    items = func.body.block_items
    loop = items[-1]
    gid = copy_tree(next(n for n in walk(func.body) if constant_dimension(n) == 0))
    one = copy_tree(gid.args.exprs[-1])
    one.value = "1"
    gid.args.exprs[-1] = one
    init = loop.init
    if isinstance(init, c_ast.DeclList):
        first = init.decls
        first[0].init = gid
    else:
        init.rvalue = gid
        first = [init]
    body = loop.stmt if isinstance(loop.stmt, c_ast.Compound) else \
        c_ast.Compound([loop.stmt], loop.stmt.coord)
    func.body.block_items = items[:-1] + first + [body]
    return func


def _held(body: c_ast.Compound, name: str) -> None:
    """Argument ``name``'s one element of the iteration held in a private value through
    ``body`` (the loop's body, as the new kernel has it): read into it first, written
    back last, as ``sum`` is in V2 (the register tiles then hold it: the lecture's V1).
    Only where the body reads the element (a store alone needs no holding) and writes
    it in every iteration: the first read then
    reads memory the iteration writes anyway (and the entry has found no other argument
    there), and the last write stores what the iteration would have left."""
    refs = [n for n in walk(body) if isinstance(n, c_ast.ArrayRef) and
            _is_id(n.name, name)]
    t = fact(refs[0], "ty")
    read = any(not (isinstance(p, c_ast.Assignment) and p.op == "=" and p.lvalue is r)
               for p in walk(body) for _, r in p.children() if any(r is x for x in refs))
    if not read or not isinstance(t, (ty.Scalar, ty.Vector)) or not any(
            _sure_write(n, name) for n in _sure_statements(body)):
        return      # (an element only stored needs no holding)
    held = name + ELEMENT_SUFFIX
    symbol = Symbol(held, t, "var")

    def ident():
        node = make(c_ast.ID, held, refs[0].coord)
        node.ty, node.symbol = t, symbol
        return node
    held_refs = {id(r) for r in refs}
    for parent in list(walk(body)):
        map_children(parent, lambda c: ident() if id(c) in held_refs else c)
    decl = make(c_ast.Decl, held, [], [], [], [], cn.declarator(t, held, refs[0].coord),
                copy_tree(refs[0]), None, coord=refs[0].coord)
    decl.ty, decl.space = t, "private"
    store = make(c_ast.Assignment, "=", copy_tree(refs[0]), ident(), refs[0].coord)
    store.ty = t
    body.block_items = [decl] + (body.block_items or []) + [store]


def _read_first(stmt, name: str) -> bool:
    """The first statement of loop body ``stmt`` that accesses argument ``name`` runs in
    every iteration and reads it (``C[i*DIM+j] += ...`` in a loop that runs): the held
    element's first read is then the kernel's own."""
    for s in _sure_statements(stmt):
        if isinstance(s, c_ast.Compound):
            continue
        if isinstance(s, c_ast.For):
            header = _counted(s)
            runs = header is not None and header[1] < header[2]
            if any(_mentions(part, name) for part in (s.init, s.cond, s.next)) or \
                    not runs and _mentions(s, name):
                return False
            continue        # (its body's statements come next)
        if not _mentions(s, name):
            continue
        reads = isinstance(s, c_ast.Assignment) and (
            s.op != "=" and _is_target(s, s.lvalue) and
            isinstance(s.lvalue, c_ast.ArrayRef) and _is_id(s.lvalue.name, name) or
            _mentions(s.rvalue, name)) or \
            isinstance(s, c_ast.UnaryOp) and s.op in UPDATES
        return reads
    return False


def _mentions(node, name: str) -> bool:
    return node is not None and any(isinstance(n, c_ast.ArrayRef) and _is_id(n.name, name)
                                    for n in walk(node))


def _sure_statements(stmt):
    """The statements of ``stmt`` that run in every run of it: its own, a block's, and
    those of loops with constant bounds that run at least once."""
    yield stmt
    if isinstance(stmt, c_ast.Compound):
        for item in stmt.block_items or []:
            yield from _sure_statements(item)
    elif isinstance(stmt, c_ast.For):
        header = _counted(stmt)
        if header is not None and header[1] < header[2]:
            yield from _sure_statements(stmt.stmt)


def _sure_write(stmt, name: str) -> bool:
    target = stmt.lvalue if isinstance(stmt, c_ast.Assignment) else \
        stmt.expr if isinstance(stmt, c_ast.UnaryOp) and stmt.op in UPDATES else None
    return isinstance(target, c_ast.ArrayRef) and _is_id(target.name, name)
