"""Private variables that cross regions in the regions schedule: for each varying
variable, whether it stays local to a region, is recomputed in each region that
uses it, is a variable of each region that uses it (dead at every cut: no region reads
a value another wrote), or lives in a per-work-item array."""
from __future__ import annotations

from pycparser import c_ast

from ...lower.effects import work_item_function
from ...typed_ast import fact
from .errors import NeedFibers
from .plan import Region, all_items
from .syntax import LID, assigned_names, base_ids, ids, walk
from .uniformity import Analysis, is_scalar_decl


def _regions(items):
    return (it for it in all_items(items) if isinstance(it, Region))


class Privates:
    """Decides, for each varying variable, whether it stays local to a region, is
    recomputed in each region that uses it (``remat``), is declared again in each
    region that uses it (``per_region``: C89's `int i, j, k;` at a kernel's top, live
    in no barrier), or lives in a per-work-item array (``promoted``)."""

    def __init__(self, an: Analysis, items: list):
        self.an = an
        self.assigned = assigned_names(an.body)
        self.regions = list(_regions(items))
        self.promoted: list[c_ast.Decl] = []
        self.remat: dict[str, c_ast.Decl] = {}
        self.per_region: dict[str, c_ast.Decl] = {}
        refs: dict[str, set] = {}
        top_decl: dict[str, int] = {}
        for i, r in enumerate(self.regions):
            for s in r.stmts:
                if isinstance(s, c_ast.Decl) and s.name in an.decls:
                    top_decl[s.name] = i
                    if s.init is None:
                        sub = ids(s.type)
                    else:
                        sub = ids(s.init) | ids(s.type)
                else:
                    sub = ids(s)
                for name in an.in_order(sub):
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
        # a pointer that lives across a cut may hold the address of a private that does
        # not seem to: that private lives across too (its storage must outlast it)
        if any(_is_pointer(an.decls.get(name)) for name in crossing):
            crossing += [name for name in an.in_order(_pointed_to(an) & refs.keys())
                         if name not in crossing and name not in an.uniform]
        single = _single_assignments(self.regions, an)
        for name in crossing:
            d = an.decls[name]
            if name in top_decl and is_scalar_decl(d) and name not in an.addressed and \
                    not any(_exposed_use(name, self.regions[i].stmts)
                            for i in refs[name] if i != top_decl[name]):
                self.per_region[name] = d
            elif self._rematerializable(name, d, single, set()):
                self.remat[name] = d
            elif d.align:       # _Alignas (sema/attributes.py): per-work-item rows lose it
                raise NeedFibers(f"the private variable '{name}' has an alignment attribute "
                                 f"and lives across a barrier")
            else:
                self.promoted.append(d)
        # what a recomputed variable is computed from is recomputed too
        todo = list(self.remat)
        while todo:
            d = self.remat[todo.pop()]
            value = d.init if d.init is not None else single[d.name].rvalue
            for dep in an.in_order(ids(value)):
                if dep not in self.remat and dep not in an.uniform:
                    self.remat[dep] = an.decls[dep]
                    todo.append(dep)
        self.refs = refs
        self.top_decl = top_decl
        self.single = single

    def remat_value(self, name):
        """The expression recomputed variable ``name`` is computed from."""
        d = self.remat[name]
        return d.init if d.init is not None else self.single[name].rvalue

    def _declared_inside(self, name, i) -> bool:
        d = self.an.decls[name]
        return any(n is d for s in self.regions[i].stmts for n in walk(s))

    def _rematerializable(self, name, d, single, seen) -> bool:
        if name in seen or name in self.an.addressed or not is_scalar_decl(d) \
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
            args = e.args.exprs if e.args else []
            if work_item_function(e) is not None:
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
    ``v = e;`` statement at the top level of a region (old-style C kernels), and not
    read before it in that region (an uninitialised read: the assignment, which
    becomes the region's declaration of the recomputed value, would come after it)."""
    counts: dict[str, int] = {}
    for n in walk(an.body):
        if isinstance(n, c_ast.Assignment):
            for b in base_ids(n.lvalue):
                counts[b] = counts.get(b, 0) + 1
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&"):
            for b in base_ids(n.expr):
                counts[b] = counts.get(b, 0) + 2
    out = {}
    for r in regions:
        read: set[str] = set()
        for s in r.stmts:
            if isinstance(s, c_ast.Assignment) and s.op == "=" and \
                    isinstance(s.lvalue, c_ast.ID) and counts.get(s.lvalue.name) == 1 \
                    and s.lvalue.name not in read:
                d = an.decls.get(s.lvalue.name)
                if d is not None and d.init is None:
                    out[s.lvalue.name] = s
            read |= ids(s)
    return out


def _is_pointer(d) -> bool:
    t = fact(d, "ty") if d is not None else None
    return t is not None and t.is_pointer


def _pointed_to(an: Analysis) -> set:
    """The kernel's variables a pointer may point into: those whose address is taken,
    and arrays used as values (decayed to a pointer), not only indexed or sized."""
    out = {name for name in an.addressed if name in an.decls}
    for n in walk(an.body):
        for _, child in n.children():
            d = an.decls.get(child.name) if isinstance(child, c_ast.ID) else None
            if d is None or not isinstance(d.type, c_ast.ArrayDecl) or \
                    isinstance(n, c_ast.ArrayRef) and n.name is child or \
                    isinstance(n, c_ast.UnaryOp) and n.op == "sizeof":
                continue
            out.add(child.name)
    return out


def _exposed_use(name: str, stmts: list) -> bool:
    """Whether a run of ``stmts`` (a region's, top to bottom) may read ``name`` before
    writing it: the value it had when the region began, which another region wrote.
    Conservative: what this cannot follow counts as a read."""
    return _Reads(name).run(stmts, False)[1]


class _Reads:
    """Definite assignment of one scalar through statements: ``run`` returns (whether
    it is written on every path out, whether some path reads it first)."""

    def __init__(self, name: str):
        self.name = name

    def run(self, stmts, defined: bool) -> tuple[bool, bool]:
        for s in stmts:
            defined, exposed = self.stmt(s, defined)
            if exposed:
                return defined, True
        return defined, False

    def _reads(self, node, defined: bool) -> bool:
        return not defined and node is not None and self.name in ids(node)

    def stmt(self, s, defined: bool) -> tuple[bool, bool]:
        n = self.name
        if s is None or not self._mentions(s):
            return defined, False
        if isinstance(s, c_ast.Compound):
            return self.run(s.block_items or [], defined)
        if isinstance(s, c_ast.Decl):
            if s.name == n:
                return s.init is not None, False
            return defined, self._reads(s.init, defined) or self._reads(s.type, defined)
        if isinstance(s, c_ast.Assignment) and isinstance(s.lvalue, c_ast.ID) and \
                s.lvalue.name == n:
            if s.op != "=" and not defined:
                return defined, True
            return True, self._reads(s.rvalue, defined)
        if isinstance(s, c_ast.If):
            if self._reads(s.cond, defined):
                return defined, True
            then, e1 = self.stmt(s.iftrue, defined)
            other, e2 = self.stmt(s.iffalse, defined) if s.iffalse is not None \
                else (defined, False)
            return then and other, e1 or e2
        if isinstance(s, c_ast.For):
            defined, exposed = self.stmt(s.init, defined) if s.init is not None \
                else (defined, False)
            if exposed or self._reads(s.cond, defined):
                return defined, True
            # the body and the step may run 0 times; a read there sees this
            # iteration's writes or, first, the value from before the loop
            after, exposed = self.stmt(s.stmt, defined)
            if exposed or self._reads(s.next, after):
                return defined, True
            return defined, False
        if isinstance(s, c_ast.While):
            if self._reads(s.cond, defined):
                return defined, True
            return defined, self.stmt(s.stmt, defined)[1]
        if isinstance(s, c_ast.DoWhile):
            after, exposed = self.stmt(s.stmt, defined)
            if exposed or self._reads(s.cond, after):
                return defined, True
            # a `continue` skips the rest of the body: written only if written before
            return (after if not _continues(s.stmt) else defined), False
        if isinstance(s, c_ast.DeclList):
            return self.run(s.decls, defined)
        # anything else (an expression statement, a return, a switch, ...): a read
        # wherever the name appears, and no write
        return defined, not defined

    def _mentions(self, s) -> bool:
        return self.name in ids(s)


def _continues(body) -> bool:
    """Whether a ``continue`` of this loop (not of a nested one) is in ``body``."""
    todo = [body]
    while todo:
        n = todo.pop()
        if isinstance(n, c_ast.Continue):
            return True
        if not isinstance(n, (c_ast.For, c_ast.While, c_ast.DoWhile)):
            todo += [c for _, c in n.children()]
    return False
