"""cl2c's build: setuptools as pyproject.toml says it, and one step more: the templates'
code compiled into the package (cl2c/emit/shipped_templates.py), so that the first
translation on a new machine loads it rather than compiling every template."""
import importlib.util
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithTemplateCode(build_py):
    def run(self):
        super().run()
        package = Path(self.build_lib) / "cl2c"
        # by its path: the package's other dependencies need not be in the build's
        # environment (Jinja is: pyproject.toml's build requirements)
        spec = importlib.util.spec_from_file_location(
            "cl2c_shipped_templates", package / "emit" / "shipped_templates.py")
        shipped = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(shipped)
        shipped.write(package / "templates")


setup(cmdclass={"build_py": BuildWithTemplateCode})
