"""Literals decoded by C's rules (C11 6.4.4, 6.4.5), never by Python's ``eval``."""
from __future__ import annotations

import re
import struct

_SIMPLE_ESCAPES = {"'": 0x27, '"': 0x22, "?": 0x3F, "\\": 0x5C, "a": 0x07, "b": 0x08,
                   "f": 0x0C, "n": 0x0A, "r": 0x0D, "t": 0x09, "v": 0x0B}
_ESCAPE = re.compile(r"\\(?:([0-7]{1,3})|x([0-9a-fA-F]+)|(.))", re.S)
INT_SUFFIX = re.compile(r"[uUlL]*$")


def integer_value(text: str) -> int:
    """The value of an integer constant: decimal, 0x hex, 0b binary or 0 octal, with
    any u/l suffix (or a character constant's, ``'ab'``: pycparser's type for it is int)."""
    if "'" in text:
        return char_value(text[text.index("'"):])
    digits = text[:len(text) - len(INT_SUFFIX.search(text).group())]
    if len(digits) > 1 and digits[0] == "0" and digits[1] not in "xXbB":
        return int(digits, 8)
    return int(digits, 0)


def _units(body: str) -> list[int]:
    """The code units of a character or string literal's body (between the quotes)."""
    out, pos = [], 0
    for m in _ESCAPE.finditer(body):
        out += [ord(c) for c in body[pos:m.start()]]
        octal, hexa, simple = m.groups()
        if octal is not None:
            out.append(int(octal, 8))
        elif hexa is not None:
            out.append(int(hexa, 16))
        else:
            out.append(_SIMPLE_ESCAPES.get(simple, ord(simple)))
        pos = m.end()
    out += [ord(c) for c in body[pos:]]
    return out


def char_value(text: str) -> int:
    """The int value of a character constant such as ``'a'`` or ``'\\n'``: its one char
    (signed, as OpenCL's char is). A constant of several chars has GCC's value."""
    value, units = 0, _units(text[1:-1])
    for unit in units:
        value = (value << 8) | (unit & 0xFF)
    if len(units) == 1 and value >= 0x80:
        value -= 0x100
    elif len(units) > 1:            # an int: its last four chars, GCC's value
        value &= 0xFFFFFFFF
        value -= 1 << 32 if value >= 1 << 31 else 0
    return value


def char_count(text: str) -> int:
    """The chars of a character constant (``'ab'``: 2)."""
    return len(_units(text[text.index("'") + 1:-1]))


def hex_escape_without_digits(text: str) -> bool:
    """A character or string literal with ``\\x`` and no hex digit after it (which C
    refuses)."""
    return any(m.group(3) == "x" for m in _ESCAPE.finditer(text))


def string_length(text: str) -> int:
    """The chars in a string literal (without its terminating zero); adjacent literals
    (``"ab" "cd"``) count as one."""
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"', text, re.S)
    return sum(len(_units(p)) for p in parts)


def float_out_of_range(text: str) -> str | None:
    """"overflow" or "underflow" (a non-zero constant that rounds to zero) for a
    floating constant its type cannot hold (``1e39f``, ``1e999``, ``1e-50f``), else None."""
    digits = text.rstrip("fFlLhH") if not text.lower().startswith("0x") else \
        text.rstrip("fFlL")
    try:
        value = float.fromhex(digits) if digits.lower().startswith("0x") else float(digits)
    except OverflowError:
        return "overflow"
    except ValueError:
        return None
    if value == float("inf"):
        return "overflow"
    if text[-1] in "fF":                # rounded to float: inf past FLT_MAX's half ulp
        try:
            value = struct.unpack("f", struct.pack("f", value))[0]
        except OverflowError:
            return "overflow"
        if value == float("inf"):
            return "overflow"
    body = digits.lower()
    mantissa = re.split(r"p", body[2:])[0] if body.startswith("0x") else \
        re.split(r"e", body)[0]
    nonzero = any(c not in "0." for c in mantissa)
    if value == 0 and nonzero:
        return "underflow"
    return None
