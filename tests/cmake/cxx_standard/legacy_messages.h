#pragma once
#include <cstdint>
#if defined(RINGKERNEL_GENERATOR) && __cplusplus != 202002L
#error "CXX_STANDARD 98 is below C++20: the parse must use C++20"
#endif
struct [[ringkernel::message]] LegacyPing { std::uint32_t id; };
