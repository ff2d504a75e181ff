"""Matching a call against the builtin table (builtins.py): which row the argument
types fit, the generic type T they decide, and the types a row's patterns stand for."""
from __future__ import annotations

from . import builtins as bi
from . import types as ty

# The integer type of a size in bytes and a signedness.
_INTEGER_OF = {(t.size, t.signed): t for t in (ty.CHAR, ty.UCHAR, ty.SHORT, ty.USHORT, ty.INT,
                                               ty.UINT, ty.LONG, ty.ULONG)}


def match(row: bi.Builtin, args: list[ty.Type]):
    """(result type, generic type, second width n or None) if ``args`` fit ``row``,
    else None."""
    if len(args) != len(row.params):
        return None
    # size_t and the like are typedefs of ulong and long (clang's): max(get_global_id(0),
    # n) for a size_t n is max's ulong overload
    args = [_canonical(a) if a.is_scalar else a for a in args]
    family = bi.FAMILIES[row.family]
    # a vector and scalars, max(0.0f, v) for a float4 v: the scalars widen to the vector
    # (clang's overloads take a scalar for a vector parameter)
    generic = next((at for pat, at in zip(row.params, args)
                    if pat == "T" and at.is_vector and at in family), None)
    for pat, at in zip(row.params, args):
        if generic is not None:
            break
        if pat == "T" and at in family:
            generic = at
            break
        if pat.endswith("T*") and isinstance(at, ty.Pointer):
            pointee = at.pointee
            if " atomic " in f" {pat}" and isinstance(pointee, ty.Atomic):
                pointee = pointee.value     # atomic_load(p): T int for an atomic_int *p
            if pointee in family:
                generic = pointee           # atomic_inc(p): T from what p points to
                break
    if generic is None:
        # nan(uint): T is the type whose unsigned integer type the argument is (float)
        generic = next((t for t in family for pat, at in zip(row.params, args)
                        if pat == "U" and pattern_type("U", t) == at), None)
    if generic is None and family:
        # scalars none of whose types T takes (native_sqrt(n) for an int n, fmin(2, 3.0)):
        # the overload clang's resolution picks, if one is best
        scalars = [at for pat, at in zip(row.params, args) if pat in ("T", "S")]
        if not scalars or not all(a.is_scalar and a.is_arithmetic for a in scalars):
            return None
        generic = _best_scalar(row, args)
        if generic is None:
            return None
    # The second width, from the first argument of a "Tn" or "Un" pattern.
    n = next((ty.width(at) for pat, at in zip(row.params, args)
              if bi.free_width_base(pat)), None)
    if n is not None and n not in bi.family_widths(row.family):
        return None
    for pat, at in zip(row.params, args):
        if not fits(pat, at, generic, n, row.exact):
            return None
    return pattern_type(row.ret, generic, n), generic, n

def fits(pat, at, generic, n=None, exact=False) -> bool:
    if pat == "T":
        # A scalar argument converts to T's element type and, for a vector T,
        # widens (spec 6.2.1): mad(float2, float, float).
        return at == generic or (at.is_scalar and not at.is_void and generic is not None
                                 and (generic.is_scalar or at.is_arithmetic))
    if pat == "S":
        return at.is_scalar and not at.is_void
    if pat == "M":
        if not isinstance(generic, ty.Vector):
            return at.is_scalar and at.is_integer
        return isinstance(at, ty.Vector) and at.n == generic.n and at.elem.is_integer and \
            at.elem.size == generic.elem.size
    if pat.endswith("*"):
        if not isinstance(at, ty.Pointer):
            return False
        # "[const] [space|space...] [atomic] X*": a pointer pattern that names address
        # spaces accepts only those, and a const pointee only if it says const.
        *quals, base = pat[:-1].split()
        spaces = [q for q in quals if q not in ("const", "atomic")]
        if spaces and (at.space not in spaces[0].split("|") or
                       (at.const and "const" not in quals)):
            return False
        want = pattern_type(base, generic)
        if "atomic" in quals:
            want = ty.Atomic(want) if want in ty.ATOMIC_VALUES else None
        return at.pointee == want
    want = pattern_type(pat, generic, n)
    if want is None:
        return False
    if isinstance(want, ty.Image):
        return at == want
    if isinstance(want, ty.Sampler):
        # a sampler, or an integer (a CLK_* expression: clang takes it as a constant sampler)
        return at == want or (at.is_scalar and at.is_integer)
    if exact and want.is_scalar:
        return at == want
    if isinstance(want, ty.Opaque):
        # event_t: another event_t, or an integer (0 is the "no event" value)
        return at == want or (at.is_scalar and at.is_integer)
    if want.is_vector:
        # an int for pown's and rootn's intn: widened, as clang's overloads take it
        return at == want or pat == "I" and at.is_scalar and at.is_arithmetic
    return at.is_scalar and not at.is_void

def pattern_type(pat, generic, free_width=None):
    if pat == "T":
        return generic
    base = bi.free_width_base(pat)
    if base is not None:        # "Tn", "Un": the base pattern's element, width n
        if free_width is None:
            return None
        return ty.Vector(ty.scalar_of(pattern_type(base, generic)), free_width)
    n = ty.width(generic) if generic is not None else 1
    elem = ty.scalar_of(generic) if generic is not None else None
    if pat in ("S", "R"):
        return elem
    if pat == "U":
        return ty.vector_of(_INTEGER_OF[elem.size, False], n)
    if pat == "D":
        return ty.vector_of(_INTEGER_OF[2 * elem.size, elem.signed], n)
    if pat == "I":
        return ty.vector_of(ty.INT, n)
    if pat == "K":
        if n == 1:
            return ty.INT
        return ty.Vector(_INTEGER_OF[elem.size, True], n)
    return ty.named_type(pat)


# ---- ambiguity, as clang's overload resolution finds it
_EXACT, _PROMOTION, _CONVERSION = 0, 1, 2


def _canonical(t: ty.Type) -> ty.Type:
    """size_t, ptrdiff_t, intptr_t and uintptr_t as the integer types they name."""
    if t.is_scalar and t.is_integer and (t.size, t.signed) in _INTEGER_OF:
        return _INTEGER_OF[t.size, t.signed]
    return t


def _rank(arg: ty.Type, param: ty.Type) -> int:
    """The rank of the implicit conversion of a scalar ``arg`` to scalar ``param``
    (C++'s [over.ics.scs], which clang's overloadable functions follow): the same type,
    an integral promotion (a type narrower than int to int) or float to double, or any
    other arithmetic conversion."""
    arg, param = _canonical(arg), _canonical(param)
    if arg == param:
        return _EXACT
    if param == ty.INT and arg.is_integer and arg.size < ty.INT.size or \
            param == ty.DOUBLE and arg == ty.FLOAT:
        return _PROMOTION
    return _CONVERSION


def _best(ranks: list) -> int | None:
    """The index of the overload whose conversions (ranks, one list for each) are each
    as good as every other's, and one better (C++'s [over.match.best]); None: none is."""
    def better(x, y):
        return all(i <= j for i, j in zip(x, y)) and x != y
    best = [i for i, x in enumerate(ranks)
            if all(better(x, y) for j, y in enumerate(ranks) if j != i)]
    return best[0] if best else None


def _scalar_overloads(row: bi.Builtin, args: list):
    """(T, the parameter types) of each scalar overload of ``row`` a call with ``args``
    can see: half's only where an argument is half (they are there with cl_khr_fp16)."""
    halves = any(_canonical(a) == ty.HALF for a in args)
    for g in bi.FAMILIES[row.family]:
        if g.is_scalar and (g != ty.HALF or halves):
            params = [pattern_type(p, g) for p in row.params]
            if all(p is not None for p in params):
                yield g, params


def _best_scalar(row: bi.Builtin, args: list):
    """The scalar type of ``row``'s family whose overload takes scalar ``args`` best."""
    types, ranks = [], []
    for g, params in _scalar_overloads(row, args):
        types.append(g)
        ranks.append([_rank(a, p) if a.is_scalar and a.is_arithmetic and p.is_scalar and
                      p.is_arithmetic else _EXACT for a, p in zip(args, params)])
    best = _best(ranks)
    return types[best] if best is not None else None


def ambiguous(rows: list, args: list) -> bool:
    """Whether a call of builtin ``rows`` with scalar arithmetic ``args`` of different
    types is ambiguous in OpenCL C, whose builtins are overloads, one for each type:
    no overload's conversions are each as good as every other's, and one better.
    ``max(u, 0)`` (uint and int), ``min(get_global_id(0), 5)``, ``clamp(c, 0, 255)``
    for a uchar c: clang rejects them all. ``fmin(x, 0)`` for a float x is not: the
    float overload converts one argument, the double one both."""
    if len(args) < 2 or not all(a.is_scalar and a.is_arithmetic for a in args) or \
            len({_canonical(a) for a in args}) == 1:
        return False
    signatures = set()
    for row in rows:
        if len(row.params) != len(args) or not any(p in ("T", "S") for p in row.params):
            continue
        for _, params in _scalar_overloads(row, args):
            if all(p.is_scalar and p.is_arithmetic for p in params):
                signatures.add(tuple(_canonical(p) for p in params))
    ranks = [[_rank(a, p) for a, p in zip(args, sig)] for sig in signatures]
    return len(ranks) > 1 and _best(ranks) is None
