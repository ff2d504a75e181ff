/* Scalar types of OpenCL C (spec 6.1.1) with their exact widths. */
#ifndef CL2C_SCALARS_H
#define CL2C_SCALARS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* <stdlib.h> (which the runtime needs) declares div, ldiv and lldiv, natural names for
 * kernels and helpers (piglit's arithmetic tests have a kernel called div). The runtime
 * never calls them, so in translated code these names mean the kernel's own functions. */
#include <stdlib.h>
#define div cl2c_user_div
#define ldiv cl2c_user_ldiv
#define lldiv cl2c_user_lldiv

/* OpenCL's char is signed everywhere; C's plain char is not. */
typedef int8_t cl2c_char;
typedef uint8_t cl2c_uchar;
typedef int16_t cl2c_short;
typedef uint16_t cl2c_ushort;
typedef int32_t cl2c_int;
typedef uint32_t cl2c_uint;
typedef int64_t cl2c_long;
typedef uint64_t cl2c_ulong;
typedef float cl2c_float;
typedef double cl2c_double;
/* half is an arithmetic type (cl_khr_fp16) where the compiler has _Float16, and
 * only a storage type (its bits) elsewhere; cl2c advertises cl_khr_fp16 accordingly. */
#ifdef __FLT16_MAX__
typedef _Float16 cl2c_half;
#define CL2C_HAS_HALF 1
#else
typedef uint16_t cl2c_half;
#endif
typedef _Bool cl2c_bool;

#if defined(__GNUC__) || defined(__clang__)
/* unused: the helpers are instantiated into the generated .c file, where clang
 * (unlike GCC) warns about each static inline function a kernel does not call.
 * Forced inline where the compiler optimises; at -O0 (the fast tier, a debug build)
 * each helper is one function the kernels call: inlined at every call, the image
 * functions made a test file's -O0 compile 7 s and 1.3 MB of code, 0.4 s without. */
#ifdef __OPTIMIZE__
#define CL2C_INLINE static inline __attribute__((always_inline, unused))
#else
#define CL2C_INLINE static inline __attribute__((unused))
#endif
#define CL2C_ALWAYS_INLINE inline __attribute__((always_inline))
#define CL2C_NOINLINE __attribute__((noinline))
#define CL2C_UNUSED __attribute__((unused))
#define CL2C_FALLTHROUGH __attribute__((fallthrough))
#else
#define CL2C_INLINE static inline
#define CL2C_ALWAYS_INLINE inline
#define CL2C_NOINLINE
#define CL2C_UNUSED
#define CL2C_FALLTHROUGH
#endif

/* Before a loop over a vector's components: unrolled whole, so that the work-item loop
 * around it (one iteration a work-item) stays a loop without inner loops, which GCC
 * vectorises (native_sqrt of a float3 in the Guide's Sobel kept it scalar). */
#if defined(__clang__)
#define CL2C_EACH_COMPONENT _Pragma("clang loop unroll(full)")
#elif defined(__GNUC__)
#define CL2C_EACH_COMPONENT _Pragma("GCC unroll 16")
#else
#define CL2C_EACH_COMPONENT
#endif

/* Shifts mask the count to the width of the left operand (spec 6.3.j) and shift
 * in unsigned arithmetic, so that no shift is undefined behaviour in C. */
#define CL2C_SHL(T, UT, a, b) ((T)((UT)(a) << ((b) & (sizeof(T) * 8 - 1))))
#define CL2C_SHR(T, a, b) ((T)((a) >> ((b) & (sizeof(T) * 8 - 1))))

/* Integer division and remainder do not trap. OpenCL leaves x / 0, x % 0 and
 * INT_MIN / -1 undefined values (spec 6.3), not a crash, and x86's idiv raises SIGFPE
 * for both: there the divisor becomes 1 (a select, no branch). char and short divide
 * promoted to int, where only 0 traps. */
#define CL2C_SDIVISOR_(MIN, a, b) ((((b) == 0) | (((a) == (MIN)) & ((b) == -1))) ? 1 : (b))
#define CL2C_UDIVISOR_(b) ((b) == 0 ? 1 : (b))
#define CL2C_DIVISOR_char(a, b) CL2C_UDIVISOR_(b)
#define CL2C_DIVISOR_uchar(a, b) CL2C_UDIVISOR_(b)
#define CL2C_DIVISOR_short(a, b) CL2C_UDIVISOR_(b)
#define CL2C_DIVISOR_ushort(a, b) CL2C_UDIVISOR_(b)
#define CL2C_DIVISOR_int(a, b) CL2C_SDIVISOR_(INT32_MIN, a, b)
#define CL2C_DIVISOR_uint(a, b) CL2C_UDIVISOR_(b)
#define CL2C_DIVISOR_long(a, b) CL2C_SDIVISOR_(INT64_MIN, a, b)
#define CL2C_DIVISOR_ulong(a, b) CL2C_UDIVISOR_(b)
#define CL2C_DIVISOR_half(a, b) (b)
#define CL2C_DIVISOR_float(a, b) (b)
#define CL2C_DIVISOR_double(a, b) (b)
#define CL2C_DIVREM_(T)                                                              \
    CL2C_INLINE cl2c_##T cl2c_idiv_##T(cl2c_##T a, cl2c_##T b) {                     \
        return a / CL2C_DIVISOR_##T(a, b);                                           \
    }                                                                                \
    CL2C_INLINE cl2c_##T cl2c_irem_##T(cl2c_##T a, cl2c_##T b) {                     \
        return a % CL2C_DIVISOR_##T(a, b);                                           \
    }
CL2C_DIVREM_(int)
CL2C_DIVREM_(uint)
CL2C_DIVREM_(long)
CL2C_DIVREM_(ulong)

#endif
