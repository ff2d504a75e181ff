"""What the checking-mode tests share: a checked build, and the finding a launch stops
with."""
from __future__ import annotations

import pytest

import cl2c


def build(src: str, options: str = "-cl2c-check", name: str = "bug.cl"):
    return cl2c.Program(src, options=options, filename=name).build()


def finding(kernel, gsize, lsize, *args, codes=(-1103,)) -> str:
    """The message of the LaunchError the launch raises: CL2C_CHECK_FAILED, or another
    of ``codes``."""
    with pytest.raises(cl2c.LaunchError) as info:
        kernel(gsize, lsize, *args)
    assert info.value.code in codes, info.value
    return str(info.value)
