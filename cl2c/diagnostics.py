"""Diagnostics that read like a C compiler's: ``file.cl:LINE:COL: error: message``.

Every stage reports problems as :class:`Diagnostic` values; a stage that cannot
go on raises :class:`BuildError` carrying them. The command line prints them
with the source line and a caret; the Python API raises the same exception.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Diagnostic:
    severity: str      # "error", "warning" or "note"
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None

    def location(self) -> str:
        if not self.file:
            return "cl2c"
        loc = self.file
        if self.line is not None:       # (0 too: the line after `#line 0`, as GCC says)
            loc += f":{self.line}"
            if self.column:
                loc += f":{self.column}"
        return loc

    def __str__(self) -> str:
        return f"{self.location()}: {self.severity}: {self.message}"


class BuildError(Exception):
    """A kernel could not be translated or compiled. ``.diagnostics`` says why."""

    def __init__(self, diagnostics: list[Diagnostic], sources: "SourceMap | None" = None):
        self.diagnostics = list(diagnostics)
        self.sources = sources
        super().__init__(self.render())

    def render(self) -> str:
        return "\n".join(render(d, self.sources) for d in self.diagnostics)


class ToolchainError(BuildError):
    """The C compiler did not build (or load) a translation: a fault of cl2c's or of the
    machine's, not of the program's, so a build cache does not keep it."""


class UnsupportedError(Exception):
    """Raised inside a stage for a construct cl2c does not handle yet."""

    def __init__(self, message: str, coord=None):
        super().__init__(message)
        self.coord = coord


class SourceMap:
    """The text of every source file a build read, to quote lines in diagnostics."""

    def __init__(self):
        self.files: dict[str, str] = {}

    def add(self, name: str, text: str) -> None:
        self.files[name] = text

    def line(self, name: str | None, lineno: int | None) -> str | None:
        if name is None or lineno is None:
            return None
        text = self.files.get(name)
        if text is None:
            try:
                # (utf-8-sig: without a byte-order mark, as source_text.decode reads it)
                with open(name, encoding="utf-8-sig", errors="replace") as f:
                    text = f.read()
            except OSError:
                return None
            self.files[name] = text
        lines = text.splitlines()
        if 1 <= lineno <= len(lines):
            return lines[lineno - 1]
        return None


def render(d: Diagnostic, sources: SourceMap | None = None) -> str:
    """The diagnostic, then the source line and a caret under its column."""
    out = str(d)
    src = sources.line(d.file, d.line) if sources else None
    if src is not None:
        src = src.expandtabs(1)
        out += "\n" + src
        if d.column:
            out += "\n" + " " * (d.column - 1) + "^"
    return out


class Reporter:
    """Collects diagnostics for one build. ``warnings`` is "show", "none" (the build
    option -w) or "error" (-Werror: every warning fails the build)."""

    def __init__(self, sources: SourceMap, warnings: str = "show"):
        self.sources = sources
        self.warnings = warnings
        self.diagnostics: list[Diagnostic] = []

    def error(self, message: str, coord=None) -> None:
        self.diagnostics.append(at(coord, "error", message))

    def note(self, message: str, coord=None) -> None:
        """More about the diagnostic just reported (where a first definition is)."""
        self.diagnostics.append(at(coord, "note", message))

    def warning(self, message: str, coord=None) -> None:
        if self.warnings == "none":
            return
        if self.warnings == "error":
            self.diagnostics.append(at(coord, "error", message + " [-Werror]"))
        else:
            self.diagnostics.append(at(coord, "warning", message))

    def warnings_text(self) -> str:
        """The warnings of a build that succeeded, rendered as a C compiler would."""
        return "\n".join(render(d, self.sources) for d in self.diagnostics
                         if d.severity == "warning")

    @property
    def failed(self) -> bool:
        return any(d.severity == "error" for d in self.diagnostics)

    def check(self) -> None:
        """Raise BuildError if any error was reported."""
        if self.failed:
            raise BuildError(self.diagnostics, self.sources)


def at(coord, severity: str, message: str) -> Diagnostic:
    """A diagnostic at a pycparser ``Coord`` (or None)."""
    if coord is None:
        return Diagnostic(severity, message)
    return Diagnostic(severity, message, coord.file, coord.line, coord.column or None)
