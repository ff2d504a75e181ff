"""The OpenCL entry points an installable client driver serves, as data: every slot of
the ICD loader's dispatch table (``struct _cl_icd_dispatch`` of Khronos' ``CL/cl_icd.h``),
in its order, with its prototype. ``generate.py`` writes the C dispatch table, the
prototypes and a stub for each entry point the C sources do not define from this one
table; tests/test_icd_entry_points.py holds it to Debian's header.

The prototypes use OpenCL's type names (``cl_types.py`` defines them for the library,
which needs no OpenCL headers) and name callbacks by the typedefs listed in
``CALLBACK_TYPES``. The Windows-only slots (Direct3D, DX9 media sharing) take their COM
objects as ``void *`` and their enumerations as ``cl_uint``: on other systems the header
declares those slots as plain ``void *``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

# Function-pointer parameters, named (their C declarations go into the generated header).
CALLBACK_TYPES = {
    "cl2c_context_notify": "void (*{})(const char *errinfo, const void *private_info, "
                           "size_t cb, void *user_data)",
    "cl2c_program_notify": "void (*{})(cl_program program, void *user_data)",
    "cl2c_native_kernel": "void (*{})(void *args)",
    "cl2c_event_notify": "void (*{})(cl_event event, cl_int status, void *user_data)",
    "cl2c_mem_notify": "void (*{})(cl_mem memobj, void *user_data)",
    "cl2c_svm_free_notify": "void (*{})(cl_command_queue queue, cl_uint num_svm_pointers, "
                            "void **svm_pointers, void *user_data)",
    "cl2c_context_destructor_notify": "void (*{})(cl_context context, void *user_data)",
}

# One line a slot, in the dispatch table's order; '#' lines name the group that follows.
_SLOTS = """
# OpenCL 1.0
cl_int clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms)
cl_int clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name, size_t param_value_size, void *param_value, size_t *param_value_size_ret)
cl_int clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type, cl_uint num_entries, cl_device_id *devices, cl_uint *num_devices)
cl_int clGetDeviceInfo(cl_device_id device, cl_device_info param_name, size_t param_value_size, void *param_value, size_t *param_value_size_ret)
cl_context clCreateContext(const cl_context_properties *properties, cl_uint num_devices, const cl_device_id *devices, cl2c_context_notify pfn_notify, void *user_data, cl_int *errcode_ret)
cl_context clCreateContextFromType(const cl_context_properties *properties, cl_device_type device_type, cl2c_context_notify pfn_notify, void *user_data, cl_int *errcode_ret)
cl_int clRetainContext(cl_context context)
cl_int clReleaseContext(cl_context context)
cl_int clGetContextInfo(cl_context context, cl_context_info param_name, size_t param_value_size, void *param_value, size_t *param_value_size_ret)
cl_command_queue clCreateCommandQueue(cl_context context, cl_device_id device, cl_command_queue_properties properties, cl_int *errcode_ret)
cl_int clRetainCommandQueue(cl_command_queue command_queue)
cl_int clReleaseCommandQueue(cl_command_queue command_queue)
cl_int clGetCommandQueueInfo(cl_command_queue command_queue, cl_command_queue_info param_name, size_t param_value_size, void *param_value, size_t *param_value_size_ret)
cl_int clSetCommandQueueProperty(cl_command_queue command_queue, cl_command_queue_properties properties, cl_bool enable, cl_command_queue_properties *old_properties)
cl_mem clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void *host_ptr, cl_int *errcode_ret)
cl_mem clCreateImage2D(cl_context context, cl_mem_flags flags, const cl_image_format *image_format, size_t image_width, size_t image_height, size_t image_row_pitch, void *host_ptr, cl_int *errcode_ret)
cl_mem clCreateImage3D(cl_context context, cl_mem_flags flags, const cl_image_format *image_format, size_t image_width, size_t image_height, size_t image_depth, size_t image_row_pitch, size_t image_slice_pitch, void *host_ptr, cl_int *errcode_ret)
cl_int clRetainMemObject(cl_mem memobj)
cl_int clReleaseMemObject(cl_mem memobj)
cl_int clGetSupportedImageFormats(cl_context context, cl_mem_flags flags, cl_mem_object_type image_type, cl_uint num_entries, cl_image_format *image_formats, cl_uint *num_image_formats)
cl_int clGetMemObjectInfo(cl_mem memobj, cl_mem_info param_name, size_t param_value_size, void *param_value, size_t *param_value_size_ret)
cl_int clGetImageInfo(cl_mem image, cl_image_info param_name, size_t param_value_size, void *param_value, size_t *param_value_size_ret)
cl_sampler clCreateSampler(cl_context context, cl_bool normalized_coords, cl_addressing_mode addressing_mode, cl_filter_mode filter_mode, cl_int *errcode_ret)
cl_int clRetainSampler(cl_sampler sampler)
cl_int clReleaseSampler(cl_sampler sampler)
cl_int clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name, size_t param_value_size, void *param_value, size_t *param_value_size_ret)
cl_program clCreateProgramWithSource(cl_context context, cl_uint count, const char **strings, const size_t *lengths, cl_int *errcode_ret)
cl_program clCreateProgramWithBinary(cl_context context, cl_uint num_devices, const cl_device_id *device_list, const size_t *lengths, const unsigned char **binaries, cl_int *binary_status, cl_int *errcode_ret)
cl_int clRetainProgram(cl_program program)
cl_int clReleaseProgram(cl_program program)
cl_int clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id *device_list, const char *options, cl2c_program_notify pfn_notify, void *user_data)
cl_int clUnloadCompiler(void)
cl_int clGetProgramInfo(cl_program program, cl_program_info param_name, size_t param_value_size, void *param_value, size_t *param_value_size_ret)
cl_int clGetProgramBuildInfo(cl_program program, cl_device_id device, cl_program_build_info param_name, size_t param_value_size, void *param_value, size_t *param_value_size_ret)
cl_kernel clCreateKernel(cl_program program, const char *kernel_name, cl_int *errcode_ret)
cl_int clCreateKernelsInProgram(cl_program program, cl_uint num_kernels, cl_kernel *kernels, cl_uint *num_kernels_ret)
cl_int clRetainKernel(cl_kernel kernel)
cl_int clReleaseKernel(cl_kernel kernel)
cl_int clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size, const void *arg_value)
cl_int clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name, size_t param_value_size, void *param_value, size_t *param_value_size_ret)
cl_int clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device, cl_kernel_work_group_info param_name, size_t param_value_size, void *param_value, size_t *param_value_size_ret)
cl_int clWaitForEvents(cl_uint num_events, const cl_event *event_list)
cl_int clGetEventInfo(cl_event event, cl_event_info param_name, size_t param_value_size, void *param_value, size_t *param_value_size_ret)
cl_int clRetainEvent(cl_event event)
cl_int clReleaseEvent(cl_event event)
cl_int clGetEventProfilingInfo(cl_event event, cl_profiling_info param_name, size_t param_value_size, void *param_value, size_t *param_value_size_ret)
cl_int clFlush(cl_command_queue command_queue)
cl_int clFinish(cl_command_queue command_queue)
cl_int clEnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read, size_t offset, size_t cb, void *ptr, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
cl_int clEnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write, size_t offset, size_t cb, const void *ptr, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
cl_int clEnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer, size_t src_offset, size_t dst_offset, size_t cb, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
cl_int clEnqueueReadImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_read, const size_t *origin, const size_t *region, size_t row_pitch, size_t slice_pitch, void *ptr, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
cl_int clEnqueueWriteImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_write, const size_t *origin, const size_t *region, size_t input_row_pitch, size_t input_slice_pitch, const void *ptr, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
cl_int clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_image, const size_t *src_origin, const size_t *dst_origin, const size_t *region, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
cl_int clEnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_buffer, const size_t *src_origin, const size_t *region, size_t dst_offset, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
cl_int clEnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_image, size_t src_offset, const size_t *dst_origin, const size_t *region, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
void *clEnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_map, cl_map_flags map_flags, size_t offset, size_t cb, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event, cl_int *errcode_ret)
void *clEnqueueMapImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_map, cl_map_flags map_flags, const size_t *origin, const size_t *region, size_t *image_row_pitch, size_t *image_slice_pitch, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event, cl_int *errcode_ret)
cl_int clEnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj, void *mapped_ptr, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
cl_int clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim, const size_t *global_work_offset, const size_t *global_work_size, const size_t *local_work_size, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
cl_int clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
cl_int clEnqueueNativeKernel(cl_command_queue command_queue, cl2c_native_kernel user_func, void *args, size_t cb_args, cl_uint num_mem_objects, const cl_mem *mem_list, const void **args_mem_loc, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
cl_int clEnqueueMarker(cl_command_queue command_queue, cl_event *event)
cl_int clEnqueueWaitForEvents(cl_command_queue command_queue, cl_uint num_events, const cl_event *event_list)
cl_int clEnqueueBarrier(cl_command_queue command_queue)
void *clGetExtensionFunctionAddress(const char *function_name)
cl_mem clCreateFromGLBuffer(cl_context context, cl_mem_flags flags, cl_GLuint bufobj, cl_int *errcode_ret)
cl_mem clCreateFromGLTexture2D(cl_context context, cl_mem_flags flags, cl_GLenum target, cl_GLint miplevel, cl_GLuint texture, cl_int *errcode_ret)
cl_mem clCreateFromGLTexture3D(cl_context context, cl_mem_flags flags, cl_GLenum target, cl_GLint miplevel, cl_GLuint texture, cl_int *errcode_ret)
cl_mem clCreateFromGLRenderbuffer(cl_context context, cl_mem_flags flags, cl_GLuint renderbuffer, cl_int *errcode_ret)
cl_int clGetGLObjectInfo(cl_mem memobj, cl_gl_object_type *gl_object_type, cl_GLuint *gl_object_name)
cl_int clGetGLTextureInfo(cl_mem memobj, cl_gl_texture_info param_name, size_t param_value_size, void *param_value, size_t *param_value_size_ret)
cl_int clEnqueueAcquireGLObjects(cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
cl_int clEnqueueReleaseGLObjects(cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
cl_int clGetGLContextInfoKHR(const cl_context_properties *properties, cl_gl_context_info param_name, size_t param_value_size, void *param_value, size_t *param_value_size_ret)

# cl_khr_d3d10_sharing (Windows; D3D objects as void *)
cl_int clGetDeviceIDsFromD3D10KHR(cl_platform_id platform, cl_uint d3d_device_source, void *d3d_object, cl_uint d3d_device_set, cl_uint num_entries, cl_device_id *devices, cl_uint *num_devices)
cl_mem clCreateFromD3D10BufferKHR(cl_context context, cl_mem_flags flags, void *resource, cl_int *errcode_ret)
cl_mem clCreateFromD3D10Texture2DKHR(cl_context context, cl_mem_flags flags, void *resource, cl_uint subresource, cl_int *errcode_ret)
cl_mem clCreateFromD3D10Texture3DKHR(cl_context context, cl_mem_flags flags, void *resource, cl_uint subresource, cl_int *errcode_ret)
cl_int clEnqueueAcquireD3D10ObjectsKHR(cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
cl_int clEnqueueReleaseD3D10ObjectsKHR(cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)

# OpenCL 1.1
cl_int clSetEventCallback(cl_event event, cl_int command_exec_callback_type, cl2c_event_notify pfn_notify, void *user_data)
cl_mem clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type buffer_create_type, const void *buffer_create_info, cl_int *errcode_ret)
cl_int clSetMemObjectDestructorCallback(cl_mem memobj, cl2c_mem_notify pfn_notify, void *user_data)
cl_event clCreateUserEvent(cl_context context, cl_int *errcode_ret)
cl_int clSetUserEventStatus(cl_event event, cl_int execution_status)
cl_int clEnqueueReadBufferRect(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read, const size_t *buffer_origin, const size_t *host_origin, const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch, size_t host_slice_pitch, void *ptr, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
cl_int clEnqueueWriteBufferRect(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read, const size_t *buffer_origin, const size_t *host_origin, const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch, size_t host_slice_pitch, const void *ptr, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
cl_int clEnqueueCopyBufferRect(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer, const size_t *src_origin, const size_t *dst_origin, const size_t *region, size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)

# cl_ext_device_fission
cl_int clCreateSubDevicesEXT(cl_device_id in_device, const cl_device_partition_property_ext *partition_properties, cl_uint num_entries, cl_device_id *out_devices, cl_uint *num_devices)
cl_int clRetainDeviceEXT(cl_device_id device)
cl_int clReleaseDeviceEXT(cl_device_id device)

# cl_khr_gl_event
cl_event clCreateEventFromGLsyncKHR(cl_context context, cl_GLsync sync, cl_int *errcode_ret)

# OpenCL 1.2
cl_int clCreateSubDevices(cl_device_id in_device, const cl_device_partition_property *partition_properties, cl_uint num_entries, cl_device_id *out_devices, cl_uint *num_devices)
cl_int clRetainDevice(cl_device_id device)
cl_int clReleaseDevice(cl_device_id device)
cl_mem clCreateImage(cl_context context, cl_mem_flags flags, const cl_image_format *image_format, const cl_image_desc *image_desc, void *host_ptr, cl_int *errcode_ret)
cl_program clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices, const cl_device_id *device_list, const char *kernel_names, cl_int *errcode_ret)
cl_int clCompileProgram(cl_program program, cl_uint num_devices, const cl_device_id *device_list, const char *options, cl_uint num_input_headers, const cl_program *input_headers, const char **header_include_names, cl2c_program_notify pfn_notify, void *user_data)
cl_program clLinkProgram(cl_context context, cl_uint num_devices, const cl_device_id *device_list, const char *options, cl_uint num_input_programs, const cl_program *input_programs, cl2c_program_notify pfn_notify, void *user_data, cl_int *errcode_ret)
cl_int clUnloadPlatformCompiler(cl_platform_id platform)
cl_int clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_indx, cl_kernel_arg_info param_name, size_t param_value_size, void *param_value, size_t *param_value_size_ret)
cl_int clEnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer, const void *pattern, size_t pattern_size, size_t offset, size_t cb, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
cl_int clEnqueueFillImage(cl_command_queue command_queue, cl_mem image, const void *fill_color, const size_t *origin, const size_t *region, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
cl_int clEnqueueMigrateMemObjects(cl_command_queue command_queue, cl_uint num_mem_objects, const cl_mem *mem_objects, cl_mem_migration_flags flags, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
cl_int clEnqueueMarkerWithWaitList(cl_command_queue command_queue, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
cl_int clEnqueueBarrierWithWaitList(cl_command_queue command_queue, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
void *clGetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char *function_name)
cl_mem clCreateFromGLTexture(cl_context context, cl_mem_flags flags, cl_GLenum target, cl_GLint miplevel, cl_GLuint texture, cl_int *errcode_ret)

# cl_khr_d3d11_sharing (Windows)
cl_int clGetDeviceIDsFromD3D11KHR(cl_platform_id platform, cl_uint d3d_device_source, void *d3d_object, cl_uint d3d_device_set, cl_uint num_entries, cl_device_id *devices, cl_uint *num_devices)
cl_mem clCreateFromD3D11BufferKHR(cl_context context, cl_mem_flags flags, void *resource, cl_int *errcode_ret)
cl_mem clCreateFromD3D11Texture2DKHR(cl_context context, cl_mem_flags flags, void *resource, cl_uint subresource, cl_int *errcode_ret)
cl_mem clCreateFromD3D11Texture3DKHR(cl_context context, cl_mem_flags flags, void *resource, cl_uint subresource, cl_int *errcode_ret)
cl_mem clCreateFromDX9MediaSurfaceKHR(cl_context context, cl_mem_flags flags, cl_uint adapter_type, void *surface_info, cl_uint plane, cl_int *errcode_ret)
cl_int clEnqueueAcquireD3D11ObjectsKHR(cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
cl_int clEnqueueReleaseD3D11ObjectsKHR(cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)

# cl_khr_dx9_media_sharing (Windows)
cl_int clGetDeviceIDsFromDX9MediaAdapterKHR(cl_platform_id platform, cl_uint num_media_adapters, cl_uint *media_adapters_type, void *media_adapters, cl_uint media_adapter_set, cl_uint num_entries, cl_device_id *devices, cl_uint *num_devices)
cl_int clEnqueueAcquireDX9MediaSurfacesKHR(cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
cl_int clEnqueueReleaseDX9MediaSurfacesKHR(cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)

# cl_khr_egl_image
cl_mem clCreateFromEGLImageKHR(cl_context context, CLeglDisplayKHR display, CLeglImageKHR image, cl_mem_flags flags, const cl_egl_image_properties_khr *properties, cl_int *errcode_ret)
cl_int clEnqueueAcquireEGLObjectsKHR(cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
cl_int clEnqueueReleaseEGLObjectsKHR(cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)

# cl_khr_egl_event
cl_event clCreateEventFromEGLSyncKHR(cl_context context, CLeglSyncKHR sync, CLeglDisplayKHR display, cl_int *errcode_ret)

# OpenCL 2.0
cl_command_queue clCreateCommandQueueWithProperties(cl_context context, cl_device_id device, const cl_queue_properties *properties, cl_int *errcode_ret)
cl_mem clCreatePipe(cl_context context, cl_mem_flags flags, cl_uint pipe_packet_size, cl_uint pipe_max_packets, const cl_pipe_properties *properties, cl_int *errcode_ret)
cl_int clGetPipeInfo(cl_mem pipe, cl_pipe_info param_name, size_t param_value_size, void *param_value, size_t *param_value_size_ret)
void *clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size, unsigned int alignment)
void clSVMFree(cl_context context, void *svm_pointer)
cl_int clEnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers, void **svm_pointers, cl2c_svm_free_notify pfn_free_func, void *user_data, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
cl_int clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy, void *dst_ptr, const void *src_ptr, size_t size, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
cl_int clEnqueueSVMMemFill(cl_command_queue command_queue, void *svm_ptr, const void *pattern, size_t pattern_size, size_t size, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
cl_int clEnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map, cl_map_flags map_flags, void *svm_ptr, size_t size, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
cl_int clEnqueueSVMUnmap(cl_command_queue command_queue, void *svm_ptr, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
cl_sampler clCreateSamplerWithProperties(cl_context context, const cl_sampler_properties *sampler_properties, cl_int *errcode_ret)
cl_int clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index, const void *arg_value)
cl_int clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name, size_t param_value_size, const void *param_value)

# cl_khr_subgroups
cl_int clGetKernelSubGroupInfoKHR(cl_kernel in_kernel, cl_device_id in_device, cl_kernel_sub_group_info param_name, size_t input_value_size, const void *input_value, size_t param_value_size, void *param_value, size_t *param_value_size_ret)

# OpenCL 2.1
cl_kernel clCloneKernel(cl_kernel source_kernel, cl_int *errcode_ret)
cl_program clCreateProgramWithIL(cl_context context, const void *il, size_t length, cl_int *errcode_ret)
cl_int clEnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint num_svm_pointers, const void **svm_pointers, const size_t *sizes, cl_mem_migration_flags flags, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
cl_int clGetDeviceAndHostTimer(cl_device_id device, cl_ulong *device_timestamp, cl_ulong *host_timestamp)
cl_int clGetHostTimer(cl_device_id device, cl_ulong *host_timestamp)
cl_int clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info param_name, size_t input_value_size, const void *input_value, size_t param_value_size, void *param_value, size_t *param_value_size_ret)
cl_int clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id device, cl_command_queue command_queue)

# OpenCL 2.2
cl_int clSetProgramReleaseCallback(cl_program program, cl2c_program_notify pfn_notify, void *user_data)
cl_int clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id, size_t spec_size, const void *spec_value)

# OpenCL 3.0
cl_mem clCreateBufferWithProperties(cl_context context, const cl_mem_properties *properties, cl_mem_flags flags, size_t size, void *host_ptr, cl_int *errcode_ret)
cl_mem clCreateImageWithProperties(cl_context context, const cl_mem_properties *properties, cl_mem_flags flags, const cl_image_format *image_format, const cl_image_desc *image_desc, void *host_ptr, cl_int *errcode_ret)
cl_int clSetContextDestructorCallback(cl_context context, cl2c_context_destructor_notify pfn_notify, void *user_data)

# OpenCL 3.1 (the 150th slot: Khronos OpenCL-Headers since May 2026, not in Debian 12's header)
cl_int clGetKernelSuggestedLocalWorkSize(cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim, const size_t *global_work_offset, const size_t *global_work_size, size_t *suggested_local_work_size)
"""


@dataclass(frozen=True)
class Parameter:
    type: str       # "const cl_event *"
    name: str

    @property
    def declaration(self) -> str:
        sep = "" if self.type.endswith("*") else " "
        return f"{self.type}{sep}{self.name}"


@dataclass(frozen=True)
class EntryPoint:
    index: int                  # its slot in the dispatch table
    name: str                   # "clGetPlatformIDs"
    returns: str                # "cl_int", "cl_mem", "void *", "void"
    parameters: tuple[Parameter, ...]
    group: str                  # "OpenCL 1.0", "cl_khr_gl_event", ...

    @property
    def creates(self) -> bool:
        """Whether it returns an object and reports its error through ``errcode_ret``."""
        return bool(self.parameters) and self.parameters[-1].name == "errcode_ret"

    def signature(self, name: str | None = None) -> str:
        params = ", ".join(p.declaration for p in self.parameters) or "void"
        sep = "" if self.returns.endswith("*") else " "
        return f"{self.returns}{sep}{name or self.name}({params})"


_LINE = re.compile(r"^(?P<returns>[\w ]+?\s*\**)\s*(?P<name>cl\w+)\((?P<params>.*)\)$")
_PARAM = re.compile(r"^(?P<type>.*?[\w*])\s*(?P<name>\w+)$")


@lru_cache(maxsize=1)
def entry_points() -> tuple[EntryPoint, ...]:
    """Every slot of the dispatch table, in order (150)."""
    out, group = [], ""
    for line in _SLOTS.splitlines():
        line = line.strip()
        if not line:
            continue
        if line.startswith("#"):
            group = line[1:].strip()
            continue
        m = _LINE.match(line)
        if m is None:
            raise ValueError(f"entry_points.py: cannot read {line!r}")
        params = []
        for text in filter(None, (p.strip() for p in m["params"].split(","))):
            if text == "void":
                continue
            pm = _PARAM.match(text)
            params.append(Parameter(" ".join(pm["type"].split()), pm["name"]))
        out.append(EntryPoint(len(out), m["name"], m["returns"].strip(), tuple(params), group))
    return tuple(out)


def by_name() -> dict[str, EntryPoint]:
    return {e.name: e for e in entry_points()}
