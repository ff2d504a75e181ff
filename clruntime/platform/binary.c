/* cl2c program binaries read in C (the format is cl2c/binary.py's, its magic, offsets,
 * tags and the facts a binary must match are build_facts.h's macros, which
 * binary.c_definitions() writes): the platform checks a binary as binary.py does,
 * without starting Python. */
#define _GNU_SOURCE
#include <stdio.h>

#include "icd.h"
#include "build_facts.h"

static uint64_t le(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* The first section at or after `at` (an offset in the payload); false at the end or
 * where a section overruns the payload. */
static bool next_section(const unsigned char *payload, size_t size, size_t *at,
                         const unsigned char **tag, const unsigned char **data, size_t *n)
{
    if (*at + CL2C_BINARY_SECTION_HEADER_SIZE > size)
        return false;
    uint64_t len = le(payload + *at + 4, 8);
    size_t start = *at + CL2C_BINARY_SECTION_HEADER_SIZE;
    if (len > size - start)
        return false;
    *tag = payload + *at;
    *data = payload + start;
    *n = (size_t)len;
    *at = start + (size_t)len;
    return true;
}

const unsigned char *cl2c_binary_section(const unsigned char *data, size_t size,
                                         const char *tag, size_t *n)
{
    if (size < CL2C_BINARY_HEADER_SIZE)
        return NULL;
    const unsigned char *payload = data + CL2C_BINARY_HEADER_SIZE, *t, *d;
    size_t at = 0, len;
    while (next_section(payload, size - CL2C_BINARY_HEADER_SIZE, &at, &t, &d, &len))
        if (memcmp(t, tag, 4) == 0) {
            *n = len;
            return d;
        }
    return NULL;
}

char *cl2c_binary_fact(const unsigned char *data, size_t size, const char *key)
{
    size_t n, key_len = strlen(key);
    const unsigned char *info = cl2c_binary_section(data, size, CL2C_BINARY_TAG_INFO, &n);
    for (size_t at = 0; info && at < n;) {
        const unsigned char *line = info + at, *end = memchr(line, '\n', n - at);
        size_t len = end ? (size_t)(end - line) : n - at;
        if (len > key_len && memcmp(line, key, key_len) == 0 && line[key_len] == '=')
            return strndup((const char *)line + key_len + 1, len - key_len - 1);
        at += len + 1;
    }
    return NULL;
}

/* This CPU's instruction-set flags, " a b c " (read once, from /proc/cpuinfo). */
static char *cpu_flags_text;

static void read_flags(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char *line = NULL;
    size_t room = 0;
    while (f && getline(&line, &room, f) > 0) {
        char *colon = strchr(line, ':');
        if (colon && (strncmp(line, "flags", 5) == 0 || strncmp(line, "Features", 8) == 0)) {
            size_t n = strlen(colon + 1);
            cpu_flags_text = malloc(n + 3);
            if (cpu_flags_text) {
                snprintf(cpu_flags_text, n + 3, " %s ", colon + 1);
                for (char *p = cpu_flags_text; *p; p++)
                    if (*p == '\n' || *p == '\t')
                        *p = ' ';
            }
            break;
        }
    }
    free(line);
    if (f)
        fclose(f);
}

/* Whether every flag of `needed` (space-separated) is this CPU's, but those the format
 * ignores (they say where a CPU runs, not what it executes). */
static bool cpu_has(const char *needed, char *why, size_t room)
{
    const char *mine = cpu_flags_text ? cpu_flags_text : " ";
    const char *ignored = " " CL2C_BINARY_REQUIRE_IGNORED_CPU_FLAGS " ";
    for (const char *p = needed; *p;) {
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, " ");
        if (n == 0)
            break;
        char word[80];
        if (n + 3 > sizeof word)
            return snprintf(why, room, "a CPU flag of %zu characters", n), false;
        snprintf(word, sizeof word, " %.*s ", (int)n, p);
        if (!strstr(mine, word) && !strstr(ignored, word))
            return snprintf(why, room, "native code for a CPU with%.*s, which this one "
                            "lacks (another machine's binary)", (int)n + 1, word), false;
        p += n;
    }
    return true;
}

static bool fact_is(const unsigned char *data, size_t size, const char *key,
                    const char *want, char *why, size_t room)
{
    char *have = cl2c_binary_fact(data, size, key);
    bool same = have && strcmp(have, want) == 0;
    if (!same)
        snprintf(why, room, "built by another cl2c or for another machine: its %s is "
                 "'%s', here '%s'", key, have ? have : "(none)", want);
    free(have);
    return same;
}

bool cl2c_binary_usable(const unsigned char *data, size_t size, char *why, size_t room)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, read_flags);
    if (!data || size < CL2C_BINARY_MAGIC_SIZE ||
            memcmp(data, CL2C_BINARY_MAGIC, CL2C_BINARY_MAGIC_SIZE) != 0)
        return snprintf(why, room, "not a cl2c program binary"), false;
    if (size < CL2C_BINARY_HEADER_SIZE)
        return snprintf(why, room, "damaged program binary (shorter than its header)"), false;
    if (le(data + CL2C_BINARY_AT_FORMAT_VERSION, 4) != CL2C_BINARY_FORMAT)
        return snprintf(why, room, "a program binary of another format version"), false;
    uint64_t payload = le(data + CL2C_BINARY_AT_PAYLOAD_SIZE, 8);
    if (le(data + CL2C_BINARY_AT_HEADER_SIZE, 4) != CL2C_BINARY_HEADER_SIZE ||
            payload != size - CL2C_BINARY_HEADER_SIZE)
        return snprintf(why, room, "damaged program binary (truncated or extended)"), false;
    struct cl2c_sha256 s;
    unsigned char digest[32];
    cl2c_sha256_init(&s);
    cl2c_sha256_update(&s, data + CL2C_BINARY_HEADER_SIZE, (size_t)payload);
    cl2c_sha256_final(&s, digest);
    if (memcmp(digest, data + CL2C_BINARY_AT_SHA256, 32) != 0)
        return snprintf(why, room, "damaged program binary (its sha256 differs)"), false;
    const unsigned char *t, *d;
    size_t at = 0, n;
    while (next_section(data + CL2C_BINARY_HEADER_SIZE, (size_t)payload, &at, &t, &d, &n))
        ;
    if (at != payload)
        return snprintf(why, room, "damaged program binary (a section overruns it)"), false;
    if (!fact_is(data, size, "cl2c", CL2C_BINARY_REQUIRE_CL2C, why, room) ||
            !fact_is(data, size, "translator", CL2C_BINARY_REQUIRE_TRANSLATOR, why, room) ||
            !fact_is(data, size, "runtime", CL2C_BINARY_REQUIRE_RUNTIME, why, room) ||
            !fact_is(data, size, "machine", CL2C_BINARY_REQUIRE_MACHINE, why, room) ||
            !fact_is(data, size, "system", CL2C_BINARY_REQUIRE_SYSTEM, why, room))
        return false;
    char *native = cl2c_binary_fact(data, size, "native");
    char *flags = cl2c_binary_fact(data, size, "cpu_flags");
    bool ok = !(native && strcmp(native, "1") == 0) || cpu_has(flags ? flags : "", why, room);
    free(native);
    free(flags);
    return ok;
}
