"""Stage 1: the C preprocessor, with OpenCL's predefined macros (spec 6.10).

pcpp does the work in Python, so translating a kernel needs no C compiler and
behaves the same on every host. The extensions a kernel sees (cl_khr_fp16 among them
or not) are those of the :class:`~cl2c.target.Target` it is translated for. Line
markers are kept so that diagnostics and the emitted ``#line`` directives point at the
user's ``.cl`` files.
"""
from __future__ import annotations

import io
import os
import re
import stat
import traceback
import struct
import time
from dataclasses import dataclass, field
from typing import NamedTuple

import pcpp

from .diagnostics import Diagnostic, Reporter
from .image_formats import CHANNEL_ORDERS, CHANNEL_TYPES, SAMPLER_FLAGS
from .options import Options
from .source_text import (MAX_SOURCE_BYTES, decode, from_line_marker, line_marker_name,
                          without_bom)
from .target import Target

def _to_float(value: float) -> float:
    return struct.unpack("f", struct.pack("f", value))[0]


# Integer and float limits of spec 6.12.2 and 6.11.3, as the spec defines them.
_LIMITS = {
    "CHAR_BIT": "8", "SCHAR_MAX": "127", "SCHAR_MIN": "(-127-1)", "CHAR_MAX": "127",
    "CHAR_MIN": "(-127-1)", "UCHAR_MAX": "255", "SHRT_MAX": "32767", "SHRT_MIN": "(-32767-1)",
    "USHRT_MAX": "65535", "INT_MAX": "2147483647", "INT_MIN": "(-2147483647-1)",
    "UINT_MAX": "0xffffffffU", "LONG_MAX": "0x7fffffffffffffffL",
    "LONG_MIN": "(-0x7fffffffffffffffL-1)", "ULONG_MAX": "0xffffffffffffffffUL",
    "FLT_DIG": "6", "FLT_MANT_DIG": "24", "FLT_MAX_10_EXP": "+38", "FLT_MAX_EXP": "+128",
    "FLT_MIN_10_EXP": "-37", "FLT_MIN_EXP": "-125", "FLT_RADIX": "2",
    "FLT_MAX": "0x1.fffffep127f", "FLT_MIN": "0x1.0p-126f", "FLT_EPSILON": "0x1.0p-23f",
    "DBL_DIG": "15", "DBL_MANT_DIG": "53", "DBL_MAX_10_EXP": "+308", "DBL_MAX_EXP": "+1024",
    "DBL_MIN_10_EXP": "-307", "DBL_MIN_EXP": "-1021", "DBL_RADIX": "2",  # (clang's)
    "DBL_MAX": "0x1.fffffffffffffp1023", "DBL_MIN": "0x1.0p-1022", "DBL_EPSILON": "0x1.0p-52",
    "MAXFLOAT": "0x1.fffffep127f",
    # defined, so that #ifdef sees them, as themselves: sema knows them as constants
    # (builtins.CONSTANTS), and a macro does not expand inside its own expansion
    "INFINITY": "INFINITY", "NAN": "NAN", "HUGE_VALF": "HUGE_VALF", "HUGE_VAL": "HUGE_VAL",
    # what ilogb returns for 0 and NaN: INT_MIN for both, as the runtime's ilogb (math.h)
    "FP_ILOGB0": "(-2147483647-1)", "FP_ILOGBNAN": "(-2147483647-1)",
    "M_E": "2.718281828459045090796", "M_LOG2E": "1.442695040888963387005",
    "M_LOG10E": "0.434294481903251816668", "M_LN2": "0.693147180559945286227",
    "M_LN10": "2.302585092994045901094", "M_PI": "3.141592653589793115998",
    "M_PI_2": "1.570796326794896557999", "M_PI_4": "0.785398163397448278999",
    "M_1_PI": "0.318309886183790691216", "M_2_PI": "0.636619772367581382433",
    "M_2_SQRTPI": "1.128379167095512558561", "M_SQRT2": "1.414213562373095145475",
    "M_SQRT1_2": "0.707106781186547572737",
}
# ... and their float forms (M_PI_F): the double rounded to float, to 14 decimals.
_LIMITS.update({f"{name}_F": f"{_to_float(float(value)):.14f}f"
                for name, value in list(_LIMITS.items()) if name.startswith("M_")})

# The sampler flags, channel orders and channel data types kernels see as CLK_* macros
# (spec 6.12.14; the values are cl2c/image_formats.py's).
IMAGE_MACROS = {**{k: str(v) for k, v in SAMPLER_FLAGS.items()},
                **{f"CLK_{k}": hex(v) for k, v in CHANNEL_ORDERS.items()},
                **{f"CLK_{k}": hex(v) for k, v in CHANNEL_TYPES.items()}}


# The optional features of OpenCL C 3.0 (spec 6.2.1) that cl2c supports, each defined as
# a macro under -cl-std=CL3.0; __opencl_c_fp64 goes with cl_khr_fp64 (the target's).
def predefined_macros(options: Options, target: Target) -> dict[str, str]:
    """Every macro a kernel sees before its first line."""
    macros = {
        "__OPENCL_VERSION__": str(options.device_version.number),
        "__OPENCL_C_VERSION__": str(options.cl_std.number),
        "CL_VERSION_1_0": "100", "CL_VERSION_1_1": "110", "CL_VERSION_1_2": "120",
        "CL_VERSION_2_0": "200", "CL_VERSION_3_0": "300",
        "__ENDIAN_LITTLE__": "1",
        "__EMBEDDED_PROFILE__": "0",
        "__CL2C__": "1",
        "__kernel_exec(X, typen)": "__kernel __attribute__((work_group_size_hint(X, 1, 1))) "
                                   "__attribute__((vec_type_hint(typen)))",
        "kernel_exec(X, typen)": "__kernel __attribute__((work_group_size_hint(X, 1, 1))) "
                                 "__attribute__((vec_type_hint(typen)))",
        "NULL": "((void *)0)",
        "true": "1", "false": "0",
        "CLK_LOCAL_MEM_FENCE": "1", "CLK_GLOBAL_MEM_FENCE": "2", "CLK_IMAGE_MEM_FENCE": "4",
        "__IMAGE_SUPPORT__": "1",           # the device supports images (spec 6.10)
    }
    macros.update(IMAGE_MACROS)
    if "-cl-fast-relaxed-math" in options.flags:
        macros["__FAST_RELAXED_MATH__"] = "1"
    removed = options.removed_extensions
    macros.update({ext: "1" for ext in target.extensions_for(options.cl_std, removed)})
    if options.cl_std.atomic_types:
        # the atomic types' initializers (6.13.11.1, 6.13.11.8)
        macros.update({"ATOMIC_VAR_INIT(V)": "(V)", "ATOMIC_FLAG_INIT": "0"})
    macros.update({feature: "1" for feature in target.features(options.cl_std, removed)})
    macros.update(_LIMITS)
    if target.fast_fma:
        # fma is as fast as a multiply and an add (spec 6.10; 6.15.2's macros)
        macros["FP_FAST_FMAF"] = "1"
        if "cl_khr_fp64" in macros:
            macros["FP_FAST_FMA"] = "1"
    return macros


@dataclass
class Preprocessed:
    text: str                 # with #line markers
    dependencies: list[str]   # every file #included, in order
    # the files read from the disk by the names the include path finds them by:
    # what clCompileProgram embeds into its object, so that a link reads no file
    included: dict[str, str] = field(default_factory=dict)


# Where clCompileProgram's embedded headers seem to lie: a folder first on the include
# path that is never read from the disk (on_file_open answers from the headers given), so
# that #include "name" finds them by the names the host gave, nested ones included.
EMBEDDED_ROOT = "/<cl2c embedded headers>"


class _Preprocessor(pcpp.Preprocessor):
    def __init__(self, reporter: Reporter, headers: dict[str, str] | None = None):
        super().__init__()
        self.reporter = reporter
        self.headers = headers or {}
        self.line_directive = "#line"
        self.passthru_includes = None
        self.dependencies: list[str] = []
        self.included: dict[str, str] = {}
        self.include_nesting = 0       # (pcpp counts include_depth its own way)
        self.includes = 0              # #includes followed, all told
        self.too_deep = False
        self.deadline = time.monotonic() + MAX_SECONDS
        self.expanded_tokens = 0       # tokens macro expansion has handled, all told
        self._expansion_depth = 0
        self._expanding: list = []     # the tokens of the outermost expansion under way

    def expand_macros(self, tokens, expanding_from=[]):   # noqa: B006 (pcpp's signature)
        """pcpp's expansion, bounded: a macro bomb (each macro twice the one before)
        stops with an error at its use instead of running for minutes."""
        self.expanded_tokens += len(tokens)
        if self.expanded_tokens > MAX_EXPANDED_TOKENS:
            raise _ExpansionLimit(self._expanding or tokens)
        self._on_time()
        if self._expansion_depth == 0:
            self._expanding = tokens[:]
        self._expansion_depth += 1
        try:
            result = super().expand_macros(tokens, expanding_from)
        finally:
            self._expansion_depth -= 1
        self.expanded_tokens += len(result)      # (pcpp splices each result: its cost)
        return result

    def _on_time(self):
        if time.monotonic() > self.deadline:
            raise _TimeLimit(getattr(self, "lastdirective", None))

    def group_lines(self, input, abssource):
        # Each token's source is the name pcpp writes in its #line markers, between
        # quotes: escaped as in a C string (a quote or a newline in a file name).
        return super().group_lines(input, line_marker_name(abssource) if abssource
                                   else abssource)

    def on_error(self, file, line, msg):
        """pcpp's errors come with a line: the column is the named macro's, else the
        directive's '#', else the line's first character."""
        last = getattr(self, "lastdirective", None)
        if (not line or file == "unknown") and last is not None:
            # pcpp's evalexpr knows no place ('unknown', 0): the directive it evaluates
            file, line = last.source, last.lineno
            if msg.strip() == "Empty expression":
                msg = f"#{last.value} with no expression"     # clang's words
        file = from_line_marker(file) if file else file
        text = self.reporter.sources.line(file, line) or ""
        column = len(text) - len(text.lstrip()) + 1
        named = re.match(r"Macro (\w+)", msg)
        found = re.search(rf"\b{named.group(1)}\b", text) if named else None
        if found:
            column = found.start() + 1
        msg = msg.strip()
        if len(msg) > 200:                  # (pcpp quotes whole expressions)
            msg = msg[:200] + "..."
        self.reporter.diagnostics.append(Diagnostic("error", msg, file, line, column))
        self.return_code += 1

    def on_include_not_found(self, is_malformed, is_system_include, curdir, includepath):
        what = "malformed #include" if is_malformed else f"'{includepath}' file not found"
        self.on_error(self.lastdirective.source, self.lastdirective.lineno, what)
        raise pcpp.OutputDirective(pcpp.Action.IgnoreAndRemove)

    def include(self, tokens, original_line):
        """#include, nested at most MAX_INCLUDE_DEPTH deep (clang's limit): a file that
        includes itself ends in an error, not in a translation that never ends."""
        if self.include_nesting >= MAX_INCLUDE_DEPTH:
            if self.too_deep:
                return          # (reported once: a header including itself twice would
            self.too_deep = True  # report it at every one of the deepest includes)
            self.reporter.error(f"#include nested too deeply (more than {MAX_INCLUDE_DEPTH} "
                                f"levels)", self._at(self.lastdirective))
            self.return_code += 1
            return
        # a header that includes itself twice doubles at each level: 2^200 files
        self.includes += 1
        if self.includes > MAX_INCLUDES:
            if self.includes == MAX_INCLUDES + 1:
                self.reporter.error(f"more than {MAX_INCLUDES:,} #includes in one translation "
                                    f"unit (a header that includes itself?)",
                                    self._at(self.lastdirective))
                self.return_code += 1
            return
        self._on_time()
        self.include_nesting += 1
        try:
            yield from super().include(tokens, original_line)
        finally:
            self.include_nesting -= 1

    def on_file_open(self, is_system_include, includepath):
        if includepath.startswith(EMBEDDED_ROOT + "/"):
            name = embedded_name(includepath)
            if name not in self.headers:
                raise FileNotFoundError(includepath)     # (pcpp tries the next folder)
            text = _pcpp_safe(self.headers[name])
            self.reporter.sources.add(includepath, text)
            self.reporter.sources.add(name, text)
            return io.StringIO(text)      # (not a dependency: its text is the program's)
        with open(includepath, "rb") as f:
            why = _unreadable(os.fstat(f.fileno()))
            if why is not None:
                self.reporter.error(f"cannot #include '{includepath}': {why}",
                                    self._at(self.lastdirective))
                self.return_code += 1
                return io.StringIO("")
            text = _pcpp_safe(decode(f.read(MAX_SOURCE_BYTES + 1),
                                                 includepath))
        self.dependencies.append(includepath)
        for name in self._include_names(includepath):
            self.included.setdefault(name, text)
        self.reporter.sources.add(includepath, text)
        return io.StringIO(text)

    def _include_names(self, includepath: str) -> list[str]:
        """The names that find ``includepath`` from the folders of the include path
        that hold it (pcpp tells the file, not the name it was found by; a header's own
        folder, where a nested #include looks first, is one of those or below one)."""
        found = os.path.abspath(includepath)
        return [os.path.relpath(found, folder) for folder in map(os.path.abspath, self.path)
                if found.startswith(folder.rstrip(os.sep) + os.sep)]

    def _at(self, directive) -> "_Where":
        """The position of a directive's '#'."""
        source = from_line_marker(directive.source)
        text = self.reporter.sources.line(source, directive.lineno) or ""
        return _Where(source, directive.lineno,
                      text.index("#") + 1 if "#" in text else None)

    def on_unknown_macro_in_defined_expr(self, tok):
        # __LINE__ and __COUNTER__ are macros that pcpp expands without defining them:
        # #ifdef __LINE__ holds, as in every C preprocessor
        if tok.value in ("__LINE__", "__COUNTER__"):
            return True
        return super().on_unknown_macro_in_defined_expr(tok)

    def on_comment(self, tok):
        return False   # drop comments

    def on_directive_unknown(self, directive, toks, ifpassthru, precedingtoks):
        """#error stops the build and #warning is a warning (-w and -Werror apply),
        both at the directive's position; pcpp would only print them."""
        if directive.value == "line":
            # #line N "name" renames the file for __FILE__ too (C11 6.10.4); pcpp
            # passes the directive through (the later stages read it) but keeps
            # __FILE__ (restored, as after any #line, where an #include returns)
            name = next((t.value for t in toks if t.type == self.t_STRING), None)
            if name is not None:
                self.define(f"__FILE__ {name}")
        if directive.value not in ("error", "warning"):
            return super().on_directive_unknown(directive, toks, ifpassthru, precedingtoks)
        message = "".join(t.value for t in toks).strip()
        where = self._at(directive)
        if directive.value == "error":
            self.reporter.error(f"#error {message}", where)
            self.return_code += 1
        else:
            self.reporter.warning(f"#warning {message}", where)
        return True


MAX_INCLUDE_DEPTH = 200
# Tokens macro expansion may handle in one translation unit: hundreds of times what the
# largest kernels take (piglit's, the bench's), reached in about a second.
MAX_EXPANDED_TOKENS = 2_000_000
MAX_INCLUDES = 10_000
# The last bound, on whatever the others miss: seconds of preprocessing (legitimate kernels
# take well under one).
MAX_SECONDS = 30.0


class _TimeLimit(Exception):
    def __init__(self, directive):
        super().__init__()
        self.directive = directive


class _ExpansionLimit(Exception):
    def __init__(self, tokens):
        super().__init__()
        self.tokens = tokens


def _unreadable(st: os.stat_result) -> str | None:
    """Why an included file cannot be source text (a device, a FIFO, a huge file)."""
    if not stat.S_ISREG(st.st_mode):
        return "not a regular file"
    if st.st_size > MAX_SOURCE_BYTES:
        return f"larger than {MAX_SOURCE_BYTES >> 20} MiB"
    return None


class _Where(NamedTuple):
    """A position, as diagnostics.at() reads one."""
    file: str
    line: int
    column: int | None


def embedded_name(path: str) -> str:
    """The name a host gave an embedded header, of its path under EMBEDDED_ROOT."""
    return path[len(EMBEDDED_ROOT) + 1:]


def preprocess(text: str, filename: str, options: Options, reporter: Reporter,
               target: Target, headers: dict[str, str] | None = None) -> Preprocessed:
    """Run the preprocessor over one translation unit; errors go to ``reporter``.
    ``headers``: embedded headers by include name (clCompileProgram's), found before
    the include path's folders."""
    text = without_bom(text)            # (text from Python, not read by decode())
    reporter.sources.add(filename, text)
    pp = _Preprocessor(reporter, headers)
    directory = os.path.dirname(filename)
    if directory and os.path.isdir(directory):
        pp.add_path(directory)
    if headers:
        pp.add_path(EMBEDDED_ROOT)
    for d in options.include_dirs:
        pp.add_path(d)
    for name, value in predefined_macros(options, target).items():
        pp.define(f"{name} {value}")
    for name, value in options.defines.items():
        pp.define(f"{name} {value}")
    pp.parse(_pcpp_safe(text), filename)
    out = io.StringIO()
    try:
        pp.write(out)
    except _ExpansionLimit as e:
        reporter.error(f"macro expansion too large: more than {MAX_EXPANDED_TOKENS:,} "
                       f"tokens (a macro that expands to others many times over?)",
                       _token_position(e.tokens, pp, reporter))
        return Preprocessed("", pp.dependencies)
    except _TimeLimit as e:
        reporter.error(f"preprocessing took longer than {MAX_SECONDS:g} seconds (stopped)",
                       pp._at(e.directive) if e.directive is not None else None)
        return Preprocessed("", pp.dependencies)
    except (IndexError, KeyError, AttributeError, TypeError, ValueError) as e:
        if not _raised_in_pcpp(e):
            raise
        # pcpp fails so on some malformed directives ('#define' with no name)
        directive = getattr(pp, "lastdirective", None)
        reporter.error("malformed preprocessing directive",
                       pp._at(directive) if directive is not None else None)
        return Preprocessed("", pp.dependencies)
    result = out.getvalue()
    if not result.startswith("#line"):
        result = f'#line 1 "{line_marker_name(filename)}"\n' + result
    return Preprocessed(_restore_names(result, filename), pp.dependencies, pp.included)


_EMPTY_PRAGMA = re.compile(r"^([ \t]*#[ \t]*pragma)[ \t]*$", re.M)
# '#if' with no expression, or one cut short after '!' or '!defined' ('#if !' first in a
# file is an IndexError in pcpp's include-guard test; an empty one an error with no line)
_SHORT_IF = re.compile(r"^([ \t]*#[ \t]*(?:el)?if)\b([ \t]*(?:![ \t]*(?:defined[ \t]*"
                       r"\(?[ \t]*)?)?)$", re.M)


def _raised_in_pcpp(e: BaseException) -> bool:
    """Did pcpp's own code raise ``e`` (not a hook of ours that it called)?"""
    frames = traceback.extract_tb(e.__traceback__)
    return bool(frames) and os.path.dirname(frames[-1].filename) == \
        os.path.dirname(pcpp.__file__)


def _pcpp_safe(text: str) -> str:
    """A '#pragma' with nothing after it means nothing (C11 6.10.6), and pcpp fails on
    one (an IndexError): it becomes an empty line. A short '#if' gets parentheses, so
    that pcpp reports it, with its line, as the malformed expression it is."""
    return _SHORT_IF.sub(r"\1 (\2)", _EMPTY_PRAGMA.sub("", text))


def _token_position(tokens, pp: _Preprocessor, reporter: Reporter) -> _Where | None:
    """Where the first macro among ``tokens`` is used (its line's text gives the column)."""
    for tok in tokens:
        if tok.type == pp.t_ID and tok.value in pp.macros and getattr(tok, "source", None):
            source = from_line_marker(tok.source)
            text = reporter.sources.line(source, tok.lineno) or ""
            found = re.search(rf"\b{re.escape(tok.value)}\b", text)
            return _Where(source, tok.lineno, found.start() + 1 if found else None)
    return None


def _restore_names(text: str, filename: str) -> str:
    """pcpp writes paths relative to the working directory; keep the user's spelling."""
    target = os.path.abspath(filename)

    def fix(m):
        path = from_line_marker(m.group(2))
        if path != filename and os.path.abspath(path) == target:
            path = filename
        elif os.path.abspath(path).startswith(EMBEDDED_ROOT + "/"):
            path = embedded_name(os.path.abspath(path))
        return f'#line {m.group(1)} "{line_marker_name(path)}"'

    return re.sub(r'^#line (\d+) "((?:[^"\\\n]|\\.)*)"', fix, text, flags=re.M)
