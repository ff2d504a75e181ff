"""The runtime's main header precompiled for GCC, kept in the kernel cache.

Every kernels' file begins with ``#include <cl2c/cl2c.h>``, and parsing it is most of a
small kernel's compile at -O0 (on this project's 2-core machine, a one-line kernel's
file: 0.20 s, 0.12 s with the header precompiled; the six-kernel file of issue 38: 0.29
and 0.21 s). GCC takes a ``cl2c/cl2c.h.gch`` that it finds in an include folder before
the header itself where the same compiler made it with the same flags, and reads the
header where not. So the folder is keyed on the target's identity and the runtime's
digest, and made in the background the first time its key is asked for: no build waits
for it (the one that asked compiles without it). clang looks for no ``.gch`` there; its
builds go without.
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


def folder(root: Path | None, target: Target) -> Path | None:
    """The include folder holding the precompiled header for ``target``'s compiles in
    cache ``root``, or None where there is none yet (its build starts) or can be none."""
    if root is None or not target.gcc:
        return None
    where = root / f"pch-{cache.key('', target.identity(), 'precompiled ' + str(HEADER))}"
    if (where / f"{HEADER}.gch").is_file():
        return where
    if where not in _started:
        _start(where, target)
    return None


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
