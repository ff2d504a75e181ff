"""The runtime compiled ahead, kept in the kernel cache: its out-of-line code as an object
that each library links, and its main header precompiled for GCC.

Every kernels' file begins with ``#include <cl2c/cl2c.h>``. Compiling the runtime's
out-of-line code in it (the launch's setup, the fault guard, the fibers: linkage.h) was
about 85% of a one-kernel file's object, and parsing the header most of the rest (on
this project's 2-core machine, 18 plain programs of the test suite at -O0: 0.28 s of CPU
each header-only, 0.12 s linking the object with the header precompiled). So a cache
keeps, per compiler and flags (a folder keyed on the target's identity and the
runtime's digest):

- ``runtime.o``, compiled from cl2c.h with CL2C_RUNTIME_OBJECT and the kernels' flags,
  its sha256 beside it (read verified; a build links the bytes it verified). A cache's
  first build for those flags compiles it beside its kernels' file, in a second
  compiler process at the same time, and links the two (build.py): the six-kernel
  file's first build in an empty cache here spends 0.34 s compiling and loading at -O0
  where it spent 0.40 s header-only (1.33 s at -O3, 1.65 s), for about 0.1 s more CPU,
  and every build after it links the object. Where the object cannot be made or linked
  and the header-only way builds, the folder says so (``refused``) and the next day's
  builds go the header-only way at once.
- ``cl2c/cl2c.h.gch`` (GCC), for the compiles that link that object: GCC takes a
  precompiled header that it finds in an include folder before the header itself where
  the same compiler made it with the same flags, and reads the header where not (GCC
  checks it; cl2c does not hash it: the cache is this user's alone, cachedir.py).
  clang looks for no ``.gch`` there; its builds go without. It is made in the
  background, by a process of its own, when a build asks for it in a cache that holds
  some libraries already (a test's or a script's throwaway cache does not pay for its
  14 MB): no build waits for it.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from . import cache, cachedir
from .resources import module_command, runtime_include_dir
from .target import Target

HEADER = Path("cl2c") / "cl2c.h"
OBJECT = "runtime.o"
# Beside a runtime object that could not be made or linked where the header-only way
# built: the linked way is not tried again for that compiler and flags for a day (the
# failure may have been the machine's: a full disk, a killed compiler).
REFUSED = "refused"
REFUSED_FOR_S = 24 * 3600
OUT = "\0out"          # in the command handed to the background process: its output

# The folders whose background build this process started.
_started: set[Path] = set()
# The runtime objects this process started compiling while it translated, by folder:
# (the compiler's process, the temporary folder it writes in).
_early: dict = {}
# A cache with fewer compiled libraries than this gets no precompiled header yet: making
# it costs as much CPU as two or three compiles save (0.3-0.6 s, 14 MB).
IN_USE = 8


@dataclass(frozen=True)
class Ahead:
    """What a cache compiled ahead for a target's builds."""
    folder: Path
    runtime_object: bytes               # verified
    include: Path | None                # the folder holding cl2c/cl2c.h.gch, if made


def folder(root: Path, target: Target) -> Path:
    """Where cache ``root`` keeps what it compiled ahead for ``target``'s compiles."""
    return root / f"runtime-{cache.key('', target.identity(), 'compiled ahead')}"


def ahead(root: Path | None, target: Target) -> Ahead | None:
    """What cache ``root`` compiled ahead for ``target``'s compiles, or None where it has
    no runtime object yet (the build compiles one: keep). Starts the precompiled header's
    background build where the cache is in use and has none."""
    if root is None:
        return None
    where = folder(root, target)
    if not (where / OBJECT).is_file() or _refused(where):
        return None
    data = cachedir.read_verified(where / OBJECT)
    if data is None:
        _discard(where)                 # corrupt (warned): made again
        return None
    if not target.gcc:
        return Ahead(where, data, None)
    if (where / f"{HEADER}.gch").is_file():
        return Ahead(where, data, where)
    if where not in _started and _in_use(root):
        _start(where, target)
    return Ahead(where, data, None)


def start_early(root: Path | None, target: Target) -> None:
    """Start compiling the runtime's object for ``target``'s builds where cache ``root``
    has none (its first build), so that it compiles while the translation runs: that
    build's compile then waits for its kernels alone (early_object)."""
    if root is None:
        return
    where = folder(root, target)
    if where in _early or (where / OBJECT).is_file() or _refused(where):
        return
    import subprocess           # here: a build with the object made starts nothing
    import tempfile
    try:        # named for this process: a build after it was killed removes it
        tmp = Path(tempfile.mkdtemp(prefix=cachedir.temp_prefix("build"), dir=root))
    except OSError:
        return
    include = runtime_include_dir()
    command = target.runtime_object_command(str(include / HEADER), str(tmp / OBJECT),
                                            [str(include)])
    try:
        proc = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)
        return
    _early[where] = (proc, tmp)


def early_object(root: Path, target: Target) -> bytes | bool:
    """The runtime's object that start_early compiled for ``target`` in cache ``root``,
    once it is done; False where that compile failed (the linked way failed), True where
    none was started (the build compiles one)."""
    started = _early.pop(folder(root, target), None)
    if started is None:
        return True
    proc, tmp = started
    try:
        return (tmp / OBJECT).read_bytes() if proc.wait() == 0 else False
    except OSError:
        return False
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def worth_trying(root: Path, target: Target) -> bool:
    """Whether a build for ``target`` in cache ``root`` compiles a runtime object to
    link (not where one failed lately: refuse)."""
    return not _refused(folder(root, target))


def _refused(where: Path) -> bool:
    try:
        return time.time() - (where / REFUSED).stat().st_mtime < REFUSED_FOR_S
    except OSError:
        return False


def refuse(root: Path, target: Target) -> None:
    """Say that the runtime object for ``target`` could not be made or linked where the
    header-only way built: later builds go that way at once."""
    where = folder(root, target)
    try:
        where.mkdir(exist_ok=True)
        (where / REFUSED).touch()
    except OSError:
        pass


def keep(root: Path, target: Target, runtime_object: bytes) -> None:
    """Keep ``runtime_object``, which a build compiled for ``target`` and linked, in cache
    ``root`` for the next builds (its checksum first: a reader in between finds none)."""
    where = folder(root, target)
    try:
        where.mkdir(exist_ok=True)
    except OSError:
        return                          # (an unwritable cache: the next build compiles it)
    cachedir.write_verified(where / OBJECT, runtime_object, checksum_first=True)


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


def discard(what: Ahead) -> None:
    """Remove what a compile failed with (damaged, or not what this compiler reads): the
    next build makes it again."""
    _discard(what.folder)


def _discard(where: Path) -> None:
    shutil.rmtree(where, ignore_errors=True)
    _started.discard(where)


def _start(where: Path, target: Target) -> None:
    """Make ``where``'s precompiled header in a process of its own, which this one does
    not wait for (nor a test's run for it: a new session)."""
    import subprocess           # here: a build with it made starts nothing
    include = runtime_include_dir()
    command = target.header_command(str(include / HEADER), OUT, [str(include)])
    _started.add(where)
    try:
        subprocess.Popen(module_command("cl2c.precompiled", str(where), json.dumps(command)),
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    except OSError:
        pass


def _make(where: Path, command: list[str]) -> None:
    """The background process: the header, written whole or not at all, so that a
    compile never sees half of one."""
    import subprocess
    final = where / f"{HEADER}.gch"
    final.parent.mkdir(exist_ok=True)
    tmp = final.with_name(f"{final.name}.{os.getpid()}.tmp")
    try:
        cmd = [str(tmp) if arg == OUT else arg for arg in command]
        if subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True).returncode == 0:
            os.replace(tmp, final)
    finally:
        tmp.unlink(missing_ok=True)


if __name__ == "__main__":
    try:
        _make(Path(sys.argv[1]), json.loads(sys.argv[2]))
    except OSError:
        pass
