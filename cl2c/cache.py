"""A content-addressed cache of compiled kernels.

The key covers everything that decides the binary: cl2c's version, the
runtime headers, the generated C and the target's identity (the compiler, its
version, cl2c's flags with $CC, $CPPFLAGS, $CFLAGS and $LDFLAGS, the CPU model for
native code).
Two processes building the same kernel at once take a file lock, so one
builds and the other loads; results land by atomic rename, and every file is read
back only if its recorded sha256 matches (``cachedir.py``: what is verified, what
is refused, where a cache that cannot be written gives way to).
``CL2C_CACHE_DIR`` moves the cache; ``CL2C_NO_CACHE=1`` builds in a temporary
directory every time.
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
import shutil
from pathlib import Path

from . import cachedir
from .version import __version__
from .resources import runtime_dir, templates_dir
from .target import Target, target_environment


def cache_enabled() -> bool:
    return os.environ.get("CL2C_NO_CACHE", "") in ("", "0")


def cache_root() -> Path:
    """The configured cache directory (which may turn out not to be usable)."""
    root = os.environ.get("CL2C_CACHE_DIR")
    if root:
        return Path(root)
    import platformdirs         # here: not imported where CL2C_CACHE_DIR says
    return Path(platformdirs.user_cache_dir("cl2c"))


def usable_root() -> Path | None:
    """Where to cache now: the configured directory, or a private one where that cannot
    be used safely (warned once), or None for no cache at all."""
    return cachedir.usable(cache_root())


@functools.lru_cache(maxsize=1)
def runtime_digest() -> str:
    """The runtime's C (headers and sources), but the platform library's C
    (clruntime/platform): kernels never include it, and library.py keys the library by
    it."""
    return _remembered_digest("runtime", [
        f for f in _tree_files(runtime_dir(), (".h", ".c")) if f[0][0] != "platform"])


@functools.lru_cache(maxsize=1)
def translator_digest() -> str:
    """The translator itself (cl2c's modules and templates): a source-keyed entry is
    only good for the very code that made it."""
    return _remembered_digest("translator", [
        f for base in (Path(__file__).parent, templates_dir())
        for f in _tree_files(base, (".py", ".j2"))])


# ---- the digests of cl2c's own files, remembered: a cache hit reads none of them ----------
# Hashing the translator's ~120 files and the runtime's headers took 40-60 ms of a cache
# hit in a new process. The digest is remembered in the cache under the files' stat
# (path, size, mtime, ctime, inode): any write to a file changes its ctime, which no
# user can set back, so a changed file is always hashed again. The digest itself is
# the same sha256 over the files' contents as before (build.c bakes it in, binary.py
# records it in binaries).

def _tree_files(base: Path, suffixes: tuple[str, ...]) -> list[tuple[tuple[str, ...], str]]:
    """The files under ``base`` with those suffixes, as (relative path parts, path), in
    the order of their parts (pathlib's order, which the digests have always used)."""
    found = []
    for folder, dirs, files in os.walk(base):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        rel = Path(folder).relative_to(base).parts
        found += [((*rel, name), os.path.join(folder, name)) for name in files
                  if name.endswith(suffixes)]
    return sorted(found)


def _content_digest(files) -> str:
    h = hashlib.sha256()
    for parts, path in files:
        h.update("/".join(parts).encode())
        with open(path, "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def _remembered_digest(kind: str, files) -> str:
    root = usable_root() if cache_enabled() else None
    if root is None:
        return _content_digest(files)
    stats = []
    for parts, path in files:
        st = os.stat(path)
        stats.append(("/".join(parts), st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino))
    stat_key = hashlib.sha256(repr((__version__, kind, stats)).encode()).hexdigest()[:32]
    path = root / f"digest_{stat_key}.json"
    body = _read_sealed(path)
    if body is not None:
        try:
            digest = json.loads(body)
            if isinstance(digest, str) and len(digest) == 64:
                return digest
        except ValueError:
            pass
        cachedir.corrupt(path, "it is not the digest cl2c writes")
    digest = _content_digest(files)
    _write_sealed(path, json.dumps(digest).encode())
    return digest


def key(c_source: str, target_identity: str, extra: str = "") -> str:
    """The key of ``c_source`` compiled by the target of that identity
    (:meth:`cl2c.target.Target.identity`: compiler, its version, every flag, the CPU)."""
    h = hashlib.sha256()
    for part in (__version__, runtime_digest(), target_identity, extra, c_source):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:32]


# ---- source-keyed entries: a cache hit that needs no translation ------------------------
# An entry maps what decides a translation (the source, its name, the options, the
# target, the translator) to the compiled module it gave, the kernels' interfaces, the
# build log, and the files it #included with their digests (checked at each hit, as
# ccache's direct mode does).

# The one scheme of cl2c's source keys: the sha256 of texts, each UTF-8 and NUL-terminated,
# the first a tag that names the scheme. The platform library computes its program keys
# the same way, in C (clruntime/platform/build.c, platform/program_cache.py): the source,
# the options, the source's name, cl2c's version and its translator's and runtime's
# digests, then who builds. The loader's builder is the probed compiler and CPU (the
# target's identity) and, for a source that can #include, the working directory.
SOURCE_SCHEME = "cl2c loader program 1"


def texts_key(texts) -> str:
    """The sha256 (64 hex digits) of ``texts`` in the source keys' scheme."""
    h = hashlib.sha256()
    for text in texts:
        h.update(text.encode("utf-8", "surrogatepass") + b"\0")
    return h.hexdigest()


def source_key(source: str, source_name: str, options_key: str, target_identity: str) -> str:
    # the working directory: relative #include paths and -I folders start there; a
    # source that cannot #include (no "include" in its text) is the same from anywhere
    where = _working_directory() if "include" in source else ""
    return texts_key([SOURCE_SCHEME, source, options_key, source_name, __version__,
                      translator_digest(), runtime_digest(), target_identity, where])[:32]


def _working_directory() -> str:
    try:
        return os.getcwd()
    except OSError:             # removed under us: no relative path resolves
        return ""


def file_digest(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


# A manifest is a header line with the sha256 of the JSON body that follows it.
_MANIFEST_HEADER = "cl2c-manifest sha256="


def _manifest_path(root: Path, source_key_: str) -> Path:
    return root / f"src_{source_key_}.json"


def read_manifest(source_key_: str) -> dict | None:
    """The entry of a source key, if there is one, intact, whose included files are
    unchanged."""
    root = usable_root()
    if root is None:
        return None
    path = _manifest_path(root, source_key_)
    body = _read_sealed(path)
    if body is None:
        return None
    try:
        entry = json.loads(body)
        deps = entry["dependencies"]
        if all(file_digest(path) == digest for path, digest in deps.items()):
            return entry
    except (ValueError, KeyError, TypeError, AttributeError):
        cachedir.corrupt(path, "it is not the manifest cl2c writes")
    return None


def write_manifest(source_key_: str, entry: dict) -> None:
    """Record an entry (atomically: a reader sees the old file or the new one)."""
    root = usable_root()
    if root is not None:
        _write_sealed(_manifest_path(root, source_key_), json.dumps(entry).encode())


def _read_sealed(path: Path) -> bytes | None:
    """The body of a file that carries its own sha256 in its first line; None where
    there is none, or it is refused or damaged (warned)."""
    data = cachedir.read_trusted(path)
    if data is None:
        return None
    header, _, body = data.partition(b"\n")
    recorded = header.decode("ascii", "replace").removeprefix(_MANIFEST_HEADER)
    if not header.startswith(_MANIFEST_HEADER.encode()) or cachedir.digest(body) != recorded:
        cachedir.corrupt(path, "its sha256 is not the one recorded in it")
        return None
    return body


def _write_sealed(path: Path, body: bytes) -> None:
    cachedir.write_atomic(path, f"{_MANIFEST_HEADER}{cachedir.digest(body)}\n".encode() + body)


# ---- the compiler's probe, remembered: a cache hit then runs no compiler -----------------

def host_target(native: bool = True, meanwhile=None, then=None) -> Target:
    """:meth:`Target.host`, remembered in the cache under what the probe depends on: the
    compiler command and flags, the compiler's files (path, size, mtime: an upgrade
    changes them) and the CPU. Probing runs the compiler twice (25 ms and more); a
    cache hit in a new process needed nothing else. Where it probes (a cache that has
    not probed this compiler holds nothing built by it: the build will compile), it runs
    ``meanwhile`` on a thread of its own as it does (a build's imports of the
    translator), and ``then`` with the probed target before it waits for that thread
    (a build's first compile, started early)."""
    root = usable_root() if cache_enabled() else None
    if root is None:
        return Target.host(native)
    environment = target_environment()
    key = (root, environment, native)
    if key not in _known:
        _known[key] = _remembered(root, environment, native) or \
            _probed(root, environment, native, meanwhile, then)
    return _known[key]


# What the probe decides: every field of a Target but the environment's, the sanitizers
# and the optimisation level (a build's own choice). All of them are remembered: a field
# left out would come back as its default in every process after the first (fast_fma did).
_PROBED = tuple(f.name for f in dataclasses.fields(Target)
                if f.name not in ("cc", "env_cflags", "env_ldflags", "sanitize", "optimise"))
# This process's probes, by cache, environment and -march=native.
_known: dict = {}


def _probe_path(root: Path, environment: tuple, native: bool) -> Path:
    h = hashlib.sha256(repr((__version__, environment, native, _files_of(environment[0]),
                             _cpu_identity())).encode())
    return root / f"probe_{h.hexdigest()[:32]}.json"


def _remembered(root: Path, environment: tuple, native: bool) -> Target | None:
    """The probe cache ``root`` remembers, or None."""
    path = _probe_path(root, environment, native)
    body = _read_sealed(path)
    if body is not None:
        try:
            probed = json.loads(body)
            # one of fewer fields (an older cl2c's) is probed again and replaced
            if isinstance(probed, dict) and sorted(probed) == sorted(_PROBED):
                return Target(*environment, **probed)
        except (ValueError, TypeError):
            cachedir.corrupt(path, "it is not the compiler probe cl2c writes")
    return None


def _probed(root: Path, environment: tuple, native: bool, meanwhile, then) -> Target:
    """The compiler probed (host_target's ``meanwhile`` and ``then`` around it), and
    remembered in cache ``root``."""
    helper = _started(meanwhile) if meanwhile is not None else None
    target = Target.host(native)
    if then is not None:
        then(target)
    if helper is not None:
        helper.join()
    _write_sealed(_probe_path(root, environment, native),
                  json.dumps({name: getattr(target, name) for name in _PROBED}).encode())
    return target


def _started(work):
    """A thread that runs ``work``, whose errors are left to the caller's own later call
    (an import that fails there fails again where it is needed)."""
    import threading

    def run():
        try:
            work()
        except Exception:               # (said again by the caller's own call)
            pass
    thread = threading.Thread(target=run, name="cl2c-meanwhile", daemon=True)
    thread.start()
    return thread


def _files_of(cc: tuple[str, ...]) -> tuple:
    """The programs a compiler command runs (a wrapper such as ccache and the compiler
    after it), each as (resolved path, size, mtime)."""
    files = []
    for word in cc:
        found = None if word.startswith("-") else shutil.which(word)
        if found:
            st = os.stat(found)
            files.append((os.path.realpath(found), st.st_size, st.st_mtime_ns))
    return tuple(files)


def _cpu_identity() -> str:
    """/proc/cpuinfo's model and flags (what -march=native decides from), where there
    is one; the probe's own answer covers the rest."""
    try:
        with open("/proc/cpuinfo") as f:
            lines = [l for l in f.read(1 << 16).splitlines()
                     if l.startswith(("model name", "flags", "Features"))]
        return "\n".join(lines[:2])
    except OSError:
        return ""
