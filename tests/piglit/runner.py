"""piglit's OpenCL program tests, run through cl2c, more strictly than piglit runs them.

A piglit test file carries its kernels, its inputs and its expected outputs (see
``shared/PIGLIT.md (beside the repository)``; the authority is piglit's ``tests/cl/program/program-tester.c``).
This module reads those files, builds each program once with :class:`cl2c.Program`, runs
every ``[test]`` section through cl2c's Python loader and compares the outputs.

Where piglit is lenient, this runner is not:

* an expected NaN must come out NaN, an expected infinity must come out that infinity;
* ``tolerance X`` on a floating-point buffer without ``ulp`` (piglit reinterprets the bits
  of X as a ULP count, which accepts almost anything) means X ULPs when X is a whole
  number and an absolute tolerance X otherwise, as the authors meant;
* with no tolerance, results must be equal (IEEE equality: ``-0`` equals ``0``, because
  piglit's generators write ``0`` for both);
* half values are converted with correct rounding, not by truncating the mantissa;
* output buffers start filled with a poison pattern, not with whatever memory held.

Where piglit's expected values are wrong (and pass on piglit only by its leniency),
``WRONG_EXPECTATIONS`` holds the value the OpenCL spec requires, with the reason; those
sub-tests are judged against the spec.

The device is one of cl2c's device models (``cl2c.device``: the OpenCL C version that
``-cl-std`` asks for, the extensions the host's compiler allows), with images and
work-groups of up to 4096 items. By default it is PoCL's on the same machine, OpenCL C
1.2, and a file that needs OpenCL C 2.0 (``clc_version_min: 20``) runs on the 2.0 model
instead, as piglit would run it on a 2.0 device; ``--clc 20`` or ``--clc 30`` runs every
file on that device (each built with its ``-cl-std``, as piglit builds for a device of
that version unless the file's ``clc_version_max`` is lower).

Run from the command line for a report::

    python tests/piglit/runner.py [-j JOBS] [-v] [--clc 12|20|30] [FILE_OR_DIR_PREFIX ...]
"""
from __future__ import annotations

import math
import re
import sys
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

DEVICE_CLC_VERSION = 12            # OpenCL C 1.2, as PoCL 3.1 reports
DEVICE_CLC_VERSIONS = (12, 20, 30)   # cl2c's device models (cl2c.device, -cl-std=CLx.y)
DEVICE_NAME = "cl2c CPU"
PLATFORM_NAME = "cl2c"
MAX_WORK_GROUP_SIZE = 4096         # CL2C_MAX_WORK_GROUP_SIZE in clruntime's host.h
LOCAL_NULL_BYTES = 8               # clSetKernelArg(k, i, sizeof(cl_mem), NULL) on a __local
POISON = 0xA5                      # fills output-only buffers
GUARD_BYTES = 4096                 # checked after every launch, after every buffer


def guard_pattern(index: int) -> np.ndarray:
    """The bytes of argument ``index``'s guard zone: different for every argument and
    never the same read backwards, so that a kernel copying or byte-swapping one buffer's
    overrun into another's still changes the guard (a constant fill would not show it)."""
    return ((np.arange(GUARD_BYTES) * 7 + 0x35 + 61 * index) & 0xFF).astype(np.uint8)


_DTYPES = {"char": np.int8, "uchar": np.uint8, "short": np.int16, "ushort": np.uint16,
           "int": np.int32, "uint": np.uint32, "long": np.int64, "ulong": np.uint64,
           "half": np.float16, "float": np.float32, "double": np.float64}
# piglit's "any value" tolerance: from this many ULPs on, every result passes.
_ANY_ULPS = {"half": 2048, "float": 1 << 24, "double": 1 << 53}

# Files of the Debian package that cannot pass on any implementation.
CORPUS_DEFECTS = {
    "tests/cl/program/build/include-directories.cl":
        "the Debian package lacks tests/cl/program/build/include_test.h, which it includes",
}

# Sub-tests whose kernels write past the end of a buffer the test sizes too small (undefined
# behaviour that PoCL's larger allocations hide): the guard zone after each buffer takes
# the extra writes, and the elements the test sizes are compared as usual.
OUT_OF_BOUNDS_WRITES = {
    **{("tests/cl/program/execute/clz-optimizations.cl", name):
       "runs the [config]'s 34 work-items over an int[18] output"
       for name in ("v_clz_u16", "v_firstbit_u16")},
    ("tests/cl/program/execute/bswap.cl", "v_bswap_v2u16"):
        "runs 24 work-items over a ushort2[8] output",
}

# Expected values the spec contradicts, which pass on piglit only because it accepts
# anything where NaN is expected and any non-NaN where infinity is expected: {file: {test
# name: {(arg index, component): (the spec's value, or None for "any value", reason)}}}.
# Components count across the whole buffer (element * width + lane). These are the 26
# sub-tests that shared/PIGLIT.md (beside the repository) counts.
WRONG_EXPECTATIONS: dict[str, dict[str, dict[tuple[int, int], tuple]]] = {}


def _wrong(path: str, test: str, arg: int, components, value, reason: str) -> None:
    entry = WRONG_EXPECTATIONS.setdefault(path, {}).setdefault(test, {})
    for k in components:
        entry[(arg, k)] = (value, reason)


def _wrong_builtin(fn: str, case: int, value: str, reason: str) -> None:
    """A wrong case of a generated math builtin test, in all five of its widths (the
    vector tests repeat each case once per lane)."""
    for w in (1, 2, 4, 8, 16):
        _wrong(f"generated_tests/cl/builtin/math/builtin-float-{fn}-1.0.generated.cl",
               f"{fn} float{w}", 0, range(case * w, case * w + w), value, reason)


_wrong_builtin("copysign", 5, "4.0", "copysign(-4, NaN) has the magnitude of -4 and the "
               "sign of the NaN (+): 4, not NaN (C99 F.9.8.1)")
_wrong_builtin("fmod", 5, "3.0", "fmod(3, inf) is 3, not NaN (C99 F.9.7.1)")
_wrong_builtin("pow", 5, "0.0", "pow(2^31, -inf) is +0 for |x| > 1, not inf (C99 F.9.4.4)")
_wrong_builtin("tgamma", 3, "inf", "tgamma(+0) is +inf, not NaN (C99 F.9.5.4)")
for _bits, _suffix in ((32, "f32"), (64, "f64")):
    _wrong(f"tests/cl/program/execute/fdiv-modifiers-{_suffix}.cl", "fdiv 4.0, y", 0, [10],
           "inf", "4.0 / 0.0 is +inf, not NaN (IEEE 754 division by zero)")
for _t in ("float", "double"):
    _path = f"generated_tests/cl/vstore/vstorea_half-{_t}-global.cl"
    _why = ("vstorea_half3 may write the padding half after the three it stores (spec "
            "6.12.7, footnote: implementation-defined), so the sentinel there may change; "
            "piglit passes it only because its truncating half conversion turns the "
            "sentinel 0xdeadp1 into a NaN, which accepts anything")
    _wrong(_path, f"vector storea_half global {_t}3", 0, [7], None, _why)
    _wrong(_path, f"vector storea_half global offset {_t}3", 0, [7, 11], None, _why)


# ---- the configuration -------------------------------------------------------------------
@dataclass
class Tolerance:
    value: float
    ulp: bool


@dataclass
class Arg:
    index: int
    kind: str                      # "value", "buffer", "image" or "sampler"
    elem: str = "char"             # scalar type name
    width: int = 1                 # 1, 2, 3, 4, 8 or 16
    length: int = 1                # buffer elements
    data: str | None = None        # the values as written; None for NULL
    tolerance: Tolerance | None = None
    properties: dict = field(default_factory=dict)   # an image's or a sampler's keys

    @property
    def type_name(self) -> str:
        return self.elem + (str(self.width) if self.width > 1 else "")

    @property
    def slots(self) -> int:        # a 3-wide element takes 4 slots in memory
        return 4 if self.width == 3 else self.width

    @property
    def nbytes(self) -> int:
        return self.length * self.slots * np.dtype(_DTYPES[self.elem]).itemsize


@dataclass
class Test:
    name: str = ""
    kernel_name: str | None = None
    dimensions: int = 1
    global_size: list = field(default_factory=lambda: [1, 1, 1])
    local_size: list | None = field(default_factory=lambda: [1, 1, 1])
    global_offset: list | None = None
    expect_test_fail: bool = False
    args_in: list = field(default_factory=list)
    args_out: list = field(default_factory=list)


@dataclass
class Config:
    name: str = ""
    clc_version_min: int = 10
    clc_version_max: int = 0
    platform_regex: str | None = None
    device_regex: str | None = None
    require_platform_extensions: list = field(default_factory=list)
    require_device_extensions: list = field(default_factory=list)
    program_source_file: str | None = None
    program_binary_file: str | None = None
    program_source: str | None = None
    build_options: str = ""
    kernel_name: str | None = None
    expect_build_fail: bool = False
    need_image_support: bool = False
    defaults: Test = field(default_factory=Test)   # sizes and flags [test] sections copy
    tests: list = field(default_factory=list)


class ConfigError(ValueError):
    """A test file piglit itself would reject (PIGLIT_WARN)."""


_SECTION = re.compile(r"^\s*\[\s*([\w][\w \t]*[\w]|[\w])\s*\]\s*$")
_KEY_VALUE = re.compile(r"^\s*(\w+)\s*:\s*(\S.*?)\s*$")
_TYPE = r"(char|uchar|short|ushort|int|uint|long|ulong|half|float|double)(2|3|4|8|16)?"
_ARG = re.compile(rf"^(\d+)\s+(?:(buffer|image)\s+)?{_TYPE}(?:\[(\d+)\])?\s+(.*)$", re.S)
_SAMPLER = re.compile(r"^(\d+)\s+sampler\b")
_TOLERANCE = re.compile(r"^(.*?)\s+tolerance\s+(\S+)(\s+ulp)?\s*$", re.S)
_NULL = ("NULL", "null")


def comment_config(source: str) -> str | None:
    """The config of a ``.cl`` file: from the first ``/*!`` to the last ``!*/``."""
    start, end = source.find("/*!"), source.rfind("!*/")
    if start < 0 or end < start + 3:
        return None
    return source[start + 3:end]


def parse_config(text: str) -> Config:
    cfg = Config()
    lines = text.split("\n")
    state, test = None, None
    i = 0
    while i < len(lines):
        content = lines[i].split("#", 1)[0]
        i += 1
        if not content.strip():
            continue
        if _KEY_VALUE.match(content) and content.rstrip().endswith("\\"):
            parts = [content.rstrip()[:-1]]
            while i < len(lines):
                more = lines[i].split("#", 1)[0]
                if not more.strip():
                    break
                i += 1
                if more.rstrip().endswith("\\"):
                    parts.append(more.rstrip()[:-1])
                else:
                    parts.append(more)
                    break
            content = " ".join(parts)
        section = _SECTION.match(content)
        if section:
            name = " ".join(section.group(1).split())
            if name == "config":
                if state is not None:
                    raise ConfigError("[config] must come once, before any [test]")
                state = "config"
            elif name == "test":
                if state is None:
                    raise ConfigError("[test] before [config]")
                if cfg.expect_build_fail:
                    raise ConfigError("no [test] may follow expect_build_fail")
                d = cfg.defaults
                test = Test(dimensions=d.dimensions, global_size=list(d.global_size),
                            local_size=None if d.local_size is None else list(d.local_size),
                            global_offset=None if d.global_offset is None else
                            list(d.global_offset), expect_test_fail=d.expect_test_fail)
                cfg.tests.append(test)
                state = "test"
            elif name == "program source":
                body = []
                while i < len(lines) and not _SECTION.match(lines[i]):
                    body.append(lines[i])
                    i += 1
                cfg.program_source = "\n".join(body)
                state = "none"
            else:
                raise ConfigError(f"invalid section [{name}]")
            continue
        kv = _KEY_VALUE.match(content)
        if not kv:
            raise ConfigError(f"cannot parse: {content.strip()}")
        key, value = kv.groups()
        if state == "config":
            _config_key(cfg, key, value)
        elif state == "test":
            _test_key(test, key, value)
        else:
            raise ConfigError(f"'{key}' belongs to no section")
    if state is None:
        raise ConfigError("no [config] section")
    return cfg


def _bool(value: str) -> bool:
    if value in ("1", "true"):
        return True
    if value in ("0", "false"):
        return False
    raise ConfigError(f"not a bool: {value}")


def _sizes(value: str) -> list | None:
    if value in _NULL:
        return None
    sizes = [parse_int(v) for v in value.split()]
    if len(sizes) != 3:
        raise ConfigError(f"a size takes three numbers: {value}")
    return sizes


def _config_key(cfg: Config, key: str, value: str) -> None:
    d = cfg.defaults
    if key in ("name", "platform_regex", "device_regex", "program_source_file",
               "program_binary_file", "build_options"):
        setattr(cfg, key, value)
    elif key in ("clc_version_min", "clc_version_max"):
        setattr(cfg, key, parse_int(value))
    elif key in ("require_platform_extensions", "require_device_extensions"):
        setattr(cfg, key, value.split())
    elif key == "kernel_name":
        cfg.kernel_name = None if value in _NULL else value
    elif key in ("expect_build_fail", "need_image_support"):
        setattr(cfg, key, _bool(value))
    elif key == "expect_test_fail":
        d.expect_test_fail = _bool(value)
    elif key == "dimensions":
        d.dimensions = parse_int(value)
    elif key == "global_size":
        d.global_size = _sizes(value) or [1, 1, 1]
    elif key in ("local_size", "global_offset"):
        setattr(d, key, _sizes(value))
    else:
        raise ConfigError(f"'{key}' does not belong to [config]")


def _test_key(test: Test, key: str, value: str) -> None:
    if key in ("name", "kernel_name"):
        setattr(test, key, value)
    elif key == "expect_test_fail":
        test.expect_test_fail = _bool(value)
    elif key == "dimensions":
        test.dimensions = parse_int(value)
    elif key == "global_size":
        test.global_size = _sizes(value) or [1, 1, 1]
    elif key in ("local_size", "global_offset"):
        setattr(test, key, _sizes(value))
    elif key in ("arg_in", "arg_out"):
        arg = parse_arg(value)
        group = test.args_in if key == "arg_in" else test.args_out
        if any(a.index == arg.index for a in group):
            raise ConfigError(f"argument {arg.index} is given twice")
        if arg.kind == "value" and key == "arg_out":
            raise ConfigError("only arg_in takes values")
        group.append(arg)
    else:
        raise ConfigError(f"'{key}' does not belong to [test]")


_IMAGE_KEYS = ("image_type", "image_width", "image_height", "image_depth",
               "image_array_size", "image_channel_order", "image_channel_data_type")
_SAMPLER_KEYS = ("normalized_coords", "addressing_mode", "filter_mode")


def _properties(words: list, keys: tuple) -> dict:
    """``key value`` pairs (piglit's image and sampler descriptions)."""
    if len(words) % 2 or any(k not in keys for k in words[::2]):
        raise ConfigError(f"invalid properties: {' '.join(words)}")
    return dict(zip(words[::2], words[1::2]))


def parse_arg(text: str) -> Arg:
    if _SAMPLER.match(text):
        m = _SAMPLER.match(text)
        return Arg(int(m.group(1)), "sampler",
                   properties=_properties(text[m.end():].split(), _SAMPLER_KEYS))
    m = _ARG.match(text)
    if not m:
        raise ConfigError(f"invalid argument: {text}")
    index, kind, elem, width, length, rest = m.groups()
    arg = Arg(int(index), kind or "value", elem, int(width or 1), int(length or 1))
    if arg.kind == "image":
        # the pixels' values, then the image's description
        words = rest.split()
        at = next((k for k, w in enumerate(words) if w in _IMAGE_KEYS), len(words))
        arg.properties = _properties(words[at:], _IMAGE_KEYS)
        arg.data = " ".join(words[:at]) or None
        sizes = [int(arg.properties.get(k, "1")) for k in
                 ("image_width", "image_height", "image_depth", "image_array_size")]
        arg.length = math.prod(sizes)
        return arg
    if arg.kind == "buffer" and length is None:
        raise ConfigError(f"a buffer needs a length: {text}")
    tol = _TOLERANCE.match(rest)
    if tol:
        if arg.kind != "buffer":
            raise ConfigError("only buffers take a tolerance")
        rest = tol.group(1)
        number = tol.group(2)
        if tol.group(3):
            arg.tolerance = Tolerance(parse_int(number), True)
        elif elem in ("half", "float", "double"):
            value = parse_float(number)
            # Stricter than piglit (see the module docstring).
            arg.tolerance = Tolerance(value, value == int(value))
        else:
            arg.tolerance = Tolerance(parse_int(number), False)
    rest = " ".join(rest.split())
    arg.data = None if rest in _NULL else rest
    return arg


# ---- values ------------------------------------------------------------------------------
def parse_int(text: str) -> int:
    """strtoll/strtoull with base 0: decimal, 0x hex, 0 octal."""
    t = text.strip()
    sign = -1 if t.startswith("-") else 1
    body = t.lstrip("+-")
    if re.fullmatch(r"0[0-7]+", body):
        return sign * int(body, 8)
    try:
        return sign * int(body, 0)
    except ValueError:
        raise ConfigError(f"not an integer: {text}") from None


def parse_float(text: str) -> float:
    t = text.strip()
    low = t.lower().lstrip("+-")
    if low in ("nan", "inf", "infinity"):
        return float(t.lower().replace("infinity", "inf"))
    if low.startswith("0x"):
        return float.fromhex(t)
    try:
        return float(t)
    except ValueError:
        raise ConfigError(f"not a number: {text}") from None


def _tokens(arg: Arg) -> list[str]:
    data = arg.data or ""
    words = data.split()
    if words and words[0].lower() == "repeat":
        return words[1:]
    if len(words) != arg.length * arg.width:
        raise ConfigError(f"argument {arg.index}: {len(words)} values for "
                          f"{arg.type_name}[{arg.length}]")
    return words


def encode(arg: Arg, seed: int = 0) -> np.ndarray:
    """The bytes of an argument's values, laid out as piglit lays them out."""
    dt = np.dtype(_DTYPES[arg.elem])
    count = arg.length * arg.slots
    if arg.data is not None and arg.data.lower() == "random":
        rng = np.random.default_rng(seed)
        return rng.integers(0, 256, count * dt.itemsize, dtype=np.uint8)
    words = _tokens(arg)
    n = arg.length * arg.width
    values = [words[k % len(words)] for k in range(n)] if words else []
    if not values:
        raise ConfigError(f"argument {arg.index} has no values")
    if dt.kind in "iu":
        bits = dt.itemsize * 8
        raw = np.array([parse_int(v) & ((1 << bits) - 1) for v in values],
                       dtype=np.dtype(f"u{dt.itemsize}")).view(dt)
    else:
        with np.errstate(over="ignore"):
            raw = np.array([parse_float(v) for v in values], dtype=np.float64).astype(dt)
    out = np.zeros(count, dt)
    lanes = out.reshape(arg.length, arg.slots)
    lanes[:, :arg.width] = raw.reshape(arg.length, arg.width)
    return out.view(np.uint8)


def components(arg: Arg, data: np.ndarray) -> np.ndarray:
    """The values of a buffer without the padding of 3-wide elements."""
    dt = np.dtype(_DTYPES[arg.elem])
    lanes = data[:arg.nbytes].view(dt).reshape(arg.length, arg.slots)
    return lanes[:, :arg.width].reshape(-1)


def _ulp(value, dt) -> float:
    v = dt.type(value)
    direction = dt.type(-np.inf) if np.signbit(v) else dt.type(np.inf)
    return abs(float(np.nextafter(v, direction)) - float(v))


def check_value(got, want, arg: Arg) -> bool:
    dt = np.dtype(_DTYPES[arg.elem])
    tol = arg.tolerance
    if dt.kind in "iu":
        limit = int(tol.value) if tol else 0
        return abs(int(got) - int(want)) <= limit
    g, w = float(got), float(want)
    if tol and tol.ulp and tol.value >= _ANY_ULPS[arg.elem]:
        return True                     # the test says: any value
    if math.isnan(w):
        return math.isnan(g)
    if math.isinf(w) or math.isnan(g) or math.isinf(g):
        return g == w
    if not tol or tol.value == 0:
        return g == w            # IEEE equality: -0 == 0 (the generators write 0 for -0)
    allowed = tol.value * _ulp(want, dt) if tol.ulp else tol.value
    return abs(g - w) <= allowed


def describe(value, elem: str) -> str:
    dt = np.dtype(_DTYPES[elem])
    if dt.kind in "iu":
        return str(int(value))
    bits = np.array(value, dt).view(f"u{dt.itemsize}")
    return f"{float(value)!r} (0x{int(bits):0{dt.itemsize * 2}x})"


# ---- running -----------------------------------------------------------------------------
@dataclass
class SubResult:
    name: str
    status: str                     # "pass", "fail" or "skip"
    message: str = ""


@dataclass
class FileResult:
    path: str
    status: str                     # "pass", "fail" or "skip"
    message: str = ""
    subtests: list = field(default_factory=list)
    planned: int = 1                # its [test] sections (1 for a build-only file)

    def counts(self) -> dict:
        out = {"pass": 0, "fail": 0, "skip": 0}
        for s in self.subtests:
            out[s.status] += 1
        return out


class _Fail(Exception):
    pass


class _Skip(Exception):
    pass


def load(path: Path) -> tuple[Config, str, str]:
    """(config, program source, source file name) of a ``.cl`` or ``.program_test`` file."""
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix == ".program_test":
        cfg = parse_config(text)
        if cfg.program_source is not None:
            return cfg, cfg.program_source, str(path)
        if cfg.program_source_file:
            src = path.parent / cfg.program_source_file.strip('"')
            return cfg, src.read_text(encoding="utf-8", errors="replace"), str(src)
        if cfg.program_binary_file:
            return cfg, "", str(path)
        raise ConfigError("no program defined")
    config_text = comment_config(text)
    cfg = parse_config(config_text) if config_text is not None else Config()
    return cfg, text, str(path)


def device_version(cfg: Config, clc: int | None = None) -> int:
    """The OpenCL C version of the device that runs a file: ``clc``, or by default PoCL's
    1.2, or the first of cl2c's models that the file's ``clc_version_min`` accepts."""
    if clc is not None:
        return clc
    if cfg.clc_version_min <= DEVICE_CLC_VERSION:
        return DEVICE_CLC_VERSION
    return next((v for v in DEVICE_CLC_VERSIONS if v >= cfg.clc_version_min),
                DEVICE_CLC_VERSION)


def _cl_std(version: int) -> str:
    return f"-cl-std=CL{version // 10}.{version % 10}"


def requirements(cfg: Config, clc: int | None = None) -> str | None:
    """Why the device (of OpenCL C ``device_version(cfg, clc)``) may not run the file,
    or None."""
    import cl2c
    version = device_version(cfg, clc)
    extensions = cl2c.device(_cl_std(version)).extensions    # Program.build's target
    if cfg.clc_version_min > version:
        return (f"needs OpenCL C {cfg.clc_version_min / 10:.1f} (clc_version_min); the "
                f"device offers OpenCL C {version / 10:.1f}")
    missing = [e for e in cfg.require_device_extensions if e not in extensions]
    if missing:
        return f"needs {' '.join(missing)}, which cl2c does not offer"
    if cfg.require_platform_extensions:
        return f"needs platform extensions {' '.join(cfg.require_platform_extensions)}"
    if cfg.device_regex and not re.search(cfg.device_regex, DEVICE_NAME):
        return f"restricted to devices matching '{cfg.device_regex}'"
    if cfg.platform_regex and not re.search(cfg.platform_regex, PLATFORM_NAME):
        return f"restricted to platforms matching '{cfg.platform_regex}'"
    if cfg.program_binary_file or (cfg.program_source is None and cfg.program_binary_file):
        return "runs a program binary"
    return None


def build_options(cfg: Config, root: Path, clc: int | None = None) -> str:
    """piglit's build options: the file's, plus -cl-std for the device's version."""
    opts = cfg.build_options or ""
    version = device_version(cfg, clc)
    if cfg.clc_version_max > 0:
        version = min(version, cfg.clc_version_max)
    if version > 10 and "-cl-std" not in opts:
        opts += " " + _cl_std(version)
    # piglit runs from its own directory: relative include paths start there.
    words = opts.split()
    for k, w in enumerate(words):
        if w == "-I" and k + 1 < len(words) and not words[k + 1].startswith("/"):
            words[k + 1] = str(root / words[k + 1])
        elif w.startswith("-I") and len(w) > 2 and not w[2:].startswith("/"):
            words[k] = "-I" + str(root / w[2:])
    return " ".join(words)


def run_file(root: Path, rel: str, clc: int | None = None) -> FileResult:
    """Build one test file's program and run all its tests on the device of OpenCL C
    ``clc`` (by default, the one ``device_version`` picks for the file)."""
    import cl2c
    if rel in CORPUS_DEFECTS:
        return FileResult(rel, "skip", CORPUS_DEFECTS[rel])
    try:
        cfg, source, source_name = load(root / rel)
    except (ConfigError, OSError) as e:
        return FileResult(rel, "fail", f"invalid test file: {e}")
    planned = max(1, len(cfg.tests))
    why = requirements(cfg, clc)
    if why:
        return FileResult(rel, "skip", why, planned=planned)
    try:
        prg = cl2c.Program(source, build_options(cfg, root, clc),
                           filename=source_name).build()
    except cl2c.BuildError as e:
        if cfg.expect_build_fail:
            return FileResult(rel, "pass", "the build fails, as expected")
        return FileResult(rel, "fail", "build failed: " + _first_lines(str(e), 6),
                          planned=planned)
    if cfg.expect_build_fail:
        return FileResult(rel, "fail", "the build succeeds but the test expects it to fail")
    if cfg.kernel_name and cfg.kernel_name not in prg.kernel_names:
        return FileResult(rel, "fail", f"no kernel named '{cfg.kernel_name}'",
                          planned=planned)
    result = FileResult(rel, "pass", planned=planned)
    for number, test in enumerate(cfg.tests, 1):
        name = test.name or f"test {number}"
        try:
            _run_test(prg, cfg, test, rel, number)
            result.subtests.append(SubResult(name, "pass"))
        except _Skip as e:
            result.subtests.append(SubResult(name, "skip", str(e)))
        except _Fail as e:
            result.subtests.append(SubResult(name, "fail", str(e)))
        except (ConfigError, cl2c.KernelArgError, cl2c.LaunchError) as e:
            result.subtests.append(SubResult(name, "fail", f"{type(e).__name__}: {e}"))
    counts = result.counts()
    if counts["fail"]:
        result.status = "fail"
        bad = [s for s in result.subtests if s.status == "fail"]
        result.message = f"{len(bad)} of {len(result.subtests)} tests fail; first: " \
                         f"'{bad[0].name}': {bad[0].message}"
    elif result.subtests and not counts["pass"]:
        result.status = "skip"
        result.message = result.subtests[0].message
    return result


def _first_lines(text: str, n: int) -> str:
    lines = text.strip().splitlines()
    return "\n".join(lines[:n]) + ("\n..." if len(lines) > n else "")


def _aligned_bytes(nbytes: int, align: int = 128) -> np.ndarray:
    raw = np.empty(nbytes + align, np.uint8)
    offset = (-raw.ctypes.data) % align
    return raw[offset:offset + nbytes]


def _pointee_dtype(kernel, index: int) -> tuple[np.dtype, int]:
    """The dtype cl2c's loader wants for a pointer parameter (``float4*`` -> float32),
    and the byte size the buffer must be a multiple of (one pointee)."""
    from cl2c import cltypes
    from cl2c import types as ty
    base = kernel.arg_info[index].type_name.rstrip("*").strip()
    m = re.fullmatch(_TYPE, base)
    if m:
        dt = np.dtype(_DTYPES[m.group(1)])
        width = int(m.group(2) or 1)
        return dt, dt.itemsize * (4 if width == 3 else width)
    if base in cltypes.SCALARS and base != "bool":
        dt = np.dtype(cltypes.SCALARS[base])
        return dt, dt.itemsize
    # Structs and unions: bytes, a whole number of them (the kernel's own view).
    return np.dtype(np.uint8), max(1, ty.type_size(kernel._params[index].type.pointee))


def _run_test(prg, cfg: Config, test: Test, rel: str, number: int) -> None:
    import cl2c
    kname = test.kernel_name or cfg.kernel_name
    if kname is None:
        raise _Fail("no kernel_name")
    if kname not in prg.kernel_names:
        raise _Fail(f"no kernel named '{kname}'")
    kernel = prg.kernel(kname)
    dims = test.dimensions
    if not 1 <= dims <= 3:
        raise _Fail(f"invalid dimensions {dims}")
    local = None if test.local_size is None else test.local_size[:dims]
    if local is not None and (math.prod(local) > MAX_WORK_GROUP_SIZE or
                              max(local) > MAX_WORK_GROUP_SIZE):
        raise _Skip(f"local size {local} exceeds the device's {MAX_WORK_GROUP_SIZE}")
    ins = {a.index: a for a in test.args_in}
    outs = {a.index: a for a in test.args_out}
    seed = zlib.crc32(f"{rel}:{number}".encode())
    args, buffers, guards, images = [], {}, [], {}
    for i, info in enumerate(kernel.arg_info):
        a = ins.get(i) or outs.get(i)
        if a is None:
            raise _Fail(f"kernel argument {i} ('{info.name}') is not set")
        if info.kind in ("image", "sampler"):
            if a.kind != info.kind:
                raise _Fail(f"argument {i} is an {info.kind} but the test gives a {a.kind}")
            if info.kind == "sampler":
                p = a.properties
                args.append(cl2c.Sampler(p.get("normalized_coords", "0") not in ("0", "false"),
                                         p.get("addressing_mode", "NONE"),
                                         p.get("filter_mode", "NEAREST")))
            else:
                images[i] = _image(a, ins.get(i), seed + i)
                args.append(images[i])
            continue
        if info.kind == "local":
            if a.kind != "buffer" or a.data is not None:
                raise _Fail(f"argument {i} is __local: piglit passes it as 'buffer T[n] NULL'")
            args.append(cl2c.LocalMemory(LOCAL_NULL_BYTES))
        elif info.kind == "buffer":
            if a.kind != "buffer":
                raise _Fail(f"argument {i} is a pointer but the test gives a {a.kind}")
            if a.data is None:
                args.append(None)
                continue
            dt, unit = _pointee_dtype(kernel, i)
            nbytes = -(-max(a.nbytes, (outs[i].nbytes if i in outs else 0)) // unit) * unit
            # A guard zone after the buffer: a kernel writing past the end is reported,
            # and does not corrupt the heap of the process.
            whole = _aligned_bytes(nbytes + GUARD_BYTES)
            whole[:nbytes] = POISON
            whole[nbytes:] = guard_pattern(i)
            raw = whole[:nbytes]
            if i in ins:
                raw[:ins[i].nbytes] = encode(ins[i], seed + i)
            buffers[i] = raw
            guards.append((i, whole[nbytes:]))
            args.append(raw.view(dt))
        else:
            if a.kind != "value" or i not in ins:
                raise _Fail(f"argument {i} is a value but the test gives a {a.kind}")
            data = encode(a, seed + i).tobytes()
            base = info.type_name
            if base in _DTYPES:
                dt = np.dtype(_DTYPES[base])
                if len(data) != dt.itemsize:
                    raise _Fail(f"argument {i}: {len(data)} bytes for a {base}")
                args.append(np.frombuffer(data, dt)[0])
            else:
                args.append(data)
    offset = None if test.global_offset is None else test.global_offset[:dims]
    kernel(test.global_size[:dims], local, *args, global_offset=offset)
    for i, guard in guards:
        if (guard != guard_pattern(i)).any() and (rel, test.name) not in OUT_OF_BOUNDS_WRITES:
            raise _Fail(f"the kernel wrote past the end of argument {i}'s buffer "
                        f"({buffers[i].nbytes} bytes, as the test sizes it)")
    problems = []
    corrections = WRONG_EXPECTATIONS.get(rel, {}).get(test.name, {})
    for index, want_arg in sorted(outs.items()):
        if want_arg.data is None:
            continue
        if index in images:
            got = components(want_arg, images[index].get().reshape(-1).view(np.uint8))
        elif index not in buffers:
            raise _Fail(f"argument {index} is an output but not a buffer")
        else:
            got = components(want_arg, buffers[index])
        want = components(want_arg, encode(want_arg))
        bad = None
        for k, (g, w) in enumerate(zip(got, want)):
            fix = corrections.get((index, k))
            if fix is not None:
                if fix[0] is None:
                    continue                      # implementation-defined: any value
                w = np.array([parse_float(fix[0])]).astype(want.dtype)[0]
            if not check_value(g, w, want_arg):
                bad = (f"argument {index}, {want_arg.type_name} component {k}: expected "
                       f"{describe(w, want_arg.elem)}, got {describe(g, want_arg.elem)}")
                break
        if (bad is None) == test.expect_test_fail:
            problems.append(bad or f"argument {index} matches but the test expects it not to")
    if problems:
        raise _Fail("; ".join(problems))


def _image(arg: Arg, given: Arg | None, seed: int):
    """The cl2c.Image of image argument ``arg``: its pixels are the values of the
    test's arg_in (an output image starts as zeros)."""
    p = arg.properties
    kind = p.get("image_type", "2d")
    order, ctype = p.get("image_channel_order", "RGBA"), p.get("image_channel_data_type",
                                                                 "FLOAT")
    from cl2c import images as im
    axes = im.KINDS[kind][2] if kind in im.KINDS else None
    if axes is None:
        raise _Fail(f"argument {arg.index}: unknown image_type {kind}")
    sizes = {"width": p.get("image_width", "1"), "height": p.get("image_height", "1"),
             "depth": p.get("image_depth", "1"), "array_size": p.get("image_array_size", "1")}
    shape = tuple(int(sizes[a]) for a in axes)
    channels = 1 if ctype in im.PACKED_TYPES else im.ORDER_CHANNELS.get(order, 4)
    dtype = np.dtype(im.TYPE_DTYPES[ctype])
    if given is not None and given.data is not None:
        pixels = encode(given, seed).view(np.uint8)
        pixels = pixels[:math.prod(shape) * channels * dtype.itemsize].view(dtype)
    else:
        pixels = np.zeros(math.prod(shape) * channels, dtype)
    import cl2c
    return cl2c.Image(pixels.reshape(shape + (channels,)), order, ctype, kind)


# ---- the command line --------------------------------------------------------------------
def _run_one(job):
    root, rel, clc = job
    try:
        return run_file(Path(root), rel, clc)
    except Exception as e:     # a runner bug: report it, keep going
        return FileResult(rel, "fail", f"runner error: {type(e).__name__}: {e}")


def main(argv=None) -> int:
    import argparse
    import time
    from concurrent.futures import ProcessPoolExecutor
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from piglit.corpus import corpus_root, list_tests
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("prefixes", nargs="*", help="run only files whose path starts so")
    p.add_argument("-j", "--jobs", type=int, default=2)
    p.add_argument("-v", "--verbose", action="store_true", help="list every sub-test")
    p.add_argument("--clc", type=int, choices=DEVICE_CLC_VERSIONS,
                   help="run every file on the device of this OpenCL C version (default: "
                        "1.2, and 2.0 for files that need it)")
    args = p.parse_args(argv)
    root = corpus_root()
    files = [f for f in list_tests(root)
             if not args.prefixes or any(f.startswith(x) for x in args.prefixes)]
    start = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(_run_one, [(str(root), f, args.clc) for f in files],
                                chunksize=4))
    files_by = {"pass": 0, "fail": 0, "skip": 0}
    subs = {"pass": 0, "fail": 0, "skip": 0}
    for r in results:
        files_by[r.status] += 1
        if r.subtests:
            for k, v in r.counts().items():
                subs[k] += v
        else:
            subs[r.status] += r.planned
        if r.status != "pass" or args.verbose:
            print(f"{r.status.upper():5} {r.path}: {r.message}")
        if args.verbose:
            for s in r.subtests:
                print(f"      {s.status:5} {s.name} {s.message}")
    print(f"files: {files_by}; sub-tests (the [test] sections; a build-only file counts "
          f"as one, every section of a file that is skipped or fails to build as skipped or "
          f"failed): {subs}; {time.perf_counter() - start:.1f} s")
    return 1 if files_by["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
