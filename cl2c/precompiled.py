"""The runtime's main header precompiled for GCC, kept in the kernel cache.

Every kernels' file begins with ``#include <cl2c/cl2c.h>``, and parsing it is most of a
small kernel's compile at -O0 (on this project's 2-core machine, a one-line kernel's
file: 0.20 s, 0.12 s with the header precompiled; the six-kernel file of issue 38: 0.29
and 0.21 s). GCC takes a ``cl2c/cl2c.h.gch`` that it finds in an include folder before
the header itself where the same compiler made it with the same flags, and reads the
header where not. So the folder is keyed on the target's identity and the runtime's
digest, and made in the background when its key is asked for in a cache that holds
some libraries already (a test's or a script's throwaway cache does not pay for it): no
build waits for it (the one that asked compiles without it). clang looks for no ``.gch``
there; its builds go without. GCC checks that a precompiled header is one it made with
these flags; cl2c does not hash it (the cache is this user's alone: cachedir.py).
"""
from __future__ import annotations

import os
import shlex
import shutil
from pathlib import Path

from . import cache
from .resources import runtime_include_dir
from .target import Target

HEADER = Path("cl2c") / "cl2c.h"

# The folders whose background build this process started.
_started: set[Path] = set()
# A cache with fewer compiled libraries than this gets no precompiled header yet: making
# one costs as much CPU as two or three compiles save (0.2-0.5 s, 14 MB).
IN_USE = 8


def folder(root: Path | None, target: Target) -> Path | None:
    """The include folder holding the precompiled header for ``target``'s compiles in
    cache ``root``, or None where there is none yet (its build starts) or can be none."""
    if root is None or not target.gcc:
        return None
    where = root / f"pch-{cache.key('', target.identity(), 'precompiled ' + str(HEADER))}"
    if (where / f"{HEADER}.gch").is_file():
        return where
    if where not in _started and _in_use(root):
        _start(where, target)
    return None


def _in_use(root: Path) -> bool:
    """Whether cache ``root`` holds IN_USE libraries."""
    found = 0
    try:
        with os.scandir(root) as entries:
            for entry in entries:
                found += entry.name.endswith(".so")
                if found >= IN_USE:
                    return True
    except OSError:
        pass
    return False


def discard(where: Path) -> None:
    """Remove a precompiled header that a compile failed with (damaged, or not what this
    compiler reads): the next build makes it again."""
    shutil.rmtree(where, ignore_errors=True)
    _started.discard(where)


def _start(where: Path, target: Target) -> None:
    import subprocess           # here: a build with the header made starts nothing
    final = where / f"{HEADER}.gch"
    try:
        final.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        return
    tmp = final.with_name(f"{final.name}.{os.getpid()}.tmp")
    include = runtime_include_dir()
    cmd = target.header_command(str(include / HEADER), str(tmp), [str(include)])
    # written whole or not at all: a compile never sees half a header; in a process of
    # its own, whose shell ends at once (nothing of it for this one to wait for)
    script = (f"({shlex.join(cmd)} && mv -f {shlex.quote(str(tmp))} "
              f"{shlex.quote(str(final))}; rm -f {shlex.quote(str(tmp))}) &")
    _started.add(where)
    try:
        subprocess.run(["sh", "-c", script], stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       start_new_session=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        pass
