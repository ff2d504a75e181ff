"""The OpenCL CPU platforms the bench races: PoCL (pyopencl's wheel's, or Debian's where
that one cannot build for the CPU) and Intel's oneAPI CPU runtime (PyPI
`intel-opencl-rt`), all seen through pyopencl's ICD loader.

The loader reads the vendor list from the folder $OCL_ICD_VENDORS names. When Intel's
runtime is installed, `point_loader_at_runtimes` writes one `.icd` file per runtime
there (the absolute path of its library), so that both platforms appear. It must run
before pyopencl is imported.
"""
from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import sys
import time
from pathlib import Path

# How a platform names itself (clGetPlatformInfo CL_PLATFORM_NAME): PoCL's exactly,
# Intel's CPU runtime "Intel(R) OpenCL" (other Intel platforms have longer names).
POCL_NAME = "Portable Computing Language"
INTEL_NAME = "Intel(R) OpenCL"


def _pyopencl_dir() -> Path | None:
    spec = importlib.util.find_spec("pyopencl")
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent


def pocl_library() -> Path | None:
    """The PoCL library pyopencl's wheel ships: `pyopencl/.libs/pocl.icd` names it,
    relative to that folder (the wheel's loader finds it there by itself)."""
    d = _pyopencl_dir()
    if d is None:
        return None
    icd = d / ".libs" / "pocl.icd"
    if not icd.is_file():
        return None
    lib = Path(icd.read_text().strip())
    lib = lib if lib.is_absolute() else icd.parent / lib
    return lib if lib.is_file() else None


def building_device(cl, devices: list):
    """The first of ``devices`` that compiles a kernel, and why each one before it does
    not (None where none does). pyopencl's wheel bundles PoCL 3.0 with LLVM 14, which
    names no CPU after Zen 3: on a Zen 5 its builds fail ("unknown target CPU
    'generic'"). Debian's PoCL 3.1 (package pocl-opencl-icd, which `.ci/run` installs)
    picks its target by the CPU's features and builds there."""
    problems = []
    for device in devices:
        try:
            ctx = cl.Context([device])
            cl.Program(ctx, "__kernel void probe(__global int *a) { *a = 1; }").build()
            return device, problems
        except Exception as e:  # noqa: BLE001 - any failure: try the next device
            lines = [line.strip() for line in str(e).splitlines() if line.strip()]
            said = next((line for line in lines if line.startswith("error:")),
                        lines[0] if lines else type(e).__name__)
            problems.append(f"{device.platform.version.strip()}: {said}")
    return None, problems


def system_icds() -> list[Path]:
    """The vendors' .icd files of the system's loader (Debian's PoCL's among them)."""
    folder = Path("/etc/OpenCL/vendors")
    return sorted(folder.glob("*.icd")) if folder.is_dir() else []


def intel_library() -> Path | None:
    """libintelocl.so of the installed `intel-opencl-rt` (in the environment's lib/)."""
    try:
        files = importlib.metadata.files("intel-opencl-rt") or []
    except importlib.metadata.PackageNotFoundError:
        files = []
    for f in files:
        if f.name == "libintelocl.so":
            path = Path(f.locate()).resolve()
            if path.is_file():
                return path
    path = Path(sys.prefix) / "lib" / "libintelocl.so"
    return path if path.is_file() else None


def point_loader_at_runtimes(folder: Path) -> tuple[Path | None, str | None]:
    """Write intel.icd and pocl.icd into `folder` and set $OCL_ICD_VENDORS to it.
    Returns (Intel's library, None) or (None, why Intel is not there)."""
    intel = intel_library()
    if intel is None:
        return None, ("Intel's OpenCL CPU runtime is not installed in this environment "
                      "(`pip install intel-opencl-rt intel-cmplr-lib-rt`, as `make bench` does)")
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.icd"):
        old.unlink()
    (folder / "intel.icd").write_text(f"{intel}\n")
    pocl = pocl_library()
    if pocl is not None:
        (folder / "pocl.icd").write_text(f"{pocl}\n")
    for icd in system_icds():        # $OCL_ICD_VENDORS hides them otherwise
        (folder / f"system-{icd.name}").write_text(icd.read_text())
    os.environ["OCL_ICD_VENDORS"] = str(folder)
    return intel, None


def set_thread_count(n: int) -> None:
    """Ask every runtime for n threads (before any of them is loaded)."""
    for var in ("OMP_NUM_THREADS",            # cl2c and the hand C (libgomp)
                "POCL_MAX_PTHREAD_COUNT",     # PoCL <= 4's pthread device
                "POCL_CPU_MAX_CU_COUNT",      # PoCL >= 5
                "DPCPP_CPU_NUM_CUS",          # Intel's CPU runtime
                "CL_CONFIG_CPU_TBB_NUM_WORKERS"):
        os.environ[var] = str(n)


class OpenCLContender:
    """One OpenCL platform's CPU device: builds programs, makes launchers."""

    def __init__(self, label: str, platform_name: str, cl):
        self.label = label
        self.cl = cl
        devices = [d for p in cl.get_platforms() if p.name.strip() == platform_name
                   for d in p.get_devices(device_type=cl.device_type.CPU)]
        self.device, problems = building_device(cl, devices)
        if self.device is None:
            raise RuntimeError("; ".join(problems) or "no CPU device")
        platform = self.device.platform
        self.ctx = cl.Context([self.device])
        self.queue = cl.CommandQueue(self.ctx)
        self.description = (f"{platform.name.strip()} {platform.version.strip()} / "
                            f"{self.device.name.strip()}")
        self.programs: dict[str, object] = {}   # by source text
        self.build_seconds: dict[str, float] = {}

    def build(self, case):
        src = case.src                  # a file, with the case's #define values
        if src not in self.programs:
            t = time.perf_counter()
            self.programs[src] = self.cl.Program(self.ctx, src).build()
            self.build_seconds[case.src_file] = time.perf_counter() - t
        return self.programs[src]

    def launcher(self, case, args: list, prg):
        """A zero-argument function running the case once (enqueue + finish), and a
        function reading the case's outputs back."""
        import numpy as np
        from cases import Img, Local
        from hand_c import Const
        cl, q = self.cl, self.queue
        mf = cl.mem_flags
        rgba8 = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNORM_INT8)

        def own(a):
            if isinstance(a, Img):
                h, w = a.array.shape[:2]
                return cl.Image(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, rgba8,
                                shape=(w, h), hostbuf=a.array)
            if isinstance(a, Local):
                return cl.LocalMemory(a.nbytes)
            if hasattr(a, "ctypes") and getattr(a, "ndim", 0) > 0:
                return cl.Buffer(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=a)
            return a

        bufs = [own(a) for a in args]
        kernels = {name: cl.Kernel(prg, name) for name in case.kernel_names()}

        def prepare(name, g, l, picks):
            return (kernels[name], g, l,
                    [p.value if isinstance(p, Const) else bufs[p] for p in picks])

        def launch(calls):
            for knl, g, l, call_args in calls:
                knl(q, g, l, *call_args)
            q.finish()

        flags = {}

        def cleared(i):          # the Guide's host: read the mask back, test it
            host = flags.setdefault(i, np.empty_like(args[i]))
            cl.enqueue_copy(q, host, bufs[i])
            return not host.any()

        run = case.host_loop(prepare, launch, cleared)

        def outputs():
            res = []
            for i in case.outs:
                host = getattr(args[i], "array", args[i]).copy()
                if isinstance(args[i], Img):
                    cl.enqueue_copy(q, host, bufs[i], origin=(0, 0),
                                    region=(host.shape[1], host.shape[0]))
                else:
                    cl.enqueue_copy(q, host, bufs[i])
                res.append(host)
            q.finish()
            return res

        def reset():
            for i in case.outs:
                if not isinstance(args[i], Img):    # images: every pixel is written
                    cl.enqueue_fill_buffer(q, bufs[i], args[i].dtype.type(0), 0,
                                           args[i].nbytes)
            q.finish()

        return run, outputs, reset


def find_platforms(want_pocl: bool, want_intel: bool, intel_reason: str | None):
    """The contenders found, and a reason for each one skipped (label -> reason)."""
    found, skipped = [], {}
    if not want_pocl:
        skipped["PoCL"] = "disabled with --no-pocl"
    if not want_intel:
        skipped["Intel"] = "disabled with --no-intel"
    elif intel_reason:
        skipped["Intel"] = intel_reason
    if not (want_pocl or (want_intel and not intel_reason)):
        return found, skipped
    try:
        import pyopencl as cl
        names = [p.name.strip() for p in cl.get_platforms()]
    except Exception as e:  # noqa: BLE001 - any failure here means "no OpenCL"
        why = f"pyopencl unusable ({type(e).__name__}: {e})"
        for label in ("PoCL", "Intel"):
            skipped.setdefault(label, why)
        return found, skipped
    for label, name, wanted in (("PoCL", POCL_NAME, want_pocl),
                                ("Intel", INTEL_NAME, want_intel and not intel_reason)):
        if not wanted:
            continue
        if name not in names:
            skipped[label] = f"no OpenCL platform named {name!r} (found: {names})"
            continue
        try:
            found.append(OpenCLContender(label, name, cl))
        except Exception as e:  # noqa: BLE001
            skipped[label] = f"{name}: no usable CPU device ({type(e).__name__}: {e})"
    return found, skipped
