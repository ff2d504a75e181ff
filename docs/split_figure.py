"""Draws docs/split-jacobi.svg: which work-item loop runs each work-item's load of its own
cell of the tile, the first loop of the first region of the bench's tiled Jacobi step
(bench/kernels/gpu/tiled_stencil.cl, 16 x 16 groups; the halo's loads have loops of
their own, fission.py), in two groups of a 40 x 40 grid: inside it and past its far
edge. The ranges
are the translator's own: this reads the cl2c_mid_* calls of the C that cl2c generates for
the kernel and runs them as regions.h does. Plain SVG: it needs nothing but cl2c.

    python docs/split_figure.py            # rewrites split-jacobi.svg beside it
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

KERNEL = Path(__file__).resolve().parent.parent / "bench" / "kernels" / "gpu" / \
    "tiled_stencil.cl"
LOCAL, N = 16, 40                   # the group's side, the grid's (nx = ny)
GROUPS = {(1, 1): "inside", (2, 2): "past the far edge"}
SCALE = 10                          # pixels a work-item
# what each work-item's loop runs: the comparisons with which local ids are folded
KINDS = [((True, True), "#59a14f", "both local ids' comparisons folded: omp simd"),
         ((True, False), "#8cd17d", "the local id 1's folded (a middle row)"),
         ((False, True), "#f1ce63", "the local id 0's folded (a middle column)"),
         ((False, False), "#e15759", "as written")]

_SETUP = re.compile(r"size_t (cl2c_mid1?)_lo = 0;$")
_NARROW = re.compile(r"cl2c_mid_(from|below|besides)\(&(cl2c_mid1?)_lo, &\2_hi, (.*)\);$")


def _narrow(how: str, lo: int, hi: int, v: int) -> tuple[int, int]:
    """regions.h's cl2c_mid_from, _below and _besides."""
    if how == "from":
        return (min(v, hi) if v > lo else lo), hi
    if how == "below":
        return lo, (max(v, lo) if v < hi else hi)
    if v < lo or v >= hi:
        return lo, hi
    return (lo, v) if v - lo >= hi - v - 1 else (v + 1, hi)


def _value(expr: str, group: tuple[int, int]) -> int:
    """A bound of the generated C, at group level (local ids 0) of ``group``."""
    expr = expr.replace("(ptrdiff_t)", "")
    expr = re.sub(r"cl2c_get_global_id\(CL2C_WI, (\d)\)",
                  lambda m: str(group[int(m.group(1))] * LOCAL), expr)
    expr = re.sub(r"cl2c_get_local_id\(CL2C_WI, \d\)", "0", expr)
    if not re.fullmatch(r"[\d\s()+\-*nxy]*", expr):
        raise ValueError(f"a bound this script cannot compute: {expr}")
    return eval(expr, {"nx": N, "ny": N})       # (integers, + - * and parentheses)


def ranges(c_source: str, group: tuple[int, int]):
    """(the middle rows, [the middle columns in the rows before, in the middle rows, in
    the rows after]) of the first loop of the first region, as [lo, hi) pairs."""
    blocks: list[list] = []
    for line in c_source.splitlines():
        line = line.strip()
        m = _SETUP.match(line)
        if m:
            blocks.append([m.group(1), 0, LOCAL])
            continue
        m = _NARROW.match(line)
        if m:
            block = blocks[-1]
            assert block[0] == m.group(2), line
            block[1], block[2] = _narrow(m.group(1), block[1], block[2],
                                         _value(m.group(3), group))
    rows, *columns = blocks[:4]
    assert rows[0] == "cl2c_mid1" and all(c[0] == "cl2c_mid" for c in columns), blocks
    return (rows[1], rows[2]), [(c[1], c[2]) for c in columns]


def svg(c_source: str) -> str:
    left, top, gap = 20, 58, 40
    width = left + len(GROUPS) * (LOCAL * SCALE + gap)
    height = top + LOCAL * SCALE + 24 + 18 * len(KINDS) + 10
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           f'<text x="{left}" y="16">The Jacobi step\'s tile loads, {LOCAL} x {LOCAL} '
           f'groups of a {N} x {N} grid:</text>',
           f'<text x="{left}" y="30">the loop that runs each work-item</text>']
    for k, (group, where) in enumerate(GROUPS.items()):
        (r0, r1), columns = ranges(c_source, group)
        x0 = left + k * (LOCAL * SCALE + gap)
        out.append(f'<text x="{x0}" y="{top - 8}">group ({group[0]}, {group[1]}): '
                   f'{where}</text>')
        for ly in range(LOCAL):
            part = 0 if ly < r0 else 1 if ly < r1 else 2
            c0, c1 = columns[part]
            for lx in range(LOCAL):
                kind = (part == 1, c0 <= lx < c1)
                colour = next(c for folded, c, _ in KINDS if folded == kind)
                out.append(f'<rect x="{x0 + lx * SCALE}" y="{top + ly * SCALE}" '
                           f'width="{SCALE}" height="{SCALE}" fill="{colour}" '
                           f'stroke="white" stroke-width="0.5"/>')
    y = top + LOCAL * SCALE + 20
    for _, colour, words in KINDS:
        out.append(f'<rect x="{left}" y="{y - 9}" width="10" height="10" fill="{colour}"/>')
        out.append(f'<text x="{left + 16}" y="{y}">{words}</text>')
        y += 18
    out.append("</svg>")
    return "\n".join(out) + "\n"


def c_source() -> str:
    import cl2c
    return cl2c.translate(KERNEL.read_text(), KERNEL.name, line_directives=False).c_source


def main() -> int:
    target = Path(__file__).with_name("split-jacobi.svg")
    target.write_text(svg(c_source()))
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
