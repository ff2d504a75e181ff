"""The platform's build cache, as Python computes it: where ``clBuildProgram`` keeps the
binary of a program built from source, the same key that build.c computes in C (a test
holds the two together), so that a tool can find or pre-build an entry without the
platform.

The key is the sha256 of NUL-terminated texts (cache.texts_key: the loader's source keys
are the same scheme with another tag and builder): a scheme tag, the source, the options,
the source's name in diagnostics, cl2c's version, its translator and runtime digests,
the Python that builds, and the environment variables the translator reads (an unset one
is an empty text). The entry is ``<key>.bin`` in ``icd-programs/`` of cl2c's cache."""
from __future__ import annotations

import os
import sys
from pathlib import Path

from .. import binary, cache

SCHEME = "cl2c icd program 1"
SOURCE_NAME = "program.cl"       # build.c's SOURCE_NAME: the name the log gives the source
ENVIRONMENT = ("CL2C_SCHEDULE", "CL2C_CHECK", "CL2C_CHECK_BARRIERS", "CC", "CFLAGS",
               "LDFLAGS")


def key(source: str, options: str = "") -> str:
    facts = binary.required_facts()
    texts = [SCHEME, source, options, SOURCE_NAME, facts["cl2c"], facts["translator"],
             facts["runtime"], sys.executable,
             *(os.environ.get(name, "") for name in ENVIRONMENT)]
    return cache.texts_key(texts)


def entry(cache_root: Path, source: str, options: str = "") -> Path:
    """Where the platform whose library is in ``cache_root`` keeps this build."""
    return cache_root / "icd-programs" / f"{key(source, options)}.bin"
