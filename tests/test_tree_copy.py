"""Copies of syntax trees (typed_ast.copy_tree) are what ``copy.deepcopy`` makes, and a
snippet of C (workgroup/write.py), parsed once, comes out new every time."""
from __future__ import annotations

import copy

from pycparser import c_ast

from cl2c.pipeline import analyze
from cl2c.typed_ast import _TYPED, copy_tree, walk
from cl2c.workgroup.write import snippet

KERNEL = """
typedef struct { float x, y; } pair;
__constant int table[3] = {1, 2, 3};
int twice(int v) { return 2 * v; }
__kernel void k(__global float4 *out, __global const pair *in, __local float *tmp) {
    const int i = get_global_id(0), j = 3;
    float4 v = (float4)(in[i].x, in[i].y, 0.0f, 1.0f);
    tmp[get_local_id(0)] = v.x;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int n = 0; n < j; ++n) v.yz += (float2)(table[n], twice(n));
    out[i] = v;
}
"""


def _same_tree(a, b, seen: dict) -> None:
    """``b`` is a copy of ``a`` as deepcopy makes it: new nodes and lists (shared where
    ``a``'s are shared), equal values, the facts the same objects."""
    if id(a) in seen:
        assert seen[id(a)] is b
        return
    if isinstance(a, (c_ast.Node, list)):
        assert a is not b and type(a) is type(b)
        seen[id(a)] = b
    if isinstance(a, list):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            _same_tree(x, y, seen)
    elif isinstance(a, c_ast.Node):
        for name in _slots(type(a)):
            assert hasattr(a, name) == hasattr(b, name), name
            if hasattr(a, name):
                _same_tree(getattr(a, name), getattr(b, name), seen)
        assert getattr(a, "__dict__", {}).keys() == getattr(b, "__dict__", {}).keys()
        for name, value in getattr(a, "__dict__", {}).items():
            _same_tree(value, getattr(b, name), seen)
    else:
        assert a == b


def _slots(cls) -> list[str]:
    return [n for k in cls.__mro__ for n in getattr(k, "__slots__", ()) if n != "__weakref__"]


def test_copy_tree_copies_as_deepcopy_does(monkeypatch):
    module, *_ = analyze(KERNEL)
    tree = module.ast
    ours, by_deepcopy = copy_tree(tree), copy.deepcopy(tree)
    for cls in set(_TYPED.values()):        # deepcopy's own way: reduce and rebuild
        monkeypatch.delattr(cls, "__deepcopy__")
    theirs = copy.deepcopy(tree)
    for copied in (ours, by_deepcopy, theirs):
        _same_tree(tree, copied, {})
    _same_tree(theirs, ours, {})


def test_copy_tree_keeps_sharing_and_facts():
    module, *_ = analyze(KERNEL)
    decl = next(n for n in walk(module.ast) if isinstance(n, c_ast.Decl) and n.name == "v")
    shared = [decl, decl.quals, decl]
    memo: dict = {}
    first, again = copy_tree(shared, memo)[0], copy_tree(decl, memo)
    assert first is again and first.quals is not decl.quals
    assert first.ty is decl.ty and first.symbol is decl.symbol


def test_snippets_are_new_each_time():
    code = "const size_t a = 0, b = 0; if (a) continue;"
    first, second = snippet(code, coord="here"), snippet(code, types=["t"])
    assert all(n.coord == "here" for item in first for n in walk(item))
    assert all(n.coord is None for item in second for n in walk(item))
    first[0].quals.append("volatile")
    first[0].type.type.names[0] = "long"
    assert snippet(code)[0].quals == ["const"]
    assert snippet(code)[0].type.type.names == ["size_t"]
