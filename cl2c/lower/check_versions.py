"""Checking builds: a fast version of each checked work-item loop whose checks a test
before the loop can settle (loop versioning).

Checking mode (checks.py) wraps every access to a buffer argument in a check whose
out-of-line report keeps the compiler from vectorising the work-item loop of the regions
schedule: a matrix multiply ran 60x slower than its normal build. Where every check in
such a loop is

- a bounds-only read (an argument the kernel never writes, CL2C_CK_ARG_READ), or
- a store that every work-item of the loop makes once (a statement of the loop's body,
  which has no jumps; CL2C_CK_ARG_STORE), one per buffer,

at an index affine in the local id 0, the accesses of the whole loop lie between those of
its first and its last work-item. A test of those two (and of a second, which proves the
steps even: no wrap of the index's arithmetic between them) before the loop picks

    if (all in range, stores fresh)  #pragma omp simd  for (...) { unchecked }  marks
    else                             for (...) { the body, checked }

A store's test (cl2c_ck_fresh) also asks that no access of this launch touched its
elements yet, and that work-items store to granules of their own; then it races with
nothing so far, and after the loop cl2c_ck_mark writes the shadow words its checks would
have written, for the later accesses' checks. The checked loop reports, as before, what
is out of range or races, with its work-item.

The index's value at a work-item is computed by replaying, for that work-item, the
declarations at the head of the loop's body that it uses: integer arithmetic (+, -, *,
shifts by constants, casts), work-item ids, values the loop does not change; nothing
that reads memory, divides or calls a function runs early.
"""
from __future__ import annotations

import copy

from pycparser import c_ast

from ..typed_ast import fact, walk
from . import cnodes as cn
from .effects import builtin_name, work_item_function
from .regions.syntax import base_ids, ids, replace_child, statements
from .workitems import LOCALS

COUNTER = "cl2c_l0"
READ, STORE, LREAD = "CL2C_CK_ARG_READ", "CL2C_CK_ARG_STORE", "CL2C_CK_LREAD"
INDEX = "CL2C_CK_INDEX"
THREAD = "cl2c_ck_t"
ITEM = "cl2c_ck_item"
FAST, AT, IX, POINT = "cl2c_ck_fast", "cl2c_ck_at", "cl2c_ck_ix", "cl2c_ck_j"
# integer types a variant index may pass through (the runtime's and C's spellings)
_INT_NAMES = {"int", "unsigned", "long", "short", "char", "signed", "size_t", "ptrdiff_t",
              "intptr_t", "uintptr_t", "cl2c_uint", "cl2c_long", "cl2c_ulong", "cl2c_ushort",
              "cl2c_char", "cl2c_uchar", "cl2c_short"}
_INT_CONSTANTS = ("int", "unsigned int", "long int", "unsigned long int", "long long int",
                  "unsigned long long int", "char")
# names the schedule's own code gives integer values (regions/writer.py, bounds.py)
_GENERATED_INTS = ("cl2c_ls0", "cl2c_ls1", "cl2c_ls2", "cl2c_l1", "cl2c_l2", "cl2c_lo",
                   "cl2c_hi", "cl2c_i", "cl2c_nwi")


def version_checked_loops(func: c_ast.FuncDef, helpers: dict) -> int:
    """Give each work-item loop of work-group function ``func`` that allows it a fast
    version (above); returns how many. ``helpers``: {name: FuncDef} of the functions
    it may call (a call of one with checks of its own keeps a loop as it is)."""
    taken = ids(func.body)
    checked = _checked_functions(helpers)
    if any(n in taken for n in (FAST, AT, IX, POINT)):
        return 0
    done = 0
    for block in list(walk(func.body)):
        if not isinstance(block, c_ast.Compound):
            continue
        items = block.block_items or []
        for i in range(len(items) - 1):
            if _is_simd(items[i]) and isinstance(items[i + 1], c_ast.For):
                versioned = _Loop(items[i + 1], checked).versioned()
                if versioned is not None:
                    items[i:i + 2] = [versioned, c_ast.EmptyStatement()]
                    done += 1
                elif _has_checks(items[i + 1]):
                    # its checks' reports keep it from vectorising (and clang warns
                    # of an omp simd loop it cannot vectorise)
                    items[i] = c_ast.EmptyStatement()
        block.block_items = [s for s in items if not isinstance(s, c_ast.EmptyStatement)]
    return done


def _is_simd(s) -> bool:
    return isinstance(s, c_ast.Pragma) and s.string.strip() == "omp simd"


class _Loop:
    """One ``for (int cl2c_l0 = LO; cl2c_l0 < HI; ++cl2c_l0) { head; body }``."""

    def __init__(self, loop: c_ast.For, checked: set):
        self.loop = loop
        self.checked = checked                    # functions with checks
        self.defs: dict[str, c_ast.Decl] = {}     # replayable head declarations
        self.degree: dict[str, int | None] = {}   # of each, in the counter

    def versioned(self):
        loop = self.loop
        init = loop.init
        if not (isinstance(init, c_ast.DeclList) and len(init.decls) == 1 and
                init.decls[0].name == COUNTER and isinstance(loop.cond, c_ast.BinaryOp) and
                loop.cond.op == "<" and _is_id(loop.cond.left, COUNTER)):
            return None
        body = statements(loop.stmt)
        top = {id(s) for s in body}
        checks = []
        for n in walk(loop.stmt):
            if isinstance(n, c_ast.FuncCall) and (
                    _called(n) in (READ, LREAD) or _called(n) == STORE and id(n) in top):
                checks.append(n)
        if not checks:
            return None
        self._definitions(body)
        accesses = [self._access(c) for c in checks]
        if any(a is None for a in accesses):
            return None
        check_ids = {id(c) for c in checks}
        indices = {id(x) for a in accesses for x, _ in a.indices}
        for n in walk(loop.stmt):
            if isinstance(n, c_ast.FuncCall):
                name = _called(n)
                if id(n) in check_ids or name == ITEM or name == INDEX and id(n) in indices:
                    continue
                if name.lower().startswith("cl2c_ck") or name in self.checked:
                    return None     # another check, or a function with checks of its own
            elif isinstance(n, c_ast.ID) and n.name.startswith("cl2c_cks_"):
                return None         # checks of uninitialised privates
            elif isinstance(n, (c_ast.Continue, c_ast.Break, c_ast.Goto, c_ast.Return,
                                c_ast.Label)):
                return None         # a store then might not run for every work-item
        stored = [a.range for a in accesses if a.kind == STORE]
        if len(stored) != len(set(stored)):
            return None             # two stores to one buffer: their work-items may meet
        return self._rewrite(accesses)

    def _access(self, call: c_ast.FuncCall):
        """The _Access of a check, if its address is affine in the counter."""
        args = call.args.exprs
        kind = _called(call)
        if not (args and isinstance(args[0], c_ast.ID)):
            return None
        if kind == STORE and not (len(args) == 5 and _const(args[2]) in (0, 1)):
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
            if isinstance(sub, c_ast.FuncCall) and _called(sub) == INDEX:
                i, n = sub.args.exprs[0], sub.args.exprs[1]
                if self._degree(i) is None or self._degree(n) != 0:
                    return None
                indices.append((sub, n))
            elif self._degree(sub) is None:
                return None
            e = e.name
        base_ok = isinstance(e, c_ast.ID) and e.name not in self.changed and \
            e.name not in self.defs and not e.name.startswith("cl2c_ck") or \
            isinstance(e, c_ast.StructRef) and e.type == "->" and _is_id(e.name, LOCALS)
        if not base_ok:
            return None
        local = kind == LREAD or kind == STORE and _const(args[2]) == 1
        return _Access(kind, args[0].name, target, indices, local,
                       args[4] if kind == STORE else None)

    # -- which values of the loop are affine in the counter
    def _definitions(self, body) -> None:
        changed = _changed_names(self.loop.stmt)
        for s in body:
            if isinstance(s, c_ast.Decl):
                if s.init is not None and s.name not in changed and \
                        isinstance(s.type, c_ast.TypeDecl) and s.name not in self.defs:
                    self.defs[s.name] = s
            elif not _is_item_call(s):
                break
        declared = [n.name for n in walk(self.loop.stmt) if isinstance(n, c_ast.Decl)]
        for name in {n for n in declared if declared.count(n) > 1}:
            self.defs.pop(name, None)       # declared again in an inner block
        self.changed = changed | (set(declared) - set(self.defs))

    def _degree(self, x) -> int | None:
        """0: the same for every work-item of the loop; 1: affine in the counter; None:
        neither, or not integer arithmetic, or not safe to compute ahead."""
        if isinstance(x, c_ast.Constant):
            return 0 if x.type in _INT_CONSTANTS else None
        if isinstance(x, c_ast.ID):
            return self._id_degree(x)
        if isinstance(x, c_ast.Cast):
            return self._degree(x.expr) if _integer_typename(x.to_type) else None
        if isinstance(x, c_ast.UnaryOp) and x.op in ("-", "+"):
            return self._degree(x.expr)
        if isinstance(x, c_ast.BinaryOp):
            a, b = self._degree(x.left), self._degree(x.right)
            if a is None or b is None:
                return None
            if x.op in ("+", "-"):
                return max(a, b)
            if x.op == "*":
                return a + b if a + b <= 1 else None
            if x.op == "<<" and isinstance(x.right, c_ast.Constant):
                return a
            return None
        if isinstance(x, c_ast.FuncCall):
            args = x.args.exprs if x.args else []
            if builtin_name(x) in ("get_local_id", "get_global_id") and len(args) == 2 and \
                    isinstance(args[1], c_ast.Constant):
                return 1 if args[1].value.rstrip("uU") == "0" else 0
            return 0 if work_item_function(x) == "group" else None
        return None

    def _id_degree(self, x: c_ast.ID) -> int | None:
        name = x.name
        if name == COUNTER:
            return 1
        if name in self.defs:
            if name not in self.degree:
                self.degree[name] = None            # (a cycle: none)
                self.degree[name] = self._degree(self.defs[name].init) \
                    if _integer_decl(self.defs[name]) else None
            return self.degree[name]
        if name in self.changed or name.startswith("cl2c_ck"):
            return None
        t = fact(x, "ty")
        if t is not None:
            return 0 if t.is_scalar and t.is_integer else None
        return 0 if name in _GENERATED_INTS or name.endswith("__base") else None

    # -- the two versions
    def _rewrite(self, accesses) -> c_ast.Compound:
        loop = self.loop
        lo = copy.deepcopy(loop.init.decls[0].init)
        hi = copy.deepcopy(loop.cond.right)
        checked = copy.deepcopy(loop)
        fast = copy.deepcopy(loop)
        fast.stmt = c_ast.Compound([s for s in statements(fast.stmt) if not _is_item_call(s)])
        _unchecked(fast.stmt)
        k = len(accesses)
        indices = [(x, n) for a in accesses for x, n in a.indices]
        used = set().union(*(ids(a.target) for a in accesses))
        replay = [copy.deepcopy(d) for name, d in self.defs.items() if name in self._needed(used)]
        point = cn.call("cl2c_ck_point", lo, copy.deepcopy(hi), cn.ident(POINT))
        counter = _decl("const int", COUNTER, point)
        counter.funcspec = ["CL2C_UNUSED"]      # (an index the same for every work-item)

        def slot(array, p, j):
            return c_ast.ArrayRef(c_ast.ArrayRef(cn.ident(array), p), cn.const_int(j))
        probe_body = [counter] + replay
        for j, a in enumerate(accesses):
            address = _unchecked_copy(a.target)
            probe_body.append(c_ast.Assignment("=", slot(AT, cn.ident(POINT), j),
                                               c_ast.Cast(_char_ptr(), address)))
        for q, (x, _) in enumerate(indices):
            probe_body.append(c_ast.Assignment("=", slot(IX, cn.ident(POINT), q), c_ast.Cast(
                _long_long(), _unchecked_copy(x.args.exprs[0]))))
        probe = _parse_stmt(f"for (int {POINT} = 0; {POINT} < 3; ++{POINT}) {{}}")
        probe.stmt = c_ast.Compound(probe_body)
        steps = c_ast.BinaryOp("-", c_ast.BinaryOp("-", copy.deepcopy(hi), copy.deepcopy(lo)),
                               cn.const_int(1))
        first = c_ast.BinaryOp("+", c_ast.Cast(_size_t(), copy.deepcopy(lo)), _parse_expr(
            "cl2c_ls0 * (cl2c_l1 + cl2c_ls1 * cl2c_l2)"))
        tests, marks = [], []
        for j, a in enumerate(accesses):
            at = [slot(AT, cn.const_int(p), j) for p in range(3)]
            size = c_ast.UnaryOp("sizeof", _element(a.target.expr))
            where = [cn.ident(a.range), *at, copy.deepcopy(steps), size]
            if a.kind == STORE:
                local = cn.const_int(int(a.local))
                tests.append(cn.call("cl2c_ck_fresh", cn.ident(THREAD), *copy.deepcopy(where),
                                     local, copy.deepcopy(first)))
                marks.append(cn.call("cl2c_ck_mark", cn.ident(THREAD), *copy.deepcopy(where),
                                     copy.deepcopy(local), copy.deepcopy(first)))
            elif a.kind == LREAD:
                tests.append(cn.call("cl2c_ck_inited", cn.ident(THREAD), *where))
            else:
                tests.append(cn.call("cl2c_ck_in_range", *where))
        for q, (_, n) in enumerate(indices):
            tests.append(cn.call("cl2c_ck_index_in", *[slot(IX, cn.const_int(p), q)
                                                       for p in range(3)],
                                 copy.deepcopy(steps), copy.deepcopy(n)))
        test = tests[0]
        for t in tests[1:]:
            test = c_ast.BinaryOp("&&", test, t)
        # (set for every point by the probe; zeros first, which GCC cannot see)
        decls = _parse_decls(f"const char *{AT}[3][{k}] = {{{{0}}}};")
        if indices:
            decls += _parse_decls(f"long long {IX}[3][{len(indices)}] = {{{{0}}}};")
        fast_decl = _decl("int", FAST, c_ast.BinaryOp(">=", copy.deepcopy(lo), copy.deepcopy(hi)))
        fill = c_ast.If(c_ast.UnaryOp("!", cn.ident(FAST)), c_ast.Compound(
            [probe, c_ast.Assignment("=", cn.ident(FAST), test)]), None)
        choice = c_ast.If(cn.ident(FAST),
                          c_ast.Compound([c_ast.Pragma("omp simd"), fast] + marks),
                          c_ast.Compound([checked]))
        return c_ast.Compound(decls + [fast_decl, fill, choice])

    def _needed(self, names: set) -> set:
        """The head declarations ``names`` depend on, transitively."""
        out, todo = set(), [n for n in names if n in self.defs]
        while todo:
            n = todo.pop()
            if n not in out:
                out.add(n)
                todo += [m for m in ids(self.defs[n].init) if m in self.defs]
        return out


class _Access:
    """A check of a loop's fast version: its kind (READ, LREAD, STORE), the range it
    checks against (cl2c_ck_a_X, cl2c_ck_l_F), ``&E`` and its checked indices
    ((CL2C_CK_INDEX call, length)), whether the memory is __local, the stored value."""

    def __init__(self, kind, range_name, target, indices, local, value):
        self.kind, self.range, self.target = kind, range_name, target
        self.indices, self.local, self.value = indices, local, value


def _unchecked(body) -> None:
    """The checks of a fast version go: ``*CL2C_CK_ARG_READ(A, &E, site)`` and
    ``*CL2C_CK_LREAD(A, &E, site)`` become ``*&E`` (the access itself),
    ``CL2C_CK_ARG_STORE(A, &E, local, site, v)`` becomes ``*&E = v`` and
    ``CL2C_CK_INDEX(i, n, site)`` ``i``."""
    for n in list(walk(body)):
        for name, child in n.children():
            if not isinstance(child, c_ast.FuncCall):
                continue
            called, args = _called(child), (child.args.exprs if child.args else [])
            if called in (READ, LREAD):
                replace_child(n, name, args[1])
            elif called == STORE:
                replace_child(n, name, c_ast.Assignment(
                    "=", c_ast.UnaryOp("*", args[1]), args[4], child.coord))
            elif called == INDEX:
                replace_child(n, name, args[0])


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


def _changed_names(body) -> set:
    """Variables ``body`` assigns, increments or takes the address of (``&a[i]`` does
    not change the pointer ``a``)."""
    out = set()
    for n in walk(body):
        if isinstance(n, c_ast.Assignment):
            out |= base_ids(n.lvalue)
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--"):
            out |= base_ids(n.expr)
        elif isinstance(n, c_ast.UnaryOp) and n.op == "&" and \
                not isinstance(n.expr, c_ast.ArrayRef):
            out |= base_ids(n.expr)
    return out


def _has_checks(node) -> bool:
    return any(isinstance(n, c_ast.FuncCall) and _called(n).lower().startswith("cl2c_ck")
               for n in walk(node))


def _called(n: c_ast.FuncCall) -> str:
    return n.name.name if isinstance(n.name, c_ast.ID) else ""


def _checked_functions(helpers: dict) -> set:
    """The functions of ``helpers`` that check something, or call one that does."""
    def own(body) -> bool:
        return any(isinstance(n, c_ast.FuncCall) and _called(n).lower().startswith("cl2c_ck")
                   or isinstance(n, c_ast.ID) and n.name.startswith("cl2c_cks_")
                   for n in walk(body))
    checked = {name for name, f in helpers.items() if own(f.body)}
    grew = True
    while grew:
        grew = False
        for name, f in helpers.items():
            if name not in checked and any(
                    isinstance(n, c_ast.FuncCall) and _called(n) in checked for n in walk(f.body)):
                checked.add(name)
                grew = True
    return checked


def _is_item_call(s) -> bool:
    return isinstance(s, c_ast.FuncCall) and _called(s) == ITEM


def _is_id(x, name: str) -> bool:
    return isinstance(x, c_ast.ID) and x.name == name


def _integer_typename(t) -> bool:
    ty = fact(t, "ty")
    if ty is not None:
        return ty.is_scalar and ty.is_integer
    inner = t.type
    return isinstance(inner, c_ast.TypeDecl) and \
        isinstance(inner.type, c_ast.IdentifierType) and \
        all(n in _INT_NAMES for n in inner.type.names)


def _integer_decl(d: c_ast.Decl) -> bool:
    t = fact(d, "ty")
    if t is not None:
        return t.is_scalar and t.is_integer
    inner = d.type
    return isinstance(inner, c_ast.TypeDecl) and \
        isinstance(inner.type, c_ast.IdentifierType) and \
        all(n in _INT_NAMES for n in inner.type.names)


def _const(x) -> int | None:
    if isinstance(x, c_ast.Constant) and x.type == "int":
        return int(x.value.rstrip("uUlL"))
    return None


def _long_long():
    return c_ast.Typename(None, [], None, c_ast.TypeDecl(
        None, [], None, c_ast.IdentifierType(["long", "long"])))


def _size_t():
    return c_ast.Typename(None, [], None, c_ast.TypeDecl(
        None, [], None, c_ast.IdentifierType(["size_t"])))


def _parse_expr(text: str):
    return _parse_decls(f"x = {text};")[0].rvalue


def _char_ptr():
    return c_ast.Typename(None, ["const"], None, c_ast.PtrDecl([], c_ast.TypeDecl(
        None, ["const"], None, c_ast.IdentifierType(["char"]))))


def _decl(type_text: str, name: str, init) -> c_ast.Decl:
    d = _parse_decls(f"{type_text} {name};")[0]
    d.init = init
    return d


def _parse_decls(text: str) -> list:
    from pycparser import CParser
    return CParser().parse(f"typedef unsigned long size_t; void f(void) {{ {text} }}"
                           ).ext[1].body.block_items


def _parse_stmt(text: str):
    return _parse_decls(text)[0]
