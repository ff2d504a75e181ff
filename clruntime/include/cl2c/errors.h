/* cl2c/errors.h: OpenCL's error codes and cl2c's own, and what each means.
 *
 * GENERATED from cl2c/error_codes.py by `python -m cl2c.error_codes`: do not edit.
 * Plain C99, needing no other header (host.h, fiber.h and the platform library
 * include it). Each code is OpenCL's value under the name CL2C_<name less CL_>. */
#ifndef CL2C_ERRORS_H
#define CL2C_ERRORS_H

/* OpenCL's codes */
#define CL2C_SUCCESS                                    0
#define CL2C_DEVICE_NOT_FOUND                           (-1)
#define CL2C_DEVICE_NOT_AVAILABLE                       (-2)
#define CL2C_COMPILER_NOT_AVAILABLE                     (-3)
#define CL2C_MEM_OBJECT_ALLOCATION_FAILURE              (-4)
#define CL2C_OUT_OF_RESOURCES                           (-5)
#define CL2C_OUT_OF_HOST_MEMORY                         (-6)
#define CL2C_PROFILING_INFO_NOT_AVAILABLE               (-7)
#define CL2C_MEM_COPY_OVERLAP                           (-8)
#define CL2C_IMAGE_FORMAT_MISMATCH                      (-9)
#define CL2C_IMAGE_FORMAT_NOT_SUPPORTED                 (-10)
#define CL2C_BUILD_PROGRAM_FAILURE                      (-11)
#define CL2C_MAP_FAILURE                                (-12)
#define CL2C_MISALIGNED_SUB_BUFFER_OFFSET               (-13)
#define CL2C_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST  (-14)
#define CL2C_COMPILE_PROGRAM_FAILURE                    (-15)
#define CL2C_LINKER_NOT_AVAILABLE                       (-16)
#define CL2C_LINK_PROGRAM_FAILURE                       (-17)
#define CL2C_DEVICE_PARTITION_FAILED                    (-18)
#define CL2C_KERNEL_ARG_INFO_NOT_AVAILABLE              (-19)
#define CL2C_INVALID_VALUE                              (-30)
#define CL2C_INVALID_DEVICE_TYPE                        (-31)
#define CL2C_INVALID_PLATFORM                           (-32)
#define CL2C_INVALID_DEVICE                             (-33)
#define CL2C_INVALID_CONTEXT                            (-34)
#define CL2C_INVALID_QUEUE_PROPERTIES                   (-35)
#define CL2C_INVALID_COMMAND_QUEUE                      (-36)
#define CL2C_INVALID_HOST_PTR                           (-37)
#define CL2C_INVALID_MEM_OBJECT                         (-38)
#define CL2C_INVALID_IMAGE_FORMAT_DESCRIPTOR            (-39)
#define CL2C_INVALID_IMAGE_SIZE                         (-40)
#define CL2C_INVALID_SAMPLER                            (-41)
#define CL2C_INVALID_BINARY                             (-42)
#define CL2C_INVALID_BUILD_OPTIONS                      (-43)
#define CL2C_INVALID_PROGRAM                            (-44)
#define CL2C_INVALID_PROGRAM_EXECUTABLE                 (-45)
#define CL2C_INVALID_KERNEL_NAME                        (-46)
#define CL2C_INVALID_KERNEL_DEFINITION                  (-47)
#define CL2C_INVALID_KERNEL                             (-48)
#define CL2C_INVALID_ARG_INDEX                          (-49)
#define CL2C_INVALID_ARG_VALUE                          (-50)
#define CL2C_INVALID_ARG_SIZE                           (-51)
#define CL2C_INVALID_KERNEL_ARGS                        (-52)
#define CL2C_INVALID_WORK_DIMENSION                     (-53)
#define CL2C_INVALID_WORK_GROUP_SIZE                    (-54)
#define CL2C_INVALID_WORK_ITEM_SIZE                     (-55)
#define CL2C_INVALID_GLOBAL_OFFSET                      (-56)
#define CL2C_INVALID_EVENT_WAIT_LIST                    (-57)
#define CL2C_INVALID_EVENT                              (-58)
#define CL2C_INVALID_OPERATION                          (-59)
#define CL2C_INVALID_GL_OBJECT                          (-60)
#define CL2C_INVALID_BUFFER_SIZE                        (-61)
#define CL2C_INVALID_MIP_LEVEL                          (-62)
#define CL2C_INVALID_GLOBAL_WORK_SIZE                   (-63)
#define CL2C_INVALID_PROPERTY                           (-64)
#define CL2C_INVALID_IMAGE_DESCRIPTOR                   (-65)
#define CL2C_INVALID_COMPILER_OPTIONS                   (-66)
#define CL2C_INVALID_LINKER_OPTIONS                     (-67)
#define CL2C_INVALID_DEVICE_PARTITION_COUNT             (-68)
#define CL2C_INVALID_PIPE_SIZE                          (-69)
#define CL2C_INVALID_DEVICE_QUEUE                       (-70)
#define CL2C_INVALID_SPEC_ID                            (-71)
#define CL2C_MAX_SIZE_RESTRICTION_EXCEEDED              (-72)
#define CL2C_PLATFORM_NOT_FOUND_KHR                     (-1001)

/* cl2c's own: a launch that failed while it ran (the calling thread's last
 * error, cl2c_fiber_last_error, says which work-group and why) */
#define CL2C_BARRIER_DIVERGENCE                         (-1100)
#define CL2C_KERNEL_FAULT                               (-1101)
#define CL2C_INTERRUPTED                                (-1102)
#define CL2C_CHECK_FAILED                               (-1103)

/* What a code means where cl2c returns it; "unknown error" for others. */
static inline const char *cl2c_error_string(int code) {
    switch (code) {
    case CL2C_SUCCESS:
        return "success";
    case CL2C_DEVICE_NOT_FOUND:
        return "device not found";
    case CL2C_DEVICE_NOT_AVAILABLE:
        return "device not available";
    case CL2C_COMPILER_NOT_AVAILABLE:
        return "compiler not available";
    case CL2C_MEM_OBJECT_ALLOCATION_FAILURE:
        return "memory object allocation failure";
    case CL2C_OUT_OF_RESOURCES:
        return "out of resources (the fibers schedule could not allocate its work-item "
               "stacks)";
    case CL2C_OUT_OF_HOST_MEMORY:
        return "out of host memory";
    case CL2C_PROFILING_INFO_NOT_AVAILABLE:
        return "profiling information not available";
    case CL2C_MEM_COPY_OVERLAP:
        return "memory copy overlap";
    case CL2C_IMAGE_FORMAT_MISMATCH:
        return "image format mismatch";
    case CL2C_IMAGE_FORMAT_NOT_SUPPORTED:
        return "image format not supported";
    case CL2C_BUILD_PROGRAM_FAILURE:
        return "program build failure";
    case CL2C_MAP_FAILURE:
        return "map failure";
    case CL2C_MISALIGNED_SUB_BUFFER_OFFSET:
        return "misaligned sub-buffer offset";
    case CL2C_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST:
        return "an event in the wait list failed";
    case CL2C_COMPILE_PROGRAM_FAILURE:
        return "program compile failure";
    case CL2C_LINKER_NOT_AVAILABLE:
        return "linker not available";
    case CL2C_LINK_PROGRAM_FAILURE:
        return "program link failure";
    case CL2C_DEVICE_PARTITION_FAILED:
        return "device partition failed";
    case CL2C_KERNEL_ARG_INFO_NOT_AVAILABLE:
        return "kernel argument information not available";
    case CL2C_INVALID_VALUE:
        return "invalid value (a NULL range?)";
    case CL2C_INVALID_DEVICE_TYPE:
        return "invalid device type";
    case CL2C_INVALID_PLATFORM:
        return "invalid platform";
    case CL2C_INVALID_DEVICE:
        return "invalid device";
    case CL2C_INVALID_CONTEXT:
        return "invalid context";
    case CL2C_INVALID_QUEUE_PROPERTIES:
        return "invalid queue properties";
    case CL2C_INVALID_COMMAND_QUEUE:
        return "invalid command queue";
    case CL2C_INVALID_HOST_PTR:
        return "invalid host pointer";
    case CL2C_INVALID_MEM_OBJECT:
        return "invalid memory object";
    case CL2C_INVALID_IMAGE_FORMAT_DESCRIPTOR:
        return "invalid image format descriptor (an unknown channel order or type)";
    case CL2C_INVALID_IMAGE_SIZE:
        return "invalid image size (a size of 0)";
    case CL2C_INVALID_SAMPLER:
        return "invalid sampler";
    case CL2C_INVALID_BINARY:
        return "invalid binary";
    case CL2C_INVALID_BUILD_OPTIONS:
        return "invalid build options";
    case CL2C_INVALID_PROGRAM:
        return "invalid program";
    case CL2C_INVALID_PROGRAM_EXECUTABLE:
        return "invalid program executable";
    case CL2C_INVALID_KERNEL_NAME:
        return "invalid kernel name";
    case CL2C_INVALID_KERNEL_DEFINITION:
        return "invalid kernel definition";
    case CL2C_INVALID_KERNEL:
        return "invalid kernel (NULL kernel information)";
    case CL2C_INVALID_ARG_INDEX:
        return "invalid argument index";
    case CL2C_INVALID_ARG_VALUE:
        return "invalid argument value (a null buffer?)";
    case CL2C_INVALID_ARG_SIZE:
        return "invalid argument size (a __local argument of 0 bytes?)";
    case CL2C_INVALID_KERNEL_ARGS:
        return "kernel arguments not set";
    case CL2C_INVALID_WORK_DIMENSION:
        return "work_dim must be 1, 2 or 3";
    case CL2C_INVALID_WORK_GROUP_SIZE:
        return "invalid work-group size (it must divide the global size under OpenCL 1.2, "
               "match reqd_work_group_size, and hold at most 4096 work-items)";
    case CL2C_INVALID_WORK_ITEM_SIZE:
        return "a local size is zero";
    case CL2C_INVALID_GLOBAL_OFFSET:
        return "global offset plus global size overflows";
    case CL2C_INVALID_EVENT_WAIT_LIST:
        return "invalid event wait list";
    case CL2C_INVALID_EVENT:
        return "invalid event";
    case CL2C_INVALID_OPERATION:
        return "invalid operation (a launch of the fibers schedule from inside a work-item)";
    case CL2C_INVALID_GL_OBJECT:
        return "invalid OpenGL object";
    case CL2C_INVALID_BUFFER_SIZE:
        return "invalid buffer size";
    case CL2C_INVALID_MIP_LEVEL:
        return "invalid mip-map level";
    case CL2C_INVALID_GLOBAL_WORK_SIZE:
        return "a global size is zero";
    case CL2C_INVALID_PROPERTY:
        return "invalid property";
    case CL2C_INVALID_IMAGE_DESCRIPTOR:
        return "invalid image descriptor";
    case CL2C_INVALID_COMPILER_OPTIONS:
        return "invalid compiler options";
    case CL2C_INVALID_LINKER_OPTIONS:
        return "invalid linker options";
    case CL2C_INVALID_DEVICE_PARTITION_COUNT:
        return "invalid device partition count";
    case CL2C_INVALID_PIPE_SIZE:
        return "invalid pipe size";
    case CL2C_INVALID_DEVICE_QUEUE:
        return "invalid device queue";
    case CL2C_INVALID_SPEC_ID:
        return "invalid specialization constant id";
    case CL2C_MAX_SIZE_RESTRICTION_EXCEEDED:
        return "maximum size restriction exceeded";
    case CL2C_PLATFORM_NOT_FOUND_KHR:
        return "no OpenCL platform found";
    case CL2C_BARRIER_DIVERGENCE:
        return "barrier divergence: the work-items of a group disagreed on their barriers";
    case CL2C_KERNEL_FAULT:
        return "the kernel faulted (SIGSEGV, SIGBUS or SIGFPE) and the launch stopped";
    case CL2C_INTERRUPTED:
        return "interrupted (SIGINT): the launch stopped between work-groups";
    case CL2C_CHECK_FAILED:
        return "checking mode (-cl2c-check) found a bug in the kernel";
    default:
        return "unknown error";
    }
}

#endif /* CL2C_ERRORS_H */
