"""Python text as C source text."""
from __future__ import annotations


def c_string(text: str) -> str:
    """A C string literal (ASCII; other characters as octal escapes)."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif " " <= ch <= "~":
            out.append(ch)
        else:
            out.extend(f"\\{b:03o}" for b in ch.encode("utf-8"))
    return '"' + "".join(out) + '"'
