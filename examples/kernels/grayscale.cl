/* RGBA image to grayscale with a brightness gain, one work-item per pixel.
 * Pixels are uchar4 (r, g, b, a); the alpha channel is kept as it is. */
__kernel void grayscale(__global const uchar4 *src,
                        __global uchar4 *dst,
                        const int width, const int height,
                        const float gain)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    if (x >= width || y >= height)
        return;

    int i = y * width + x;
    float4 p = convert_float4(src[i]);
    /* ITU-R BT.601 luma weights. */
    float luma = gain * (0.299f * p.x + 0.587f * p.y + 0.114f * p.z);
    /* Round to nearest and clamp to 0..255. */
    uchar v = convert_uchar(clamp(luma + 0.5f, 0.0f, 255.0f));
    dst[i] = (uchar4)(v, v, v, src[i].w);
}
