"""The Khronos OpenCL conformance suite (OpenCL-CTS) on the cl2c platform.

Its sources are on no package registry, so nothing of it is fetched or committed here:
``make test-cts CTS_DIR=<a checkout>`` (or ``python tests/cts_suite.py --cts-dir DIR``)
configures it with CMake against the system's OpenCL headers and ICD loader
(``opencl-c-headers``, ``ocl-icd-opencl-dev``) into ``build/cts``, builds the suites
asked for (``--suites``; by default those a CPU device should pass in minutes), and runs
each test of each suite in a process of its own on the cl2c platform (``OCL_ICD_VENDORS``
naming ``cl2c --icd``'s folder, so the loader lists cl2c alone), with a time limit: a
crash or a hang costs one test, not the rest of its suite. It prints pass / fail / skip
per suite, and with ``--json`` / ``--markdown`` writes every test's outcome (the docs'
``guides/cts-results.md`` is such a table).

A suite's result is the harness's own: its JSON (``CL_CONFORMANCE_RESULTS_FILENAME``)
where it wrote one, else its exit status; a test that died is ``crash``, one past the
limit ``timeout``. Exit status: 0 when every test run passed or skipped, 1 otherwise, 2
when the CTS cannot be built (the message says why).

The CTS release must match the system's OpenCL headers: Debian 12's (2023.02.06) build
``v2023-05-16-00``; a newer CTS wants newer headers (``--headers DIR``).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The suites the issue names that a CPU device should pass in minutes, and what makes
# them quick: math_brute_force's harness arguments (-w: wimpy mode, a sample of the
# inputs; -1: scalars only), the quick_* tests of thread_dimensions and integer_ops, and
# the images suites as the CTS's quick list runs them (nearest filtering, no max sizes).
IMAGE_SUITES = ("images/clGetInfo", "images/kernel_image_methods", "images/clCopyImage",
                "images/clReadWriteImage", "images/clFillImage", "images/samplerlessReads",
                "images/kernel_read_write")
DEFAULT_SUITES = ("computeinfo", "api", "compiler", "basic", "buffers", "events",
                  "profiling", "commonfns", "geometrics", "relationals", "select",
                  "integer_ops", "thread_dimensions", "printf", "math_brute_force",
                  "conversions", "atomics", "vectors", "allocations", "mem_host_flags",
                  "half", "contractions", *IMAGE_SUITES)
# (wimpy modes, -w: a sample of each function's inputs, as the CTS's own quick list has
# them; conversions whole takes 25 minutes so on 2 cores: give it --timeout 2400)
SUITE_ARGS = {"math_brute_force": ["-1", "-w"], "select": ["-w"], "conversions": ["-w"],
              "half": ["-w"], "images/kernel_read_write": ["CL_FILTER_NEAREST"]}
# Suites whose own argument parsing hides the harness's -list (select reads every '-'
# word as its letters; conversions names its tests by type pairs it makes up): run whole,
# in one process, each test's outcome from its JSON.
WHOLE_SUITES = {"select", "conversions"}
SUITE_TESTS = {"thread_dimensions": "quick_", "integer_ops": "quick_"}
# How a suite lists its tests, where it is not the harness's -list: the option and the
# heading of the list (math_brute_force's tests are its functions, printed by -p; half's
# follow its options in -h)
LISTINGS = {"math_brute_force": ("-p", "Math function names:"), "half": ("-h", "-h\tHelp")}
# Folder and executable of a suite where they differ from test_conformance/<s>/test_<s>
EXECUTABLES = {"math_brute_force": "math_brute_force/test_bruteforce",
               "multiple_device_context": "multiple_device_context/test_multiples",
               "images/clGetInfo": "images/clGetInfo/test_cl_get_info",
               "images/kernel_image_methods":
                   "images/kernel_image_methods/test_kernel_image_methods",
               "images/clCopyImage": "images/clCopyImage/test_cl_copy_images",
               "images/clReadWriteImage": "images/clReadWriteImage/test_cl_read_write_images",
               "images/clFillImage": "images/clFillImage/test_cl_fill_images",
               "images/samplerlessReads": "images/samplerlessReads/test_samplerless_reads",
               "images/kernel_read_write": "images/kernel_read_write/test_image_streams"}


# The harness's count of failed sub-tests: a test that prints it failed, though the
# images suites then report the test skipped (their read-write part needs 2.0).
FAILED_SUBTESTS = re.compile(r"^FAILED [1-9][0-9]* of [0-9]+ sub-tests", re.MULTILINE)


class CtsUnavailable(RuntimeError):
    """The CTS could not be configured or built; the message says why."""


@dataclass
class SuiteResult:
    suite: str
    outcomes: dict[str, str] = field(default_factory=dict)   # test -> pass|fail|skip|...
    seconds: float = 0.0

    def count(self, outcome: str) -> int:
        return sum(1 for o in self.outcomes.values() if o == outcome)


def executable(build: Path, suite: str) -> Path:
    return build / "test_conformance" / EXECUTABLES.get(suite, f"{suite}/test_{suite}")


def configure_and_build(cts: Path, build: Path, suites: list[str], jobs: int,
                        headers: Path | None) -> None:
    if not (cts / "test_conformance" / "CMakeLists.txt").is_file():
        raise CtsUnavailable(f"{cts} is not an OpenCL-CTS checkout (no "
                             "test_conformance/CMakeLists.txt)")
    for tool in ("cmake", "ninja"):
        if shutil.which(tool) is None:
            raise CtsUnavailable(f"building the CTS needs {tool}")
    include = headers or Path("/usr/include")
    if not (include / "CL" / "cl.h").is_file():
        raise CtsUnavailable(f"no OpenCL headers in {include} (install opencl-c-headers, "
                             "or give --headers DIR)")
    lib = next((d for d in ("/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib")
                if Path(d, "libOpenCL.so").exists()), None)
    if lib is None:
        raise CtsUnavailable("no libOpenCL.so (install ocl-icd-opencl-dev)")
    build.mkdir(parents=True, exist_ok=True)
    if not (build / "build.ninja").is_file():
        _step(["cmake", "-G", "Ninja", str(cts), f"-DCL_INCLUDE_DIR={include}",
               f"-DCL_LIB_DIR={lib}", "-DOPENCL_LIBRARIES=OpenCL",
               "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_C_FLAGS=-w", "-DCMAKE_CXX_FLAGS=-w"],
              build, "configuring the CTS")
    targets = [str(executable(build, s).relative_to(build)) for s in suites]
    _step(["ninja", f"-j{jobs}", *targets], build, "building the CTS")


def _step(cmd: list[str], cwd: Path, what: str) -> None:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise CtsUnavailable(f"{what} failed ({' '.join(cmd[:2])} in {cwd}):\n"
                             f"{(proc.stdout + proc.stderr)[-3000:]}")


def test_names(exe: Path, suite: str) -> list[str]:
    listing, heading = LISTINGS.get(suite, ("-list", "Test names:"))
    out = subprocess.run([str(exe), listing], capture_output=True, text=True,
                         timeout=120).stdout
    lines = out.split(heading, 1)[-1].splitlines()
    names = [l.strip() for l in lines if l.startswith("\t") and l.strip()]
    prefix = SUITE_TESTS.get(suite)
    return [n for n in names if n.startswith(prefix)] if prefix else names


def run_whole(exe: Path, suite: str, env: dict[str, str],
              timeout: float) -> tuple[dict[str, str], str]:
    """Each test's outcome and the output's tail of a suite run whole."""
    with tempfile.TemporaryDirectory(prefix="cl2c-cts-") as tmp:
        results = Path(tmp) / "results.json"
        proc = subprocess.Popen([str(exe), *SUITE_ARGS.get(suite, [])],
                                env={**env, "CL_CONFORMANCE_RESULTS_FILENAME": str(results)},
                                cwd=exe.parent, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, errors="replace",
                                start_new_session=True)
        try:
            output, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            output, _ = proc.communicate()
            return {suite: "timeout"}, output[-1500:]
        try:
            return json.loads(results.read_text())["results"], output[-1500:]
        except (OSError, ValueError, KeyError):
            return {suite: "crash" if proc.returncode < 0 else "fail"}, output[-1500:]


def run_test(exe: Path, suite: str, test: str, env: dict[str, str],
             timeout: float) -> tuple[str, str]:
    """(outcome, the output's tail) of one test in a process of its own."""
    with tempfile.TemporaryDirectory(prefix="cl2c-cts-") as tmp:
        results = Path(tmp) / "results.json"
        # a session of its own: a hung test is killed with whatever it started
        proc = subprocess.Popen([str(exe), *SUITE_ARGS.get(suite, []), test],
                                env={**env, "CL_CONFORMANCE_RESULTS_FILENAME": str(results)},
                                cwd=exe.parent, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, errors="replace",
                                start_new_session=True)
        try:
            output, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            output, _ = proc.communicate()
            return "timeout", output[-1500:]
        tail = output[-1500:]
        if proc.returncode < 0:
            return "crash", tail
        try:
            said = json.loads(results.read_text())["results"].get(test)
        except (OSError, ValueError, KeyError):
            said = None
        if said is None:
            said = "pass" if proc.returncode == 0 else "fail"
        if FAILED_SUBTESTS.search(output):
            said = "fail"       # whatever the harness says after (images' skip, say)
        return said, tail


def run_suite(build: Path, suite: str, env: dict[str, str], jobs: int, timeout: float,
              tails: dict[str, str], only: list[str] | None = None) -> SuiteResult:
    exe = executable(build, suite)
    result = SuiteResult(suite)
    start = time.monotonic()
    if suite in WHOLE_SUITES:
        outcomes, tail = run_whole(exe, suite, env, timeout)
        result.outcomes = {t: o for t, o in outcomes.items() if not only or t in only}
        if any(o not in ("pass", "skip") for o in result.outcomes.values()):
            tails[suite] = tail
        result.seconds = time.monotonic() - start
        return result
    tests = [t for t in test_names(exe, suite) if not only or t in only]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        done = pool.map(lambda t: (t, *run_test(exe, suite, t, env, timeout)), tests)
        for test, outcome, tail in done:
            result.outcomes[test] = outcome
            if outcome not in ("pass", "skip"):
                tails[f"{suite}/{test}"] = tail
    result.seconds = time.monotonic() - start
    return result


def markdown(results: list[SuiteResult], header: str) -> str:
    lines = [header, "", "| suite | tests | pass | fail | crash | timeout | skip | minutes |",
             "|---|---|---|---|---|---|---|---|"]
    for r in results:
        lines.append(f"| {r.suite} | {len(r.outcomes)} | {r.count('pass')} | "
                     f"{r.count('fail')} | {r.count('crash')} | {r.count('timeout')} | "
                     f"{r.count('skip')} | {r.seconds / 60:.1f} |")
    lines += ["", "Test by test:", ""]
    for r in results:
        bad = {t: o for t, o in r.outcomes.items() if o not in ("pass", "skip")}
        if bad:
            lines.append(f"- **{r.suite}** not passing: " +
                         ", ".join(f"`{t}` ({o})" for t, o in sorted(bad.items())))
        for outcome, word in (("pass", "passed"), ("skip", "skipped")):
            names = sorted(t for t, o in r.outcomes.items() if o == outcome)
            if names:
                lines.append(f"- **{r.suite}** {word}: " + ", ".join(f"`{t}`" for t in names))
    return "\n".join(lines) + "\n"


def saved_results(paths: list[Path]) -> list[SuiteResult]:
    """The suites of runs written with --json, in the order given."""
    results = []
    for path in paths:
        saved = json.loads(path.read_text())
        for suite, outcomes in saved["suites"].items():
            results.append(SuiteResult(suite, outcomes, saved["seconds"].get(suite, 0.0)))
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cts-dir", type=Path, default=os.environ.get("CTS_DIR"),
                        help="an OpenCL-CTS checkout ($CTS_DIR)")
    parser.add_argument("--build-dir", type=Path, default=ROOT / "build" / "cts")
    parser.add_argument("--headers", type=Path, help="OpenCL headers (default /usr/include)")
    parser.add_argument("--suites", nargs="+", default=list(DEFAULT_SUITES))
    parser.add_argument("--tests", nargs="+", help="only these tests (of every suite)")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=600, help="seconds per test")
    parser.add_argument("--no-build", action="store_true", help="run what is built")
    parser.add_argument("--json", type=Path, help="write every test's outcome here")
    parser.add_argument("--markdown", type=Path, help="write the table here")
    parser.add_argument("--from-json", type=Path, nargs="+", metavar="JSON",
                        help="run nothing: the table (--markdown) of runs saved with --json")
    args = parser.parse_args(argv)
    if args.from_json:
        table = markdown(saved_results(args.from_json), "## The last run")
        if args.markdown:
            args.markdown.write_text(table)
        else:
            print(table, end="")
        return 0
    if args.cts_dir is None and not args.no_build:
        print("cts_suite: no CTS checkout: give CTS_DIR=<a checkout of "
              "https://github.com/KhronosGroup/OpenCL-CTS> (make test-cts CTS_DIR=...)",
              file=sys.stderr)
        return 2
    try:
        if not args.no_build:
            configure_and_build(args.cts_dir, args.build_dir, args.suites, args.jobs,
                                args.headers)
    except CtsUnavailable as e:
        print(f"cts_suite: {e}", file=sys.stderr)
        return 2
    from cl2c.platform import icd_folder
    env = {k: v for k, v in os.environ.items() if k != "CL2C_ICD_VERSION"}
    env["OCL_ICD_VENDORS"] = str(icd_folder())
    results, tails = [], {}
    for suite in args.suites:
        if not executable(args.build_dir, suite).is_file():
            print(f"{suite}: not built", flush=True)
            continue
        r = run_suite(args.build_dir, suite, env, args.jobs, args.timeout, tails, args.tests)
        results.append(r)
        print(f"{suite}: {r.count('pass')} passed, {r.count('fail')} failed, "
              f"{r.count('crash')} crashed, {r.count('timeout')} timed out, "
              f"{r.count('skip')} skipped of {len(r.outcomes)} ({r.seconds:.0f} s)",
              flush=True)
    if args.json:
        args.json.write_text(json.dumps({"suites": {r.suite: r.outcomes for r in results},
                                         "seconds": {r.suite: r.seconds for r in results},
                                         "tails": tails}, indent=1))
    if args.markdown:
        args.markdown.write_text(markdown(results, "## The last run"))
    bad = sum(len(r.outcomes) - r.count("pass") - r.count("skip") for r in results)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
