"""cl2c as an OpenCL platform: the installable client driver (ICD) that the OpenCL ICD
loaders load (``cl2c --icd`` prints the folder to name in ``OCL_ICD_VENDORS``).

``entry_points.py`` and ``cl_types.py`` describe the host API as data,
``generate.py`` and ``device_facts.py`` write the C that the library is built from
beside clruntime/platform/*.c, ``library.py`` builds it."""
from .library import icd_folder

__all__ = ["icd_folder"]
