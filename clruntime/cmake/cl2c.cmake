# cl2c: OpenCL C kernels translated to C11 + OpenMP when the project builds.
#
#   find_package(cl2c REQUIRED)   # cmake -Dcl2c_DIR="$(cl2c --cmakedir)" ...
#   add_executable(app main.c)
#   cl2c_add_kernels(app kernels/a.cl kernels/b.cl [OPTIONS -DN=4 -I<dir> -cl-std=CL2.0])
#
# For each FILE.cl, a build step runs `cl2c FILE.cl -o FILE.c -H FILE.h -MD -MF FILE.d`
# into ${CMAKE_CURRENT_BINARY_DIR}/cl2c/<target>/. The depfile lists the headers the
# kernel #includes, so editing one translates the kernel again. The target compiles
# FILE.c, finds FILE.h and the runtime headers on its include path (#include "FILE.h"),
# and links OpenMP (and libm). OPTIONS go to cl2c as they are: -D, -I, -cl-std=,
# --options='<OpenCL build options>', --schedule=.
#
# The kernels' C is compiled as Program.build compiles it (`cl2c --cflags`: -O3,
# -march=native, vector math, ...) whatever CMAKE_BUILD_TYPE says: kernels are the hot
# code of a program that has them, and a Debug build of the rest still wants them fast.
#
# Cache variables:
#   CL2C_EXECUTABLE   the cl2c command: a path, or a list such as "python3;-m;cl2c.cli".
#                     Default: the cl2c of the Python environment this file belongs to,
#                     else the first on PATH.
#   CL2C_INCLUDE_DIR  the runtime headers (`cl2c --includedir`).
#   CL2C_NATIVE       ON (default, unless cross-compiling): kernels for this machine's
#                     CPU (-march=native); OFF: for any CPU of the architecture, for
#                     binaries that run elsewhere.
# Also set: cl2c_VERSION.

include_guard(GLOBAL)

if(CMAKE_VERSION VERSION_LESS 3.20)
  message(FATAL_ERROR "cl2c: CMake 3.20 or newer is needed (for DEPFILE with every "
                      "generator); this is CMake ${CMAKE_VERSION}")
endif()

# bin/ (or Scripts\ on Windows) of the environment whose site-packages hold this
# file: <prefix>/lib/pythonX.Y/site-packages/cl2c/clruntime/cmake.
get_filename_component(_cl2c_prefix "${CMAKE_CURRENT_LIST_DIR}/../../../../../.." ABSOLUTE)
get_filename_component(_cl2c_win_prefix "${CMAKE_CURRENT_LIST_DIR}/../../../../.." ABSOLUTE)
find_program(CL2C_EXECUTABLE NAMES cl2c
             HINTS "${_cl2c_prefix}/bin" "${_cl2c_win_prefix}/Scripts"
             DOC "The cl2c command: a path, or a list such as python3;-m;cl2c.cli")
if(NOT CL2C_EXECUTABLE)
  message(FATAL_ERROR "cl2c: cannot find the `cl2c` command. Install cl2c (pip install "
                      "cl2c), put it on PATH, or set CL2C_EXECUTABLE (a path, or a list "
                      "such as \"python3;-m;cl2c.cli\").")
endif()

execute_process(COMMAND ${CL2C_EXECUTABLE} --includedir
                OUTPUT_VARIABLE _cl2c_include ERROR_VARIABLE _cl2c_error
                RESULT_VARIABLE _cl2c_status OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _cl2c_status EQUAL 0 OR NOT EXISTS "${_cl2c_include}/cl2c/host.h")
  string(REPLACE ";" " " _cl2c_command "${CL2C_EXECUTABLE}")
  message(FATAL_ERROR "cl2c: `${_cl2c_command} --includedir` failed (${_cl2c_status}): "
                      "${_cl2c_error}${_cl2c_include}\nSet CL2C_EXECUTABLE to a working "
                      "cl2c command.")
endif()
set(CL2C_INCLUDE_DIR "${_cl2c_include}" CACHE PATH "cl2c's runtime headers" FORCE)

execute_process(COMMAND ${CL2C_EXECUTABLE} --version OUTPUT_VARIABLE _cl2c_version
                RESULT_VARIABLE _cl2c_status OUTPUT_STRIP_TRAILING_WHITESPACE)
string(REGEX REPLACE ".*version ([0-9][^ \n]*).*" "\\1" cl2c_VERSION "${_cl2c_version}")

if(CMAKE_CROSSCOMPILING)
  set(_cl2c_native_default OFF)
else()
  set(_cl2c_native_default ON)
endif()
option(CL2C_NATIVE "cl2c: compile kernels for this machine's CPU (-march=native)"
       ${_cl2c_native_default})

find_library(CL2C_MATH_LIBRARY m)
mark_as_advanced(CL2C_MATH_LIBRARY CL2C_INCLUDE_DIR)

# The flags Program.build compiles kernels with, for this project's C compiler (cl2c
# probes it), less -fopenmp: OpenMP::OpenMP_C says how this compiler does OpenMP.
function(_cl2c_kernel_flags out)
  if(CL2C_NATIVE)
    set(_kind native)
  else()
    set(_kind portable)
  endif()
  get_property(_flags GLOBAL PROPERTY "_CL2C_CFLAGS_${_kind}")
  if(NOT _flags)
    execute_process(COMMAND "${CMAKE_COMMAND}" -E env "CC=${CMAKE_C_COMPILER}"
                            ${CL2C_EXECUTABLE} --cflags=${_kind}
                    OUTPUT_VARIABLE _flags ERROR_VARIABLE _error RESULT_VARIABLE _status
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT _status EQUAL 0)
      message(FATAL_ERROR "cl2c: `cl2c --cflags=${_kind}` failed (${_status}): ${_error}")
    endif()
    separate_arguments(_flags UNIX_COMMAND "${_flags}")
    list(REMOVE_ITEM _flags -fopenmp)
    set_property(GLOBAL PROPERTY "_CL2C_CFLAGS_${_kind}" "${_flags}")
  endif()
  set(${out} "${_flags}" PARENT_SCOPE)
endfunction()

# cl2c_add_kernels(<target> <file.cl>... [OPTIONS <cl2c option>...])
function(cl2c_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 _cl2c "" "" "OPTIONS")
  set(_where "cl2c_add_kernels(${target})")
  if(NOT TARGET "${target}")
    message(FATAL_ERROR "${_where}: '${target}' is not a target; create it first "
                        "(add_executable or add_library)")
  endif()
  if(NOT _cl2c_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${_where}: no .cl files given")
  endif()
  get_property(_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "C" IN_LIST _languages)
    message(FATAL_ERROR "${_where}: the translated kernels are C; enable the C language "
                        "(project(... LANGUAGES C ...))")
  endif()
  if(NOT TARGET OpenMP::OpenMP_C)
    find_package(OpenMP COMPONENTS C)
    if(NOT TARGET OpenMP::OpenMP_C)
      message(FATAL_ERROR "${_where}: the C compiler (${CMAKE_C_COMPILER_ID}) has no "
                          "OpenMP support; translated kernels need it (install libgomp "
                          "or libomp)")
    endif()
  endif()

  # One command per file (a list like python3;-m;cl2c.cli stays a list).
  set(_command ${CL2C_EXECUTABLE})
  list(LENGTH _command _words)
  set(_tool_depends "")
  if(_words EQUAL 1 AND IS_ABSOLUTE "${CL2C_EXECUTABLE}")
    set(_tool_depends "${CL2C_EXECUTABLE}")    # a new cl2c translates again
  endif()

  _cl2c_kernel_flags(_cflags)
  set(_dir "${CMAKE_CURRENT_BINARY_DIR}/cl2c/${target}")
  file(MAKE_DIRECTORY "${_dir}")
  get_property(_stems TARGET "${target}" PROPERTY CL2C_KERNEL_STEMS)
  foreach(_file IN LISTS _cl2c_UNPARSED_ARGUMENTS)
    get_filename_component(_source "${_file}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${_source}")
      message(FATAL_ERROR "${_where}: no such file: ${_source}")
    endif()
    get_filename_component(_stem "${_source}" NAME_WLE)
    if("${_stem}" IN_LIST _stems)
      message(FATAL_ERROR "${_where}: two kernel files are named ${_stem}.cl; their "
                          "generated ${_stem}.c would be one file. Rename one.")
    endif()
    list(APPEND _stems "${_stem}")
    cmake_policy(PUSH)
    cmake_policy(SET CMP0116 NEW)   # depfile paths relative to this directory
    add_custom_command(
      OUTPUT "${_dir}/${_stem}.c" "${_dir}/${_stem}.h"
      COMMAND ${_command} ${_cl2c_OPTIONS} "${_source}"
              -o "${_dir}/${_stem}.c" -H "${_dir}/${_stem}.h"
              -MD -MF "${_dir}/${_stem}.d" -MT "cl2c/${target}/${_stem}.c"
      DEPENDS "${_source}" ${_tool_depends}
      DEPFILE "${_dir}/${_stem}.d"
      COMMENT "cl2c: translating ${_file}"
      VERBATIM COMMAND_EXPAND_LISTS)
    cmake_policy(POP)
    set_source_files_properties("${_dir}/${_stem}.c" PROPERTIES
      COMPILE_OPTIONS "$<$<C_COMPILER_ID:GNU,Clang,AppleClang>:${_cflags}>")
    target_sources("${target}" PRIVATE "${_dir}/${_stem}.c" "${_dir}/${_stem}.h")
  endforeach()
  set_property(TARGET "${target}" PROPERTY CL2C_KERNEL_STEMS "${_stems}")

  target_include_directories("${target}" PRIVATE "${_dir}" "${CL2C_INCLUDE_DIR}")
  target_compile_features("${target}" PRIVATE c_std_11)
  target_link_libraries("${target}" PRIVATE OpenMP::OpenMP_C)
  if(CL2C_MATH_LIBRARY)
    target_link_libraries("${target}" PRIVATE "${CL2C_MATH_LIBRARY}")
  endif()
endfunction()
