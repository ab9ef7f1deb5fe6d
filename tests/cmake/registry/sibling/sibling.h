#pragma once
#include <cstdint>
namespace regtest {
struct [[ringkernel::message]] Sibling { std::uint32_t value; };
}  // namespace regtest
