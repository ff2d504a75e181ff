"""cl2c: OpenCL C kernels translated to C11 + OpenMP, run on the CPU."""
__version__ = "0.1.0"

from .diagnostics import BuildError, Diagnostic  # noqa: E402
from .pipeline import translate  # noqa: E402

__all__ = ["BuildError", "Diagnostic", "translate", "Program", "Kernel", "LocalMemory",
           "KernelArgError", "LaunchError", "cltypes", "__version__"]


def __getattr__(name):
    # The loader imports numpy and cffi: only when asked for.
    if name in ("Program", "Kernel", "LocalMemory", "KernelArgError", "LaunchError"):
        from . import loader
        return getattr(loader, name)
    if name == "cltypes":
        import importlib
        return importlib.import_module(".cltypes", __name__)
    raise AttributeError(name)
