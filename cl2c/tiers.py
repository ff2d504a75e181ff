"""Two tiers of a cold build: the C compiled fast first, optimised in the background.

A cold ``Program.build()`` spends most of its time in the C compiler's optimiser (the
six-kernel file of issue 38: 1.4 s at -O3, 0.35 s at -O0, on this project's 2-core
machine). So where ``CL2C_TIER`` is ``auto`` (the default), a build that misses the
optimised library in the cache compiles the translation at -O0 (the fast tier: the very
build of ``-cl-opt-disable``, whose cache entries it shares), returns, and starts the
optimised build in a child process. The program's kernels change to the optimised library
at a launch after it is ready (``Program.tier`` says which runs). The child outlives its
parent: a script that ends first leaves the optimised library in the cache for its next
run, which then starts on it.

``CL2C_TIER=optimised``: a cold build waits for the optimised library (``cl2c --shared``
and the platform always do); ``fast``: every build at -O0 alone, never optimised (the test
suite's choice: a test about what a kernel computes need not wait for the optimiser;
tests mark the modules that run optimised). Under ``auto``, checking and sanitized builds
(their state lives in their library) and builds with no usable cache (the child hands its
library over through the cache) wait for the optimised library.

Both tiers compile the same C: a program's __global variables live in storage the loader
gives every launch, which the optimised library takes over as it is.
"""
from __future__ import annotations

import dataclasses
import os
import sys
import threading
import warnings
from pathlib import Path

from .resources import module_command
from .target import Target

AUTO, FAST, OPTIMISED = "auto", "fast", "optimised"
_MODES = (AUTO, FAST, OPTIMISED)


def mode() -> str:
    """``CL2C_TIER``: auto (default), fast or optimised."""
    asked = os.environ.get("CL2C_TIER", AUTO).strip().lower() or AUTO
    if asked not in _MODES:
        warnings.warn(f"CL2C_TIER={asked!r} is none of {', '.join(_MODES)}: {AUTO} is used",
                      stacklevel=3)
        return AUTO
    return asked


def can_start() -> bool:
    """Whether this process can start the child: its executable is a Python (not where
    Python is embedded in another program, nor a frozen application)."""
    name = os.path.basename(sys.executable or "").lower()
    return name.startswith(("python", "pypy")) and not getattr(sys, "frozen", False)


class Upgrade:
    """The optimised build of a program, running in a child process."""

    def __init__(self, proc, module_name: str, path: Path):
        self.proc = proc
        self.module_name = module_name
        self.path = path            # the cache entry the child writes
        self.owner = os.getpid()    # a fork's child polls the cache instead
        self._error = None
        self._lock = threading.Lock()

    def ready(self) -> bool:
        """Whether the child is done (successful or not)."""
        if os.getpid() != self.owner:
            return self.path.is_file()
        if self.proc.poll() is None:
            return False
        self._finish()
        return True

    def wait(self) -> None:
        if os.getpid() == self.owner:   # (not this process's child: the cache answers)
            self.proc.wait()
            self._finish()

    def failure(self) -> str | None:
        """Once the child is done: what it said where it failed, else None."""
        return self._error

    def _finish(self) -> None:
        with self._lock:            # (two threads' launches may find it done at once)
            if self.proc.stderr.closed:
                return
            with self.proc.stderr:
                said = self.proc.stderr.read()
            if self.proc.returncode != 0:
                self._error = (said or f"exit status {self.proc.returncode}").strip()[-4000:]


# The running child of each optimised library (by its cache entry) that this process
# started: two Programs of one source share it.
_running: dict[Path, Upgrade] = {}


def start(c_source: str, kernel_names: list[str], source_name: str, target: Target,
          module_name: str, root: Path, source_key: str, manifest: dict,
          parts=None) -> Upgrade:
    """Start the optimised build of ``c_source`` for ``target`` (optimising) in a child
    process, which caches the library as ``module_name`` and writes ``manifest`` under
    ``source_key``; ``parts``: the source's cut (split_compile.CompileParts), or None."""
    import json
    import subprocess           # here: a cache hit starts no child
    from .build import cache_path
    path = cache_path(root, module_name)
    running = _running.get(path)
    if running is not None and running.proc.poll() is None:
        return running
    job = {"c_source": c_source, "kernel_names": kernel_names, "source_name": source_name,
           "target": dataclasses.asdict(target), "source_key": source_key,
           "manifest": manifest, "parts": dataclasses.asdict(parts) if parts else None}
    env = dict(os.environ, CL2C_CACHE_DIR=str(root))
    env.pop("CL2C_NO_CACHE", None)
    # its own session: a Ctrl-C at the terminal stops the script, not a build whose
    # library the next run would start on
    proc = subprocess.Popen(module_command("cl2c.tiers"), stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env=env, start_new_session=True)
    # the job is larger than a pipe holds: written on a thread, the build does not wait
    # for the child's Python to start and read it (50 ms); not a daemon, so that a
    # script that ends at once still hands the child its whole job
    threading.Thread(target=_send, args=(proc, json.dumps(job)), name="cl2c-tier-job").start()
    upgrade = Upgrade(proc, module_name, path)
    _running[path] = upgrade
    return upgrade


def _send(proc, job: str) -> None:
    try:
        with proc.stdin:
            proc.stdin.write(job)
    except OSError:             # it died at once: its exit status and stderr say why
        pass


def _target_of(fields: dict) -> Target:
    return Target(**{k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()})


def _child() -> int:
    """The child's work: build and cache the library, then its manifest."""
    import json
    job = json.loads(sys.stdin.read())
    from . import cache
    from .build import build_extension
    from .diagnostics import BuildError
    from .split_compile import CompileParts
    parts = job["parts"] and CompileParts.from_json(job["parts"])
    try:
        build_extension(job["c_source"], job["kernel_names"], job["source_name"],
                        _target_of(job["target"]), parts)
    except BuildError as e:
        print(e, file=sys.stderr)
        return 1
    cache.write_manifest(job["source_key"], job["manifest"])
    return 0


if __name__ == "__main__":
    sys.exit(_child())
