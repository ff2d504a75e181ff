/* cl2c runtime: everything translated kernels need, header-only C11.
 * One header per chapter of the OpenCL C specification, as FreeOCL does. */
#ifndef CL2C_H
#define CL2C_H

/* The fiber runtime needs POSIX declarations (mmap, sigaltstack) that strict
 * -std=c11 hides: generated files include this header first. */
#if !defined(_DEFAULT_SOURCE) && !defined(_GNU_SOURCE)
#define _DEFAULT_SOURCE 1
#endif

#include "scalars.h"
#include "vectors.h"
#include "workitem.h"
#include "math.h"
#include "integer.h"
#include "common.h"
#include "geometric.h"
#include "relational.h"
#include "half.h"
#include "vloadstore.h"
#include "shuffle.h"
#include "convert.h"
#include "fence.h"
#include "async.h"
#include "host.h"
/* atomics.h and images.h: only where a program calls an atomic function or declares an
 * image or a sampler (its generated file includes them then, from the builtins' rows
 * and the declarations: cl2c/sema), as they are 40% of this header's text */
#include "regions.h"
#include "workgroup.h"
#include "printf.h"
#include "faults.h"

#endif
