# The version of this cl2c package: that of the Python package it belongs to.
# Compatible with a request of the same major version that is not newer.
set(PACKAGE_VERSION "")
foreach(_cl2c_version_py "${CMAKE_CURRENT_LIST_DIR}/../../version.py"         # installed
                   "${CMAKE_CURRENT_LIST_DIR}/../../cl2c/version.py")   # source checkout
  if(NOT PACKAGE_VERSION AND EXISTS "${_cl2c_version_py}")
    file(STRINGS "${_cl2c_version_py}" _cl2c_line REGEX "^__version__ = ")
    string(REGEX REPLACE "^__version__ = [\"']([^\"']*)[\"'].*" "\\1"
           PACKAGE_VERSION "${_cl2c_line}")
  endif()
endforeach()
if(NOT PACKAGE_VERSION)
  set(PACKAGE_VERSION "0")
endif()
set(PACKAGE_VERSION_COMPATIBLE FALSE)
if(PACKAGE_FIND_VERSION)
  string(REGEX MATCH "^[0-9]+" _cl2c_major "${PACKAGE_VERSION}")
  if(PACKAGE_VERSION VERSION_GREATER_EQUAL PACKAGE_FIND_VERSION
     AND _cl2c_major EQUAL PACKAGE_FIND_VERSION_MAJOR)
    set(PACKAGE_VERSION_COMPATIBLE TRUE)
  endif()
  if(PACKAGE_VERSION VERSION_EQUAL PACKAGE_FIND_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
else()
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
endif()
