#pragma once
#include <cstdint>
#if defined(RINGKERNEL_GENERATOR) && __cplusplus <= 202002L
#error "a linked library's INTERFACE_COMPILE_FEATURES cxx_std_23 is above C++20: the parse must use C++23"
#endif
struct [[ringkernel::message]] LinkedFeaturesPing { std::uint32_t id; };
