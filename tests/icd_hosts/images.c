/* A C host program with images and samplers, through the system's ICD loader: formats,
 * creation (clCreateImage and 1.1's clCreateImage2D/3D), info, every transfer (read and
 * write with pitches, copies between images and buffers, fill, map), samplers, and
 * kernels that take them (the Programming Guide's chapter 8 Gaussian filter, a rotation,
 * bilinear and 3D sampling, integer images). It checks what has one answer and prints
 * "ok" (or the first failure, exit 1).
 *
 * `images [PLATFORM [OUT]]`: the platform whose name contains PLATFORM (default cl2c);
 * OUT receives the kernels' results (a "name type count" line, then the raw values,
 * for each), which tests/test_icd_images.py compares between cl2c and PoCL. */
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond) \
    do { if (!(cond)) { printf("FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond); exit(1); } } \
    while (0)
#define OK(call) \
    do { cl_int err_ = (call); \
         if (err_ != CL_SUCCESS) { printf("FAILED %s:%d: %s gave %d\n", __FILE__, __LINE__, \
                                         #call, err_); exit(1); } } while (0)
/* A call refused with the spec's code: on cl2c; elsewhere (PoCL) a different answer is
 * only noted. */
#define FAILS(code, call) \
    do { cl_int err_ = (call); \
         if (err_ != (code)) { \
             if (on_cl2c) { printf("FAILED %s:%d: %s gave %d, not %s\n", __FILE__, \
                                   __LINE__, #call, err_, #code); exit(1); } \
             fprintf(stderr, "note: %s gave %d, not %s\n", #call, err_, #code); } } while (0)
/* The same for a creation (NULL and the code in err). */
#define REFUSED(code, call) \
    do { err = -9999; \
         void *got_ = (void *)(call); \
         if (got_ != NULL || err != (code)) { \
             if (on_cl2c) { printf("FAILED %s:%d: %s gave %d, not %s\n", __FILE__, \
                                   __LINE__, #call, err, #code); exit(1); } \
             fprintf(stderr, "note: %s gave %d, not %s\n", #call, err, #code); } } while (0)

static int on_cl2c;
static cl_context ctx;
static cl_device_id device;
static cl_command_queue q;
static FILE *out;

static const char *source =
    "__constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP |\n"
    "                               CLK_FILTER_NEAREST;\n"
    /* the Guide's chapter 8 (ImageFilter2D): a 3x3 Gaussian with a host's sampler */
    "__kernel void gaussian_filter(__read_only image2d_t src, __write_only image2d_t dst,\n"
    "                              sampler_t sampler, int width, int height) {\n"
    "    float kernelWeights[9] = {1.0f, 2.0f, 1.0f, 2.0f, 4.0f, 2.0f, 1.0f, 2.0f, 1.0f};\n"
    "    int2 startImageCoord = (int2)(get_global_id(0) - 1, get_global_id(1) - 1);\n"
    "    int2 endImageCoord = (int2)(get_global_id(0) + 1, get_global_id(1) + 1);\n"
    "    int2 outImageCoord = (int2)(get_global_id(0), get_global_id(1));\n"
    "    if (outImageCoord.x < width && outImageCoord.y < height) {\n"
    "        int weight = 0;\n"
    "        float4 outColor = (float4)(0.0f, 0.0f, 0.0f, 0.0f);\n"
    "        for (int y = startImageCoord.y; y <= endImageCoord.y; y++)\n"
    "            for (int x = startImageCoord.x; x <= endImageCoord.x; x++) {\n"
    "                outColor += (read_imagef(src, sampler, (int2)(x, y)) *\n"
    "                             (kernelWeights[weight] / 16.0f));\n"
    "                weight += 1;\n"
    "            }\n"
    "        write_imagef(dst, outImageCoord, outColor);\n"
    "    }\n"
    "}\n"
    "__kernel void rotate_image(read_only image2d_t src, write_only image2d_t dst,\n"
    "                           float s, float c) {\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    float cx = get_image_width(src) / 2.0f, cy = get_image_height(src) / 2.0f;\n"
    "    float u = (x - cx) * c - (y - cy) * s + cx, v = (x - cx) * s + (y - cy) * c + cy;\n"
    "    write_imagef(dst, (int2)(x, y), read_imagef(src, nearest, (float2)(u, v)));\n"
    "}\n"
    "__kernel void sample2d(read_only image2d_t src, sampler_t s, __global float4 *out,\n"
    "                       float scale) {\n"
    "    int i = get_global_id(0), n = get_global_size(0);\n"
    "    float2 at = (float2)(i * scale - 0.3f, (n - i) * scale * 0.7f);\n"
    "    out[i] = read_imagef(src, s, at);\n"
    "}\n"
    "__kernel void sample3d(read_only image3d_t src, sampler_t s, __global float4 *out) {\n"
    "    int i = get_global_id(0);\n"
    "    float4 at = (float4)(i * 0.037f, i * 0.051f - 0.2f, i * 0.029f, 0.0f);\n"
    "    out[i] = read_imagef(src, s, at);\n"
    "}\n"
    /* (its buffer image's width written out: PoCL 3.1 has no get_image_width of an
     * image1d_buffer_t) */
    "__kernel void sample1d(read_only image1d_t a, read_only image1d_buffer_t b,\n"
    "                       sampler_t s, __global float4 *out) {\n"
    "    int i = get_global_id(0);\n"
    "    out[i] = read_imagef(a, s, i * 0.37f - 1.1f) +\n"
    "             read_imagef(b, i % 64) * 0.5f;\n"
    "}\n"
    "__kernel void integers(read_only image2d_t src, write_only image2d_t dst) {\n"
    "    int2 at = (int2)(get_global_id(0), get_global_id(1));\n"
    "    write_imageui(dst, at, read_imageui(src, at) * 3u + (uint4)(1, 2, 3, 4));\n"
    "}\n"
    "__kernel void layers(read_only image2d_array_t src, __global float4 *out) {\n"
    "    int x = get_global_id(0), y = get_global_id(1), l = get_global_id(2);\n"
    "    out[(l * get_image_height(src) + y) * get_image_width(src) + x] =\n"
    "        read_imagef(src, nearest, (int4)(x, y, l, 0));\n"
    "}\n";

/* A result for the differential comparison. */
static void emit(const char *name, const char *type, size_t count, const void *data,
                 size_t bytes)
{
    if (!out)
        return;
    fprintf(out, "%s %s %zu\n", name, type, count);
    fwrite(data, 1, bytes, out);
}

static cl_kernel kernel(cl_program p, const char *name)
{
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    if (err != CL_SUCCESS) {
        printf("FAILED clCreateKernel(%s) gave %d\n", name, err);
        exit(1);
    }
    return k;
}

static cl_mem image2d(cl_mem_flags flags, cl_channel_order order, cl_channel_type type,
                      size_t w, size_t h, void *host)
{
    cl_image_format f = {order, type};
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = w,
                       .image_height = h};
    cl_int err;
    cl_mem m = clCreateImage(ctx, flags, &f, &d, host, &err);
    OK(err);
    return m;
}

static void formats_and_errors(void)
{
    cl_bool images = CL_FALSE;
    OK(clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
    CHECK(images == CL_TRUE);
    size_t max2d = 0;
    OK(clGetDeviceInfo(device, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof max2d, &max2d, NULL));
    CHECK(max2d >= 8192);
    cl_uint n = 0;
    OK(clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n));
    cl_image_format *formats = malloc(n * sizeof *formats);
    OK(clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, n, formats,
                                  NULL));
    /* the 1.2 spec's minimum list for reading and writing */
    static const cl_image_format required[] = {
        {CL_RGBA, CL_UNORM_INT8}, {CL_RGBA, CL_UNORM_INT16}, {CL_RGBA, CL_SIGNED_INT8},
        {CL_RGBA, CL_SIGNED_INT16}, {CL_RGBA, CL_SIGNED_INT32}, {CL_RGBA, CL_UNSIGNED_INT8},
        {CL_RGBA, CL_UNSIGNED_INT16}, {CL_RGBA, CL_UNSIGNED_INT32}, {CL_RGBA, CL_HALF_FLOAT},
        {CL_RGBA, CL_FLOAT}, {CL_BGRA, CL_UNORM_INT8}};
    for (size_t r = 0; r < sizeof required / sizeof *required; r++) {
        int found = 0;
        for (cl_uint i = 0; i < n; i++)
            found |= formats[i].image_channel_order == required[r].image_channel_order &&
                     formats[i].image_channel_data_type == required[r].image_channel_data_type;
        CHECK(found);
    }
    free(formats);
    FAILS(CL_INVALID_VALUE, clGetSupportedImageFormats(ctx, 0, CL_MEM_OBJECT_BUFFER, 0, NULL,
                                                       &n));

    cl_int err;
    cl_image_format rgba = {CL_RGBA, CL_FLOAT};
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4,
                       .image_height = 4};
    cl_image_format bad = {CL_RGBA, 0x1234};
    REFUSED(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
            clCreateImage(ctx, 0, &bad, &d, NULL, &err));
    REFUSED(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
            clCreateImage(ctx, 0, NULL, &d, NULL, &err));
    REFUSED(CL_INVALID_IMAGE_DESCRIPTOR, clCreateImage(ctx, 0, &rgba, NULL, NULL, &err));
    cl_image_desc zero = d;
    zero.image_width = 0;
    REFUSED(CL_INVALID_IMAGE_DESCRIPTOR, clCreateImage(ctx, 0, &rgba, &zero, NULL, &err));
    REFUSED(CL_INVALID_IMAGE_SIZE, clCreateImage2D(ctx, 0, &rgba, 0, 4, 0, NULL, &err));
    cl_image_desc huge = d;
    huge.image_width = max2d + 1;
    REFUSED(CL_INVALID_IMAGE_SIZE, clCreateImage(ctx, 0, &rgba, &huge, NULL, &err));
    cl_image_desc pitched = d;                /* a pitch without host memory */
    pitched.image_row_pitch = 256;
    REFUSED(CL_INVALID_IMAGE_DESCRIPTOR,
            clCreateImage(ctx, 0, &rgba, &pitched, NULL, &err));
    float pixels[64];
    REFUSED(CL_INVALID_HOST_PTR,
            clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &rgba, &d, NULL, &err));
    REFUSED(CL_INVALID_HOST_PTR, clCreateImage(ctx, 0, &rgba, &d, pixels, &err));
    /* RGB is a format of the packed types only (the spec's table of orders); depth
     * images are 2.0's, not a format of the 1.2 device */
    cl_image_format rgb_float = {CL_RGB, CL_FLOAT}, depth = {CL_DEPTH, CL_FLOAT};
    REFUSED(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
            clCreateImage(ctx, 0, &rgb_float, &d, NULL, &err));
    char version[256] = "";  /* PoCL's names the CPU: 64 bytes on some */
    OK(clGetDeviceInfo(device, CL_DEVICE_VERSION, sizeof version, version, NULL));
    if (strncmp(version, "OpenCL 1.", 9) == 0) {
        REFUSED(CL_IMAGE_FORMAT_NOT_SUPPORTED, clCreateImage(ctx, 0, &depth, &d, NULL, &err));
    } else {
        cl_mem m = clCreateImage(ctx, 0, &depth, &d, NULL, &err);
        if (m)
            OK(clReleaseMemObject(m));
        else if (on_cl2c)
            OK(err);
        else
            fprintf(stderr, "note: a depth image gave %d\n", err);   /* PoCL's CPU device */
    }

    /* samplers */
    cl_sampler s = clCreateSampler(ctx, CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, &err);
    OK(err);
    cl_bool norm;
    cl_addressing_mode mode;
    cl_filter_mode filter;
    cl_uint refs;
    cl_context sctx;
    OK(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL));
    OK(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof mode, &mode, NULL));
    OK(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof filter, &filter, NULL));
    OK(clGetSamplerInfo(s, CL_SAMPLER_CONTEXT, sizeof sctx, &sctx, NULL));
    OK(clRetainSampler(s));
    OK(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    CHECK(norm == CL_TRUE && mode == CL_ADDRESS_REPEAT && filter == CL_FILTER_LINEAR &&
          sctx == ctx && refs == 2);
    OK(clReleaseSampler(s));
    OK(clReleaseSampler(s));
    REFUSED(CL_INVALID_VALUE,
            clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST, &err));
    REFUSED(CL_INVALID_VALUE, clCreateSampler(ctx, CL_TRUE, 0x1234, CL_FILTER_NEAREST, &err));
    REFUSED(CL_INVALID_CONTEXT,
            clCreateSampler(NULL, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err));
}

/* Creation with host memory, info, and every transfer, checked against the host's
 * own copy of the pixels. */
static void transfers(void)
{
    enum { W = 13, H = 7, PITCH = 64 };        /* a row pitch past the row */
    unsigned char host[H * PITCH], back[H * W * 4];
    for (int i = 0; i < H * PITCH; i++)
        host[i] = (unsigned char)(i * 7 + 3);
    cl_int err;
    cl_image_format f = {CL_RGBA, CL_UNORM_INT8};
    cl_mem a = clCreateImage2D(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &f, W, H,
                               PITCH, host, &err);
    OK(err);
    size_t v;
    cl_image_format got;
    OK(clGetImageInfo(a, CL_IMAGE_FORMAT, sizeof got, &got, NULL));
    CHECK(got.image_channel_order == CL_RGBA && got.image_channel_data_type == CL_UNORM_INT8);
    OK(clGetImageInfo(a, CL_IMAGE_ELEMENT_SIZE, sizeof v, &v, NULL));
    CHECK(v == 4);
    OK(clGetImageInfo(a, CL_IMAGE_WIDTH, sizeof v, &v, NULL));
    CHECK(v == W);
    OK(clGetImageInfo(a, CL_IMAGE_HEIGHT, sizeof v, &v, NULL));
    CHECK(v == H);
    OK(clGetImageInfo(a, CL_IMAGE_DEPTH, sizeof v, &v, NULL));
    CHECK(v == 0);
    OK(clGetImageInfo(a, CL_IMAGE_ROW_PITCH, sizeof v, &v, NULL));
    CHECK(v >= W * 4);
    cl_mem_object_type type;
    OK(clGetMemObjectInfo(a, CL_MEM_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_MEM_OBJECT_IMAGE2D);
    FAILS(CL_INVALID_MEM_OBJECT, clGetImageInfo(NULL, CL_IMAGE_WIDTH, sizeof v, &v, NULL));

    size_t origin[3] = {0, 0, 0}, all[3] = {W, H, 1};
    OK(clEnqueueReadImage(q, a, CL_TRUE, origin, all, 0, 0, back, 0, NULL, NULL));
    for (int y = 0; y < H; y++)
        CHECK(memcmp(back + y * W * 4, host + y * PITCH, W * 4) == 0);
    /* a part, to host memory with a pitch of its own */
    size_t at[3] = {3, 2, 0}, part[3] = {5, 4, 1};
    unsigned char piece[4 * 32];
    OK(clEnqueueReadImage(q, a, CL_TRUE, at, part, 32, 0, piece, 0, NULL, NULL));
    for (int y = 0; y < 4; y++)
        CHECK(memcmp(piece + y * 32, host + (y + 2) * PITCH + 3 * 4, 5 * 4) == 0);
    size_t past[3] = {W, 1, 1};
    FAILS(CL_INVALID_VALUE, clEnqueueReadImage(q, a, CL_TRUE, at, past, 0, 0, back, 0, NULL,
                                               NULL));
    size_t flat[3] = {1, 1, 2};
    FAILS(CL_INVALID_VALUE, clEnqueueReadImage(q, a, CL_TRUE, origin, flat, 0, 0, back, 0,
                                               NULL, NULL));
    /* write a part back, shifted */
    OK(clEnqueueWriteImage(q, a, CL_TRUE, origin, part, 32, 0, piece, 0, NULL, NULL));
    OK(clEnqueueReadImage(q, a, CL_TRUE, origin, all, 0, 0, back, 0, NULL, NULL));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W * 4; x++)
            CHECK(back[y * W * 4 + x] == (y < 4 && x < 20 ? piece[y * 32 + x]
                                                           : host[y * PITCH + x]));
    /* image to image, image to buffer, buffer to image */
    cl_mem b = image2d(CL_MEM_READ_WRITE, CL_RGBA, CL_UNORM_INT8, W, H, NULL);
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, W * H * 4, NULL, &err);
    OK(err);
    OK(clEnqueueCopyImage(q, a, b, origin, origin, all, 0, NULL, NULL));
    OK(clEnqueueCopyImageToBuffer(q, b, buf, at, part, 8, 0, NULL, NULL));
    unsigned char tight[W * H * 4];
    OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 8, 5 * 4 * 4, tight, 0, NULL, NULL));
    for (int y = 0; y < 4; y++)
        CHECK(memcmp(tight + y * 20, back + (y + 2) * W * 4 + 12, 20) == 0);
    OK(clEnqueueCopyBufferToImage(q, buf, b, 8, origin, part, 0, NULL, NULL));
    unsigned char back2[H * W * 4];
    OK(clEnqueueReadImage(q, b, CL_TRUE, origin, all, 0, 0, back2, 0, NULL, NULL));
    for (int y = 0; y < 4; y++)
        CHECK(memcmp(back2 + y * W * 4, tight + y * 20, 20) == 0);
    FAILS(CL_MEM_COPY_OVERLAP, clEnqueueCopyImage(q, a, a, origin, at, part, 0, NULL, NULL));
    cl_mem other = image2d(CL_MEM_READ_WRITE, CL_RGBA, CL_FLOAT, W, H, NULL);
    FAILS(CL_IMAGE_FORMAT_MISMATCH, clEnqueueCopyImage(q, a, other, origin, origin, all, 0,
                                                       NULL, NULL));
    /* fill: the colour converted as write_imagef would */
    float color[4] = {1.0f, 0.5f, 0.0f, 0.25f};
    OK(clEnqueueFillImage(q, b, color, at, part, 0, NULL, NULL));
    OK(clEnqueueReadImage(q, b, CL_TRUE, origin, all, 0, 0, back2, 0, NULL, NULL));
    /* 127.5 and 63.75 round to 128 and 64; the spec allows 0.6 of a unit off */
    const unsigned char want[4] = {255, 128, 0, 64};
    for (int y = 2; y < 6; y++)
        for (int x = 3; x < 8; x++)
            for (int k = 0; k < 4; k++)
                CHECK(abs(back2[(y * W + x) * 4 + k] - want[k]) <= (on_cl2c ? 0 : 1));
    /* map: the pixels at the image's pitch */
    size_t row_pitch = 0;
    unsigned char *mapped = clEnqueueMapImage(q, b, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, at,
                                              part, &row_pitch, NULL, 0, NULL, NULL, &err);
    OK(err);
    CHECK(row_pitch >= W * 4);
    CHECK(memcmp(mapped, back2 + (2 * W + 3) * 4, 4) == 0 &&
          memcmp(mapped + 3 * row_pitch + 16, back2 + (5 * W + 7) * 4, 4) == 0);
    mapped[0] = 9;
    OK(clEnqueueUnmapMemObject(q, b, mapped, 0, NULL, NULL));
    OK(clEnqueueReadImage(q, b, CL_TRUE, at, (size_t[3]){1, 1, 1}, 0, 0, back2, 0, NULL,
                          NULL));
    CHECK(back2[0] == 9);
    /* the transfers' errors */
    FAILS(CL_INVALID_VALUE, clEnqueueReadImage(q, b, CL_TRUE, origin, all, 0, 0, NULL, 0, NULL,
                                               NULL));
    FAILS(CL_INVALID_VALUE, clEnqueueReadImage(q, b, CL_TRUE, origin, all, 4, 0, back2, 0,
                                               NULL, NULL));    /* a row pitch too small */
    FAILS(CL_INVALID_MEM_OBJECT, clEnqueueReadImage(q, buf, CL_TRUE, origin, all, 0, 0, back2,
                                                    0, NULL, NULL));
    FAILS(CL_INVALID_MEM_OBJECT, clEnqueueReadBuffer(q, b, CL_TRUE, 0, 4, back2, 0, NULL,
                                                     NULL));
    FAILS(CL_INVALID_VALUE, clEnqueueCopyImageToBuffer(q, b, buf, origin, all, 8, 0, NULL,
                                                       NULL));        /* past the buffer */
    FAILS(CL_INVALID_VALUE, clEnqueueFillImage(q, b, NULL, origin, all, 0, NULL, NULL));
    CHECK(clEnqueueMapImage(q, b, CL_TRUE, CL_MAP_READ, origin, all, NULL, NULL, 0, NULL, NULL,
                            &err) == NULL);
    FAILS(CL_INVALID_VALUE, err);                                     /* no row pitch */
    cl_mem hidden = clCreateImage2D(ctx, CL_MEM_HOST_NO_ACCESS, &f, W, H, 0, NULL, &err);
    OK(err);
    FAILS(CL_INVALID_OPERATION, clEnqueueReadImage(q, hidden, CL_TRUE, origin, all, 0, 0, back2,
                                                   0, NULL, NULL));
    FAILS(CL_INVALID_OPERATION, clEnqueueWriteImage(q, hidden, CL_TRUE, origin, all, 0, 0,
                                                    back2, 0, NULL, NULL));
    OK(clReleaseMemObject(hidden));
    OK(clReleaseMemObject(other));
    OK(clReleaseMemObject(buf));
    OK(clReleaseMemObject(b));
    OK(clReleaseMemObject(a));

    /* a 3D image with its slice pitch, read back whole; a 1D array's layers */
    enum { D = 3 };
    float vol[D][H][W];
    for (int z = 0; z < D; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                vol[z][y][x] = (float)(z * 1000 + y * 100 + x);
    cl_image_format r = {CL_R, CL_FLOAT};
    cl_mem c3 = clCreateImage3D(ctx, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, &r, W, H, D, 0, 0,
                                vol, &err);
    OK(err);
    float vback[D][H][W];
    size_t box[3] = {W, H, D};
    OK(clEnqueueReadImage(q, c3, CL_TRUE, origin, box, 0, 0, vback, 0, NULL, NULL));
    CHECK(memcmp(vol, vback, sizeof vol) == 0);
    OK(clGetImageInfo(c3, CL_IMAGE_DEPTH, sizeof v, &v, NULL));
    CHECK(v == D);
    OK(clReleaseMemObject(c3));
    cl_image_desc d1 = {.image_type = CL_MEM_OBJECT_IMAGE1D_ARRAY, .image_width = W,
                        .image_array_size = H};
    cl_mem l1 = clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &r, &d1, vol[1], &err);
    OK(err);
    float lback[3][W];
    size_t lat[3] = {2, 3, 0}, lpart[3] = {W - 2, 3, 1};
    /* (both pitches: PoCL steps a 1D array's layers by the row pitch) */
    OK(clEnqueueReadImage(q, l1, CL_TRUE, lat, lpart, W * sizeof(float), W * sizeof(float),
                          lback, 0, NULL, NULL));
    for (int l = 0; l < 3; l++)
        CHECK(memcmp(lback[l], &vol[1][l + 3][2], (W - 2) * sizeof(float)) == 0);
    OK(clGetImageInfo(l1, CL_IMAGE_ARRAY_SIZE, sizeof v, &v, NULL));
    CHECK(v == H);
    /* mapped, its slice pitch is the pitch of its 1D images (of the mapped region, not
     * the whole array's size): layer l + 1 of the map is layer l + 1 of the image */
    size_t lrow = 0, lslice = 0, layer_pitch = 0;
    OK(clGetImageInfo(l1, CL_IMAGE_SLICE_PITCH, sizeof layer_pitch, &layer_pitch, NULL));
    float *lmap = clEnqueueMapImage(q, l1, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, lat, lpart,
                                    &lrow, &lslice, 0, NULL, NULL, &err);
    OK(err);
    CHECK(lslice == layer_pitch && layer_pitch >= W * sizeof(float));
    for (int l = 0; l < 3; l++) {
        const float *layer = (const float *)((const char *)lmap + l * lslice);
        CHECK(memcmp(layer, &vol[1][l + 3][2], (W - 2) * sizeof(float)) == 0);
    }
    OK(clEnqueueUnmapMemObject(q, l1, lmap, 0, NULL, NULL));
    OK(clFinish(q));
    OK(clReleaseMemObject(l1));

    /* a 1D image of a buffer: the buffer's storage, seen as pixels */
    cl_mem under = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof vol,
                                  vol, &err);
    OK(err);
    cl_image_desc db = {.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = 20,
                        .buffer = under};
    cl_image_format rgba_f = {CL_RGBA, CL_FLOAT};
    cl_mem ib = clCreateImage(ctx, 0, &rgba_f, &db, NULL, &err);
    OK(err);
    cl_mem assoc = NULL;
    OK(clGetMemObjectInfo(ib, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL));
    CHECK(assoc == under);
    OK(clReleaseMemObject(under));            /* the image holds it */
    float bback[20 * 4];
    OK(clEnqueueReadImage(q, ib, CL_TRUE, origin, (size_t[3]){20, 1, 1}, 0, 0, bback, 0,
                          NULL, NULL));
    CHECK(memcmp(bback, vol, sizeof bback) == 0);
    db.image_width = sizeof vol / 16 + 1;    /* past its buffer */
    REFUSED(CL_INVALID_IMAGE_SIZE, clCreateImage(ctx, 0, &rgba_f, &db, NULL, &err));
    OK(clReleaseMemObject(ib));
}

static void kernels(void)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    OK(err);
    err = clBuildProgram(p, 1, &device, "", NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[8192] = "";
        clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        printf("FAILED build: %s\n", log);
        exit(1);
    }
    enum { W = 37, H = 29 };
    unsigned char pixels[H][W][4];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            for (int c = 0; c < 4; c++)
                pixels[y][x][c] = (unsigned char)((x * 37 + y * 101 + c * 59) ^ (x * y));
    cl_mem src = image2d(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, CL_RGBA, CL_UNORM_INT8, W,
                         H, pixels);
    cl_mem dst = image2d(CL_MEM_WRITE_ONLY, CL_RGBA, CL_UNORM_INT8, W, H, NULL);
    size_t origin[3] = {0, 0, 0}, all[3] = {W, H, 1}, global[2] = {W, H};
    unsigned char result[H][W][4];

    /* the Guide's Gaussian filter, with its sampler (clamp to edge, nearest) */
    cl_sampler edge = clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE,
                                      CL_FILTER_NEAREST, &err);
    OK(err);
    cl_kernel g = kernel(p, "gaussian_filter");
    int w = W, h = H;
    OK(clSetKernelArg(g, 0, sizeof src, &src));
    OK(clSetKernelArg(g, 1, sizeof dst, &dst));
    OK(clSetKernelArg(g, 2, sizeof edge, &edge));
    OK(clSetKernelArg(g, 3, sizeof w, &w));
    OK(clSetKernelArg(g, 4, sizeof h, &h));
    /* wrong arguments: a buffer for an image, an image for a sampler, a read-only image
     * for a write_only argument */
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096 * sizeof(float), NULL, &err);
    OK(err);
    FAILS(CL_INVALID_MEM_OBJECT, clSetKernelArg(g, 0, sizeof buf, &buf));
    FAILS(CL_INVALID_SAMPLER, clSetKernelArg(g, 2, sizeof src, &src));
    FAILS(CL_INVALID_ARG_VALUE, clSetKernelArg(g, 0, sizeof src, NULL));
    FAILS(CL_INVALID_ARG_SIZE, clSetKernelArg(g, 2, 1, &edge));
    FAILS(CL_INVALID_ARG_VALUE, clSetKernelArg(g, 1, sizeof src, &src));
    cl_kernel_arg_access_qualifier access;
    if (on_cl2c) {          /* PoCL answers only with -cl-kernel-arg-info */
        OK(clGetKernelArgInfo(g, 0, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof access, &access,
                              NULL));
        CHECK(access == CL_KERNEL_ARG_ACCESS_READ_ONLY);
        OK(clGetKernelArgInfo(g, 1, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof access, &access,
                              NULL));
        CHECK(access == CL_KERNEL_ARG_ACCESS_WRITE_ONLY);
    }
    OK(clSetKernelArg(g, 0, sizeof src, &src));
    OK(clSetKernelArg(g, 1, sizeof dst, &dst));
    OK(clSetKernelArg(g, 2, sizeof edge, &edge));
    OK(clEnqueueNDRangeKernel(q, g, 2, NULL, global, NULL, 0, NULL, NULL));
    OK(clEnqueueReadImage(q, dst, CL_TRUE, origin, all, 0, 0, result, 0, NULL, NULL));
    emit("gaussian", "u1", sizeof result, result, sizeof result);
    /* an inner pixel, as the host computes it (within a unit of the last place) */
    for (int c = 0; c < 4; c++) {
        static const float k[3][3] = {{1, 2, 1}, {2, 4, 2}, {1, 2, 1}};
        float sum = 0;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                sum += pixels[10 + dy][20 + dx][c] / 255.0f * k[dy + 1][dx + 1] / 16.0f;
        CHECK(abs((int)result[10][20][c] - (int)lrintf(sum * 255.0f)) <= 1);
    }

    /* a rotation with the program's constant sampler */
    cl_kernel r = kernel(p, "rotate_image");
    float s = sinf(0.5f), c = cosf(0.5f);
    OK(clSetKernelArg(r, 0, sizeof src, &src));
    OK(clSetKernelArg(r, 1, sizeof dst, &dst));
    OK(clSetKernelArg(r, 2, sizeof s, &s));
    OK(clSetKernelArg(r, 3, sizeof c, &c));
    OK(clEnqueueNDRangeKernel(q, r, 2, NULL, global, NULL, 0, NULL, NULL));
    OK(clEnqueueReadImage(q, dst, CL_TRUE, origin, all, 0, 0, result, 0, NULL, NULL));
    emit("rotate", "u1", sizeof result, result, sizeof result);
    /* the host's nearest pixels (CLK_ADDRESS_CLAMP: black out of the image), but
     * where a coordinate falls within rounding of a pixel's edge */
    int same = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float u = (x - W / 2.0f) * c - (y - H / 2.0f) * s + W / 2.0f;
            float v = (x - W / 2.0f) * s + (y - H / 2.0f) * c + H / 2.0f;
            int i = (int)floorf(u), j = (int)floorf(v);
            static const unsigned char border[4] = {0, 0, 0, 0};
            const unsigned char *p = i < 0 || j < 0 || i >= W || j >= H ? border : pixels[j][i];
            same += memcmp(result[y][x], p, 4) == 0;
        }
    CHECK(same >= W * H * 99 / 100);

    /* bilinear sampling with each addressing mode, normalized coordinates */
    enum { N = 256 };
    float samples[N][4];
    cl_kernel s2 = kernel(p, "sample2d");
    static const cl_addressing_mode modes[] = {CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP,
                                               CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT};
    for (int m = 0; m < 4; m++) {
        cl_sampler lin = clCreateSampler(ctx, CL_TRUE, modes[m], CL_FILTER_LINEAR, &err);
        OK(err);
        float scale = 0.011f;
        OK(clSetKernelArg(s2, 0, sizeof src, &src));
        OK(clSetKernelArg(s2, 1, sizeof lin, &lin));
        OK(clSetKernelArg(s2, 2, sizeof buf, &buf));
        OK(clSetKernelArg(s2, 3, sizeof scale, &scale));
        OK(clEnqueueNDRangeKernel(q, s2, 1, NULL, (size_t[1]){N}, NULL, 0, NULL, NULL));
        OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof samples, samples, 0, NULL, NULL));
        /* (not before: PoCL's launch reads the sampler object when it runs) */
        OK(clReleaseSampler(lin));
        char name[32];
        snprintf(name, sizeof name, "linear%d", m);
        emit(name, "f4", N * 4, samples, sizeof samples);
        for (int i = 0; i < N; i++)
            for (int k = 0; k < 4; k++)
                CHECK(samples[i][k] >= 0.0f && samples[i][k] <= 1.0f);
    }

    /* a 3D image, linear, of floats */
    enum { D = 5 };
    static float vol[D][9][11][4];
    for (int z = 0; z < D; z++)
        for (int y = 0; y < 9; y++)
            for (int x = 0; x < 11; x++)
                for (int k = 0; k < 4; k++)
                    vol[z][y][x][k] = sinf((float)(z * 3 + y * 5 + x * 7 + k));
    cl_image_format f4 = {CL_RGBA, CL_FLOAT};
    cl_mem v3 = clCreateImage3D(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &f4, 11, 9, D, 0,
                                0, vol, &err);
    OK(err);
    cl_sampler lin3 = clCreateSampler(ctx, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR, &err);
    OK(err);
    cl_kernel s3 = kernel(p, "sample3d");
    OK(clSetKernelArg(s3, 0, sizeof v3, &v3));
    OK(clSetKernelArg(s3, 1, sizeof lin3, &lin3));
    OK(clSetKernelArg(s3, 2, sizeof buf, &buf));
    OK(clEnqueueNDRangeKernel(q, s3, 1, NULL, (size_t[1]){N}, NULL, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof samples, samples, 0, NULL, NULL));
    emit("volume", "f4", N * 4, samples, sizeof samples);

    /* a 1D image, linear at unnormalized coordinates, and a 1D image of a buffer */
    float line[29][4];
    for (int i = 0; i < 29; i++)
        for (int k = 0; k < 4; k++)
            line[i][k] = cosf((float)(i * 4 + k));
    cl_image_desc d1 = {.image_type = CL_MEM_OBJECT_IMAGE1D, .image_width = 29};
    cl_mem i1 = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &f4, &d1, line,
                              &err);
    OK(err);
    cl_mem under = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof vol,
                                  vol, &err);
    OK(err);
    cl_image_desc db = {.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = 64,
                        .buffer = under};
    cl_mem ib = clCreateImage(ctx, CL_MEM_READ_ONLY, &f4, &db, NULL, &err);
    OK(err);
    cl_sampler lin1 = clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE,
                                      CL_FILTER_LINEAR, &err);
    OK(err);
    cl_kernel s1 = kernel(p, "sample1d");
    FAILS(CL_INVALID_ARG_VALUE, clSetKernelArg(s1, 0, sizeof v3, &v3));   /* a 3D image */
    OK(clSetKernelArg(s1, 0, sizeof i1, &i1));
    OK(clSetKernelArg(s1, 1, sizeof ib, &ib));
    OK(clSetKernelArg(s1, 2, sizeof lin1, &lin1));
    OK(clSetKernelArg(s1, 3, sizeof buf, &buf));
    OK(clEnqueueNDRangeKernel(q, s1, 1, NULL, (size_t[1]){N}, NULL, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof samples, samples, 0, NULL, NULL));
    emit("linear1d", "f4", N * 4, samples, sizeof samples);
    for (int k = 0; k < 4; k++)      /* i = 3: x = 0.01, past the first centre: pixel 0 */
        CHECK(fabsf(samples[3][k] - (line[0][k] + vol[0][0][3][k] * 0.5f)) < 1e-5f);
    OK(clReleaseKernel(s1));
    OK(clReleaseSampler(lin1));
    OK(clReleaseMemObject(ib));
    OK(clReleaseMemObject(under));
    OK(clReleaseMemObject(i1));

    /* integer images: read_imageui and write_imageui, exact */
    cl_mem iu = image2d(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, CL_RGBA, CL_UNSIGNED_INT8, W,
                        H, pixels);
    cl_mem ou = image2d(CL_MEM_WRITE_ONLY, CL_RGBA, CL_UNSIGNED_INT16, W, H, NULL);
    cl_kernel ik = kernel(p, "integers");
    OK(clSetKernelArg(ik, 0, sizeof iu, &iu));
    OK(clSetKernelArg(ik, 1, sizeof ou, &ou));
    OK(clEnqueueNDRangeKernel(q, ik, 2, NULL, global, NULL, 0, NULL, NULL));
    static unsigned short words[H][W][4];
    OK(clEnqueueReadImage(q, ou, CL_TRUE, origin, all, 0, 0, words, 0, NULL, NULL));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            for (int k = 0; k < 4; k++)
                CHECK(words[y][x][k] == pixels[y][x][k] * 3 + k + 1);
    /* again into the host's own memory, rows of a pitch past the pixels */
    enum { ROW = W * 4 + 12 };                /* in unsigned shorts: 3 pixels more */
    static unsigned short mine[H][ROW];
    cl_image_format u16 = {CL_RGBA, CL_UNSIGNED_INT16};
    cl_mem ohost = clCreateImage2D(ctx, CL_MEM_WRITE_ONLY | CL_MEM_USE_HOST_PTR, &u16, W, H,
                                   ROW * sizeof(unsigned short), mine, &err);
    OK(err);
    /* a row pitch not a multiple of a pixel (1.1's code; 1.2's clCreateImage gives
     * CL_INVALID_IMAGE_DESCRIPTOR) */
    REFUSED(CL_INVALID_IMAGE_SIZE,
            clCreateImage2D(ctx, CL_MEM_USE_HOST_PTR, &u16, W, H, ROW * 2 - 2, mine, &err));
    REFUSED(CL_INVALID_IMAGE_SIZE,
            clCreateImage3D(ctx, CL_MEM_READ_ONLY, &u16, W, H, 1, 0, 0, NULL, &err));
    OK(clSetKernelArg(ik, 1, sizeof ohost, &ohost));
    OK(clEnqueueNDRangeKernel(q, ik, 2, NULL, global, NULL, 0, NULL, NULL));
    size_t mapped_pitch;
    unsigned short *seen = clEnqueueMapImage(q, ohost, CL_TRUE, CL_MAP_READ, origin, all,
                                             &mapped_pitch, NULL, 0, NULL, NULL, &err);
    OK(err);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            for (int k = 0; k < 4; k++)
                CHECK(seen[y * mapped_pitch / 2 + x * 4 + k] == pixels[y][x][k] * 3 + k + 1);
    if (on_cl2c) {        /* the host's memory itself (PoCL may map a copy) */
        CHECK(seen == &mine[0][0] && mapped_pitch == ROW * sizeof(unsigned short));
        CHECK(mine[H - 1][(W - 1) * 4 + 3] == pixels[H - 1][W - 1][3] * 3 + 4);
    }
    OK(clEnqueueUnmapMemObject(q, ohost, seen, 0, NULL, NULL));
    OK(clFinish(q));
    OK(clReleaseMemObject(ohost));

    /* a 2D image array, its layers read with integer coordinates */
    enum { L = 3 };
    static float stack[L][H][W][4];
    for (int l = 0; l < L; l++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                for (int k = 0; k < 4; k++)
                    stack[l][y][x][k] = (float)(l * 100000 + y * 1000 + x * 10 + k);
    cl_image_desc da = {.image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY, .image_width = W,
                        .image_height = H, .image_array_size = L};
    cl_mem arr = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &f4, &da, stack,
                               &err);
    OK(err);
    cl_mem big = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof stack, NULL, &err);
    OK(err);
    cl_kernel lk = kernel(p, "layers");
    OK(clSetKernelArg(lk, 0, sizeof arr, &arr));
    OK(clSetKernelArg(lk, 1, sizeof big, &big));
    OK(clEnqueueNDRangeKernel(q, lk, 3, NULL, (size_t[3]){W, H, L}, NULL, 0, NULL, NULL));
    static float stack_back[L][H][W][4];
    OK(clEnqueueReadBuffer(q, big, CL_TRUE, 0, sizeof stack, stack_back, 0, NULL, NULL));
    CHECK(memcmp(stack, stack_back, sizeof stack) == 0);

    cl_kernel ks[] = {g, r, s2, s3, ik, lk};
    for (size_t i = 0; i < sizeof ks / sizeof *ks; i++)
        OK(clReleaseKernel(ks[i]));
    cl_mem ms[] = {src, dst, buf, v3, iu, ou, arr, big};
    for (size_t i = 0; i < sizeof ms / sizeof *ms; i++)
        OK(clReleaseMemObject(ms[i]));
    OK(clReleaseSampler(edge));
    OK(clReleaseSampler(lin3));
    OK(clReleaseProgram(p));
}

int main(int argc, char **argv)
{
    const char *want = argc > 1 ? argv[1] : "cl2c";
    if (argc > 2) {
        out = fopen(argv[2], "wb");
        CHECK(out != NULL);
    }
    cl_platform_id platforms[8];
    cl_uint n = 0;
    OK(clGetPlatformIDs(8, platforms, &n));
    cl_platform_id platform = NULL;
    for (cl_uint i = 0; i < n && i < 8; i++) {
        char name[256];
        OK(clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, NULL));
        if (strstr(name, want) && !platform)
            platform = platforms[i];
    }
    CHECK(platform != NULL);
    on_cl2c = strcmp(want, "cl2c") == 0;
    OK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, NULL));
    cl_int err;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    ctx = clCreateContext(props, 1, &device, NULL, NULL, &err);
    OK(err);
    q = clCreateCommandQueue(ctx, device, 0, &err);
    OK(err);
    formats_and_errors();
    transfers();
    kernels();
    OK(clReleaseCommandQueue(q));
    OK(clReleaseContext(ctx));
    if (out)
        fclose(out);
    printf("ok\n");
    return 0;
}
