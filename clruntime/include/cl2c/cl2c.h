/* cl2c runtime: everything translated kernels need, header-only C11.
 * One header per chapter of the OpenCL C specification, as FreeOCL does. */
#ifndef CL2C_H
#define CL2C_H

#include "scalars.h"
#include "vectors.h"
#include "workitem.h"
#include "math.h"
#include "integer.h"
#include "common.h"
#include "geometric.h"
#include "relational.h"
#include "vloadstore.h"
#include "convert.h"
#include "host.h"

#endif
