"""Kernel source files as text: UTF-8, as clang reads OpenCL C.

A byte that is not UTF-8 inside a comment means nothing to the compiler (clang accepts
it: authors' names in Latin-1 headers) and becomes U+FFFD; anywhere else it is an error
at its line and column, never a Python exception.
"""
from __future__ import annotations

import re

from .diagnostics import BuildError, Diagnostic, SourceMap

_REPLACEMENT = "\ufffd"
BOM = "\ufeff"
# The largest source file cl2c reads (a kernel of a million lines is a fraction of it):
# a device such as /dev/zero, or a runaway generated file, is an error, not all memory.
MAX_SOURCE_BYTES = 16 << 20


def line_marker_name(path: str) -> str:
    """``path`` as the string of a ``#line`` directive: a quote, a backslash or a newline
    in a file name must not end the directive."""
    return path.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def from_line_marker(name: str) -> str:
    """The file name a ``#line`` directive's string (as the parser keeps it) stands for."""
    if "\\" not in name:
        return name
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), name)


def read_source(path: str) -> str:
    """The text of the source file ``path``; OSError as open() raises it."""
    with open(path, "rb") as f:
        return decode(f.read(MAX_SOURCE_BYTES + 1), path)


def without_bom(text: str) -> str:
    """The text without a leading byte-order mark, which Windows editors write and
    clang skips (its columns on line 1 count from after it, as ours then do)."""
    return text[1:] if text.startswith(BOM) else text


def decode(data: bytes, name: str) -> str:
    return without_bom(_decode(data, name))


def _decode(data: bytes, name: str) -> str:
    if len(data) > MAX_SOURCE_BYTES:
        raise BuildError([Diagnostic("error", f"source file larger than "
                                              f"{MAX_SOURCE_BYTES >> 20} MiB", name)])
    text = data.decode("utf-8", errors="surrogateescape")
    if not any("\udc80" <= c <= "\udcff" for c in text):
        return text
    out, bad = _in_comments_replaced(text)
    if bad:
        sources = SourceMap()
        sources.add(name, "".join(out))
        raise BuildError([Diagnostic("error", f"invalid UTF-8 byte 0x{byte:02x} (OpenCL C "
                                              f"source is UTF-8)", name, line, column)
                          for line, column, byte in bad[:10]], sources)
    return "".join(out)


def _in_comments_replaced(text: str) -> tuple[list[str], list[tuple[int, int, int]]]:
    """The characters with each undecodable byte replaced, and (line, column, byte) of
    those outside comments."""
    out, bad = [], []
    line, column = 1, 0
    state = "code"           # code, line comment, block comment, string, char
    previous = ""
    for c in text:
        column += 1
        if "\udc80" <= c <= "\udcff":
            if state not in ("line comment", "block comment"):
                bad.append((line, column, ord(c) - 0xDC00))
            out.append(_REPLACEMENT)
            previous = ""
            continue
        out.append(c)
        newline = c == "\n"
        if state == "code":
            if previous == "/" and c == "/":
                state = "line comment"
            elif previous == "/" and c == "*":
                state, c = "block comment", ""     # "/*/" does not end it
            elif c == '"':
                state = "string"
            elif c == "'":
                state = "char"
        elif state == "line comment" and c == "\n":
            state = "code"
        elif state == "block comment" and previous == "*" and c == "/":
            state, c = "code", ""
        elif state in ("string", "char"):
            if previous == "\\":
                c = ""                              # an escaped character
            elif c == ('"' if state == "string" else "'") or c == "\n":
                state = "code"
        if newline:
            line, column = line + 1, 0
        previous = c
    return out, bad
