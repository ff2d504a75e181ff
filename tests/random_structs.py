"""Random structs and unions for layout tests: members of scalar, vector (3-vectors
too) and nested record types, arrays of them, ``aligned(N)`` members, ``packed`` and
``aligned`` records. ``layout_kernel`` measures each record's size and each member's
offset in a kernel, so that two implementations' layouts can be compared."""
from __future__ import annotations

import random
from dataclasses import dataclass

SCALARS = ("char", "uchar", "short", "int", "uint", "long", "float", "double")
VECTORS = tuple(f"{t}{n}" for t in ("char", "short", "int", "float", "long", "double", "uchar")
                for n in (2, 3, 4, 8, 16))


@dataclass
class Record:
    kind: str           # "struct" or "union"
    name: str
    text: str           # its definition
    members: list


def _record(r: random.Random, name: str, depth: int, out: list) -> Record:
    members = []
    for m in range(r.randint(1, 5)):
        k = r.random()
        if k < 0.4:
            t = r.choice(SCALARS)
        elif k < 0.75:
            t = r.choice(VECTORS)
        elif depth < 2:
            sub = _record(r, f"{name}_{m}", depth + 1, out)
            t = f"{sub.kind} {sub.name}"
        else:
            t = r.choice(SCALARS + VECTORS)
        count = f"[{r.randint(1, 3)}]" if r.random() < 0.25 else ""
        aligned = f" __attribute__((aligned({r.choice([2, 4, 8, 16, 32])})))" \
            if r.random() < 0.15 else ""
        members.append(f"    {t} m{m}{count}{aligned};\n")
    kind = "union" if depth > 0 and r.random() < 0.2 else "struct"
    attr = r.choice(["", "", "", " __attribute__((packed))", " __attribute__((aligned(16)))"])
    rec = Record(kind, name, f"{kind} {name} {{\n{''.join(members)}}}{attr};\n",
                 [f"m{m}" for m in range(len(members))])
    out.append(rec)
    return rec


def layout_kernel(seeds) -> tuple[str, list[str]]:
    """(source, what each output element measures): kernel ``k(global ulong *o)``."""
    records = []
    for seed in seeds:
        _record(random.Random(seed), f"S{seed}", 0, records)
    measures, body = [], []
    for rec in records:
        body.append(f"    {rec.kind} {rec.name} v_{rec.name};")
        measures.append(f"sizeof({rec.kind} {rec.name})")
        measures += [f"(char *)&v_{rec.name}.{m} - (char *)&v_{rec.name}" for m in rec.members]
    body += [f"    o[{i}] = (ulong)({m});" for i, m in enumerate(measures)]
    source = "".join(rec.text for rec in records) + \
        "kernel void k(global ulong *o)\n{\n" + "\n".join(body) + "\n}\n"
    return source, measures
