"""cl2c: OpenCL C kernels translated to C11 + OpenMP, run on the CPU.

Every name but the version is imported when first used (``__getattr__`` below): a
process that imports cl2c pays for what it uses, neither NumPy nor the translator
before it needs them (tests/test_startup.py holds this)."""
from .version import __version__

__all__ = ["BuildError", "Diagnostic", "translate", "Program", "Kernel", "LocalMemory",
           "WorkGroupInfo", "LaunchTimes",
           "KernelArgError", "LaunchError", "BuildWarning", "BufferWarning", "CacheWarning",
           "CheckWarning", "BinaryError",
           "cltypes", "load", "Image", "Sampler",
           "device", "empty", "zeros", "aligned", "__version__"]


def device(options=None):
    """The OpenCL device that a build with ``options`` (``-cl-std=CL1.2``, ``CL2.0`` or
    ``CL3.0``) models on this machine: ``.opencl_c_version``, ``.extensions``,
    ``.features`` (OpenCL C 3.0's), ``.fast_fma`` (contracted ``a * b + c`` is one fma),
    ``.max_work_group_size``, ``.local_mem_size`` (what the OpenCL platform reports)."""
    from .device_model import device as _device
    return _device(options)


def load(module_name: str):
    """The kernels compiled into a package's extension module at build time
    (``setup(cl2c_modules=["pkg/kernels.cl:pkg.kernels"])``), as a built
    :class:`Program`: ``cl2c.load("pkg.kernels").saxpy(n, None, x, y, 2.0)``.
    Needs no C compiler and translates nothing."""
    from .aot import load as _load
    return _load(module_name)


def __getattr__(name):
    # The translator (pycparser & co.) and the loader (numpy, cffi): only when
    # asked for, so that cl2c.load() imports neither the translator nor a compiler.
    if name in ("BuildError", "Diagnostic"):
        from . import diagnostics
        return getattr(diagnostics, name)
    if name == "translate":
        from .pipeline import translate
        return translate
    if name in ("Program", "Kernel", "LocalMemory", "WorkGroupInfo", "LaunchTimes",
                "KernelArgError",
                "LaunchError",
                "BuildWarning", "BufferWarning", "CheckWarning"):
        from . import loader
        return getattr(loader, name)
    if name in ("Image", "Sampler"):
        from . import images
        return getattr(images, name)
    if name in ("empty", "zeros", "aligned"):
        from . import arrays
        return getattr(arrays, name)
    if name == "BinaryError":
        from .binary import BinaryError
        return BinaryError
    if name == "CacheWarning":
        from .cachedir import CacheWarning
        return CacheWarning
    if name == "cltypes":
        import importlib
        return importlib.import_module(".cltypes", __name__)
    raise AttributeError(name)
