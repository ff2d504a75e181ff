"""cl2c's own Python modules, for the tests that read its source: not the templates' code
that an installed package also holds (cl2c/emit/shipped_templates.py), which Jinja wrote."""
from __future__ import annotations

from pathlib import Path

from cl2c.emit.shipped_templates import FOLDER


def source_modules(package: Path) -> list[Path]:
    """The .py files of the cl2c package in ``package``, sorted."""
    return sorted(p for p in package.rglob("*.py")
                  if p.relative_to(package).parts[:2] != ("templates", FOLDER))
