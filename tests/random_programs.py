"""Random integer programs, in the manner of Csmith: statements rather than expressions.
Each kernel declares scalars of six integer types, a private array, a struct with an
array in it and a uint4, fills them from its input, runs a random body and writes a
hash of all of them to its output. The body mixes:

- assignments and compound assignments to scalars, array elements (computed indices),
  struct members, vector components and swizzles;
- ``if``/``else``, ``for`` loops with ``break`` and ``continue``, ``while`` and
  ``do``/``while`` loops with counters, ``switch`` with fall-through and ``default``;
- calls of helper functions that take values and a private pointer, write through the
  pointer and return a value (some of them calling each other), and a struct by value;
- increments and decrements, the comma operator, ``?:``, short-circuit conditions,
  casts between the types, and the integer builtins.

The programs have defined behaviour in OpenCL C: no signed arithmetic can overflow (it
is done in unsigned types and converted back, which OpenCL defines as two's
complement), shift counts are masked, divisors are odd, array indices masked, and no
expression modifies an object that it reads elsewhere unsequenced. So cl2c and PoCL must
agree bit for bit.
"""
from __future__ import annotations

import random

SCALARS = {"a": "uint", "b": "ulong", "c": "int", "d": "ushort", "e": "long", "f": "uchar"}
UNSIGNED = ("uint", "ulong", "ushort", "uchar")
BITS = {"uint": 32, "ulong": 64, "int": 32, "ushort": 16, "long": 64, "uchar": 8}
ARRAY = 8               # uint arr[8]
HELPERS = 3

PRELUDE = """typedef struct { uint x; ushort y; ulong z; uint w[4]; } S;
"""


class _Gen:
    def __init__(self, r: random.Random):
        self.r = r
        self.counter = 0
        self.helpers: list[str] = []       # names callable so far
        self.readonly: list[str] = []      # loop counters: read, never written
        self.types: dict = {}
        # a helper's pointer targets and the places its result goes (set per function)
        self.targets: list[str] = []
        self.places: list[tuple[str, str]] = []

    # -- expressions (no side effects): every value read is an unsigned or a long
    def atom(self, names) -> str:
        r = self.r
        k = r.random()
        if k < 0.5:
            return r.choice(names + self.readonly)
        if k < 0.65:
            return f"arr[{self.index(names, ARRAY)}]"
        if k < 0.75:
            return r.choice(["s.x", "s.y", "s.z", f"s.w[{self.index(names, 4)}]"])
        if k < 0.85:
            return r.choice(["v.x", "v.y", "v.z", "v.w", "v.s3", "(v.x ^ v.w)"])
        return r.choice(["0u", "1u", "7u", "0xffu", "0x80000000u", "0xffffffffu",
                         "12345u", "0xfffffffffffffffful", "3ul", "(ulong)gid"])

    def index(self, names, n) -> str:
        return f"({self.r.choice(names)} & {n - 1}u)"

    def expr(self, names, depth=0) -> str:
        """An unsigned long value computed without side effects."""
        r = self.r
        if depth > 2 or r.random() < 0.3:
            return f"(ulong)({self.atom(names)})"
        a, b = self.expr(names, depth + 1), self.expr(names, depth + 1)
        k = r.random()
        if k < 0.35:
            return f"({a} {r.choice(['+', '-', '*', '&', '|', '^'])} {b})"
        if k < 0.45:
            return f"({a} {r.choice(['<<', '>>'])} ({b} & 63u))"
        if k < 0.52:
            return f"({a} {r.choice(['/', '%'])} ({b} | 1u))"
        if k < 0.62:
            return f"(ulong)({a} {r.choice(['<', '<=', '==', '!=', '>'])} {b})"
        if k < 0.7:
            return f"({self.cond(names)} ? {a} : {b})"
        if k < 0.76:
            return f"(ulong)(long)(int){a}"            # sign extension of the low half
        if k < 0.82:
            return f"(ulong)({r.choice(['(ushort)', '(uchar)', '(uint)', '(char)'])}{a})"
        if k < 0.9:
            f = r.choice(["min", "max", "add_sat", "sub_sat", "hadd", "rhadd", "mul_hi",
                          "rotate", "abs_diff"])
            t = r.choice(["uint", "ulong", "ushort"])
            return f"(ulong){f}(({t}){a}, ({t}){b})"
        if k < 0.95:
            f = r.choice(["clz", "popcount", "abs"])
            t = r.choice(["uint", "ulong", "int", "long", "uchar"])
            # (| 1: no INT_MIN or LONG_MIN, whose abs PoCL 3.1 gets wrong)
            arg = f"(({t}){a} | 1)" if f == "abs" and not t.startswith("u") else f"({t}){a}"
            return f"(ulong){f}({arg})"
        return f"(~{a})"

    def cond(self, names) -> str:
        r = self.r
        k = r.random()
        if k < 0.5:
            return f"({self.expr(names, 2)} {r.choice(['<', '>', '==', '!='])} " \
                   f"{self.expr(names, 2)})"
        if k < 0.7:
            return f"(({self.expr(names, 2)} & {r.choice([1, 2, 4, 8])}u) != 0)"
        if k < 0.85:
            return f"({self.cond(names)} && {self.cond(names)})"
        return f"(!{self.cond(names)} || ({r.choice(names)} < {r.randint(0, 300)}u))"

    # -- lvalues and stores
    def store(self, names, value: str) -> str:
        """An assignment of ``value`` (an unsigned long) to a random place."""
        r = self.r
        k = r.random()
        op = r.choice(["=", "=", "+=", "-=", "^=", "|=", "&=", "*="])
        if k < 0.45:
            name = r.choice(names)
            t = self.types.get(name, "ulong")
            if t in ("int", "long") or t in ("ushort", "uchar") and op == "*=":
                # a signed variable: its new value through the unsigned type (and
                # a product of narrow ones, which would be one of ints)
                u = "ulong" if t == "long" else "uint"
                if op == "=":
                    return f"{name} = ({t})({u}){value};"
                return f"{name} = ({t})(({u}){name} {op[0]} ({u}){value});"
            return f"{name} {op} ({t}){value};"
        if k < 0.6:
            return f"arr[{self.index(names, ARRAY)}] {op} (uint){value};"
        if k < 0.72:
            short = f"s.y = (ushort)((uint)s.y * (uint){value});" if op == "*=" else \
                f"s.y {op} (ushort){value};"
            return r.choice([f"s.x {op} (uint){value};", short,
                             f"s.z {op} {value};",
                             f"s.w[{self.index(names, 4)}] {op} (uint){value};"])
        if k < 0.82:
            return r.choice([f"v.{c} {op} (uint){value};" for c in "xyzw"])
        if k < 0.9:
            sw = r.choice(["xy", "zw", "yx", "wz", "xz", "s13"])
            return f"v.{sw} {op} (uint2)((uint){value}, (uint)({value} >> 32));"
        return f"v = v.{r.choice(['wzyx', 'yxwz', 'xxyy', 'zwxy'])} " \
               f"{r.choice(['+', '^', '*'])} (uint4)((uint){value});"

    # -- statements
    def block(self, names, n, depth) -> list[str]:
        return [line for _ in range(n) for line in self.stmt(names, depth)]

    def stmt(self, names, depth) -> list[str]:
        r = self.r
        k = r.random()
        if depth >= 3 or k < 0.35:
            return [self.store(names, self.expr(names))]
        if k < 0.45:
            name = r.choice([n for n in names if self.types[n] in UNSIGNED])
            return [r.choice([f"{name}++;", f"--{name};", f"arr[{self.index(names, 8)}]++;",
                              "s.w[1]--;", "v.y++;"])]
        if k < 0.58:
            lines = [f"if {self.cond(names)} {{", *self.block(names, r.randint(1, 3),
                                                               depth + 1)]
            if r.random() < 0.6:
                lines += ["} else {", *self.block(names, r.randint(1, 2), depth + 1)]
            return lines + ["}"]
        if k < 0.7:
            return self.for_loop(names, depth)
        if k < 0.76:
            i = self.fresh("w")
            head = [f"uint {i} = 0;", f"while ({i} < {r.randint(1, 5)}u) {{", f"    {i}++;"]
            return head + self.loop_body(names, depth, i) + ["}"]
        if k < 0.8:
            i = self.fresh("d")
            head = [f"uint {i} = {r.randint(0, 3)}u;", "do {"]
            return head + self.loop_body(names, depth, None) + \
                [f"}} while (++{i} < {r.randint(2, 5)}u);"]
        if k < 0.88:
            return self.switch(names, depth)
        if k < 0.96 and self.helpers:
            return [self.call(names)]
        y = r.choice([n for n in names if self.types[n] in UNSIGNED])
        x = r.choice([n for n in names if n != y])
        return [f"{x} = ({self.types[x]})({y}++, {self.expr([n for n in names if n != y])});"
                if self.types[x] in UNSIGNED else f"{y} += 1, {self.store(names, 'gid')}"]

    def for_loop(self, names, depth) -> list[str]:
        r = self.r
        i = self.fresh("i")
        bound = r.choice([str(r.randint(1, 6)), f"({r.choice(names)} & 7u)"])
        return [f"for (uint {i} = 0; {i} < {bound}; ++{i}) {{",
                *self.loop_body(names, depth, i), "}"]

    def loop_body(self, names, depth, counter) -> list[str]:
        r = self.r
        self.readonly += [counter] if counter else []
        stmts = [self.stmt(names, depth + 1) for _ in range(r.randint(1, 3))]
        if r.random() < 0.4:            # (between two statements, not inside one)
            stmts.insert(r.randint(0, len(stmts)),
                         [f"if {self.cond(names)} {r.choice(['break', 'continue'])};"])
        if counter:
            self.readonly.pop()
        return [line for stmt in stmts for line in stmt]

    def switch(self, names, depth) -> list[str]:
        r = self.r
        lines = [f"switch ({self.expr(names, 2)} & 3u) {{"]
        for case in r.sample(["case 0:", "case 1:", "case 2:", "default:"], r.randint(2, 4)):
            # (a block: its statements may begin with a declaration, which no label
            # may label in C99)
            lines.append(f"{case} {{")
            lines += self.block(names, r.randint(1, 2), depth + 1)
            lines.append("}")
            if r.random() < 0.7:
                lines.append("break;")
        return lines + ["}"]

    def call(self, names) -> str:
        r = self.r
        f = r.choice(self.helpers)
        target = r.choice(self.targets)
        value = f"{f}({self.expr(names, 1)}, (uint){self.expr(names, 1)}, {target}, s)"
        # the result goes somewhere the pointer cannot reach
        place, t = r.choice(self.places)
        return f"{place} ^= ({t}){value};"

    def fresh(self, stem) -> str:
        self.counter += 1
        return f"{stem}{self.counter}"

    def helper(self, name: str) -> str:
        """A function of values, a pointer it writes through and a struct by value."""
        r = self.r
        self.types = {"p0": "ulong", "p1": "uint", "t": "uint", "u": "ulong"}
        self.targets = ["&t", "&arr[3]", "&s.w[2]", "&s.x"]
        self.places = [("u", "ulong"), ("v.z", "uint")]
        names = ["p0", "p1", "t", "u"]
        body = ["uint gid = (uint)get_global_id(0);", "uint t = *q + p1;", "ulong u = p0 ^ r.z;", "uint arr[8];",
                "for (uint k = 0; k < 8u; ++k) arr[k] = (uint)(p0 >> k) + r.w[k & 3u];",
                "S s = r;", "uint4 v = (uint4)(t, p1, (uint)u, r.x);"]
        body += self.block(names, r.randint(2, 4), 1)
        body += [f"*q = (uint)({self.expr(names, 1)});",
                 "return u + t + s.z + arr[5] + v.x + v.w;"]
        return (f"ulong {name}(ulong p0, uint p1, uint *q, S r)\n{{\n" +
                "".join(f"    {line}\n" for line in body) + "}\n")


def program(seed: int) -> tuple[str, str]:
    """(kernel name, source of the helpers and the kernel), which need PRELUDE before
    them."""
    r = random.Random(seed)
    g = _Gen(r)
    parts = []
    for h in range(r.randint(0, HELPERS)):
        name = f"h{seed}_{h}"
        parts.append(g.helper(name))
        g.helpers.append(name)
    g.types = dict(SCALARS)
    g.targets = ["&a", "&arr[3]", "&s.w[2]", "&s.x"]
    g.places = [("b", "ulong"), ("e", "long"), ("v.z", "uint")]
    names = list(SCALARS)
    body = [f"{t} {n} = ({t})in[(gid * 13u + {i}u) % n];" for i, (n, t) in
            enumerate(SCALARS.items())]
    body += ["uint arr[8];",
             "for (uint k = 0; k < 8u; ++k) arr[k] = (uint)in[(gid + k * 7u) % n];",
             "S s = {(uint)in[gid % n], (ushort)in[(gid + 1u) % n], in[(gid + 2u) % n],",
             "       {1u, 2u, (uint)in[(gid + 3u) % n], 4u}};",
             "uint4 v = (uint4)((uint)in[(gid + 5u) % n], (uint)gid, 3u, 0xdeadbeefu);"]
    body += g.block(names, r.randint(4, 9), 0)
    body += ["ulong h = 1469598103934665603ul;"]
    for x in [*SCALARS, *(f"arr[{k}]" for k in range(ARRAY)), "s.x", "s.y", "s.z",
              *(f"s.w[{k}]" for k in range(4)), "v.x", "v.y", "v.z", "v.w"]:
        body.append(f"h = (h ^ (ulong){x}) * 1099511628211ul;")
    body.append("out[gid] = h;")
    name = f"p{seed}"
    parts.append(f"__kernel void {name}(__global const ulong *in, __global ulong *out, "
                 f"uint n)\n{{\n    uint gid = (uint)get_global_id(0);\n" +
                 "".join(f"    {line}\n" for line in body) + "}\n")
    return name, "".join(parts)
