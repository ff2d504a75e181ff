/* Which bytes of a buffer hold data: what checking builds need to report reads of
 * __global memory nothing wrote (check.h's cl2c_check_written). A buffer made without
 * host data starts with none; the host's writes, fills, copies and maps for writing,
 * and kernels that may write it, add theirs. One bit a byte, on the buffer that owns
 * the storage (a sub-buffer's origin is a multiple of CL2C_STORAGE_ALIGN, so its bits
 * start at a byte). Once every byte holds data (unwritten 0) the map is not read
 * again, nor freed before the buffer (a checking launch may hold it): it answers NULL. */
#include "icd.h"

static pthread_mutex_t written_lock = PTHREAD_MUTEX_INITIALIZER;

/* The buffer that owns m's storage, and m's offset in it; NULL where none follows. */
static cl_mem owner(cl_mem m, size_t *at)
{
    *at = 0;
    if (m->type != CL_MEM_OBJECT_BUFFER) {    /* an image: its buffer's, all of it */
        if (!m->parent)
            return NULL;
        m = m->parent;
        *at = SIZE_MAX;
    }
    if (m->parent) {
        if (*at != SIZE_MAX)
            *at = m->offset;
        m = m->parent;
    }
    return m->written && m->unwritten ? m : NULL;
}

void cl2c_written_follow(cl_mem m)
{
    m->written = calloc(m->size / 8 + 1, 1);
    m->unwritten = m->written ? m->size : 0;
}

/* With written_lock: bits [at, at + n) of b set, counted. */
static void set_bits(cl_mem b, size_t at, size_t n)
{
    if (at == 0 && n >= b->size) {
        b->unwritten = 0;             /* all of it: the bits are not read again */
        return;
    }
    unsigned char *map = b->written;
    size_t i = at, end = at + n;
    for (; i < end && (i & 7); i++)
        if (!(map[i >> 3] >> (i & 7) & 1)) {
            map[i >> 3] |= (unsigned char)(1u << (i & 7));
            b->unwritten--;
        }
    for (; i + 8 <= end; i += 8) {
        b->unwritten -= 8 - (size_t)__builtin_popcount(map[i >> 3]);
        map[i >> 3] = 0xff;
    }
    for (; i < end; i++)
        if (!(map[i >> 3] >> (i & 7) & 1)) {
            map[i >> 3] |= (unsigned char)(1u << (i & 7));
            b->unwritten--;
        }
}

void cl2c_written_mark(cl_mem m, size_t at, size_t n)
{
    size_t base;
    pthread_mutex_lock(&written_lock);
    cl_mem b = owner(m, &base);
    if (b && base == SIZE_MAX)
        set_bits(b, 0, b->size);
    else if (b)
        set_bits(b, base + at, n);
    pthread_mutex_unlock(&written_lock);
}

void cl2c_written_copy(cl_mem src, size_t src_at, cl_mem dst, size_t dst_at, size_t n)
{
    size_t sbase, dbase;
    pthread_mutex_lock(&written_lock);
    cl_mem s = owner(src, &sbase), d = owner(dst, &dbase);
    if (d && (!s || sbase == SIZE_MAX || dbase == SIZE_MAX)) {
        pthread_mutex_unlock(&written_lock);
        cl2c_written_mark(dst, dst_at, n);
        return;
    }
    size_t from = sbase + src_at, to = dbase + dst_at, i = 0;
    bool bytewise = d && (from & 7) == (to & 7);    /* (a copy between aligned offsets) */
    for (; d && i < n; i++) {
        if (bytewise && !((from + i) & 7) && i + 8 <= n) {
            /* whole bytes of bits at once */
            for (; i + 8 <= n; i += 8) {
                unsigned char got = s->written[(from + i) >> 3];
                unsigned char *have = &d->written[(to + i) >> 3];
                d->unwritten -= (size_t)__builtin_popcount(got & ~*have & 0xff);
                *have |= got;
            }
            if (i == n)
                break;
        }
        if (s->written[(from + i) >> 3] >> ((from + i) & 7) & 1)
            set_bits(d, to + i, 1);
    }
    pthread_mutex_unlock(&written_lock);
}

void cl2c_written_by_kernel(cl_mem m)
{
    cl2c_written_mark(m, 0, m->size);
}

unsigned char *cl2c_written_map(cl_mem m)
{
    size_t base;
    pthread_mutex_lock(&written_lock);
    cl_mem b = m->type == CL_MEM_OBJECT_BUFFER ? owner(m, &base) : NULL;
    unsigned char *map = b ? b->written + base / 8 : NULL;
    pthread_mutex_unlock(&written_lock);
    return map;
}

void cl2c_written_recount(cl_mem m)
{
    size_t base;
    pthread_mutex_lock(&written_lock);
    cl_mem b = m->type == CL_MEM_OBJECT_BUFFER ? owner(m, &base) : NULL;
    if (b) {
        size_t unset = 0;
        for (size_t i = 0; i < b->size / 8; i++)
            unset += 8 - (size_t)__builtin_popcount(b->written[i]);
        for (size_t i = b->size / 8 * 8; i < b->size; i++)
            unset += !(b->written[i >> 3] >> (i & 7) & 1);
        b->unwritten = unset;
    }
    pthread_mutex_unlock(&written_lock);
}
