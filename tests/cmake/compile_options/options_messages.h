#pragma once
#include <cstdint>
// Each header and macro below reaches the parse only through a compile option of a form that did not
// before (test cmake.compile_options.*): a missing one stops the parse, as it would stop the compile.
#include <directory_isystem.h>  // add_compile_options(-isystem <dir>): two elements
#include <interface_isystem.h>  // a linked library's INTERFACE_COMPILE_OPTIONS "SHELL:-isystem '<dir>'"
#include "late_iquote.h"        // target_compile_options(-iquote <dir>) after the call
#if !defined(SHELL_DEF) || SHELL_DEF != 1
#error "the parse did not get \"SHELL:-D SHELL_DEF=1\""
#endif
#ifndef SEPARATE_DEF
#error "the parse did not get -D SEPARATE_DEF (two elements)"
#endif
#ifndef FORCED_INCLUDE
#error "the parse did not get \"SHELL:-include '<dir with space>/forced.h'\""
#endif
struct [[ringkernel::message]] Options {
  std::int32_t values[DIRECTORY_ISYSTEM + INTERFACE_ISYSTEM + LATE_IQUOTE + SHELL_DEF + FORCED_INCLUDE];
};
