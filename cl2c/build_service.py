"""``python -m cl2c.build_service``: a program binary for a host that is not Python.

The OpenCL platform (a C library) reaches the translator through this, as a child
process: files in, files out, the log in a file (or on stderr), nothing on stdout.

    python -m cl2c.build_service --source FILE --output FILE [--log FILE]
        [--options=TEXT] [--filename NAME] [--library shared|extension|both] [--portable]

``--source``: the OpenCL C source (``-`` for standard input). ``--options``: the build
options (given as ``--options=TEXT``, since they begin with ``-``) as ``clBuildProgram`` takes them (``-cl-std=CL3.0``, ``-D``, ``-I``, ...; relative
paths start at the working directory, which the child inherits). ``--filename``: the name
diagnostics give the source (by default its path). ``--library``: which compiled library
the binary holds (binary.py): ``shared`` (the default: the C entry points, for the
platform), ``extension`` (for ``cl2c.Program``) or both. ``--portable``: code for any CPU
of this architecture, not only this one.

Exit status: 0, built: the binary is at ``--output`` (written whole or not at all) and the
log holds the warnings, if any; 1, the program does not build: the log holds the
diagnostics, ``file:line:col: error: ...``, and ``--output`` is not written; 2, a usage
error (bad arguments, a file that cannot be read or written), said on stderr and in the
log; 3, an internal error (a cl2c bug), with its traceback in the log; 4, the options
are not valid build options (``CL_INVALID_BUILD_OPTIONS``), said in the log; 5, the C
compiler did not build the translation (cl2c's fault or the machine's, not the
program's: the platform keeps failures 1 and 4 in its cache, never this one), said in
the log.

``--compile`` (``clCompileProgram``): check the source and write a compiled object's
binary (its source, embedded headers and options: link.py), translating nothing;
``--headers FILE`` gives the embedded headers, each an include name and its text, every
one ended by a NUL byte. ``--link FILE...`` (``clLinkProgram``, instead of ``--source``):
the binaries of compiled objects and libraries, linked into an executable binary, or a
library with ``-create-library`` among the options. Exit statuses as above.

``python -m cl2c.build_service --serve`` builds one request after another, as the
platform sends them on its standard input, a socket: each request is a 4-byte length
(little-endian) and that many bytes, NUL-separated: the working directory, the file its
stderr goes to, then the arguments of a build as above; each answer is a 4-byte status
as above, plus RETIRING when the service ends after it (it does after SERVE_LIMIT
builds, so that nothing a long host's builds leave behind grows without end). It ends
at the end of its input, the host's end, and after SERVE_IDLE_S seconds without a
request (a host that builds no more does not keep it). The platform keeps one a host
process (and starts another where it finds it gone), so that
Python's start and the translator's imports (most of a small program's build) are paid
once; it starts a new one where the host's environment changed since.

``python -m cl2c.build_service --facts`` prints, one ``key=value`` a line, what a binary's
INFO section must say to be usable here (``cl2c``, ``translator``, ``runtime``,
``machine``, ``system``, ``python_abi``; ``cpu_flags``: this CPU's, which must include
every flag of a native binary's but ``hypervisor``), so that the platform can check a
binary in C, with no Python, as binary.py does.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import traceback
import warnings

BUILT, FAILED, USAGE, INTERNAL, BAD_OPTIONS, TOOLCHAIN = 0, 1, 2, 3, 4, 5
RETIRING = 1 << 16          # --serve: added to the last answer's status
SERVE_LIMIT = 500           # --serve: builds before the service ends
SERVE_IDLE_S = 300          # --serve: seconds without a request before it ends
_LIBRARIES = {"shared": ("shared",), "extension": ("extension",),
              "both": ("shared", "extension")}


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"cl2c.build_service: error: {message}", file=sys.stderr)
        sys.exit(USAGE)


def _arguments(argv):
    p = _Parser(prog="python -m cl2c.build_service",
                description="Build an OpenCL C program into a cl2c program binary.")
    p.add_argument("--source", help="the OpenCL C source file (- for stdin)")
    p.add_argument("--compile", action="store_true",
                   help="check the source and write a compiled object (clCompileProgram)")
    p.add_argument("--headers", help="embedded headers: name NUL text NUL, repeated")
    p.add_argument("--link", nargs="+", metavar="BINARY",
                   help="link these compiled objects and libraries (clLinkProgram)")
    p.add_argument("--output", help="where the program binary goes")
    p.add_argument("--facts", action="store_true",
                   help="print what a binary's INFO must say to be usable here, and exit")
    p.add_argument("--log", help="where the build log goes (default: stderr)")
    p.add_argument("--options", default="", help="build options, as clBuildProgram's")
    p.add_argument("--filename", help="the source's name in diagnostics")
    p.add_argument("--library", choices=sorted(_LIBRARIES), default="shared",
                   help="the compiled library the binary holds (default: shared)")
    p.add_argument("--portable", action="store_true",
                   help="code for any CPU of this architecture (not -march=native)")
    args = p.parse_args(argv)
    if not args.facts and not ((args.source or args.link) and args.output):
        p.error("the following arguments are required: --source (or --link), --output")
    if args.source and args.link:
        p.error("--source and --link do not go together")
    if args.headers and not args.compile:
        p.error("--headers goes with --compile")
    return args


def _print_facts() -> int:
    """The INFO facts a binary must match here (binary.py's checks; cpu_flags: a native
    binary's flags must all be among these), one ``key=value`` a line."""
    from .binary import required_facts
    for key, value in required_facts().items():
        print(f"{key}={value}")
    return BUILT


def _write_atomic(path: str, data: bytes) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".cl2c-binary-", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)      # as open() would have made it
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


class _InputError(Exception):
    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


def _read(path: str) -> bytes:
    try:
        if path == "-":
            return sys.stdin.buffer.read()
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise _InputError(f"cl2c.build_service: cannot read {path}: {e.strerror or e}",
                          USAGE) from None


def _inputs(args):
    """What the build reads: the source (text) and headers, or the linked units."""
    from .source_text import decode
    if args.link:
        from .binary import BinaryError, ProgramBinary
        from .link import Unit
        units = []
        for path in args.link:
            try:
                binary = ProgramBinary.decode(_read(path))
            except BinaryError as e:
                raise _InputError(f"cl2c: cannot link {path}: {e}", FAILED) from None
            if binary.info.get("kind") not in ("object", "library") or binary.units is None:
                raise _InputError(f"cl2c: cannot link {path}: not a compiled object or a "
                                  f"library", FAILED)
            units += [Unit.from_json(u) for u in binary.units]
        return units
    name = _source_name(args)
    source = decode(_read(args.source), name)
    headers = {}
    if args.headers:
        fields = _read(args.headers).split(b"\0")
        for i in range(0, len(fields) - 1, 2):
            header = fields[i].decode("utf-8", "surrogateescape")
            headers.setdefault(header, decode(fields[i + 1], header))   # the first wins
    return source, headers


def _source_name(args) -> str:
    return args.filename or ("<stdin>" if args.source == "-" else args.source)


def _build(args, inputs) -> tuple[bytes, str]:
    """The binary the arguments ask for, and its log."""
    from . import binary, link
    libraries = _LIBRARIES[args.library]
    if args.link:
        if link.creates_library(args.options):
            return binary.unit_binary(inputs, "library"), ""
        return binary.link_binary(inputs, args.options, libraries,
                                  native=not args.portable)
    source, headers = inputs
    name = _source_name(args)
    if args.compile:
        from . import cache
        unit, log, dependencies = link.compile_unit(link.Unit(source, args.options, name,
                                                              headers),
                                                    cache.host_target(not args.portable))
        return binary.unit_binary([unit], "object", log, dependencies), log
    return binary.compile_binary(source, args.options or None, name, libraries,
                                 native=not args.portable)


def _embedded_names(text: str) -> str:
    """A log with embedded headers named as the host named them."""
    from .preprocess import EMBEDDED_ROOT
    return text.replace(EMBEDDED_ROOT + "/", "")


def run(argv=None) -> int:
    args = _arguments(argv)
    if args.facts:
        return _print_facts()
    log_parts: list[str] = []

    def finish(status: int) -> int:
        text = "".join(p if p.endswith("\n") else p + "\n" for p in log_parts if p)
        if args.log:
            try:
                with open(args.log, "w") as f:
                    f.write(text)
            except OSError as e:
                print(f"cl2c.build_service: cannot write the log {args.log}: "
                      f"{e.strerror or e}", file=sys.stderr)
                return USAGE
        elif text:
            sys.stderr.write(text)
        return status

    from .diagnostics import BuildError, ToolchainError
    from .options import parse_options
    try:
        parse_options(args.options or None)
    except BuildError as e:
        log_parts.append(e.render())
        return finish(BAD_OPTIONS)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            binary, build_log = _build(args, _inputs(args))
        log_parts.append(_embedded_names(build_log))
        log_parts.extend(f"cl2c: warning: {w.message}" for w in caught)
    except _InputError as e:
        log_parts.append(str(e))
        if args.log and e.status == USAGE:
            print(e, file=sys.stderr)
        return finish(e.status)
    except BuildError as e:
        log_parts.append(_embedded_names(e.render()))
        return finish(TOOLCHAIN if isinstance(e, ToolchainError) else FAILED)
    except Exception:                              # a cl2c bug: say so, with where
        log_parts.append("cl2c: internal error (a cl2c bug; please report it with the "
                         "kernel):\n" + traceback.format_exc())
        return finish(INTERNAL)
    try:
        _write_atomic(args.output, binary)
    except OSError as e:
        message = f"cl2c.build_service: cannot write {args.output}: {e.strerror or e}"
        log_parts.append(message)
        if args.log:
            print(message, file=sys.stderr)
        return finish(USAGE)
    return finish(BUILT)


def _read_exactly(fd: int, n: int) -> bytes | None:
    data = b""
    while len(data) < n:
        chunk = os.read(fd, n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def _serve_one(cwd: str, err: str, argv: list[str]) -> int:
    """One build of --serve, in ``cwd``, its stderr (and its compilers') to ``err``."""
    saved = os.dup(2)
    try:
        fd = os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(fd, 2)
        os.close(fd)
        os.chdir(cwd)
        return run(argv)
    except SystemExit as e:                        # a usage error: argparse's exit
        return e.code if isinstance(e.code, int) else USAGE
    except Exception:
        traceback.print_exc()
        return INTERNAL
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)


def serve(limit: int = SERVE_LIMIT) -> int:
    """Build the requests on standard input until it ends (--serve)."""
    # the host's files that were not close-on-exec: a pipe's end kept open here for the
    # host's life would keep its reader from ever seeing the end
    os.closerange(3, os.sysconf("SC_OPEN_MAX") if hasattr(os, "sysconf") else 1024)
    import select
    for served in range(1, limit + 1):
        if not select.select([0], [], [], SERVE_IDLE_S)[0]:
            return BUILT                           # idle: the host builds no more
        header = _read_exactly(0, 4)
        body = header and _read_exactly(0, int.from_bytes(header, "little"))
        if body is None:
            return BUILT                           # the host is gone
        cwd, err, *argv = (os.fsdecode(f) for f in body.split(b"\0"))
        status = _serve_one(cwd, err, argv) | (RETIRING if served == limit else 0)
        os.write(0, status.to_bytes(4, "little"))
    return BUILT


if __name__ == "__main__":
    sys.exit(serve() if sys.argv[1:] == ["--serve"] else run())
