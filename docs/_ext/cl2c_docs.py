"""Directives that write parts of the documentation from the code that defines them, so
that the pages cannot drift from it:

- ``cl2c-error-codes``: cl2c/error_codes.py's table;
- ``cl2c-exceptions``: every public exception and warning class of the cl2c package;
- ``cl2c-option-values`` (a role): the values an option takes, from the tables options.py checks against;
- ``cl2c-cli-help``: ``cl2c --help`` as the command prints it;
- ``cl2c-translate``: the C that cl2c generates for a .cl file of the repository, now;
- ``cl2c-check-cost``: a table of committed ``bench/check_cost.py --json`` runs;
- ``cl2c-startup``: a table of committed ``bench/startup.py --json`` runs, before and after;
- ``cl2c-bench``: the table of a committed ``bench/bench.py --json`` run;
- ``cl2c-bench-rounds``: committed ``bench/bench.py --json`` runs of two trees, side by side;
- ``cl2c-icd-launch``: the table of a committed ``bench/icd_launch.py --json`` run;
- ``cl2c-compilers``: the table of a committed ``bench/compilers.py --json`` run;
- ``cl2c-cold-build``: the table of committed ``bench/cold_build.py`` runs;
- ``cl2c-dask-scaling``: the table of a committed ``bench/dask_scaling.py --json`` run;
- ``cl2c-dask-overhead``: committed ``bench/dask_overhead.py --json`` runs, side by side.
"""
from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

REPO = Path(__file__).resolve().parents[2]


def _table(headers: list[str], rows: list[list[str]], widths: list[int]) -> nodes.table:
    table = nodes.table()
    group = nodes.tgroup(cols=len(headers))
    table += group
    for w in widths:
        group += nodes.colspec(colwidth=w)
    head = nodes.thead()
    group += head
    body = nodes.tbody()
    group += body
    for target, cells in ((head, [headers]), (body, rows)):
        for cells_of_row in cells:
            row = nodes.row()
            for text in cells_of_row:
                entry = nodes.entry()
                entry += _paragraph(text)
                row += entry
            target += row
    return table


def _paragraph(text: str) -> nodes.paragraph:
    """Text whose ``double`` or `single` backquoted parts are literals."""
    import re
    para = nodes.paragraph()
    for i, part in enumerate(re.split(r"``(.+?)``|`(.+?)`", text)):
        if i % 3 == 0:
            if part:
                para += nodes.Text(part)
        elif part:
            para += nodes.literal(text=part)
    return para


class ErrorCodes(SphinxDirective):
    """OpenCL's codes and cl2c's own, as C (``CL2C_<name>``) and Python spell them."""

    def run(self):
        from cl2c import error_codes
        own = {c.name for c in error_codes.OWN}
        rows = [[f"`CL2C_{c.name}`", str(c.value), c.meaning,
                 "cl2c" if c.name in own else "OpenCL"] for c in error_codes.CODES]
        return [_table(["C name", "value", "what cl2c_error_string() says", "from"],
                       rows, [30, 8, 50, 8])]


def public_exceptions() -> list[type]:
    """The exception and warning classes that cl2c's modules define and do not mark
    private (a leading underscore)."""
    import cl2c
    found = {}
    for info in pkgutil.walk_packages(cl2c.__path__, "cl2c."):
        if info.name.endswith("__main__") or ".sanitizers" in info.name:
            continue
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if (inspect.isclass(obj) and issubclass(obj, BaseException)
                    and obj.__module__ == info.name and not name.startswith("_")):
                found[f"{obj.__module__}.{name}"] = obj
    return [found[k] for k in sorted(found)]


class Exceptions(SphinxDirective):
    """``exported``: those that ``cl2c`` exports (``cl2c.X``); ``others``: the rest."""
    required_arguments = 1

    def run(self):
        import cl2c
        rows = []
        for cls in public_exceptions():
            exported = getattr(cl2c, cls.__name__, None) is cls
            if exported != (self.arguments[0] == "exported"):
                continue
            where = f"cl2c.{cls.__name__}" if exported else f"{cls.__module__}.{cls.__name__}"
            bases = ", ".join(b.__name__ for b in cls.__bases__)
            doc = inspect.cleandoc(cls.__dict__.get("__doc__") or "")   # its own, not a base's
            rows.append([f"`{where}`", bases, doc.split("\n\n")[0].replace("\n", " ")])
        return [_table(["class", "derives from", "what it means"], rows, [30, 20, 50])]


def option_values() -> dict[str, list[str]]:
    """What each option with a fixed set of values accepts, from the tables that
    cl2c/options.py checks against."""
    from cl2c import options
    from cl2c.language_version import VERSIONS
    from cl2c.workgroup.schedules import names
    from cl2c.target import EXTENSIONS, FEATURES
    return {
        "cl-std": list(VERSIONS),
        "schedule": list(names()),
        "sanitize": list(options.SANITIZERS),
        "check": ["stop", "collect"],
        "accepted": sorted(options._ACCEPTED_FLAGS),
        "extensions": sorted(set(EXTENSIONS) | {"cl_khr_fp16"}),
        "features": sorted(FEATURES),
    }


def option_values_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``{cl2c-option-values}`schedule```: the values, as literals separated by commas."""
    out = []
    for i, v in enumerate(option_values()[text]):
        if i:
            out.append(nodes.Text(", "))
        out.append(nodes.literal(text=v))
    return out, []


class CliHelp(SphinxDirective):
    def run(self):
        import click
        from cl2c.cli import main
        with click.Context(main, info_name="cl2c", terminal_width=88) as ctx:
            text = main.get_help(ctx)
        return [nodes.literal_block(text, text)]


class Translate(SphinxDirective):
    """The generated C of a repository .cl file. ``:start:`` picks the lines from the first
    that starts with its text, to the next that starts with ``:end:``'s (shown) or
    ``:end-before:``'s (not shown); ``:options:`` are build options."""
    required_arguments = 1
    option_spec = {"options": directives.unchanged, "start": directives.unchanged,
                   "end": directives.unchanged, "end-before": directives.unchanged}

    def run(self):
        import cl2c
        path = REPO / self.arguments[0]
        self.env.note_dependency(str(path))
        c = cl2c.translate(path.read_text(), path.name, options=self.options.get("options"),
                           line_directives=False).c_source
        lines = c.splitlines()
        start = self.options.get("start")
        if start:
            first = next(i for i, line in enumerate(lines) if line.startswith(start))
            last = len(lines)
            for i in range(first + 1, len(lines)):
                if "end" in self.options and lines[i].startswith(self.options["end"]):
                    last = i + 1
                    break
                if "end-before" in self.options and \
                        lines[i].startswith(self.options["end-before"]):
                    last = i
                    break
            lines = lines[first:last]
        text = "\n".join(lines)
        block = nodes.literal_block(text, text)
        block["language"] = "c"
        return [block]


class CheckCost(SphinxDirective):
    """``bench/check_cost.py --json`` runs (paths under the repository), side by side:
    each kernel's best launch of its normal and its checking build, and the ratio of
    the best and of the medians; under the table, each run's commit and machine."""
    required_arguments = 1
    optional_arguments = 7

    def run(self):
        import json
        import statistics
        runs = []
        for name in self.arguments:
            self.env.note_dependency(str(REPO / name))
            runs.append(json.loads((REPO / name).read_text()))
        kernels = list(dict.fromkeys((r["kernel"], r["local"]) for run in runs
                                     for r in run["rows"]))
        headers = ["kernel", "local"]
        for i in range(1, len(runs) + 1):
            headers += [f"normal ms ({i})", f"checked ms ({i})", f"ratio ({i})",
                        f"of medians ({i})"]
        rows = []
        for kernel in kernels:
            cells = [kernel[0], kernel[1]]
            for run in runs:
                r = next((r for r in run["rows"] if (r["kernel"], r["local"]) == kernel),
                         None)
                if r is None:
                    cells += ["", "", "", ""]
                    continue
                normal, check = min(r["normal_ms"]), min(r["check_ms"])
                medians = statistics.median(r["check_ms"]) / statistics.median(r["normal_ms"])
                cells += [f"{normal:.3f}", f"{check:.3f}", f"{check / normal:.2f}",
                          f"{medians:.2f}" + (" (findings)" if r["findings"] else "")]
            rows.append(cells)
        notes = []
        for i, run in enumerate(runs, 1):
            m, a = run["machine"], run["args"]
            notes.append(_paragraph(
                f"({i}) `{run['commit']}`, {run['date']}: {m['cpus']} CPUs "
                f"({m['processor']}), {m['compiler']}, {a.get('threads') or 'all'} threads, "
                f"{a.get('reps') or 5} launches of each build in turn (`{self.arguments[i - 1]}`)."))
        return [_table(headers, rows, [34, 6] + [8] * 4 * len(runs)), *notes]


class Startup(SphinxDirective):
    """``bench/startup.py`` runs of two trees (JSON files under the repository with
    ``before`` and ``after``, each a commit and its runs): for each file, tree and
    contender, the milliseconds of a cold build to its first launch, to its -O3 library,
    of a new program in warm caches and of a cache hit, as the median and (in brackets)
    the quartiles of all its runs' samples, or with ``:per-run:`` each run's median and
    range; under the table, each file's machine and what it ran."""
    required_arguments = 1
    optional_arguments = 3
    option_spec = {"per-run": directives.flag}
    ROWS = (("cold to launch 1 (empty caches)", "cold",
             lambda s: s["build"] + s["launch 1"] if "launch 1" in s else None),
            ("cold to the `-O3` library", "cold", lambda s: s.get("optimised")),
            ("new program (warm caches)", "new", lambda s: s.get("build")),
            ("a cache hit's `build`", "hot", lambda s: s.get("build")))

    def run(self):
        import json
        import statistics
        files = []
        for name in self.arguments:
            self.env.note_dependency(str(REPO / name))
            files.append(json.loads((REPO / name).read_text()))
        columns = []        # (header, [runs: {which: [samples]}])
        for i, data in enumerate(files, 1):
            for tree in ("before", "after"):
                for who in data[tree]["runs"][0]:
                    columns.append((f"({i}) {tree} (`{data[tree]['commit']}`)"
                                    + ("" if who == "cl2c" else f", {who}"),
                                    [run[who] for run in data[tree]["runs"]]))

        def cell(runs, which, pick) -> str:
            per_run = [[1e3 * v for v in map(pick, run.get(which, [])) if v is not None]
                       for run in runs]
            per_run = [ms for ms in per_run if ms]
            if not per_run:
                return "-"
            if "per-run" in self.options:
                return ", ".join(f"{statistics.median(ms):.0f} ({min(ms):.0f}-{max(ms):.0f})"
                                 for ms in per_run)
            ms = [v for run in per_run for v in run]
            q = statistics.quantiles(ms, n=4) if len(ms) > 1 else [ms[0]] * 3
            return f"{statistics.median(ms):.0f} ({q[0]:.0f}-{q[2]:.0f})"

        rows = []
        for label, which, pick in self.ROWS:
            cells = [cell(runs, which, pick) for _, runs in columns]
            if any(c != "-" for c in cells):
                rows.append([label, *cells])
        import re
        notes = []
        for i, data in enumerate(files, 1):
            # (options as literals: not typeset as dashes)
            what = re.sub(r"(--[a-z][a-z0-9-]*)", r"`\1`", data["what"])
            notes.append(_paragraph(f"({i}) {data['machine']}, {data['date']}: {what} "
                                    f"(`{self.arguments[i - 1]}`)."))
        return [_table(["ms", *(h for h, _ in columns)], rows,
                       [22] + [14] * len(columns)), *notes]


class Bench(SphinxDirective):
    """A ``bench/bench.py --json`` run (a path under the repository): each kernel's median
    and range of cl2c and of the other contenders in the file, in milliseconds, and
    cl2c's median over hand C's; under the table, the commit, the machine and how it
    ran."""
    required_arguments = 1

    def run(self):
        import json
        path = REPO / self.arguments[0]
        self.env.note_dependency(str(path))
        data = json.loads(path.read_text())
        names = list(dict.fromkeys(n for r in data["rows"] for n in r["results"]))
        rows = []
        for r in data["rows"]:
            res = r["results"]
            cells = [r["kernel"], r["local"]]
            for n in names:
                x = res.get(n)
                cells.append(f"{x['median_ms']:.3g} ({x['min_ms']:.3g}-{x['max_ms']:.3g})"
                             if x and "median_ms" in x else "-")
            mine, hand = res.get("cl2c"), res.get("hand C")
            ratio = f"{mine['median_ms'] / hand['median_ms']:.2f}" \
                if mine and hand and "median_ms" in mine and "median_ms" in hand else "-"
            if mine and mine.get("output_ok") is False:
                why = (r.get("notes") or {}).get("races")
                ratio += f" (output differs: {why})" if why else " (output differs)"
            rows.append([*cells, ratio])
        m, a = data["machine"], data["args"]
        how = f"`--reps {a['reps']}`" if a.get("reps") else f"`--budget {a.get('budget')}`"
        note = _paragraph(
            f"`{data['commit']}`: {m['cpus']} CPUs, Python {m['python']}, NumPy "
            f"{m['numpy']}, {m['env'].get('CC') or 'cc'}, {a.get('threads') or 'all'} "
            f"threads, {how}; load average {m['loadavg_start']:.2f} at the start "
            f"(`{self.arguments[0]}`).")
        return [_table(["kernel", "local", *(f"{n} ms" for n in names), "cl2c / hand C"],
                       rows, [34, 6] + [14] * len(names) + [10]), note]


class BenchRounds(SphinxDirective):
    """``bench/bench.py --json`` runs in columns, one a content line ``label: GLOB ...``
    (paths under the repository, each glob's files in name order): for each kernel,
    thread count and machine size, each run's cl2c median over hand C's and (in
    brackets) cl2c's median in milliseconds; under the table, what each column's runs
    measured and where. ``:only:`` keeps the kernels whose names hold one of its
    comma-separated words."""
    has_content = True
    option_spec = {"only": directives.unchanged}

    def run(self):
        import json
        columns = []            # (label, [(path, data)], globs)
        for line in self.content:
            if not line.strip():
                continue
            label, _, globs = line.partition(":")
            paths = [p for g in globs.split() for p in sorted(REPO.glob(g))]
            if not paths:
                raise self.error(f"cl2c-bench-rounds: no file matches {globs.strip()!r}")
            runs = []
            for path in paths:
                self.env.note_dependency(str(path))
                runs.append((path, json.loads(path.read_text())))
            columns.append((label.strip(), runs, globs.split()))

        def threads(data) -> str:
            cpus = data["machine"]["cpus"]
            return f"{data['args'].get('threads') or cpus} of {cpus} CPUs"

        only = [w.strip() for w in self.options.get("only", "").split(",") if w.strip()]
        keys = list(dict.fromkeys((r["kernel"], threads(d)) for _, runs, _ in columns
                                  for _, d in runs for r in d["rows"]
                                  if not only or any(w in r["kernel"] for w in only)))
        rows = []
        for kernel, n in keys:
            cells = [kernel, n]
            for _, runs, _ in columns:
                found = []
                for _, d in runs:
                    for r in d["rows"]:
                        mine, hand = r["results"].get("cl2c"), r["results"].get("hand C")
                        if (r["kernel"], threads(d)) == (kernel, n) and mine and hand \
                                and "median_ms" in mine and "median_ms" in hand:
                            found.append(f"{mine['median_ms'] / hand['median_ms']:.2f} "
                                         f"({mine['median_ms']:.3g})")
                cells.append(", ".join(found) or "-")
            rows.append(cells)
        notes = []
        for label, runs, globs in columns:
            commits = ", ".join(dict.fromkeys(f"`{d['commit'][:7]}`" for _, d in runs))
            machines = ", ".join(dict.fromkeys(
                f"{d['machine']['cpus']} CPUs, Python {d['machine']['python']}"
                for _, d in runs))
            reps = ", ".join(dict.fromkeys(str(d["args"].get("reps")) for _, d in runs))
            files = ", ".join(f"`{g}`" for g in globs)
            notes.append(_paragraph(f"{label}: {commits}; {machines}; `--reps {reps}`; "
                                    f"{len(runs)} runs ({files})."))
        return [_table(["kernel", "threads",
                        *(f"{label}: over hand C (cl2c ms)" for label, _, _ in columns)],
                       rows, [34, 6] + [22] * len(columns)), *notes]


class IcdLaunch(SphinxDirective):
    """A ``bench/icd_launch.py --json`` run (a path under the repository): each
    contender's cached build in milliseconds and launch in microseconds, as the median
    of its rounds' medians and (in brackets) the lowest and highest of them; under the
    table, the commit, the machine and what was left out."""
    required_arguments = 1

    def run(self):
        import json
        import statistics
        path = REPO / self.arguments[0]
        self.env.note_dependency(str(path))
        data = json.loads(path.read_text())
        metrics = [("build", 1e3), *((f"launch {n}", 1e6) for n in data["sizes"])]

        def cell(rounds, metric, scale) -> str:
            medians = [r[metric]["median"] * scale for r in rounds]
            return f"{statistics.median(medians):.1f} ({min(medians):.1f}-{max(medians):.1f})"

        rows = [[label, *(cell(rounds, m, k) for m, k in metrics)]
                for label, rounds in data["samples"].items()]
        left_out = "; ".join(f"{k}: {v}" for k, v in data["skipped"].items())
        note = _paragraph(f"`{data['commit']}`, {data['date']}: {data['machine']}; "
                          f"`{data['what']}`" + (f"; left out: {left_out}" if left_out else "")
                          + f" (`{self.arguments[0]}`).")
        return [_table(["", "cached build, ms",
                        *(f"launch + wait, {n} work-items, us" for n in data["sizes"])],
                       rows, [16, 16] + [18] * len(data["sizes"])), note]


class Compilers(SphinxDirective):
    """A ``bench/compilers.py --json`` run (a path under the repository): each kernel's
    median milliseconds under each compiler, cl2c's and hand C's, and the spread
    (slowest over fastest compiler); under the table, the commit, the machine and the
    compilers' versions."""
    required_arguments = 1

    def run(self):
        import json
        import statistics
        path = REPO / self.arguments[0]
        self.env.note_dependency(str(path))
        data = json.loads(path.read_text())
        compilers = list(data["compilers"])
        rows = []
        for r in data["samples_ms"]:
            meds = {c: statistics.median(r[c]) for c in compilers if r.get(c)}
            spread = max(meds.values()) / min(meds.values()) if len(meds) > 1 else 1.0
            rows.append([r["kernel"], r["contender"],
                         *(f"{meds[c]:.3g}" if c in meds else "failed" for c in compilers),
                         f"{spread:.2f}x"])
        versions = "; ".join(data["compilers"].values())
        note = _paragraph(f"`{data['commit']}`, {data['date']}: {data['machine']}; "
                          f"{versions}; {data['rounds']} rounds, `bench.py "
                          f"{' '.join(data['bench_args'])}` (`{self.arguments[0]}`).")
        return [_table(["kernel", "", *(f"{c} ms" for c in compilers), "spread"], rows,
                       [30, 6] + [9] * len(compilers) + [7]), note]


class ColdBuild(SphinxDirective):
    """``bench/cold_build.py`` runs (a JSON of hosts, each with its trees' samples): for
    each host and tree, each cold build's milliseconds and its C compile and load's."""
    required_arguments = 1

    def run(self):
        import json
        path = REPO / self.arguments[0]
        self.env.note_dependency(str(path))
        data = json.loads(path.read_text())
        rows = []
        for host in data["hosts"]:
            for tree, samples in host["trees"].items():
                rows.append([host["machine"], f"`{tree}`" if " " not in tree else
                             "{} `{}`".format(*tree.split(" ", 1)),
                             ", ".join(f"{s['build']:.0f}" for s in samples),
                             ", ".join(f"{s['C compile and load']:.0f}" for s in samples)])
        note = _paragraph(f"{data['date']}: {data['what']} (`{self.arguments[0]}`).")
        return [_table(["host", "tree", "cold build, ms", "its C compile and load, ms"],
                       rows, [40, 16, 22, 22]), note]


def _run_note(data: dict, path: str, what: str, prefix: str = "") -> nodes.paragraph:
    return _paragraph(f"{prefix}`{str(data['commit'])[:12]}`, {data['date']}: "
                      f"{data['machine']}; {what} (`{path}`).")


class DaskScaling(SphinxDirective):
    """A ``bench/dask_scaling.py --json`` run: for each number of workers, the best time
    of cl2c.dask's steps and of ``map_overlap`` with NumPy, strong (the same array) and
    weak (rows a worker), and the kernel launched whole in one process."""
    required_arguments = 1

    def run(self):
        import json
        path = REPO / self.arguments[0]
        self.env.note_dependency(str(path))
        data = json.loads(path.read_text())
        by = {(r["workers"], r["scaling"]): r for r in data["runs"]}
        rows = []
        for n in dict.fromkeys(r["workers"] for r in data["runs"]):
            cells = [str(n)]
            for scaling in ("strong", "weak"):
                r = by.get((n, scaling))
                cells += ([str(r["rows"]), f"{r['cl2c_dask'] * 1e3:.0f}",
                           f"{r['map_overlap'] * 1e3:.0f}", f"{r['whole_same_size'] * 1e3:.1f}"]
                          if r else ["-"] * 4)
            rows.append(cells)
        a = data["args"]
        what = (f"`bench/dask_scaling.py`, {a['cols']} columns, chunks of {a['chunk_rows']} "
                f"rows, {a['steps']} steps, best of {a['repeat']}; every worker a process of "
                f"one thread; whole: the same steps launched whole in one process on all "
                f"{data['cpus']} threads")
        headers = ["workers"] + [f"{s}: {h}" for s in ("strong", "weak") for h in
                                 ("rows", "cl2c.dask ms", "`map_overlap` + NumPy ms",
                                  "whole ms")]
        return [_table(headers, rows, [8] + [10] * 8),
                _run_note(data, self.arguments[0], what)]


class DaskOverhead(SphinxDirective):
    """``bench/dask_overhead.py --json`` runs in columns: the graph of its chunks and how
    long it took to build, a chunk's part launched directly, and what a chunk costs beyond
    the kernel's work on the synchronous scheduler and (wall time) on a LocalCluster."""
    required_arguments = 1
    optional_arguments = 3

    def run(self):
        import json
        runs = []
        for name in self.arguments:
            self.env.note_dependency(str(REPO / name))
            runs.append(json.loads((REPO / name).read_text()))

        def per_chunk(d, key):
            return (f"{(d[key] - d['whole_s']) / d['args']['chunks'] * 1e6:.0f} us"
                    if key in d else "-")
        table = [
            ("chunks of work-items", lambda d: f"{d['args']['chunks']} x {d['args']['per_chunk']}"),
            ("graph: tasks, build ms", lambda d: f"{d['tasks']}, {d['graph_s'] * 1e3:.1f}"),
            ("the kernel launched whole", lambda d: f"{d['whole_s'] * 1e6:.0f} us"),
            ("a chunk's part launched directly", lambda d: f"{d['one_chunk_s'] * 1e6:.1f} us"),
            ("a chunk beyond the kernel's work, synchronous scheduler",
             lambda d: per_chunk(d, "synchronous_s")),
            ("a chunk beyond it, LocalCluster (wall; as many at a time as workers)",
             lambda d: per_chunk(d, "cluster_s")),
        ]
        rows = [[label, *(pick(d) for d in runs)] for label, pick in table]
        headers = [""] + [f"({i}) {d['args'].get('cluster') or 'no'} workers"
                          for i, d in enumerate(runs, 1)]
        notes = [_run_note(d, name, "`bench/dask_overhead.py`, best of 3 (the schedulers' "
                                    "of 2)", prefix=f"({i}) ")
                 for i, (d, name) in enumerate(zip(runs, self.arguments), 1)]
        return [_table(headers, rows, [40] + [16] * len(runs)), *notes]


def setup(app):
    app.add_directive("cl2c-error-codes", ErrorCodes)
    app.add_directive("cl2c-exceptions", Exceptions)
    app.add_role("cl2c-option-values", option_values_role)
    app.add_directive("cl2c-cli-help", CliHelp)
    app.add_directive("cl2c-translate", Translate)
    app.add_directive("cl2c-check-cost", CheckCost)
    app.add_directive("cl2c-startup", Startup)
    app.add_directive("cl2c-bench", Bench)
    app.add_directive("cl2c-bench-rounds", BenchRounds)
    app.add_directive("cl2c-icd-launch", IcdLaunch)
    app.add_directive("cl2c-compilers", Compilers)
    app.add_directive("cl2c-cold-build", ColdBuild)
    app.add_directive("cl2c-dask-scaling", DaskScaling)
    app.add_directive("cl2c-dask-overhead", DaskOverhead)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
