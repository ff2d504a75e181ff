"""piglit's OpenCL test corpus, fetched from Debian's ``piglit`` package at test time.

Nothing of piglit is committed: the first run on a machine downloads the package with
``apt-get download piglit`` (running ``apt-get update`` first only if apt knows no
candidate for it) and unpacks the OpenCL tests (``tests/cl`` and ``generated_tests/cl``)
into a cache directory, ``$CL2C_PIGLIT_DIR`` or ``~/.cache/cl2c-piglit``. A file lock
makes concurrent callers (pytest-xdist workers) wait for one download; the tree moves
into place by an atomic rename, so nobody sees half of it.

``CL2C_PIGLIT_DIR`` may also name an unpacked piglit tree (one holding ``tests/cl``):
then it is used as it is.
"""
from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from filelock import FileLock

PACKAGE = "piglit"
# The parts of the package that hold OpenCL tests, relative to its piglit directory.
CL_PARTS = ("tests/cl", "generated_tests/cl")
_DONE = "corpus.done"


class CorpusUnavailable(RuntimeError):
    """The corpus could not be fetched; the message says why."""


def cache_dir() -> Path:
    env = os.environ.get("CL2C_PIGLIT_DIR")
    if env:
        return Path(env).expanduser()
    return Path.home() / ".cache" / "cl2c-piglit"


def corpus_root() -> Path:
    """The piglit directory (holding ``tests/cl`` and ``generated_tests/cl``), fetched
    on first use. Raises CorpusUnavailable."""
    base = cache_dir()
    if (base / "tests" / "cl").is_dir():
        return base                          # an unpacked piglit tree given by the user
    root = _unpacked_root(base)
    if root is not None:
        return root
    base.mkdir(parents=True, exist_ok=True)
    with FileLock(str(base / "fetch.lock"), timeout=900):
        root = _unpacked_root(base)
        if root is None:
            _fetch(base)
            root = _unpacked_root(base)
        if root is None:
            raise CorpusUnavailable(f"the {PACKAGE} package unpacked into {base} holds no "
                                    f"OpenCL tests")
        return root


def _unpacked_root(base: Path) -> Path | None:
    if not (base / _DONE).exists():
        return None
    found = glob.glob(str(base / "tree" / "usr" / "lib" / "*" / "piglit"))
    return Path(found[0]) if found else None


def _run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600)
    except FileNotFoundError:
        raise CorpusUnavailable(f"'{cmd[0]}' is not installed: the piglit corpus comes from "
                                f"Debian's {PACKAGE} package") from None
    except subprocess.TimeoutExpired:
        raise CorpusUnavailable(f"'{' '.join(cmd)}' timed out") from None


def _has_candidate() -> bool:
    out = _run(["apt-cache", "policy", PACKAGE], Path("/")).stdout
    return "Candidate:" in out and "Candidate: (none)" not in out


def _fetch(base: Path) -> None:
    """Download the package and unpack its OpenCL tests into ``base/tree``."""
    with tempfile.TemporaryDirectory(prefix="fetch-", dir=base) as tmp:
        work = Path(tmp)
        if not _has_candidate():
            update = _run(["apt-get", "update"], work)
            if update.returncode != 0:
                raise CorpusUnavailable(f"'apt-get update' failed: {update.stderr.strip()}")
        got = _run(["apt-get", "download", PACKAGE], work)
        debs = sorted(work.glob(f"{PACKAGE}_*.deb"))
        if got.returncode != 0 or not debs:
            raise CorpusUnavailable(f"'apt-get download {PACKAGE}' failed: "
                                    f"{got.stderr.strip()[-500:]}")
        tree = work / "tree"
        tree.mkdir()
        # Only the OpenCL tests: unpacking the whole package takes much longer.
        members = [f"./usr/lib/*/piglit/{part}/*" for part in CL_PARTS]
        unpack = subprocess.run(
            f"dpkg-deb --fsys-tarfile {debs[0].name} | tar -x -C tree --wildcards "
            + " ".join(f"'{m}'" for m in members),
            shell=True, cwd=work, capture_output=True, text=True, timeout=600)
        if unpack.returncode != 0:
            raise CorpusUnavailable(f"unpacking {debs[0].name} failed: "
                                    f"{unpack.stderr.strip()[-500:]}")
        if (base / "tree").exists():
            shutil.rmtree(base / "tree")
        os.replace(tree, base / "tree")
        (base / _DONE).write_text(debs[0].name + "\n")


def list_tests(root: Path) -> list[str]:
    """Every test of the corpus, as paths relative to ``root``, sorted: the ``.cl`` and
    ``.program_test`` files of ``tests/cl/program`` and ``generated_tests/cl`` (piglit's
    own OpenCL profile; ``.inc`` files are sources that ``.program_test`` files name)."""
    out = []
    for part in ("tests/cl/program", "generated_tests/cl"):
        for path in (root / part).rglob("*"):
            if path.suffix in (".cl", ".program_test") and path.is_file():
                out.append(path.relative_to(root).as_posix())
    return sorted(out)
