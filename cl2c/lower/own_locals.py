"""Kernel-scope ``__local`` arrays of which each work-item touches only its own elements,
at an index that differs with global id 0: ``tmp[tid] += partial[g + tid]``, ``tid`` the
global id (the Programming Guide's sum of partial histograms).

Where a kernel has no barriers, atomics or other way to see its group (and no
``__local`` argument), no work-item can read what another wrote to ``__local`` memory
without a race. Each work-item's accesses then depend on its global ids alone, and cl2c
may cut the range into groups of its own choosing, as it does for a kernel with no
``__local`` memory at all (host.h's ``cl2c_regroup``), provided that no two work-items of
one of those groups meet at an element. Its groups are pieces of one row (dimension 1
and 2 ids fixed, at most ``CL2C_MAX_WORK_GROUP_SIZE`` consecutive ids of dimension 0;
no register tiles of rows): an index ``c * gid(0) + K``, ``c`` a nonzero constant and
``K`` free of ``gid(0)``, keeps them apart, wrapping in 32 bits or not.

An array qualifies where every use of its name is ``a[E]`` with one and the same such
index ``E`` (lower/unconditional.py's polynomials, through variables initialised so and
never changed), further subscripts and members of the element free, and neither its
address nor a row of it taken anywhere. Runs on sema's tree, before lowering rewrites it.
"""
from __future__ import annotations

from pycparser import c_ast

from .. import types as ty
from ..sema import FunctionInfo
from ..typed_ast import fact, walk
from .tree_facts import parents_of
from .unconditional import IndexReader

# |c| at most this: c times the ids of a group (4096 apart at most) stays below 2^31
_MAX_STRIDE = 1 << 16
# every value on the way at least this wide: a narrower type wraps within a group
_MIN_RANGE = 1 << 32


def own_local_arrays(f: FunctionInfo) -> tuple[str, ...]:
    """The names of kernel ``f``'s kernel-scope ``__local`` arrays, where every one of
    them qualifies (above); () where one does not, or there are none."""
    decls = {id(d): d for d in f.node.body.block_items or []
             if isinstance(d, c_ast.Decl) and fact(d, "space") == "local"}
    if not decls:
        return ()
    reader = _Indices(f)
    parents = parents_of(f.node.body)
    index: dict[int, tuple] = {}        # array -> the index of its every use
    for n in walk(f.node.body):
        sym = fact(n, "symbol") if isinstance(n, c_ast.ID) else None
        if sym is None or id(sym.node) not in decls:
            continue
        e = _own_element(n, parents, reader)
        if e is None or index.setdefault(id(sym.node), e) != e:
            return ()
    return tuple(decls[i].name for i in decls if i in index)


def _own_element(name: c_ast.ID, parents: dict, reader: "_Indices") -> tuple | None:
    """The index of ``name[E]...`` (as a sorted tuple of terms) where E keeps the
    work-items apart and the element is used in place; None otherwise."""
    parent, slot = parents.get(id(name), (None, None))
    if not (isinstance(parent, c_ast.ArrayRef) and slot == "name"):
        return None
    value = reader.index(parent.subscript)
    if not _apart(value):
        return None
    top = parent
    while True:         # further subscripts, members of the element
        up, slot = parents.get(id(top), (None, None))
        if slot == "name" and (isinstance(up, c_ast.ArrayRef) or
                               isinstance(up, c_ast.StructRef) and up.type == "."):
            top = up
        else:
            break
    if isinstance(fact(top, "ty"), ty.Array) or isinstance(up, c_ast.UnaryOp) and up.op == "&":
        return None     # a row, which becomes a pointer; an address
    return tuple(sorted(value[0].items()))


class _Indices(IndexReader):
    """Indices as polynomials, through the variables of every declaration of the
    kernel (not only those every work-item runs: a value is a value where it is used)."""

    def __init__(self, f: FunctionInfo):
        super().__init__(f)
        for d in walk(f.node.body):     # in order: an earlier declaration's value first
            if isinstance(d, c_ast.Decl) and d.init is not None:
                self._variable(d)

    def index(self, e) -> tuple[dict, list] | None:
        return self._poly(e)


def _apart(value) -> bool:
    """Polynomial ``value`` (IndexReader's) is c * gid0 + K: c a constant, 0 < |c| <=
    _MAX_STRIDE, no other term with gid0, and no value on the way narrower than 32 bits."""
    if value is None:
        return False
    poly, within = value
    terms = [(fs, c) for fs, c in poly.items() if "gid0" in fs]
    if len(terms) != 1 or terms[0][0] != ("gid0",) or not 0 < abs(terms[0][1]) <= _MAX_STRIDE:
        return False
    return all(hi - lo + 1 >= _MIN_RANGE for _, lo, hi in within)
