/* A program binary read from C with cl2c_binary.h (binary.c_definitions) alone, as the
 * OpenCL platform reads one: the header checked, the sections walked, the INFO facts
 * compared with this installation's, the shared library found. Prints one line per fact;
 * exits 1 with the reason where the binary is refused (the sha256 is the platform's to
 * check). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl2c_binary.h"

static uint64_t le(const unsigned char *p, int n) {
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* The value of INFO's line "key=value", copied into out; 0 where there is none. */
static int info_value(const unsigned char *info, uint64_t n, const char *key, char *out,
                      size_t size) {
    size_t klen = strlen(key);
    const unsigned char *line = info, *end = info + n;
    while (line < end) {
        const unsigned char *nl = memchr(line, '\n', (size_t)(end - line));
        if (!nl)
            nl = end;
        if ((size_t)(nl - line) > klen && !memcmp(line, key, klen) && line[klen] == '=') {
            size_t vlen = (size_t)(nl - line) - klen - 1;
            if (vlen >= size)
                return 0;
            memcpy(out, line + klen + 1, vlen);
            out[vlen] = 0;
            return 1;
        }
        line = nl + 1;
    }
    return 0;
}

static int refuse(const char *why) {
    printf("refused %s\n", why);
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 2)
        return 2;
    FILE *f = fopen(argv[1], "rb");
    if (!f)
        return 2;
    static unsigned char data[1 << 22];
    size_t size = fread(data, 1, sizeof data, f);
    fclose(f);
    if (size < CL2C_BINARY_MAGIC_SIZE || memcmp(data, CL2C_BINARY_MAGIC, CL2C_BINARY_MAGIC_SIZE))
        return refuse("magic");
    if (size < CL2C_BINARY_HEADER_SIZE)
        return refuse("truncated");
    if (le(data + CL2C_BINARY_AT_FORMAT_VERSION, 4) != CL2C_BINARY_FORMAT)
        return refuse("format");
    if (le(data + CL2C_BINARY_AT_HEADER_SIZE, 4) != CL2C_BINARY_HEADER_SIZE ||
        le(data + CL2C_BINARY_AT_PAYLOAD_SIZE, 8) != size - CL2C_BINARY_HEADER_SIZE)
        return refuse("truncated");
    const unsigned char *info = NULL, *shared = NULL;
    uint64_t info_size = 0, shared_size = 0;
    for (size_t at = CL2C_BINARY_HEADER_SIZE; at < size;) {
        if (size - at < CL2C_BINARY_SECTION_HEADER_SIZE)
            return refuse("section");
        uint64_t n = le(data + at + 4, 8);
        const unsigned char *body = data + at + CL2C_BINARY_SECTION_HEADER_SIZE;
        if (n > size - at - CL2C_BINARY_SECTION_HEADER_SIZE)
            return refuse("section");
        if (!memcmp(data + at, CL2C_BINARY_TAG_INFO, 4))
            info = body, info_size = n;
        else if (!memcmp(data + at, CL2C_BINARY_TAG_LIBRARY_SHARED, 4))
            shared = body, shared_size = n;
        at += CL2C_BINARY_SECTION_HEADER_SIZE + n;
    }
    if (!info)
        return refuse("info");
    static const char *const keys[] = {"cl2c", "translator", "runtime", "machine", "system"};
    static const char *const want[] = {CL2C_BINARY_REQUIRE_CL2C, CL2C_BINARY_REQUIRE_TRANSLATOR,
                                       CL2C_BINARY_REQUIRE_RUNTIME, CL2C_BINARY_REQUIRE_MACHINE,
                                       CL2C_BINARY_REQUIRE_SYSTEM};
    char value[4096];
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (!info_value(info, info_size, keys[i], value, sizeof value) || strcmp(value, want[i]))
            return refuse(keys[i]);
    if (!shared)
        return refuse("library");
    if (!info_value(info, info_size, "program_symbol", value, sizeof value))
        return refuse("program_symbol");
    printf("program_symbol %s\n", value);
    if (info_value(info, info_size, "kernels", value, sizeof value))
        printf("kernels %s\n", value);
    printf("shared %llu\n", (unsigned long long)shared_size);
    return 0;
}
