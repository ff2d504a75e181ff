"""pycparser's syntax tree, with room on every node for what semantic analysis learns.

pycparser's node classes have ``__slots__``, so a node cannot take new attributes.
Each class gets a subclass of the same name (visitors and the C generator dispatch on
the name) with one slot per fact:

- ``ty``: an expression's type; a declaration's declared type (``types.Type``);
- ``space``: a declaration's address space;
- ``call``: a call's resolution (``sema.Call``: builtin row, conversion, user function);
- ``components``: the vector components a swizzle selects;
- ``symbol``: the declaration an identifier names (``sema.Symbol``);
- ``record``: a struct or union definition's ``types.Record``.

``typed(tree)`` turns a parsed tree into one of these; sema fills the facts, and every
later stage reads them from the node. ``copy.deepcopy`` keeps them (the facts are
values and are shared, not copied); a typed node copies itself slot by slot
(``copy_tree``), the same copy as deepcopy's generic way, made in a fraction of the time.
Nodes that lowering makes itself are plain pycparser nodes, or typed ones where a later
pass reads their facts (``make``).
"""
from __future__ import annotations

import copy
import copyreg

from pycparser import c_ast
from pycparser.c_parser import Coord

FACTS = ("ty", "space", "call", "components", "symbol", "record")

_TYPED: dict[type, type] = {}


def typed_class(cls: type) -> type:
    """The subclass of pycparser node class ``cls`` that carries the facts."""
    if cls in _TYPED.values():
        return cls
    sub = _TYPED.get(cls)
    if sub is None:
        def __init__(self, *args, **kwargs):
            cls.__init__(self, *args, **kwargs)
            for name in FACTS:
                setattr(self, name, None)
        sub = type(cls.__name__, (cls,), {"__slots__": FACTS, "__init__": __init__,
                                          "__deepcopy__": _deepcopy_node,
                                          "__module__": __name__,
                                          "__qualname__": cls.__qualname__})
        _TYPED[cls] = sub
    return sub


def make(cls: type, *args, **kwargs) -> c_ast.Node:
    """A new node of pycparser class ``cls`` with room for facts (all None)."""
    return typed_class(cls)(*args, **kwargs)


def is_typed(node) -> bool:
    return type(node) in _TYPED.values()


def typed(node):
    """The same tree built from typed nodes (facts None); ``node`` is left as it was."""
    if node is None or not isinstance(node, c_ast.Node):
        return node
    cls = type(node)
    sub = typed_class(cls)
    new = sub.__new__(sub)
    for name in _fields(cls):
        value = getattr(node, name, None)
        if isinstance(value, list):
            value = [typed(v) for v in value]
        elif isinstance(value, c_ast.Node):
            value = typed(value)
        setattr(new, name, value)
    for name in FACTS:
        setattr(new, name, None)
    if hasattr(node, "__dict__"):       # pycparserext's nodes without slots
        for name, value in vars(node).items():
            setattr(new, name, typed(value) if isinstance(value, c_ast.Node) else
                    [typed(v) for v in value] if isinstance(value, list) else value)
    return new


def fact(node, name: str):
    """The fact ``name`` of ``node``; None for a node that a rewrite made without facts."""
    return getattr(node, name) if is_typed(node) else None


def walk(node):
    """``node`` and every node under it, parents first, children in order; without
    recursion (kernels may nest thousands deep). (The translator's hottest loop: its
    methods bound once, and leaves push nothing.)"""
    stack = [node]
    pop, push = stack.pop, stack.extend
    while stack:
        n = pop()
        if n is None:
            continue
        yield n
        children = n.children()
        if children:
            push([child for _, child in reversed(children)])


def ids(node) -> set:
    """The names of the identifiers in ``node``; not the fields of ``x.f`` (a vector's
    ``.s`` is no variable ``s``: N-body's ``float s`` became a per-work-item array)."""
    out, stack = set(), [node]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.ID):
            out.add(n.name)
        elif isinstance(n, c_ast.StructRef):
            stack.append(n.name)
        elif n is not None:
            stack.extend(child for _, child in n.children())
    return out


def base_ids(lvalue) -> set:
    """The variable ``lvalue`` (``v``, ``a[i]``, ``s.f``) is based on, as a set (none: ``*p``)."""
    while isinstance(lvalue, (c_ast.ArrayRef, c_ast.StructRef)):
        lvalue = lvalue.name
    return {lvalue.name} if isinstance(lvalue, c_ast.ID) else set()


def assigned_names(body) -> set:
    """Variables that ``body`` assigns, increments or takes the address of (``&a[i]``
    counts ``a``: changed_names's ``&`` is narrower)."""
    out = set()
    for n in walk(body):
        if isinstance(n, c_ast.Assignment):
            out |= base_ids(n.lvalue)
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&"):
            out |= base_ids(n.expr)
    return out


def addressed_names(body) -> set:
    """The variables whose address, or an element's or member's, ``body`` takes (``&k``,
    ``&a[i]``, ``&s.f``): a pointer may change them."""
    return {name for n in walk(body)
            if isinstance(n, c_ast.UnaryOp) and n.op == "&"
            for name in base_ids(n.expr)}


def changed_names(body) -> set:
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


def replace_child(parent, name, new) -> None:
    """Put ``new`` in the slot of ``parent`` that ``children()`` calls ``name``."""
    if name.endswith("]"):
        attr, index = name[:-1].split("[")
        getattr(parent, attr)[int(index)] = new
    else:
        setattr(parent, name, new)

def replace_node(root, old, new) -> bool:
    """Replace ``old`` under ``root`` by ``new``; False if it is not there."""
    for name, child in root.children():
        if child is old:
            replace_child(root, name, new)
            return True
        if replace_node(child, old, new):
            return True
    return False


def substituted(expr, name: str, value):
    """``expr`` with each identifier ``name`` a copy of ``value``."""
    if isinstance(expr, c_ast.ID) and expr.name == name:
        return copy_tree(value)
    map_children(expr, lambda c: substituted(c, name, value))
    return expr


def child_fields(node) -> list[str]:
    """The slots of ``node`` that hold its children (nodes, lists of nodes or values),
    its coordinate and its facts left out; in pycparser's order."""
    return [name for name in _fields(type(node)) if name != "coord" and name not in FACTS]


def map_children(node, rewrite) -> None:
    """Replace each child node of ``node`` (in its slots and lists) by ``rewrite(child)``."""
    for name in child_fields(node):
        value = getattr(node, name, None)
        if isinstance(value, list):
            setattr(node, name, [rewrite(v) for v in value])
        elif isinstance(value, c_ast.Node):
            setattr(node, name, rewrite(value))


def copy_tree(node, memo: dict | None = None):
    """``copy.deepcopy(node, memo)``, faster for pycparser's nodes (and the typed ones):
    the same copy (shared objects stay shared), without deepcopy's generic
    reduce-and-rebuild of every node. Coordinates are shared: nothing changes one in
    place after parsing."""
    return _copy_value(node, {} if memo is None else memo)


def _deepcopy_node(node, memo: dict):
    """A typed node's ``__deepcopy__``: ``copy_tree``'s copy, which is deepcopy's."""
    return _copy_node(node, memo)


def _copy_node(node, memo: dict):
    cls = type(node)
    new = cls.__new__(cls)
    memo[id(node)] = new                # first: a node met again is this copy
    for name in _slot_names(cls):
        try:
            value = getattr(node, name)
        except AttributeError:          # an unset slot stays unset, as deepcopy leaves it
            continue
        setattr(new, name, _copy_value(value, memo))
    state = getattr(node, "__dict__", None)
    if state:                           # pycparserext's nodes without slots
        new.__dict__.update({k: _copy_value(v, memo) for k, v in state.items()})
    return new


_NOT_FOUND = object()
_SHARED = {type(None), str, int, float, bool, Coord}    # deepcopy's atomic values; Coord


def _copy_value(value, memo: dict):
    if type(value) in _SHARED:
        return value
    known = memo.get(id(value), _NOT_FOUND)
    if known is not _NOT_FOUND:
        return known
    if type(value) is list:
        new = []
        memo[id(value)] = new
        new.extend([_copy_value(v, memo) for v in value])
        return new
    if _plainly_copied(type(value)):
        return _copy_node(value, memo)
    return copy.deepcopy(value, memo)


_PLAIN: dict[type, bool] = {}


def _plainly_copied(cls: type) -> bool:
    """Whether deepcopy copies a node of ``cls`` slot by slot (reduce_ex's default),
    so that ``_copy_node`` gives the same copy; a class of its own making is left to it."""
    plain = _PLAIN.get(cls)
    if plain is None:
        plain = _PLAIN[cls] = (
            issubclass(cls, c_ast.Node) and
            getattr(cls, "__deepcopy__", _deepcopy_node) is _deepcopy_node and
            cls.__reduce_ex__ is object.__reduce_ex__ and
            cls.__reduce__ is object.__reduce__ and
            getattr(cls, "__getstate__", None) is getattr(object, "__getstate__", None) and
            not hasattr(cls, "__setstate__") and
            cls not in copyreg.dispatch_table)
    return plain


_SLOTS: dict[type, tuple[str, ...]] = {}


def _slot_names(cls: type) -> tuple[str, ...]:
    names = _SLOTS.get(cls)
    if names is None:
        names = _SLOTS[cls] = tuple(_fields(cls))
    return names


def _fields(cls: type) -> list[str]:
    names = []
    for klass in cls.__mro__:
        for name in getattr(klass, "__slots__", ()):
            if name != "__weakref__" and name not in names:
                names.append(name)
    return names
