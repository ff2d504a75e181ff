"""The platform's build cache, as Python computes it: where ``clBuildProgram`` keeps the
binary of a program built from source, the same key that build.c computes in C (a test
holds the two together), so that a tool can find or pre-build an entry without the
platform.

The key is the sha256 of NUL-terminated texts (cache.texts_key: the loader's source keys
are the same scheme with another tag and builder): a scheme tag, the source, the options,
the source's name in diagnostics, cl2c's version, its translator and runtime digests,
the Python that builds, the environment variables the translator reads (an unset one
is an empty text), and for a source that ``#include``s, the working directory (where
relative paths start). The entry is ``<key>.bin`` in ``icd-programs/`` of cl2c's
cache; the files it included are its binary's DEPS (each one's sha256), checked before
the entry is used, as ccache's direct mode and cl2c's own cache (cache.py) do.

A build that fails for the program's sake (its diagnostics, invalid options) is kept
as ``<key>.failed`` (``cl2c build failure``, the build service's exit status and the
log), so that it fails again at once with the same log; not one that reads files (an
``#include``: the header may be mended), nor one the C compiler or the machine failed
(the service's status 5).

``clCompileProgram`` and ``clLinkProgram`` are cached by the same scheme with other texts
in place of the source and options (build.c alone computes these): ``compile``, the
source, the options, each embedded header's name and text; ``link``, the options, each
input binary's sha256; and the working directory always."""
from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

from .. import binary, cache

SCHEME = "cl2c icd program 2"
SOURCE_NAME = "program.cl"       # build.c's SOURCE_NAME: the name the log gives the source
# a source with this word may #include files: its key has the working directory
INCLUDE = "include"
ENVIRONMENT = ("CL2C_SCHEDULE", "CL2C_CHECK", "CL2C_CHECK_BARRIERS", "CL2C_TIER", "CC",
               "CFLAGS", "LDFLAGS")


def build_python() -> str:
    """The Python that builds, as build.c hashes it (generate.py bakes it in): absolute
    and normalised, so that ``../.venv/bin/python`` and the same interpreter named from
    elsewhere agree (a test run so computed another key than the library's)."""
    return os.path.abspath(sys.executable)


def key(source: str, options: str = "", directory: str | None = None,
        environment: Mapping[str, str] | None = None) -> str:
    """The key of building ``source`` with ``options`` in ``directory`` (the working
    directory where None) under ``environment`` (os.environ where None)."""
    facts = binary.required_facts()
    includes = INCLUDE in source
    environment = os.environ if environment is None else environment
    texts = [SCHEME, source, options, SOURCE_NAME, facts["cl2c"], facts["translator"],
             facts["runtime"], build_python(),
             *(environment.get(name, "") for name in ENVIRONMENT),
             (directory or os.getcwd()) if includes else ""]
    return cache.texts_key(texts)


def entry(cache_root: Path, source: str, options: str = "", directory: str | None = None,
          environment: Mapping[str, str] | None = None) -> Path:
    """Where the platform whose library is in ``cache_root`` keeps this build."""
    return cache_root / "icd-programs" / \
        f"{key(source, options, directory, environment)}.bin"


def failure_entry(cache_root: Path, source: str, options: str = "",
                  directory: str | None = None,
                  environment: Mapping[str, str] | None = None) -> Path:
    """Where it keeps this build's failure, if it failed for the program's sake."""
    return entry(cache_root, source, options, directory, environment).with_suffix(".failed")
