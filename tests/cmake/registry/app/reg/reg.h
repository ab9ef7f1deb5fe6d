#pragma once
#include <cstdint>
namespace regtest {
struct [[ringkernel::message]] Registered { std::uint32_t value; };
}  // namespace regtest
