"""The OpenCL device a build models, as clGetDeviceInfo would describe it: the OpenCL C
version that ``-cl-std=`` asks for, and the extensions and 3.0 features the translator
offers the kernel (the target's, target.py: the preprocessor defines their macros and sema
checks #pragma OPENCL EXTENSION from the same lists)."""
from __future__ import annotations

from dataclasses import dataclass

from .device_limits import MAX_WORK_GROUP_SIZE
from .language_version import VERSIONS
from .options import parse_options
from .target import Target
from .version import __version__


# The runtime's limits, as clGetDeviceInfo reports them (the platform library's
# device_facts.py writes them into it). Compute units and memory sizes are the machine's
# and are read where the library runs.
WORK_ITEM_DIMENSIONS = 3
# __local memory comes from the heap, a block for each thread (host.h): no size is
# refused; this is what the device promises, the size of a large L2.
LOCAL_MEM_SIZE = 256 << 10
MAX_PARAMETER_SIZE = 1024       # the spec's minimum; arguments travel by pointer
# Images are host memory, as buffers are (images.h reads them in place): their limits
# are PoCL's CPU device's, above the full profile's minimums (2D 8192, 3D 2048, arrays
# of 2048, 65536-pixel buffer images, 128 read and 8 write image arguments, 16 samplers).
IMAGE2D_MAX_SIZE = 16384        # width and height
IMAGE3D_MAX_SIZE = 2048         # width, height and depth
IMAGE_MAX_ARRAY_SIZE = 2048     # layers
IMAGE_MAX_BUFFER_SIZE = 1 << 27  # pixels of an image1d_buffer_t
MAX_IMAGE_ARGS = 128            # read, write and read-write image arguments, each
MAX_SAMPLERS = 16
# CL_DEVICE_PREFERRED_ and NATIVE_VECTOR_WIDTH_*: one 128-bit register of each type
# (the baseline of x86-64 and AArch64; the work-item loops vectorise across work-items
# whatever a kernel's vectors); half and double are 0 where their extension is absent.
VECTOR_WIDTHS = {"char": 16, "short": 8, "int": 4, "long": 2, "float": 4, "double": 2,
                 "half": 8}
# the OpenCL C versions -cl-std= takes, as (major, minor)
OPENCL_C_VERSIONS = tuple((v.major, v.minor) for v in sorted(VERSIONS.values()))


@dataclass(frozen=True)
class Device:
    name: str
    version: str               # CL_DEVICE_VERSION: "OpenCL 1.2 cl2c 0.1.0"
    opencl_c_version: str      # CL_DEVICE_OPENCL_C_VERSION: "OpenCL C 1.2 cl2c 0.1.0"
    extensions: tuple[str, ...]
    features: tuple[str, ...]  # OpenCL C 3.0's optional features (none before 3.0)
    fast_fma: bool = False     # FP_FAST_FMAF: fma is fast, and a * b + c contracted
                               # (FP_CONTRACT, on by default) is one fma
    max_work_group_size: int = MAX_WORK_GROUP_SIZE
    local_mem_size: int = LOCAL_MEM_SIZE
    # a group's work-items run as SIMD lanes of a loop: a multiple of the widest float
    # vector keeps them whole (PoCL's CPU device answers 8 too)
    preferred_work_group_size_multiple: int = 8

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

