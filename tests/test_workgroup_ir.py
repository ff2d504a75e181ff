"""The work-group function is data (cl2c/workgroup/): the passes find its work-item loops
by their type, and the C names it is written with are defined in one module."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import cl2c
from cl2c.workgroup import names
from package_sources import source_modules

PACKAGE = Path(cl2c.__file__).parent
# names of the generated code that only names.py may spell
GENERATED = re.compile("|".join(re.escape(n) for n in (
    *names.LOCAL_ID, *names.LOCAL_SIZE, names.CHECK_FAST, *names.TILE_ORIGIN,
    names.TILE_FULL, names.TILE_FROM, names.TILE_TO)) + r"\b")


def _string_constants(path: Path):
    """(line, text) of each string constant of a module that is not a docstring."""
    tree = ast.parse(path.read_text())
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and node.body and \
                isinstance(node.body[0], ast.Expr) and \
                isinstance(node.body[0].value, ast.Constant):
            docs.add(id(node.body[0].value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                id(node) not in docs:
            yield node.lineno, node.value


def test_generated_names_are_spelled_in_names_py_only():
    found = [f"{p.relative_to(PACKAGE)}:{line}: {text!r}"
             for p in source_modules(PACKAGE) if p.name != "names.py"
             for line, text in _string_constants(p) if GENERATED.search(text)]
    assert not found, "\n".join(found)


def test_no_pass_finds_a_loop_by_its_pragma():
    """A pass asks the IR where the work-item loops are; it never reads ``omp simd``
    back out of C (the writer and the passes that write a pragma may spell it)."""
    found = [f"{p.relative_to(PACKAGE)}:{node.lineno}"
             for p in source_modules(PACKAGE)
             for node in ast.walk(ast.parse(p.read_text()))
             if isinstance(node, ast.Compare) and any(
                 isinstance(c, ast.Constant) and isinstance(c.value, str) and
                 "omp simd" in c.value for c in [node.left, *node.comparators])]
    assert not found, "\n".join(found)
