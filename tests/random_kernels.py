"""Pieces of the random kernels that test_*_random.py generate: guards over work-item
ids and arguments, in every form the schedules treat apart."""
from __future__ import annotations

import random
import re
from typing import Callable

import cl2c


def guard(r: random.Random, ids: list[str], bound: Callable[[random.Random], str],
          data: tuple[str, ...] = ()) -> str:
    """A condition: an id against a bound, a conjunction or disjunction of such, a
    negation, the id's bits (``ids[0] & 2``), or a private value (``data``) against a
    constant."""
    k = r.random()
    if k < 0.45:
        return f"{r.choice(ids)} {r.choice(['<', '<=', '>', '>='])} {bound(r)}"
    if k < 0.65:
        return (f"({r.choice(ids)} {r.choice(['<', '>='])} {bound(r)}) && "
                f"({r.choice(ids)} {r.choice(['<', '>', '!='])} {bound(r)})")
    if k < 0.75:
        return f"{ids[0]} & {r.choice([1, 2, 4])}"
    if k < 0.82 and data:
        return f"{r.choice(data)} {r.choice(['<', '>'])} {r.randint(-50, 50)}"
    if k < 0.9:
        return f"!({r.choice(ids)} < {bound(r)})"
    return f"({r.choice(ids)} == {bound(r)}) || ({r.choice(ids)} < {bound(r)})"


def if_else(r: random.Random, cond: str, stmt: Callable[[random.Random, int], str],
            depth: int) -> str:
    """``if (cond) { one or two statements }``, sometimes with an ``else``."""
    more = stmt(r, depth + 1) if r.random() < 0.5 else ""
    s = f"if ({cond}) {{ {stmt(r, depth + 1)} {more} }}"
    if r.random() < 0.3:
        s += f" else {{ {stmt(r, depth + 1)} }}"
    return s


def accumulator_kernel(seed: int, decls: str, loop: str, guard: str, total: str,
                       first: str = "") -> str:
    """Kernel ``k<seed>`` of a 2D range over C (M x N, N a macro) from a and b: ``first``
    and the accumulators' ``decls``, then ``loop`` after ``guard`` (an early return) or
    inside it (an ``if``), and ``total`` stored where the work-item is inside C."""
    core = f"{guard} {{ {loop} }}" if guard.startswith("if (row <") else f"{guard} {loop}"
    return f"""
__kernel void k{seed}(__global const float *a, __global const float *b, __global float *c,
                      int M, int K) {{
    int col = get_global_id(0), row = get_global_id(1);
    {first}{decls}
    {core}
    if (row < M && col < N) c[row * N + col] = {total};
}}"""


def programs(source: str, reference: str):
    """The generated kernels built as cl2c builds them by default and under the
    ``reference`` schedule, and each kernel's default schedule line (``k12``: 12), read
    from the default build's C (translating once more for it cost a tenth of a file's
    time). Both at -O3: compared bit for bit, they must vectorise alike (libmvec's math
    where the loop vectorises, the operand order that decides a NaN's sign)."""
    auto = cl2c.Program(source, filename="random.cl").build()
    schedules = {int(m.group(1)): m.group(2)
                 for m in re.finditer(r"\*   k(\d+): ([^\n]*)", auto.c_source)}
    return (auto, cl2c.Program(source, f"-cl2c-schedule={reference}",
                               filename="random.cl").build(), schedules)
