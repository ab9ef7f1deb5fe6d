#pragma once
#include <cstdint>
// Found only through CMAKE_CXX_FLAGS "-I sub_rel", relative to where the compiles run (sub/CMakeLists.txt).
#include <sub_rel.h>
struct [[ringkernel::message]] SubIncluded {
  std::int32_t values[SUB_REL];
};
