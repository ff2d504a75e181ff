"""A program's C compiled as one file per group of kernels, at once, where cores are free.

Most of a cold build is the C compiler (issue 38: the six-kernel file's first build on
the 16-core Xeon spent 325 of its 630 ms compiling its one file at -O0, and its optimised
tier about 1.2 s at -O3), and one compiler process uses one core. Each part holds the
entry points of its group of kernels and their work-group functions, after the program's
other functions and types (all static: the compiler drops the inline ones that part does
not call; it compiles every work-group function it sees, out of line); the last part
holds the metadata too, which declares the others' entries. Every part links the
runtime's object (linkage.h): they share the runtime's state as the one file's functions
did. Checking builds (their state is static in check.h) and sanitized ones keep one file.

Each part costs the parse of the runtime's headers again (60 ms of CPU on the project's
2-core machine), so the parts are as many as half the cores that the process may run on,
and at most one a kernel: a 2-core machine (and the test suite on it) compiles one file.
At -O3 each kernel's code is what the one file made of it (the six-kernel file's 49
functions, byte for byte), and the parts take the one file's 1.27 s to 0.40 s at most.
"""
from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class CompileParts:
    """A translation unit cut for the loader's compile of one C file per group of
    kernels at once (units): its prelude's pieces, each kernel's entry
    points and the metadata that refers to all of them, in the source's order. The
    prelude is the includes and the program (its types, functions and work-group
    functions, all static), a piece each, with the index of the kernel that piece is
    alone to (its work-group functions) or None, and the line it begins on."""
    prelude: tuple[tuple[int | None, int, str], ...]
    entries: tuple[str, ...]
    metadata: str
    first_lines: tuple[int, ...]    # where each entry, then the metadata, begins
    line_name: str | None           # the file's name in #line (None: no #line)
    declarations: str               # of the entries, for the metadata's file

    @staticmethod
    def from_json(fields: dict) -> "CompileParts":
        """The parts that ``dataclasses.asdict`` of them made (the optimised tier's job)."""
        return CompileParts(tuple(tuple(p) for p in fields["prelude"]),
                            tuple(fields["entries"]), fields["metadata"],
                            tuple(fields["first_lines"]), fields["line_name"],
                            fields["declarations"])


def part_count(kernels: int, cores: int | None = None) -> int:
    """How many files to compile ``kernels`` kernels' program in: at most
    ``CL2C_COMPILE_PARTS`` where it is a number, else half the cores this process may
    run on (1 where it has fewer than four)."""
    asked = os.environ.get("CL2C_COMPILE_PARTS", "").strip()
    if asked.isdigit():
        return max(1, min(kernels, int(asked)))
    if cores is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
            else (os.cpu_count() or 1)
    return max(1, min(kernels, cores // 2))


def units(parts: CompileParts, count: int, loader_tail: str) -> list[str]:
    """The text of each of ``count`` files of ``parts``' program: the prelude but the
    work-group functions of other kernels than its own, and a run of consecutive
    kernels' entries each; the last one the metadata and ``loader_tail`` (what the
    loader's library adds to the source) after them."""
    n = len(parts.entries)
    count = max(1, min(count, n))
    bounds = [n * i // count for i in range(count + 1)]
    texts = []
    for i in range(count):
        group = range(bounds[i], bounds[i + 1])
        body = [_at(parts, parts.first_lines[k]) + parts.entries[k] for k in group]
        if i == count - 1:
            body += [parts.declarations, _at(parts, parts.first_lines[n]) + parts.metadata,
                     loader_tail]
        texts.append(_prelude(parts, group) + "".join(body))
    return texts


def _prelude(parts: CompileParts, group: range) -> str:
    """The prelude's pieces that the kernels of ``group`` may call, each after one left
    out with a #line of its own place in the whole file."""
    kept, gap = [], False
    for owner, line, text in parts.prelude:
        if owner is not None and owner not in group:
            gap = True
            continue
        kept.append((_at(parts, line) if gap else "") + text)
        gap = False
    return "".join(kept)


def _at(parts: CompileParts, line: int) -> str:
    """A #line that gives what follows its own place, ``line``, in the whole file."""
    if parts.line_name is None:
        return ""
    return f'#line {line} "{parts.line_name}"\n'
