"""printf format strings (OpenCL C 6.12.13): parsed and checked at compile time.

The format must be a string literal, so every conversion is known before the
kernel runs: semantic analysis checks each argument against its conversion
here, and lowering converts each argument to the one C type the runtime
(``cl2c/printf.h``) reads for that conversion. The runtime re-reads the same
format; nothing it meets there is unchecked.

OpenCL's grammar is C99's with a vector specifier ``vN`` before the length
modifier, the ``hl`` length modifier (vectors only), no ``*`` field width or
precision, and ``ll j z t L`` and ``%n`` reserved.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from . import types as ty

INT_CONVERSIONS = "diouxX"
FLOAT_CONVERSIONS = "fFeEgGaA"
FLAGS = "-+ #0"
# bytes of a vector's elements per length modifier
_VECTOR_ELEMENT_SIZE = {"hh": 1, "h": 2, "hl": 4, "l": 8}
_FLOAT_ELEMENTS = {"h": ty.HALF, "hl": ty.FLOAT, "l": ty.DOUBLE}


class FormatError(ValueError):
    """An invalid format string: the message names the conversion, which starts
    at ``offset`` in the format."""

    def __init__(self, message: str, offset: int = 0):
        super().__init__(message)
        self.offset = offset


@dataclass(frozen=True)
class Conversion:
    text: str              # as written: "%#v4hhx"
    flags: str
    width: int | None
    precision: int | None
    vector: int            # 0 for a scalar, else the width N of %vN
    length: str            # "", "hh", "h", "hl" or "l"
    conversion: str        # d i o u x X f F e E g G a A c s p

    @property
    def kind(self) -> str:
        """'int', 'float', 'char', 'string' or 'pointer'."""
        c = self.conversion
        if c in INT_CONVERSIONS:
            return "int"
        if c in FLOAT_CONVERSIONS:
            return "float"
        return {"c": "char", "s": "string", "p": "pointer"}[c]

    @property
    def signed(self) -> bool:
        return self.conversion in "di"

    def argument_type(self) -> ty.Type | None:
        """The type of the argument the conversion reads, as C's printf would
        after default argument promotions; None for %s and %p."""
        kind = self.kind
        if self.vector:
            if kind == "float":
                return ty.Vector(_FLOAT_ELEMENTS[self.length], self.vector)
            elem = {(1, True): ty.CHAR, (1, False): ty.UCHAR, (2, True): ty.SHORT,
                    (2, False): ty.USHORT, (4, True): ty.INT, (4, False): ty.UINT,
                    (8, True): ty.LONG, (8, False): ty.ULONG}
            return ty.Vector(elem[_VECTOR_ELEMENT_SIZE[self.length], self.signed], self.vector)
        if kind == "float":
            return ty.DOUBLE
        if kind == "char":
            return ty.INT
        if kind == "int":
            if self.length == "l":
                return ty.LONG if self.signed else ty.ULONG
            return ty.INT if self.signed else ty.UINT
        return None


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
            "\\": "\\", "'": "'", '"': '"', "?": "?"}
_ESCAPE = re.compile(r"\\(x[0-9a-fA-F]+|[0-7]{1,3}|.)", re.S)


def decode_literal(literal: str) -> tuple[str, list[int]]:
    """The characters of a C string literal as written (quotes and escapes), up to a
    NUL (where printf stops reading), and for each the offset in ``literal`` where
    it is written (to point a diagnostic at it)."""
    start = literal.index('"') + 1
    body = literal[start:-1]
    chars, offsets, i = [], [], 0
    while i < len(body):
        m = _ESCAPE.match(body, i) if body[i] == "\\" else None
        if m is None:
            ch, end = body[i], i + 1
        else:
            e, end = m.group(1), m.end()
            ch = chr(int(e[1:], 16) & 0xFF) if e[0] == "x" else \
                chr(int(e, 8) & 0xFF) if e[0] in "01234567" else _ESCAPES.get(e, e)
        if ch == "\0":
            break
        chars.append(ch)
        offsets.append(start + i)
        i = end
    return "".join(chars), offsets


_SPEC = re.compile(r"""%
    (?P<flags>[-+ \#0]*)
    (?P<width>\*|[0-9]+)?
    (?:\.(?P<precision>\*|[0-9]*))?
    (?:v(?P<vector>[0-9]+))?
    (?P<length>hh|hl|h|ll|l|[jztL])?
    (?P<conversion>.)?""", re.X | re.S)


def parse(fmt: str) -> list[Conversion]:
    """The conversions of format ``fmt`` (``%%`` left out), in order."""
    out = []
    i = 0
    while True:
        i = fmt.find("%", i)
        if i < 0:
            return out
        if fmt.startswith("%%", i):
            i += 2
            continue
        m = _SPEC.match(fmt, i)
        try:
            out.append(_conversion(m))
        except FormatError as e:
            e.offset = i
            raise
        i = m.end()


def _conversion(m: re.Match) -> Conversion:
    text = m.group(0)
    conv, length, vector = m.group("conversion"), m.group("length") or "", m.group("vector")
    if conv is None:
        raise FormatError(f"incomplete conversion specification '{text}' at the end of the "
                          f"format")
    if "*" in (m.group("width"), m.group("precision")):
        raise FormatError(f"'{text}': OpenCL C printf takes no '*' field width or precision "
                          f"(spec 6.12.13)")
    if conv == "%":
        raise FormatError(f"'{text}': the complete conversion specification for a '%' is '%%'")
    if length in ("ll", "j", "z", "t", "L"):
        raise FormatError(f"'{text}': length modifier '{length}' is reserved in OpenCL C "
                          f"(use 'l' for 64-bit integers)")
    if conv == "n":
        raise FormatError(f"'{text}': the 'n' conversion is reserved in OpenCL C")
    if conv not in INT_CONVERSIONS + FLOAT_CONVERSIONS + "csp":
        raise FormatError(f"'{text}': invalid conversion specifier '{conv}'")
    if vector is not None:
        if int(vector) not in ty.VECTOR_WIDTHS:
            raise FormatError(f"'{text}': vector specifier 'v{vector}': the width must be 2, "
                              f"3, 4, 8 or 16")
        if conv in "csp":
            raise FormatError(f"'{text}': the vector specifier does not apply to '%{conv}'")
        if not length:
            raise FormatError(f"'{text}': a vector specifier needs a length modifier (hh, h, "
                              f"hl or l) naming the element type")
        if conv in FLOAT_CONVERSIONS and length == "hh":
            raise FormatError(f"'{text}': length modifier 'hh' does not apply to '%{conv}'")
    elif length == "hl":
        raise FormatError(f"'{text}': length modifier 'hl' needs a vector specifier "
                          f"('%v4hl{conv}')")
    elif length and conv in "csp":
        raise FormatError(f"'{text}': length modifier '{length}' does not apply to '%{conv}'")
    elif length in ("hh", "h") and conv in FLOAT_CONVERSIONS:
        raise FormatError(f"'{text}': length modifier '{length}' applies to '%{conv}' only "
                          f"with a vector specifier")
    precision = m.group("precision")
    return Conversion(text, m.group("flags"), int(m.group("width")) if m.group("width")
                      else None, None if precision is None else int(precision or 0),
                      int(vector or 0), length, conv)


def check_argument(c: Conversion, arg: ty.Type, is_string_literal: bool):
    """Whether an argument of type ``arg`` suits conversion ``c``: None, or
    (severity, what is wrong). Errors where the spec forbids the pair or the
    value could not be printed as asked; warnings where C compilers warn and the
    argument converts (an integer of another width)."""
    want = c.argument_type()
    kind = c.kind
    if kind == "string":
        return None if is_string_literal else (
            "error", "the argument of '%s' must be a string literal in OpenCL C (spec 6.12.13)")
    if kind == "pointer":
        return None if isinstance(arg, ty.Pointer) else ("error", f"'{c.text}' expects a "
                                                          f"pointer, not '{arg}'")
    if c.vector:
        if isinstance(arg, ty.Vector) and arg.n == want.n and arg.elem.kind == want.elem.kind \
                and arg.elem.size == want.elem.size:
            return None              # either signedness, as C's printf takes it
        return "error", f"'{c.text}' expects an argument of type '{want}', not '{arg}'"
    if isinstance(arg, ty.Vector):
        return "error", (f"'{c.text}' expects a scalar argument, not '{arg}' (print a vector "
                         f"with a vector specifier: '%v{arg.n}{_length_for(arg)}{c.conversion}')")
    if not arg.is_arithmetic:
        return "error", f"'{c.text}' expects an argument of type '{want}', not '{arg}'"
    if kind == "float":
        if not arg.is_float:
            return "error", f"'{c.text}' expects an argument of type 'double', not '{arg}'"
        return None
    if arg.is_float:
        return "error", f"'{c.text}' expects an argument of type '{want}', not '{arg}'"
    if kind == "int" and (ty.type_size(arg) == 8) != (c.length == "l"):
        return "warning", (f"'{c.text}' expects an argument of type '{want}', but the argument "
                           f"has type '{arg}' (converted)")
    return None


def _length_for(v: ty.Vector) -> str:
    if v.elem.is_float:
        return {2: "h", 4: "hl", 8: "l"}[v.elem.size]
    return {1: "hh", 2: "h", 4: "hl", 8: "l"}[v.elem.size]
