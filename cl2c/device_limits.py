"""Limits of the runtime that the translator checks kernels against and the device
model reports (device_model.py): a leaf module, so that sema and the loader read them
without importing the model's options and schedules."""

MAX_WORK_GROUP_SIZE = 4096   # work-items in a group (CL2C_MAX_WORK_GROUP_SIZE, host.h)
# The alignment of each __local block (CL2C_LOCAL_ALIGN in clruntime/include/cl2c/host.h)
# and of a program's __global variables: the most a variable there can ask.
STORAGE_ALIGN = 128
