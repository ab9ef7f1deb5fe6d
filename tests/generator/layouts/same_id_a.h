// Two headers whose types share ids (allowed when they are not in one registry): same_id_b.h has a
// message with Alpha's explicit id and one whose explicit id is the FNV-1a hash of
// "corpus::ids::Shade", this enum's qualified name. Their generated headers must all be usable in
// one translation unit (test generator_same_id_*): guards are keyed on the qualified name.
#pragma once
#include <cstdint>

namespace corpus::ids {
struct [[ringkernel::message(id = 0x5001)]] Alpha { std::int32_t a; };
enum class Shade : std::uint8_t { dark, light };
struct [[ringkernel::message]] Painted { Shade shade; };
}  // namespace corpus::ids
