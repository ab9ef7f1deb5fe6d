# Finds msgpack-c's C library (Debian libmsgpack-dev: <msgpack.h>, libmsgpackc) for the host-only
# interop header ringkernel/msgpack_interop.h, its tests and the codec benchmark. Defines the
# imported target RingKernel::msgpack_c when found. (Debian's msgpack-c and msgpack-cxx both install
# a "msgpack" CMake package, so find_package(msgpack) may pick either: look for the files instead.)
include_guard(GLOBAL)

find_path(RINGKERNEL_MSGPACK_C_INCLUDE_DIR msgpack.h)
find_library(RINGKERNEL_MSGPACK_C_LIBRARY NAMES msgpackc msgpack-c)
if(RINGKERNEL_MSGPACK_C_INCLUDE_DIR AND RINGKERNEL_MSGPACK_C_LIBRARY)
  add_library(RingKernel::msgpack_c UNKNOWN IMPORTED GLOBAL)
  set_target_properties(RingKernel::msgpack_c PROPERTIES
    IMPORTED_LOCATION "${RINGKERNEL_MSGPACK_C_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${RINGKERNEL_MSGPACK_C_INCLUDE_DIR}")
  message(STATUS "RingKernel: msgpack-c ${RINGKERNEL_MSGPACK_C_LIBRARY}")
else()
  message(STATUS "RingKernel: msgpack-c not found (libmsgpack-dev); skipping msgpack interop tests and codec benchmark peers")
endif()
