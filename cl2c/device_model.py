"""The OpenCL device a build models, as clGetDeviceInfo would describe it: the OpenCL C
version that ``-cl-std=`` asks for, and the extensions and 3.0 features the translator
offers the kernel (the target's, target.py: the preprocessor defines their macros and sema
checks #pragma OPENCL EXTENSION from the same lists)."""
from __future__ import annotations

from dataclasses import dataclass

from .options import parse_options
from .target import Target
from .version import __version__


@dataclass(frozen=True)
class Device:
    name: str
    version: str               # CL_DEVICE_VERSION: "OpenCL 1.2 cl2c 0.1.0"
    opencl_c_version: str      # CL_DEVICE_OPENCL_C_VERSION: "OpenCL C 1.2 cl2c 0.1.0"
    extensions: tuple[str, ...]
    features: tuple[str, ...]  # OpenCL C 3.0's optional features (none before 3.0)
    fast_fma: bool = False     # FP_FAST_FMAF: fma is fast, and a * b + c contracted
                               # (FP_CONTRACT, on by default) is one fma

    @property
    def extensions_string(self) -> str:
        """CL_DEVICE_EXTENSIONS: the names separated by spaces."""
        return " ".join(self.extensions)


def device(options: str | list[str] | None = None, target: Target | None = None) -> Device:
    """The device a program built with ``options`` for ``target`` (this machine's compiler
    by default) sees."""
    opts = parse_options(options)
    target = target or Target.host()
    return Device(name="cl2c (C11 + OpenMP on the host CPU)",
                  version=f"OpenCL {opts.device_version.dotted} cl2c {__version__}",
                  opencl_c_version=f"OpenCL C {opts.cl_std.dotted} cl2c {__version__}",
                  extensions=target.extensions_for(opts.cl_std, opts.removed_extensions),
                  features=target.features(opts.cl_std, opts.removed_extensions),
                  fast_fma=target.fast_fma)

