// See same_id_a.h: Beta has Alpha's id, Gamma the FNV-1a hash of "corpus::ids::Shade" as its id.
#pragma once
#include <cstdint>

namespace corpus::ids {
struct [[ringkernel::message(id = 0x5001)]] Beta { std::int64_t b; };
struct [[ringkernel::message(id = 0x648bb43a)]] Gamma { std::uint16_t g; };
}  // namespace corpus::ids
