"""A seeded subset of the fuzz corpus (tests/fuzz): mutants of the project's kernels and
of piglit's, each translated in a worker process under a timeout. Every one must give a
translation or a BuildError whose diagnostics all say file:line:col; never another
exception, a crash or a hang. ``make fuzz`` runs the whole corpus."""
from __future__ import annotations

import random

import pytest
from fuzz import corpus, runner

pytestmark = pytest.mark.optimised      # what the optimiser makes of cl2c's C

SEED = 2026
PROJECT_MUTANTS = 90       # two of each of the project's kernels
PIGLIT_MUTANTS = 60


def _cases() -> list:
    rng = random.Random(SEED)
    project = [c for s in corpus.project_seeds() for c in corpus.mutants(s, 2, rng)]
    piglit_seeds = corpus.piglit_seeds()
    piglit = [c for s in rng.sample(piglit_seeds, min(PIGLIT_MUTANTS, len(piglit_seeds)))
              for c in corpus.mutants(s, 1, rng)]
    return rng.sample(project, min(PROJECT_MUTANTS, len(project))) + piglit


def test_mutants_are_translated_or_diagnosed_with_positions():
    cases = _cases()
    report = runner.run(cases, jobs=2, timeout=60)
    assert report.counts["ok"] + report.counts["diagnosed"] + \
        report.counts["bad options"] == len(cases), dict(report.counts)
    assert not report.problems, "\n\n".join(
        f"{case.label}\n  {what}\n{tb}" for case, what, tb in report.problems)
