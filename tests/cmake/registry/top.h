#pragma once
#include <cstdint>
namespace regtest {
struct [[ringkernel::message]] Top { std::uint32_t value; };
}  // namespace regtest
