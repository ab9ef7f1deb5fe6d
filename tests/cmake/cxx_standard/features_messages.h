#pragma once
#include <cstdint>
#if defined(RINGKERNEL_GENERATOR) && __cplusplus <= 202002L
#error "target_compile_features(... cxx_std_23) is above C++20: the parse must use C++23"
#endif
struct [[ringkernel::message]] FeaturesPing { std::uint32_t id; };
