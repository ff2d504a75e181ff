"""Running host programs on the cl2c platform: the OCL_ICD_VENDORS folder, and a Python
child that imports PyOpenCL with it (PyOpenCL picks its ICDs when it is imported, so the
platform is tested in a process of its own)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from cl2c.platform import icd_folder


def icd_environment(version: str | None = None) -> dict[str, str]:
    env = dict(os.environ, OCL_ICD_VENDORS=str(icd_folder()))
    env.pop("CL2C_ICD_VERSION", None)
    if version:
        env["CL2C_ICD_VERSION"] = version
    return env


# The child's prelude: PyOpenCL and out(), then the platform named PLATFORM and its device.
_IMPORTS = """
import json, sys
import numpy as np
import pyopencl as cl
def out(value):
    print("RESULT " + json.dumps(value))
def children():
    # this process's children: the platform's warm build service, where it runs one
    import os
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                stat = open(f"/proc/{pid}/stat").read()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid():
                found.append(int(pid))
    return sorted(found)
"""
_PICK = """
platforms = [p for p in cl.get_platforms() if p.name == PLATFORM]
# (PoCL may be listed twice: the system's and the pyopencl[pocl] extra's)
assert len(platforms) == 1 or platforms and PLATFORM != "cl2c", \
    [p.name for p in cl.get_platforms()]
platform = platforms[0]
devices = platform.get_devices()
assert len(devices) == 1, devices
device = devices[0]
"""


POCL = "Portable Computing Language"


def run_pyopencl(script: str, version: str | None = None, timeout: int = 120,
                 env: dict[str, str] | None = None, cwd=None):
    """Run ``script`` after the prelude in a child on the cl2c platform (with ``env``
    added to its environment, in folder ``cwd``); the value it passed to ``out()``."""
    return _run_child(script, "cl2c", {**icd_environment(version), **(env or {})}, timeout,
                      cwd)


def run_pyopencl_on_pocl(script: str, timeout: int = 120):
    """The same on PoCL, the system's OpenCL (skipped where the loader lists none)."""
    env = dict(os.environ)
    env.pop("OCL_ICD_VENDORS", None)
    listed = _run_child("out([p.name for p in cl.get_platforms()])", None, env, timeout)
    if POCL not in listed:
        pytest.skip(f"PoCL is not installed (the loader lists {listed}): nothing to "
                    "compare with")
    return _run_child(script, POCL, env, timeout)


def _run_child(script: str, platform: str | None, env: dict[str, str], timeout: int,
               cwd=None):
    try:
        import pyopencl  # noqa: F401
    except ImportError as e:
        pytest.skip(f"PyOpenCL is not importable ({e})")
    code = _IMPORTS + (f"PLATFORM = {platform!r}\n{_PICK}" if platform else "") + \
        textwrap.dedent(script)
    proc = subprocess.run([sys.executable, "-c", code], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    lines = [l for l in proc.stdout.splitlines() if l.startswith("RESULT ")]
    assert lines, proc.stdout[-2000:]
    return json.loads(lines[-1][len("RESULT "):])
