"""PyOpenCL's own test suite (the ``test/`` folder of its sdist) on the cl2c platform.

Nothing of PyOpenCL is committed: the first run on a machine downloads the sdist of the
installed PyOpenCL's version from the package index (``$PIP_INDEX_URL``, else PyPI; its
sha256 checked against the index's) and unpacks ``test/`` and ``pyproject.toml`` into a
cache directory, ``$CL2C_PYOPENCL_DIR`` or ``~/.cache/cl2c-pyopencl``. A sdist already
there (``pip download --no-deps --no-binary :all: pyopencl==X -d DIR`` puts one) is
unpacked without a download; ``CL2C_PYOPENCL_DIR`` may also name an unpacked sdist (one
holding ``test/test_wrapper.py``), used as it is. A file lock makes concurrent callers
wait for one download; the tree moves into place by an atomic rename.

The tests run in a pytest child of their own (PyOpenCL picks its ICDs when imported),
in the sdist's folder, with ``OCL_ICD_VENDORS`` naming ``cl2c --icd``'s folder and
``PYOPENCL_TEST`` the cl2c platform; with ``PYOPENCL_NO_CACHE=1`` PyOpenCL builds every
program from source, without it it goes through its own cache, which on a platform other
than PoCL and NVIDIA stores ``CL_PROGRAM_BINARIES`` and rebuilds from them with
``clCreateProgramWithBinary`` (a fresh cache for each run, so both paths are taken).

``pyopencl_known_failures.txt`` lists the tests expected to fail, each with its cause.
Run as a script (``make test-pyopencl``), this runs whole files, both ways, and exits 1
on a failure not listed or a listed test that passes.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

from filelock import FileLock

TESTS_DIR = Path(__file__).resolve().parent
KNOWN_FAILURES = TESTS_DIR / "pyopencl_known_failures.txt"
# What `make test-pyopencl` runs: the files PoCL runs before each release, and the wrapper's.
FULL_FILES = ("test_algorithm.py", "test_array.py", "test_arrays_in_structs.py",
              "test_clmath.py", "test_clrandom.py", "test_enqueue_copy.py",
              "test_wrapper.py")
MODES = ("no-cache", "cache")          # PYOPENCL_NO_CACHE=1, and PyOpenCL's binary cache
_DONE = "suite.done"


class SuiteUnavailable(RuntimeError):
    """The suite could not be fetched; the message says why and what to run."""


def pyopencl_version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("pyopencl")
    except PackageNotFoundError:
        raise SuiteUnavailable("PyOpenCL is not installed (pip install pyopencl)") from None


def cache_dir() -> Path:
    env = os.environ.get("CL2C_PYOPENCL_DIR")
    if env:
        return Path(env).expanduser()
    return Path.home() / ".cache" / "cl2c-pyopencl"


def suite_root() -> Path:
    """The unpacked sdist (holding ``test/``) of the installed PyOpenCL's version, fetched
    on first use. Raises SuiteUnavailable."""
    base = cache_dir()
    if (base / "test" / "test_wrapper.py").is_file():
        return base                          # an unpacked sdist given by the user
    ver = pyopencl_version()
    root = base / f"pyopencl-{ver}"
    if (root / _DONE).exists():
        return root
    base.mkdir(parents=True, exist_ok=True)
    with FileLock(str(base / "fetch.lock"), timeout=900):
        if not (root / _DONE).exists():
            _unpack(_sdist(base, ver), root)
    return root


def _fetch_hint(base: Path, ver: str) -> str:
    return (f"download it with `pip download --no-deps --no-binary :all: pyopencl=={ver} "
            f"-d {base}` (or set CL2C_PYOPENCL_DIR to an unpacked sdist)")


def _sdist(base: Path, ver: str) -> Path:
    """The sdist in ``base``, downloaded there first if it is not."""
    path = base / f"pyopencl-{ver}.tar.gz"
    if path.is_file():
        return path
    index = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple").rstrip("/")
    page_url = f"{index}/pyopencl/"
    try:
        with urllib.request.urlopen(page_url, timeout=60) as r:
            page = r.read().decode("utf-8", "replace")
        m = re.search(r'href="([^"]*/pyopencl-' + re.escape(ver)
                      + r'\.tar\.gz)(?:#sha256=([0-9a-f]{64}))?"', page)
        if not m:
            raise SuiteUnavailable(f"{page_url} lists no sdist of pyopencl {ver}; "
                                   + _fetch_hint(base, ver))
        url, want = urllib.parse.urljoin(page_url, m[1]), m[2]
        with urllib.request.urlopen(url, timeout=300) as r:
            data = r.read()
    except (OSError, ValueError) as e:       # URLError, timeouts, a bad index URL
        raise SuiteUnavailable(f"fetching PyOpenCL {ver}'s sdist from {index} failed "
                               f"({e}); " + _fetch_hint(base, ver)) from None
    if want and hashlib.sha256(data).hexdigest() != want:
        raise SuiteUnavailable(f"{url} does not have the sha256 the index gives ({want})")
    tmp = path.with_name(path.name + f".{os.getpid()}.part")
    tmp.write_bytes(data)
    os.replace(tmp, path)
    return path


def _unpack(sdist: Path, root: Path) -> None:
    """``test/`` and ``pyproject.toml`` (its pytest markers) of the sdist into ``root``."""
    top = root.name
    with tempfile.TemporaryDirectory(prefix="unpack-", dir=root.parent) as tmp:
        try:
            with tarfile.open(sdist) as tar:
                members = [m for m in tar.getmembers()
                           if (m.name.startswith(f"{top}/test/")
                               or m.name == f"{top}/pyproject.toml")
                           and (m.isfile() or m.isdir())]
                # the "data" filter (no links out, no devices) where this Python has it
                safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
                tar.extractall(tmp, members=members, **safe)
        except (tarfile.TarError, OSError) as e:
            raise SuiteUnavailable(f"unpacking {sdist} failed ({e}); remove it to fetch "
                                   f"it again") from None
        tree = Path(tmp) / top
        if not (tree / "test" / "test_wrapper.py").is_file():
            raise SuiteUnavailable(f"{sdist} holds no test/test_wrapper.py")
        (tree / _DONE).write_text(sdist.name + "\n")
        if root.exists():
            shutil.rmtree(root)
        os.replace(tree, root)


# ---- running it -------------------------------------------------------------------------

# PyOpenCL's test ids name the device's context factory; the known list names it `ctx`.
_CTX = re.compile(r"<context factory for <pyopencl\.Device '[^']*' on '[^']*'>>")


def normalised_id(test_id: str) -> str:
    return _CTX.sub("ctx", test_id)


@dataclass
class Result:
    outcomes: dict[str, str] = field(default_factory=dict)   # id: passed/failed/skipped
    messages: dict[str, str] = field(default_factory=dict)   # id: a failure's first line
    seconds: float = 0.0
    output: str = ""

    def count(self, outcome: str) -> int:
        return sum(1 for o in self.outcomes.values() if o == outcome)


def run(selection: list[str], mode: str, jobs: int = 1, timeout: float = 3600) -> Result:
    """Run ``selection`` (test files or ids of the suite's test/ folder) on the cl2c
    platform in a pytest child; ``mode`` is one of MODES."""
    from cl2c.platform import icd_folder
    from cl2c.platform.device_facts import PLATFORM_NAME
    assert mode in MODES, mode
    root = suite_root()
    with tempfile.TemporaryDirectory(prefix="cl2c-pyopencl-") as tmp:
        env = dict(os.environ, OCL_ICD_VENDORS=str(icd_folder()),
                   PYOPENCL_TEST=PLATFORM_NAME,
                   XDG_CACHE_HOME=tmp)          # PyOpenCL's own cache: fresh for this run
        for name in ("PYOPENCL_CTX", "PYOPENCL_NO_CACHE", "CL2C_ICD_VERSION"):
            env.pop(name, None)
        if mode == "no-cache":
            env["PYOPENCL_NO_CACHE"] = "1"
        xml = Path(tmp) / "junit.xml"
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
               f"--junitxml={xml}", "-o", "junit_logging=no", *selection]
        if jobs > 1:
            cmd[4:4] = ["-n", str(jobs)]
        start = time.perf_counter()
        try:
            proc = subprocess.run(cmd, cwd=root / "test", env=env, capture_output=True,
                                  text=True, timeout=timeout)
            output = proc.stdout + proc.stderr
        except subprocess.TimeoutExpired as e:
            output = f"timed out after {timeout} s\n{e.stdout or ''}"
        result = Result(seconds=time.perf_counter() - start, output=output)
        if xml.exists():
            _read_junit(xml, result)
    return result


def _read_junit(xml: Path, result: Result) -> None:
    for case in ET.parse(xml).getroot().iter("testcase"):
        parts = case.get("classname", "").split(".")
        if parts[0] == "test" and len(parts) > 1:
            parts = parts[1:]                # relative to the sdist's root (its pyproject)
        module, *classes = parts
        test_id = normalised_id("::".join([f"{module}.py", *classes, case.get("name", "")]))
        outcome, message = "passed", ""
        for child in case:
            if child.tag in ("failure", "error"):
                outcome, message = "failed", child.get("message", "")
                break
            if child.tag == "skipped":
                outcome = "skipped"          # a skip, or PyOpenCL's own xfail
        # an error in teardown comes as a second case of the same id: failing wins
        if result.outcomes.get(test_id) != "failed":
            result.outcomes[test_id] = outcome
            result.messages[test_id] = message.splitlines()[0][:200] if message else ""


def known_failures(mode: str | None = None) -> dict[str, str]:
    """``pyopencl_known_failures.txt``: test id -> cause, for ``mode`` (an id followed by
    `` [no-cache]`` or `` [cache]`` fails in that mode only; None: every entry)."""
    known = {}
    for line in KNOWN_FAILURES.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            test_id, _, cause = line.partition(": ")
            test_id, _, only = test_id.strip().partition(" [")
            if mode is None or not only or only.rstrip("]") == mode:
                known[test_id] = cause.strip()
    return known


@dataclass
class Verdict:
    new_failures: list[str]
    unexpected_passes: list[str]
    known_failed: int

    @property
    def ok(self) -> bool:
        return not self.new_failures and not self.unexpected_passes


def judge(result: Result, known: dict[str, str]) -> Verdict:
    new = sorted(i for i, o in result.outcomes.items() if o == "failed" and i not in known)
    passed = sorted(i for i, o in result.outcomes.items() if o == "passed" and i in known)
    known_failed = sum(1 for i, o in result.outcomes.items() if o == "failed" and i in known)
    return Verdict(new, passed, known_failed)


def describe(result: Result, verdict: Verdict) -> str:
    lines = [f"{result.count('passed')} passed, {result.count('failed')} failed "
             f"({verdict.known_failed} known), {result.count('skipped')} skipped "
             f"in {result.seconds:.0f} s"]
    lines += [f"  NEW FAILURE {i}: {result.messages.get(i, '')}" for i in verdict.new_failures]
    lines += [f"  UNEXPECTED PASS {i} (remove it from {KNOWN_FAILURES.name})"
              for i in verdict.unexpected_passes]
    if not result.outcomes:
        lines.append("  no results: " + result.output[-3000:])
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", default=list(FULL_FILES),
                        help="test files (or ids) of PyOpenCL's test/ folder")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="pytest-xdist workers")
    parser.add_argument("--mode", choices=(*MODES, "both"), default="both")
    parser.add_argument("--timeout", type=float, default=3600,
                        help="seconds for one file in one mode")
    parser.add_argument("--json", type=Path, help="write every outcome to this file")
    args = parser.parse_args(argv)
    try:
        root = suite_root()
    except SuiteUnavailable as e:
        print(f"PyOpenCL's test suite is unavailable: {e}", file=sys.stderr)
        return 2
    print(f"PyOpenCL's tests from {root / 'test'} on the cl2c platform")
    modes = MODES if args.mode == "both" else (args.mode,)
    ok = True
    report = {}
    for name in args.files:                  # one file at a time: a hang names its file
        for mode in modes:
            result = run([name], mode, jobs=args.jobs, timeout=args.timeout)
            verdict = judge(result, known_failures(mode))
            ok &= verdict.ok and bool(result.outcomes)
            print(f"{name} [{mode}]: {describe(result, verdict)}", flush=True)
            report[f"{name} [{mode}]"] = {
                i: [o, result.messages.get(i, "")] for i, o in result.outcomes.items()}
            if args.json:
                args.json.write_text(json.dumps(report, indent=1))
    print("PyOpenCL's tests: only known failures." if ok else
          "PyOpenCL's tests: FAILED (new failures or unexpected passes above).")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
