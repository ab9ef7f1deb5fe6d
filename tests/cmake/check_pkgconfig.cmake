# The installed pkg-config file (test cmake.pkgconfig): installs BUILD_DIR into WORK/installed, moves
# that prefix to WORK/moved (the .pc file must be relocatable), then with PKG_CONFIG_PATH naming the
# moved prefix's pkgconfig folder only: validates ringkernel.pc, checks its version, runs ringkernel-gen
# and the templates its variables name on pkgconfig/messages.h, and builds pkgconfig/main.cpp with CXX
# (the build's C++ compiler) and no flags but `pkg-config --cflags --libs ringkernel`, then runs it.
# Last, a packager's install (DESTDIR=WORK/destdir, --prefix /usr) must say `prefix=/usr`. Without
# pkg-config on PATH it prints "check_pkgconfig: SKIPPED" (the test's SKIP_REGULAR_EXPRESSION).
# Run as: cmake -DBUILD_DIR=... -DWORK=... -DCXX=... -DLIBDIR=<CMAKE_INSTALL_LIBDIR> -DVERSION=...
#   -DRUNTIME=<the runtime's file name> -P check_pkgconfig.cmake
cmake_minimum_required(VERSION 3.25)

foreach(var BUILD_DIR WORK CXX LIBDIR VERSION RUNTIME)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_pkgconfig: -D${var}=... is required")
  endif()
endforeach()
find_program(PKG_CONFIG NAMES pkg-config pkgconf NO_CACHE)
if(NOT PKG_CONFIG)
  message(STATUS "check_pkgconfig: SKIPPED: no pkg-config on PATH (scripts/setup.sh installs it)")
  return()
endif()

# Runs a command; fails with its output unless it succeeds. Its stdout, stripped, in `out`.
function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
    OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "check_pkgconfig: ${what} failed (exit ${rc})\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${WORK}")
step("install" "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${WORK}/installed")
set(pc_file "${WORK}/installed/${LIBDIR}/pkgconfig/ringkernel.pc")
if(NOT EXISTS "${pc_file}")
  message(FATAL_ERROR "check_pkgconfig: the install has no ${LIBDIR}/pkgconfig/ringkernel.pc")
endif()
file(READ "${pc_file}" pc_text)
string(FIND "${pc_text}" "${WORK}/installed" at)
if(NOT at EQUAL -1)
  message(FATAL_ERROR "check_pkgconfig: ringkernel.pc names the install prefix, it is not relocatable:\n${pc_text}")
endif()
file(RENAME "${WORK}/installed" "${WORK}/moved")
set(moved "${WORK}/moved")

set(ENV{PKG_CONFIG_PATH} "${moved}/${LIBDIR}/pkgconfig")
unset(ENV{RINGKERNEL_TEMPLATE_DIR})  # the test's own --template-dir comes from the .pc file
step("pkg-config --validate" "${PKG_CONFIG}" --validate ringkernel)
step("pkg-config --modversion" "${PKG_CONFIG}" --modversion ringkernel)
if(NOT out STREQUAL VERSION)
  message(FATAL_ERROR "check_pkgconfig: ringkernel.pc has version '${out}', the project ${VERSION}")
endif()
step("pkg-config --cflags" "${PKG_CONFIG}" --cflags ringkernel)
separate_arguments(cflags UNIX_COMMAND "${out}")
step("pkg-config --cflags --libs" "${PKG_CONFIG}" --cflags --libs ringkernel)
set(flags_text "${out}")
separate_arguments(flags UNIX_COMMAND "${out}")
string(FIND "${flags_text}" "${moved}/" at)
if(at EQUAL -1)
  message(FATAL_ERROR "check_pkgconfig: the flags do not name the moved prefix ${moved}: ${flags_text}")
endif()

step("pkg-config --variable=ringkernel_gen" "${PKG_CONFIG}" --variable=ringkernel_gen ringkernel)
set(gen "${out}")
step("pkg-config --variable=templatedir" "${PKG_CONFIG}" --variable=templatedir ringkernel)
set(templates "${out}")
foreach(path IN ITEMS "${gen}" "${templates}/rk_h.mustache")
  string(FIND "${path}" "${moved}/" at)
  if(NOT at EQUAL 0 OR NOT EXISTS "${path}")
    message(FATAL_ERROR "check_pkgconfig: '${path}' (from ringkernel.pc) is not a file under ${moved}\n${pc_text}")
  endif()
endforeach()

# The generated header next to messages.h, which it includes; main.cpp includes it from the same folder.
file(COPY "${CMAKE_CURRENT_LIST_DIR}/pkgconfig/" DESTINATION "${WORK}/src")
step("ringkernel-gen" "${gen}" --template-dir "${templates}" --output-dir "${WORK}/src" "${WORK}/src/messages.h"
  -- ${cflags})
step("compile and link" "${CXX}" "${WORK}/src/main.cpp" ${flags} -o "${WORK}/user")
if(RUNTIME MATCHES "\\.so$")  # a shared runtime: found at run time by this
  set(ENV{LD_LIBRARY_PATH} "${moved}/${LIBDIR}")
endif()
step("run" "${WORK}/user")
if(NOT out MATCHES "^pkgconfig ok")
  message(FATAL_ERROR "check_pkgconfig: the program printed\n${out}")
endif()
message(STATUS "check_pkgconfig: ${out} (${CXX} ${flags_text})")

# Into /usr, as a distribution package is made: the absolute prefix, as the system's own .pc files have
# (pkg-config drops -I/usr/include and the system -L from the flags only when they are spelled so).
step("install with DESTDIR and --prefix /usr" "${CMAKE_COMMAND}" -E env "DESTDIR=${WORK}/destdir"
  "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix /usr)
set(ENV{PKG_CONFIG_PATH} "${WORK}/destdir/usr/${LIBDIR}/pkgconfig")
step("pkg-config --variable=prefix (DESTDIR)" "${PKG_CONFIG}" --variable=prefix ringkernel)
if(NOT out STREQUAL "/usr")
  file(READ "${WORK}/destdir/usr/${LIBDIR}/pkgconfig/ringkernel.pc" pc_text)
  message(FATAL_ERROR "check_pkgconfig: installed into /usr, ringkernel.pc has prefix '${out}':\n${pc_text}")
endif()
message(STATUS "check_pkgconfig: DESTDIR install into /usr: prefix=/usr")
