"""Kernels whose work-groups all make the same __local accesses: checking builds check
the __local memory of one group of each size on each thread, and only the bounds of
the others' (check.h, cl2c_ck_group).

What a check of __local memory finds (a race, a read of a word no work-item wrote) is a
function of the group's accesses to it: which work-item touches which address in which
barrier phase, reading or writing. Where every such access, and whether it happens at
all, depends on nothing but the local ids and values the same in every group of the
launch, a group of the same size makes the same accesses, and finds what the first one
found. A kernel qualifies where:

- every address of a __local access (through a __local variable or argument, or a
  generic pointer) is *alike*: built from constants, the local ids and sizes and the
  other values of the launch (global sizes, offsets, the number of groups), scalar
  arguments, ``__constant`` memory at alike addresses, and variables alike at every
  assignment;
- every such access, every barrier and work-group function, runs under conditions that
  are alike (the enclosing ``if``, loop and ``?:``/``&&``/``||`` conditions, and no
  ``return``, ``break`` or ``continue`` before it on a condition that is not);
- nothing else can reach its __local memory: no call of a function of the program with
  a __local or generic pointer, or one that reaches a barrier; no async copy; no goto.

A variable stops being alike where any assignment to it is of a value that is not, or
runs on a condition that is not, or its address is taken; what is left is the largest
set that holds together (a loop counter ``s = s / 2`` from ``s = lsize / 2`` stays).
The launch's share is in check.h: the same kernel launch and a group of the same size.

Atomics on a __local variable (a histogram's counters, at addresses read from a buffer)
may vary where each comes after a barrier at the top of the kernel (ATOMICS). Two
atomics do not race; where the phase touches the variable only with atomics (the
emitter asks that phases.py made each such check CL2C_CK_LATOMIC), such an atomic finds
something only where the group has not written the word in an earlier phase. So
check.h has the first group make sure, at each barrier, that the group wrote every
word of its __local variables; the others' atomics then check bounds only.

Plain reads may vary too (READS: a tile read under a test of the global id), where
each is in a phase that writes none of its variable (the emitter asks that phases.py
made every read of __local memory CL2C_CK_LREAD): such a read finds something only
where the group had not written the word before the phase. The first group keeps, at
each barrier, which words of each __local variable the group wrote; the others' reads
look there (check.h, cl2c_ck_record).

Runs on sema's tree, before lowering rewrites it.
"""
from __future__ import annotations

from pycparser import c_ast

from .. import types as ty
from ..sema import FunctionInfo
from ..typed_ast import addressed_names, fact, walk

# work-item functions whose value is the same in every group (of one size) for a local id
_ALIKE_IDS = {"get_local_id", "get_local_size", "get_enqueued_local_size",
              "get_global_size", "get_num_groups", "get_work_dim", "get_global_offset",
              "get_local_linear_id"}
_COPIES = {"async_work_group_copy", "async_work_group_strided_copy", "wait_group_events",
           "prefetch"}
_CHANGES = ("++", "--", "p++", "p--")


ATOMICS, READS = "atomics", "reads"


def alike_groups(f: FunctionInfo, functions: dict) -> frozenset | None:
    """Whether every work-group of kernel ``f`` makes the same __local accesses: the
    kinds of them that may vary (an empty set: none), else None (and where the kernel
    has no __local memory: nothing to check in any group). ATOMICS: atomics on __local
    variables (a histogram's counters), each after a barrier at the top of the kernel;
    READS: plain reads (a tile's, on a condition of the global id)."""
    if f.gotos or f.labels:
        return None
    if not any(_is_local_decl(n) for n in walk(f.node.body)) and \
            not any(isinstance(p.type, ty.Pointer) and p.type.space == "local"
                    for p in f.params):
        return None             # no __local memory: nothing to share
    reader = _Reader(f, functions)
    while True:
        before = (len(reader.variant), len(reader.loops))
        reader.ok, reader.varying, reader.barrier = True, set(), False
        reader.statement(f.node.body, True, top=True)
        if (len(reader.variant), len(reader.loops)) == before:
            return frozenset(reader.varying) if reader.ok else None


def _is_local_decl(n) -> bool:
    sym = fact(n, "symbol") if isinstance(n, c_ast.ID) else None
    return sym is not None and sym.space == "local"


class _Reader:
    """One pass over the kernel with what is known not alike so far; ``ok`` ends False
    where an access, barrier or call breaks the rule."""

    def __init__(self, f: FunctionInfo, functions: dict):
        self.functions = functions
        self.variant: set[int] = set()      # declarations of variables not alike
        self.loops: set[int] = set()        # loops left on a condition not alike
        addressed = addressed_names(f.node.body)
        for n in walk(f.node):
            if isinstance(n, c_ast.Decl) and n.name in addressed:
                self.variant.add(id(n))
        self.ok = True
        self.varying: set = set()   # the kinds of __local access that vary
        self.barrier = False        # a barrier at the top of the kernel passed

    # ---- statements: ``alike`` says whether the conditions they run on are; the
    # result, whether a ``return`` (or a break or continue: "loop") may leave them on a
    # condition that is not
    def statement(self, s, alike: bool, top: bool = False) -> set:
        if s is None:
            return set()
        if isinstance(s, c_ast.Compound):
            out: set = set()
            for item in s.block_items or []:
                out |= self.statement(item, alike and not out)
                if top and isinstance(item, c_ast.FuncCall) and fact(item, "call") is not None \
                        and any(r.sync for r in _rows(item)):
                    self.barrier = True
            return out
        if isinstance(s, c_ast.DeclList):
            for d in s.decls:
                self.statement(d, alike)
            return set()
        if isinstance(s, c_ast.Decl):
            value = self.expr(s.init, alike) if s.init is not None else True
            # (a static variable: any group may have changed it)
            self.assign_to(id(s), value and "static" not in (s.storage or []), alike)
            return set()
        if isinstance(s, (c_ast.Return, c_ast.Break, c_ast.Continue)):
            if isinstance(s, c_ast.Return) and s.expr is not None:
                self.expr(s.expr, alike)
            if alike:
                return set()
            return {"return"} if isinstance(s, c_ast.Return) else {"loop"}
        if isinstance(s, c_ast.If):
            c = self.expr(s.cond, alike) and alike
            return self.statement(s.iftrue, c) | self.statement(s.iffalse, c)
        if isinstance(s, (c_ast.For, c_ast.While, c_ast.DoWhile)):
            return self._loop(s, alike)
        if isinstance(s, c_ast.Switch):
            # a break leaves the switch only; a continue its loop (either, as it may)
            c = self.expr(s.cond, alike) and alike
            out = self.statement(s.stmt, c)
            if not any(isinstance(n, c_ast.Continue) for n in walk(s.stmt)):
                out -= {"loop"}
            return out
        if isinstance(s, (c_ast.Case, c_ast.Default)):
            out = set()
            for item in s.stmts or []:
                out |= self.statement(item, alike and not out)
            return out
        if isinstance(s, (c_ast.EmptyStatement, c_ast.Typedef, c_ast.Pragma,
                          c_ast.StaticAssert)):
            return set()
        self.expr(s, alike)
        return set()

    def _loop(self, s, alike: bool) -> set:
        inside = alike and id(s) not in self.loops
        init = getattr(s, "init", None)
        if init is not None:
            self.statement(init, alike) if isinstance(init, (c_ast.Decl, c_ast.DeclList)) \
                else self.expr(init, alike)
        if s.cond is not None:
            inside = self.expr(s.cond, inside) and inside
        out = self.statement(s.stmt, inside)
        if getattr(s, "next", None) is not None:
            self.expr(s.next, inside)
        if "loop" in out and alike:
            self.loops.add(id(s))       # left early on a condition not alike: read again
        return out - {"loop"}

    # ---- expressions: whether the value is alike ------------------------------------
    def expr(self, e, alike: bool) -> bool:
        if e is None:
            return True
        if isinstance(e, c_ast.Constant):
            return True
        if isinstance(e, c_ast.ID):
            return self._id(e)
        if isinstance(e, c_ast.Assignment):
            value = self.expr(e.rvalue, alike)
            if e.op != "=":
                value = self.expr(e.lvalue, alike) and value
            self.store(e.lvalue, value, alike)
            return False
        if isinstance(e, c_ast.UnaryOp):
            if e.op in ("sizeof", "_Alignof"):
                return True
            if e.op == "&":
                return self.address(e.expr, alike)
            if e.op == "*":
                return self.access(e, alike)
            value = self.expr(e.expr, alike)
            if e.op in _CHANGES:
                self.store(e.expr, value, alike)
            return value
        if isinstance(e, c_ast.BinaryOp):
            left = self.expr(e.left, alike)
            if e.op in ("&&", "||"):
                return self.expr(e.right, alike and left) and left
            return self.expr(e.right, alike) and left
        if isinstance(e, c_ast.TernaryOp):
            c = self.expr(e.cond, alike)
            a = self.expr(e.iftrue, alike and c)
            b = self.expr(e.iffalse, alike and c)
            return a and b and c
        if isinstance(e, (c_ast.ArrayRef, c_ast.StructRef)):
            return self.access(e, alike)
        if isinstance(e, c_ast.FuncCall):
            return self._call(e, alike)
        if isinstance(e, c_ast.Cast):
            return self.expr(e.expr, alike)
        if isinstance(e, c_ast.ExprList):
            return all([self.expr(x, alike) for x in e.exprs])
        if isinstance(e, (c_ast.InitList, c_ast.CompoundLiteral, c_ast.NamedInitializer)):
            return all([self.expr(child, alike) for _, child in e.children()])
        return False

    def _id(self, e: c_ast.ID) -> bool:
        sym = fact(e, "symbol")
        if sym is None:
            return False
        if sym.kind in ("enum", "const", "func"):
            return True
        if sym.program or isinstance(sym.type, ty.Image):
            return sym.kind == "var" and sym.space == "constant"
        if isinstance(sym.type, ty.Array):
            return sym.space in ("local", "constant") or id(sym.node) not in self.variant
        return id(sym.node) not in self.variant

    # ---- memory: the object an lvalue designates, and what reaches __local memory ----
    def _designated(self, e, alike: bool):
        """(space, whether the address is alike, the base variable's declaration or
        None) of the object lvalue ``e`` designates; its subscripts read on the way."""
        if isinstance(e, c_ast.ID):
            sym = fact(e, "symbol")
            space = sym.space if sym is not None else "global"
            node = sym.node if sym is not None and not sym.program else None
            return space, True, node
        if isinstance(e, c_ast.ArrayRef):
            index = self.expr(e.subscript, alike)
            if isinstance(fact(e.name, "ty"), ty.Pointer):
                return fact(e.name, "ty").space, self.expr(e.name, alike) and index, None
            space, same, node = self._designated(e.name, alike)
            return space, same and index, node
        if isinstance(e, c_ast.StructRef):
            if e.type == "->":
                t = fact(e.name, "ty")
                space = t.space if isinstance(t, ty.Pointer) else "generic"
                return space, self.expr(e.name, alike), None
            return self._designated(e.name, alike)
        if isinstance(e, c_ast.UnaryOp) and e.op == "*":
            t = fact(e.expr, "ty")
            space = t.space if isinstance(t, ty.Pointer) else "generic"
            return space, self.expr(e.expr, alike), None
        self.expr(e, alike)
        return "generic", False, None

    def _local(self, space: str, same: bool, alike: bool, kind: str = ""):
        """An access of memory in ``space`` at an address ``same`` (alike or not); a
        plain read (READS) may vary, and an atomic's object (ATOMICS, its first
        argument) after a barrier at the top."""
        if space in ("local", "generic") and not (same and alike):
            if space == "local" and (kind == READS or kind == ATOMICS and self.barrier):
                self.varying.add(kind)
            else:
                self.ok = False

    def access(self, e, alike: bool) -> bool:
        """A read of ``e`` (an element, a member, ``*p``): alike where it is __constant
        memory at an alike address, or a private variable that is alike."""
        t = fact(e, "ty")
        space, same, node = self._designated(e, alike)
        if isinstance(t, ty.Array) and space != "private":
            return same and space in ("local", "constant")   # (an address, not a read)
        self._local(space, same, alike, READS)
        if space == "constant":
            return same
        return space == "private" and same and node is not None and \
            id(node) not in self.variant

    def address(self, e, alike: bool) -> bool:
        """``&e``: whether the address is alike (a private variable's: made not alike
        when the reader began)."""
        space, same, _ = self._designated(e, alike)
        return same and space != "private"

    def store(self, e, value: bool, alike: bool):
        space, same, node = self._designated(e, alike)
        self._local(space, same, alike)
        if space == "private" and node is None:
            self.ok = False         # through a private pointer: to what, not known
        if space == "private" and node is not None and not (value and same and alike):
            self.assign_to(id(node), False, alike)

    def assign_to(self, decl: int, value: bool, alike: bool):
        if not (value and alike):
            self.variant.add(decl)

    def _call(self, e: c_ast.FuncCall, alike: bool) -> bool:
        call = fact(e, "call")
        args = e.args.exprs if e.args is not None else []
        if call is None:
            for a in args:
                self.expr(a, alike)
            self.ok = False
            return False
        if call.kind == "vec_step":
            return True             # (its operand is a type, or not evaluated)
        if call.kind == "function":
            callee = self.functions.get(call.name)
            for a in args:
                if isinstance(fact(a, "ty"), (ty.Pointer, ty.Array)):
                    space, _ = self._pointer(a, alike)
                    if space in ("local", "generic"):
                        self.ok = False
                else:
                    self.expr(a, alike)
            if callee is None or callee.sync:
                self.ok = False
            return False
        if call.name in _COPIES:
            self.ok = False
        rows = _rows(e)
        # an atomic function's object (atomic_init's is a plain store: phases.py)
        atomic = call.name.startswith(("atomic_", "atom_")) and call.name != "atomic_init"
        values = []
        for i, a in enumerate(args):
            if isinstance(fact(a, "ty"), (ty.Pointer, ty.Array)):
                # what a builtin reaches through a pointer: the object it points to
                space, same = self._pointer(a, alike)
                self._local(space, same, alike, ATOMICS if atomic and i == 0 else "")
                values.append(False)
            else:
                values.append(self.expr(a, alike))
        if any(r.sync for r in rows) or call.name.startswith(("work_group_", "sub_group_")):
            if not alike:
                self.ok = False
            return False
        if call.kind in ("vload", "vload_half", "printf"):
            return False            # memory's value, or what printf returns
        if any(r.workitem for r in rows):
            return call.name in _ALIKE_IDS and all(values)
        if any(r.reads or r.has_effects for r in rows) or \
                any(isinstance(fact(a, "ty"), (ty.Image, ty.Sampler)) for a in args):
            return False
        return all(values)

    def _pointer(self, a, alike: bool) -> tuple[str, bool]:
        """The space a pointer argument (or an array's) points into and whether its
        value is alike. The call may write there: a private variable it points to stops
        being alike, and a private pointer to what is not known fails the kernel."""
        t = fact(a, "ty")
        target = a.expr if isinstance(a, c_ast.UnaryOp) and a.op == "&" else \
            a if isinstance(t, ty.Array) else None
        if target is None:
            space = t.space if isinstance(t, ty.Pointer) else "generic"
            if space == "private":
                self.ok = False
            return space, self.expr(a, alike)
        space, same, node = self._designated(target, alike)
        if space == "private":
            if node is None:
                self.ok = False
            else:
                self.variant.add(id(node))
        return space, same


def _rows(call: c_ast.FuncCall) -> list:
    """The builtin's row a call of one has (sema's choice), as a list."""
    c = fact(call, "call")
    return [c.row] if c is not None and c.row is not None else []
