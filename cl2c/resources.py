"""Where the templates and the C runtime are: inside the installed package
(``cl2c.templates``, ``cl2c.clruntime``), or beside it in a source checkout."""
from __future__ import annotations

import functools
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


@functools.lru_cache(maxsize=None)
def _package_dir(subpackage: str, checkout_name: str) -> Path:
    # a folder first (an installed package has it inside, a checkout beside): a cache
    # hit then needs no importlib.resources (its import was 5-25 ms of one)
    for path in (_PACKAGE / subpackage, _PACKAGE.parent / checkout_name):
        if (path / "__init__.py").is_file():
            return path
    import importlib.resources  # a package of another layout (an editable install's map)
    try:
        path = Path(str(importlib.resources.files(f"cl2c.{subpackage}")))
        if path.is_dir():
            return path
    except (ModuleNotFoundError, TypeError):
        pass
    return _PACKAGE.parent / checkout_name


def templates_dir() -> Path:
    return _package_dir("templates", "templates")


def runtime_dir() -> Path:
    return _package_dir("clruntime", "clruntime")


def runtime_include_dir() -> Path:
    return runtime_dir() / "include"
