#pragma once
#include <cstdint>
#if defined(RINGKERNEL_GENERATOR) && __cplusplus <= 202002L
#error "CXX_STANDARD 23 is above C++20: the parse must use it"
#endif
struct [[ringkernel::message]] NewerPing { std::uint32_t id; };
