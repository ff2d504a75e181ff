/* The Guide's chapter 8 Gaussian filter from plain C: reads a PAM picture (RGB_ALPHA,
 * 8 bits: `P7` netpbm, which run_examples.py writes from the PNG), blurs it with the
 * kernel of gaussian_filter.cl translated by cl2c, and writes the result as PAM.
 *
 *     gaussian_demo in.pam out.pam
 *
 * The images are cl2c_image structs (cl2c/host.h) over the pixels in memory, the
 * sampler the CLK_* flags the book's clCreateSampler call asks for. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gaussian_filter.h"   /* written by cl2c -H: cl2c_kernel_gaussian_filter() */

static unsigned char *read_pam(const char *path, size_t *width, size_t *height) {
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    char word[32];
    size_t w = 0, h = 0, depth = 0, maxval = 0;
    if (fscanf(f, "%31s", word) != 1 || strcmp(word, "P7") != 0)
        goto bad;
    while (fscanf(f, "%31s", word) == 1 && strcmp(word, "ENDHDR") != 0) {
        if (strcmp(word, "WIDTH") == 0 && fscanf(f, "%zu", &w) != 1) goto bad;
        if (strcmp(word, "HEIGHT") == 0 && fscanf(f, "%zu", &h) != 1) goto bad;
        if (strcmp(word, "DEPTH") == 0 && fscanf(f, "%zu", &depth) != 1) goto bad;
        if (strcmp(word, "MAXVAL") == 0 && fscanf(f, "%zu", &maxval) != 1) goto bad;
        if (strcmp(word, "TUPLTYPE") == 0 && fscanf(f, "%31s", word) != 1) goto bad;
    }
    if (w == 0 || h == 0 || depth != 4 || maxval != 255 || fgetc(f) != '\n')
        goto bad;
    unsigned char *pixels = malloc(w * h * 4);
    if (pixels == NULL || fread(pixels, 4, w * h, f) != w * h) {
        free(pixels);
        goto bad;
    }
    fclose(f);
    *width = w;
    *height = h;
    return pixels;
bad:
    fclose(f);
    return NULL;
}

static int write_pam(const char *path, const unsigned char *pixels, size_t w, size_t h) {
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return -1;
    fprintf(f, "P7\nWIDTH %zu\nHEIGHT %zu\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n",
            w, h);
    size_t written = fwrite(pixels, 4, w * h, f);
    return fclose(f) == 0 && written == w * h ? 0 : -1;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s in.pam out.pam\n", argv[0]);
        return 2;
    }
    size_t w, h;
    unsigned char *in = read_pam(argv[1], &w, &h);
    if (in == NULL) {
        fprintf(stderr, "%s: not an 8-bit RGB_ALPHA PAM picture\n", argv[1]);
        return 2;
    }
    unsigned char *out = calloc(w * h, 4);
    cl2c_image src, dst;
    int status = cl2c_image_init(&src, CL2C_MEM_OBJECT_IMAGE2D, CL2C_RGBA, CL2C_UNORM_INT8,
                                 w, h, 0, 0, in);
    if (status == CL2C_SUCCESS)
        status = cl2c_image_init(&dst, CL2C_MEM_OBJECT_IMAGE2D, CL2C_RGBA, CL2C_UNORM_INT8,
                                 w, h, 0, 0, out);
    if (status == CL2C_SUCCESS) {
        /* the book's work-groups of 16x16 and a global size rounded up to them */
        cl2c_range range = cl2c_range_2d((w + 15) / 16 * 16, (h + 15) / 16 * 16, 16, 16);
        cl2c_sampler_t sampler = CL2C_ADDRESS_CLAMP_TO_EDGE | CL2C_FILTER_NEAREST;
        status = cl2c_kernel_gaussian_filter(&range, &src, &dst, sampler, (int)w, (int)h);
    }
    if (status != CL2C_SUCCESS) {
        fprintf(stderr, "gaussian_filter failed: %s (error %d)\n", cl2c_error_string(status),
                status);
        return 1;
    }
    if (write_pam(argv[2], out, w, h) != 0) {
        fprintf(stderr, "%s: cannot write\n", argv[2]);
        return 1;
    }
    printf("gaussian_filter: %zux%zu px blurred into %s\n", w, h, argv[2]);
    free(in);
    free(out);
    return 0;
}
