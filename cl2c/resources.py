"""Where the templates and the C runtime are: inside the installed package
(``cl2c.templates``, ``cl2c.clruntime``), or beside it in a source checkout."""
from __future__ import annotations

import functools
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
PACKAGE_PARENT = str(_PACKAGE.parent)     # the folder this cl2c package is imported from

# A child process that runs a module of this very cl2c package (the build service, the
# optimised tier's build, the precompiled header's): `python -c CHILD_BOOT <package's
# folder> <module> args...` runs <module> as `python -m <module> args...` would, with
# the package's folder first on sys.path. `-m` puts the working directory first, and a
# cl2c/ there (a checkout's, as in `make run`) would win over the one that started the
# child: the platform then refused the binaries its own builds had made.
CHILD_BOOT = ("import runpy, sys; sys.path.insert(0, sys.argv.pop(1)); "
              "runpy.run_module(sys.argv.pop(1), run_name='__main__', alter_sys=True)")


def module_command(module: str, *args: str) -> list[str]:
    """The command line of a child process that runs ``module`` of this cl2c package."""
    import sys
    return [sys.executable, "-c", CHILD_BOOT, PACKAGE_PARENT, module, *args]


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
