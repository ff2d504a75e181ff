"""The Guide's chapter 8 Gaussian filter (gaussian_filter.cl) on a PNG, from Python:

    python examples/gaussian_filter/gaussian_filter.py [in.png [out.png]]

The picture is read with Pillow into a CL_RGBA / CL_UNORM_INT8 image, blurred by the
kernel with the book's sampler (unnormalized coordinates, clamp to edge, nearest) and
work-groups of 16x16, and compared with the same blur in NumPy. run_examples.py also
builds and runs main.c, the same kernel called from C, on the same picture."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import cl2c

HERE = Path(__file__).resolve().parent
WEIGHTS = np.array([[1, 2, 1], [2, 4, 2], [1, 2, 1]], np.float32)


def read_png(path) -> np.ndarray:
    from PIL import Image        # Pillow: pip install pillow (cl2c's test extras have it)
    with Image.open(path) as img:
        return np.asarray(img.convert("RGBA"))


def reference(src: np.ndarray) -> np.ndarray:
    """The kernel's arithmetic in NumPy: UNORM_INT8 to float (c / 255), the nine
    weighted reads of clamped pixels summed in the kernel's order in float32, and the
    write's round-to-nearest-even with saturation."""
    h, w, _ = src.shape
    f = src.astype(np.float32) / np.float32(255)
    padded = np.pad(f, ((1, 1), (1, 1), (0, 0)), mode="edge")     # clamp to edge
    out = np.zeros_like(f)
    for dy in range(3):
        for dx in range(3):
            out += padded[dy:dy + h, dx:dx + w] * (WEIGHTS[dy, dx] / np.float32(16))
    return np.clip(np.rint(out * np.float32(255)), 0, 255).astype(np.uint8)


def blur(prg, src: np.ndarray) -> np.ndarray:
    h, w, _ = src.shape
    dst = cl2c.Image(np.zeros_like(src), "RGBA", "UNORM_INT8")
    # The book rounds the global size up to the 16x16 work-groups; the kernel tests
    # the coordinates against the image's size.
    global_size = ((w + 15) // 16 * 16, (h + 15) // 16 * 16)
    prg.gaussian_filter(global_size, (16, 16), cl2c.Image(src, "RGBA", "UNORM_INT8"), dst,
                        cl2c.Sampler(False, "CLAMP_TO_EDGE", "NEAREST"), np.int32(w),
                        np.int32(h))
    return dst.get()


def main(argv) -> int:
    src_path = Path(argv[1]) if len(argv) > 1 else HERE / "input.png"
    out_path = Path(argv[2]) if len(argv) > 2 else None
    prg = cl2c.Program.from_file(HERE / "gaussian_filter.cl").build()
    src = read_png(src_path)
    got = blur(prg, src)
    want = reference(src)
    wrong = np.count_nonzero(got != want)
    if out_path is not None:
        from PIL import Image
        Image.fromarray(got, "RGBA").save(out_path)
    print(f"gaussian_filter: {src.shape[1]}x{src.shape[0]} px: "
          f"{'OK (matches NumPy)' if wrong == 0 else f'MISMATCH ({wrong} channels)'}")
    return 0 if wrong == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
