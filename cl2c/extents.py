"""Accesses that every work-item of a launch makes to a buffer argument, at an index
that is a polynomial in the launch's values, of degree at most one in the global ids
(lower/unconditional.py finds them): with the range and the argument values of a launch,
the elements it touches are known before it runs, and a buffer too small for them is
refused instead of written past (an out-of-bounds write corrupts the heap; it may not
fault at all). A leaf module, as interface.py, which carries them.

A polynomial is a tuple of terms ``(coefficient, factors)``; a factor is ``gid0``..``gid2``
(get_global_id), ``gsize0``.. (get_global_size), ``goff0``.. (get_global_offset) or
``argK`` (the value of integer argument K).
"""
from __future__ import annotations

import operator
from dataclasses import dataclass

Poly = tuple          # ((coefficient, (factor, ...)), ...)


@dataclass(frozen=True)
class Access:
    writes: bool       # a store (or a read-modify-write); else a load
    index: Poly
    # Each value computed on the way, with the range of its C type: the index is the
    # exact polynomial only where none of them wraps (else nothing is known).
    within: tuple = ()    # ((poly, lo, hi), ...)

    def to_json(self) -> dict:
        return {"writes": self.writes, "index": _poly_json(self.index),
                "within": [[_poly_json(p), lo, hi] for p, lo, hi in self.within]}

    @classmethod
    def from_json(cls, d: dict) -> "Access":
        return cls(d["writes"], _poly_from(d["index"]),
                   tuple((_poly_from(p), lo, hi) for p, lo, hi in d["within"]))


def _poly_json(p: Poly) -> list:
    return [[c, list(fs)] for c, fs in p]


def _poly_from(d: list) -> Poly:
    return tuple((c, tuple(fs)) for c, fs in d)


def launch_values(dims: int, global_size, offset, args) -> tuple[dict, dict] | None:
    """The factors' values and the global ids' ranges (first, last) of a launch with no
    empty dimension: ``(known, ids)``; ``args`` maps argument indices to their values.
    None where the launch has no work-items."""
    known, ids = {}, {}
    for d in range(3):
        size = global_size[d] if d < dims else 1
        off = offset[d] if d < dims else 0
        if size == 0:
            return None
        known[f"gsize{d}"], known[f"goff{d}"] = size, off
        ids[f"gid{d}"] = (off, off + size - 1)
    for k, v in args.items():
        known[f"arg{k}"] = v
    return known, ids


def span(p: Poly, known: dict, ids: dict) -> tuple[int, int]:
    """The least and greatest value of polynomial ``p`` over the launch's work-items."""
    lo = hi = 0
    for coefficient, factors in p:
        c, gid = coefficient, None
        for f in factors:
            if f in ids:
                gid = ids[f]
            else:
                c *= known[f]
        if gid is None:
            lo += c
            hi += c
        else:
            a, b = c * gid[0], c * gid[1]
            lo += min(a, b)
            hi += max(a, b)
    return lo, hi


def touched(access: Access, known: dict, ids: dict) -> tuple[int, int] | None:
    """The elements (first, last) that ``access`` touches in a launch, or None where a
    value on the way may wrap (the index is then not the polynomial)."""
    for p, lo, hi in access.within:
        a, b = span(p, known, ids)
        if a < lo or b > hi:
            return None
    return span(access.index, known, ids)


def argument_indices(accesses) -> set[int]:
    """The integer arguments whose values the accesses' polynomials need."""
    polys = [a.index for a in accesses] + [p for a in accesses for p, _, _ in a.within]
    return {int(f[3:]) for p in polys for _, fs in p for f in fs if f.startswith("arg")}


def as_int(value) -> int | None:
    """An integer argument's value as the polynomial takes it, or None."""
    try:
        return operator.index(value)
    except TypeError:
        try:
            return int(value.item())        # a NumPy scalar array, say
        except (AttributeError, TypeError, ValueError):
            return None
