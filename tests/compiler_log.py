"""A C compiler that logs its commands: $CC set to a wrapper of the host's compiler that
appends each command line to a file, for tests of what a build ran."""
import shlex
from pathlib import Path

from cl2c.cache import host_target


def logging_compiler(folder: Path, monkeypatch, refuse: str = "") -> Path:
    """Set $CC to the wrapper (in ``folder``) and return its log's path. ``refuse``: a
    word whose commands fail (exit 1) without running the compiler."""
    log = folder / "calls"
    wrapper = folder / "logging-cc"
    cc = " ".join(shlex.quote(c) for c in host_target().cc)
    refusal = f'case "$*" in *{refuse}*) exit 1;; esac\n' if refuse else ""
    wrapper.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\n{refusal}exec {cc} "$@"\n')
    wrapper.chmod(0o755)
    monkeypatch.setenv("CC", str(wrapper))
    return log
