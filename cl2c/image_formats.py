"""The image formats' facts: sampler flags, channel orders and data types with OpenCL's
values, the channels each order stores, the formats the spec admits, the image kinds.
One place for them, without NumPy, so that the preprocessor, the build service and the
OpenCL platform's tables read them without importing it (``images.py`` is the host's
``cl2c.Image`` on top)."""
from __future__ import annotations

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
