/* A 5x5 Gaussian blur of an RGBA float picture, twice: through images (read_imagef
 * with a constant sampler that clamps to the edge) and on buffers (the same clamp
 * written out). bench/image_blur.py races them. */
constant float W[25] = {
    1.0f / 256, 4.0f / 256, 6.0f / 256, 4.0f / 256, 1.0f / 256,
    4.0f / 256, 16.0f / 256, 24.0f / 256, 16.0f / 256, 4.0f / 256,
    6.0f / 256, 24.0f / 256, 36.0f / 256, 24.0f / 256, 6.0f / 256,
    4.0f / 256, 16.0f / 256, 24.0f / 256, 16.0f / 256, 4.0f / 256,
    1.0f / 256, 4.0f / 256, 6.0f / 256, 4.0f / 256, 1.0f / 256};

const sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                       CLK_FILTER_NEAREST;

kernel void blur_image(read_only image2d_t src, write_only image2d_t dst) {
    int x = get_global_id(0), y = get_global_id(1);
    float4 acc = (float4)(0.0f);
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++)
            acc += W[(dy + 2) * 5 + dx + 2] * read_imagef(src, edge, (int2)(x + dx, y + dy));
    write_imagef(dst, (int2)(x, y), acc);
}

kernel void blur_buffer(global const float4 *src, global float4 *dst, int w, int h) {
    int x = get_global_id(0), y = get_global_id(1);
    float4 acc = (float4)(0.0f);
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++) {
            int xx = clamp(x + dx, 0, w - 1), yy = clamp(y + dy, 0, h - 1);
            acc += W[(dy + 2) * 5 + dx + 2] * src[yy * w + xx];
        }
    dst[y * w + x] = acc;
}
