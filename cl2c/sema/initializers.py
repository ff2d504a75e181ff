"""Brace initializers, fully braced (C11 6.7.9).

OpenCL C, like C, lets an initializer elide the braces of subaggregates
(``int m[2][2] = {1, 2, 3, 4}``) and mix designators in (``{[1] = 5, 6}``). The C that
cl2c writes must not lean on that (GCC and clang warn -Wmissing-braces, and a vector is
a struct in the runtime), so sema rewrites every brace initializer into the fully braced
one that gives the same values to the same places: each subaggregate its own braces, a
designator ``[k]`` or ``.name`` only where an item does not follow the one before it.

A vector is no aggregate there, as in clang (and so PoCL and Intel's runtime; the spec
is silent): a scalar item where a vector goes initializes that whole vector (a splat),
so ``float4 v[2] = {1, 2, 3, 4}`` is (1,1,1,1), (2,2,2,2) and two excess items. A brace
list for a vector lists its components, a vector item giving as many as it has, all of
them or none. Excess items in a list are dropped, with clang's warning.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from pycparser import c_ast

from .. import types as ty
from ..typed_ast import make


def is_aggregate(t: ty.Type) -> bool:
    """A type whose members items fill with its braces elided (not a vector's)."""
    return isinstance(t, (ty.Array, ty.Record))


def member_count(t: ty.Type) -> int | None:
    """The members a brace list of ``t`` fills in order (None: an array of unknown
    length, as many as it is given); a union's first member only."""
    if isinstance(t, ty.Array):
        return t.length
    if isinstance(t, ty.Record):
        return min(1, len(t.fields)) if t.union else len(t.fields)
    return 1


def member_type(t: ty.Type, pos: int) -> ty.Type:
    if isinstance(t, ty.Array):
        return t.elem
    return t.fields[pos][1]


def items(node: c_ast.InitList, t: ty.Type):
    """(position, value, the type it initializes) of each item of a fully braced list of
    ``t``, following its one-level designators."""
    pos = 0
    for e in node.exprs:
        value = e
        if isinstance(e, c_ast.NamedInitializer):
            d, value = e.name[0], e.expr
            pos = next(i for i, (n, _) in enumerate(t.fields) if n == d.name) \
                if isinstance(d, c_ast.ID) else int(d.value)
        yield pos, value, member_type(t, pos) if is_aggregate(t) else t
        pos += 1


def braced_length(node: c_ast.InitList, t: ty.Array) -> int:
    """The length a fully braced list gives an array declared without one."""
    return max((pos + 1 for pos, _, _ in items(node, t)), default=0)


@dataclass
class _Aggregate:
    """An object being initialized: its members' values by position, each an
    expression or an _Aggregate."""
    t: ty.Type
    members: dict = field(default_factory=dict)
    coord: object = None

    def child(self, pos: int) -> _Aggregate:
        """The member at ``pos`` as an aggregate to fill in (kept if already one)."""
        m = self.members.get(pos)
        if not isinstance(m, _Aggregate):
            m = self.members[pos] = _Aggregate(member_type(self.t, pos), coord=self.coord)
        return m

    def init_list(self) -> c_ast.InitList:
        out, expected = [], 0
        if self.leaves_fields_out():
            expected = -1           # a designator says so (-Wmissing-field-initializers)
        for pos in sorted(self.members):
            m = self.members[pos]
            value = m.init_list() if isinstance(m, _Aggregate) else m
            if pos != expected:
                d = c_ast.ID(self.t.fields[pos][0]) if isinstance(self.t, ty.Record) \
                    else c_ast.Constant("int", str(pos))
                value = make(c_ast.NamedInitializer, [d], value, value.coord)
            out.append(value)
            expected = pos + 1
        return make(c_ast.InitList, out, self.coord)


    def leaves_fields_out(self) -> bool:
        """A struct's list that stops before its last field (the rest are zero)."""
        t = self.t
        return isinstance(t, ty.Record) and not t.union and bool(self.members) and \
            max(self.members) < len(t.fields) - 1 and t.fields[min(self.members)][0]


class _Filler:
    """Places the items of one written brace list (C11 6.7.9p17-20): the cursor is the
    path of open subobjects, from the list's own object to the innermost one whose
    braces were elided, each with the position its next item goes to."""

    def __init__(self, checker, type_of: Callable):
        self.checker, self.type_of = checker, type_of

    def braced(self, node: c_ast.InitList, t: ty.Type):
        """A written brace list of ``t``: an _Aggregate to fill in further, or the
        list or expression it stands for."""
        if is_braced_string(node, t):
            return node
        if isinstance(t, ty.Vector):
            return self.vector_list(node, t)
        if not is_aggregate(t):
            return self.scalar(node)
        return self.fill(_Aggregate(t, coord=node.coord), node)

    def fill(self, agg: _Aggregate, node: c_ast.InitList) -> _Aggregate:
        path = [[agg, 0]]
        for e in node.exprs:
            value = e
            if isinstance(e, c_ast.NamedInitializer):
                path, value = self.designate(agg, e), e.expr
            if not self.place(path, value, e):
                # clang stops at the first item past the end, designated or not
                self.checker.reporter.warning(f"excess elements in {kind_of(agg.t)} "
                                              f"initializer", e.coord)
                break
        return agg

    def scalar(self, node: c_ast.InitList):
        """A scalar's brace list ({x}, {{x}}): x, the items after it excess."""
        while isinstance(node, c_ast.InitList):
            if not node.exprs:
                self.checker.error("scalar initializer cannot be empty", node)
            if len(node.exprs) > 1:
                self.checker.reporter.warning("excess elements in scalar initializer",
                                              node.exprs[1].coord)
            node = node.exprs[0]
            if isinstance(node, c_ast.NamedInitializer):
                self.checker.error("designator in initializer for scalar type", node)
        return node

    def vector_list(self, node: c_ast.InitList, t: ty.Vector) -> c_ast.InitList:
        """A vector's brace list: its components in order, a vector item (of the same
        component type) giving all of its own, like a vector literal (OpenCL C 6.1.6);
        clang wants all of them or none."""
        if not node.exprs:
            return node
        parts, count = [], 0
        for e in node.exprs[:t.n]:
            if isinstance(e, c_ast.NamedInitializer):
                self.checker.error(f"designator in initializer for scalar type "
                                   f"'{t.elem}'", e)
            e = self.scalar(e)
            et = self.type_of(e)
            if et.is_vector and et.elem == t.elem:
                count += et.n
            elif et.is_vector or self.checker.incompatible(t.elem, et):
                self.checker.error(f"initializing '{t.elem}' with an expression of "
                                   f"incompatible type '{et}'", e)
            else:
                count += 1
            parts.append(e)
        if count != t.n:
            self.checker.error(f"too {'few' if count < t.n else 'many'} elements in vector "
                               f"initialization (expected {t.n} elements, have {count})",
                               node)
        if len(node.exprs) > t.n:
            self.checker.error("excess elements in vector initializer", node.exprs[t.n])
        return make(c_ast.InitList, parts, node.coord)

    def designate(self, agg: _Aggregate, e: c_ast.NamedInitializer) -> list:
        """The cursor at the subobject a designation names; initialization goes on in
        order from there."""
        path = [[agg, 0]]
        designators = list(e.name)
        while designators:
            d = designators.pop(0)
            top = path[-1][0]
            if isinstance(d, c_ast.ID):
                # (pycparser gives a NamedInitializer no position: its designator has one)
                where = d if d.coord is not None else e
                if not isinstance(top.t, ty.Record):
                    self.checker.error(f"field designator '.{d.name}' for a non-struct, "
                                       f"non-union type '{top.t}'", where)
                pos, through = self.field_position(top.t, d.name, where)
                designators[:0] = through
            else:
                if not isinstance(top.t, ty.Array):
                    self.checker.error(f"array designator for a non-array type "
                                       f"'{top.t}'", d)
                pos = self.checker.const_int(d)
                count = member_count(top.t)
                if pos is None or pos < 0 or count is not None and pos >= count:
                    self.checker.error(f"array designator index out of range for type "
                                       f"'{top.t}'", d)
            path[-1][1] = pos
            if designators:
                path.append([top.child(pos), 0])
        return path

    def field_position(self, rec: ty.Record, name: str, e) -> tuple[int, list]:
        """The position of field ``name`` in ``rec``, and the designators that go on to
        it through an unnamed member holding it."""
        for i, (fname, ftype) in enumerate(rec.fields):
            if fname == name:
                return i, []
            if fname is None and isinstance(ftype, ty.Record) and \
                    ftype.field_type(name) is not None:
                return i, [c_ast.ID(name)]
        self.checker.error(f"no member named '{name}' in '{rec}'", e)

    def place(self, path: list, value, where) -> bool:
        """Puts ``value`` at the cursor, opening subaggregates whose braces are elided
        (p20), and moves the cursor on; False if the list's own object is full."""
        while True:
            agg, pos = path[-1]
            count = member_count(agg.t)
            if count is not None and pos >= count:
                if len(path) == 1:
                    return False
                path.pop()
                path[-1][1] += 1
                continue
            target = member_type(agg.t, pos)
            if isinstance(value, c_ast.InitList):
                agg.members[pos] = self.braced(value, target)
            elif is_aggregate(target) and not self.whole(value, target):
                path.append([agg.child(pos), 0])
                continue
            else:
                agg.members[pos] = value
            path[-1][1] = pos + 1
            return True

    def whole(self, value, t: ty.Type) -> bool:
        """Whether an expression initializes all of aggregate ``t`` (a struct, union or
        vector of its type, a string for a char array) rather than its first scalar."""
        if is_string(value):
            return is_char_array(t)
        return self.type_of(value) == t


def kind_of(t: ty.Type) -> str:
    """What clang calls an aggregate in its diagnostics."""
    if isinstance(t, ty.Record):
        return "union" if t.union else "struct"
    return "array"


def is_string(node) -> bool:
    return isinstance(node, c_ast.Constant) and node.type == "string"


def is_char_array(t: ty.Type) -> bool:
    return isinstance(t, ty.Array) and t.elem.is_integer and t.elem.size == 1


def is_braced_string(node: c_ast.InitList, t: ty.Type) -> bool:
    """char s[] = {"text"}: a string in braces, all of a char array's initializer."""
    return is_char_array(t) and len(node.exprs) == 1 and is_string(node.exprs[0])


def fully_braced(checker, node: c_ast.InitList, t: ty.Type, type_of) -> c_ast.InitList:
    """``node``, an initializer of ``t`` whose expressions sema has typed, fully
    braced; ``checker`` reports a misplaced item and folds designators."""
    braced = _Filler(checker, type_of).braced(node, t)
    if isinstance(braced, _Aggregate):
        return braced.init_list()
    if not isinstance(braced, c_ast.InitList):      # int x = {{1}, 2}: {1}
        return make(c_ast.InitList, [braced], node.coord)
    return braced
