"""Images and samplers on the host (spec 5.3 and 5.7 in PyOpenCL's shape, without a
context): ``cl2c.Image(array, channel_order="RGBA", channel_type="FLOAT", kind="2d")``
and ``cl2c.Sampler(normalized_coords, addressing_mode, filter_mode)``, passed among a
kernel's arguments. The formats' tables are ``image_formats.py``'s, named here too.

An image owns a C-contiguous copy of its pixels, channels last and always present:
(w, C), (layers, w, C), (h, w, C), (layers, h, w, C) or (d, h, w, C); ``get()`` returns
them after a launch. A kernel receives a pointer to its ``cl2c_image`` (cl2c/host.h),
whose layout ``IMAGE_STRUCT`` mirrors; a sampler is its CLK_* flags, a uint.

A leaf module (NumPy only): ``cl2c.load()`` needs no translator.
"""
from __future__ import annotations

import numpy as np

from .image_formats import (  # noqa: F401  (named here too)
    ADDRESSING_MODES, CHANNEL_ORDERS, CHANNEL_TYPES, FILTER_MODES, KINDS, ORDER_CHANNELS,
    ORDERS_SINCE_2_0, PACKED_TYPES, SAMPLER_FLAGS, SPEC_ORDER_TYPES, spec_formats)

# The NumPy dtype of a channel (or, packed, of the one word of a pixel).
TYPE_DTYPES = {
    "SNORM_INT8": np.int8, "SNORM_INT16": np.int16, "UNORM_INT8": np.uint8,
    "UNORM_INT16": np.uint16, "UNORM_SHORT_565": np.uint16, "UNORM_SHORT_555": np.uint16,
    "UNORM_INT_101010": np.uint32, "SIGNED_INT8": np.int8, "SIGNED_INT16": np.int16,
    "SIGNED_INT32": np.int32, "UNSIGNED_INT8": np.uint8, "UNSIGNED_INT16": np.uint16,
    "UNSIGNED_INT32": np.uint32, "HALF_FLOAT": np.float16, "FLOAT": np.float32,
    "UNORM_INT24": np.uint32,
}
# PyOpenCL's (cl.h's) values of the same modes, also accepted
_CL_ADDRESSING = {0x1130: 0, 0x1131: 2, 0x1132: 4, 0x1133: 6, 0x1134: 8}
_CL_FILTER = {0x1140: 0x10, 0x1141: 0x20}

# struct cl2c_image of cl2c/host.h, field for field (LP64: 8-byte pointers and size_t).
IMAGE_STRUCT = np.dtype([
    ("data", np.uint64), ("width", np.uint64), ("height", np.uint64), ("depth", np.uint64),
    ("array_size", np.uint64), ("row_pitch", np.uint64), ("slice_pitch", np.uint64),
    ("image_type", np.uint32), ("channel_order", np.uint32),
    ("channel_data_type", np.uint32), ("element_size", np.uint32),
    ("num_channels", np.uint32), ("reserved", np.uint32)])


def _name(table: dict, value, what: str) -> str:
    if isinstance(value, str):
        if value in table:
            return value
        folded = {k.upper(): k for k in table}
        if value.upper() in folded:
            return folded[value.upper()]
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        for k, v in table.items():
            if v == value:
                return k
    raise ValueError(f"cl2c.Image: unknown {what} {value!r} (one of {', '.join(table)})")


class Image:
    """An OpenCL image in host memory. ``array`` is copied; ``get()`` reads it back."""

    def __init__(self, array, channel_order: str = "RGBA", channel_type: str = "FLOAT",
                 kind: str = "2d"):
        if kind not in KINDS:
            raise ValueError(f"cl2c.Image: unknown kind {kind!r} (one of "
                             f"{', '.join(repr(k) for k in KINDS)})")
        order = _name(CHANNEL_ORDERS, channel_order, "channel order")
        ctype = _name(CHANNEL_TYPES, channel_type, "channel type")
        if order not in ORDER_CHANNELS:
            raise ValueError(f"cl2c.Image: channel order {order} is not supported by cl2c")
        self.kind, self.channel_order, self.channel_type = kind, order, ctype
        packed = ctype in PACKED_TYPES
        if packed and order not in ("RGB", "RGBx"):
            raise ValueError(f"cl2c.Image: {ctype} is a format of the RGB and RGBx orders, "
                             f"not {order}")
        if (order == "DEPTH") != (ctype in ("UNORM_INT16", "FLOAT", "UNORM_INT24")
                                  and order == "DEPTH") or \
                (ctype == "UNORM_INT24" and order != "DEPTH"):
            raise ValueError(f"cl2c.Image: depth images take UNORM_INT16, UNORM_INT24 or "
                             f"FLOAT channels (and UNORM_INT24 is for depth images only), "
                             f"not {order} {ctype}")
        if order.startswith("s") and ctype != "UNORM_INT8":
            raise ValueError(f"cl2c.Image: sRGB orders take UNORM_INT8 channels, not {ctype}")
        if order == "DEPTH" and kind not in ("2d", "2d_array"):
            raise ValueError(f"cl2c.Image: depth images are 2d or 2d_array, not {kind}")
        channels = 1 if packed else ORDER_CHANNELS[order]
        dtype = np.dtype(TYPE_DTYPES[ctype])
        axes = KINDS[kind][2]
        arr = np.asarray(array)
        shape = ", ".join(axes) + ", C"
        if arr.dtype != dtype:
            raise TypeError(f"cl2c.Image: a {ctype} image takes a {dtype} array, not "
                            f"{arr.dtype}")
        if arr.ndim != len(axes) + 1 or arr.shape[-1] != channels:
            raise ValueError(f"cl2c.Image: a {kind} {order} {ctype} image takes an array of "
                             f"shape ({shape}) with C = {channels}, not {arr.shape}")
        if 0 in arr.shape:
            raise ValueError(f"cl2c.Image: an image has at least one pixel, not shape "
                             f"{arr.shape}")
        self._array = np.array(arr, dtype=dtype, order="C", copy=True)
        sizes = dict(zip(axes, arr.shape))
        self.width = sizes["width"]
        self.height = sizes.get("height", 0)
        self.depth = sizes.get("depth", 0)
        self.array_size = sizes.get("array_size", 0)
        self.type_name = KINDS[kind][1].replace("_t", "_depth_t") if order == "DEPTH" \
            else KINDS[kind][1]
        element = dtype.itemsize * channels
        row = element * self.width
        desc = np.zeros((), IMAGE_STRUCT)
        desc["data"] = self._array.ctypes.data
        desc["width"], desc["height"] = self.width, self.height
        desc["depth"], desc["array_size"] = self.depth, self.array_size
        desc["row_pitch"] = row
        # the pitch of a slice of a 3D image or a layer of a 2D array
        desc["slice_pitch"] = row * max(1, self.height) if kind in ("3d", "2d_array") else \
            (row if kind == "1d_array" else 0)
        desc["image_type"] = KINDS[kind][0]
        desc["channel_order"] = CHANNEL_ORDERS[order]
        desc["channel_data_type"] = CHANNEL_TYPES[ctype]
        desc["element_size"] = element
        desc["num_channels"] = channels
        self._desc = desc.reshape(1)

    @property
    def shape(self) -> tuple:
        return self._array.shape

    @property
    def dtype(self) -> np.dtype:
        return self._array.dtype

    def get(self) -> np.ndarray:
        """The pixels as they are now (after a launch: as the kernel left them)."""
        return self._array.copy()

    def __repr__(self):
        return (f"<cl2c.Image {self.kind} {self.channel_order} {self.channel_type} "
                f"{self.shape}>")


class Sampler:
    """A sampler: ``cl2c.Sampler(True, "REPEAT", "LINEAR")``. Its ``value`` is the
    CLK_* flags a kernel's sampler_t holds."""

    def __init__(self, normalized_coords: bool, addressing_mode="CLAMP_TO_EDGE",
                 filter_mode="NEAREST"):
        addressing = _mode(ADDRESSING_MODES, _CL_ADDRESSING, addressing_mode,
                           "addressing mode")
        filtering = _mode(FILTER_MODES, _CL_FILTER, filter_mode, "filter mode")
        self.normalized_coords = bool(normalized_coords)
        self.addressing_mode = next(k for k, v in ADDRESSING_MODES.items() if v == addressing)
        self.filter_mode = next(k for k, v in FILTER_MODES.items() if v == filtering)
        self.value = int(self.normalized_coords) | addressing | filtering

    def __repr__(self):
        return (f"cl2c.Sampler({self.normalized_coords}, {self.addressing_mode!r}, "
                f"{self.filter_mode!r})")


def _mode(names: dict, cl_values: dict, value, what: str) -> int:
    if isinstance(value, str) and value.upper() in names:
        return names[value.upper()]
    if isinstance(value, (int, np.integer)) and int(value) in cl_values:
        return cl_values[int(value)]
    raise ValueError(f"cl2c.Sampler: unknown {what} {value!r} (one of {', '.join(names)})")
