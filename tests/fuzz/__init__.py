"""A mutation fuzzer over kernels: the front end's answer to any input is a translation
or a BuildError whose every diagnostic says file:line:col, never another exception, a
crash or a hang.

The corpus is the project's kernels (tests/kernels, bench, examples) and piglit's
(tests/piglit/corpus.py finds it). Each source gives mutants, each the product of a few
seeded edits (corpus.py: ``mutants``); a worker process translates them one by one and
the parent times each out (worker.py, runner.py). ``python -m fuzz`` from tests/ runs it:

    python -m fuzz --full -j 2          # every source, 8 mutants each (make fuzz)
    python -m fuzz --per-file 2 --limit 40 --seed 7 --piglit

``tests/test_fuzz.py`` runs a seeded subset in ``make test``.
"""
