"""Rewrites of a kernel before the regions analysis: early returns become guards,
parameters the kernel writes become locals, arrays get their sizes, and ``sizeof`` of a
local names its type."""
from __future__ import annotations

import copy

from pycparser import c_ast

from ... import types as ty
from ...typed_ast import fact, make
from ... import cnodes as cn
from ...lower.effects import has_effects, value_of_arguments, work_item_function
from .syntax import (assigned_names, base_ids, contains_sync, ids, set_declname,
                     statements, typename, walk)


def returns_as_guards(body: c_ast.Compound) -> int:
    """``if (c) return; rest`` among a kernel's top statements becomes ``if (!c) {
    rest }`` where ``rest`` reaches no barrier (guards one after the other become one):
    the same work-items run the same statements, and the guard can become the bounds of
    the work-item loop (bounds.py), where a jump out of its body would keep the loop
    from vectorising (Black-Scholes with ``if (i >= n) return;`` ran 20x slower).
    Returns how many returns went."""
    items = list(body.block_items or [])
    for i, s in enumerate(items):
        if is_return_guard(s) and not any(contains_sync(r) for r in items[i + 1:]):
            break
    else:
        return 0
    conds, rest = [], items[i:]
    while rest and is_return_guard(rest[0]):
        conds.append(_negated(rest.pop(0).cond))
    cond = conds[0]
    for c in conds[1:]:
        cond = _bool_op("&&", cond, c)
    inner = c_ast.Compound(rest, body.coord)
    count = len(conds) + returns_as_guards(inner)
    body.block_items = items[:i] + [c_ast.If(cond, inner, None, cond.coord)]
    return count


def guards_into_loops(body: c_ast.Compound) -> int:
    """``if (g) { decls; for (...) S; rest }`` among a kernel's top statements becomes
    ``decls; for (...) { if (g) S } if (g) { rest }``, where g reads no memory and the
    body changes none of it, the loop's header reads only its counter and the kernel's
    arguments (every work-item runs it the same), and the declarations have no effect
    (one that loads is declared before the loop and loaded under the guard, where the
    work-items that fail it load nothing). The loop then runs at group level, with the guarded
    work-item loop inside it and the guard its bounds (bounds.py); a work-item loop
    around a loop of each work-item's own does not vectorise (a guarded naive matmul ran
    25x slower). S's own loops of that kind go the same way (a loop over features inside
    a loop over clusters). Returns how many loops moved out of a guard."""
    items = list(body.block_items or [])
    declared = {n.name for n in walk(body) if isinstance(n, c_ast.Decl) and n.name}
    constant = ids(body) - declared - assigned_names(body)   # arguments, program scope
    moved = 0
    for i, s in enumerate(items):
        if not isinstance(s, c_ast.If) or s.iffalse is not None or contains_sync(s):
            continue
        inside = statements(s.iftrue)
        out = _distributed(s.cond, inside, constant)
        if out is None:
            continue
        names = {d.name for d in out if isinstance(d, c_ast.Decl)}
        outside = [n for j, t in enumerate(items) if j != i for n in walk(t)]
        if any(isinstance(n, c_ast.Decl) and n.name in names for n in outside):
            continue                    # moved out, a declaration would meet another
        items[i] = c_ast.Compound(out, s.coord)
        moved += sum(isinstance(t, c_ast.For) for t in out)
    body.block_items = items
    return moved


def _distributed(g, inside: list, constant: set) -> list | None:
    """``inside`` with the guard ``g`` distributed (guards_into_loops), or None."""
    if not reads_values(g) or ids(g) & assigned_names(c_ast.Compound(inside)) or \
            any(isinstance(n, c_ast.Return) for t in inside for n in walk(t)):
        return None
    out, pending, loops = [], [], 0

    def flush():
        if pending:
            out.append(c_ast.If(copy.deepcopy(g), c_ast.Compound(list(pending)), None,
                                g.coord))
            pending.clear()

    loaded = set()                          # declared for all, set under the guard
    for t in inside:
        if isinstance(t, c_ast.Decl):
            if t.init is not None and (not reads_values(t.init) or ids(t.init) & loaded):
                split = _split_load(t)
                if split is None:
                    return None
                if t.name in ids(c_ast.Compound(list(pending))):
                    flush()                 # (they name another variable of that name)
                out.append(split[0])        # declared for all, loaded under the guard
                pending.append(split[1])
                loaded.add(t.name)
                continue
            flush()
            out.append(t)
        elif isinstance(t, c_ast.For) and _uniform_header(t, constant) and \
                not any(isinstance(n, (c_ast.Break, c_ast.Continue)) for n in walk(t.stmt)):
            flush()
            # the loops in its body too, where they qualify (k-means: the loop over
            # the features inside the loop over the clusters)
            inner = _distributed(g, statements(t.stmt), constant)
            body = inner if inner is not None else \
                [c_ast.If(copy.deepcopy(g), t.stmt, None, g.coord)]
            out.append(c_ast.For(t.init, t.cond, t.next, c_ast.Compound(body), t.coord))
            loops += 1
        else:
            pending.append(t)
    flush()
    return out if loops else None


def _split_load(d: c_ast.Decl):
    """(``T x;``, ``x = init;``) for ``T x = init`` whose value loads memory and has no
    effect (``float4 p = pos[i]``); ``const`` goes (sema checked that nothing assigns
    ``x``). None for arrays, ``static`` and ``__local`` declarations, bit-fields."""
    if not isinstance(d.type, (c_ast.TypeDecl, c_ast.PtrDecl)) or d.storage or \
            d.bitsize is not None or isinstance(d.init, c_ast.InitList) or \
            has_effects(d.init):
        return None
    decl = copy.copy(d)
    decl.type = copy.deepcopy(d.type)
    decl.quals = [q for q in d.quals if q != "const"] if \
        isinstance(d.type, c_ast.TypeDecl) else list(d.quals)
    decl.type.quals = [q for q in decl.type.quals if q != "const"]
    decl.init = None
    return decl, c_ast.Assignment("=", cn.ident(d.name, d.coord), d.init, d.coord)


def reads_values(e) -> bool:
    """``e`` reads no memory and changes nothing: names, constants, arithmetic, pure
    builtins and work-item functions."""
    return not has_effects(e) and not any(
        isinstance(n, (c_ast.ArrayRef, c_ast.InitList)) or
        isinstance(n, c_ast.FuncCall) and not (value_of_arguments(n) or
                                               work_item_function(n)) or
        isinstance(n, c_ast.StructRef) and n.type == "->" or
        isinstance(n, c_ast.UnaryOp) and n.op in ("*", "&") for n in walk(e))


def _uniform_header(loop: c_ast.For, constant: set) -> bool:
    """The loop's header reads only values, its counter's and ``constant`` names (and
    group-wide work-item functions): every work-item runs it the same."""
    counters = set()
    init = loop.init
    decls = init.decls if isinstance(init, c_ast.DeclList) else [init] \
        if isinstance(init, c_ast.Decl) else []
    for d in decls:
        counters.add(d.name)
        if d.init is not None and not (reads_values(d.init) and ids(d.init) <= constant):
            return False
    if isinstance(init, c_ast.Assignment) and isinstance(init.lvalue, c_ast.ID):
        counters.add(init.lvalue.name)
        if not (reads_values(init.rvalue) and ids(init.rvalue) <= constant):
            return False
    elif init is not None and not decls:
        return False
    for e in (loop.cond, loop.next):
        if e is None:
            return False
        for n in walk(e):
            if isinstance(n, c_ast.FuncCall) and work_item_function(n) == "item":
                return False
        if isinstance(e, c_ast.Assignment) or isinstance(e, c_ast.UnaryOp) and \
                e.op in ("++", "--", "p++", "p--"):
            target = e.lvalue if isinstance(e, c_ast.Assignment) else e.expr
            if not (isinstance(target, c_ast.ID) and target.name in counters):
                return False
            rest = e.rvalue if isinstance(e, c_ast.Assignment) else None
            if rest is not None and not (reads_values(rest) and
                                         ids(rest) <= constant | counters):
                return False
        elif not (reads_values(e) and ids(e) <= constant | counters):
            return False
    return bool(counters)


def is_return_guard(s) -> bool:
    if not isinstance(s, c_ast.If) or s.iffalse is not None:
        return False
    then = s.iftrue
    while isinstance(then, c_ast.Compound) and len(then.block_items or []) == 1:
        then = then.block_items[0]
    return isinstance(then, c_ast.Return) and then.expr is None


# !(a < b) is a >= b for integers and pointers (not for floats: NaN)
_FLIPPED = {"<": ">=", ">=": "<", ">": "<=", "<=": ">"}


def _negated(c):
    """The condition ``!c``, as comparisons where it can: bounds.py reads those."""
    if isinstance(c, c_ast.BinaryOp):
        if c.op in ("&&", "||"):
            return _bool_op("||" if c.op == "&&" else "&&", _negated(c.left), _negated(c.right))
        if c.op in ("==", "!=") or (c.op in _FLIPPED and _exact(c.left) and _exact(c.right)):
            flipped = {"==": "!=", "!=": "=="}.get(c.op) or _FLIPPED[c.op]
            return _bool_op(flipped, c.left, c.right)
    if isinstance(c, c_ast.UnaryOp) and c.op == "!":
        return _bool_op("!=", c.expr, cn.const_int(0))
    out = make(c_ast.UnaryOp, "!", c, c.coord)
    out.ty = ty.INT
    return out


def _exact(e) -> bool:
    """An integer or a pointer: ordered comparisons negate exactly."""
    t = fact(e, "ty")
    return t is not None and (isinstance(t, ty.Pointer) or
                              (t.is_scalar and t.is_integer))


def _bool_op(op, left, right):
    out = make(c_ast.BinaryOp, op, left, right, left.coord)
    out.ty = ty.INT
    return out


def privatize_written_params(func: c_ast.FuncDef, params: dict) -> dict:
    """A parameter is a private of each work-item (spec 6.5: kernel arguments are
    in the private address space). In a work-group function one parameter serves
    the whole group, so each parameter the kernel assigns (or takes the address
    of) becomes a local variable initialised from it, ``int *data =
    cl2c_param_data;``, which the region analysis treats as any other private:
    once per group if every assignment is uniform, else per work-item.
    Returns the by-value parameters left (those of the old dict still named)."""
    written = params_written(func.body)
    copies = []
    for p in func.decl.type.args.params:
        if not isinstance(p, c_ast.Decl) or p.name not in written:
            continue
        local = copy.deepcopy(p)
        local.funcspec = [f for f in local.funcspec or [] if f != "CL2C_UNUSED"]
        local.init = cn.ident(f"cl2c_param_{p.name}")
        copies.append(local)
        set_declname(p, f"cl2c_param_{p.name}")
    if copies:
        func.body.block_items = copies + list(func.body.block_items or [])
    return {n: d for n, d in params.items() if n not in written}


def params_written(body) -> set:
    """Names whose own value the body changes: ``p = ...``, ``p += ...``, ``p++``,
    ``v.x = ...``, ``&p``; not ``p[i] = ...`` nor ``p->x = ...`` (the pointee)."""
    def base(lvalue):
        while True:
            if isinstance(lvalue, c_ast.ID):
                return lvalue.name
            if isinstance(lvalue, c_ast.ArrayRef) and not isinstance(lvalue.name, c_ast.ID):
                lvalue = lvalue.name          # v.s[0]: a component of a vector value
            elif isinstance(lvalue, c_ast.StructRef) and lvalue.type == ".":
                lvalue = lvalue.name
            else:
                return None

    out = set()
    for n in walk(body):
        target = None
        if isinstance(n, c_ast.Assignment):
            target = n.lvalue
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&"):
            target = n.expr
        name = base(target) if target is not None else None
        if name:
            out.add(name)
    return out


def complete_array_bounds(body) -> None:
    """``long a[] = {1, 2}`` -> ``long a[2]``: a per-work-item array needs the size."""
    for n in walk(body):
        if isinstance(n, c_ast.Decl) and isinstance(n.type, c_ast.ArrayDecl) and \
                n.type.dim is None:
            if isinstance(n.init, c_ast.InitList) and not any(
                    isinstance(e, c_ast.NamedInitializer) for e in n.init.exprs):
                n.type.dim = cn.const_int(len(n.init.exprs))
            elif isinstance(n.init, c_ast.Constant) and n.init.type == "string":
                n.type.dim = c_ast.UnaryOp("sizeof", copy.deepcopy(n.init))


def sizeof_by_type(body) -> None:
    """``sizeof(x)``, ``sizeof(x[0])`` and any other sizeof of an expression that
    names local variables become sizeof of their types: a variable moved into a
    per-work-item array changes what its name is."""
    decls = {n.name: n for n in walk(body) if isinstance(n, c_ast.Decl) and n.name}
    for n in list(walk(body)):
        if isinstance(n, c_ast.UnaryOp) and n.op == "sizeof" and \
                not isinstance(n.expr, c_ast.Typename):
            e, depth = n.expr, 0
            while isinstance(e, c_ast.ArrayRef):
                e, depth = e.name, depth + 1
            if not (isinstance(e, c_ast.ID) and e.name in decls):
                # any other operand (``sizeof(*sp)``, a member) by its type: its
                # variables may move as well, and sizeof evaluates nothing
                t = fact(n.expr, "ty")
                if t is not None and not t.is_array and ids(n.expr) & decls.keys():
                    n.expr = cn.typename(t)
                continue
            t = copy.deepcopy(decls[e.name].type)
            for _ in range(depth):
                if not isinstance(t, (c_ast.ArrayDecl, c_ast.PtrDecl)):
                    break
                t = t.type
            else:
                n.expr = typename(t)


def counters_into_loops(body: c_ast.Compound) -> int:
    """A counter declared ahead of its loops, as C89 has it (`int i, k;` at a kernel's
    top, then `for (k = 0; ...)` twice), is declared by each loop that assigns it
    first (`for (int k = 0; ...)`) where nothing outside those loops reads or writes
    it: each loop's counter is then a variable of its own, which the region analysis
    can find uniform in one loop and not in another, and which lives across no barrier
    that the loop does not hold (the lecture's matrix product, `k` a loop over the
    local ids and then over a row: a per-work-item array for `k` made it 6x slower).
    Returns how many counters moved."""
    moved = 0
    for block in [n for n in walk(body) if isinstance(n, c_ast.Compound)]:
        items = block.block_items or []
        for at, d in enumerate(list(items)):
            if isinstance(d, c_ast.Decl) and _owned_by_loops(d, items[at + 1:]):
                loops = _owning_loops(d.name, items[at + 1:])
                for loop in loops:
                    decl = copy.deepcopy(d)
                    decl.init = loop.init.rvalue
                    decl.coord = loop.init.coord or d.coord
                    loop.init = c_ast.DeclList([decl], loop.init.coord)
                block.block_items = [s for s in block.block_items if s is not d]
                moved += 1
    return moved


def _owned_by_loops(d: c_ast.Decl, scope: list) -> bool:
    """Whether every use of ``d``'s variable in ``scope`` (the statements after it) is
    in a loop that starts by assigning it, no such loop inside another."""
    name = d.name
    if not name or d.bitsize is not None or not isinstance(d.type, c_ast.TypeDecl) or \
            "volatile" in (d.type.quals or []) or (d.init is not None and has_effects(d.init)):
        return False
    loops = _owning_loops(name, scope)
    if not loops or any(name in ids(loop.init.rvalue) for loop in loops):
        return False                  # (`k = k + 1` reads the value before the loop)
    inside = {id(n) for loop in loops for n in walk(loop)}
    for s in scope:
        for n in walk(s):
            if isinstance(n, c_ast.Decl) and n.name == name:
                return False          # another variable of that name: leave the scope be
            if isinstance(n, c_ast.UnaryOp) and n.op == "&" and name in base_ids(n.expr):
                return False          # (&A[i * n + k] takes A's element's, not k's)
            if id(n) in inside:
                continue
            if isinstance(n, c_ast.ID) and n.name == name:
                return False
    # a loop of the counter's inside another: the same variable, not two
    return not any(id(inner) in {id(n) for n in walk(outer.stmt)}
                   for outer in loops for inner in loops if inner is not outer)


def _owning_loops(name: str, scope: list) -> list:
    """The for loops in ``scope`` whose init is ``name = e``."""
    return [n for s in scope for n in walk(s)
            if isinstance(n, c_ast.For) and isinstance(n.init, c_ast.Assignment) and
            n.init.op == "=" and isinstance(n.init.lvalue, c_ast.ID) and
            n.init.lvalue.name == name]


def type_definitions_out(body: c_ast.Compound) -> list:
    """The kernel's own types (``struct S {...};``, ``typedef ... T;`` in its body),
    taken out to be declared at the work-group function's top: a private of such a type
    that crosses a barrier lives in a per-work-item array declared there. Left where
    they are if two blocks define one name (each its own type)."""
    found = []
    for block in walk(body):
        if isinstance(block, c_ast.Compound):
            found += [(block, s) for s in block.block_items or [] if _defines_type(s)]
    names = [_type_name(s) for _, s in found]
    if len(set(names)) != len(names):
        return []
    for block, s in found:
        block.block_items = [x for x in block.block_items if x is not s]
    return [s for _, s in found]


def _defines_type(s) -> bool:
    return isinstance(s, c_ast.Typedef) or (
        isinstance(s, c_ast.Decl) and s.name is None and
        isinstance(s.type, (c_ast.Struct, c_ast.Union, c_ast.Enum)) and
        s.type.name is not None and
        (s.type.values if isinstance(s.type, c_ast.Enum) else s.type.decls) is not None)


def _type_name(s) -> tuple:
    return ("typedef", s.name) if isinstance(s, c_ast.Typedef) else (type(s.type), s.type.name)
