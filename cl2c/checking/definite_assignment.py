"""Definite assignment of private variables (checking builds): which reads of a
function's uninitialised private variables may run before any write.

A conservative, flow-sensitive must-analysis over the structured control flow of the
lowered C tree (if, loops, switch, break, continue, return). Its state at a point is
the set of variables written on every path to it: a read of a variable in the set
needs no check. A loop's body starts from the state before the loop (the state at its
head on a later iteration can only hold more), so one walk suffices, no fixed point.

What counts as a write of a variable ``x`` (its runtime flag is set there too):
- an assignment to it, or to any part of it (``v.s[0] = ...``, ``s.a = ...``: a vector
  or struct with one component written counts as written whole: no false positives
  for the float3's unused fourth component, or a struct filled member by member);
- ``x++``, ``x += e`` (a read first);
- its address taken (``&x``, ``&v.s[1]``, an array named so that it decays to a
  pointer): whatever the pointer is given to may write it, so it counts as written.
An element of a private array is tracked on its own (a runtime shadow byte); the
analysis never proves an element written, only the whole array by its address.

Not tracked (never reported): variables with an initialiser, function parameters,
variables the lowering made (``cl2c_*``), declarations of a ``for``'s first clause or
directly in a ``switch`` body (a jump may skip their flag's initialiser), every
variable of a function with ``goto`` or labels, and arrays of unknown length.
Reads through a pointer are not checked.
"""
from __future__ import annotations

from pycparser import c_ast

from .. import types as ty
from ..typed_ast import fact

READ, WRITE, RW, ADDR = "read", "write", "rw", "addr"


class Var:
    """A tracked private variable: its declaration, and whether it is an array (how
    many dimensions, how many innermost elements). Compared by identity: two
    declarations of one name are two variables."""
    __slots__ = ("decl", "name", "dims", "total", "needed")

    def __init__(self, decl, dims: int = 0, total: int = 1):
        self.decl, self.name, self.dims, self.total = decl, decl.name, dims, total
        self.needed = False          # some read may run before a write: a flag, checks


class Access:
    """A use of a tracked variable: ``node`` is the part of the tree that names it
    (the variable or its element), ``mode`` read, write, rw or addr (an escape), and
    ``proven`` whether the variable is definitely written before (reads, rw)."""
    __slots__ = ("node", "var", "mode", "proven")

    def __init__(self, node, var, mode, proven):
        self.node, self.var, self.mode, self.proven = node, var, mode, proven


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
            shape = _tracked_type(fact(d, "ty"))
            if shape is not None:
                var = Var(d, *shape)
                self.vars.append(var)
        if d.name:
            self.scopes[-1][d.name] = var
        if var is not None and self.state is not None:
            self.state.discard(var)   # a fresh variable each time it is reached

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
            if n.args is not None:
                for a in n.args.exprs:
                    self.expr(a)
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

    def chain(self, top, mode):
        """``top`` is an lvalue made of elements and members of an ID (or of some other
        expression): the indices are read, then the variable is used."""
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
            return
        var = self.lookup(n.name)
        if var is None:
            return
        # the part of the chain that is the variable's own storage: up to a pointer
        # that an index dereferences (p[i], s.p[i]: the pointer is read)
        t, own = fact(var.decl, "ty"), n
        for node in reversed(nodes):
            if isinstance(node, c_ast.ArrayRef):
                if isinstance(t, ty.Pointer):
                    mode = READ
                    break
                t = t.elem if isinstance(t, ty.Array) else None
            else:
                t = fact(node, "ty")
            own = node
        self.use(var, nodes, own, top, mode)

    def use(self, var: Var, nodes, own, top, mode):
        """Record the use; ``own`` is the topmost node of ``nodes`` (top to the
        variable) still in the variable's storage (the variable itself when none)."""
        target = own
        if var.dims:
            # an element: the variable indexed once per dimension
            at = len(nodes) - var.dims
            own_at = next((i for i, x in enumerate(nodes) if x is own), len(nodes))
            if at < 0 or own_at > at:
                mode = ADDR                      # the array, or a row, as a pointer
            else:
                target = nodes[at]
        if mode == READ and _decays(own):
            mode = ADDR                          # s.arr as a pointer: it may be written
        if mode == ADDR:
            target = own
        proven = self.state is None or var in self.state
        if mode in (READ, RW) and not proven:
            var.needed = True
        self._accesses[target] = Access(target, var, mode, proven)
        if self.state is not None and (mode == ADDR or (mode in (WRITE, RW) and
                                                        not var.dims)):
            self.state.add(var)


def _decays(node) -> bool:
    """An lvalue of array type, which a read turns into a pointer to it."""
    t = fact(node, "ty")
    if isinstance(t, ty.Array):
        return True
    # a member lowering made (a vector's .s) carries no type: an array
    return t is None and isinstance(node, c_ast.StructRef)


def _always(cond) -> bool:
    return isinstance(cond, c_ast.Constant) and cond.type == "int" and \
        cond.value.rstrip("uUlL") not in ("0", "0x0")


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
