#pragma once
#include <cstdint>

namespace pcuser {
struct [[ringkernel::message(kernel = "Scale", direction = input)]] ScaleRequest { std::int32_t value; };
}  // namespace pcuser
