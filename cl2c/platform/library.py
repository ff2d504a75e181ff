"""Builds the platform library (``cl2c --icd``) and the folder that registers it with
the ICD loaders: ``libcl2c_icd.so`` and ``cl2c.icd`` (one line, the library's
absolute path), the folder to name in ``OCL_ICD_VENDORS``.

The library is compiled from clruntime/platform/*.c and the C that generate.py and
device_facts.py write, with the compiler cl2c builds kernels with ($CC, else Python's;
$CFLAGS and $LDFLAGS), into cl2c's cache under a key of all of that: a changed source,
device model or compiler gives a new folder. The folder is built under a temporary name
and renamed into place under a file lock, so two processes never see half of one; the
library's sha256 is recorded beside it, and a folder whose library no longer matches it
(or that is not this user's alone) is built again."""
from __future__ import annotations

import hashlib
import re
import os
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path


from .. import cache, cachedir
from ..resources import runtime_dir
from ..target import target_environment
from ..version import __version__
from . import device_facts, generate

LIBRARY = "libcl2c_icd.so"
ICD_FILE = "cl2c.icd"
# -fvisibility=hidden: only the loader's three symbols leave the library (icd.h)
# (a call without a declaration is a bug: the build fails rather than the loader's dlopen)
_FLAGS = ("-std=c11", "-O2", "-fPIC", "-shared", "-fvisibility=hidden", "-pthread",
          "-Wall", "-Wextra", "-Werror=implicit-function-declaration")


class IcdBuildError(RuntimeError):
    """The C compiler failed on the platform library (a cl2c bug, or no compiler)."""


def source_dir() -> Path:
    return runtime_dir() / "platform"


def sources() -> dict[str, str]:
    """The hand-written C: file name -> text."""
    return {p.name: p.read_text() for p in sorted(source_dir().iterdir())
            if p.suffix in (".c", ".h")}


def generated(written: dict[str, str]) -> dict[str, str]:
    """The generated C for the hand-written ``written``, and the kernel runtime's
    headers that describe a program's entry points (host.h) and convert image pixels
    (images.h, for clEnqueueFillImage): file name -> text."""
    return {"cl2c_cl_types.h": generate.types_header(),
            "cl2c_entry_points.h": generate.entry_points_header(),
            "device_facts.h": device_facts.header(),
            "build_facts.h": generate.build_facts_header(),
            "dispatch.c": generate.dispatch_source(generate.implemented(written)),
            **runtime_headers("host.h"), **runtime_headers("images.h")}


def runtime_headers(name: str) -> dict[str, str]:
    """``cl2c/<name>`` and the runtime headers it includes, as ``cl2c/<file>`` -> text:
    the platform reads a program's cl2c_program_info through host.h, the one
    description of it."""
    include = runtime_dir() / "include" / "cl2c"
    found: dict[str, str] = {}
    todo = [name]
    while todo:
        n = todo.pop()
        if f"cl2c/{n}" in found or not (include / n).is_file():
            continue
        text = (include / n).read_text()
        found[f"cl2c/{n}"] = text
        todo += re.findall(r'^#include "([\w.]+)"', text, re.M)
    return found


def write_files(files: dict[str, str], folder: Path) -> None:
    """Write the library's ``files`` (name -> text; a name may have a folder) into
    ``folder``."""
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)


def compile_command(c_files: list[str], include_dirs: list[str], out: str) -> list[str]:
    cc, cflags, ldflags = target_environment()
    return [*cc, *cflags, *_FLAGS, *(f"-I{d}" for d in include_dirs), *c_files,
            "-o", out, *ldflags]


def _key(files: dict[str, str]) -> str:
    h = hashlib.sha256(__version__.encode())
    h.update(shlex.join(compile_command(["X"], [], "Y")).encode())
    for name, text in sorted(files.items()):
        h.update(f"\0{name}\0{text}".encode())
    return h.hexdigest()[:24]


def icd_folder() -> Path:
    """The folder for OCL_ICD_VENDORS, built first where it is not there yet."""
    written = sources()
    files = {**written, **generated(written)}
    root = (cache.usable_root() if cache.cache_enabled() else None) or cachedir.private_root()
    if root is None:
        raise IcdBuildError("no directory to build the platform library in")
    final = root / f"icd-{_key(files)}"
    if _complete(final):
        return final
    with cachedir.locked(root / f"{final.name}.lock"):
        if _complete(final):
            return final
        cachedir.remove_stale(root)
        tmp = Path(tempfile.mkdtemp(prefix=cachedir.temp_prefix("build"), dir=root))
        try:
            _build(files, tmp, final)
            if final.exists():             # an incomplete one, left by a crash
                shutil.rmtree(final, ignore_errors=True)
            os.replace(tmp, final)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return final


def _complete(folder: Path) -> bool:
    """Whether ``folder`` holds the library as it was built (its recorded sha256, this
    user's, no one else's to write: cachedir.py) and the .icd file naming it there."""
    if not (folder / LIBRARY).is_file():
        return False
    named = cachedir.read_trusted(folder / ICD_FILE)
    return (named is not None and named.decode(errors="replace").strip() ==
            str(folder / LIBRARY) and cachedir.read_verified(folder / LIBRARY) is not None)


def _build(files: dict[str, str], tmp: Path, final: Path) -> None:
    """Compile into ``tmp`` the library and the .icd file that names it at ``final``."""
    src = tmp / "src"
    src.mkdir()
    write_files(files, src)
    c_files = sorted(str(src / n) for n in files if n.endswith(".c"))
    cmd = compile_command(c_files, [str(src)], str(tmp / LIBRARY))
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    except OSError as e:
        raise IcdBuildError(f"building the platform library needs a C compiler ($CC, else "
                            f"Python's): {shlex.join(cmd[:1])}: {e.strerror or e}") from None
    if proc.returncode != 0:
        raise IcdBuildError(f"the C compiler failed on the platform library (a cl2c bug; "
                            f"please report it):\n{shlex.join(cmd)}\n"
                            f"{(proc.stdout + proc.stderr)[-4000:]}")
    library = (tmp / LIBRARY).read_bytes()
    (tmp / f"{LIBRARY}.sha256").write_text(f"{cachedir.digest(library)}  {LIBRARY}\n")
    (tmp / ICD_FILE).write_text(str(final / LIBRARY) + "\n")
