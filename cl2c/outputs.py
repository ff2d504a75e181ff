"""The files one ``cl2c`` run writes, all of them or none.

Each output is named first (:meth:`Outputs.claim`), so that an output that is the input,
or two outputs that are one file, are refused before anything is made, as gcc refuses
``-o`` naming its input. Its contents are then staged in a temporary file beside it, and
:meth:`Outputs.commit` puts every staged file in place at the end: a failing header or
dependency file leaves no generated C behind.

Outputs are written as a C compiler writes them: through a symbolic link, into a device
or FIFO as it is; a regular file is replaced atomically, and an unchanged one only
touched, so that Make sees it up to date and does not run cl2c again.

:func:`stage_beside` and :func:`write_atomic` are cl2c's one way of writing a file that a
reader sees whole or not at all (a temporary file beside it, renamed onto it): the CLI's
outputs, the kernel cache (cachedir.py) and the setuptools hook's C files use them.
"""
from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
import tempfile
from dataclasses import dataclass


def stage_beside(path: str | os.PathLike, data: bytes, mode: int | None = None,
                 prefix: str = ".cl2c-") -> str:
    """A new temporary file in ``path``'s directory (one rename away from ``path``) that
    holds ``data``; its permissions ``mode`` less the umask (None: mkstemp's 0600).
    Raises OSError, leaving nothing behind."""
    fd, tmp = tempfile.mkstemp(prefix=prefix, dir=os.path.dirname(os.fspath(path)) or ".")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        if mode is not None:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, mode & ~umask)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return tmp


def write_atomic(path: str | os.PathLike, data: bytes, mode: int | None = None,
                 prefix: str = ".cl2c-", keep_unchanged: bool = False) -> bool:
    """Write ``path`` so that a reader sees the old file or the whole new one (mode and
    prefix: :func:`stage_beside`'s). ``keep_unchanged``: a file that holds ``data``
    already is left as it is, its time too (so that Make or setuptools sees it up to
    date). Whether it was written; raises OSError, leaving no temporary file."""
    if keep_unchanged and _holds(os.fspath(path), data):
        return False
    tmp = stage_beside(path, data, mode, prefix)
    try:
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return True


class OutputError(Exception):
    """An output file cannot be written; the message says which and why."""


@dataclass
class _Output:
    path: str           # as the user named it
    role: str           # "the output file", "the header", ...
    real: str           # symbolic links resolved
    st: os.stat_result | None
    data: bytes | None = None
    tmp: str | None = None      # the staged file, to rename onto ``real``


def _identity(real: str, st: os.stat_result | None):
    """What makes two names one file: the inode where it exists, else the resolved name."""
    return (st.st_dev, st.st_ino) if st is not None else real


def _stat(path: str, real: str) -> os.stat_result | None:
    try:
        return os.stat(real)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise OutputError(_cannot_write(path, e)) from None


def _cannot_write(path: str, e: OSError) -> str:
    parent = os.path.dirname(path) or "."
    if e.errno == errno.ENOTDIR:
        why = f"'{parent}' is not a directory"
    elif e.errno == errno.ENOENT:
        why = f"there is no directory '{parent}'"
    else:
        why = e.strerror or str(e)
    return f"cannot write '{path}': {why}"


class Outputs:
    """The outputs of one run, checked against ``source`` (a path, or '-' for stdin)."""

    def __init__(self, source: str):
        self._source = None
        if source != "-":
            st = os.stat(source)
            self._source = (source, _identity(os.path.realpath(source), st))
        self._outputs: list[_Output] = []

    def claim(self, path: str, role: str) -> None:
        """Name an output before it is made; refuse one that is the input or another
        output. '-' is standard output."""
        if path == "-":
            return
        real = os.path.realpath(path)
        st = _stat(path, real)
        if st is not None and stat.S_ISDIR(st.st_mode):
            raise OutputError(f"cannot write '{path}': it is a directory")
        if st is None and not os.path.isdir(os.path.dirname(real)):
            raise OutputError(_cannot_write(path, FileNotFoundError(errno.ENOENT, "")))
        ident = _identity(real, st)
        if self._source is not None and ident == self._source[1]:
            raise OutputError(f"{role} '{path}' is the input file '{self._source[0]}'")
        for other in self._outputs:
            if _identity(other.real, other.st) == ident:
                raise OutputError(f"{role} '{path}' is also {other.role} '{other.path}'")
        self._outputs.append(_Output(path, role, real, st))

    def stage(self, path: str, data: str | bytes, executable: bool = False) -> None:
        """Give a claimed output its contents: written now to a temporary file beside
        it (where it is a regular file, or none yet), put in place at commit."""
        data = data.encode() if isinstance(data, str) else data
        if path == "-":
            self._outputs.append(_Output(path, "standard output", path, None, data))
            return
        out = next(o for o in self._outputs if o.path == path)
        out.data = data
        if out.st is not None and not stat.S_ISREG(out.st.st_mode):
            return              # /dev/null, a FIFO: written as it is, never replaced
        if out.st is not None and out.st.st_size == len(data) and _holds(out.real, data):
            return              # unchanged: only touched
        try:    # (a compiler's output follows the umask)
            out.tmp = stage_beside(out.real, data, 0o777 if executable else 0o666)
        except OSError as e:
            raise OutputError(_cannot_write(path, e)) from None

    def commit(self) -> None:
        """Put every staged output in place: first those written as they are (standard
        output, devices, FIFOs), which may fail, then the renames, which do not."""
        try:
            for out in self._outputs:
                if out.data is None or out.tmp is not None:
                    continue
                if out.path == "-":
                    sys.stdout.write(out.data.decode())
                    sys.stdout.flush()
                elif out.st is not None and stat.S_ISREG(out.st.st_mode):
                    os.utime(out.real)
                else:
                    with open(out.real, "wb") as f:
                        f.write(out.data)
            for out in self._outputs:
                if out.tmp is not None:
                    os.replace(out.tmp, out.real)
                    out.tmp = None
        except OSError as e:
            raise OutputError(_cannot_write(out.path, e)) from None
        finally:
            self.discard()

    def discard(self) -> None:
        """Remove what was staged and not put in place."""
        for out in self._outputs:
            if out.tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(out.tmp)
                out.tmp = None


def _holds(path: str, data: bytes) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read() == data
    except OSError:
        return False
