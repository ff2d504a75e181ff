"""The templates' compiled code, kept in the kernel cache where the package ships none (a
source checkout's; shipped_templates.py): a new process loads it rather than compiling
every template again (most of a first translation's emit stage).

Jinja checks by itself that a file is of the template's text as it is now. What else
decides the code is in the folder's name: cl2c's, Jinja's and Python's versions and the
environment's options; the name starts with none of the prefixes that the cache's
clean-up of killed builds removes (``cachedir.remove_stale``). Each file carries the
sha256 of what follows its first line and is written atomically: a damaged one is
compiled again and rewritten, never an error. Where the cache is off, missing,
read-only or refused, the templates are compiled in each process, as before.
"""
from __future__ import annotations

import contextlib
import hashlib
import sys
from pathlib import Path

import jinja2

from .. import cache, cachedir, outputs
from ..version import __version__

_HEADER = b"cl2c-jinja-code sha256="


def bytecode_cache(options: dict) -> jinja2.BytecodeCache | None:
    """The code cache for an environment made with ``options``, or None (no usable
    cache: templates are compiled in each process)."""
    if not cache.cache_enabled():
        return None
    folder = cachedir.folder_within(cache.cache_root(), folder_name(options))
    if folder is None:
        return None
    cachedir.remove_stale(folder, kinds=("tmp",), legacy=False)    # a killed write's
    return SealedCodeCache(folder)


def folder_name(options: dict) -> str:
    """The folder of the code that these versions make with ``options``."""
    settings = hashlib.sha256(repr(sorted(options.items())).encode()).hexdigest()[:12]
    python = f"{sys.version_info[0]}.{sys.version_info[1]}"
    return f"jinja-{jinja2.__version__}-cl2c-{__version__}-py{python}-{settings}"


class SealedCodeCache(jinja2.BytecodeCache):
    """A file a template in ``folder``: its sha256, then Jinja's bucket."""

    def __init__(self, folder: Path):
        self.folder = folder

    def _path(self, bucket: jinja2.bccache.Bucket) -> Path:
        return self.folder / f"{bucket.key}.code"

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        data = cachedir.read_trusted(self._path(bucket))
        if data is None:
            return
        header, _, body = data.partition(b"\n")
        if header != _HEADER + cachedir.digest(body).encode():
            return                      # damaged or half-written: compiled again
        try:
            bucket.bytecode_from_string(body)
        except Exception:               # noqa: BLE001 (a bucket Jinja cannot read: the same)
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        body = bucket.bytecode_to_string()
        with contextlib.suppress(OSError):      # unwritable now: compiled next time too
            outputs.write_atomic(self._path(bucket),
                                 _HEADER + cachedir.digest(body).encode() + b"\n" + body,
                                 prefix=cachedir.temp_prefix("tmp"))
