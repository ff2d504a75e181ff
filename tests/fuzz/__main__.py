"""``python -m fuzz`` (from tests/): the fuzz corpus, with its counts; exit status 1 if
any mutant met an internal error, a crash, a hang or an unpositioned diagnostic."""
from __future__ import annotations

import argparse
import random
import sys
import time

from . import corpus, runner


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m fuzz")
    ap.add_argument("--full", action="store_true",
                    help="the whole corpus: every seed, project's and piglit's, 8 mutants "
                         "each (without it: the project's seeds, --per-file each)")
    ap.add_argument("--per-file", type=int, default=None, help="mutants per seed")
    ap.add_argument("--limit", type=int, default=0, help="at most this many mutants")
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--piglit", action="store_true", help="piglit's seeds too")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=runner.TIMEOUT_S)
    ap.add_argument("--compile", action="store_true",
                    help="also compile each translation (cc -fsyntax-only)")
    ap.add_argument("--save", metavar="DIR", help="write each failing mutant into DIR")
    args = ap.parse_args(argv)
    if args.per_file is None:
        args.per_file = 8 if args.full else 2

    seeds = corpus.project_seeds()
    piglit = corpus.piglit_seeds() if args.full or args.piglit else []
    rng = random.Random(args.seed)
    cases = [c for s in seeds + piglit for c in corpus.mutants(s, args.per_file, rng)]
    if args.limit:
        cases = rng.sample(cases, min(args.limit, len(cases)))
    print(f"{len(seeds)} project seeds, {len(piglit)} piglit seeds: {len(cases)} mutants",
          flush=True)
    start = time.monotonic()

    shown = 0

    def progress(report):
        nonlocal shown
        for case, what, _ in report.problems[shown:]:     # as they come
            print(f"  ! {case.label}: {what.splitlines()[0][:300]}", flush=True)
        shown = len(report.problems)
        done = sum(v for k, v in report.counts.items() if k != "unpositioned")
        if done % 200 == 0:
            print(f"  {done}/{len(cases)} {dict(report.counts)} "
                  f"{time.monotonic() - start:.0f} s", flush=True)

    report = runner.run(cases, args.jobs, args.timeout, progress, args.compile)
    for k, (case, what, tb) in enumerate(report.problems):
        print(f"\n{case.label}\n  {what}\n{tb}")
        if args.save:
            import pathlib
            d = pathlib.Path(args.save)
            d.mkdir(parents=True, exist_ok=True)
            (d / f"case{k}.cl").write_bytes(case.text.encode("utf-8", "surrogateescape"))
            (d / f"case{k}.txt").write_text(f"{case.label}\n{case.options}\n{what}\n{tb}")
    c = report.counts
    print(f"\n{report.cases} mutants: {c['ok']} translated, {c['diagnosed']} diagnosed "
          f"({c['unpositioned']} with an unpositioned diagnostic), {c['internal']} internal "
          f"errors, {c['crash']} crashes, {c['hang']} hangs"
          + (f", {c['c_error']} translations the C compiler rejects" if args.compile else "")
          + "; "
          f"{time.monotonic() - start:.0f} s")
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
