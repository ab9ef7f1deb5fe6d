#pragma once
#include <cstdint>

namespace mylib {
struct [[ringkernel::message(kernel = "Log", direction = input)]] LogLine { std::uint32_t level; };
}
