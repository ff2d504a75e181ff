/* Where the runtime's out-of-line code is compiled: the launch's setup (host.h), the
 * fault guard (faults.h) and the fibers (fiber.h).
 *
 * By default in every file that includes cl2c.h, `static`: the runtime is header-only
 * (a C program's build, CMake's, `cl2c --shared`).
 *
 * The Python loader's builds (cl2c/precompiled.py) compile that code once per kernel
 * cache and compiler flags instead, from cl2c.h with CL2C_RUNTIME_OBJECT defined, into an
 * object with hidden symbols that each library links: its kernels' file, compiled with
 * CL2C_RUNTIME_LINKED, declares that code and compiles none of it. Each library still
 * has its own copy of the runtime's state, as a header-only build has. (That code was
 * about 85% of a one-kernel file's object, compiled again for every program.) */
#ifndef CL2C_LINKAGE_H
#define CL2C_LINKAGE_H

#if defined(CL2C_RUNTIME_LINKED) && defined(CL2C_RUNTIME_OBJECT)
#error "CL2C_RUNTIME_LINKED (a kernels' file) and CL2C_RUNTIME_OBJECT (the runtime's object) exclude each other"
#endif

#if defined(CL2C_RUNTIME_LINKED) || defined(CL2C_RUNTIME_OBJECT)
/* A function or variable of the out-of-line code: defined by the runtime's object. */
#define CL2C_RT __attribute__((visibility("hidden")))
/* Its state that inline code reads too, declared before that code; thread-local state
 * as the library's own (as a static one is: not GCC's default for a declaration, which
 * looks the variable up by name at each access). */
#define CL2C_RT_SHARED extern __attribute__((visibility("hidden")))
#define CL2C_RT_SHARED_THREAD \
    extern __attribute__((visibility("hidden"), tls_model("local-dynamic"))) _Thread_local
#else
#define CL2C_RT __attribute__((unused)) static
#define CL2C_RT_SHARED static
#define CL2C_RT_SHARED_THREAD static _Thread_local
#endif

/* Whether this file compiles the out-of-line code's bodies. */
#ifdef CL2C_RUNTIME_LINKED
#define CL2C_RT_BODIES 0
#else
#define CL2C_RT_BODIES 1
#endif

#endif
