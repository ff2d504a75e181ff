/* Checking mode (-cl2c-check): reads of uninitialized private variables.
 *
 * cl2c/checking/private_init.py gives each private variable that a read may reach
 * before any write a flag (a private `_Bool`, set by every write), and each
 * private array of that kind a shadow byte per element; a read tests them. Variables
 * that a definite-assignment analysis proves written before every read get neither.
 * Included after check.h, whose cl2c_ck_finding reports. */
#ifndef CL2C_CHECK_PRIVATE_H
#define CL2C_CHECK_PRIVATE_H

#include <string.h>

/* element < 0: the variable itself */
__attribute__((cold, noinline, unused)) static void cl2c_ck_unset(cl2c_ck_site *site,
                                                                  const char *name,
                                                                  long long element) {
    if (element < 0)
        cl2c_ck_finding(site, "read of uninitialized private variable '%s'", name);
    else
        cl2c_ck_finding(site, "read of uninitialized private variable '%s': element %lld, "
                        "which nothing wrote", name, element);
}

/* A read of a flagged variable: the test, then the value. */
#define CL2C_CK_PTEST(flag, site, name) ((flag) ? (void)0 : cl2c_ck_unset((site), (name), -1))
#define CL2C_CK_PGET(flag, site, name, e) (CL2C_CK_PTEST(flag, site, name), (e))
/* A write inside an expression (its value stays the expression's): the flag is set
 * after it, so that a read in its right operand is still tested. */
#define CL2C_CK_PSET(flagp, e)                                                              \
    __extension__({                                                                         \
        __typeof__(e) cl2c_ck_pv_ = (e);                                                    \
        *(flagp) = 1;                                                                       \
        cl2c_ck_pv_;                                                                        \
    })
/* Its address taken: whatever has the pointer may write it, so it counts as written. */
#define CL2C_CK_PADDR(flagp, e) (*(flagp) = 1, (e))
#define CL2C_CK_AADDR(shadow, e) (memset((shadow), 1, sizeof(shadow)), (e))

/* A private vector's flag holds a bit per component. A read of components `mask` (0:
 * of one that no constant names, any) of an n-component vector, with bits `flag`. */
__attribute__((cold, noinline, unused)) static void cl2c_ck_unset_part(cl2c_ck_site *site,
                                                                       const char *name,
                                                                       unsigned flag,
                                                                       unsigned mask,
                                                                       int n) {
    int k = 0;
    while (k < n && !(((mask & ~flag) >> k) & 1u)) k++;    /* the first one not written */
    if (flag == 0 || mask == 0 || k >= n) {            /* none of it written: the vector */
        cl2c_ck_unset(site, name, -1);
    } else if (n <= 4) {
        cl2c_ck_finding(site, "read of uninitialized private variable '%s': component %d "
                        "(.%c), which nothing wrote", name, k, "xyzw"[k]);
    } else {
        cl2c_ck_finding(site, "read of uninitialized private variable '%s': component %d "
                        "(.s%x), which nothing wrote", name, k, (unsigned)k);
    }
}
#define CL2C_CK_VTEST(flag, mask, n, site, name)                                           \
    ((mask) ? (((flag) & (mask)) == (mask) ? (void)0                                        \
                                           : cl2c_ck_unset_part((site), (name), (flag),     \
                                                                (mask), (n)))               \
            : ((flag) ? (void)0 : cl2c_ck_unset_part((site), (name), 0u, 0u, (n))))
#define CL2C_CK_VGET(flag, mask, n, site, name, e) (CL2C_CK_VTEST(flag, mask, n, site, name), (e))
/* Components `mask` written by e (after it), or by whatever has the vector's address. */
#define CL2C_CK_VSET(flagp, mask, e)                                                        \
    __extension__({                                                                         \
        __typeof__(e) cl2c_ck_pv_ = (e);                                                    \
        *(flagp) |= (mask);                                                                 \
        cl2c_ck_pv_;                                                                        \
    })
#define CL2C_CK_VADDR(flagp, mask, e) (*(flagp) |= (mask), (e))

/* An element of a private array at p (base: the array): bits 1 test, 2 set. */
static inline void *cl2c_ck_elem(_Bool *shadow, const void *base, const void *p,
                                 size_t n, int bits, cl2c_ck_site *site, const char *name) {
    size_t k = (size_t)((const char *)p - (const char *)base) / n;
    if ((bits & 1) && !shadow[k]) cl2c_ck_unset(site, name, (long long)k);
    if (bits & 2) shadow[k] = 1;
    return (void *)p;
}
#define CL2C_CK_ELEM(shadow, base, p, bits, site, name)                                     \
    ((__typeof__(p))cl2c_ck_elem((shadow), (const void *)(base), (const void *)(p),         \
                                 sizeof(*(p)), (bits), (site), (name)))

/* A private struct with vector members: its flag a bit per component of each, and one
 * for its other members (the last of n); labels: each bit's, one after another, each
 * ended by a NUL. A read of bits `mask` (0: any). */
__attribute__((cold, noinline, unused)) static void cl2c_ck_unset_member(
    cl2c_ck_site *site, const char *name, unsigned long long flag, unsigned long long mask,
    const char *labels, int n) {
    int k = 0;
    while (k < n && !(((mask & ~flag) >> k) & 1u)) k++;    /* the first one not written */
    if (flag == 0 || mask == 0 || k >= n) {
        cl2c_ck_unset(site, name, -1);
        return;
    }
    for (int j = 0; j < k; ++j) labels += strlen(labels) + 1;
    cl2c_ck_finding(site, "read of uninitialized private variable '%s': %s, which nothing "
                    "wrote", name, labels);
}
#define CL2C_CK_STEST(flag, mask, labels, n, site, name)                                   \
    ((mask) ? (((flag) & (mask)) == (mask) ? (void)0                                        \
                                           : cl2c_ck_unset_member((site), (name), (flag),   \
                                                                  (mask), (labels), (n)))   \
            : ((flag) ? (void)0 : cl2c_ck_unset_member((site), (name), 0u, 0u, (labels), (n))))
#define CL2C_CK_SGET(flag, mask, labels, n, site, name, e)                                 \
    (CL2C_CK_STEST(flag, mask, labels, n, site, name), (e))

/* An element of a private array of n-component vectors at p, its shadow a bit per
 * component: components `read` tested where check (read 0: any of them), `wrote` set. */
__attribute__((cold, noinline, unused)) static void cl2c_ck_unset_velem(cl2c_ck_site *site,
                                                                        const char *name,
                                                                        size_t element,
                                                                        unsigned flag,
                                                                        unsigned read, int n) {
    int k = 0;
    while (k < n && !(((read & ~flag) >> k) & 1u)) k++;    /* the first one not written */
    if (flag == 0 || read == 0 || k >= n)
        cl2c_ck_unset(site, name, (long long)element);
    else if (n <= 4)
        cl2c_ck_finding(site, "read of uninitialized private variable '%s': element %zu, "
                        "component %d (.%c), which nothing wrote", name, element, k,
                        "xyzw"[k]);
    else
        cl2c_ck_finding(site, "read of uninitialized private variable '%s': element %zu, "
                        "component %d (.s%x), which nothing wrote", name, element, k,
                        (unsigned)k);
}
static inline void *cl2c_ck_velem(unsigned short *shadow, const void *base, const void *p,
                                  size_t size, int check, unsigned read, unsigned wrote, int n,
                                  cl2c_ck_site *site, const char *name) {
    size_t k = (size_t)((const char *)p - (const char *)base) / size;
    if (check && (read ? (shadow[k] & read) != read : shadow[k] == 0))
        cl2c_ck_unset_velem(site, name, k, shadow[k], read, n);
    shadow[k] |= (unsigned short)wrote;
    return (void *)p;
}
#define CL2C_CK_VELEM(shadow, base, p, check, read, wrote, n, site, name)                   \
    ((__typeof__(p))cl2c_ck_velem((shadow), (const void *)(base), (const void *)(p),        \
                                  sizeof(*(p)), (check), (read), (wrote), (n), (site), (name)))
#define CL2C_CK_VAADDR(shadow, e) (memset((shadow), 0xff, sizeof(shadow)), (e))

/* An element of a private array of structs at p, its shadow a bit per part (as a
 * struct's flag: CL2C_CK_STEST's labels): parts `read` tested where check (read 0: any
 * of them), `wrote` set. */
__attribute__((cold, noinline, unused)) static void cl2c_ck_unset_selem(
    cl2c_ck_site *site, const char *name, size_t element, unsigned long long flag,
    unsigned long long read, const char *labels, int n) {
    int k = 0;
    while (k < n && !(((read & ~flag) >> k) & 1u)) k++;    /* the first one not written */
    if (flag == 0 || read == 0 || k >= n) {
        cl2c_ck_unset(site, name, (long long)element);
        return;
    }
    for (int j = 0; j < k; ++j) labels += strlen(labels) + 1;
    cl2c_ck_finding(site, "read of uninitialized private variable '%s': element %zu, %s, "
                    "which nothing wrote", name, element, labels);
}
static inline void *cl2c_ck_selem(unsigned long long *shadow, const void *base, const void *p,
                                  size_t size, int check, unsigned long long read,
                                  unsigned long long wrote, const char *labels, int n,
                                  cl2c_ck_site *site, const char *name) {
    size_t k = (size_t)((const char *)p - (const char *)base) / size;
    if (check && (read ? (shadow[k] & read) != read : shadow[k] == 0))
        cl2c_ck_unset_selem(site, name, k, shadow[k], read, labels, n);
    shadow[k] |= wrote;
    return (void *)p;
}
#define CL2C_CK_SELEM(shadow, base, p, check, read, wrote, labels, n, site, name)          \
    ((__typeof__(p))cl2c_ck_selem((shadow), (const void *)(base), (const void *)(p),        \
                                  sizeof(*(p)), (check), (read), (wrote), (labels), (n),    \
                                  (site), (name)))

#endif
