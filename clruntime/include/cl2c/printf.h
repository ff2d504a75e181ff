/* printf (spec 6.12.13).
 *
 * cl2c checks the format against the arguments at compile time
 * (cl2c/printf_format.py) and converts each argument to the one type read here
 * for its conversion: int or uint (no length modifier, hh, h, and %c), long or
 * ulong (l), double (floating conversions), and const void * (%s, %p, and a
 * vector: a pointer to its components). So this parser trusts the format.
 *
 * A call formats its whole output in memory, each conversion with snprintf
 * (a vector's components joined by ','), then writes it with one fwrite under
 * the stream's lock: the output of two calls never interleaves. It returns 0,
 * or -1 if memory or the write failed. A kernel that calls printf flushes
 * stdout when it completes (cl2c_printf_flush). */
#ifndef CL2C_PRINTF_H
#define CL2C_PRINTF_H

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "scalars.h"

/* Stream locks: POSIX's, or the C runtime's on Windows. */
#ifdef _WIN32
#define cl2c_lock_stdout() _lock_file(stdout)
#define cl2c_unlock_stdout() _unlock_file(stdout)
#else
#define cl2c_lock_stdout() flockfile(stdout)
#define cl2c_unlock_stdout() funlockfile(stdout)
#endif

/* The output of one call: on the stack while it is short. */
typedef struct cl2c_printf_buffer {
    char *text;
    size_t len, cap;
    int failed;
    char small[256];
} cl2c_printf_buffer;

static inline char *cl2c_printf_room(cl2c_printf_buffer *b, size_t n) {
    if (b->failed)
        return NULL;
    if (b->len + n + 1 > b->cap) {
        size_t cap = 2 * b->cap > b->len + n + 1 ? 2 * b->cap : b->len + n + 1;
        char *grown = malloc(cap);
        if (grown == NULL) {
            b->failed = 1;
            return NULL;
        }
        memcpy(grown, b->text, b->len);
        if (b->text != b->small)
            free(b->text);
        b->text = grown;
        b->cap = cap;
    }
    return b->text + b->len;
}

static inline void cl2c_printf_put(cl2c_printf_buffer *b, const char *s, size_t n) {
    char *to = cl2c_printf_room(b, n);
    if (to != NULL) {
        memcpy(to, s, n);
        b->len += n;
    }
}

/* Append one value formatted by `spec`, a C conversion specification built at
 * run time (not a literal, so no compiler checks it against the value). */
static inline void cl2c_printf_value(cl2c_printf_buffer *b, const char *spec, ...) {
    if (b->failed)
        return;
    va_list ap, again;
    va_start(ap, spec);
    va_copy(again, ap);
    size_t room = b->cap - b->len;
    int n = vsnprintf(b->text + b->len, room, spec, ap);
    if (n < 0)
        b->failed = 1;
    else if ((size_t)n >= room && cl2c_printf_room(b, (size_t)n) != NULL)
        vsnprintf(b->text + b->len, (size_t)n + 1, spec, again);
    if (!b->failed)
        b->len += (size_t)n;
    va_end(again);
    va_end(ap);
}

/* One component of a vector of `size`-byte elements, widened. */
static inline long long cl2c_printf_signed(const unsigned char *p, int size) {
    int8_t c; int16_t s; int32_t i; int64_t l;
    switch (size) {
    case 1: memcpy(&c, p, 1); return c;
    case 2: memcpy(&s, p, 2); return s;
    case 4: memcpy(&i, p, 4); return i;
    default: memcpy(&l, p, 8); return l;
    }
}

static inline unsigned long long cl2c_printf_unsigned(const unsigned char *p, int size) {
    unsigned long long v = (unsigned long long)cl2c_printf_signed(p, size);
    return size >= 8 ? v : v & ((1ULL << (8 * size)) - 1);   /* the sign extension off */
}

static inline double cl2c_printf_real(const unsigned char *p, int size) {
    float f; double d;
#ifdef CL2C_HAS_HALF
    if (size == 2) {           /* %vNhf: half values exist only under cl_khr_fp16 */
        cl2c_half h;
        memcpy(&h, p, 2);
        return (double)h;
    }
#endif
    if (size == 4) {
        memcpy(&f, p, 4);
        return f;
    }
    memcpy(&d, p, 8);
    return d;
}

static inline int cl2c_printf_number(const char **s) {
    long n = 0;
    while (**s >= '0' && **s <= '9') {
        if (n < INT_MAX)
            n = n * 10 + (**s - '0');
        ++*s;
    }
    return n < INT_MAX ? (int)n : INT_MAX;
}

/* The conversion after a '%' at *s: appends its output and steps past it. */
static inline void cl2c_printf_conversion(cl2c_printf_buffer *b, const char **s, va_list *ap) {
    const char *p = *s;
    char spec[48] = "%";
    size_t k = 1;
    while (*p && strchr("-+ #0", *p)) {           /* flags, each once */
        if (!memchr(spec, *p, k))
            spec[k++] = *p;
        ++p;
    }
    if (*p >= '1' && *p <= '9')
        k += (size_t)snprintf(spec + k, sizeof spec - k, "%d", cl2c_printf_number(&p));
    if (*p == '.') {
        ++p;
        k += (size_t)snprintf(spec + k, sizeof spec - k, ".%d", cl2c_printf_number(&p));
    }
    int n = 0, size = 0;                           /* vector width, element bytes */
    if (*p == 'v') {
        ++p;
        n = cl2c_printf_number(&p);
    }
    if (p[0] == 'h' && p[1] == 'h') { size = 1; p += 2; }
    else if (p[0] == 'h' && p[1] == 'l') { size = 4; p += 2; }
    else if (p[0] == 'h') { size = 2; p += 1; }
    else if (p[0] == 'l') { size = 8; p += 1; }
    const char conv = *p;
    *s = conv ? p + 1 : p;
    const int integer = conv != '\0' && strchr("diouxX", conv) != NULL;
    const int is_signed = conv == 'd' || conv == 'i';
    if (integer) {
        spec[k++] = 'l';
        spec[k++] = 'l';
    }
    spec[k++] = conv;
    spec[k] = '\0';
    if (n > 0) {                                   /* a vector: its components */
        const unsigned char *v = va_arg(*ap, const void *);
        for (int i = 0; i < n; ++i, v += size) {
            if (i > 0)
                cl2c_printf_put(b, ",", 1);
            if (!integer)
                cl2c_printf_value(b, spec, cl2c_printf_real(v, size));
            else if (is_signed)
                cl2c_printf_value(b, spec, cl2c_printf_signed(v, size));
            else
                cl2c_printf_value(b, spec, cl2c_printf_unsigned(v, size));
        }
    } else if (integer && is_signed) {             /* converted back to hh's or h's type */
        long long x = size == 8 ? (long long)va_arg(*ap, cl2c_long) : va_arg(*ap, int);
        cl2c_printf_value(b, spec, size == 1 ? (long long)(signed char)x :
                                   size == 2 ? (long long)(short)x : x);
    } else if (integer) {
        unsigned long long x = size == 8 ? (unsigned long long)va_arg(*ap, cl2c_ulong)
                                         : va_arg(*ap, unsigned);
        cl2c_printf_value(b, spec, size == 1 ? (unsigned long long)(unsigned char)x :
                                   size == 2 ? (unsigned long long)(unsigned short)x : x);
    } else if (conv == 'c') {
        cl2c_printf_value(b, spec, va_arg(*ap, int));
    } else if (conv == 's') {
        cl2c_printf_value(b, spec, (const char *)va_arg(*ap, const void *));
    } else if (conv == 'p') {
        cl2c_printf_value(b, spec, (void *)(uintptr_t)va_arg(*ap, const void *));
    } else {
        cl2c_printf_value(b, spec, va_arg(*ap, double));
    }
}

static inline int cl2c_printf(const char *format, ...) {
    cl2c_printf_buffer b;
    b.text = b.small;
    b.len = 0;
    b.cap = sizeof b.small;
    b.failed = 0;
    va_list ap;
    va_start(ap, format);
    const char *s = format;
    while (*s) {
        const char *pct = strchr(s, '%');
        size_t plain = pct ? (size_t)(pct - s) : strlen(s);
        cl2c_printf_put(&b, s, plain);
        s += plain;
        if (*s == '\0')
            break;
        ++s;
        if (*s == '%') {
            cl2c_printf_put(&b, "%", 1);
            ++s;
        } else {
            cl2c_printf_conversion(&b, &s, &ap);
        }
    }
    va_end(ap);
    int status = b.failed ? -1 : 0;
    if (!b.failed) {
        cl2c_lock_stdout();
        if (fwrite(b.text, 1, b.len, stdout) != b.len)
            status = -1;
        cl2c_unlock_stdout();
    }
    if (b.text != b.small)
        free(b.text);
    return status;
}

/* The end of a kernel that printed (spec 6.12.13: its output is then out). */
static inline void cl2c_printf_flush(void) { fflush(stdout); }

#endif
