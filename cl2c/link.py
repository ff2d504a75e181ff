"""Compiled objects, libraries and linking: the work of ``clCompileProgram`` and
``clLinkProgram`` (the build service runs it for the OpenCL platform).

A compiled object is one *unit*: its source, the headers embedded into it
(``clCompileProgram``'s ``input_headers``, by the names its ``#include`` gives them), its
compile options and the name its diagnostics give it. Compiling checks the unit
(preprocessed, parsed and type-checked, so that an error shows at compile time, as the
spec asks) and translates nothing: there is no separate machine code to link. A library
is a list of units. Linking preprocesses each unit on its own (its own ``-D``, ``-I`` and
headers, as separate translation units are) and translates the texts together as one
program, so that a function declared in one unit and defined in another is called as in
one file. A header that several units include gives its text once: a stretch of an
included file that an earlier unit already brought, the same lines with the same text
after preprocessing, is left out of the later ones (one struct, one table, one inline
function for all). A struct that two units define alike is one type (sema's
``linking``), as is an anonymous struct that they typedef alike, and an ``extern``
variable reads the one program's definition. It is not a C linker: two units' own
``static`` functions of one name are a redefinition in the one program, a struct two
units define differently (or a typedef name of two types) is refused, and a header's
program-scope variable is one for every unit.
"""
from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

from .diagnostics import Reporter, SourceMap
from .options import parse_options
from .preprocess import Preprocessed, preprocess
from .target import Target
from .timing import StageTimes

SOURCE_NAME = "program.cl"


@dataclass
class Unit:
    """One translation unit of a compiled object or a library."""
    source: str
    options: str = ""
    name: str = SOURCE_NAME
    headers: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"source": self.source, "options": self.options, "name": self.name,
                "headers": [[n, t] for n, t in self.headers.items()]}

    @classmethod
    def from_json(cls, data: dict) -> "Unit":
        return cls(data["source"], data.get("options", ""), data.get("name", SOURCE_NAME),
                   {n: t for n, t in data.get("headers", [])})


def check_unit(unit: Unit, target: Target) -> tuple[str, list[str]]:
    """Compile ``unit``: preprocess, parse and type-check it. Its warnings (the compile's
    log) and the files it #included; BuildError with the diagnostics where it has
    errors."""
    _, log, dependencies = compile_unit(unit, target)
    return log, dependencies


def compile_unit(unit: Unit, target: Target) -> tuple[Unit, str, list[str]]:
    """check_unit's work, and the unit as a compiled object holds it: the files it
    #included from the disk embedded as headers (by the names the include path finds
    them by; the host's own embedded headers first), since the spec reads them when
    compiling: a link reads no file (the CTS's execute_after_included_header_link
    removes the header between the two)."""
    from .pipeline import analyze_preprocessed
    opts = parse_options(unit.options)
    reporter = Reporter(SourceMap(), opts.warnings)
    pre = preprocess(unit.source, unit.name, opts, reporter, target, unit.headers)
    reporter.check()
    analyze_preprocessed(pre, unit.name, reporter, opts, target, StageTimes(),
                         expect_kernels=False)
    compiled = Unit(unit.source, unit.options, unit.name, {**pre.included, **unit.headers})
    return compiled, reporter.warnings_text(), pre.dependencies


def link_names(units: list[Unit]) -> list[Unit]:
    """The units with a name each in a link's diagnostics: program.cl alone, else
    program1.cl, program2.cl, ... in the order given."""
    if len(units) == 1:
        return units
    stem, dot, ext = SOURCE_NAME.rpartition(".")
    return [Unit(u.source, u.options, f"{stem}{i}{dot}{ext}", u.headers)
            for i, u in enumerate(units, 1)]


def program_options(units: list[Unit], link_options: str) -> str:
    """The options the linked program is translated with: the first unit's (its
    language version; every unit's own -D and -I have done their work in its
    preprocessing) and the link's."""
    first = units[0].options if units else ""
    return " ".join(part for part in (first, link_options) if part)


def translate_units(units: list[Unit], link_options: str, target: Target,
                    output_name: str = "kernel.c"):
    """Link: each unit preprocessed on its own, their texts translated together. The
    Translation; BuildError with the diagnostics (of whichever unit) where it fails."""
    from .pipeline import analyze_preprocessed, lower_and_emit
    from .sema.defined import check_defined
    units = link_names(units)
    opts = parse_options(program_options(units, link_options))
    reporter = Reporter(SourceMap(), opts.warnings)
    times = StageTimes()
    texts, dependencies, seen = [], [], set()
    for unit in units:
        pre = preprocess(unit.source, unit.name, parse_options(unit.options), reporter,
                         target, unit.headers)
        texts.append(_without_repeated_headers(pre.text, unit.name, seen))
        dependencies += pre.dependencies
    reporter.check()
    pre = Preprocessed("\n".join(texts), dependencies)
    name = units[0].name
    module = analyze_preprocessed(pre, name, reporter, opts, target, times, linking=True)
    check_defined(module, reporter, linked=True)
    return lower_and_emit(module, pre, reporter, opts, name, output_name, True, target,
                          times)


_LINE_MARKER = re.compile(r'^#line (\d+) "((?:[^"\\\n]|\\.)*)"$', re.M)


def _without_repeated_headers(text: str, unit_name: str, seen: set) -> str:
    """A unit's preprocessed text less the stretches of included files (between line
    markers) that an earlier unit gave as they are here: (file, line, text) in ``seen``."""
    marks = list(_LINE_MARKER.finditer(text))
    if not marks:
        return text
    parts = [text[:marks[0].start()]]
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        stretch = text[m.start():end]
        key = (m.group(2), m.group(1), stretch[m.end() - m.start():])
        if m.group(2) != unit_name and key in seen and key[2].strip():
            continue
        seen.add(key)
        parts.append(stretch)
    return "".join(parts)


def creates_library(options: str) -> bool:
    """Whether link options ask for a library (-create-library), not an executable."""
    return "-create-library" in shlex.split(options or "")
