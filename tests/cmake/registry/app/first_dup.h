#pragma once
#include <cstdint>
namespace regtest {
struct [[ringkernel::message(id = 0x77)]] DupFirst { std::uint32_t value; };
}  // namespace regtest
