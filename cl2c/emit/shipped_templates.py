"""The templates' code compiled when the package is built, shipped inside it: a first
translation on a new machine (or in a new kernel cache) loads it rather than compiling
every template (the six-kernel file's emit stage on this project's 2-core machine: 20 ms
so, 105 ms compiling; template_code.py's cache in the kernel cache: 26 ms).

setup.py's build step writes the code of every template of the package's ``templates``
into ``templates/compiled`` (Jinja's ``compile_templates``: one Python module a template,
which pip byte-compiles as it installs), with a stamp: the Jinja version that wrote it,
the environment's options and the sha256 of the templates' text. A process uses the code
only where the stamp says the same of the Jinja it imported and of the templates beside
it (an installed package's own; a checkout has none): anything else, and the templates
are compiled as before. This module needs nothing but Jinja: the build loads it by its
path, before the package's other dependencies are there.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

import jinja2

# How the templates are read (the compiled code depends on them).
OPTIONS = dict(undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
               keep_trailing_newline=True)
# The filters the templates use (Jinja checks their names as it compiles): render.py's.
FILTERS = ("c_string", "dedent")
FOLDER = "compiled"
STAMP = "stamp.txt"


def stamp(templates: Path) -> str:
    """What the code compiled from the templates in ``templates`` depends on."""
    text = hashlib.sha256()
    for path in sorted(templates.glob("*.j2")):
        text.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    options = repr(sorted((k, getattr(v, "__name__", v)) for k, v in OPTIONS.items()))
    return f"jinja {jinja2.__version__}\noptions {options}\ntemplates {text.hexdigest()}\n"


def write(templates: Path) -> None:
    """Compile the templates in ``templates`` into its FOLDER, the stamp last (a build
    step: setup.py)."""
    out = templates / FOLDER
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates)), **OPTIONS)
    env.filters.update(dict.fromkeys(FILTERS, str))     # (called when rendering only)
    env.compile_templates(str(out), zip=None, filter_func=lambda name: name.endswith(".j2"),
                          ignore_errors=False)
    (out / STAMP).write_text(stamp(templates))


def loader(templates: Path) -> jinja2.BaseLoader | None:
    """A loader of the code shipped beside ``templates``, where it is there and its stamp
    matches; else None."""
    out = templates / FOLDER
    try:
        shipped = (out / STAMP).read_text()
    except OSError:
        return None
    return jinja2.ModuleLoader(str(out)) if shipped == stamp(templates) else None
