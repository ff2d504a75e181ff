"""The kernel cache's directory: which one is safe to use, and its files, written
atomically and read back only when verified.

Every cached file has its sha256 recorded when it is written (a ``.sha256`` file
beside it, in ``sha256sum`` format, or the manifest's own header line), and a read
checks it: a truncated, flipped or half-written file is *missing* (with a warning),
and the build that follows replaces it. A file (or the directory) that is not
this user's, or that other users may write, is refused the same way: anyone who
could write there could plant a library that cl2c loads. A directory that cannot
be created or written gives way to a private one under the system temp dir.
Writes go to a temporary name and are renamed into place; the temporary names
carry the writer's PID and host, so that what a killed build left behind is
removed by the next one.
"""
from __future__ import annotations

import atexit
import contextlib
import errno
import functools
import hashlib
import os
import shutil
import stat
import tempfile
import time
import warnings
from pathlib import Path

from . import outputs


class CacheWarning(UserWarning):
    """The kernel cache is not used as configured, or one of its entries was bad
    (cl2c goes on: it rebuilds, or caches elsewhere)."""


# What a killed build leaves (a build directory, a file not yet renamed): removed once
# its process is gone, or once it is this old (another host's, another PID namespace's).
STALE_SECONDS = 30 * 60
_TEMP_KINDS = ("build", "tmp", "image")    # image: build.py's kept copies of libraries
_warned: set[tuple[str, str]] = set()


def _warn_once(kind: str, where: object, message: str) -> None:
    if (kind, str(where)) not in _warned:
        _warned.add((kind, str(where)))
        warnings.warn(CacheWarning(message), stacklevel=4)


def _euid() -> int:
    return os.geteuid()


def _unsafe(st: os.stat_result) -> str | None:
    """Why a file or directory with this status is not to be trusted, or None."""
    if st.st_uid != _euid():
        return f"is owned by uid {st.st_uid}, not by this user (uid {_euid()})"
    if st.st_mode & 0o022:
        return f"is writable by other users (mode {stat.S_IMODE(st.st_mode):04o})"
    return None


# ---- which directory ----------------------------------------------------------------

def _directory_problem(path: Path) -> str | None:
    """Why ``path`` cannot be the cache (after creating it where missing), or None."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = os.stat(path)
    except OSError as e:
        return f"cannot be created ({e.strerror or e})"
    return _folder_problem(path, st)


def _folder_problem(path: Path, st: os.stat_result) -> str | None:
    """Why the directory ``path``, of status ``st``, is not one to cache in, or None."""
    if not stat.S_ISDIR(st.st_mode):
        return "is not a directory"
    unsafe = _unsafe(st)
    if unsafe:
        return unsafe
    if not os.access(path, os.W_OK | os.X_OK):
        return "is not writable"
    return None


def usable(configured: Path) -> Path | None:
    """The directory to cache in: ``configured`` when it is this user's and writable;
    else (warned once) a private temporary one; None when there is none either."""
    problem = _directory_problem(configured)
    if problem is None:
        return configured
    private = private_root()
    instead = f"a private temporary cache, {private}" if private else "no cache"
    _warn_once("root", configured, f"cl2c: the kernel cache directory {configured} {problem}; "
                                   f"using {instead} instead")
    return private


@functools.lru_cache(maxsize=1)
def private_root() -> Path | None:
    """This user's cache under the system temp dir (mode 0700, refused if someone else
    made it), or one for this process alone, removed at exit; None if neither can be."""
    shared_tmp = Path(tempfile.gettempdir())
    mine = shared_tmp / f"cl2c-cache-{_euid()}"
    with contextlib.suppress(FileExistsError, OSError):
        os.mkdir(mine, 0o700)
    try:
        st = os.lstat(mine)         # not a link someone else planted
        if stat.S_ISDIR(st.st_mode) and st.st_uid == _euid() and not st.st_mode & 0o077:
            return mine
    except OSError:
        pass
    try:
        own = Path(tempfile.mkdtemp(prefix="cl2c-cache-"))
    except OSError:
        return None
    atexit.register(shutil.rmtree, own, ignore_errors=True)
    return own


def folder_within(root: Path, name: str) -> Path | None:
    """Folder ``name`` of ``root``, an existing cache directory that is safe to use (made
    where missing, mode 0700); None, silently, where either is missing, refused or not
    writable: a caller that can do without it asks here (no warning, no fallback)."""
    try:
        if _folder_problem(root, os.stat(root)):
            return None
        folder = root / name
        with contextlib.suppress(OSError):
            os.mkdir(folder, 0o700)
        # lstat: not a link, the folder itself, this user's
        return None if _folder_problem(folder, os.lstat(folder)) else folder
    except OSError:
        return None


# ---- verified files ---------------------------------------------------------------------

def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _checksum_path(path: Path) -> Path:
    return path.with_name(path.name + ".sha256")


def read_trusted(path: Path) -> bytes | None:
    """The bytes of ``path`` if it is a regular file of this user's that no one else may
    write (a refusal is warned of once); None when it is missing or refused."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        if e.errno == errno.ELOOP:      # a symbolic link (O_NOFOLLOW): it points anywhere
            _refuse(path, "is a symbolic link")
        return None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        why = "is not a regular file" if not stat.S_ISREG(st.st_mode) else _unsafe(st)
        if why:
            _refuse(path, why)
            return None
        try:
            return f.read()
        except OSError:
            return None


def _refuse(path: Path, why: str) -> None:
    _warn_once("unsafe", path.parent, f"cl2c: ignoring kernel cache entry {path}: it {why} "
                                      f"(refused entries are rebuilt; said once per directory)")


def corrupt(path: Path, why: str) -> None:
    _warn_once("corrupt", path.parent,
               f"cl2c: kernel cache entry {path} is corrupt ({why}); it is rebuilt")


def read_verified(path: Path) -> bytes | None:
    """The bytes of ``path`` if they match the sha256 recorded when it was written; None
    when it is missing, refused or corrupt (warned)."""
    recorded = read_trusted(_checksum_path(path))
    if recorded is None:
        return None
    data = read_trusted(path)
    if data is None:
        return None
    want = recorded.split(b" ", 1)[0].decode("ascii", "replace")
    if digest(data) != want:
        corrupt(path, f"its sha256 is not the {want[:16]}... recorded at build time"
                if len(want) == 64 else "its recorded sha256 is damaged")
        return None
    return data


def write_atomic(path: Path, data: bytes) -> bool:
    """Write ``path`` so that a reader sees the old file or the whole new one; False
    (warned once) when the directory refuses."""
    try:
        return outputs.write_atomic(path, data, prefix=temp_prefix("tmp"))
    except OSError as e:
        _warn_once("write", path.parent, f"cl2c: cannot write the kernel cache "
                                         f"{path.parent} ({e.strerror or e}); kernels "
                                         f"built now are not cached")
        return False


def write_verified(path: Path, data: bytes, checksum_first: bool = False) -> bool:
    """Write ``path`` and then its checksum (a reader in between finds the two disagree
    and waits for the lock, which the writer holds). ``checksum_first``: the checksum
    first, for a file written once that no lock guards (a reader in between finds no
    file)."""
    checksum = (_checksum_path(path), f"{digest(data)}  {path.name}\n".encode())
    writes = [checksum, (path, data)] if checksum_first else [(path, data), checksum]
    return all(write_atomic(where, what) for where, what in writes)


# ---- what killed builds leave behind ----------------------------------------------------

@functools.lru_cache(maxsize=1)
def _host_tag() -> str:
    import socket               # here: a cache hit needs no host name (nor socket's import)
    return digest(socket.gethostname().encode())[:8]


def temp_prefix(kind: str) -> str:
    """The prefix of a temporary name in the cache: ``cl2c-<kind>.<pid>.<host>.``."""
    assert kind in _TEMP_KINDS
    return f"cl2c-{kind}.{os.getpid()}.{_host_tag()}."


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True             # someone else's process: alive
    return True


def is_stale(name: str, st: os.stat_result, now: float) -> bool:
    """Whether temporary file or directory ``name`` (of status ``st``) is a leftover: its
    process, on this host, is gone (or it is a day old: the PID was reused); or, made
    elsewhere (another host, another PID namespace, an older cl2c), it is old."""
    age = now - st.st_mtime
    parts = name.split(".")
    if len(parts) >= 4 and parts[0] in (f"cl2c-{k}" for k in _TEMP_KINDS) \
            and parts[1].isdigit() and parts[2] == _host_tag():
        return not _pid_alive(int(parts[1])) or age > 24 * 3600
    return age > STALE_SECONDS


def remove_stale(root: Path, kinds: tuple[str, ...] = _TEMP_KINDS,
                 legacy: bool = True) -> list[str]:
    """Remove what killed builds left in ``root`` (only this user's), of the temporary
    ``kinds``, and (``legacy``) the names older cl2c gave them; the names removed."""
    removed = []
    now = time.time()
    try:
        entries = list(os.scandir(root))
    except OSError:
        return removed
    for entry in entries:
        name = entry.name
        # cl2c-build-*/src-*.tmp: the names before PIDs were in them (age only)
        if not (name.startswith(tuple(f"cl2c-{k}." for k in kinds)) or legacy and (
                name.startswith("cl2c-build-") or
                (name.startswith("src-") and name.endswith(".tmp")))):
            continue
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if st.st_uid != _euid() or not is_stale(name, st, now):
            continue
        if stat.S_ISDIR(st.st_mode):
            shutil.rmtree(entry.path, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                os.unlink(entry.path)
        removed.append(name)
    return removed


@contextlib.contextmanager
def locked(path: Path):
    """An exclusive lock between processes on the file ``path`` (made where missing),
    held while the block runs: a build's, so that two processes do not both compile
    one entry. flock(2), which the system drops when the holder dies; without the lock
    where it cannot be taken (the cache's writes are atomic either way: at worst two
    processes build the same thing). (filelock's import alone took 50-70 ms of a cold
    build.)"""
    import fcntl
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
    except OSError:
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:
            pass
        yield
    finally:
        os.close(fd)            # (the lock goes with the descriptor)
