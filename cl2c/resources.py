"""Where the templates and the C runtime are: inside the installed package
(``cl2c.templates``, ``cl2c.clruntime``), or beside it in a source checkout."""
from __future__ import annotations

import importlib.resources
from pathlib import Path


def _package_dir(package: str, checkout_name: str) -> Path:
    try:
        path = Path(str(importlib.resources.files(package)))
        if path.is_dir():
            return path
    except (ModuleNotFoundError, TypeError):
        pass
    return Path(__file__).resolve().parent.parent / checkout_name


def templates_dir() -> Path:
    return _package_dir("cl2c.templates", "templates")


def runtime_dir() -> Path:
    return _package_dir("cl2c.clruntime", "clruntime")


def runtime_include_dir() -> Path:
    return runtime_dir() / "include"
