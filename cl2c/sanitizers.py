"""The C compiler's sanitizers for kernels (-cl2c-sanitize=address,undefined,thread).

The address and thread sanitizers' runtimes must be the first libraries a process
loads: a kernel built with them cannot be loaded into a Python that started without
them. cl2c does not start helper processes on its own; run Python with the runtime
preloaded instead:

    python -m cl2c.sanitizers address script.py [args]     # sets LD_PRELOAD, then runs it

or set ``LD_PRELOAD`` yourself (``cc -print-file-name=libasan.so`` names the library;
``ASAN_OPTIONS=detect_leaks=0`` keeps the leak checker quiet about Python's own memory).
A build that asks for a sanitizer whose runtime is not loaded raises BuildError saying
this. The undefined-behaviour sanitizer needs no preloading.
"""
from __future__ import annotations

import os
import subprocess
import sys

from .diagnostics import BuildError, Diagnostic

_RUNTIME = {"address": "libasan.so", "thread": "libtsan.so"}
_OPTIONS = {"address": ("ASAN_OPTIONS", "detect_leaks=0"),
            "thread": ("TSAN_OPTIONS", "report_signal_unsafe=0")}


def runtime_library(name: str, cc: tuple[str, ...] = ("cc",)) -> str | None:
    """The path of sanitizer ``name``'s runtime library for compiler ``cc``, or None
    where it has none (or needs none: undefined)."""
    lib = _RUNTIME.get(name)
    if lib is None:
        return None
    try:
        out = subprocess.run([*cc, f"-print-file-name={lib}"], capture_output=True,
                             text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return out if os.path.isabs(out) and os.path.exists(out) else None


def loaded(name: str) -> bool:
    """Whether sanitizer ``name``'s runtime is in this process."""
    lib = _RUNTIME.get(name)
    if lib is None:
        return True
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as f:
            return any(lib in line for line in f)
    except OSError:
        return False


def environment(names, cc: tuple[str, ...] = ("cc",), env=None) -> dict:
    """``env`` (default: this process's) with the runtimes of sanitizers ``names``
    preloaded, for a process that loads kernels built with them."""
    env = dict(os.environ if env is None else env)
    libs = [p for p in (runtime_library(n, cc) for n in names) if p]
    if libs:
        env["LD_PRELOAD"] = " ".join(libs + [env["LD_PRELOAD"]] if env.get("LD_PRELOAD")
                                     else libs)
    for n in names:
        if n in _OPTIONS:
            var, value = _OPTIONS[n]
            env[var] = f"{value}:{env[var]}" if env.get(var) else value
    return env


def require_runtime(names, target) -> None:
    """Raise BuildError if a sanitizer of ``names`` needs a runtime this process has
    not loaded (it would fail to load the kernel)."""
    for n in names:
        if loaded(n):
            continue
        path = runtime_library(n, target.cc) or _RUNTIME[n]
        raise BuildError([Diagnostic(
            "error", f"-cl2c-sanitize={n}: the {n} sanitizer's runtime must be loaded "
            f"before Python starts: run 'python -m cl2c.sanitizers {n} SCRIPT' or set "
            f"LD_PRELOAD={path}")])


def main(argv=None) -> int:
    """``python -m cl2c.sanitizers address[,undefined] script.py [args]``: run a Python
    script with the sanitizers' runtimes preloaded."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) < 2:
        print("usage: python -m cl2c.sanitizers address|thread[,undefined] SCRIPT [ARGS]",
              file=sys.stderr)
        return 2
    names = [n for n in argv[0].split(",") if n]
    env = environment(names)
    os.execve(sys.executable, [sys.executable, *argv[1:]], env)
    return 0  # pragma: no cover


if __name__ == "__main__":
    sys.exit(main())
