# A shared runtime (-DBUILD_SHARED_LIBS=ON) installed and moved: the installed ringkernel-info starts
# (its RUNPATH finds the library, also under a CMAKE_INSTALL_LIBDIR of its own), the library's SONAME
# carries <major>.<minor> (the package's SameMinorVersion), and a consumer without the CUDA toolkit
# finds the package, links and runs. Builds only the runtime and ringkernel-info (the generator is
# the calling build's).
#   cmake -DRK_SOURCE_DIR=... -DRK_GEN=... -DWORK=... -DCXX=... -DVERSION=<major.minor.patch> -P check_shared_install.cmake
cmake_minimum_required(VERSION 3.25)

set(bin "${WORK}/build")
set(moved "${WORK}/moved")
file(REMOVE_RECURSE "${WORK}")

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "check_shared_install: ${what} failed (${rc})\n${out}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

# lib64: the RUNPATH follows CMAKE_INSTALL_LIBDIR (find_package looks there only on lib64 systems:
# the consumer gets RingKernel_DIR).
run("configure" "${CMAKE_COMMAND}" -S "${RK_SOURCE_DIR}" -B "${bin}" -G Ninja "-DCMAKE_CXX_COMPILER=${CXX}"
    -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON -DCMAKE_INSTALL_LIBDIR=lib64 "-DRINGKERNEL_GEN_EXECUTABLE=${RK_GEN}"
    -DRINGKERNEL_BUILD_TESTS=OFF -DRINGKERNEL_BUILD_BENCH=OFF -DRINGKERNEL_BUILD_EXAMPLES=OFF)
run("build" "${CMAKE_COMMAND}" --build "${bin}" --target ringkernel_runtime ringkernel-info)
run("install" "${CMAKE_COMMAND}" --install "${bin}" --prefix "${WORK}/prefix")
file(RENAME "${WORK}/prefix" "${moved}")

string(REGEX MATCH "^[0-9]+\\.[0-9]+" major_minor "${VERSION}")
foreach(file IN ITEMS "libringkernel_runtime.so" "libringkernel_runtime.so.${major_minor}" "libringkernel_runtime.so.${VERSION}")
  if(NOT EXISTS "${moved}/lib64/${file}")
    message(FATAL_ERROR "check_shared_install: no lib64/${file} in the installed package")
  endif()
endforeach()
find_program(READELF readelf)
if(READELF)
  run("readelf" "${READELF}" -d "${moved}/lib64/libringkernel_runtime.so.${VERSION}")
  if(NOT out MATCHES "SONAME\\)[^\n]*\\[libringkernel_runtime\\.so\\.${major_minor}\\]")
    message(FATAL_ERROR "check_shared_install: SONAME is not libringkernel_runtime.so.${major_minor}\n${out}")
  endif()
endif()

run("the installed ringkernel-info" "${CMAKE_COMMAND}" -E env RINGKERNEL_HOST_DEVICES=2 RINGKERNEL_HOST_TOPOLOGY=all
    "${moved}/bin/ringkernel-info")
if(NOT out MATCHES "RingKernel host device 1 \\(host ordinal 1\\)")
  message(FATAL_ERROR "check_shared_install: ringkernel-info lists no host device 1\n${out}")
endif()

run("the consumer's configure (no CUDA toolkit)" "${CMAKE_COMMAND}" -S "${CMAKE_CURRENT_LIST_DIR}/shared_runtime"
    -B "${WORK}/consumer" -G Ninja "-DCMAKE_CXX_COMPILER=${CXX}" "-DRingKernel_DIR=${moved}/lib64/cmake/RingKernel"
    -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON)
run("the consumer's build" "${CMAKE_COMMAND}" --build "${WORK}/consumer")
run("the consumer" "${CMAKE_COMMAND}" -E env RINGKERNEL_HOST_DEVICES=3 "${WORK}/consumer/app")
if(NOT out MATCHES "consumer: 3 host devices")
  message(FATAL_ERROR "check_shared_install: the consumer says\n${out}")
endif()
message(STATUS "check_shared_install: ok")
