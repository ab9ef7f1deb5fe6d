#pragma once
#include <cstdint>
// Each header below is found only through one way of naming an include directory that is not an
// include directory property (test cmake.parse_flags): a missing one stops the parse
// ("file not found"), as the compile of includes.cpp would stop.
#include <flag_separate.h>   // CMAKE_CXX_FLAGS "-I flag_rel": separate, relative to where compiles run
#include <flag_isystem.h>    // CMAKE_CXX_FLAGS "-isystem <dir>"
#include <option_attached.h> // target_compile_options(-I<dir>)
#include "option_iquote.h"   // target_compile_options(-iquote<dir>)
#include <standard_dir.h>    // CMAKE_CXX_STANDARD_INCLUDE_DIRECTORIES
struct [[ringkernel::message]] Included {
  std::int32_t values[FLAG_SEPARATE + FLAG_ISYSTEM + OPTION_ATTACHED + OPTION_IQUOTE + STANDARD_DIR];
};
