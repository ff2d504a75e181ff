"""A content-addressed cache of compiled kernels.

The key covers everything that decides the binary: cl2c's version, the
runtime headers, the generated C, the compiler's identity and the flags.
Two processes building the same kernel at once take a file lock, so one
builds and the other loads; results land by atomic rename, so a reader never
sees half a file. ``CL2C_CACHE_DIR`` moves the cache; ``CL2C_NO_CACHE=1``
builds in a temporary directory every time.
"""
from __future__ import annotations

import functools
import hashlib
import os
import platform
import subprocess
import sysconfig
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


@functools.lru_cache(maxsize=4)
def compiler_identity(cc: str | None = None) -> str:
    cc = cc or sysconfig.get_config_var("CC") or "cc"
    try:
        out = subprocess.run(cc.split() + ["--version"], capture_output=True, text=True,
                             timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        out = "unknown"
    return f"{cc}\n{out}\n{platform.machine()}\n{_cpu_model()}"


def _cpu_model() -> str:
    # -march=native binaries are only valid for this CPU model.
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def key(c_source: str, flags: list[str], extra: str = "") -> str:
    h = hashlib.sha256()
    for part in (__version__, runtime_digest(), compiler_identity(), " ".join(flags), extra,
                 c_source):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:32]
