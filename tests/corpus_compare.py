"""Translate the whole kernel corpus at two revisions and compare the C, class by class.

For a change that must not change behaviour (issue 36: the work-group stage rebuilt as IR),
or one whose changes must be listed and explained. Every corpus kernel (the fuzzer's
seeds: tests/kernels, bench, examples and piglit's OpenCL programs, with their build
options) is translated under each schedule (auto, loops, regions, fibers, and checking
mode under auto) by each revision's own translator, in a subprocess whose PYTHONPATH is
that revision's tree (a detached git worktree under the cache folder). Translation only:
nothing is compiled, except with ``--run-sample``.

The C is normalised (``#line`` lines dropped, whitespace collapsed) and cut into parts by
the names of its top-level definitions: the header comment (each kernel's schedule and
why), the preamble (includes, helper macros), the work-item functions and the kernel's
helpers ("items"), the work-group functions (``__group``, ``__items``, ``__interleaved``,
``__fiber``, ``__locals``), the entry (``cl2c_kernel_*``, ``cl2c_argv_*``: how the launch
hands out groups) and the metadata. Each pair of translations falls in the first class
that fits:

  identical         the same C, byte for byte (or the same refusal)
  line-only         the same once normalised
  comment-only      the same once comments are dropped too
  layout-only       the same tokens but for braces (a block around one statement or not),
                    the definitions in another order
  acceptance        one revision accepts the kernel, the other refuses it
  refusal-text      both refuse it, with different messages
  schedule          a kernel's schedule (in the header comment) differs
  loop-structure    the loops (for/while/do, omp pragmas, their nesting) of the work-item
                    or work-group functions differ
  work-group-code   the same loops; the work-group functions differ
  item-code         the work-item functions or helpers differ
  header-text       the functions are the same; the header's reasons differ
  launch-only       only the entry, the metadata or the preamble differ

Usage::

    python tests/corpus_compare.py --before 17a3aa9 --after main --report report.md
    python tests/corpus_compare.py --before REV --after REV --schedules auto,regions \\
        --only 'tests/kernels' --jobs 2 --run-sample 40 --report FILE

Results are kept per revision (keyed by source, options and schedule) in the cache
folder, so a second report costs nothing. The piglit corpus comes from
``$CL2C_PIGLIT_DIR`` or Debian's package (tests/piglit/corpus.py).
"""
from __future__ import annotations

import argparse
import base64
import collections
import difflib
import hashlib
import json
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCHEDULES = {                  # name -> the build option it adds
    "auto": "",
    "loops": "-cl2c-schedule=loops",
    "regions": "-cl2c-schedule=regions",
    "fibers": "-cl2c-schedule=fibers",
    "check": "-cl2c-check",    # checking mode, schedule left to cl2c
}
CLASSES = ("identical", "line-only", "comment-only", "layout-only", "acceptance", "refusal-text", "schedule",
           "loop-structure", "work-group-code", "item-code", "header-text", "launch-only")
JOB_TIMEOUT_S = 300            # one translation; past it the worker is restarted
DEADLINE = [float("inf")]      # time.time() past which no worker goes on (--time-limit)


# ---- the worker: runs under one revision's PYTHONPATH --------------------------------------
def worker(jobs_file: str) -> None:
    """Translate each job of ``jobs_file`` (JSON lines), printing one JSON line each."""
    sys.path = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]
    from cl2c.diagnostics import BuildError
    from cl2c.pipeline import translate
    for line in open(jobs_file, encoding="utf-8"):
        job = json.loads(line)
        print(json.dumps({"start": job["key"]}), flush=True)
        out = {"key": job["key"]}
        try:
            tr = translate(job["text"], job["source"], job["options"])
            out["c"] = _pack(tr.c_source)
            out["warnings"] = tr.warnings or ""
        except BuildError as e:
            out["error"] = str(e)
        except Exception as e:                 # a crash of the translator: a result too
            out["error"] = f"CRASH {type(e).__name__}: {e}"
        print(json.dumps(out), flush=True)


def run_sample_worker(jobs_file: str) -> None:
    """Build and run piglit files (the current checkout's runner, this revision's cl2c)."""
    sys.path = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]
    sys.path.append(str(Path(__file__).parent))
    from piglit import runner
    base_options = runner.build_options
    for line in open(jobs_file, encoding="utf-8"):
        job = json.loads(line)
        print(json.dumps({"start": job["key"]}), flush=True)
        extra = SCHEDULES[job["schedule"]]
        runner.build_options = lambda cfg, root, clc=None: \
            (base_options(cfg, root, clc) + " " + extra).strip()
        try:
            r = runner.run_file(Path(job["root"]), job["rel"])
            out = {"key": job["key"], "status": r.status, "message": r.message[:300],
                   "subtests": [(s.name, s.status) for s in r.subtests]}
        except Exception as e:
            out = {"key": job["key"], "status": "crash", "message": f"{type(e).__name__}: {e}",
                   "subtests": []}
        print(json.dumps(out), flush=True)


def _pack(text: str) -> str:
    return base64.b64encode(zlib.compress(text.encode(), 6)).decode()


def _unpack(data: str) -> str:
    return zlib.decompress(base64.b64decode(data)).decode()


# ---- revisions -----------------------------------------------------------------------------
def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True,
                          text=True).stdout.strip()


def checkout(rev: str, cache: Path) -> tuple[str, Path]:
    """(full hash, a detached worktree of it under ``cache``)."""
    sha = _git("rev-parse", "--verify", f"{rev}^{{commit}}")
    tree = cache / f"tree-{sha[:12]}"
    if not (tree / "cl2c").is_dir():
        subprocess.run(["git", "worktree", "add", "--detach", "-f", str(tree), sha], cwd=ROOT,
                       check=True, capture_output=True)
    return sha, tree


# ---- the corpus ----------------------------------------------------------------------------
def corpus() -> list[dict]:
    """The fuzzer's seeds: the project's kernels and piglit's, each once (by source and
    options), with a label and the source name to translate under."""
    sys.path.insert(0, str(ROOT / "tests"))
    from fuzz.corpus import piglit_seeds, project_seeds
    from piglit.corpus import CorpusUnavailable, corpus_root
    try:
        proot = corpus_root()
    except CorpusUnavailable as e:
        print(f"corpus_compare: piglit's corpus is unavailable ({e})", file=sys.stderr)
        proot = None
    seen, labels, out = set(), set(), []
    for group, seeds in (("project", project_seeds()), ("piglit", piglit_seeds())):
        for s in seeds:
            ident = (s.name, s.options, s.text)
            if ident in seen:
                continue
            seen.add(ident)
            label = s.name if s.name not in labels else f"{s.name} [{s.options}]"
            labels.add(label)
            source = s.name
            if group == "piglit" and proot is not None and not os.path.isabs(s.name):
                source = str(proot / s.name)
            elif group == "project":
                source = str(ROOT / s.name)
            out.append({"group": group, "label": label, "source": source,
                        "text": s.text, "options": s.options})
    return out


def job_key(item: dict, schedule: str) -> str:
    h = hashlib.sha1(f"{item['source']}\0{item['options']}\0{item['text']}".encode())
    return f"{h.hexdigest()[:16]}:{schedule}"


# ---- running workers -----------------------------------------------------------------------
def run_jobs(mode: str, tree: Path, jobs: list[dict], nworkers: int, cache_file: Path,
             extra_env: dict | None = None, what: str = "") -> dict:
    """Results by key: those in ``cache_file`` plus the jobs not there yet, run by
    ``nworkers`` workers under ``tree`` (each result appended to the cache file)."""
    results = {}
    if cache_file.exists():
        for line in cache_file.read_text(encoding="utf-8").splitlines():
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                continue               # a line cut short by an interrupted run
            results[r["key"]] = r
    todo = [j for j in jobs if j["key"] not in results]
    if not todo:
        return results
    # smallest first (a run cut short by --time-limit has compared the most programs),
    # dealt round-robin
    todo.sort(key=lambda j: len(j.get("text", "")))
    shards = [todo[k::nworkers] for k in range(nworkers)]
    lock = threading.Lock()
    done = [0]
    t0 = time.time()
    with open(cache_file, "a", encoding="utf-8") as sink:
        def record(r):
            with lock:
                results[r["key"]] = r
                sink.write(json.dumps(r) + "\n")
                sink.flush()
                done[0] += 1
                if done[0] % 100 == 0 or done[0] == len(todo):
                    print(f"  {what}: {done[0]}/{len(todo)} ({time.time() - t0:.0f} s)",
                          file=sys.stderr, flush=True)
        threads = [threading.Thread(target=_drive, args=(mode, tree, shard, record,
                                                          extra_env or {}))
                   for shard in shards if shard]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    return results


def _drive(mode: str, tree: Path, shard: list[dict], record, extra_env: dict) -> None:
    """One worker over ``shard``; restarted past a job that hangs or kills it."""
    env = dict(os.environ, PYTHONPATH=str(tree), **extra_env)
    pending = list(shard)
    while pending:
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
            for j in pending:
                f.write(json.dumps(j) + "\n")
        proc = subprocess.Popen([sys.executable, __file__, f"--{mode}", f.name], env=env,
                                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                text=True)
        lines = queue.Queue()
        threading.Thread(target=lambda: ([lines.put(x) for x in proc.stdout], lines.put(None)),
                         daemon=True).start()
        current, finished, last = None, set(), time.time()
        while True:
            if time.time() > DEADLINE[0]:
                proc.kill()
                proc.wait()
                os.unlink(f.name)
                return
            try:
                line = lines.get(timeout=min(JOB_TIMEOUT_S, 5))
            except queue.Empty:
                if time.time() - last < JOB_TIMEOUT_S:
                    continue
                proc.kill()
                record({"key": current, "error": f"TIMEOUT after {JOB_TIMEOUT_S} s",
                        "status": "timeout", "subtests": []})
                finished.add(current)
                break
            if line is None:
                proc.wait()
                if current is not None and current not in finished:
                    record({"key": current, "error": f"CRASH worker exit {proc.returncode}",
                            "status": "crash", "subtests": []})
                    finished.add(current)
                break
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                continue               # something the translator printed itself
            if "start" in r:
                current, last = r["start"], time.time()
            else:
                record(r)
                finished.add(r["key"])
        os.unlink(f.name)
        proc.wait()
        pending = [j for j in pending if j["key"] not in finished]


# ---- comparing -----------------------------------------------------------------------------
_HEADER_KERNEL = re.compile(r"^ \*   (\w+): (\w+)(?: \((.*)\))?$")
_LOOP = re.compile(r"^(?:(for|while|do)\b|#\s*pragma\s+omp\b.*)")
_NAME = re.compile(r"(\w+)\s*(?:\(|\[|=|\{|;)")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"' + r"|'(?:[^'\\]|\\.)*'")
# the parts of a generated file, by the names of its top-level definitions
PARTS = ("header", "preamble", "items", "work-group", "entry", "metadata")


def kernel_schedules(c: str) -> dict:
    """Kernel -> schedule name, from the file's header comment."""
    out = {}
    for line in c.split("*/", 1)[0].splitlines():
        m = _HEADER_KERNEL.match(line)
        if m:
            out[m.group(1)] = m.group(2)
    return out


def normalise(c: str) -> list[str]:
    """The C without #line lines, blank lines and differences of whitespace."""
    out = []
    for line in c.splitlines():
        s = line.strip()
        if not s or s.startswith("#line "):
            continue
        out.append(" ".join(s.split()))
    return out


def _part(name: str, first: bool, comment_only: bool) -> str:
    if comment_only:
        return "header" if first else "preamble"
    if name.startswith(("cl2c_args_", "cl2c_info_", "cl2c_kernel_list", "cl2c_program_")):
        return "metadata"
    if name.startswith(("cl2c_kernel_", "cl2c_argv_")):
        return "entry"                 # the launch: groups handed to threads
    if re.search(r"__(group\w*|items\w*|interleaved\w*|fiber|locals|wg\w*)$", name):
        return "work-group"            # the work-group functions and their data
    if name.startswith(("CL2C_", "cl2c_ck_")) or name in (
            "", "include", "ifdef", "endif", "pragma", "if", "define", "undef", "else",
            "ifndef", "elif"):
        return "preamble"
    return "items"                     # the work-item functions and the kernel's helpers


def sections(lines: list[str]) -> list[tuple[str, str, list[str]]]:
    """Normalised C cut into its top-level units: (part, name, lines); comments go with
    the unit after them (the file's first comment is the header)."""
    out, unit, depth, in_comment, first = [], [], 0, False, True
    for s in lines:
        unit.append(s)
        code = _STRING.sub('""', s)
        if in_comment:
            if "*/" not in code:
                continue
            code, in_comment = code.split("*/", 1)[1], False
        code = re.sub(r"/\*.*?\*/", "", code)
        if "/*" in code:
            code, in_comment = code.split("/*", 1)[0], True
        code = code.split("//", 1)[0]
        depth += code.count("{") - code.count("}")
        if first and not in_comment and s.endswith("*/") and depth == 0 and \
                all(x.startswith(("/*", "*")) for x in unit):
            out.append(("header", "header", unit))
            unit, first = [], False
            continue
        if depth == 0 and not in_comment and code.strip() and (
                code.rstrip().endswith((";", "}", ")")) and not code.lstrip().startswith("}")
                or code.rstrip().endswith(("};", "}")) or code.lstrip().startswith("#")):
            if code.rstrip().endswith(")") and not code.lstrip().startswith(("#", "CL2C_")):
                continue               # a function's head: its body follows
            body = [x for x in unit if not x.startswith(("/*", "*"))]
            m = _NAME.search(body[0].lstrip("#") if body else "")
            name = m.group(1) if m else ""
            out.append((_part(name, False, False), name, unit))
            unit, first = [], False
    if unit:
        out.append(("preamble", "", unit))
    return out


_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|' + r"'(?:[^'\\\n]|\\.)*'|#[^\n]*|\w+|\S")


def loop_nest(lines: list[str]) -> str:
    """The loops of one function as a bracketed tree: ``for``/``while``/``do`` and omp
    pragmas, nested as the statements nest, whatever the braces (a loop of one statement
    with or without a block) and the bounds."""
    code = "\n".join(x for x in lines if not x.startswith("#line"))
    code = re.sub(r"/\*.*?\*/", " ", code, flags=re.S)
    toks = [t for t in _TOKEN.findall(code)]
    toks = [t if not t.startswith("#") else
            ("#omp " + " ".join(w for w in t.split()[2:] if "(" not in w and ")" not in w)
             if "omp" in t else "") for t in toks]
    toks = [t for t in toks if t]
    out = []

    def skip_parens(i):                # at "(": past its ")"
        depth = 0
        while i < len(toks):
            depth += (toks[i] == "(") - (toks[i] == ")")
            i += 1
            if depth == 0:
                break
        return i

    def statement(i):                  # one statement from toks[i]; returns past it
        t = toks[i]
        if t.startswith("#omp"):
            out.append(t.replace(" ", "_"))
            alone = t.split()[1:2] in (["barrier"], ["flush"], ["taskwait"], [])
            return i + 1 if alone or i + 1 >= len(toks) else statement(i + 1)
        if t == "{":
            i += 1
            while i < len(toks) and toks[i] != "}":
                i = statement(i)
            return i + 1
        if t in ("for", "while") and i + 1 < len(toks) and toks[i + 1] == "(":
            out.append(t + "[")
            i = statement(skip_parens(i + 1)) if skip_parens(i + 1) < len(toks) else len(toks)
            out.append("]")
            return i
        if t == "do":
            out.append("do[")
            i = statement(i + 1)
            out.append("]")
            while i < len(toks) and toks[i] != ";":
                i += 1
            return i + 1
        if t in ("if", "switch") and i + 1 < len(toks) and toks[i + 1] == "(":
            i = statement(skip_parens(i + 1))
            if t == "if" and i < len(toks) and toks[i] == "else":
                i = statement(i + 1)
            return i
        depth = 0                      # an expression or declaration, to its ";"
        while i < len(toks):
            depth += (toks[i] in "({[") - (toks[i] in ")}]")
            i += 1
            if depth <= 0 and toks[i - 1] == ";" or depth < 0:
                return i - (depth < 0)
        return i

    i = toks.index("{") if "{" in toks else len(toks)
    while i < len(toks):
        i = statement(i)
    return " ".join(out)


def loop_skeleton(secs, parts=("items", "work-group")) -> dict:
    """Function name -> its loop nest, for the units of ``parts``."""
    return {f"{part} {name}": loop_nest(lines) for part, name, lines in secs
            if part in parts and "{" in "".join(lines)}


def part_lines(secs, parts) -> list[str]:
    """The lines of the units of ``parts``, the units sorted by name (an order that
    changed is no change)."""
    units = sorted((name, lines) for part, name, lines in secs if part in parts)
    return [x for _, lines in units for x in lines]


def _uncommented(lines: list[str]) -> list[str]:
    text = re.sub(r"/\*.*?\*/", " ", "\n".join(lines), flags=re.S)
    return [" ".join(x.split()) for x in text.splitlines() if x.strip()]


def _unbraced(secs) -> list[str]:
    """The tokens of the units sorted by name, less braces: the same C but for blocks
    around single statements and the order of the definitions."""
    text = "\n".join(_uncommented(part_lines(secs, PARTS)))
    return [t for t in _TOKEN.findall(text) if t not in "{}"]


def nest_changes(xa, xb) -> list[str]:
    """How the loop nests of the work-item and work-group functions changed, one line a
    function, the kernel's name in a work-group function's name as K."""
    ka, kb = loop_skeleton(xa), loop_skeleton(xb)
    out = []
    for name in sorted(set(ka) | set(kb)):
        if ka.get(name) != kb.get(name):
            generic = re.sub(r" \w+?__", " K__", name)
            out.append(f"{generic}: [{ka.get(name, 'absent')}] -> [{kb.get(name, 'absent')}]")
    return out


def classify(a: dict, b: dict) -> tuple[str, str, tuple]:
    """(class, detail, the parts that show it) of a pair of results."""
    ea, eb = a.get("error"), b.get("error")
    if ea is not None or eb is not None:
        if ea is not None and eb is not None:
            return ("identical", "", ()) if ea == eb else ("refusal-text", "", ())
        return "acceptance", ("refused before" if ea is not None else "refused after"), ()
    ca, cb = _unpack(a["c"]), _unpack(b["c"])
    if ca == cb:
        return "identical", "", ()
    na, nb = normalise(ca), normalise(cb)
    if na == nb:
        return "line-only", "", PARTS
    if _uncommented(na) == _uncommented(nb):
        return "comment-only", "", PARTS
    sa, sb = kernel_schedules(ca), kernel_schedules(cb)
    if sa != sb:
        moved = [f"{k}: {sa.get(k)} -> {sb.get(k)}" for k in sorted(set(sa) | set(sb))
                 if sa.get(k) != sb.get(k)]
        return "schedule", "; ".join(moved), PARTS
    xa, xb = sections(na), sections(nb)
    if _unbraced(xa) == _unbraced(xb):
        return "layout-only", "", PARTS
    changed = tuple(p for p in PARTS if part_lines(xa, (p,)) != part_lines(xb, (p,)))
    detail = "+".join(changed)
    if loop_skeleton(xa) != loop_skeleton(xb):
        changes = sorted(set(nest_changes(xa, xb)))
        return "loop-structure", "; ".join(changes[:2]) + (f"; {len(changes) - 2} more"
                                                          if len(changes) > 2 else ""), \
            ("items", "work-group")
    if "work-group" in changed:
        return "work-group-code", detail, ("work-group",)
    if "items" in changed:
        return "item-code", detail, ("items",)
    if "header" in changed:
        return "header-text", detail, ("header",)
    return "launch-only", detail, changed


def _part_text(res: dict, parts: tuple) -> list[str]:
    return part_lines(sections(normalise(_unpack(res["c"]))), parts)


def diff_excerpt(a: dict, b: dict, parts: tuple, n: int = 24) -> str:
    """The start of the diff of ``parts`` of the two translations (normalised)."""
    if a.get("error") is not None or b.get("error") is not None:
        return (f"- {_first(a.get('error'))}\n+ {_first(b.get('error'))}")
    lines = list(difflib.unified_diff(_part_text(a, parts), _part_text(b, parts),
                                      lineterm="", n=1))[2:]
    return "\n".join(lines[:n]) + ("\n..." if len(lines) > n else "")


def changed_lines(a: dict, b: dict, parts: tuple) -> list[str]:
    """The lines of ``parts`` one side has and the other has not (signs kept), numbers
    as N."""
    out = []
    for x in difflib.unified_diff(_part_text(a, parts), _part_text(b, parts), lineterm="",
                                  n=0):
        if x[:1] in "+-" and not x.startswith(("+++", "---")):
            out.append(x[0] + " " + re.sub(r"\b\d+\b", "N", x[1:])[:160])
    return out


def _first(text) -> str:
    if text is None:
        return "(accepted)"
    lines = [x for x in str(text).splitlines() if "error" in x] or str(text).splitlines()
    return lines[0][:200] if lines else ""


# ---- the report ----------------------------------------------------------------------------
def report(args, items, schedules, before, after, res_a, res_b, sample) -> str:
    compared = sum(job_key(i, s) in res_a and job_key(i, s) in res_b
                   for i in items for s in schedules)
    out = [f"# Corpus comparison: {before[:9]} -> {after[:9]}", "",
           f"{len(items)} corpus programs "
           f"({sum(i['group'] == 'project' for i in items)} of the project, "
           f"{sum(i['group'] == 'piglit' for i in items)} of piglit), schedules "
           f"{', '.join(schedules)}: {len(items) * len(schedules)} translations a revision. "
           "C normalised: #line lines dropped, whitespace collapsed (no clang-format).", "",
           f"Pairs compared (both revisions translated): {compared} of "
           f"{len(items) * len(schedules)}.", "",
           "## Accepted / refused", "",
           "| schedule | group | accepted before | accepted after | refused before | "
           "refused after | crashes before | crashes after |", "|---|---|---|---|---|---|---|---|"]
    for s in schedules:
        for g in ("project", "piglit"):
            rows = [(res_a[job_key(i, s)], res_b[job_key(i, s)])
                    for i in items if i["group"] == g
                    and job_key(i, s) in res_a and job_key(i, s) in res_b]
            acc = [sum(r[k].get("error") is None for r in rows) for k in (0, 1)]
            crash = [sum(str(r[k].get("error", "")).startswith(("CRASH", "TIMEOUT"))
                         for r in rows) for k in (0, 1)]
            out.append(f"| {s} | {g} | {acc[0]} | {acc[1]} | {len(rows) - acc[0]} | "
                       f"{len(rows) - acc[1]} | {crash[0]} | {crash[1]} |")
    table = collections.defaultdict(collections.Counter)
    part_table = {p: collections.Counter() for p in PARTS}
    examples = collections.defaultdict(list)
    patterns = collections.defaultdict(collections.Counter)
    details = []
    for i in items:
        for s in schedules:
            a, b = res_a.get(job_key(i, s)), res_b.get(job_key(i, s))
            if a is None or b is None:
                continue
            cls, detail, parts = classify(a, b)
            table[s][cls] += 1
            if a.get("error") is None and b.get("error") is None:
                xa, xb = (sections(normalise(_unpack(r["c"]))) for r in (a, b))
                for part in PARTS:
                    la, lb = part_lines(xa, (part,)), part_lines(xb, (part,))
                    unbraced = [[t for t in _TOKEN.findall("\n".join(_uncommented(x)))
                                 if t not in "{}"] for x in (la, lb)]
                    part_table[part]["same" if la == lb else "layout"
                                     if unbraced[0] == unbraced[1] else "changed"] += 1
            if cls == "identical":
                continue
            details.append({"label": i["label"], "schedule": s, "class": cls,
                            "detail": detail})
            if cls == "loop-structure":
                for line in set(nest_changes(sections(normalise(_unpack(a["c"]))),
                                             sections(normalise(_unpack(b["c"]))))):
                    patterns[cls][line] += 1
            elif cls in ("line-only", "acceptance", "refusal-text"):
                patterns[cls][detail or _first(a.get("error")) + " | " +
                              _first(b.get("error"))] += 1
            else:
                for line in set(changed_lines(a, b, parts)):
                    patterns[cls][line] += 1
            if len(examples[cls]) < args.examples:
                examples[cls].append((i, s, detail, diff_excerpt(a, b, parts)))
    out += ["", "## Each part of the C, in the pairs both revisions accept", "",
            "Whatever the class of the whole file: a part the same, the same but for braces "
            "and the order of definitions (layout), or changed.", "",
            "| part | same | layout | changed |", "|---|---|---|---|"]
    for part, counts in part_table.items():
        out.append(f"| {part} | {counts['same']} | {counts['layout']} | {counts['changed']} |")
    out += ["", "## Classes", "", "| schedule | " + " | ".join(CLASSES) + " |",
            "|---|" + "---|" * len(CLASSES)]
    for s in schedules:
        out.append(f"| {s} | " + " | ".join(str(table[s][c]) for c in CLASSES) + " |")
    total = collections.Counter()
    for s in schedules:
        total.update(table[s])
    out.append("| all | " + " | ".join(str(total[c]) for c in CLASSES) + " |")
    for cls in CLASSES[1:]:
        if not examples[cls]:
            continue
        out += ["", f"### {cls} ({total[cls]})", "", "Most common changed lines "
                "(translations holding each):", "", "```"]
        out += [f"{n:5d}  {line}" for line, n in patterns[cls].most_common(args.patterns)]
        out += ["```", ""]
        for i, s, detail, excerpt in examples[cls]:
            out += [f"- `{i['label']}` ({s}{', ' + i['options'] if i['options'] else ''})"
                    + (f": {detail}" if detail else ""), "", "```diff", excerpt, "```", ""]
    if sample is not None:
        out += ["", "## Outputs of a sample, run", ""] + sample
    if args.details:
        Path(args.details).write_text(json.dumps(details, indent=1), encoding="utf-8")
        out += ["", f"Every non-identical pair: {args.details}."]
    return "\n".join(out) + "\n"


def run_sample(args, items, schedules, trees, cache) -> list[str]:
    """Build and run ``args.run_sample`` piglit files with [test] sections under each
    schedule at both revisions; compare the statuses of their sub-tests."""
    sys.path.insert(0, str(ROOT / "tests"))
    from piglit import runner
    from piglit.corpus import corpus_root
    root = corpus_root()
    chosen = []
    for i in items:
        if i["group"] != "piglit" or not i["source"].endswith(".cl"):
            continue
        rel = os.path.relpath(i["source"], root)
        try:
            cfg, _, _ = runner.load(root / rel)
        except Exception:
            continue
        if cfg.tests and not cfg.expect_build_fail and "image" not in rel:
            chosen.append(rel)
    step = max(1, len(chosen) // args.run_sample)
    chosen = chosen[::step][:args.run_sample]
    results = []
    for sha, tree in trees:
        jobs = [{"key": f"{rel}:{s}", "rel": rel, "root": str(root), "schedule": s}
                for rel in chosen for s in schedules]
        results.append(run_jobs("run-worker", tree, jobs, args.jobs,
                                cache / f"run-{sha[:12]}.jsonl",
                                {"CL2C_CACHE_DIR": str(cache / f"build-{sha[:12]}")},
                                f"run {sha[:9]}"))
    same, diff, counts = 0, [], [collections.Counter(), collections.Counter()]
    for rel in chosen:
        for s in schedules:
            ra, rb = (r.get(f"{rel}:{s}", {}) for r in results)
            counts[0][ra.get("status")] += 1
            counts[1][rb.get("status")] += 1
            if (ra.get("status"), ra.get("subtests")) == (rb.get("status"), rb.get("subtests")):
                same += 1
            else:
                diff.append(f"- `{rel}` ({s}): {ra.get('status')} -> {rb.get('status')}: "
                            f"{rb.get('message') or ra.get('message')}")
    return [f"{len(chosen)} piglit files with [test] sections (one in {step}, no images), "
            f"under {', '.join(schedules)}, built and run by tests/piglit/runner.py "
            f"(its expected outputs, strictly compared) at both revisions.", "",
            f"File statuses before: {dict(counts[0])}; after: {dict(counts[1])}.",
            f"Same statuses of every sub-test: {same} of {same + len(diff)} runs.", ""] + diff


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", required=True, help="a git revision")
    ap.add_argument("--after", required=True, help="a git revision")
    ap.add_argument("--schedules", default=",".join(SCHEDULES),
                    help=f"comma-separated, of {', '.join(SCHEDULES)} (default: all)")
    ap.add_argument("--jobs", type=int, default=2,
                    help="workers in all, half for each revision (default 2)")
    ap.add_argument("--only", default="", help="a regular expression the labels must match")
    ap.add_argument("--report", help="the Markdown report to write")
    ap.add_argument("--details", help="also write every non-identical pair as JSON here")
    ap.add_argument("--examples", type=int, default=4, help="examples a class (default 4)")
    ap.add_argument("--patterns", type=int, default=12,
                    help="most common changed lines a class (default 12)")
    ap.add_argument("--run-sample", type=int, default=0, metavar="N",
                    help="also build and run N piglit files at both revisions")
    ap.add_argument("--time-limit", type=float, default=0, metavar="S",
                    help="stop translating after S seconds and report the pairs done")
    ap.add_argument("--show", metavar="REGEX", help="print the whole diffs of the pairs whose "
                    "'label:schedule' matches, instead of a report")
    ap.add_argument("--cache", default=str(Path(tempfile.gettempdir()) / "cl2c-corpus-compare"),
                    help="worktrees and results (default: $TMPDIR/cl2c-corpus-compare)")
    args = ap.parse_args(argv)
    if not args.report and not args.show:
        ap.error("give --report FILE (or --show REGEX)")
    schedules = [s for s in args.schedules.split(",") if s]
    bad = [s for s in schedules if s not in SCHEDULES]
    if bad:
        ap.error(f"unknown schedule {bad[0]!r}: choose from {', '.join(SCHEDULES)}")
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    trees = [checkout(args.before, cache), checkout(args.after, cache)]
    items = [i for i in corpus() if re.search(args.only, i["label"])]
    jobs = [{"key": job_key(i, s), "source": i["source"], "text": i["text"],
             "options": (i["options"] + " " + SCHEDULES[s]).strip()}
            for i in items for s in schedules]
    if args.time_limit:
        DEADLINE[0] = time.time() + args.time_limit
    # both revisions at once, half the workers each: a run cut short has pairs to compare
    res = [{}, {}]

    def translate_at(k):
        sha, tree = trees[k]
        res[k] = run_jobs("worker", tree, jobs, max(1, args.jobs // 2),
                          cache / f"c-{sha[:12]}.jsonl", what=f"translate {sha[:9]}")
    threads = [threading.Thread(target=translate_at, args=(k,)) for k in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if args.show:
        for i in items:
            for s in schedules:
                if re.search(args.show, f"{i['label']}:{s}"):
                    a, b = res[0][job_key(i, s)], res[1][job_key(i, s)]
                    cls, detail, parts = classify(a, b)
                    print(f"=== {i['label']}:{s}: {cls} {detail}")
                    print(diff_excerpt(a, b, PARTS, n=10 ** 6))
        return 0
    sample = run_sample(args, items, schedules, trees, cache) if args.run_sample else None
    text = report(args, items, schedules, trees[0][0], trees[1][0], res[0], res[1], sample)
    Path(args.report).write_text(text, encoding="utf-8")
    print(f"corpus_compare: wrote {args.report}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        worker(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "--run-worker":
        run_sample_worker(sys.argv[2])
    else:
        sys.exit(main())
