#pragma once
#include <cstdint>
// Built as Release with g++'s default dialect: NDEBUG from CMAKE_CXX_FLAGS_RELEASE, gnu++20.
#if defined(RINGKERNEL_GENERATOR) && !defined(NDEBUG)
#error "the parse did not get -DNDEBUG of CMAKE_CXX_FLAGS_RELEASE"
#endif
#if defined(RINGKERNEL_GENERATOR) && defined(__STRICT_ANSI__)
#error "the parse used -std=c++20; the target compiles with -std=gnu++20 (CXX_EXTENSIONS unset)"
#endif
#if defined(RINGKERNEL_GENERATOR) && defined(FLAG_REMOVED)
#error "the parse did not get -DFLAG_REMOVED -UFLAG_REMOVED of CMAKE_CXX_FLAGS"
#endif
#if defined(RINGKERNEL_GENERATOR) && (OPT_DEF != 3 || defined(OPT_GONE) || defined(FLAG_SPACED))
#error "the parse did not get -DOPT_DEF=3 -DOPT_GONE -UOPT_GONE -UFLAG_SPACED of the target's compile options, after CMAKE_CXX_FLAGS"
#endif
#if defined(RINGKERNEL_GENERATOR) && defined(OPT_CUDA_ONLY)
#error "the parse got a compile option for CUDA only"
#endif
#ifdef NDEBUG
using Stamp = std::uint32_t;
#else
using Stamp = float;
#endif
struct [[ringkernel::message]] Sample { Stamp v; std::uint32_t n; };
