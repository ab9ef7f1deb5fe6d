#pragma once
#include <cstdint>
// CXX_EXTENSIONS OFF: compiled with -std=c++20, which defines __STRICT_ANSI__.
#if defined(RINGKERNEL_GENERATOR) && !defined(__STRICT_ANSI__)
#error "the parse used -std=gnu++20; the target compiles with -std=c++20 (CXX_EXTENSIONS OFF)"
#endif
#if defined(RINGKERNEL_GENERATOR) && FLAG_SPACED != 2
#error "the parse did not get -D FLAG_SPACED=2 of CMAKE_CXX_FLAGS"
#endif
#ifdef __STRICT_ANSI__
using Level = std::int32_t;
#else
using Level = float;
#endif
struct [[ringkernel::message]] Strict { Level level; };
