# cl2c's CMake package: find_package(cl2c CONFIG) with cl2c_DIR (or
# CMAKE_PREFIX_PATH, or cl2c_ROOT) set to the folder `cl2c --cmakedir` prints.
# It defines cl2c_add_kernels(); see cl2c.cmake.
include("${CMAKE_CURRENT_LIST_DIR}/cl2c.cmake")
set(cl2c_FOUND TRUE)
