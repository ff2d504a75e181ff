"""Definite assignment of private variables (checking builds): which reads of a
function's uninitialized private variables may run before any write.

A conservative, flow-sensitive must-analysis over the structured control flow of the
lowered C tree (if, loops, switch, break, continue, return). Its state at a point is
the set of variables written on every path to it: a read of a variable in the set
needs no check. A loop's body starts from the state before the loop (the state at its
head on a later iteration can only hold more), so one walk suffices, no fixed point.

What counts as a write of a variable ``x`` (its runtime flag is set there too):
- an assignment to it, or to any part of it (``s.a = ...``: a struct with one member
  written counts as written whole, a struct filled member by member);
- ``x++``, ``x += e`` (a read first);
- a builtin's second result stored through ``&x`` (fract, modf, sincos, frexp,
  remquo, lgamma_r: the rows' ``outputs``): a write once the call returns, so that a
  read of ``x`` in its other arguments comes first;
- its address taken otherwise (``&x``, an array named so that it decays to a
  pointer): whatever the pointer is given to may write it, so it counts as written.
A private vector is tracked component by component (a bit each in its runtime flag):
``v.s[k]`` and swizzles (the lowering's calls carry their ``components``) read and
write theirs, ``v`` whole all of them (a float3's three). An element of a private
array is tracked on its own (a runtime shadow byte; an array of vectors: a shadow of a
bit per component of each element, ``a[i].s[k]`` and swizzles of ``a[i]`` as a
vector's; an array of structs: of a bit per part of each element, as a struct's flag);
the analysis never proves an element written, only the whole array: by its address,
or by a counted loop that stores every element, one an iteration (counted.py).

Not tracked (never reported): variables with an initialiser, function parameters,
variables the lowering made (``cl2c_*``), declarations of a ``for``'s first clause or
directly in a ``switch`` body (a jump may skip their flag's initialiser), every
variable of a function with ``goto`` or labels, and arrays of unknown length.
Reads through a pointer are not checked.
"""
from __future__ import annotations

from typing import NamedTuple

from pycparser import c_ast

from .. import types as ty
from ..literals import integer_value
from ..typed_ast import addressed_names, fact, walk
from . import counted
from .private_bounds import REGISTER

READ, WRITE, RW, ADDR = "read", "write", "rw", "addr"
ANY = "any"     # the components of an access: one that no constant names


class Var:
    """A tracked private variable: its declaration, and whether it is an array (how
    many dimensions, how many innermost elements) or a vector (``comps``: how many
    components, each tracked on its own; 0 for any other type). Compared by identity:
    two declarations of one name are two variables."""
    __slots__ = ("decl", "name", "dims", "total", "comps", "members", "labels", "needed")

    def __init__(self, decl, dims: int = 0, total: int = 1, comps: int = 0,
                 members: dict | None = None, labels: tuple = ()):
        self.decl, self.name, self.dims, self.total = decl, decl.name, dims, total
        self.comps = comps
        # a struct tracked a part at a time: {member: Part}, the bits of its members'
        # leaves (scalars, arrays, unions; a vector's components; a nested struct's
        # members in turn); labels: each bit's, for reports
        self.members, self.labels = members, labels
        self.needed = False          # some read may run before a write: a flag, checks

    def keys(self, comps=None) -> list:
        """What the analysis's state holds for the variable, or for components
        ``comps`` of a vector (None, ANY: all of them)."""
        if not self.comps:
            return [self]
        which = range(self.comps) if comps is None or comps == ANY else comps
        return [(self, k) for k in which]

    def mask(self, comps=None) -> int:
        """The bits of components ``comps`` in a vector's flag (ANY: 0)."""
        if comps == ANY:
            return 0
        which = range(self.comps) if comps is None else comps
        return sum(1 << k for k in which)


class Access:
    """A use of a tracked variable: ``node`` is the part of the tree that names it
    (the variable or its element; a swizzle store or a builtin with a second result:
    the call), ``mode`` read, write, rw or addr (an escape), ``proven`` whether the
    variable is definitely written before (reads, rw), and for a vector ``comps``, the
    components used (None: all; ANY: one no constant names)."""
    __slots__ = ("node", "var", "mode", "proven", "comps")

    def __init__(self, node, var, mode, proven, comps=None):
        self.node, self.var, self.mode, self.proven = node, var, mode, proven
        self.comps = comps


def _meet(a, b):
    """Both paths join: written on both. None is an unreachable path."""
    if a is None:
        return None if b is None else set(b)
    return set(a) if b is None else a & b


def _tracked_type(t):
    """None where a variable of type ``t`` is not tracked, else (dims, total)."""
    dims, total = 0, 1
    while isinstance(t, ty.Array):
        if not isinstance(t.length, int) or t.length <= 0:
            return None
        dims, total, t = dims + 1, total * t.length, t.elem
    if isinstance(t, (ty.Image, ty.Sampler, ty.Function)) or t is None:
        return None
    return dims, total


class Analysis:
    """Walks one function body: ``vars`` are the tracked variables, ``access(node)``
    the use of one that a node of the body is."""

    def __init__(self, body, params=()):
        self._accesses: dict[c_ast.Node, Access] = {}   # (nodes hash by identity)
        self.vars: list[Var] = []
        self.scopes: list[dict] = [{p: None for p in params}]
        self.loops: list[dict] = []      # {"break": [states], "continue": [...]}
        self.enabled = _structured(body)
        self.escaped = addressed_names(body)    # names a pointer may change
        self.state: set[Var] | None = set()   # written on every path here
        self.stmt(body)

    def access(self, node) -> Access | None:
        """The use of a tracked variable that ``node`` is (the variable, its element, or
        the part of it whose address is taken), else None."""
        return self._accesses.get(node)

    # ---- names
    def lookup(self, name):
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def declare(self, d: c_ast.Decl, trackable: bool) -> None:
        var = None
        storage = d.storage or []
        if trackable and self.enabled and d.init is None and d.name and \
                not d.name.startswith("cl2c_") and \
                not any(s in storage for s in ("static", "extern", "typedef")) and \
                getattr(d, "space", None) in (None, "private") and \
                isinstance(d.type, (c_ast.TypeDecl, c_ast.PtrDecl, c_ast.ArrayDecl)):
            t = fact(d, "ty")
            shape = _tracked_type(t)
            if shape is not None:
                elem = t
                while isinstance(elem, ty.Array):
                    elem = elem.elem
                comps = elem.n if isinstance(elem, ty.Vector) else 0
                parts = _struct_parts(elem)     # (a struct's, or an array of structs')
                var = Var(d, *shape, comps) if parts is None else \
                    Var(d, *shape, len(parts[1]), *parts)
                self.vars.append(var)
        if d.name:
            self.scopes[-1][d.name] = var
        if var is not None and self.state is not None:
            self.state.difference_update(var.keys())   # a fresh variable each time

    # ---- statements
    def stmts(self, items, trackable=True):
        for s in items or []:
            self.stmt(s, trackable)

    def stmt(self, s, trackable=True):
        if s is None:
            return
        if isinstance(s, c_ast.Compound):
            self.scopes.append({})
            self.stmts(s.block_items)
            self.scopes.pop()
        elif isinstance(s, c_ast.Decl):
            self.expr(s.init)
            self.declare(s, trackable)
        elif isinstance(s, c_ast.DeclList):
            for d in s.decls:
                self.expr(d.init)
                self.declare(d, False)
        elif isinstance(s, c_ast.If):
            self.expr(s.cond)
            before = self.state
            self.state = _copy(before)
            self.stmt(s.iftrue)
            after_true, self.state = self.state, _copy(before)
            self.stmt(s.iffalse)
            self.state = _meet(after_true, self.state)
        elif isinstance(s, c_ast.While):
            self.expr(s.cond)
            self.loop(s.stmt, _always(s.cond))
        elif isinstance(s, c_ast.For):
            self.scopes.append({})
            if isinstance(s.init, c_ast.DeclList):
                self.stmt(s.init)
            else:
                self.expr(s.init)
            self.expr(s.cond)
            head = _copy(self.state)
            self.loop(s.stmt, s.cond is None or _always(s.cond), lambda: self.expr(s.next),
                      head)
            filled = self.filled(s)
            if filled is not None and self.state is not None:
                self.state.update(filled.keys())
            self.scopes.pop()
        elif isinstance(s, c_ast.DoWhile):
            self.loops.append({"break": [], "continue": []})
            self.stmt(s.stmt)
            frame = self.loops.pop()
            for st in frame["continue"]:
                self.state = _meet(self.state, st)
            self.expr(s.cond)
            exit_state = None if _always(s.cond) else self.state
            for st in frame["break"]:
                exit_state = _meet(exit_state, st)
            self.state = exit_state
        elif isinstance(s, c_ast.Switch):
            self.expr(s.cond)
            self.switch(s)
        elif isinstance(s, (c_ast.Break, c_ast.Continue)):
            kind = "break" if isinstance(s, c_ast.Break) else "continue"
            for frame in reversed(self.loops):
                if kind in frame:
                    frame[kind].append(_copy(self.state))
                    break
            self.state = None
        elif isinstance(s, c_ast.Return):
            self.expr(s.expr)
            self.state = None
        elif isinstance(s, c_ast.Label):
            self.stmt(s.stmt)
        elif isinstance(s, (c_ast.Case, c_ast.Default)):
            self.stmts(s.stmts, False)
        elif isinstance(s, (c_ast.EmptyStatement, c_ast.Pragma, c_ast.Goto, c_ast.Typedef,
                            c_ast.FuncDef)):
            pass
        else:
            self.expr(s)

    def filled(self, s: c_ast.For) -> Var | None:
        """The tracked array that counted loop ``s`` stores every element of, one an
        iteration (``for (k = 0; k < N; k++) { ... a[k] = e; ... }``, a[N]), else
        None."""
        count = counted.counted(s, self.escaped)
        if count is None or count.first != 0:
            return None
        body = count.body
        items = body.block_items or [] if isinstance(body, c_ast.Compound) else [body]
        for item in items:
            if not (isinstance(item, c_ast.Assignment) and item.op == "=" and
                    isinstance(item.lvalue, c_ast.ArrayRef) and
                    isinstance(item.lvalue.name, c_ast.ID) and
                    counted.index_name(item.lvalue.subscript) == count.name):
                continue
            name = item.lvalue.name.name
            var = self.lookup(name)
            if var is not None and var.dims == 1 and var.total == count.end and \
                    not any(isinstance(n, c_ast.Decl) and n.name == name
                            for n in walk(body)):
                return var
        return None

    def loop(self, body, forever: bool, after_body=None, head=None):
        """A loop's body from the state before it; it is left by its condition
        (unless ``forever``) or a break."""
        head = _copy(self.state) if head is None else head
        self.loops.append({"break": [], "continue": []})
        self.stmt(body)
        frame = self.loops.pop()
        if after_body is not None:
            # the next clause: after the body or a continue
            st = self.state
            for c in frame["continue"]:
                st = _meet(st, c)
            self.state = st if st is not None else _copy(head)
            after_body()
        exit_state = None if forever else head
        for st in frame["break"]:
            exit_state = _meet(exit_state, st)
        self.state = exit_state

    def switch(self, s: c_ast.Switch):
        entry = _copy(self.state)
        self.loops.append({"break": []})
        self.scopes.append({})
        body = s.stmt.block_items if isinstance(s.stmt, c_ast.Compound) else [s.stmt]
        self.state = None
        has_default = False
        for item in body or []:
            if isinstance(item, (c_ast.Case, c_ast.Default)):
                has_default |= isinstance(item, c_ast.Default)
                if isinstance(item, c_ast.Case):
                    self.expr(item.expr)
                self.state = _meet(self.state, entry)
            self.stmt(item, False)
        self.scopes.pop()
        frame = self.loops.pop()
        out = self.state
        for st in frame["break"]:
            out = _meet(out, st)
        self.state = out if has_default else _meet(out, entry)

    # ---- expressions
    def expr(self, n, mode=READ):
        if n is None or not isinstance(n, c_ast.Node):
            return
        if isinstance(n, (c_ast.ID, c_ast.ArrayRef)) or \
                (isinstance(n, c_ast.StructRef) and n.type == "."):
            return self.chain(n, mode)
        if isinstance(n, c_ast.Assignment):
            self.expr(n.rvalue)
            self.expr(n.lvalue, WRITE if n.op == "=" else RW)
        elif isinstance(n, c_ast.UnaryOp):
            if n.op in ("sizeof", "_Alignof"):
                return
            if n.op in ("++", "--", "p++", "p--"):
                self.expr(n.expr, RW)
            elif n.op == "&":
                self.expr(n.expr, ADDR)
            else:
                self.expr(n.expr)
        elif isinstance(n, c_ast.BinaryOp) and n.op in ("&&", "||"):
            self.expr(n.left)
            before = _copy(self.state)
            self.expr(n.right)
            self.state = _meet(before, self.state)
        elif isinstance(n, c_ast.TernaryOp):
            self.expr(n.cond)
            before = self.state
            self.state = _copy(before)
            self.expr(n.iftrue)
            first, self.state = self.state, _copy(before)
            self.expr(n.iffalse)
            self.state = _meet(first, self.state)
        elif isinstance(n, (c_ast.Typename, c_ast.Constant, c_ast.TypeDecl, c_ast.PtrDecl,
                            c_ast.ArrayDecl, c_ast.FuncDecl, c_ast.Struct, c_ast.Union,
                            c_ast.Enum)):
            return
        elif isinstance(n, c_ast.FuncCall):
            self.call(n)
        elif isinstance(n, c_ast.Cast) and _is_void(n.to_type) and \
                isinstance(n.expr, c_ast.ID):
            return                # (void)x: "unused", no read of its value
        elif isinstance(n, c_ast.NamedInitializer):   # .a = e: a is a member's name
            self.expr(n.expr)
        elif isinstance(n, c_ast.StructRef):          # p->x: p is read
            self.expr(n.name)
        else:
            for _, child in n.children():
                self.expr(child)

    def call(self, n: c_ast.FuncCall):
        """A call's arguments, in order; a swizzle of a tracked vector reads or writes
        its components, a builtin's second result is written once it returns."""
        args = n.args.exprs if n.args is not None else []
        if isinstance(n.name, c_ast.ID) and n.name.name == REGISTER:
            return      # private_bounds.py's note of where the variable lies: no use
        comps = fact(n, "components")
        call = fact(n, "call")
        kind = call.kind if call is not None else None
        mode = WRITE if kind == "update" else READ
        var = self.vector_named(args[0] if args else None, kind == "update")
        if comps is not None and var is not None and kind in ("operator", "update"):
            for a in args[1:]:
                self.expr(a)
            node = n if kind == "update" else args[0]
            self.use(var, [], node, node, mode, frozenset(comps))
            return
        member = self.vector_member(args[0] if args else None, kind == "update")
        if comps is not None and member is not None and kind in ("operator", "update"):
            for a in args[1:]:
                self.expr(a)
            var, chain = member
            at = n if kind == "update" else chain[0]  # (as a vector's: the call's store)
            self.use(var, chain, at, at, mode, frozenset(comps))
            return
        element = self.vector_element(args[0] if args else None, kind == "update")
        if comps is not None and element is not None and kind in ("operator", "update"):
            found = self.resolve(element)          # (its indices read)
            for a in args[1:]:
                self.expr(a)
            self.use(*found[:4], READ if found[4] else mode, frozenset(comps))
            return
        outputs = call.row.outputs if kind == "builtin" else ()
        results = []
        for i, a in enumerate(args):
            if not (i in outputs and isinstance(a, c_ast.UnaryOp) and a.op == "&"):
                self.expr(a)
                continue
            found = self.resolve(a.expr)          # (its indices read)
            if found is not None and found[4]:    # &p[i]: the pointer p is read
                self.use(*found[:4], READ)
            elif found is not None:
                results.append(found)
        for var, nodes, own, top, _ in results:
            if var.dims:                        # an element: its shadow byte, at the call
                self.use(var, nodes, own, top, WRITE)
            else:                               # once the call returns: on the call
                # (a struct's member: that member's parts)
                self.use(var, nodes if var.members is not None else [], n, n, WRITE)

    def vector_named(self, arg, address: bool):
        """The tracked vector that ``arg`` names (``&v`` where ``address``), else None."""
        if address:
            if not (isinstance(arg, c_ast.UnaryOp) and arg.op == "&"):
                return None
            arg = arg.expr
        if not isinstance(arg, c_ast.ID):
            return None
        var = self.lookup(arg.name)
        return var if var is not None and var.comps else None

    def vector_member(self, arg, address: bool):
        """(the tracked struct, the nodes from ``s.v`` down to ``s``) where ``arg``
        names a vector member of a tracked struct, or of a struct in it (``&s.v`` where
        ``address``), else None."""
        if address:
            if not (isinstance(arg, c_ast.UnaryOp) and arg.op == "&"):
                return None
            arg = arg.expr
        chain, n = [], arg
        while isinstance(n, c_ast.StructRef) and n.type == ".":
            chain.append(n)
            n = n.name
        if not chain or not isinstance(n, c_ast.ID):
            return None
        var = self.lookup(n.name)
        if var is None or not var.members:
            return None
        table = var.members
        for node in reversed(chain):
            part = table.get(node.field.name) if table is not None else None
            if part is None:
                return None
            table = part.members
        return (var, chain) if part.vector else None

    def vector_element(self, arg, address: bool):
        """The element of a tracked array of vectors, or a vector member of an element
        of an array of structs (``a[i].v``), that ``arg`` names (``&a[i]`` where
        ``address``), else None."""
        if address:
            if not (isinstance(arg, c_ast.UnaryOp) and arg.op == "&"):
                return None
            arg = arg.expr
        members, n = [], arg
        while isinstance(n, c_ast.StructRef) and n.type == ".":
            members.append(n)
            n = n.name
        top = n
        while isinstance(n, c_ast.ArrayRef):
            n = n.name
        if n is top or not isinstance(n, c_ast.ID):
            return None
        var = self.lookup(n.name)
        if var is None or not var.dims or not var.comps:
            return None
        if var.members is None:
            return arg if not members else None
        table, part = var.members, None
        for node in reversed(members):
            part = table.get(node.field.name) if table is not None else None
            if part is None:
                return None
            table = part.members
        return arg if part is not None and part.vector else None

    def chain(self, top, mode):
        """``top`` is an lvalue made of elements and members of an ID (or of some other
        expression): the indices are read, then the variable is used."""
        found = self.resolve(top)
        if found is not None:
            var, nodes, own, top, deref = found
            self.use(var, nodes, own, top, READ if deref else mode)

    def resolve(self, top):
        """Read the indices of lvalue ``top``: (its variable, the chain's nodes from top
        to the variable, ``own`` (the topmost of them still in the variable's storage),
        top, whether the chain dereferences a pointer of the variable), or None where
        no tracked variable is named."""
        nodes, n = [], top
        while isinstance(n, c_ast.ArrayRef) or \
                (isinstance(n, c_ast.StructRef) and n.type == "."):
            nodes.append(n)
            n = n.name
        for node in reversed(nodes):
            if isinstance(node, c_ast.ArrayRef):
                self.expr(node.subscript)
        if not isinstance(n, c_ast.ID):
            self.expr(n)          # *p, p->x, a call: the pointer or value is read
            return None
        var = self.lookup(n.name)
        if var is None:
            return None
        # the part of the chain that is the variable's own storage: up to a pointer
        # that an index dereferences (p[i], s.p[i]: the pointer is read)
        t, own, deref = fact(var.decl, "ty"), n, False
        for node in reversed(nodes):
            if isinstance(node, c_ast.ArrayRef):
                if isinstance(t, ty.Pointer):
                    deref = True
                    break
                t = t.elem if isinstance(t, ty.Array) else None
            else:
                t = fact(node, "ty")
            own = node
        return var, nodes, own, top, deref

    def use(self, var: Var, nodes, own, top, mode, comps=None):
        """Record the use; ``own`` is the topmost node of ``nodes`` (top to the
        variable) still in the variable's storage (the variable itself when none);
        ``comps``: a vector's components it uses, where ``nodes`` do not say."""
        target = own
        if var.dims:
            # an element: the variable indexed once per dimension
            at = len(nodes) - var.dims
            own_at = next((i for i, x in enumerate(nodes) if x is own), len(nodes))
            if at < 0 or own_at > at:
                mode = ADDR                      # the array, or a row, as a pointer
            else:
                target = nodes[at]
                if var.members is not None:      # a[i].m: the element's member's bits
                    comps = _member_bits(var, nodes[:at], comps, mode)
                elif var.comps and at >= 2 and isinstance(nodes[at - 1], c_ast.StructRef):
                    comps = _component(nodes[at - 2])  # a[i].s[k]: a vector's component
        elif var.members is not None:
            comps = _member_bits(var, nodes, comps, mode)
        elif var.comps and len(nodes) >= 2 and own is nodes[-2]:
            comps = _component(nodes[-2])
        if mode == READ and _decays(own):
            mode = ADDR                          # s.arr as a pointer: it may be written
        if mode == ADDR:
            target, comps = own, None
        keys = var.keys(comps)
        proven = self.state is None or (any(k in self.state for k in keys) if comps == ANY
                                        else all(k in self.state for k in keys))
        if mode in (READ, RW) and not proven:
            var.needed = True
        self._accesses[target] = Access(target, var, mode, proven, comps)
        if self.state is not None and (mode == ADDR or (mode in (WRITE, RW) and
                                                        not var.dims)):
            # (a write of a component no constant names: the vector's, as before)
            self.state.update(var.keys(None if comps == ANY else comps))


class Part(NamedTuple):
    """A member of a struct tracked a part at a time: its bits ``first`` to ``first +
    n``; a vector's (one a component); a nested struct's ``members``."""
    first: int
    n: int
    vector: bool = False
    members: dict | None = None


_FLAG_BITS = 63          # the widest flag (a ulong), less one to spare


def _struct_parts(t):
    """A struct (not a union) with more than one part: ({member: Part}, each bit's
    label). Each leaf member (a scalar, an array, a union, a pointer) is a bit, each
    component of a vector member a bit, a nested struct's members in turn; where that
    is too many bits, each member whole is one. None for other types."""
    if not isinstance(t, ty.Record) or t.union or not t.defined:
        return None
    for fine in (True, False):
        labels = []
        members = _parts_of(t, "", labels, fine)
        if len(labels) <= _FLAG_BITS:
            return (members, tuple(labels)) if len(labels) > 1 else None
    return None


def _parts_of(t, prefix: str, labels: list, fine: bool) -> dict:
    members = {}
    for name, ftype in t.fields:
        if not name:
            continue
        path, first = f"{prefix}{name}", len(labels)
        if fine and isinstance(ftype, ty.Vector):
            labels += [f"member '{path}', component {k} (.{'xyzw'[k]})" if ftype.n <= 4
                       else f"member '{path}', component {k} (.s{k:x})"
                       for k in range(ftype.n)]
            members[name] = Part(first, ftype.n, vector=True)
        elif fine and isinstance(ftype, ty.Record) and not ftype.union and ftype.defined:
            inner = _parts_of(ftype, f"{path}.", labels, fine)
            members[name] = Part(first, len(labels) - first, members=inner)
        else:
            labels.append(f"member '{path}'")
            members[name] = Part(first, 1)
    return members


def _member_bits(var: Var, nodes, comps, mode):
    """The bits of a struct tracked a part at a time that a use touches: ``nodes`` run
    from the use down to the variable; ``comps``: a swizzle's components of the vector
    member that ``nodes`` name. The struct whole: all of them (a read: any, as a copy
    of a struct filled member by member); a member: its bits (a vector's component:
    that component's)."""
    if not nodes:
        return None if mode == WRITE else ANY
    table, part, at = var.members, None, len(nodes) - 1
    while at >= 0 and isinstance(nodes[at], c_ast.StructRef) and table is not None:
        part = table.get(nodes[at].field.name)
        if part is None:
            return None if mode == WRITE else ANY
        table, at = part.members, at - 1
    if part is None:
        return None if mode == WRITE else ANY
    if part.vector and comps is not None:
        return frozenset(part.first + k for k in comps)
    if part.vector and at >= 1 and isinstance(nodes[at], c_ast.StructRef):
        k = _component(nodes[at - 1])            # s.v.s[k]
        return ANY if k == ANY else frozenset(part.first + c for c in k)
    if part.members is not None and mode == READ:
        return ANY                  # a nested struct copied whole: filled in part, fine
    return frozenset(range(part.first, part.first + part.n))


def _component(index: c_ast.ArrayRef):
    """The components ``v.s[k]`` uses (the lowering's component k: its array .s,
    indexed): {k}, or ANY where no constant names it."""
    k = index.subscript
    return frozenset([integer_value(k.value)]) \
        if isinstance(k, c_ast.Constant) and k.type == "int" else ANY


def _decays(node) -> bool:
    """An lvalue of array type, which a read turns into a pointer to it."""
    t = fact(node, "ty")
    if isinstance(t, ty.Array):
        return True
    # a member lowering made (a vector's .s) carries no type: an array
    return t is None and isinstance(node, c_ast.StructRef)


def _always(cond) -> bool:
    return isinstance(cond, c_ast.Constant) and cond.type == "int" and \
        integer_value(cond.value) != 0


def _copy(state):
    return None if state is None else set(state)


def _is_void(typename) -> bool:
    t = getattr(typename, "type", None)
    return isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType) and \
        t.type.names == ["void"]


def _structured(body) -> bool:
    """No goto or label, and every case label right in its switch's body: the only
    jumps are the ones the analysis follows."""
    cases = {n for n in _walk(body) if isinstance(n, (c_ast.Case, c_ast.Default))}
    for n in _walk(body):
        if isinstance(n, (c_ast.Goto, c_ast.Label)):
            return False
        if isinstance(n, c_ast.Switch) and isinstance(n.stmt, c_ast.Compound):
            cases -= set(n.stmt.block_items or [])
    return not cases


def _walk(node):
    todo = [node]
    while todo:
        n = todo.pop()
        if n is None:
            continue
        yield n
        todo.extend(c for _, c in n.children())
