"""Sphinx configuration of cl2c's documentation (`make docs`; docs/about.md says why Sphinx)."""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

from cl2c.version import __version__  # noqa: E402  (the installed cl2c: make docs installs it)

project = "cl2c"
author = "the cl2c authors"
release = version = __version__
extensions = ["myst_parser", "sphinx.ext.autodoc", "cl2c_docs"]
source_suffix = {".md": "markdown"}
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
exclude_patterns = ["_build", "conftest.py", "README.md"]
html_theme = "furo"
html_title = f"cl2c {release}"
autodoc_member_order = "bysource"
autodoc_typehints = "description"
nitpicky = False
