"""``python -m cl2c``: the ``cl2c`` command, for an environment whose scripts folder is not
on the PATH."""
from .cli import entry

entry()
