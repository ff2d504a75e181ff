"""Images and samplers on the host (spec 5.3 and 5.7 in PyOpenCL's shape, without a
context): ``cl2c.Image(array, channel_order="RGBA", channel_type="FLOAT", kind="2d")``
and ``cl2c.Sampler(normalized_coords, addressing_mode, filter_mode)``, passed among a
kernel's arguments; and the tables of formats, the one place of their values.

An image owns a C-contiguous copy of its pixels, channels last and always present:
(w, C), (layers, w, C), (h, w, C), (layers, h, w, C) or (d, h, w, C); ``get()`` returns
them after a launch. A kernel receives a pointer to its ``cl2c_image`` (cl2c/host.h),
whose layout ``IMAGE_STRUCT`` mirrors; a sampler is its CLK_* flags, a uint.

A leaf module (NumPy only): ``cl2c.load()`` needs no translator.
"""
from __future__ import annotations

import numpy as np

# The sampler's flags (clang's values, which clruntime's images.h reads: bit 0 normalized
# coordinates, bits 1-3 the addressing mode, bits 4-5 the filter).
SAMPLER_FLAGS = {
    "CLK_NORMALIZED_COORDS_FALSE": 0, "CLK_NORMALIZED_COORDS_TRUE": 1,
    "CLK_ADDRESS_NONE": 0, "CLK_ADDRESS_CLAMP_TO_EDGE": 2, "CLK_ADDRESS_CLAMP": 4,
    "CLK_ADDRESS_REPEAT": 6, "CLK_ADDRESS_MIRRORED_REPEAT": 8,
    "CLK_FILTER_NEAREST": 0x10, "CLK_FILTER_LINEAR": 0x20,
}
# Channel orders and data types, as OpenCL's CL_* values (cl.h): what
# get_image_channel_order / get_image_channel_data_type return, and PyOpenCL's names.
CHANNEL_ORDERS = {
    "R": 0x10B0, "A": 0x10B1, "RG": 0x10B2, "RA": 0x10B3, "RGB": 0x10B4, "RGBA": 0x10B5,
    "BGRA": 0x10B6, "ARGB": 0x10B7, "INTENSITY": 0x10B8, "LUMINANCE": 0x10B9, "Rx": 0x10BA,
    "RGx": 0x10BB, "RGBx": 0x10BC, "DEPTH": 0x10BD, "DEPTH_STENCIL": 0x10BE, "sRGB": 0x10BF,
    "sRGBx": 0x10C0, "sRGBA": 0x10C1, "sBGRA": 0x10C2, "ABGR": 0x10C3,
}
CHANNEL_TYPES = {
    "SNORM_INT8": 0x10D0, "SNORM_INT16": 0x10D1, "UNORM_INT8": 0x10D2, "UNORM_INT16": 0x10D3,
    "UNORM_SHORT_565": 0x10D4, "UNORM_SHORT_555": 0x10D5, "UNORM_INT_101010": 0x10D6,
    "SIGNED_INT8": 0x10D7, "SIGNED_INT16": 0x10D8, "SIGNED_INT32": 0x10D9,
    "UNSIGNED_INT8": 0x10DA, "UNSIGNED_INT16": 0x10DB, "UNSIGNED_INT32": 0x10DC,
    "HALF_FLOAT": 0x10DD, "FLOAT": 0x10DE, "UNORM_INT24": 0x10DF,
}
# The channels each order keeps in memory (the packed types keep one word instead). Rx
# and RGx keep what R and RG keep: their x changes the border colour only (host.h).
ORDER_CHANNELS = {
    "R": 1, "A": 1, "RG": 2, "RA": 2, "RGB": 3, "RGBA": 4, "BGRA": 4, "ARGB": 4, "ABGR": 4,
    "INTENSITY": 1, "LUMINANCE": 1, "Rx": 1, "RGx": 2, "RGBx": 3, "DEPTH": 1, "sRGB": 3,
    "sRGBx": 4, "sRGBA": 4, "sBGRA": 4,
}
# The NumPy dtype of a channel (or, packed, of the one word of a pixel).
TYPE_DTYPES = {
    "SNORM_INT8": np.int8, "SNORM_INT16": np.int16, "UNORM_INT8": np.uint8,
    "UNORM_INT16": np.uint16, "UNORM_SHORT_565": np.uint16, "UNORM_SHORT_555": np.uint16,
    "UNORM_INT_101010": np.uint32, "SIGNED_INT8": np.int8, "SIGNED_INT16": np.int16,
    "SIGNED_INT32": np.int32, "UNSIGNED_INT8": np.uint8, "UNSIGNED_INT16": np.uint16,
    "UNSIGNED_INT32": np.uint32, "HALF_FLOAT": np.float16, "FLOAT": np.float32,
    "UNORM_INT24": np.uint32,
}
PACKED_TYPES = ("UNORM_SHORT_565", "UNORM_SHORT_555", "UNORM_INT_101010")
# The data types the API spec admits for each channel order (its table of image channel
# orders): what the OpenCL platform lists in clGetSupportedImageFormats, and the pairs
# outside it are CL_INVALID_IMAGE_FORMAT_DESCRIPTOR there. (cl2c.Image is more lenient:
# RGB float, say, which images.h reads and writes as well.)
_PLAIN_TYPES = tuple(t for t in CHANNEL_TYPES if t not in PACKED_TYPES and t != "UNORM_INT24")
_NORM_TYPES = ("UNORM_INT8", "UNORM_INT16", "SNORM_INT8", "SNORM_INT16", "HALF_FLOAT",
               "FLOAT")
_BYTE_TYPES = ("UNORM_INT8", "SNORM_INT8", "SIGNED_INT8", "UNSIGNED_INT8")
SPEC_ORDER_TYPES = {
    "R": _PLAIN_TYPES, "A": _PLAIN_TYPES, "RG": _PLAIN_TYPES, "RA": _PLAIN_TYPES,
    "RGBA": _PLAIN_TYPES, "Rx": _PLAIN_TYPES, "RGx": _PLAIN_TYPES,
    "RGB": PACKED_TYPES, "RGBx": PACKED_TYPES,
    "BGRA": _BYTE_TYPES, "ARGB": _BYTE_TYPES, "ABGR": _BYTE_TYPES,
    "INTENSITY": _NORM_TYPES, "LUMINANCE": _NORM_TYPES,
    "DEPTH": ("UNORM_INT16", "FLOAT"),
    "sRGB": ("UNORM_INT8",), "sRGBx": ("UNORM_INT8",), "sRGBA": ("UNORM_INT8",),
    "sBGRA": ("UNORM_INT8",),
}
# The orders an OpenCL 1.2 device leaves out: depth images (cl_khr_depth_images), sRGB
# and ABGR came with OpenCL 2.0 and later.
ORDERS_SINCE_2_0 = ("DEPTH", "sRGB", "sRGBx", "sRGBA", "sBGRA", "ABGR")


def spec_formats(version: int) -> list[tuple[str, str]]:
    """(order, type) of every format a device of OpenCL ``version`` (12, 30) lists."""
    return [(order, ctype) for order, types in SPEC_ORDER_TYPES.items()
            if version >= 20 or order not in ORDERS_SINCE_2_0 for ctype in types]


# kind: (OpenCL's CL_MEM_OBJECT_IMAGE* value, the kernel's image type, the array's
# dimensions before the channels, named as the array's axes)
KINDS = {
    "1d": (0x10F4, "image1d_t", ("width",)),
    "1d_buffer": (0x10F6, "image1d_buffer_t", ("width",)),
    "1d_array": (0x10F5, "image1d_array_t", ("array_size", "width")),
    "2d": (0x10F1, "image2d_t", ("height", "width")),
    "2d_array": (0x10F3, "image2d_array_t", ("array_size", "height", "width")),
    "3d": (0x10F2, "image3d_t", ("depth", "height", "width")),
}
ADDRESSING_MODES = {"NONE": 0, "CLAMP_TO_EDGE": 2, "CLAMP": 4, "REPEAT": 6,
                    "MIRRORED_REPEAT": 8}
FILTER_MODES = {"NEAREST": 0x10, "LINEAR": 0x20}
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
