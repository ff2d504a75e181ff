"""The documentation in docs/ cannot drift from the code: every code block of its pages runs
(Sybil; docs/about.md says how each language runs), and the tables written by hand there
(build options, environment variables) are held complete against the code that reads them.
`make docs` builds the site itself."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

sybil = pytest.importorskip("sybil", reason="the docs extra (pip install '.[docs]')")
from sybil.parsers.myst import CodeBlockParser  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.parts)
FILE_LINE = {"python": re.compile(r"#\s*file:\s*(\S+)\s*$"),
             "c": re.compile(r"/\*\s*file:\s*(\S+)\s*\*/\s*$")}
RUN_LANGUAGES = {"python", "sh", "c"}
SHOWN_LANGUAGES = {"text"}


def _file_name(language: str, source: str) -> str | None:
    first = source.split("\n", 1)[0]
    m = FILE_LINE[language].match(first)
    return m.group(1) if m else None


def _run_python(example):
    name = _file_name("python", example.parsed)
    if name:
        Path(name).write_text(example.parsed)
        return
    code = compile(example.parsed, f"{example.path}:{example.line}", "exec")
    exec(code, example.namespace)


def _run_sh(example):
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", example.parsed], env=env,
                          capture_output=True, text=True, timeout=240)
    if done.returncode:
        return (f"sh block at {example.path}:{example.line} exited {done.returncode}\n"
                f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}")


def _write_c(example):
    name = _file_name("c", example.parsed)
    if not name:
        return f"c block at {example.path}:{example.line} does not start with /* file: NAME */"
    Path(name).write_text(example.parsed)


PARSERS = [CodeBlockParser("python", _run_python), CodeBlockParser("sh", _run_sh),
           CodeBlockParser("c", _write_c)]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_page_examples_run(page, tmp_path, monkeypatch):
    """A page's blocks in order, in one namespace, in a folder of their own where the
    repository's bench/ and examples/ are at hand (pages read kernels from them)."""
    for name in ("bench", "examples"):
        (tmp_path / name).symlink_to(REPO / name)
    monkeypatch.chdir(tmp_path)
    document = sybil.Sybil(parsers=PARSERS).parse(page)
    for example in document:
        example.evaluate()


FENCE = re.compile(r"^(`{3,}|~{3,})\s*([^\s`]*)", re.M)


def test_every_code_block_runs_or_is_marked_output():
    """A block of a language that nothing runs would be an example that can drift."""
    wrong = []
    for page in PAGES:
        text = page.read_text()
        fences = FENCE.findall(text)
        opening = fences[0::2]          # fences alternate: an opening, then its closing
        for _, lang in opening:
            if lang.startswith("{"):    # a directive: literalinclude, toctree, cl2c-*, ...
                continue
            if lang not in RUN_LANGUAGES | SHOWN_LANGUAGES:
                wrong.append(f"{page.relative_to(DOCS)}: ```{lang or '(no language)'}")
    assert not wrong, "code blocks neither run nor marked text:\n" + "\n".join(wrong)


def _table_names(page: Path) -> set[str]:
    """The backquoted names of the first column of a page's Markdown table."""
    names = set()
    for line in page.read_text().splitlines():
        if line.startswith("| `"):
            names.update(re.findall(r"`([^`]+)`", line.split("|")[1]))
    return names


# How the code reads an environment variable: os.environ.get("X"), os.environ["X"],
# env.get("X") on a copy of it, C's getenv("X"); and the two tuples of names that
# cl2c/threads.py and cl2c/platform/program_cache.py read in a loop.
ENV_READS = re.compile(r"""(?:environ(?:\.get)?|\benv\.get|getenv)\s*[(\[]\s*["']([A-Z][A-Z0-9_]+)["']""")
ENV_TUPLES = re.compile(r"""^(?:_WAIT_SETTINGS|ENVIRONMENT)\s*=\s*\(([^)]*)\)""", re.M)


def _variables_read_by_code() -> set[str]:
    names = set()
    for folder in ("cl2c", "clruntime", "templates"):
        for path in (REPO / folder).rglob("*"):
            if path.suffix not in (".py", ".c", ".h", ".j2") or not path.is_file():
                continue
            text = path.read_text(errors="replace")
            names.update(ENV_READS.findall(text))
            for group in ENV_TUPLES.findall(text):
                names.update(re.findall(r"""["']([A-Z][A-Z0-9_]+)["']""", group))
    return names


def test_environment_table_is_complete():
    documented = _table_names(DOCS / "reference" / "environment.md")
    read = _variables_read_by_code()
    assert read, "the grep found no variables: ENV_READS no longer matches the code"
    assert read - documented == set(), "read by the code, missing from the table"
    assert documented - read == set(), "in the table, read nowhere in the code"


def _documented_options() -> set[str]:
    return {re.split(r"[ =]", n)[0] + ("=" if "=" in n else "")
            for n in _table_names(DOCS / "reference" / "options.md")}


def test_options_table_is_complete():
    """Each option word that cl2c/options.py matches has its row, and each row's option
    is accepted by the parser."""
    from cl2c import options
    source = Path(options.__file__).read_text()
    parser = source[source.index("def parse_options"):source.index("def _removed_extensions")]
    matched = set(re.findall(r"""w(?:\.startswith\(| ==\s*)"(-[^"]*)""", parser))
    documented = _documented_options()
    prefixes = {m for m in matched if m in ("-D", "-I")}
    assert matched - prefixes - documented == set(), "options.py accepts, the table lacks"
    assert {"-D", "-I"} <= documented
    samples = {"-D": "-DN=4", "-I": "-I.", "-cl-std=": "-cl-std=CL2.0",
               "-cl-ext=": "-cl-ext=-cl_khr_fp64", "-cl2c-schedule=": "-cl2c-schedule=fibers",
               "-cl2c-check=": "-cl2c-check=collect", "-cl2c-sanitize=": "-cl2c-sanitize=undefined",
               "-cl2c-fiber-stack=": "-cl2c-fiber-stack=64K"}
    for option in documented:
        options.parse_options(samples.get(option, option))    # a BuildError fails the test


def test_readme_python_example_runs(tmp_path, monkeypatch):
    """The README's Python example (its sh and C lines are the docs' C API page, which runs
    them whole)."""
    monkeypatch.chdir(tmp_path)
    document = sybil.Sybil(parsers=[CodeBlockParser("python", _run_python)]).parse(
        REPO / "README.md")
    examples = list(document)
    assert examples, "the README has no Python example"
    for example in examples:
        example.evaluate()
    y, x = document.namespace["y"], document.namespace["x"]
    assert (y == 2 * x + 1).all()


def test_the_split_figure_is_current():
    """docs/split-jacobi.svg is what docs/split_figure.py draws from today's generated C:
    inside the grid, all 16 x 16 work-items of a group (the halo's columns have loops of
    their own); past its edge (40 = 2 * 16 + 8), the middle stops where gx < nx does."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("split_figure", DOCS / "split_figure.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    c = script.c_source()
    assert script.ranges(c, (1, 1)) == ((0, 16), [(0, 16)] * 3)
    assert script.ranges(c, (2, 2)) == ((0, 8), [(0, 8)] * 3)
    assert (DOCS / "split-jacobi.svg").read_text() == script.svg(c), \
        "run python docs/split_figure.py"


def test_committed_runs_hold_no_machine_paths():
    """docs/data's runs say where they ran by their machine's facts, not by its paths
    (bench.portable writes them so): the repository's files relative to its root."""
    found = {}
    for path in sorted((DOCS / "data").glob("*.json")):
        hits = re.findall(r'(?<![\w.~-])/(?:home|root|work|tmp|opt|usr|var)/[^\s"]*',
                          path.read_text())
        if hits:
            found[path.name] = hits[:3]
    assert not found, found


# A figure of speed: a time (ms, us, µs, s), a ratio (1.5x, 20x) or a rate.
SPEED = re.compile(r"\b\d+(?:\.\d+)?(?:-\d+(?:\.\d+)?)? ?(?:ms|us|µs|s|seconds)\b"
                   r"|\b\d+(?:\.\d+)?x\b|\d ?(?:GB/s|GFLOP)")
CITED = re.compile(r"docs/data/[\w{},.*-]+\.json")
# A log of conformance runs: its times are the tests' own run times and time limits.
NOT_CLAIMS = {"cts-results.md"}


def _paragraphs(text: str):
    """(line, paragraph) of a page's prose, blank-line separated; a fenced block is one
    paragraph (a directive names its runs in its arguments), shown code none."""
    para, start, fence = [], 0, None
    for n, line in enumerate(text.split("\n") + [""], 1):
        stripped = line.strip()
        if fence is not None:
            para.append(line)
            if stripped.startswith(fence):
                fence = None
            continue
        if stripped.startswith("```"):
            fence = stripped[:len(stripped) - len(stripped.lstrip("`"))]
            if not para:
                start = n
            para.append(line)
            continue
        if stripped:
            if not para:
                start = n
            para.append(line)
        elif para:
            block = "\n".join(para)
            if not re.match(r"\s*```(?!\{)", block):     # shown code is no claim
                yield start, block
            para = []


def _expand(pattern: str) -> list[str]:
    """A shell brace pattern's alternatives ({a,b} only)."""
    m = re.search(r"\{([^{}]*)\}", pattern)
    if not m:
        return [pattern]
    return [x for alt in m.group(1).split(",")
            for x in _expand(pattern[:m.start()] + alt + pattern[m.end():])]


def test_speed_claims_cite_committed_runs():
    """Every figure of speed in the docs, the READMEs and ARCHITECTURE.md comes from a run
    committed in docs/data: its paragraph (or, for a list's items, the paragraph that
    opens the list) names the JSON, and each file or pattern it names is there."""
    uncited, missing = [], []
    pages = [p for p in PAGES if p.name not in NOT_CLAIMS] + [
        REPO / "README.md", REPO / "ARCHITECTURE.md", REPO / "bench" / "README.md",
        *sorted((REPO / "examples").glob("*/README.md"))]
    for page in pages:
        opener_cited = False
        for line, para in _paragraphs(page.read_text()):
            cites = CITED.findall(para)
            for pattern in cites:
                if not any(list(REPO.glob(p)) for p in _expand(pattern)):
                    missing.append(f"{page.relative_to(REPO)}:{line}: {pattern}")
            is_item = re.match(r"\s*(?:-|\*|\d+\.) ", para) is not None
            cited = bool(cites) or (is_item and opener_cited)
            if SPEED.search(para) and not cited:
                uncited.append(f"{page.relative_to(REPO)}:{line}: "
                               f"{SPEED.search(para).group(0)!r} in {para[:70]!r}")
            if not is_item:
                opener_cited = bool(cites) and para.rstrip().endswith(":")
    assert not missing, "cited runs that docs/data does not hold:\n" + "\n".join(missing)
    assert not uncited, ("figures of speed that name no committed run (docs/data/*.json):\n"
                         + "\n".join(uncited))
