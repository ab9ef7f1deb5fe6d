# cmake --install: <libdir>/pkgconfig/ringkernel.pc (from cmake/ringkernel.pc.in) for builds without
# CMake. It says what RingKernel::runtime's export says (include directory, C++20, the library and its
# link interface) and where ringkernel-gen and the templates are. Relocatable like the CMake package:
# `prefix` is ${pcfiledir} and the way up from <libdir>/pkgconfig, so a moved prefix keeps working
# (test cmake.pkgconfig); an install into /usr gets `prefix=/usr`, as the distribution's own .pc files
# (pkg-config then drops -I/usr/include and the system -L as it does for them). Included by
# RingKernelInstall.cmake, with RINGKERNEL_INSTALL on.
set(RINGKERNEL_INSTALL_PKGCONFIGDIR "${CMAKE_INSTALL_LIBDIR}/pkgconfig")

# A relative install directory is ${prefix}/<dir>; an absolute one (-DCMAKE_INSTALL_LIBDIR=/abs) stays.
function(_ringkernel_pc_dir out dir)
  if(IS_ABSOLUTE "${dir}")
    set(${out} "${dir}" PARENT_SCOPE)
  else()
    set(${out} "\${prefix}/${dir}" PARENT_SCOPE)
  endif()
endfunction()

if(IS_ABSOLUTE "${RINGKERNEL_INSTALL_PKGCONFIGDIR}")
  # Installed outside the prefix: no way from the file to the prefix; as configure_package_config_file
  # does for RingKernelConfig.cmake (also under the libdir), the configured prefix.
  set(RINGKERNEL_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH _ringkernel_pc_up "/prefix/${RINGKERNEL_INSTALL_PKGCONFIGDIR}" "/prefix")
  string(REGEX REPLACE "/$" "" _ringkernel_pc_up "${_ringkernel_pc_up}")  # ../../ -> ../..
  set(RINGKERNEL_PC_PREFIX "\${pcfiledir}/${_ringkernel_pc_up}")
  unset(_ringkernel_pc_up)
endif()
_ringkernel_pc_dir(RINGKERNEL_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
_ringkernel_pc_dir(RINGKERNEL_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
_ringkernel_pc_dir(RINGKERNEL_PC_BINDIR "${CMAKE_INSTALL_BINDIR}")
_ringkernel_pc_dir(RINGKERNEL_PC_TEMPLATEDIR "${RINGKERNEL_INSTALL_TEMPLATEDIR}")
set(RINGKERNEL_PC_GEN_LINE "")
if("ringkernel-gen" IN_LIST _ringkernel_install_targets)  # not with a prebuilt generator
  set(RINGKERNEL_PC_GEN_LINE "ringkernel_gen=\${bindir}/ringkernel-gen")
endif()

# RingKernel::runtime links Threads::Threads PUBLIC: -pthread, as docs/cmake.md spells it for g++ and
# clang++ (with glibc 2.34 and later the threads are in libc and the flag costs nothing).
set(RINGKERNEL_PC_LIBS "-pthread")
set(RINGKERNEL_PC_LIBS_PRIVATE "")
set(RINGKERNEL_PC_CUDA_LINE "")
if(RINGKERNEL_HAS_CUDA)
  # PRIVATE CUDA::cudart_static and ${CMAKE_DL_LIBS}: what FindCUDAToolkit links for cudart_static
  # (the library, rt where found, the dl libraries; the threads are above).
  get_filename_component(_ringkernel_pc_cudalib "${CUDA_cudart_static_LIBRARY}" DIRECTORY)
  set(RINGKERNEL_PC_CUDA_LINE "cudalibdir=${_ringkernel_pc_cudalib}")
  unset(_ringkernel_pc_cudalib)
  set(_ringkernel_pc_cuda "-L\${cudalibdir} -lcudart_static")
  if(CUDAToolkit_rt_LIBRARY)
    string(APPEND _ringkernel_pc_cuda " -lrt")
  endif()
  foreach(_ringkernel_pc_dl IN LISTS CMAKE_DL_LIBS)
    string(APPEND _ringkernel_pc_cuda " -l${_ringkernel_pc_dl}")
  endforeach()
  unset(_ringkernel_pc_dl)
  # A static runtime passes its private dependencies on to every link (the export's $<LINK_ONLY:...>),
  # so they belong in Libs; a shared one has them inside, and pkg-config --static is when they count.
  get_target_property(_ringkernel_pc_type ringkernel_runtime TYPE)
  if(_ringkernel_pc_type STREQUAL "STATIC_LIBRARY")
    string(APPEND RINGKERNEL_PC_LIBS " ${_ringkernel_pc_cuda}")
  else()
    set(RINGKERNEL_PC_LIBS_PRIVATE "${_ringkernel_pc_cuda}")
  endif()
  unset(_ringkernel_pc_type)
  unset(_ringkernel_pc_cuda)
endif()

# The library's name per configuration (-l$<TARGET_FILE_BASE_NAME:ringkernel_runtime> in the template:
# OUTPUT_NAME and the CMAKE_<CONFIG>_POSTFIX, libringkernel_runtimed.a for -DCMAKE_DEBUG_POSTFIX=d), so
# configure_file's @VAR@ first, then file(GENERATE) once per configuration ($<CONFIG>/: Ninja
# Multi-Config writes one file each; a single-config build has one, in the folder of its build type).
# Two variants: the relocatable one, and one with `prefix=/usr` for an install into /usr.
set(_ringkernel_pc_stage "${_ringkernel_package_stage}/pkgconfig")
foreach(_ringkernel_pc_variant IN ITEMS relocatable usr)
  if(_ringkernel_pc_variant STREQUAL "usr" AND NOT IS_ABSOLUTE "${RINGKERNEL_INSTALL_PKGCONFIGDIR}")
    set(RINGKERNEL_PC_PREFIX "/usr")
  endif()
  configure_file("${PROJECT_SOURCE_DIR}/cmake/ringkernel.pc.in"
    "${_ringkernel_pc_stage}/ringkernel-${_ringkernel_pc_variant}.pc.genex" @ONLY)
  file(GENERATE OUTPUT "${_ringkernel_pc_stage}/$<CONFIG>/${_ringkernel_pc_variant}/ringkernel.pc"
    INPUT "${_ringkernel_pc_stage}/ringkernel-${_ringkernel_pc_variant}.pc.genex")
endforeach()
unset(_ringkernel_pc_variant)

# The variant is chosen at install time, when the prefix is known (`cmake --install --prefix`, and
# DESTDIR=... with --prefix /usr as packagers do). file(INSTALL) puts DESTDIR in front and records the
# file in install_manifest.txt.
if(IS_ABSOLUTE "${RINGKERNEL_INSTALL_PKGCONFIGDIR}")
  set(_ringkernel_pc_dest "${RINGKERNEL_INSTALL_PKGCONFIGDIR}")
else()
  set(_ringkernel_pc_dest "\${CMAKE_INSTALL_PREFIX}/${RINGKERNEL_INSTALL_PKGCONFIGDIR}")
endif()
install(CODE "
  cmake_path(SET _ringkernel_pc_prefix NORMALIZE \"\${CMAKE_INSTALL_PREFIX}/\")
  set(_ringkernel_pc_variant relocatable)
  if(_ringkernel_pc_prefix STREQUAL \"/usr/\")
    set(_ringkernel_pc_variant usr)
  endif()
  file(INSTALL DESTINATION \"${_ringkernel_pc_dest}\" TYPE FILE
    FILES \"${_ringkernel_pc_stage}/$<CONFIG>/\${_ringkernel_pc_variant}/ringkernel.pc\")")
unset(_ringkernel_pc_dest)
unset(_ringkernel_pc_stage)
