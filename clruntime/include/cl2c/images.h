/* Image read and write functions and the image queries (OpenCL C spec 6.12.14), by
 * the spec's chapter 3, "Image Addressing and Filtering": the addressing modes
 * (table 40 and the repeat and mirrored-repeat formulas), nearest and linear
 * filtering in 1, 2 and 3 dimensions with its floor and fraction rules, the border
 * colour, the selection of a layer of an image array (3.4), and the conversion rules
 * of every channel data type (3.3: normalized integers with rounding to nearest even
 * and saturation, half, float, the packed 565/555/101010 formats, 24-bit depth,
 * integers saturated on writes, sRGB) and channel order.
 *
 * An image is a pointer to a cl2c_image (host.h) and a sampler its CLK_* flags (a
 * uint; host.h's CL2C_NORMALIZED_COORDS, CL2C_ADDRESS_*, CL2C_FILTER_*). Everything
 * is static inline and always inlined: with a constant sampler (a program-scope or
 * kernel-scope `const sampler_t`) the C compiler folds the sampler's branches and a
 * read is straight-line code, which keeps only the tests of the image's format.
 *
 * Reads out of the image take the border colour whatever the addressing mode
 * (CLK_ADDRESS_NONE and samplerless reads out of range are undefined in the spec:
 * cl2c gives the border colour rather than read outside the pixels), and writes out
 * of the image (undefined) are dropped. The public functions are named
 * cl2c_<function>_<image>[_s]_<coordinates> (builtins.py's rows). */
#ifndef CL2C_IMAGES_H
#define CL2C_IMAGES_H

#include <math.h>
#include <string.h>
#include "host.h"
#include "vloadstore.h"

/* For each channel order: where a read's r, g, b, a come from among the stored
 * channels (0-3; 4: 0, 5: 1), and which of r, g, b, a (0-3; 4: 0, padding) a write
 * stores in each stored channel. */
static const unsigned char cl2c_read_map_[20][4] = {
    {0, 4, 4, 5}, {4, 4, 4, 0}, {0, 1, 4, 5}, {0, 4, 4, 1}, {0, 1, 2, 5}, {0, 1, 2, 3},
    {2, 1, 0, 3}, {1, 2, 3, 0}, {0, 0, 0, 0}, {0, 0, 0, 5}, {0, 4, 4, 5}, {0, 1, 4, 5},
    {0, 1, 2, 5}, {0, 4, 4, 5}, {0, 4, 4, 5}, {0, 1, 2, 5}, {0, 1, 2, 5}, {0, 1, 2, 3},
    {2, 1, 0, 3}, {3, 2, 1, 0}};
static const unsigned char cl2c_write_map_[20][4] = {
    {0, 4, 4, 4}, {3, 4, 4, 4}, {0, 1, 4, 4}, {0, 3, 4, 4}, {0, 1, 2, 4}, {0, 1, 2, 3},
    {2, 1, 0, 3}, {3, 0, 1, 2}, {0, 4, 4, 4}, {0, 4, 4, 4}, {0, 4, 4, 4}, {0, 1, 4, 4},
    {0, 1, 2, 4}, {0, 4, 4, 4}, {0, 4, 4, 4}, {0, 1, 2, 4}, {0, 1, 2, 4}, {0, 1, 2, 3},
    {2, 1, 0, 3}, {3, 2, 1, 0}};

CL2C_INLINE unsigned cl2c_img_order_index_(const cl2c_image *im) {
    unsigned o = im->channel_order - CL2C_R;
    return o < 20 ? o : CL2C_RGBA - CL2C_R;
}

CL2C_INLINE int cl2c_img_is_srgb_(const cl2c_image *im) {
    return im->channel_order >= CL2C_sRGB && im->channel_order <= CL2C_sBGRA;
}

/* The border colour (spec 6.12.14.1): alpha 1 for the orders without alpha. */
CL2C_INLINE float cl2c_img_border_alpha_(const cl2c_image *im) {
    unsigned o = im->channel_order;
    return o == CL2C_R || o == CL2C_RG || o == CL2C_RGB || o == CL2C_LUMINANCE ||
                   o == CL2C_sRGB
               ? 1.0f
               : 0.0f;
}

/* ---- conversions (3.3) ---------------------------------------------------------- */

/* convert_<T>_sat_rte(v) into [lo, hi]: NaN to 0. */
CL2C_INLINE float cl2c_img_sat_rte_(float v, float lo, float hi) {
    if (isnan(v))
        return 0.0f;
    v = nearbyintf(v);
    return v < lo ? lo : v > hi ? hi : v;
}

CL2C_INLINE float cl2c_img_srgb_to_linear_(float c) {
    return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

CL2C_INLINE float cl2c_img_linear_to_srgb_(float c) {
    if (isnan(c))
        c = 0.0f;
    if (c > 1.0f)
        c = 1.0f;
    else if (c < 0.0f)
        c = 0.0f;
    else if (c < 0.0031308f)
        c = 12.92f * c;
    else
        c = 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
    return floorf(c * 255.0f + 0.5f);
}

/* c / 255.0f for each 8-bit unorm channel value c, exact (3.3.1): a table, since a read
 * of an image inlines to scalar code (its coordinates' clamps are branches), where 4
 * loads cost less than 4 conversions through double (the Guide's Sobel on RGBA 8-bit
 * images: 2.1x the float images' time with the conversions, 1.3x with the table). The
 * quotients in double round to the same floats as in float, as does the product by
 * 1/255.0 that -ffast-math would make of them (the images tests check all 256). */
#define CL2C_U8F1_(c) (float)((c) / 255.0)
#define CL2C_U8F4_(c) CL2C_U8F1_(c), CL2C_U8F1_((c) + 1), CL2C_U8F1_((c) + 2), CL2C_U8F1_((c) + 3)
#define CL2C_U8F16_(c) CL2C_U8F4_(c), CL2C_U8F4_((c) + 4), CL2C_U8F4_((c) + 8), CL2C_U8F4_((c) + 12)
#define CL2C_U8F64_(c) CL2C_U8F16_(c), CL2C_U8F16_((c) + 16), CL2C_U8F16_((c) + 32), CL2C_U8F16_((c) + 48)
CL2C_UNUSED static const float cl2c_unorm8_f_[256] = {CL2C_U8F64_(0), CL2C_U8F64_(64),
                                                      CL2C_U8F64_(128), CL2C_U8F64_(192)};
#undef CL2C_U8F64_
#undef CL2C_U8F16_
#undef CL2C_U8F4_
#undef CL2C_U8F1_

/* The stored channels of the pixel at p as floats, by read_imagef's rules. */
CL2C_INLINE void cl2c_img_channels_f_(const cl2c_image *im, const unsigned char *p, float c[4]) {
    unsigned n = im->num_channels;
    switch (im->channel_data_type) {
    case CL2C_FLOAT:
        memcpy(c, p, 4 * n);
        break;
    case CL2C_UNORM_INT8:
        for (unsigned i = 0; i < n; ++i)
            c[i] = cl2c_unorm8_f_[p[i]];
        break;
    case CL2C_SNORM_INT8:
        for (unsigned i = 0; i < n; ++i)
            c[i] = fmaxf(-1.0f, (float)(int8_t)p[i] / 127.0f);
        break;
    case CL2C_UNORM_INT16: {
        uint16_t v[4];
        memcpy(v, p, 2 * n);
        for (unsigned i = 0; i < n; ++i)
            c[i] = (float)v[i] / 65535.0f;
        break;
    }
    case CL2C_SNORM_INT16: {
        int16_t v[4];
        memcpy(v, p, 2 * n);
        for (unsigned i = 0; i < n; ++i)
            c[i] = fmaxf(-1.0f, (float)v[i] / 32767.0f);
        break;
    }
    case CL2C_HALF_FLOAT: {
        uint16_t v[4];
        memcpy(v, p, 2 * n);
        for (unsigned i = 0; i < n; ++i)
            c[i] = cl2c_half_to_float(v[i]);
        break;
    }
    case CL2C_UNORM_SHORT_565: {
        uint16_t w;
        memcpy(&w, p, 2);
        c[0] = (float)((w >> 11) & 31u) / 31.0f;
        c[1] = (float)((w >> 5) & 63u) / 63.0f;
        c[2] = (float)(w & 31u) / 31.0f;
        break;
    }
    case CL2C_UNORM_SHORT_555: {
        uint16_t w;
        memcpy(&w, p, 2);
        c[0] = (float)((w >> 10) & 31u) / 31.0f;
        c[1] = (float)((w >> 5) & 31u) / 31.0f;
        c[2] = (float)(w & 31u) / 31.0f;
        break;
    }
    case CL2C_UNORM_INT_101010: {
        uint32_t w;
        memcpy(&w, p, 4);
        c[0] = (float)((w >> 20) & 1023u) / 1023.0f;
        c[1] = (float)((w >> 10) & 1023u) / 1023.0f;
        c[2] = (float)(w & 1023u) / 1023.0f;
        break;
    }
    case CL2C_UNORM_INT24: {
        uint32_t w;
        memcpy(&w, p, 4);
        c[0] = (float)(w & 0xffffffu) / 16777215.0f;
        break;
    }
    default: /* integer channels: undefined for read_imagef; their values */
        for (unsigned i = 0; i < n; ++i) {
            switch (im->channel_data_type) {
            case CL2C_SIGNED_INT8: c[i] = (float)((const int8_t *)p)[i]; break;
            case CL2C_UNSIGNED_INT8: c[i] = (float)p[i]; break;
            case CL2C_SIGNED_INT16: { int16_t v; memcpy(&v, p + 2 * i, 2); c[i] = (float)v; break; }
            case CL2C_UNSIGNED_INT16: { uint16_t v; memcpy(&v, p + 2 * i, 2); c[i] = (float)v; break; }
            case CL2C_SIGNED_INT32: { int32_t v; memcpy(&v, p + 4 * i, 4); c[i] = (float)v; break; }
            default: { uint32_t v; memcpy(&v, p + 4 * i, 4); c[i] = (float)v; break; }
            }
        }
    }
    if (cl2c_img_is_srgb_(im))
        for (unsigned i = 0; i < 3; ++i)
            c[i] = cl2c_img_srgb_to_linear_(c[i]);
}

/* The stored channels of the pixel at p as 32-bit integers (read_imagei, read_imageui:
 * the values unmodified; signed types sign-extended, unsigned ones zero-extended). */
CL2C_INLINE void cl2c_img_channels_i_(const cl2c_image *im, const unsigned char *p, uint32_t c[4]) {
    unsigned n = im->num_channels;
    for (unsigned i = 0; i < n; ++i) {
        switch (im->channel_data_type) {
        case CL2C_SIGNED_INT8: case CL2C_SNORM_INT8: c[i] = (uint32_t)(int32_t)((const int8_t *)p)[i]; break;
        case CL2C_UNSIGNED_INT8: case CL2C_UNORM_INT8: c[i] = p[i]; break;
        case CL2C_SIGNED_INT16: case CL2C_SNORM_INT16: { int16_t v; memcpy(&v, p + 2 * i, 2); c[i] = (uint32_t)(int32_t)v; break; }
        case CL2C_SIGNED_INT32: case CL2C_UNSIGNED_INT32: case CL2C_FLOAT: memcpy(&c[i], p + 4 * i, 4); break;
        default: { uint16_t v; memcpy(&v, p + 2 * i, 2); c[i] = v; break; }
        }
    }
}

/* The formats other than RGBA float and RGBA 8-bit unorm go through functions that are
 * not inlined: a read inlines to tests of the format and a 16- or 4-byte load, and the
 * rest stays out of the kernel's loops (which then still vectorize around it). */
#if defined(__GNUC__) || defined(__clang__)
#define CL2C_IMG_COLD static __attribute__((noinline, unused))
#define CL2C_IMG_LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define CL2C_IMG_COLD static
#define CL2C_IMG_LIKELY(x) (x)
#endif

/* A format the caller knows, as a constant the compiler folds: the regions schedule's
 * twins for the 8-bit formats (workgroup/builders/image_twins.py) call the reads and
 * writes named ..._as with one of these, | CL2C_IMG_AS_LANES in work-item loops that
 * vectorise; 0 (the other entry points) reads the format from the descriptor. Clang
 * does not fold a copied descriptor's format once its address has gone to an
 * out-of-line decoder, and a loop with that call stays scalar (the Guide's Sobel on
 * RGBA8, one Zen 4 core: 58.2 ms under clang 19 against 6.6 told its format). */
#define CL2C_IMG_AS_RGBA_FLOAT 1
#define CL2C_IMG_AS_RGBA_UNORM8 2
#define CL2C_IMG_AS_BGRA_UNORM8 3
#define CL2C_IMG_AS_LANES 4
#define CL2C_IMG_AS_FORMAT_ 3

CL2C_INLINE int cl2c_img_rgba_float_(const cl2c_image *im) {
    return im->channel_order == CL2C_RGBA && im->channel_data_type == CL2C_FLOAT;
}

CL2C_INLINE int cl2c_img_rgba_unorm8_(const cl2c_image *im) {
    return im->channel_order == CL2C_RGBA && im->channel_data_type == CL2C_UNORM_INT8;
}

/* Four 8-bit unorm channels in RGBA or BGRA order (photos; bitmaps and many cameras'
 * frames): one inline path, the red and blue bytes swapped for BGRA. */
CL2C_INLINE int cl2c_img_unorm8x4_(const cl2c_image *im) {
    return (im->channel_order == CL2C_RGBA || im->channel_order == CL2C_BGRA) &&
           im->channel_data_type == CL2C_UNORM_INT8;
}

/* The tests above where the format may be known (`as`) */
CL2C_INLINE int cl2c_img_rgba_float_as_(const cl2c_image *im, int as) {
    return as ? (as & CL2C_IMG_AS_FORMAT_) == CL2C_IMG_AS_RGBA_FLOAT : cl2c_img_rgba_float_(im);
}

CL2C_INLINE int cl2c_img_unorm8x4_as_(const cl2c_image *im, int as) {
    return as ? (as & CL2C_IMG_AS_FORMAT_) >= CL2C_IMG_AS_RGBA_UNORM8 : cl2c_img_unorm8x4_(im);
}

CL2C_INLINE int cl2c_img_bgra_as_(const cl2c_image *im, int as) {
    return as ? (as & CL2C_IMG_AS_FORMAT_) == CL2C_IMG_AS_BGRA_UNORM8
              : im->channel_order == CL2C_BGRA;
}

CL2C_INLINE size_t cl2c_img_element_size_as_(const cl2c_image *im, int as) {
    return !as ? im->element_size
         : (as & CL2C_IMG_AS_FORMAT_) == CL2C_IMG_AS_RGBA_FLOAT ? 16 : 4;
}

/* The loops schedule runs the work-items of a kernel whose images all have one of the
 * common formats (RGBA float, RGBA 8-bit unorm: photos) on copies made by
 * cl2c_image_<format>, whose format the C compiler then knows. */
CL2C_INLINE int cl2c_image_is_rgba_float(const cl2c_image *im) {
    return cl2c_img_rgba_float_(im) && im->element_size == 16;
}

CL2C_INLINE int cl2c_image_is_rgba_unorm8(const cl2c_image *im) {
    return cl2c_img_rgba_unorm8_(im) && im->element_size == 4;
}

CL2C_INLINE int cl2c_image_is_bgra_unorm8(const cl2c_image *im) {
    return im->channel_order == CL2C_BGRA && im->channel_data_type == CL2C_UNORM_INT8 &&
           im->element_size == 4;
}

CL2C_INLINE cl2c_image cl2c_image_rgba_float(const cl2c_image *im) {
    cl2c_image c = *im;
    c.channel_order = CL2C_RGBA;
    c.channel_data_type = CL2C_FLOAT;
    c.element_size = 16;
    c.num_channels = 4;
    return c;
}

CL2C_INLINE cl2c_image cl2c_image_rgba_unorm8(const cl2c_image *im) {
    cl2c_image c = *im;
    c.channel_order = CL2C_RGBA;
    c.channel_data_type = CL2C_UNORM_INT8;
    c.element_size = 4;
    c.num_channels = 4;
    return c;
}

CL2C_INLINE cl2c_image cl2c_image_bgra_unorm8(const cl2c_image *im) {
    cl2c_image c = cl2c_image_rgba_unorm8(im);
    c.channel_order = CL2C_BGRA;
    return c;
}

/* A descriptor's reserved_ is 0 from the host. cl2c's copy for work-item loops that
 * vectorise says so, and its 8-bit reads divide by 255 there: the table's gathers cost
 * more than the divisions in vector code (the Guide's Sobel 23 -> 13 ms on one Zen 4
 * core), a load less than a division in scalar code. */
#define CL2C_IMG_IN_LANES_ 1u

CL2C_INLINE cl2c_image cl2c_image_rgba_unorm8_lanes(const cl2c_image *im) {
    cl2c_image c = cl2c_image_rgba_unorm8(im);
    c.reserved_ = CL2C_IMG_IN_LANES_;
    return c;
}

CL2C_INLINE cl2c_image cl2c_image_bgra_unorm8_lanes(const cl2c_image *im) {
    cl2c_image c = cl2c_image_bgra_unorm8(im);
    c.reserved_ = CL2C_IMG_IN_LANES_;
    return c;
}

CL2C_INLINE cl2c_image cl2c_image_rgba_float_lanes(const cl2c_image *im) {
    cl2c_image c = cl2c_image_rgba_float(im);
    c.reserved_ = CL2C_IMG_IN_LANES_;
    return c;
}

/* c / 255.0f correctly rounded, c an integer 0 to 255, for vector code: where the
 * target fuses multiply-adds, c times 1/255 corrected once by the remainder (exact for
 * each of the 256: checked against the division in exact arithmetic; three fused
 * operations cost less than a division), else the division. */
CL2C_INLINE float cl2c_img_div255_(float c) {
#if defined(__FMA__) || defined(__ARM_FEATURE_FMA)
    const float r = 1.0f / 255.0f, q = c * r;
    return __builtin_fmaf(__builtin_fmaf(-q, 255.0f, c), r, q);
#else
    return c / 255.0f;
#endif
}

/* An RGBA 8-bit unorm pixel, one 4-byte load (a gather of words in vector code, where
 * GCC gathers no bytes), each channel c / 255.0f: computed in vectorised loops (the
 * quotient correctly rounded is the table's value for each of the 256), else from the
 * table. No loop over the channels: a loop inside the work-item loop keeps that one
 * from vectorising. */
CL2C_INLINE float cl2c_img_unorm8_f_(uint32_t w, int i, int lanes) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    const uint32_t c = w >> (24 - 8 * i) & 255u;
#else
    const uint32_t c = w >> 8 * i & 255u;
#endif
    return lanes ? cl2c_img_div255_((float)c) : cl2c_unorm8_f_[c];
}

CL2C_INLINE cl2c_float4 cl2c_img_decode_unorm8x4_(const cl2c_image *im,
                                                   const unsigned char *p, int as) {
    uint32_t w;
    memcpy(&w, p, 4);
    const int lanes = as ? (as & CL2C_IMG_AS_LANES) != 0
                         : (im->reserved_ & CL2C_IMG_IN_LANES_) != 0;
    const int red = cl2c_img_bgra_as_(im, as) ? 2 : 0;     /* the red byte's place */
    cl2c_float4 r = {{cl2c_img_unorm8_f_(w, red, lanes), cl2c_img_unorm8_f_(w, 1, lanes),
                      cl2c_img_unorm8_f_(w, 2 - red, lanes), cl2c_img_unorm8_f_(w, 3, lanes)}};
    return r;
}

/* convert_uchar_sat_rte(f * 255.0f), NaN to 0 (3.3.2), branch-free: clamping before
 * rounding gives the same byte, as the bounds are integers. The comparisons are the
 * quiet ones: GCC 16 keeps a branch for `v > 0.0f ? v : 0.0f` (a comparison that may
 * trap) and leaves the work-item loop scalar (an 8-bit Sobel 8x slower than GCC 12). */
CL2C_INLINE uint32_t cl2c_img_unorm8_(float f) {
    float v = f * 255.0f;
    v = __builtin_isgreater(v, 0.0f) ? v : 0.0f;    /* NaN too */
    v = __builtin_isless(v, 255.0f) ? v : 255.0f;
    return (uint32_t)(int)nearbyintf(v);
}

CL2C_INLINE uint32_t cl2c_img_unorm8x4_word_(const cl2c_image *im, cl2c_float4 v, int as) {
    /* the first byte red, or blue in BGRA: chosen, not indexed (v.s[i] with i not
     * known to clang keeps v in memory, and the work-item loop scalar) */
    const int bgra = cl2c_img_bgra_as_(im, as);
    const float first = bgra ? v.s[2] : v.s[0], third = bgra ? v.s[0] : v.s[2];
    uint32_t w = cl2c_img_unorm8_(first) | cl2c_img_unorm8_(v.s[1]) << 8 |
                 cl2c_img_unorm8_(third) << 16 | cl2c_img_unorm8_(v.s[3]) << 24;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = (w >> 24) | ((w >> 8) & 0xff00u) | ((w << 8) & 0xff0000u) | (w << 24);
#endif
    return w;
}

CL2C_INLINE void cl2c_img_encode_unorm8x4_(const cl2c_image *im, unsigned char *p,
                                           cl2c_float4 v, int as) {
    const uint32_t w = cl2c_img_unorm8x4_word_(im, v, as);
    memcpy(p, &w, 4);
}

CL2C_IMG_COLD cl2c_float4 cl2c_img_decode_any_f_(const cl2c_image *im, const unsigned char *p);
CL2C_IMG_COLD void cl2c_img_encode_any_f_(const cl2c_image *im, unsigned char *p, cl2c_float4 v);

/* A pixel's r, g, b, a from its stored channels (`as`: the format if known). */
CL2C_INLINE cl2c_float4 cl2c_img_decode_f_as_(const cl2c_image *im, const unsigned char *p,
                                              int as) {
    if (CL2C_IMG_LIKELY(cl2c_img_rgba_float_as_(im, as))) {
        /* the common cases, without the tables; as floats, not memcpy's 16-byte
         * integer, which GCC neither masks nor vectorises */
        const float *f = (const float *)p;
        cl2c_float4 r = {{f[0], f[1], f[2], f[3]}};
        return r;
    }
    if (cl2c_img_unorm8x4_as_(im, as))
        return cl2c_img_decode_unorm8x4_(im, p, as);
    return cl2c_img_decode_any_f_(im, p);
}

CL2C_INLINE cl2c_float4 cl2c_img_decode_f_(const cl2c_image *im, const unsigned char *p) {
    return cl2c_img_decode_f_as_(im, p, 0);
}

CL2C_IMG_COLD cl2c_float4 cl2c_img_decode_any_f_(const cl2c_image *im, const unsigned char *p) {
    cl2c_float4 r;
    float c[6] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f};
    cl2c_img_channels_f_(im, p, c);
    const unsigned char *m = cl2c_read_map_[cl2c_img_order_index_(im)];
    for (int i = 0; i < 4; ++i)
        r.s[i] = c[m[i]];
    return r;
}

CL2C_INLINE cl2c_uint4 cl2c_img_decode_i_(const cl2c_image *im, const unsigned char *p) {
    uint32_t c[6] = {0, 0, 0, 0, 0, 1};
    cl2c_img_channels_i_(im, p, c);
    const unsigned char *m = cl2c_read_map_[cl2c_img_order_index_(im)];
    cl2c_uint4 r;
    for (int i = 0; i < 4; ++i)
        r.s[i] = c[m[i]];
    return r;
}

/* Stores r, g, b, a (floats: write_imagef) at p by the image's format (`as`: if known). */
CL2C_INLINE void cl2c_img_encode_f_as_(const cl2c_image *im, unsigned char *p, cl2c_float4 v,
                                       int as) {
    if (CL2C_IMG_LIKELY(cl2c_img_rgba_float_as_(im, as)))
        memcpy(p, v.s, 16);
    else if (cl2c_img_unorm8x4_as_(im, as))
        cl2c_img_encode_unorm8x4_(im, p, v, as);
    else
        cl2c_img_encode_any_f_(im, p, v);
}

CL2C_INLINE void cl2c_img_encode_f_(const cl2c_image *im, unsigned char *p, cl2c_float4 v) {
    cl2c_img_encode_f_as_(im, p, v, 0);
}

CL2C_IMG_COLD void cl2c_img_encode_any_f_(const cl2c_image *im, unsigned char *p, cl2c_float4 v) {
    const unsigned char *m = cl2c_write_map_[cl2c_img_order_index_(im)];
    float c[4];
    for (int i = 0; i < 4; ++i)
        c[i] = m[i] < 4 ? v.s[m[i]] : 0.0f;
    int srgb = cl2c_img_is_srgb_(im);
    unsigned n = im->num_channels;
    switch (im->channel_data_type) {
    case CL2C_FLOAT:
        memcpy(p, c, 4 * n);
        break;
    case CL2C_UNORM_INT8:
        for (unsigned i = 0; i < n; ++i)
            p[i] = (unsigned char)(srgb && i < 3 ? cl2c_img_linear_to_srgb_(c[i])
                                                 : cl2c_img_sat_rte_(c[i] * 255.0f, 0.0f, 255.0f));
        break;
    case CL2C_SNORM_INT8:
        for (unsigned i = 0; i < n; ++i)
            ((int8_t *)p)[i] = (int8_t)cl2c_img_sat_rte_(c[i] * 127.0f, -128.0f, 127.0f);
        break;
    case CL2C_UNORM_INT16:
        for (unsigned i = 0; i < n; ++i) {
            uint16_t w = (uint16_t)cl2c_img_sat_rte_(c[i] * 65535.0f, 0.0f, 65535.0f);
            memcpy(p + 2 * i, &w, 2);
        }
        break;
    case CL2C_SNORM_INT16:
        for (unsigned i = 0; i < n; ++i) {
            int16_t w = (int16_t)cl2c_img_sat_rte_(c[i] * 32767.0f, -32768.0f, 32767.0f);
            memcpy(p + 2 * i, &w, 2);
        }
        break;
    case CL2C_HALF_FLOAT:
        for (unsigned i = 0; i < n; ++i) {
            uint16_t w = cl2c_double_to_half(c[i], 0);
            memcpy(p + 2 * i, &w, 2);
        }
        break;
    case CL2C_UNORM_SHORT_565: {
        uint16_t w = (uint16_t)(((unsigned)cl2c_img_sat_rte_(c[0] * 31.0f, 0.0f, 31.0f) << 11) |
                                ((unsigned)cl2c_img_sat_rte_(c[1] * 63.0f, 0.0f, 63.0f) << 5) |
                                (unsigned)cl2c_img_sat_rte_(c[2] * 31.0f, 0.0f, 31.0f));
        memcpy(p, &w, 2);
        break;
    }
    case CL2C_UNORM_SHORT_555: {
        uint16_t w = (uint16_t)(((unsigned)cl2c_img_sat_rte_(c[0] * 31.0f, 0.0f, 31.0f) << 10) |
                                ((unsigned)cl2c_img_sat_rte_(c[1] * 31.0f, 0.0f, 31.0f) << 5) |
                                (unsigned)cl2c_img_sat_rte_(c[2] * 31.0f, 0.0f, 31.0f));
        memcpy(p, &w, 2);
        break;
    }
    case CL2C_UNORM_INT_101010: {
        uint32_t w = ((uint32_t)cl2c_img_sat_rte_(c[0] * 1023.0f, 0.0f, 1023.0f) << 20) |
                     ((uint32_t)cl2c_img_sat_rte_(c[1] * 1023.0f, 0.0f, 1023.0f) << 10) |
                     (uint32_t)cl2c_img_sat_rte_(c[2] * 1023.0f, 0.0f, 1023.0f);
        memcpy(p, &w, 4);
        break;
    }
    case CL2C_UNORM_INT24: {
        uint32_t w = (uint32_t)cl2c_img_sat_rte_(c[0] * 16777215.0f, 0.0f, 16777215.0f);
        memcpy(p, &w, 4);
        break;
    }
    default: /* integer channels: undefined for write_imagef; the values saturated */
        for (unsigned i = 0; i < n; ++i) {
            float f = c[i];
            switch (im->channel_data_type) {
            case CL2C_SIGNED_INT8: ((int8_t *)p)[i] = (int8_t)cl2c_img_sat_rte_(f, -128.0f, 127.0f); break;
            case CL2C_UNSIGNED_INT8: p[i] = (uint8_t)cl2c_img_sat_rte_(f, 0.0f, 255.0f); break;
            case CL2C_SIGNED_INT16: { int16_t w = (int16_t)cl2c_img_sat_rte_(f, -32768.0f, 32767.0f); memcpy(p + 2 * i, &w, 2); break; }
            case CL2C_UNSIGNED_INT16: { uint16_t w = (uint16_t)cl2c_img_sat_rte_(f, 0.0f, 65535.0f); memcpy(p + 2 * i, &w, 2); break; }
            case CL2C_SIGNED_INT32: { int32_t w = (int32_t)cl2c_img_sat_rte_(f, -2147483648.0f, 2147483520.0f); memcpy(p + 4 * i, &w, 4); break; }
            default: { uint32_t w = (uint32_t)cl2c_img_sat_rte_(f, 0.0f, 4294967040.0f); memcpy(p + 4 * i, &w, 4); break; }
            }
        }
    }
}

/* Stores integer r, g, b, a (write_imagei: is_signed, write_imageui: not) at p,
 * saturated to the channel type (3.3.4). */
CL2C_INLINE void cl2c_img_encode_i_(const cl2c_image *im, unsigned char *p, cl2c_uint4 v,
                                int is_signed) {
    const unsigned char *m = cl2c_write_map_[cl2c_img_order_index_(im)];
    unsigned n = im->num_channels;
    for (unsigned i = 0; i < n; ++i) {
        uint32_t u = m[i] < 4 ? v.s[m[i]] : 0;
        int64_t x = is_signed ? (int64_t)(int32_t)u : (int64_t)u;
        int64_t lo = 0, hi = 0xffffffff;
        unsigned bytes = 4;
        switch (im->channel_data_type) {
        case CL2C_SIGNED_INT8: lo = -128; hi = 127; bytes = 1; break;
        case CL2C_UNSIGNED_INT8: hi = 255; bytes = 1; break;
        case CL2C_SIGNED_INT16: lo = -32768; hi = 32767; bytes = 2; break;
        case CL2C_UNSIGNED_INT16: hi = 65535; bytes = 2; break;
        case CL2C_SIGNED_INT32: lo = INT32_MIN; hi = INT32_MAX; break;
        default: break;
        }
        x = x < lo ? lo : x > hi ? hi : x;
        uint32_t w = (uint32_t)x;
        if (bytes == 1) {
            p[i] = (unsigned char)w;
        } else if (bytes == 2) {
            uint16_t h = (uint16_t)w;
            memcpy(p + 2 * i, &h, 2);
        } else {
            memcpy(p + 4 * i, &w, 4);
        }
    }
}

/* ---- addressing and filtering (chapter 3) ------------------------------------------ */

/* (long)floor(x), kept within a range where the conversion is defined (NaN: 0). */
CL2C_INLINE long cl2c_img_ifloor_(float x) {
    x = floorf(x);
    return x > 1e9f ? 1000000000L : x > -1e9f ? (long)x : -1000000000L;
}

/* clamp(c, lo, hi) for lo <= hi, as a min then a max: each a select that the C compilers
 * make a min or a max. The nested form, c < lo ? lo : c > hi ? hi : c, stayed branches:
 * GCC 12 unswitched the work-item loop on them and if-converted none of the copies. */
CL2C_INLINE long cl2c_img_clamp_(long c, long lo, long hi) {
    c = c < hi ? c : hi;
    return c > lo ? c : lo;
}

/* address_mode(c) of table 40: clamp to edge, clamp (to the border), none. */
CL2C_INLINE long cl2c_img_address_(cl2c_sampler_t s, long c, long size) {
    switch (s & 0xEu) {
    case CL2C_ADDRESS_CLAMP_TO_EDGE: return cl2c_img_clamp_(c, 0, size - 1);
    case CL2C_ADDRESS_CLAMP: return cl2c_img_clamp_(c, -1, size);
    default: return c;
    }
}

/* The texel index along one axis for nearest filtering. */
CL2C_INLINE long cl2c_img_nearest_(cl2c_sampler_t s, float x, long size) {
    unsigned a = s & 0xEu;
    if (a == CL2C_ADDRESS_REPEAT) {
        long i = cl2c_img_ifloor_((x - floorf(x)) * (float)size);
        return i > size - 1 ? i - size : i;
    }
    if (a == CL2C_ADDRESS_MIRRORED_REPEAT) {
        float m = fabsf(x - 2.0f * rintf(0.5f * x));
        long i = cl2c_img_ifloor_(m * (float)size);
        return i < size - 1 ? i : size - 1;
    }
    float u = (s & CL2C_NORMALIZED_COORDS) ? x * (float)size : x;
    return cl2c_img_address_(s, cl2c_img_ifloor_(u), size);
}

/* The two texel indices along one axis for linear filtering, and the weight of the
 * second, frac(u - 0.5). */
CL2C_INLINE float cl2c_img_linear_(cl2c_sampler_t s, float x, long size, long *i0, long *i1) {
    unsigned a = s & 0xEu;
    float u;
    if (a == CL2C_ADDRESS_REPEAT) {
        u = (x - floorf(x)) * (float)size;
        long l0 = cl2c_img_ifloor_(u - 0.5f), l1 = l0 + 1;
        *i0 = l0 < 0 ? size + l0 : l0;
        *i1 = l1 > size - 1 ? l1 - size : l1;
    } else if (a == CL2C_ADDRESS_MIRRORED_REPEAT) {
        u = fabsf(x - 2.0f * rintf(0.5f * x)) * (float)size;
        long l0 = cl2c_img_ifloor_(u - 0.5f), l1 = l0 + 1;
        *i0 = l0 > 0 ? l0 : 0;
        *i1 = l1 < size - 1 ? l1 : size - 1;
    } else {
        u = (s & CL2C_NORMALIZED_COORDS) ? x * (float)size : x;
        long l0 = cl2c_img_ifloor_(u - 0.5f);
        *i0 = cl2c_img_address_(s, l0, size);
        *i1 = cl2c_img_address_(s, l0 + 1, size);
    }
    float t = u - 0.5f;
    return t - floorf(t);
}

/* Whether the addressing mode of sampler s keeps every texel index inside the image:
 * clamp to edge, repeat and mirrored repeat do (for an image of at least one pixel), so
 * that a constant sampler folds the bounds test away. */
CL2C_INLINE int cl2c_img_always_inside_(cl2c_sampler_t s) {
    unsigned a = s & 0xEu;
    return a == CL2C_ADDRESS_CLAMP_TO_EDGE || a == CL2C_ADDRESS_REPEAT ||
           a == CL2C_ADDRESS_MIRRORED_REPEAT;
}

/* Whether (i, j, k) lies inside the image. */
CL2C_INLINE int cl2c_img_inside_(const cl2c_image *im, int dims, long i, long j, long k) {
    return (unsigned long)i < im->width && (dims < 2 || (unsigned long)j < im->height) &&
           (dims < 3 || (unsigned long)k < im->depth);
}

/* The offset in bytes of pixel (i, j, k) from its layer's start (`as`: the format if
 * known). */
CL2C_INLINE size_t cl2c_img_offset_as_(const cl2c_image *im, int dims, long i, long j, long k,
                                       int as) {
    return (size_t)i * cl2c_img_element_size_as_(im, as) +
           (dims > 1 ? (size_t)j * im->row_pitch : 0) +
           (dims > 2 ? (size_t)k * im->slice_pitch : 0);
}

CL2C_INLINE size_t cl2c_img_offset_(const cl2c_image *im, int dims, long i, long j, long k) {
    return cl2c_img_offset_as_(im, dims, i, j, k, 0);
}

/* The address of pixel (i, j, k) of the layer at base. */
CL2C_INLINE const unsigned char *cl2c_img_at_(const cl2c_image *im, const unsigned char *base,
                                              int dims, long i, long j, long k) {
    return base + cl2c_img_offset_(im, dims, i, j, k);
}

CL2C_IMG_COLD cl2c_float4 cl2c_img_border_f_(const cl2c_image *im) {
    cl2c_float4 b = {{0.0f, 0.0f, 0.0f, cl2c_img_border_alpha_(im)}};
    return b;
}

/* The texel (i, j, k): the border colour out of the image (tested unless the sampler's
 * addressing keeps every index inside). */
CL2C_INLINE cl2c_float4 cl2c_img_texel_f_as_(const cl2c_image *im, cl2c_sampler_t s,
                                             const unsigned char *base, int dims, long i,
                                             long j, long k, int as) {
    if (!cl2c_img_always_inside_(s) && !cl2c_img_inside_(im, dims, i, j, k)) {
        if (as) {       /* the known formats have alpha: a border of zeros */
            const cl2c_float4 zero = {{0.0f, 0.0f, 0.0f, 0.0f}};
            return zero;
        }
        return cl2c_img_border_f_(im);
    }
    return cl2c_img_decode_f_as_(im, base + cl2c_img_offset_as_(im, dims, i, j, k, as), as);
}

CL2C_INLINE cl2c_float4 cl2c_img_texel_f_(const cl2c_image *im, cl2c_sampler_t s,
                                          const unsigned char *base, int dims, long i, long j,
                                          long k) {
    return cl2c_img_texel_f_as_(im, s, base, dims, i, j, k, 0);
}

CL2C_INLINE cl2c_uint4 cl2c_img_texel_i_(const cl2c_image *im, cl2c_sampler_t s,
                                         const unsigned char *base, int dims, long i, long j,
                                         long k) {
    if (!cl2c_img_always_inside_(s) && !cl2c_img_inside_(im, dims, i, j, k)) {
        cl2c_uint4 b = {{0, 0, 0, cl2c_img_border_alpha_(im) != 0.0f}};
        return b;
    }
    return cl2c_img_decode_i_(im, cl2c_img_at_(im, base, dims, i, j, k));
}

/* The layer of an image array a coordinate selects (3.4): clamp(rint(l), 0, n - 1). */
CL2C_INLINE const unsigned char *cl2c_img_layer_(const cl2c_image *im, float l, int arrayed) {
    if (!arrayed)
        return (const unsigned char *)im->data;
    long n = (long)im->array_size, i = cl2c_img_ifloor_(rintf(l));
    i = i < 0 ? 0 : i > n - 1 ? n - 1 : i;
    return (const unsigned char *)im->data + (size_t)i * im->slice_pitch;
}

CL2C_INLINE void cl2c_img_axpy4_(cl2c_float4 *acc, float w, cl2c_float4 t) {
    for (int c = 0; c < 4; ++c)
        acc->s[c] += w * t.s[c];
}

/* read_imagef with a sampler at float coordinates (x, y, z) of a dims-dimensional image
 * (the layer chosen already). */
CL2C_INLINE cl2c_float4 cl2c_img_sample_f_(const cl2c_image *im, cl2c_sampler_t s,
                                       const unsigned char *base, int dims, float x, float y,
                                       float z) {
    long w = (long)im->width, h = dims > 1 ? (long)im->height : 1,
         d = dims > 2 ? (long)im->depth : 1;
    if ((s & 0x30u) != CL2C_FILTER_LINEAR)
        return cl2c_img_texel_f_(im, s, base, dims, cl2c_img_nearest_(s, x, w),
                             dims > 1 ? cl2c_img_nearest_(s, y, h) : 0,
                             dims > 2 ? cl2c_img_nearest_(s, z, d) : 0);
    long i0, i1, j0 = 0, j1 = 0, k0 = 0, k1 = 0;
    float a = cl2c_img_linear_(s, x, w, &i0, &i1);
    float b = dims > 1 ? cl2c_img_linear_(s, y, h, &j0, &j1) : 0.0f;
    float c = dims > 2 ? cl2c_img_linear_(s, z, d, &k0, &k1) : 0.0f;
    cl2c_float4 r = {{0.0f, 0.0f, 0.0f, 0.0f}};
    if (dims == 1) {
        cl2c_img_axpy4_(&r, 1 - a, cl2c_img_texel_f_(im, s, base, 1, i0, 0, 0));
        cl2c_img_axpy4_(&r, a, cl2c_img_texel_f_(im, s, base, 1, i1, 0, 0));
    } else if (dims == 2) {
        cl2c_img_axpy4_(&r, (1 - a) * (1 - b), cl2c_img_texel_f_(im, s, base, 2, i0, j0, 0));
        cl2c_img_axpy4_(&r, a * (1 - b), cl2c_img_texel_f_(im, s, base, 2, i1, j0, 0));
        cl2c_img_axpy4_(&r, (1 - a) * b, cl2c_img_texel_f_(im, s, base, 2, i0, j1, 0));
        cl2c_img_axpy4_(&r, a * b, cl2c_img_texel_f_(im, s, base, 2, i1, j1, 0));
    } else {
        cl2c_img_axpy4_(&r, (1 - a) * (1 - b) * (1 - c), cl2c_img_texel_f_(im, s, base, 3, i0, j0, k0));
        cl2c_img_axpy4_(&r, a * (1 - b) * (1 - c), cl2c_img_texel_f_(im, s, base, 3, i1, j0, k0));
        cl2c_img_axpy4_(&r, (1 - a) * b * (1 - c), cl2c_img_texel_f_(im, s, base, 3, i0, j1, k0));
        cl2c_img_axpy4_(&r, a * b * (1 - c), cl2c_img_texel_f_(im, s, base, 3, i1, j1, k0));
        cl2c_img_axpy4_(&r, (1 - a) * (1 - b) * c, cl2c_img_texel_f_(im, s, base, 3, i0, j0, k1));
        cl2c_img_axpy4_(&r, a * (1 - b) * c, cl2c_img_texel_f_(im, s, base, 3, i1, j0, k1));
        cl2c_img_axpy4_(&r, (1 - a) * b * c, cl2c_img_texel_f_(im, s, base, 3, i0, j1, k1));
        cl2c_img_axpy4_(&r, a * b * c, cl2c_img_texel_f_(im, s, base, 3, i1, j1, k1));
    }
    return r;
}

/* read_imagei/ui with a sampler at float coordinates: nearest filtering (the spec
 * leaves linear filtering of integer images undefined; cl2c takes the nearest). */
CL2C_INLINE cl2c_uint4 cl2c_img_sample_i_(const cl2c_image *im, cl2c_sampler_t s,
                                      const unsigned char *base, int dims, float x, float y,
                                      float z) {
    long w = (long)im->width, h = dims > 1 ? (long)im->height : 1,
         d = dims > 2 ? (long)im->depth : 1;
    return cl2c_img_texel_i_(im, s, base, dims, cl2c_img_nearest_(s, x, w),
                         dims > 1 ? cl2c_img_nearest_(s, y, h) : 0,
                         dims > 2 ? cl2c_img_nearest_(s, z, d) : 0);
}

/* Integer coordinates with a sampler: the spec defines them for unnormalized nearest
 * samplers without repeat, where the texel is address_mode(coordinate) exactly; other
 * samplers take the float path. */
CL2C_INLINE int cl2c_img_int_path_(cl2c_sampler_t s) {
    return !(s & CL2C_NORMALIZED_COORDS) && (s & 0x30u) != CL2C_FILTER_LINEAR &&
           (s & 0xEu) <= CL2C_ADDRESS_CLAMP;
}

CL2C_INLINE const unsigned char *cl2c_img_layer_i_(const cl2c_image *im, long l, int arrayed) {
    if (!arrayed)
        return (const unsigned char *)im->data;
    long n = (long)im->array_size;
    l = l < 0 ? 0 : l > n - 1 ? n - 1 : l;
    return (const unsigned char *)im->data + (size_t)l * im->slice_pitch;
}

/* ---- the functions of the table, per image type --------------------------------- */

/* The coordinates of each image type: x, y, z of the pixel, the layer, the dimensions
 * filtered, an array or not. C is the coordinate vector (or scalar for 1D). */
#define CL2C_IMG_X_1(C) (C)
#define CL2C_IMG_X_2(C) (C).s[0]
#define CL2C_IMG_X_4(C) (C).s[0]
#define CL2C_IMG_Y_1(C) 0
#define CL2C_IMG_Y_2(C) (C).s[1]
#define CL2C_IMG_Y_4(C) (C).s[1]
#define CL2C_IMG_Z_4(C) (C).s[2]

/* IMG: the function name's image part; CI, CF: the int and float coordinate types;
 * W: their width (1, 2, 4); DIMS; ARR: an array (the layer in coordinate DIMS). */
#define CL2C_IMG_COORDS_(W, DIMS, ARR, C, x, y, z, l)                                   \
    x = CL2C_IMG_X_##W(C);                                                               \
    y = (DIMS) > 1 ? CL2C_IMG_Y_##W(C) : 0;                                              \
    z = (DIMS) > 2 ? CL2C_IMG_PICK_Z_##W(C) : 0;                                         \
    l = (ARR) ? ((DIMS) == 1 ? CL2C_IMG_Y_##W(C) : CL2C_IMG_PICK_Z_##W(C)) : 0;
#define CL2C_IMG_PICK_Z_1(C) 0
#define CL2C_IMG_PICK_Z_2(C) 0
#define CL2C_IMG_PICK_Z_4(C) (C).s[2]

/* The samplerless read and the write, on int coordinates. */
#define CL2C_IMAGE_INT_FUNCTIONS(IMG, CI, W, DIMS, ARR)                                   \
    CL2C_INLINE cl2c_float4 cl2c_read_imagef_##IMG##_##CI(const cl2c_image *im,           \
                                                          cl2c_##CI c) {                  \
        long x, y, z, l;                                                                 \
        CL2C_IMG_COORDS_(W, DIMS, ARR, c, x, y, z, l)                                     \
        return cl2c_img_texel_f_(im, 0, cl2c_img_layer_i_(im, l, ARR), DIMS, x, y, z);               \
    }                                                                                    \
    /* the format known (CL2C_IMG_AS_...): the twins' reads */                          \
    CL2C_INLINE cl2c_float4 cl2c_read_imagef_##IMG##_##CI##_as(const cl2c_image *im,      \
                                                               cl2c_##CI c, int as) {     \
        long x, y, z, l;                                                                 \
        CL2C_IMG_COORDS_(W, DIMS, ARR, c, x, y, z, l)                                     \
        return cl2c_img_texel_f_as_(im, 0, cl2c_img_layer_i_(im, l, ARR), DIMS, x, y, z, \
                                    as);                                                 \
    }                                                                                    \
    CL2C_INLINE cl2c_uint4 cl2c_read_image_bits_##IMG##_##CI(const cl2c_image *im,        \
                                                             cl2c_##CI c) {               \
        long x, y, z, l;                                                                 \
        CL2C_IMG_COORDS_(W, DIMS, ARR, c, x, y, z, l)                                     \
        return cl2c_img_texel_i_(im, 0, cl2c_img_layer_i_(im, l, ARR), DIMS, x, y, z);               \
    }                                                                                    \
    CL2C_INLINE cl2c_int4 cl2c_read_imagei_##IMG##_##CI(const cl2c_image *im,             \
                                                        cl2c_##CI c) {                    \
        cl2c_uint4 u = cl2c_read_image_bits_##IMG##_##CI(im, c);                          \
        cl2c_int4 r;                                                                     \
        memcpy(&r, &u, sizeof r);                                                        \
        return r;                                                                        \
    }                                                                                    \
    CL2C_INLINE cl2c_uint4 cl2c_read_imageui_##IMG##_##CI(const cl2c_image *im,           \
                                                          cl2c_##CI c) {                  \
        return cl2c_read_image_bits_##IMG##_##CI(im, c);                                  \
    }                                                                                    \
    CL2C_INLINE cl2c_half4 cl2c_read_imageh_##IMG##_##CI(const cl2c_image *im,            \
                                                         cl2c_##CI c) {                   \
        return cl2c_img_float4_to_half4_(cl2c_read_imagef_##IMG##_##CI(im, c));               \
    }                                                                                    \
    CL2C_INLINE unsigned char *cl2c_write_at_##IMG##_##CI(const cl2c_image *im,           \
                                                          cl2c_##CI c) {                  \
        long x, y, z, l;                                                                 \
        CL2C_IMG_COORDS_(W, DIMS, ARR, c, x, y, z, l)                                     \
        if (ARR && (l < 0 || l >= (long)im->array_size))                                  \
            return 0;                                                                    \
        if (!cl2c_img_inside_(im, DIMS, x, y, z))                                        \
            return 0;                                                                    \
        return (unsigned char *)cl2c_img_at_(im, cl2c_img_layer_i_(im, l, ARR), DIMS, x, y, z); \
    }                                                                                    \
    CL2C_INLINE void cl2c_write_imagef_##IMG##_##CI##_at_(const cl2c_image *im,            \
                                                          cl2c_##CI c, cl2c_float4 v,     \
                                                          int x_inside, int as) {         \
        long x, y, z, l;                                                                 \
        CL2C_IMG_COORDS_(W, DIMS, ARR, c, x, y, z, l)                                     \
        (void)l;                                                                         \
        /* RGBA 8-bit and float: the value, then a store that only the test guards, at  \
         * an offset computed as an integer (outside the image it points nowhere): the  \
         * compiler masks the store in work-item loops that vectorise, or, where x is   \
         * known inside (the split's middle), the test is the row's alone. The 8-bit    \
         * store's pointer is formed under the test (clang 14 finds no bounds for an    \
         * address made from an integer, and left the loop scalar: the Guide's Sobel    \
         * 37.7 -> 6.6 ms); the float one's is not (clang then vectorises the loop with \
         * a gather and a scatter per channel: 13.4 -> 27.5 ms) */                      \
        const size_t at = cl2c_img_offset_as_(im, DIMS, x, y, z, as);                    \
        const int inside = cl2c_img_inside_(im, DIMS, x_inside ? 0 : x, y, z);           \
        if (cl2c_img_unorm8x4_as_(im, as) && cl2c_img_element_size_as_(im, as) == 4 &&   \
            !(ARR)) {                                                                    \
            const uint32_t w = cl2c_img_unorm8x4_word_(im, v, as);                       \
            if (inside)                                                                  \
                memcpy((unsigned char *)im->data + at, &w, 4);                           \
            return;                                                                      \
        }                                                                                \
        if (cl2c_img_rgba_float_as_(im, as) && cl2c_img_element_size_as_(im, as) == 16 && \
            !(ARR)) {                                                                    \
            if (inside) {   /* as floats (a float image's pixels are): not memcpy's     \
                             * 16-byte integer, which GCC neither masks nor vectorises */ \
                float *f = (float *)((uintptr_t)im->data + at);                          \
                f[0] = v.s[0], f[1] = v.s[1], f[2] = v.s[2], f[3] = v.s[3];              \
            }                                                                            \
            return;                                                                      \
        }                                                                                \
        unsigned char *p = cl2c_write_at_##IMG##_##CI(im, c);                             \
        if (p)                                                                           \
            cl2c_img_encode_f_as_(im, p, v, as);                                         \
    }                                                                                    \
    CL2C_INLINE void cl2c_write_imagef_##IMG##_##CI(const cl2c_image *im, cl2c_##CI c,    \
                                                    cl2c_float4 v) {                      \
        cl2c_write_imagef_##IMG##_##CI##_at_(im, c, v, 0, 0);                             \
    }                                                                                    \
    /* x known inside the image (the regions schedule's split, as for reads) */         \
    CL2C_INLINE void cl2c_write_imagef_##IMG##_##CI##_xin(const cl2c_image *im,           \
                                                          cl2c_##CI c, cl2c_float4 v) {   \
        cl2c_write_imagef_##IMG##_##CI##_at_(im, c, v, 1, 0);                             \
    }                                                                                    \
    /* the format known (CL2C_IMG_AS_...): the twins' writes */                         \
    CL2C_INLINE void cl2c_write_imagef_##IMG##_##CI##_as(const cl2c_image *im,            \
                                                         cl2c_##CI c, cl2c_float4 v,      \
                                                         int as) {                        \
        cl2c_write_imagef_##IMG##_##CI##_at_(im, c, v, 0, as);                            \
    }                                                                                    \
    CL2C_INLINE void cl2c_write_imagef_##IMG##_##CI##_xin_as(const cl2c_image *im,        \
                                                             cl2c_##CI c, cl2c_float4 v,  \
                                                             int as) {                    \
        cl2c_write_imagef_##IMG##_##CI##_at_(im, c, v, 1, as);                            \
    }                                                                                    \
    CL2C_INLINE void cl2c_write_imagei_##IMG##_##CI(const cl2c_image *im, cl2c_##CI c,    \
                                                    cl2c_int4 v) {                        \
        unsigned char *p = cl2c_write_at_##IMG##_##CI(im, c);                             \
        cl2c_uint4 u;                                                                    \
        memcpy(&u, &v, sizeof u);                                                        \
        if (p)                                                                           \
            cl2c_img_encode_i_(im, p, u, 1);                                                 \
    }                                                                                    \
    CL2C_INLINE void cl2c_write_imageui_##IMG##_##CI(const cl2c_image *im, cl2c_##CI c,   \
                                                     cl2c_uint4 v) {                      \
        unsigned char *p = cl2c_write_at_##IMG##_##CI(im, c);                             \
        if (p)                                                                           \
            cl2c_img_encode_i_(im, p, v, 0);                                                 \
    }                                                                                    \
    CL2C_INLINE void cl2c_write_imageh_##IMG##_##CI(const cl2c_image *im, cl2c_##CI c,    \
                                                    cl2c_half4 v) {                       \
        cl2c_write_imagef_##IMG##_##CI(im, c, cl2c_img_half4_to_float4_(v));                  \
    }

/* The reads with a sampler, on coordinates of type CT (int or float ones). */
#define CL2C_IMAGE_SAMPLED(IMG, CT, W, DIMS, ARR)                                         \
    CL2C_INLINE cl2c_float4 cl2c_read_imagef_##IMG##_s_##CT##_at_(                         \
        const cl2c_image *im, cl2c_sampler_t s, cl2c_##CT c, int x_inside, int as) {     \
        CL2C_IMG_SCALAR_##CT x, y, z, l;                                                 \
        CL2C_IMG_COORDS_(W, DIMS, ARR, c, x, y, z, l)                                     \
        if (cl2c_coords_are_int_##CT && cl2c_img_int_path_(s))                               \
            return cl2c_img_texel_f_as_(im, s, cl2c_img_layer_i_(im, (long)l, ARR), DIMS,            \
                                 x_inside ? (long)x : cl2c_img_address_(s, (long)x, (long)im->width), \
                                 DIMS > 1 ? cl2c_img_address_(s, (long)y, (long)im->height) : 0, \
                                 DIMS > 2 ? cl2c_img_address_(s, (long)z, (long)im->depth) : 0, \
                                 as);                                                    \
        return cl2c_img_sample_f_(im, s, cl2c_img_layer_(im, l, ARR), DIMS, x, y, z);             \
    }                                                                                    \
    CL2C_INLINE cl2c_float4 cl2c_read_imagef_##IMG##_s_##CT(const cl2c_image *im,         \
                                                            cl2c_sampler_t s,            \
                                                            cl2c_##CT c) {               \
        return cl2c_read_imagef_##IMG##_s_##CT##_at_(im, s, c, 0, 0);                    \
    }                                                                                    \
    /* x known inside the image, 0 <= x < width: the regions schedule's split reads so \
     * (workgroup/builders/splits.py), loading neighbouring x together */               \
    CL2C_INLINE cl2c_float4 cl2c_read_imagef_##IMG##_s_##CT##_xin(const cl2c_image *im,   \
                                                                  cl2c_sampler_t s,      \
                                                                  cl2c_##CT c) {         \
        return cl2c_read_imagef_##IMG##_s_##CT##_at_(im, s, c, 1, 0);                    \
    }                                                                                    \
    /* the format known (CL2C_IMG_AS_...): the twins' reads */                          \
    CL2C_INLINE cl2c_float4 cl2c_read_imagef_##IMG##_s_##CT##_as(const cl2c_image *im,    \
                                                                 cl2c_sampler_t s,       \
                                                                 cl2c_##CT c, int as) {  \
        return cl2c_read_imagef_##IMG##_s_##CT##_at_(im, s, c, 0, as);                   \
    }                                                                                    \
    CL2C_INLINE cl2c_float4 cl2c_read_imagef_##IMG##_s_##CT##_xin_as(                     \
        const cl2c_image *im, cl2c_sampler_t s, cl2c_##CT c, int as) {                   \
        return cl2c_read_imagef_##IMG##_s_##CT##_at_(im, s, c, 1, as);                   \
    }                                                                                    \
    CL2C_INLINE cl2c_uint4 cl2c_read_image_bits_##IMG##_s_##CT(const cl2c_image *im,      \
                                                               cl2c_sampler_t s,         \
                                                               cl2c_##CT c) {            \
        float x, y, z, l;                                                                \
        CL2C_IMG_COORDS_(W, DIMS, ARR, c, x, y, z, l)                                     \
        return cl2c_img_sample_i_(im, s, cl2c_img_layer_(im, l, ARR), DIMS, x, y, z);             \
    }                                                                                    \
    CL2C_INLINE cl2c_int4 cl2c_read_imagei_##IMG##_s_##CT(const cl2c_image *im,           \
                                                          cl2c_sampler_t s, cl2c_##CT c) { \
        cl2c_uint4 u = cl2c_read_image_bits_##IMG##_s_##CT(im, s, c);                     \
        cl2c_int4 r;                                                                     \
        memcpy(&r, &u, sizeof r);                                                        \
        return r;                                                                        \
    }                                                                                    \
    CL2C_INLINE cl2c_uint4 cl2c_read_imageui_##IMG##_s_##CT(const cl2c_image *im,         \
                                                            cl2c_sampler_t s,            \
                                                            cl2c_##CT c) {               \
        return cl2c_read_image_bits_##IMG##_s_##CT(im, s, c);                             \
    }                                                                                    \
    CL2C_INLINE cl2c_half4 cl2c_read_imageh_##IMG##_s_##CT(const cl2c_image *im,          \
                                                           cl2c_sampler_t s, cl2c_##CT c) { \
        return cl2c_img_float4_to_half4_(cl2c_read_imagef_##IMG##_s_##CT(im, s, c));          \
    }

/* The scalar type a function computes its coordinates in: int ones stay integers. */
#define CL2C_IMG_SCALAR_int long
#define CL2C_IMG_SCALAR_int2 long
#define CL2C_IMG_SCALAR_int4 long
#define CL2C_IMG_SCALAR_float float
#define CL2C_IMG_SCALAR_float2 float
#define CL2C_IMG_SCALAR_float4 float
#define cl2c_coords_are_int_int 1
#define cl2c_coords_are_int_int2 1
#define cl2c_coords_are_int_int4 1
#define cl2c_coords_are_int_float 0
#define cl2c_coords_are_int_float2 0
#define cl2c_coords_are_int_float4 0

CL2C_INLINE cl2c_half4 cl2c_img_float4_to_half4_(cl2c_float4 v) {
    cl2c_half4 r;
    for (int i = 0; i < 4; ++i)
        cl2c_set_half_bits_(&r.s[i], cl2c_double_to_half(v.s[i], 0));
    return r;
}

CL2C_INLINE cl2c_float4 cl2c_img_half4_to_float4_(cl2c_half4 v) {
    cl2c_float4 r;
    for (int i = 0; i < 4; ++i)
        r.s[i] = cl2c_half_to_float(cl2c_half_bits_(&v.s[i]));
    return r;
}

#define CL2C_IMAGE_KIND(IMG, CI, CF, W, DIMS, ARR)                                        \
    CL2C_IMAGE_INT_FUNCTIONS(IMG, CI, W, DIMS, ARR)                                       \
    CL2C_IMAGE_SAMPLED(IMG, CI, W, DIMS, ARR)                                             \
    CL2C_IMAGE_SAMPLED(IMG, CF, W, DIMS, ARR)

/* read_imagef at float coordinates that hold ints (`(float2)(x, y)` of int x, y, as the
 * Guide's histogram reads): lowering passes the ints (lower/calls.py). Where each lies
 * within 2^24 of 0, so that the float holds it exactly, the read at the ints is the
 * same (it takes the float path itself where the sampler wants floats), without the
 * conversions and floors where the sampler takes integer coordinates as they are. */
CL2C_INLINE int cl2c_img_exact_int(int c) { return (unsigned)c + (1u << 24) <= 2u << 24; }
CL2C_INLINE int cl2c_img_exact_int2(cl2c_int2 c) {
    return cl2c_img_exact_int(c.s[0]) & cl2c_img_exact_int(c.s[1]);
}
CL2C_INLINE int cl2c_img_exact_int4(cl2c_int4 c) {
    return cl2c_img_exact_int(c.s[0]) & cl2c_img_exact_int(c.s[1]) &
           cl2c_img_exact_int(c.s[2]) & cl2c_img_exact_int(c.s[3]);
}
CL2C_INLINE float cl2c_img_float_int(int c) { return (float)c; }
CL2C_INLINE cl2c_float2 cl2c_img_float_int2(cl2c_int2 c) {
    cl2c_float2 f = {{(float)c.s[0], (float)c.s[1]}};
    return f;
}
CL2C_INLINE cl2c_float4 cl2c_img_float_int4(cl2c_int4 c) {
    cl2c_float4 f = {{(float)c.s[0], (float)c.s[1], (float)c.s[2], (float)c.s[3]}};
    return f;
}
#define CL2C_IMAGE_FROM_INT(IMG, CI, CF, R)                                               \
    CL2C_INLINE R cl2c_read_imagef_##IMG##_s_##CF##_from_##CI(const cl2c_image *im,       \
                                                              cl2c_sampler_t s,          \
                                                              cl2c_##CI c) {             \
        if (cl2c_img_exact_##CI(c))                                                      \
            return cl2c_read_imagef_##IMG##_s_##CI(im, s, c);                             \
        return cl2c_read_imagef_##IMG##_s_##CF(im, s, cl2c_img_float_##CI(c));            \
    }

CL2C_IMAGE_KIND(image1d, int, float, 1, 1, 0)
CL2C_IMAGE_INT_FUNCTIONS(image1d_buffer, int, 1, 1, 0)
CL2C_IMAGE_KIND(image1d_array, int2, float2, 2, 1, 1)
CL2C_IMAGE_KIND(image2d, int2, float2, 2, 2, 0)
CL2C_IMAGE_KIND(image2d_array, int4, float4, 4, 2, 1)
CL2C_IMAGE_KIND(image3d, int4, float4, 4, 3, 0)

/* Depth images: read_imagef and write_imagef of one float, the depth. */
#define CL2C_IMAGE_DEPTH(IMG, BASE, CI, CF)                                               \
    CL2C_INLINE float cl2c_read_imagef_##IMG##_##CI(const cl2c_image *im, cl2c_##CI c) {  \
        return cl2c_read_imagef_##BASE##_##CI(im, c).s[0];                                \
    }                                                                                    \
    CL2C_INLINE float cl2c_read_imagef_##IMG##_s_##CI(const cl2c_image *im,               \
                                                      cl2c_sampler_t s, cl2c_##CI c) {    \
        return cl2c_read_imagef_##BASE##_s_##CI(im, s, c).s[0];                           \
    }                                                                                    \
    CL2C_INLINE float cl2c_read_imagef_##IMG##_s_##CF(const cl2c_image *im,               \
                                                      cl2c_sampler_t s, cl2c_##CF c) {    \
        return cl2c_read_imagef_##BASE##_s_##CF(im, s, c).s[0];                           \
    }                                                                                    \
    CL2C_INLINE void cl2c_write_imagef_##IMG##_##CI(const cl2c_image *im, cl2c_##CI c,    \
                                                    float v) {                           \
        cl2c_float4 f = {{v, 0.0f, 0.0f, 0.0f}};                                         \
        cl2c_write_imagef_##BASE##_##CI(im, c, f);                                        \
    }                                                                                    \
    CL2C_INLINE float cl2c_read_imagef_##IMG##_s_##CI##_xin(const cl2c_image *im,         \
                                                            cl2c_sampler_t s,            \
                                                            cl2c_##CI c) {               \
        return cl2c_read_imagef_##BASE##_s_##CI##_xin(im, s, c).s[0];                     \
    }                                                                                    \
    CL2C_INLINE void cl2c_write_imagef_##IMG##_##CI##_xin(const cl2c_image *im,           \
                                                          cl2c_##CI c, float v) {         \
        cl2c_float4 f = {{v, 0.0f, 0.0f, 0.0f}};                                         \
        cl2c_write_imagef_##BASE##_##CI##_xin(im, c, f);                                  \
    }

CL2C_IMAGE_DEPTH(image2d_depth, image2d, int2, float2)
CL2C_IMAGE_DEPTH(image2d_array_depth, image2d_array, int4, float4)

/* ... and the format known (CL2C_IMG_AS_...): the twins' reads */
#define CL2C_IMAGE_FROM_INT_AS(IMG, CI, CF)                                               \
    CL2C_IMAGE_FROM_INT(IMG, CI, CF, cl2c_float4)                                         \
    CL2C_INLINE cl2c_float4 cl2c_read_imagef_##IMG##_s_##CF##_from_##CI##_as(             \
        const cl2c_image *im, cl2c_sampler_t s, cl2c_##CI c, int as) {                   \
        if (cl2c_img_exact_##CI(c))                                                      \
            return cl2c_read_imagef_##IMG##_s_##CI##_as(im, s, c, as);                    \
        return cl2c_read_imagef_##IMG##_s_##CF##_as(im, s, cl2c_img_float_##CI(c), as);   \
    }

CL2C_IMAGE_FROM_INT_AS(image1d, int, float)
CL2C_IMAGE_FROM_INT_AS(image1d_array, int2, float2)
CL2C_IMAGE_FROM_INT_AS(image2d, int2, float2)
CL2C_IMAGE_FROM_INT_AS(image2d_array, int4, float4)
CL2C_IMAGE_FROM_INT_AS(image3d, int4, float4)
CL2C_IMAGE_FROM_INT(image2d_depth, int2, float2, float)
CL2C_IMAGE_FROM_INT(image2d_array_depth, int4, float4, float)

/* ---- queries (6.12.14.5) ----------------------------------------------------------- */

CL2C_INLINE int cl2c_get_image_width(const cl2c_image *im) { return (int)im->width; }
CL2C_INLINE int cl2c_get_image_height(const cl2c_image *im) { return (int)im->height; }
CL2C_INLINE int cl2c_get_image_depth(const cl2c_image *im) { return (int)im->depth; }
CL2C_INLINE int cl2c_get_image_channel_data_type(const cl2c_image *im) {
    return (int)im->channel_data_type;
}
CL2C_INLINE int cl2c_get_image_channel_order(const cl2c_image *im) {
    return (int)im->channel_order;
}
CL2C_INLINE cl2c_int2 cl2c_get_image_dim2(const cl2c_image *im) {
    cl2c_int2 r = {{(int)im->width, (int)im->height}};
    return r;
}
CL2C_INLINE cl2c_int4 cl2c_get_image_dim3(const cl2c_image *im) {
    cl2c_int4 r = {{(int)im->width, (int)im->height, (int)im->depth, 0}};
    return r;
}
CL2C_INLINE size_t cl2c_get_image_array_size(const cl2c_image *im) { return im->array_size; }

#endif
