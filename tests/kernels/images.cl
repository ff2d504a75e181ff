/* Image reads, writes and queries with the sampler and the format as data, so that one
 * program serves every case of tests/test_images.py (cl2c and PoCL alike).
 * fn: 0 read_imagef, 1 read_imagei, 2 read_imageui at float coordinates with sampler s;
 * 3, 4, 5 the same at int coordinates; 6, 7, 8 the same without a sampler (int). */
#define READ_KERNEL(NAME, IMAGE, FC, IC)                                                  \
kernel void NAME(read_only IMAGE img, sampler_t s, global const float4 *coords, int fn,  \
                 global float4 *f, global int4 *i, global uint4 *u) {                    \
    size_t g = get_global_id(0);                                                         \
    float4 c = coords[g];                                                                \
    int4 k = convert_int4(c);                                                            \
    switch (fn) {                                                                        \
    case 0: f[g] = read_imagef(img, s, FC); break;                                       \
    case 1: i[g] = read_imagei(img, s, FC); break;                                       \
    case 2: u[g] = read_imageui(img, s, FC); break;                                      \
    case 3: f[g] = read_imagef(img, s, IC); break;                                       \
    case 4: i[g] = read_imagei(img, s, IC); break;                                       \
    case 5: u[g] = read_imageui(img, s, IC); break;                                      \
    case 6: f[g] = read_imagef(img, IC); break;                                          \
    case 7: i[g] = read_imagei(img, IC); break;                                          \
    default: u[g] = read_imageui(img, IC); break;                                        \
    }                                                                                    \
}

READ_KERNEL(read_1d, image1d_t, c.x, k.x)
READ_KERNEL(read_1d_array, image1d_array_t, c.xy, k.xy)
READ_KERNEL(read_2d, image2d_t, c.xy, k.xy)
READ_KERNEL(read_2d_array, image2d_array_t, c, k)
READ_KERNEL(read_3d, image3d_t, c, k)

/* Each work-item writes the pixel of its ids (fn: 0 write_imagef, 1 write_imagei,
 * 2 write_imageui) from the value of its index. */
#define WRITE_KERNEL(NAME, IMAGE, COORD)                                                  \
kernel void NAME(write_only IMAGE img, global const float4 *f, global const int4 *i,    \
                 int fn) {                                                               \
    int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);            \
    size_t g = get_global_id(0) + get_global_size(0) *                                   \
               (get_global_id(1) + get_global_size(1) * get_global_id(2));               \
    if (fn == 0)                                                                         \
        write_imagef(img, COORD, f[g]);                                                  \
    else if (fn == 1)                                                                    \
        write_imagei(img, COORD, i[g]);                                                  \
    else                                                                                 \
        write_imageui(img, COORD, as_uint4(i[g]));                                       \
}

WRITE_KERNEL(write_1d, image1d_t, p.x)
WRITE_KERNEL(write_1d_array, image1d_array_t, p.xy)
WRITE_KERNEL(write_2d, image2d_t, p.xy)
WRITE_KERNEL(write_2d_array, image2d_array_t, p)
WRITE_KERNEL(write_3d, image3d_t, p)

/* The queries: width, height, depth, array size, order, data type, dim. */
kernel void query_2d(read_only image2d_t a, write_only image3d_t b,
                     read_only image2d_array_t c, read_only image1d_array_t d,
                     read_only image1d_t e, global int *o) {
    o[0] = get_image_width(a);
    o[1] = get_image_height(a);
    o[2] = get_image_channel_order(a);
    o[3] = get_image_channel_data_type(a);
    int2 da = get_image_dim(a);
    o[4] = da.x;
    o[5] = da.y;
    o[6] = get_image_width(b);
    o[7] = get_image_height(b);
    o[8] = get_image_depth(b);
    int4 db = get_image_dim(b);
    o[9] = db.x + 10 * db.y + 100 * db.z + 1000 * db.w;
    o[10] = get_image_channel_order(b);
    o[11] = get_image_channel_data_type(b);
    o[12] = (int)get_image_array_size(c);
    o[13] = get_image_dim(c).x + 10 * get_image_dim(c).y;
    o[14] = (int)get_image_array_size(d);
    o[15] = get_image_width(d);
    o[16] = get_image_width(e);
    o[17] = get_image_channel_order(e) == CLK_RGBA && get_image_channel_data_type(e) == CLK_FLOAT;
}
