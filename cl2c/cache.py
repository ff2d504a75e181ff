"""A content-addressed cache of compiled kernels.

The key covers everything that decides the binary: cl2c's version, the
runtime headers, the generated C and the target's identity (the compiler, its
version, cl2c's flags with $CC, $CPPFLAGS, $CFLAGS and $LDFLAGS, the CPU model for
native code).
Two processes building the same kernel at once take a file lock, so one
builds and the other loads; results land by atomic rename, so a reader never
sees half a file. ``CL2C_CACHE_DIR`` moves the cache; ``CL2C_NO_CACHE=1``
builds in a temporary directory every time.
"""
from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

import platformdirs

from .version import __version__
from .resources import runtime_dir


def cache_enabled() -> bool:
    return os.environ.get("CL2C_NO_CACHE", "") in ("", "0")


def cache_root() -> Path:
    root = os.environ.get("CL2C_CACHE_DIR")
    return Path(root) if root else Path(platformdirs.user_cache_dir("cl2c"))


@functools.lru_cache(maxsize=1)
def runtime_digest() -> str:
    h = hashlib.sha256()
    base = runtime_dir()
    for path in sorted(base.rglob("*")):
        if path.is_file() and path.suffix in (".h", ".c"):
            h.update(str(path.relative_to(base)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()


def key(c_source: str, target_identity: str, extra: str = "") -> str:
    """The key of ``c_source`` compiled by the target of that identity
    (:meth:`cl2c.target.Target.identity`: compiler, its version, every flag, the CPU)."""
    h = hashlib.sha256()
    for part in (__version__, runtime_digest(), target_identity, extra, c_source):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:32]
