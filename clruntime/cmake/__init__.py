"""cl2c's CMake package (cl2cConfig.cmake, Findcl2c.cmake, cl2c.cmake).

A package so that build backends can find this folder through the
``cmake.module`` and ``cmake.root`` entry points (scikit-build-core does);
``cl2c --cmakedir`` prints it.
"""
