#pragma once
#include <cstdint>
namespace regtest {
struct [[ringkernel::message]] Last { std::uint32_t value; };
}  // namespace regtest
