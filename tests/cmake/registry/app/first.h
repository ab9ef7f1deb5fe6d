#pragma once
#include <cstdint>
namespace regtest {
struct [[ringkernel::message]] First { std::uint32_t value; };
}  // namespace regtest
