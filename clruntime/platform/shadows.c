/* Checking builds keep a shadow of each buffer between launches (check.h), each program
 * in its own library. A host that checks many programs (PyOpenCL makes one for each
 * elementwise kernel) would keep every one's, to the point of running out of memory;
 * so the shadows that no launch holds are kept within a budget over the platform's
 * programs, the least recently launched program's freed first (its next launch makes
 * new ones). cl2c/check_shadows.py does the same for Python's programs. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "icd.h"

static pthread_mutex_t shadows_lock = PTHREAD_MUTEX_INITIALIZER;
/* the programs with shadows kept, least recently launched first, and each one's bytes */
static cl_program *kept;
static size_t *kept_bytes;
static size_t count, capacity;

/* CL2C_CHECK_SHADOWS_MB, else a quarter of the machine's memory (at least 256 MiB). */
static size_t budget(void)
{
    static size_t bytes;
    static bool known;
    if (!known) {
        const char *asked = getenv("CL2C_CHECK_SHADOWS_MB");
        char *end = NULL;
        unsigned long long mb = asked && *asked ? strtoull(asked, &end, 10) : 0;
        long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
        size_t quarter = pages > 0 && page > 0 ? (size_t)pages * (size_t)page / 4
                                               : (size_t)2 << 30;
        if (end && !*end && mb < ((size_t)-1 >> 20))
            bytes = (size_t)mb << 20;
        else
            bytes = quarter < ((size_t)256 << 20) ? (size_t)256 << 20 : quarter;
        known = true;
    }
    return bytes;
}

static void drop(size_t i)
{
    memmove(kept + i, kept + i + 1, (count - i - 1) * sizeof *kept);
    memmove(kept_bytes + i, kept_bytes + i + 1, (count - i - 1) * sizeof *kept_bytes);
    count--;
}

static void forget_locked(cl_program p)
{
    for (size_t i = 0; i < count; i++)
        if (kept[i] == p) {
            drop(i);
            return;
        }
}

static bool room_for_one(void)
{
    if (count < capacity)
        return true;
    size_t more = capacity ? 2 * capacity : 16;
    cl_program *k = realloc(kept, more * sizeof *k);
    if (!k)
        return false;
    kept = k;
    size_t *b = realloc(kept_bytes, more * sizeof *b);
    if (!b)
        return false;
    kept_bytes = b;
    capacity = more;
    return true;
}

void cl2c_shadows_after_launch(cl_program p)
{
    if (!p->check_idle_bytes)
        return;
    size_t mine = p->check_idle_bytes();
    pthread_mutex_lock(&shadows_lock);
    forget_locked(p);
    if (!room_for_one()) {
        p->check_trim();          /* no room to remember it: keep nothing of it */
        pthread_mutex_unlock(&shadows_lock);
        return;
    }
    kept[count] = p;
    kept_bytes[count++] = mine;
    size_t total = 0;
    for (size_t i = 0; i < count; i++)
        total += kept_bytes[i];
    while (total > budget() && count) {
        kept[0]->check_trim();
        total -= kept_bytes[0];
        drop(0);
    }
    pthread_mutex_unlock(&shadows_lock);
}

/* Before the program's library is unloaded: its shadows freed, and it forgotten. */
void cl2c_shadows_forget(cl_program p)
{
    pthread_mutex_lock(&shadows_lock);
    forget_locked(p);
    if (p->check_trim)
        p->check_trim();
    pthread_mutex_unlock(&shadows_lock);
}
