"""Lowering pass: the "regions" work-group schedule (loop fission at barriers).

A kernel with barriers becomes a *work-group function*: code that runs once per
group, in which the statements between barriers ("regions") become loops over
the work-items of the group. What runs once and what runs per work-item:

- Values the same for every work-item of the group (*uniform*: kernel
  arguments, group ids and sizes, loop counters of loops whose bounds are
  uniform) stay scalars and their statements run once per group.
- Loops and ``if`` statements with uniform headers that contain a barrier run
  at group level; the work-item loops go inside them. Uniform loops without
  barriers can be hoisted the same way, which is how a dot-product loop in a
  kernel becomes a vectorisable loop over work-items inside it.
- Private variables used on both sides of a cut live in per-work-item arrays,
  unless they are cheap to recompute from the local id (``int lid =
  get_local_id(0)``), in which case each region recomputes them.
- A guard of the form ``if (get_local_id(0) < s)`` around a whole region
  becomes the bounds of its work-item loop, so the loop has no control flow.

Kernels this cannot express (a barrier under a condition that is not provably
uniform, a ``break`` out of a hoisted loop from inside a region, ...) raise
``NeedFibers`` with the reason, and the schedule falls back to fibers.

The pass works on the lowered C AST: names are already the C names, and
work-item builtins are calls ``cl2c_get_local_id(CL2C_WI, d)``.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from pycparser import c_ast

from . import cnodes as cn

# Calls that are group-wide synchronisation points, by their C names.
BARRIERS = {"cl2c_barrier", "cl2c_barrier2", "cl2c_wait_group_events"}
COLLECTIVE_PREFIX = "cl2c_work_group_"
# Work-item functions whose value is the same for every work-item of a group.
UNIFORM_WI = {"cl2c_get_local_size", "cl2c_get_num_groups", "cl2c_get_group_id",
              "cl2c_get_global_size", "cl2c_get_work_dim", "cl2c_get_global_offset",
              "cl2c_get_enqueued_local_size"}
# ... and those that identify the work-item (values a region can recompute).
ID_WI = {"cl2c_get_local_id", "cl2c_get_global_id", "cl2c_get_local_linear_id",
         "cl2c_get_global_linear_id"}
# Runtime calls with effects or that read memory: never uniform.
_IMPURE_WORDS = ("atomic", "atom_", "async", "vload", "vstore", "prefetch", "fence",
                 "barrier", "wait_group", "fract", "modf", "frexp", "sincos", "remquo",
                 "lgamma_r", "work_group", "printf")

LID = ("cl2c_l0", "cl2c_l1", "cl2c_l2")
INDEX = "cl2c_i"          # the local linear id inside a work-item loop
COUNT = "cl2c_nwi"        # work-items in the group


class NeedFibers(Exception):
    """The kernel needs the fiber schedule; the message says why."""


# ---- small AST helpers -------------------------------------------------------------------

def call_name(node) -> str | None:
    if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID):
        return node.name.name
    return None


def _walk(node):
    yield node
    for _, child in node.children():
        yield from _walk(child)


def _stmts(node) -> list:
    if node is None:
        return []
    if isinstance(node, c_ast.Compound):
        return list(node.block_items or [])
    return [node]


def contains_sync(node, syncing_functions=frozenset()) -> bool:
    for n in _walk(node):
        name = call_name(n)
        if name and (name in BARRIERS or name.startswith(COLLECTIVE_PREFIX)
                     or name in syncing_functions):
            return True
    return False


def _ids(node) -> set:
    return {n.name for n in _walk(node) if isinstance(n, c_ast.ID)}


def _escaping_jumps(node, in_loop=False, in_switch=False):
    """break/continue statements in ``node`` that leave it, and every return."""
    if isinstance(node, c_ast.Return):
        yield node
        return
    if isinstance(node, c_ast.Break) and not (in_loop or in_switch):
        yield node
    if isinstance(node, c_ast.Continue) and not in_loop:
        yield node
    loop = in_loop or isinstance(node, (c_ast.For, c_ast.While, c_ast.DoWhile))
    switch = in_switch or isinstance(node, c_ast.Switch)
    for _, child in node.children():
        yield from _escaping_jumps(child, loop, switch)


# ---- inlining helpers that contain barriers -----------------------------------------------

def syncing_functions(functions: dict) -> set:
    """Names of user functions (lowered FuncDefs by name) that reach a barrier."""
    found = {n for n, f in functions.items() if contains_sync(f.body)}
    changed = True
    while changed:
        changed = False
        for n, f in functions.items():
            if n not in found and contains_sync(f.body, found):
                found.add(n)
                changed = True
    return found


def inline_sync_calls(body: c_ast.Compound, functions: dict, depth: int = 0) -> None:
    """Replace statement-level calls of helpers that reach a barrier by their bodies."""
    sync = syncing_functions(functions)
    if not any(call_name(n) in sync for n in _walk(body)):
        return
    if depth > 16:
        raise NeedFibers("helpers with barriers nest too deeply to inline")

    class Inliner(c_ast.NodeVisitor):
        def generic_visit(self, node):
            for name, child in node.children():
                if call_name(child) in sync and _is_statement_slot(node, name):
                    _replace_child(node, name, _inline(child, functions[call_name(child)]))
                else:
                    self.visit(child)

    Inliner().visit(body)
    for n in _walk(body):
        if call_name(n) in sync:
            raise NeedFibers(f"the helper '{call_name(n)}' reaches a barrier but is called "
                             f"inside an expression")
    inline_sync_calls(body, functions, depth + 1)


def _is_statement_slot(parent, name) -> bool:
    if isinstance(parent, c_ast.Compound):
        return name.startswith("block_items")
    if isinstance(parent, (c_ast.If,)):
        return name in ("iftrue", "iffalse")
    if isinstance(parent, (c_ast.For, c_ast.While, c_ast.DoWhile)):
        return name == "stmt"
    return False


def _replace_child(parent, name, new) -> None:
    if name.endswith("]"):
        attr, index = name[:-1].split("[")
        getattr(parent, attr)[int(index)] = new
    else:
        setattr(parent, name, new)


def _inline(call: c_ast.FuncCall, f: c_ast.FuncDef) -> c_ast.Compound:
    params = [p for p in f.decl.type.args.params if isinstance(p, c_ast.Decl) and p.name]
    args = list(call.args.exprs if call.args else [])
    if args and isinstance(args[0], c_ast.ID) and args[0].name == "CL2C_WI":
        args = args[1:]
    items = []
    for p, a in zip(params, args):
        d = copy.deepcopy(p)
        if isinstance(d.type, c_ast.ArrayDecl):       # a parameter array is a pointer
            d.type = c_ast.PtrDecl([], d.type.type)
        d.funcspec = [s for s in d.funcspec or [] if s != "CL2C_UNUSED"]
        d.init = a
        items.append(d)
    body = copy.deepcopy(f.body)
    block = list(body.block_items or [])
    if block and isinstance(block[-1], c_ast.Return) and block[-1].expr is None:
        block.pop()
    for n in block:
        if any(isinstance(j, c_ast.Return) for j in _walk(n)):
            raise NeedFibers(f"the helper '{f.decl.name}' reaches a barrier and returns "
                             f"early")
    return c_ast.Compound(items + block, call.coord)


# ---- unique names -------------------------------------------------------------------------

def rename_locals(body: c_ast.Compound, taken: set) -> None:
    """Give every local variable of the kernel a name of its own (x, x_1, ...), so
    that declarations can move between scopes without capturing other names."""
    used = set(taken)
    for n in _walk(body):
        if isinstance(n, c_ast.ID):
            used.add(n.name)

    def fresh(name):
        if name not in used:
            used.add(name)
            return name
        i = 1
        while f"{name}_{i}" in used:
            i += 1
        used.add(f"{name}_{i}")
        return f"{name}_{i}"

    seen = set(taken)

    def block(items, scope):
        scope = dict(scope)
        for item in items:
            scope = stmt(item, scope)

    def stmt(node, scope):
        if isinstance(node, c_ast.Decl) and node.name and not isinstance(node.type,
                                                                         c_ast.FuncDecl):
            expr(node.init, scope)
            _rename_dims(node.type, scope)
            old = node.name
            new = old if old not in seen else fresh(old)
            seen.add(old)
            seen.add(new)
            _set_declname(node, new)
            scope = dict(scope)
            scope[old] = new
            return scope
        if isinstance(node, c_ast.DeclList):
            for d in node.decls:
                scope = stmt(d, scope)
            return scope
        if isinstance(node, c_ast.Compound):
            block(node.block_items or [], scope)
            return scope
        if isinstance(node, c_ast.For):
            inner = stmt(node.init, scope) if isinstance(node.init, (c_ast.DeclList,
                                                                     c_ast.Decl)) else scope
            if not isinstance(node.init, (c_ast.DeclList, c_ast.Decl)):
                expr(node.init, scope)
            expr(node.cond, inner)
            expr(node.next, inner)
            stmt(node.stmt, inner)
            return scope
        for _, child in node.children() if node is not None else ():
            if isinstance(child, (c_ast.Compound, c_ast.If, c_ast.For, c_ast.While,
                                  c_ast.DoWhile, c_ast.Switch, c_ast.Case, c_ast.Default,
                                  c_ast.Label, c_ast.Decl, c_ast.DeclList)):
                stmt(child, scope)
            else:
                expr(child, scope)
        return scope

    def expr(node, scope):
        if node is None:
            return
        for n in _walk(node):
            if isinstance(n, c_ast.ID) and n.name in scope:
                n.name = scope[n.name]

    # StructRef field names are IDs too: protect them by renaming only the base.
    _protect_fields(body)
    block(body.block_items or [], {})
    _unprotect_fields(body)


def _rename_dims(t, scope):
    while t is not None and not isinstance(t, c_ast.TypeDecl):
        if isinstance(t, c_ast.ArrayDecl) and t.dim is not None:
            for n in _walk(t.dim):
                if isinstance(n, c_ast.ID) and n.name in scope:
                    n.name = scope[n.name]
        t = getattr(t, "type", None)


def _protect_fields(body):
    for n in _walk(body):
        if isinstance(n, c_ast.StructRef) and isinstance(n.field, c_ast.ID):
            n.field = _Field(n.field.name)


def _unprotect_fields(body):
    for n in _walk(body):
        if isinstance(n, c_ast.StructRef) and isinstance(n.field, _Field):
            n.field = c_ast.ID(n.field.fname)


class _Field(c_ast.Node):
    """A struct field name, hidden from renaming (not an ID)."""
    __slots__ = ("fname", "coord", "__weakref__")
    attr_names = ()

    def __init__(self, fname):
        self.fname = fname
        self.coord = None

    def children(self):
        return ()


def _set_declname(decl: c_ast.Decl, name: str) -> None:
    decl.name = name
    t = decl.type
    while not isinstance(t, c_ast.TypeDecl):
        t = t.type
    t.declname = name


# ---- the group-level structure ------------------------------------------------------------

@dataclass
class Region:
    """Statements every work-item runs, one after the other, between two cuts."""
    stmts: list = field(default_factory=list)
    returns: bool = False


@dataclass
class Once:
    """A statement that runs once per group (uniform declarations and updates)."""
    node: object


@dataclass
class GroupIf:
    node: c_ast.If
    then: list
    other: list


@dataclass
class GroupLoop:
    node: object          # For, While or DoWhile; its body is replaced by ``body``
    body: list


@dataclass
class Collective:
    """``result = work_group_<op>(arg)``: the argument is stored per work-item in
    a region, the operation runs once, the result is read after it."""
    name: str             # runtime name, e.g. cl2c_work_group_reduce_add_int
    ctype: str            # C type of the value
    result: str           # variable that receives the result
    decl: c_ast.Decl      # its declaration (type), initializer removed
    arg: object
    extra: list           # broadcast coordinates (uniform)
    coord: object = None


class Analysis:
    """Which variables are uniform, and how the kernel splits into regions."""

    def __init__(self, body: c_ast.Compound, params: set, hoist_loops: bool):
        self.body = body
        self.hoist_loops = hoist_loops
        self.decls: dict[str, c_ast.Decl] = {}
        self.addressed: set = set()
        for n in _walk(body):
            if isinstance(n, c_ast.Decl) and n.name and not isinstance(n.type, c_ast.FuncDecl):
                self.decls[n.name] = n
            if isinstance(n, c_ast.UnaryOp) and n.op == "&":
                self.addressed |= _base_ids(n.expr)
        assigned = _assigned_names(body)
        self.all_params = set(params)
        self.params = {p for p in params if p not in assigned}
        self.uniform = {name for name, d in self.decls.items()
                        if _is_scalar_decl(d) and name not in self.addressed}
        # Shrink to a fixpoint: a variable stays uniform only if every definition
        # is a group-level statement with a uniform value.
        while True:
            self.varying_defs: set = set()
            self.walk(_stmts(body), True)
            before = len(self.uniform)
            self.uniform -= self.varying_defs
            if len(self.uniform) == before:
                break

    # -- uniform expressions
    def is_uniform(self, e) -> bool:
        if e is None:
            return True
        if isinstance(e, c_ast.Constant) or isinstance(e, c_ast.Typename):
            return True
        if isinstance(e, c_ast.ID):
            if e.name in self.decls:
                return e.name in self.uniform
            if e.name in self.all_params:
                return e.name in self.params
            return e.name not in ("CL2C_WI", INDEX) and not e.name.startswith("cl2c_l")
        if isinstance(e, c_ast.FuncCall):
            name = call_name(e) or ""
            args = e.args.exprs if e.args else []
            if name in UNIFORM_WI:
                return all(self.is_uniform(a) for a in args[1:])
            if name in ID_WI or not name.startswith("cl2c_") or \
                    any(w in name for w in _IMPURE_WORDS):
                return False
            return all(self.is_uniform(a) for a in args)
        if isinstance(e, c_ast.UnaryOp):
            if e.op == "sizeof":
                return True
            if e.op in ("&", "*", "++", "--", "p++", "p--"):
                return False
            return self.is_uniform(e.expr)
        if isinstance(e, c_ast.BinaryOp):
            return self.is_uniform(e.left) and self.is_uniform(e.right)
        if isinstance(e, c_ast.TernaryOp):
            return all(self.is_uniform(x) for x in (e.cond, e.iftrue, e.iffalse))
        if isinstance(e, c_ast.Cast):
            return self.is_uniform(e.expr)
        if isinstance(e, c_ast.StructRef):
            return e.type == "." and self.is_uniform(e.name)
        if isinstance(e, c_ast.ArrayRef):
            # only components of a uniform vector value: v.s[k]
            return isinstance(e.name, c_ast.StructRef) and e.name.type == "." and \
                self.is_uniform(e.name) and self.is_uniform(e.subscript)
        if isinstance(e, (c_ast.ExprList, c_ast.InitList)):
            return all(self.is_uniform(x) for x in e.exprs)
        if isinstance(e, c_ast.CompoundLiteral):
            return self.is_uniform(e.init)
        return False

    # -- statements that run once per group
    def once_kind(self, s) -> str | None:
        """'decl' for a uniform declaration, 'update' for an update of uniform
        variables, None for a statement every work-item runs."""
        if isinstance(s, c_ast.Decl) and s.name in self.uniform and \
                not isinstance(s.init, c_ast.InitList) and self.is_uniform(s.init):
            return "decl"
        if isinstance(s, c_ast.DeclList) and all(self.once_kind(d) == "decl" for d in s.decls):
            return "decl"
        if self._uniform_update(s):
            return "update"
        return None

    def _uniform_update(self, e) -> bool:
        if isinstance(e, c_ast.Assignment):
            return isinstance(e.lvalue, c_ast.ID) and e.lvalue.name in self.uniform and \
                self.is_uniform(e.rvalue)
        if isinstance(e, c_ast.UnaryOp) and e.op in ("++", "--", "p++", "p--"):
            return isinstance(e.expr, c_ast.ID) and e.expr.name in self.uniform
        if isinstance(e, c_ast.ExprList):
            return all(self._uniform_update(x) for x in e.exprs)
        return False

    def uniform_header(self, s) -> bool:
        if isinstance(s, c_ast.For):
            init_ok = s.init is None or self.once_kind(s.init) is not None
            return init_ok and self.is_uniform(s.cond) and \
                (s.next is None or self._uniform_update(s.next))
        if isinstance(s, (c_ast.While, c_ast.DoWhile)):
            return self.is_uniform(s.cond)
        if isinstance(s, c_ast.If):
            return self.is_uniform(s.cond)
        return False

    def group_level(self, s) -> bool:
        """Does statement ``s`` (at group level) run as group-level structure?"""
        if isinstance(s, c_ast.Compound):
            return True
        sync = contains_sync(s)
        if isinstance(s, c_ast.If):
            if sync or any(not isinstance(j, c_ast.Return) for j in _escaping_jumps(s)):
                if not self.uniform_header(s):
                    if sync:
                        raise NeedFibers("a barrier sits under a condition that is not "
                                         "provably uniform across the work-group")
                    return False
                return True
            return False
        if isinstance(s, (c_ast.For, c_ast.While, c_ast.DoWhile)):
            if not sync and not self.hoist_loops:
                return False
            if not self.uniform_header(s) or not self._jumps_stay_at_group_level(s.stmt):
                if sync:
                    raise NeedFibers("a barrier sits in a loop whose trip count is not "
                                     "provably uniform across the work-group")
                return False
            return True
        if isinstance(s, c_ast.Switch) and sync:
            raise NeedFibers("a barrier sits inside a switch statement")
        return False

    def _jumps_stay_at_group_level(self, body) -> bool:
        """break/continue of a hoisted loop must be reachable at group level: only
        through blocks and uniform ifs."""
        for s in _stmts(body):
            if isinstance(s, (c_ast.Break, c_ast.Continue)):
                continue
            if isinstance(s, c_ast.Compound):
                if not self._jumps_stay_at_group_level(s):
                    return False
                continue
            jumps = [j for j in _escaping_jumps(s) if not isinstance(j, c_ast.Return)]
            if not jumps:
                continue
            if isinstance(s, c_ast.If) and self.uniform_header(s) and \
                    self._jumps_stay_at_group_level(s.iftrue) and \
                    self._jumps_stay_at_group_level(s.iffalse):
                continue
            return False
        return True

    def walk(self, stmts, group: bool) -> None:
        """Record the variables defined outside group-level uniform statements."""
        for s in stmts:
            if group and self.group_level(s):
                if isinstance(s, c_ast.Compound):
                    self.walk(_stmts(s), True)
                elif isinstance(s, c_ast.If):
                    self.walk(_stmts(s.iftrue), True)
                    self.walk(_stmts(s.iffalse), True)
                else:
                    if isinstance(s, c_ast.For):
                        self._defs(s.init, once=True)
                        self._defs(s.next, once=True)
                    self.walk(_stmts(s.stmt), True)
                continue
            self._defs(s, once=group and self.once_kind(s) is not None)

    def _defs(self, node, once: bool) -> None:
        if node is None or once:
            return
        for n in _walk(node):
            if isinstance(n, c_ast.Decl) and n.name and n.init is not None:
                self.varying_defs.add(n.name)
            elif isinstance(n, c_ast.Assignment):
                self.varying_defs |= _base_ids(n.lvalue)
            elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--"):
                self.varying_defs |= _base_ids(n.expr)


def _base_ids(lvalue) -> set:
    while isinstance(lvalue, (c_ast.ArrayRef, c_ast.StructRef)):
        lvalue = lvalue.name
    return {lvalue.name} if isinstance(lvalue, c_ast.ID) else set()


def _assigned_names(body) -> set:
    out = set()
    for n in _walk(body):
        if isinstance(n, c_ast.Assignment):
            out |= _base_ids(n.lvalue)
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&"):
            out |= _base_ids(n.expr)
    return out


def _is_scalar_decl(d: c_ast.Decl) -> bool:
    """Scalars, vectors and pointers: values a group can hold once."""
    t = d.type
    while isinstance(t, c_ast.PtrDecl):
        t = t.type
    if not isinstance(t, c_ast.TypeDecl):
        return False
    return "volatile" not in (d.type.quals or []) and \
        isinstance(t.type, (c_ast.IdentifierType, c_ast.Struct, c_ast.Union))


# ---- building the structure ---------------------------------------------------------------

def _is_barrier(s) -> bool:
    return call_name(s) in BARRIERS


def _flatten(stmts):
    for s in stmts:
        if isinstance(s, c_ast.Compound):
            yield from _flatten(_stmts(s))
        else:
            yield s


class Builder:
    def __init__(self, analysis: Analysis):
        self.an = analysis
        self.collectives = 0
        self.buffers: list[tuple[str, str]] = []      # (name, ctype) of collective buffers

    def build(self, stmts) -> list:
        items: list = []
        current: Region | None = None
        flat = list(_flatten(stmts))
        for i, s in enumerate(flat):
            if isinstance(s, c_ast.Pragma):
                # a pragma belongs to the statement after it: at group level with it
                following = flat[i + 1] if i + 1 < len(flat) else None
                if following is not None and self.an.group_level(following):
                    items.append(Once(s))
                    current = None
                    continue
            if _is_barrier(s):
                current = None
                continue
            if self.an.group_level(s):
                current = None
                items.append(self.structure(s))
                continue
            if isinstance(s, (c_ast.Break, c_ast.Continue)):
                # leaves a group-level loop: the whole group leaves it
                items.append(Once(s))
                current = None
                continue
            if any(call_name(n) and call_name(n).startswith(COLLECTIVE_PREFIX)
                   for n in _walk(s)):
                pre, s = self.collective(s)
                items.extend(pre)
                current = None
            kind = self.an.once_kind(s)
            if kind == "decl":
                # A fresh uniform value: computed before the running region.
                if current is not None:
                    items.insert(items.index(current), Once(s))
                else:
                    items.append(Once(s))
            elif kind == "update":
                items.append(Once(s))
                current = None
            else:
                if current is None:
                    current = Region()
                    items.append(current)
                current.stmts.append(s)
        return items

    def structure(self, s):
        if isinstance(s, c_ast.If):
            return GroupIf(s, self.build(_stmts(s.iftrue)), self.build(_stmts(s.iffalse)))
        return GroupLoop(s, self.build(_stmts(s.stmt)))

    def collective(self, s):
        """Split the work-group function calls out of statement ``s``."""
        if not isinstance(s, (c_ast.Decl, c_ast.Assignment, c_ast.FuncCall, c_ast.UnaryOp,
                              c_ast.BinaryOp, c_ast.TernaryOp, c_ast.Cast, c_ast.ExprList,
                              c_ast.Return)):
            raise NeedFibers("a work-group function is called under control flow")
        pre = []
        calls = [n for n in _walk(s) if call_name(n) and
                 call_name(n).startswith(COLLECTIVE_PREFIX)]
        for call in calls:
            if any(call_name(m) and call_name(m).startswith(COLLECTIVE_PREFIX)
                   for a in call.args.exprs[1:] for m in _walk(a)):
                raise NeedFibers("work-group function calls are nested")
            name = call_name(call)
            op = name[len(COLLECTIVE_PREFIX):]
            self.collectives += 1
            buf = f"cl2c_wg{self.collectives}"
            ctype = _collective_ctype(op)
            self.buffers.append((buf, ctype))
            args = call.args.exprs[1:]
            store = c_ast.Assignment("=", _at(buf), args[0], call.coord)
            pre.append(Region([store]))
            if op.startswith(("scan_inclusive", "scan_exclusive")):
                pre.append(Once(cn.call(f"cl2c_group_{op}", cn.ident(buf),
                                        cn.ident(COUNT), coord=call.coord)))
                result = _at(buf)
            else:
                res = f"{buf}_result"
                if op.startswith("broadcast"):
                    for a in args[1:]:
                        if not self.an.is_uniform(a):
                            raise NeedFibers("work_group_broadcast() with a work-item "
                                             "that is not provably uniform")
                    value = cn.call(f"cl2c_group_{op}",
                                    cn.ident("cl2c_wi"), cn.ident(buf), *args[1:],
                                    coord=call.coord)
                else:
                    value = cn.call(f"cl2c_group_{op}", cn.ident(buf), cn.ident(COUNT),
                                    coord=call.coord)
                decl = c_ast.Decl(res, [], [], [], [], c_ast.TypeDecl(
                    res, ["const"], None, c_ast.IdentifierType([ctype])), value, None,
                    coord=call.coord)
                pre.append(Once(decl))
                result = cn.ident(res)
            _replace_node(s, call, result)
        return pre, s


def _collective_ctype(op: str) -> str:
    if op in ("all", "any"):
        return "int"
    suffix = op.rsplit("_", 1)[1]
    return {"int": "int", "uint": "cl2c_uint", "long": "cl2c_long", "ulong": "cl2c_ulong",
            "float": "float", "double": "double"}[suffix]


def _at(name: str):
    return c_ast.ArrayRef(cn.ident(name), cn.ident(INDEX))


def _replace_node(root, old, new) -> bool:
    for name, child in root.children():
        if child is old:
            _replace_child(root, name, new)
            return True
        if _replace_node(child, old, new):
            return True
    return False


# ---- variables that cross regions ---------------------------------------------------------

def all_items(items):
    """Every item of a group-level structure, nested ones included, in order."""
    for it in items:
        yield it
        if isinstance(it, GroupIf):
            yield from all_items(it.then)
            yield from all_items(it.other)
        elif isinstance(it, GroupLoop):
            yield from all_items(it.body)


def _regions(items):
    return (it for it in all_items(items) if isinstance(it, Region))


class Privates:
    """Decides, for each varying variable, whether it stays local to a region, is
    recomputed in each region that uses it, or lives in a per-work-item array."""

    def __init__(self, an: Analysis, items: list):
        self.an = an
        self.assigned = _assigned_names(an.body)
        self.regions = list(_regions(items))
        self.promoted: list[c_ast.Decl] = []
        self.remat: dict[str, c_ast.Decl] = {}
        refs: dict[str, set] = {}
        top_decl: dict[str, int] = {}
        for i, r in enumerate(self.regions):
            for s in r.stmts:
                if isinstance(s, c_ast.Decl) and s.name in an.decls:
                    top_decl[s.name] = i
                    if s.init is None:
                        sub = _ids(s.type)
                    else:
                        sub = _ids(s.init) | _ids(s.type)
                else:
                    sub = _ids(s)
                for name in sub & an.decls.keys():
                    refs.setdefault(name, set()).add(i)
        crossing = []
        for name, where in refs.items():
            if name in an.uniform:
                continue
            if name in top_decl and where <= {top_decl[name]}:
                continue
            if name not in top_decl and len(where) == 1 and \
                    self._declared_inside(name, next(iter(where))):
                continue
            crossing.append(name)
        single = _single_assignments(self.regions, an)
        for name in crossing:
            d = an.decls[name]
            if self._rematerializable(name, d, single, set()):
                self.remat[name] = d
            else:
                self.promoted.append(d)
        # what a recomputed variable is computed from is recomputed too
        todo = list(self.remat)
        while todo:
            d = self.remat[todo.pop()]
            value = d.init if d.init is not None else single[d.name].rvalue
            for dep in _ids(value) & an.decls.keys():
                if dep not in self.remat and dep not in an.uniform:
                    self.remat[dep] = an.decls[dep]
                    todo.append(dep)
        self.refs = refs
        self.top_decl = top_decl
        self.single = single

    def _declared_inside(self, name, i) -> bool:
        d = self.an.decls[name]
        return any(n is d for s in self.regions[i].stmts for n in _walk(s))

    def _rematerializable(self, name, d, single, seen) -> bool:
        if name in seen or name in self.an.addressed or not _is_scalar_decl(d) \
                or "volatile" in (d.type.quals or []):
            return False
        if d.init is not None:
            if name in self.assigned:
                return False
            expr = d.init
        elif name in single:
            expr = single[name].rvalue
        else:
            return False
        return self._wi_pure(expr, single, seen | {name})

    def _wi_pure(self, e, single, seen) -> bool:
        an = self.an
        if isinstance(e, (c_ast.Constant, c_ast.Typename)):
            return True
        if isinstance(e, c_ast.ID):
            if e.name in an.decls:
                if e.name in an.uniform:
                    return e.name not in self.assigned
                return self._rematerializable(e.name, an.decls[e.name], single, seen)
            return an.is_uniform(e) or e.name in LID or e.name == "CL2C_WI"
        if isinstance(e, c_ast.FuncCall):
            name = call_name(e) or ""
            args = e.args.exprs if e.args else []
            if name in UNIFORM_WI or name in ID_WI:
                return all(self._wi_pure(a, single, seen) for a in args)
            return an.is_uniform(e)
        if isinstance(e, c_ast.UnaryOp):
            if e.op in ("&", "*", "++", "--", "p++", "p--"):
                return False
            return e.op == "sizeof" or self._wi_pure(e.expr, single, seen)
        if isinstance(e, c_ast.BinaryOp):
            return self._wi_pure(e.left, single, seen) and self._wi_pure(e.right, single, seen)
        if isinstance(e, c_ast.Cast):
            return self._wi_pure(e.expr, single, seen)
        if isinstance(e, c_ast.TernaryOp):
            return all(self._wi_pure(x, single, seen) for x in (e.cond, e.iftrue, e.iffalse))
        return False


def _single_assignments(regions, an) -> dict:
    """Variables declared without a value and assigned exactly once, by a plain
    ``v = e;`` statement at the top level of a region (old-style C kernels)."""
    counts: dict[str, int] = {}
    for n in _walk(an.body):
        if isinstance(n, c_ast.Assignment):
            for b in _base_ids(n.lvalue):
                counts[b] = counts.get(b, 0) + 1
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&"):
            for b in _base_ids(n.expr):
                counts[b] = counts.get(b, 0) + 2
    out = {}
    for r in regions:
        for s in r.stmts:
            if isinstance(s, c_ast.Assignment) and s.op == "=" and \
                    isinstance(s.lvalue, c_ast.ID) and counts.get(s.lvalue.name) == 1:
                d = an.decls.get(s.lvalue.name)
                if d is not None and d.init is None:
                    out[s.lvalue.name] = s
    return out


# ---- grid-stride loops --------------------------------------------------------------------

_POSITIVE_CALLS = {"cl2c_get_global_size", "cl2c_get_local_size", "cl2c_get_num_groups",
                   "cl2c_get_enqueued_local_size"}


def interchange_grid_stride_loops(body: c_ast.Compound) -> int:
    """``for (int i = get_global_id(0); i < n; i += get_global_size(0)) S`` becomes
    ``for (int i__k = <id of local id 0>; i__k < n; i__k += <stride>) { int i =
    i__k + get_local_id(0); if (i < n) S }``: the same iterations for every
    work-item, but the outer loop is uniform, so the work-items' loop goes
    inside it and walks memory contiguously. Returns how many were rewritten."""
    count = 0
    for node in list(_walk(body)):
        if isinstance(node, c_ast.For) and _rewrite_grid_stride(node, body):
            count += 1
    return count


def _rewrite_grid_stride(loop: c_ast.For, body) -> bool:
    init = loop.init
    if not (isinstance(init, c_ast.DeclList) and len(init.decls) == 1):
        return False
    d = init.decls[0]
    name = d.name
    if not (isinstance(d.type, c_ast.TypeDecl) and isinstance(d.type.type, c_ast.IdentifierType)
            and d.init is not None):
        return False
    base = _group_base(d.init)
    cond, step = loop.cond, loop.next
    if base is None or not (isinstance(cond, c_ast.BinaryOp) and cond.op == "<" and
                            isinstance(cond.left, c_ast.ID) and cond.left.name == name):
        return False
    if not (isinstance(step, c_ast.Assignment) and step.op == "+=" and
            isinstance(step.lvalue, c_ast.ID) and step.lvalue.name == name and
            _positive(step.rvalue)):
        return False
    if name in _assigned_names(loop.stmt) or name in _ids(cond.right) | _ids(step.rvalue) or \
            any(True for _ in _escaping_jumps(loop.stmt)) or contains_sync(loop.stmt):
        return False
    outer = name + "__k"
    k_decl = copy.deepcopy(d)
    _set_declname(k_decl, outer)
    k_decl.init = c_ast.Cast(c_ast.Typename(None, [], None, _retype(d.type, None)), base)
    item = copy.deepcopy(d)
    item.init = c_ast.BinaryOp("+", cn.ident(outer), c_ast.Cast(
        c_ast.Typename(None, [], None, _retype(d.type, None)),
        cn.call("cl2c_get_local_id", cn.ident("CL2C_WI"), c_ast.Constant("int", "0"))))
    guard = c_ast.If(c_ast.BinaryOp("<", cn.ident(name), copy.deepcopy(cond.right)),
                     loop.stmt, None)
    loop.init = c_ast.DeclList([k_decl])
    loop.cond = c_ast.BinaryOp("<", cn.ident(outer), cond.right)
    loop.next = c_ast.Assignment("+=", cn.ident(outer), step.rvalue)
    loop.stmt = c_ast.Compound([item, guard])
    return True


def _group_base(e):
    """For an id affine in the local id 0 (l0 + B), B in uniform terms; else None."""
    while isinstance(e, c_ast.Cast):
        e = e.expr
    name = call_name(e)
    args = e.args.exprs if name else []
    if len(args) != 2 or not (isinstance(args[1], c_ast.Constant) and
                              args[1].value.rstrip("uU") == "0"):
        return None
    if name == "cl2c_get_local_id":
        return c_ast.Constant("int", "0")
    if name == "cl2c_get_global_id":
        wi = [cn.ident("CL2C_WI"), c_ast.Constant("int", "0")]
        return c_ast.BinaryOp("+", c_ast.BinaryOp(
            "*", cn.call("cl2c_get_group_id", *copy.deepcopy(wi)),
            cn.call("cl2c_get_enqueued_local_size", *copy.deepcopy(wi))),
            cn.call("cl2c_get_global_offset", *copy.deepcopy(wi)))
    return None


def _positive(e) -> bool:
    """Provably > 0: positive constants and the (never zero) sizes of the range."""
    while isinstance(e, c_ast.Cast):
        e = e.expr
    if isinstance(e, c_ast.Constant):
        try:
            return int(e.value.rstrip("uUlL"), 0) > 0
        except ValueError:
            return False
    if call_name(e) in _POSITIVE_CALLS:
        return True
    if isinstance(e, c_ast.BinaryOp) and e.op == "*":
        return _positive(e.left) and _positive(e.right)
    return False


def _retype(t, name):
    t = copy.deepcopy(t)
    inner = t
    while not isinstance(inner, c_ast.TypeDecl):
        inner = inner.type
    inner.declname = name
    return t
