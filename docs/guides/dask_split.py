"""Draws docs/guides/dask-split.svg: how cl2c.dask splits a 2-D launch of 40 x 64 work-items
in groups of 8 x 4 into four chunks along its rows, and the blocks of a `rows(a, halo=1)`
input that each chunk's task gets. The chunks are map_kernel's own (cl2c.dask's cut), not
drawn by hand; plain SVG, so that it needs nothing but cl2c and Dask.

    python docs/guides/dask_split.py            # rewrites dask-split.svg beside it
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

W, H, LOCAL, HALO = 40, 64, (8, 4), 1
SCALE = 5                        # pixels a work-item
COLOURS = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1"]


def chunk_bounds(kernel) -> list[tuple[int, int]]:
    """The work-item rows of each chunk, as map_kernel cuts them (chunks=16)."""
    from cl2c.dask import _Plan, rows
    plan = _Plan(kernel, (W, H), LOCAL, H // LOCAL[1], None)
    a = np.zeros((H, W), np.float32)
    plan.cut(16, [plan.spec(0, rows(a, halo=HALO))])
    return plan.bounds


def svg(bounds) -> str:
    left, gap, top = 20, 120, 40
    width = left + 2 * W * SCALE + gap + 90
    height = top + (H + 2 * HALO * len(bounds)) * SCALE + 8 * len(bounds) + 30
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           f'<text x="{left}" y="18">the NDRange ({W} x {H}, groups of {LOCAL[0]} x '
           f'{LOCAL[1]})</text>',
           f'<text x="{left + W * SCALE + gap}" y="18">each task\'s block of rows(a, '
           f'halo={HALO})</text>']
    for y in range(0, H, LOCAL[1]):               # the work-groups, in their chunk's colour
        c = next(i for i, (a, b) in enumerate(bounds) if a <= y < b)
        for x in range(0, W, LOCAL[0]):
            out.append(f'<rect x="{left + x * SCALE}" y="{top + y * SCALE}" '
                       f'width="{LOCAL[0] * SCALE}" height="{LOCAL[1] * SCALE}" '
                       f'fill="{COLOURS[c % 4]}" fill-opacity="0.55" stroke="white"/>')
    at = top
    x0 = left + W * SCALE + gap
    for c, (a, b) in enumerate(bounds):
        above = HALO if a > 0 else 0
        below = HALO if b < H else 0
        rows_here = above + (b - a) + below
        out.append(f'<rect x="{x0}" y="{at}" width="{W * SCALE}" height="{rows_here * SCALE}"'
                   f' fill="{COLOURS[c % 4]}" fill-opacity="0.55" stroke="black"/>')
        for edge, n in ((at, above), (at + (above + b - a) * SCALE, below)):
            if n:
                out.append(f'<rect x="{x0}" y="{edge}" width="{W * SCALE}" '
                           f'height="{n * SCALE}" fill="black" fill-opacity="0.35"/>')
        out.append(f'<text x="{x0 + W * SCALE + 6}" y="{at + rows_here * SCALE / 2 + 4}">'
                   f'rows {a}-{b - 1}</text>')
        out.append(f'<line x1="{left + W * SCALE + 4}" y1="{top + (a + b) / 2 * SCALE}" '
                   f'x2="{x0 - 4}" y2="{at + rows_here * SCALE / 2}" stroke="gray"/>')
        out.append(f'<text x="{left + W * SCALE + 10}" y="{top + (a + b) / 2 * SCALE - 4}">'
                   f'groups {a // LOCAL[1]}-{b // LOCAL[1] - 1}</text>')
        at += rows_here * SCALE + 8
    out.append(f'<text x="{x0}" y="{at + 14}">dark: halo rows from the neighbouring '
               f'chunks</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def kernel():
    import cl2c
    return cl2c.Program("__kernel void k(__global const float *in, __global float *out) "
                        "{ out[0] = in[0]; }").build().k


def main() -> int:
    target = Path(__file__).with_name("dask-split.svg")
    target.write_text(svg(chunk_bounds(kernel())))
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
