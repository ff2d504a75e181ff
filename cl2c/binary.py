"""Program binaries: the one serialised form of a cl2c program.

What ``CL_PROGRAM_BINARIES`` returns and ``clCreateProgramWithBinary`` takes (the OpenCL
platform), and what a pickled :class:`cl2c.Program` carries (Dask ships it to workers
that have no C compiler). Little-endian throughout, so that C reads it with no library:

    offset  size  field
    0       8     magic  b"CL2CBIN\\0"
    8       4     format version (u32), FORMAT_VERSION
    12      4     header size (u32), 64
    16      8     payload size (u64): the bytes after the header, exactly
    24      32    sha256 of the payload
    56      8     reserved, zero
    64      ...   payload: sections, each a 4-byte ASCII tag, its size (u64) and its bytes

Sections (INFO is the only one always there; a reader skips tags it does not know):

    INFO  ``key=value`` lines (UTF-8, one line each): the facts that decide where the
          library can run (``cl2c``, ``translator`` and ``runtime`` digests, ``machine``,
          ``system``, ``native``, ``cpu``, ``cpu_flags``, ``sanitize``; format 1 also had
          ``python_abi``, as its PYEX was a Python extension) and
          what it is (``module``, ``kernels``, ``compiler``, ``target``; with a shared library,
          ``program_symbol``, the name of its ``cl2c_program_info``)
    NAME  the source's file name (diagnostics name it)
    OPTS  the build options, one string
    SRC   the OpenCL C source (the tag is ``SRC `` with a space): what a rebuild needs
    CSRC  the generated C
    KERN  the kernels' interfaces, a JSON list (interface.py's to_json)
    BLOG  the build log (warnings)
    DEPS  the files the source #included, a line each: their sha256 (hex), a space, the
          path (the platform's build cache checks them before it uses an entry)
    UNIT  a compiled object's or a library's translation units, a JSON list (link.py's
          Unit.to_json: source, options, name, embedded headers); INFO's ``kind`` says
          ``object`` or ``library`` (a linked executable keeps its units too, no kind)
    PYEX  the compiled library that ``cl2c.Program`` loads: a plain shared library with
          the loader's exports (format 1: a Python extension module)
    SHLB  the compiled library as a plain shared library (``cl2c --shared``'s: the C
          entry points ``cl2c_kernel_<k>``, ``cl2c_argv_<k>``, ``cl2c_program_info``; what
          the OpenCL platform loads)

A binary is refused with :class:`BinaryError` when it is damaged (truncated, a byte
changed: the digest), not a binary, of another format version, made by another cl2c
(version, translator or runtime digest), or its library cannot run here (another
architecture or system, another Python ABI, native code for a CPU with instructions this
one lacks). Loading never runs a compiler or the translator: the library is loaded from a
private memory copy (build.py's ``_load``, the kernel cache's own path), not written into
the cache, whose entries are only what this machine built. Where only the library is
unusable and the source is there, ``from_bytes(..., rebuild=True)`` builds from the
source instead; pickles do that (a worker with a compiler rebuilds, one without gets the
error), the platform does not (the spec: ``CL_INVALID_BINARY``).
"""
from __future__ import annotations

import dataclasses
import hashlib
import importlib.machinery
import json
import platform
import re
import struct
import sys
from dataclasses import dataclass, field

from .version import __version__

MAGIC = b"CL2CBIN\0"
FORMAT_VERSION = 2
# the header's fields and their struct codes: the one description that the Struct and
# the C macros (c_definitions) are made from
_HEADER_FIELDS = (("magic", "8s"), ("format_version", "I"), ("header_size", "I"),
                  ("payload_size", "Q"), ("sha256", "32s"), ("reserved", "8x"))
_HEADER = struct.Struct("<" + "".join(code for _, code in _HEADER_FIELDS))
HEADER_SIZE = _HEADER.size              # 64
_SECTION = struct.Struct("<4sQ")

# the library kinds: (section tag, what it is)
LIBRARY_TAGS = {"extension": b"PYEX", "shared": b"SHLB"}
_TEXT_TAGS = {"filename": b"NAME", "options": b"OPTS", "source": b"SRC ",
              "c_source": b"CSRC", "build_log": b"BLOG", "dependencies": b"DEPS"}
# flags in /proc/cpuinfo that say where a CPU runs, not what it executes
_NOT_ISA = frozenset({"hypervisor"})
# the module names of libraries a binary may carry: build.py's names, never another module
MODULE_NAME = re.compile(r"_cl2c_[0-9a-f]{32}\Z")


class BinaryError(ValueError):
    """A program binary that cannot be used here (the platform's ``CL_INVALID_BINARY``).
    ``reason``: "damaged", "format" (not a cl2c binary, or another format version),
    "version" (another cl2c), "target" (another machine, Python or CPU) or "library" (no
    library of the kind asked for, or it does not load). ``rebuildable``: the source is
    there and intact, so a build from it could stand in."""

    def __init__(self, message: str, reason: str, rebuildable: bool = False):
        super().__init__(message)
        self.reason = reason
        self.rebuildable = rebuildable


class BinaryRebuildWarning(UserWarning):
    """A binary's library could not be used here; the program was built from its source."""


@dataclass
class ProgramBinary:
    """A decoded binary: its facts, texts, kernel interfaces (JSON) and libraries."""
    info: dict[str, str]
    source: str | None = None
    options: str = ""
    filename: str = "<kernel>"
    c_source: str | None = None
    build_log: str = ""
    kernels: list | None = None
    libraries: dict[str, bytes] = field(default_factory=dict)
    units: list | None = None
    dependencies: str | None = None

    # ---- bytes ----------------------------------------------------------------------
    def encode(self) -> bytes:
        parts = [_section(b"INFO", "".join(f"{k}={_one_line(v)}\n"
                                           for k, v in self.info.items()).encode())]
        for name, tag in _TEXT_TAGS.items():
            value = getattr(self, name)
            if value is not None and (value or name == "source"):
                parts.append(_section(tag, value.encode("utf-8", "surrogatepass")))
        if self.kernels is not None:
            parts.append(_section(b"KERN", json.dumps(self.kernels,
                                                      separators=(",", ":")).encode()))
        if self.units is not None:
            parts.append(_section(b"UNIT", json.dumps(self.units, separators=(",", ":"))
                                  .encode("utf-8", "surrogatepass")))
        for kind, data in self.libraries.items():
            parts.append(_section(LIBRARY_TAGS[kind], bytes(data)))
        payload = b"".join(parts)
        return _HEADER.pack(MAGIC, FORMAT_VERSION, HEADER_SIZE, len(payload),
                            hashlib.sha256(payload).digest()) + payload

    @classmethod
    def decode(cls, data) -> "ProgramBinary":
        """The binary in ``data``; BinaryError where it is damaged or not one of this
        format version."""
        try:
            data = memoryview(data).cast("B")
        except TypeError:
            raise BinaryError(f"a program binary is bytes, not {type(data).__name__}",
                              "format") from None
        if len(data) < len(MAGIC) or bytes(data[:len(MAGIC)]) != MAGIC:
            raise BinaryError("not a cl2c program binary (its first bytes are not "
                              "cl2c's magic number)", "format")
        if len(data) < HEADER_SIZE:
            raise BinaryError(f"damaged program binary: {len(data)} bytes, shorter than "
                              f"its {HEADER_SIZE}-byte header (truncated)", "damaged")
        _, version, header_size, size, digest = _HEADER.unpack_from(data)
        if version != FORMAT_VERSION:
            raise BinaryError(f"program binary of format version {version}; this cl2c "
                              f"({__version__}) reads version {FORMAT_VERSION}", "format")
        if header_size != HEADER_SIZE or len(data) - HEADER_SIZE != size:
            raise BinaryError(f"damaged program binary: its header says {size} bytes "
                              f"follow, {len(data) - HEADER_SIZE} do (truncated or "
                              f"extended)", "damaged")
        payload = data[HEADER_SIZE:]
        if hashlib.sha256(payload).digest() != digest:
            raise BinaryError("damaged program binary: its sha256 is not the one recorded "
                              "in its header", "damaged")
        sections: dict[bytes, bytes] = {}
        at = 0
        while at < len(payload):
            if len(payload) - at < _SECTION.size:
                raise malformed("a section header is cut short")
            tag, n = _SECTION.unpack_from(payload, at)
            at += _SECTION.size
            if n > len(payload) - at or tag in sections:
                raise malformed(f"section {tag!r} overruns the payload or repeats")
            sections[tag] = bytes(payload[at:at + n])
            at += n
        return cls._from_sections(sections)

    @classmethod
    def _from_sections(cls, sections: dict[bytes, bytes]) -> "ProgramBinary":
        # the digest matched: what fails now was written wrong, not damaged on the way
        if b"INFO" not in sections:
            raise malformed("it has no INFO section")
        try:
            info = dict(line.split("=", 1) for line in
                        sections[b"INFO"].decode().splitlines())
            texts = {name: sections[tag].decode("utf-8", "surrogatepass")
                     for name, tag in _TEXT_TAGS.items() if tag in sections}
            kernels = json.loads(sections[b"KERN"]) if b"KERN" in sections else None
            units = json.loads(sections[b"UNIT"]) if b"UNIT" in sections else None
        except ValueError as e:
            raise malformed(f"a section does not read ({e})") from None
        libraries = {kind: sections[tag] for kind, tag in LIBRARY_TAGS.items()
                     if tag in sections}
        return cls(info, texts.get("source"), texts.get("options", ""),
                   texts.get("filename", "<kernel>"), texts.get("c_source"),
                   texts.get("build_log", ""), kernels, libraries, units,
                   texts.get("dependencies"))

    # ---- where it runs --------------------------------------------------------------
    def unusable(self, kind: str) -> BinaryError | None:
        """Why library ``kind`` of this binary cannot run in this process, or None."""
        rebuild = self.source is not None
        info = self.info
        for key, here in (("cl2c", __version__), ("translator", _translator_digest()),
                          ("runtime", _runtime_digest())):
            if info.get(key) != here:
                what = f"cl2c {info.get('cl2c', '?')}" if key == "cl2c" else \
                    f"another cl2c (its {key} digest differs)"
                return BinaryError(f"program binary made by {what}; this is cl2c "
                                   f"{__version__}", "version", rebuild)
        facts = here_facts()
        for key in ("machine", "system"):
            if info.get(key) != facts[key]:
                return BinaryError(f"program binary built for {key} {info.get(key)!r}; "
                                   f"this one is {facts[key]!r}", "target", rebuild)
        if kind not in self.libraries:
            have = ", ".join(self.libraries) or "none"
            return BinaryError(f"program binary holds no {kind} library (it has: {have})",
                               "library", rebuild)
        if info.get("native") == "1":
            missing = sorted(set(info.get("cpu_flags", "").split()) - _NOT_ISA -
                             set(facts["cpu_flags"].split()))
            if missing or not info.get("cpu_flags") and info.get("cpu") != facts["cpu"]:
                lacks = f"lacks {' '.join(missing[:8])}" if missing else "is another"
                return BinaryError(f"program binary holds native code for "
                                   f"{info.get('cpu')!r}; this CPU ({facts['cpu']!r}) "
                                   f"{lacks}", "target", rebuild)
        return None


def _section(tag: bytes, data: bytes) -> bytes:
    return _SECTION.pack(tag, len(data)) + data


def _one_line(value) -> str:
    return " ".join(str(value).split("\n"))


def malformed(why: str) -> BinaryError:
    return BinaryError(f"malformed program binary: {why}", "damaged")


# ---- this process's facts ------------------------------------------------------------

def _translator_digest() -> str:
    from .cache import translator_digest
    return translator_digest()


def _runtime_digest() -> str:
    from .cache import runtime_digest
    return runtime_digest()


_facts: dict | None = None


def here_facts() -> dict[str, str]:
    """What decides whether a library runs in this process, read without a compiler."""
    global _facts
    if _facts is None:
        model, flags = _cpu()
        _facts = {"machine": platform.machine(), "system": sys.platform, "cpu": model,
                  "cpu_flags": flags,
                  "python_abi": importlib.machinery.EXTENSION_SUFFIXES[0]}
    return _facts


def required_facts() -> dict[str, str]:
    """What a binary's INFO must say to be usable in this process (``unusable``'s checks,
    for a reader in another language): equal values, but ``cpu_flags``, which must hold
    every flag of a native binary's but ``ignored_cpu_flags``."""
    facts = here_facts()
    return {"format": str(FORMAT_VERSION), "cl2c": __version__,
            "translator": _translator_digest(), "runtime": _runtime_digest(),
            "machine": facts["machine"], "system": facts["system"],
            "python_abi": facts["python_abi"], "cpu_flags": facts["cpu_flags"],
            "ignored_cpu_flags": " ".join(sorted(_NOT_ISA))}


def c_definitions() -> str:
    """The format as C macros, for a reader in C (the platform) to derive from this one
    description: the magic, version, header layout, section tags, and the facts a binary
    must match in this installation (``required_facts``, but the CPU's, which a reader
    takes from its own machine)."""
    from .emit.render import c_string
    lines = ["/* cl2c program binaries (cl2c/binary.py); generated, do not edit */",
             f"#define CL2C_BINARY_MAGIC {c_string(MAGIC.decode('ascii').rstrip(chr(0)))}",
             f"#define CL2C_BINARY_MAGIC_SIZE {len(MAGIC)}",
             f"#define CL2C_BINARY_FORMAT {FORMAT_VERSION}u",
             f"#define CL2C_BINARY_HEADER_SIZE {HEADER_SIZE}u",
             f"#define CL2C_BINARY_SECTION_HEADER_SIZE {_SECTION.size}u"]
    for i, (name, _) in enumerate(_HEADER_FIELDS[1:-1], 1):
        at = struct.calcsize("<" + "".join(code for _, code in _HEADER_FIELDS[:i]))
        lines.append(f"#define CL2C_BINARY_AT_{name.upper()} {at}u")
    tags = {"INFO": b"INFO", "KERNELS": b"KERN", "UNITS": b"UNIT", **{k.upper(): v for k, v in
                                                      _TEXT_TAGS.items()},
            **{f"LIBRARY_{k.upper()}": v for k, v in LIBRARY_TAGS.items()}}
    for name, tag in tags.items():
        lines.append(f"#define CL2C_BINARY_TAG_{name} {c_string(tag.decode('ascii'))}")
    for key, value in required_facts().items():
        if key not in ("cpu_flags", "format"):
            lines.append(f"#define CL2C_BINARY_REQUIRE_{key.upper()} {c_string(value)}")
    return "\n".join(lines) + "\n"


def _cpu() -> tuple[str, str]:
    """(model name, instruction-set flags) from /proc/cpuinfo (x86: ``flags``, Arm:
    ``Features``), where there is one."""
    model, flags = "", ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                key = key.strip()
                if key == "model name" and not model:
                    model = value.strip()
                elif key in ("flags", "Features") and not flags:
                    flags = " ".join(sorted(value.split()))
                if model and flags:
                    break
    except OSError:
        pass
    return model or platform.processor(), flags


def binary_info(target, module_name: str | None, kernel_names) -> dict:
    """The INFO facts of a binary whose libraries ``target`` built."""
    facts = here_facts()
    info = {"cl2c": __version__, "translator": _translator_digest(),
            "runtime": _runtime_digest(), "machine": facts["machine"],
            "system": facts["system"], "native": "1" if target.native else "0",
            "cpu": facts["cpu"] if target.native else "",
            "cpu_flags": facts["cpu_flags"] if target.native else "",
            "compiler": (target.version or "").split("\n")[0],
            "target": hashlib.sha256(target.identity().encode()).hexdigest()[:32],
            "sanitize": ",".join(target.sanitize)}
    if module_name:
        info["module"] = module_name
    info["kernels"] = " ".join(kernel_names)
    return info


# ---- programs --------------------------------------------------------------------------

def _options_text(options) -> str:
    if options is None:
        return ""
    if isinstance(options, str):
        return options
    import shlex
    return shlex.join(options)


def to_bytes(program) -> bytes:
    """The binary of ``program``: built, with its compiled library (a Python extension
    module) and kernel interfaces; not built, its source and options alone."""
    origin = getattr(program, "_binary", None)
    if origin is not None:
        return origin.encode()
    if program.source is None:
        raise BinaryError(f"program '{program.filename}' was loaded precompiled "
                          f"(cl2c.load): it has no source to put in a binary", "library")
    if program._module is None:
        from .target import Target
        info = binary_info(Target.assumed(native=False), None, [])   # no CPU facts
        return ProgramBinary(info, program.source, _options_text(program.options),
                             program.filename).encode()
    from .build import image_of
    if getattr(program, "_upgrade", None) is not None:
        program.wait_optimised()        # a binary carries the optimised library
    module = program._module
    interfaces = [k.interface for k in program._kernels.values()]
    info = binary_info(program._target, module.__name__, [k.name for k in interfaces])
    return ProgramBinary(info, program.source, _options_text(program.options),
                         program.filename, _c_source_of(program), program.build_log,
                         [k.to_json() for k in interfaces],
                         {"extension": image_of(module)}).encode()


def _c_source_of(program) -> str | None:
    """The generated C of a built program: its translation's, else the kernel cache's
    copy of it; None where neither is at hand (a binary works without it)."""
    if program._translation is not None:
        return program._translation.c_source
    from . import cache, cachedir
    root = cache.usable_root()
    if root is None:
        return None
    data = cachedir.read_trusted(root / f"{program._module.__name__}.c")
    return data.decode() if data is not None else None


# ---- building one (the build service) ------------------------------------------------

_C_FILE = "kernel.c"     # the generated file's name, which names its cl2c_program_info


def compile_binary(source: str, options=None, filename: str = "<kernel>",
                   libraries=("shared",), native: bool = True) -> tuple[bytes, str]:
    """Translate and compile ``source`` into a binary holding ``libraries`` ("shared",
    "extension"), for this CPU (``native``) or any of its architecture. Returns (binary,
    build log); raises BuildError with the diagnostics."""
    from .pipeline import translate
    target = _build_target(options, native)
    tr = translate(source, filename, options, target=target, output_name=_C_FILE)
    return _executable(tr, target, source, _options_text(options), filename, libraries,
                       None)


def link_binary(units, options: str = "", libraries=("shared",),
                native: bool = True) -> tuple[bytes, str]:
    """Link compiled units (link.py's) into an executable binary, as compile_binary
    builds one source. Returns (binary, build log); raises BuildError."""
    from .link import program_options, translate_units
    target = _build_target(program_options(units, options), native)
    tr = translate_units(units, options, target, output_name=_C_FILE)
    return _executable(tr, target, None, program_options(units, options),
                       units[0].name if len(units) == 1 else "<linked>", libraries,
                       [u.to_json() for u in units])


def unit_binary(units, kind: str, build_log: str = "", dependencies=()) -> bytes:
    """The binary of a compiled object (``kind`` "object", one unit) or a library
    ("library"): its units, no library; usable where cl2c's version and translator are
    this one's. ``dependencies``: the files the units #included (DEPS)."""
    from .target import Target
    info = binary_info(Target.assumed(native=False), None, [])   # no CPU facts
    info["kind"] = kind
    one = units[0] if len(units) == 1 else None
    return ProgramBinary(info, one.source if one else None, one.options if one else "",
                         one.name if one else "<library>", build_log=build_log,
                         units=[u.to_json() for u in units],
                         dependencies=dependency_lines(dependencies)).encode()


def dependency_lines(paths) -> str | None:
    """DEPS: each #included file's sha256 and path, a line each (None for none)."""
    from .cache import file_digest
    return "".join(f"{file_digest(p) or '-'} {p}\n" for p in dict.fromkeys(paths)) or None


def _build_target(options, native: bool):
    from . import cache
    from .options import parse_options
    target = cache.host_target(native)
    parsed = parse_options(options)
    if parsed.sanitize:
        from .sanitizers import require_runtime
        require_runtime(parsed.sanitize, target)
    target = target.for_options(parsed)
    from . import tiers
    if tiers.mode() == tiers.FAST:      # -O0 alone: a binary is never tiered
        target = dataclasses.replace(target, optimise=False)
    return target


def _executable(tr, target, source, options_text: str, filename: str, libraries,
                units) -> tuple[bytes, str]:
    """The binary of a translation: its libraries compiled, its facts, texts, kernels."""
    from .build import build_extension, build_shared_library, image_of
    from .emit.render import program_symbol
    names = [k.name for k in tr.kernels]
    libs, module_name = {}, None
    if "extension" in libraries:
        module, _ = build_extension(tr.c_source, names, filename, target)
        libs["extension"], module_name = image_of(module), module.__name__
    if "shared" in libraries:
        # the extension is this library with the loader's exports besides (build.py):
        # one compile serves both
        libs["shared"] = libs.get("extension") or \
            build_shared_library(tr.c_source, target, filename, names)
    info = binary_info(target, module_name, names)
    if "shared" in libs:        # where the platform finds the kernels' cl2c_kernel_info
        info["program_symbol"] = program_symbol(_C_FILE)
    binary = ProgramBinary(info, source, options_text, filename, tr.c_source,
                           tr.warnings, [k.interface.to_json() for k in tr.kernels], libs,
                           units, dependency_lines(tr.preprocessed.dependencies))
    return binary.encode(), tr.warnings


__all__ = ["BinaryError", "BinaryRebuildWarning", "ProgramBinary", "to_bytes",
           "compile_binary", "link_binary", "unit_binary", "MAGIC", "FORMAT_VERSION", "HEADER_SIZE"]
