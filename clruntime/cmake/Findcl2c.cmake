# find_package(cl2c) in module mode, with CMAKE_MODULE_PATH holding the folder
# `cl2c --cmakedir` prints (scikit-build-core adds it from cl2c's `cmake.module`
# entry point). It defines cl2c_add_kernels(); see cl2c.cmake.
include("${CMAKE_CURRENT_LIST_DIR}/cl2c.cmake")
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(cl2c REQUIRED_VARS CL2C_EXECUTABLE CL2C_INCLUDE_DIR
                                  VERSION_VAR cl2c_VERSION)
