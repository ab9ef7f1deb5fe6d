// Layout corpus: enums of several underlying types, scoped and unscoped, nested in a message.
#pragma once
#include <cstdint>

namespace corpus::enums {

enum class Level : std::uint8_t { low = 1, mid = 2, high = 255 };
enum class Signed16 : std::int16_t { negative = -300, zero = 0, positive = 300 };
enum Plain { plain_a, plain_b = 7 };
enum class Wide : std::uint64_t { big = 0xffffffffffffull };
enum Small : std::int8_t { small_min = -128, small_max = 127 };

struct [[ringkernel::message]] Levels { Level level; Signed16 s16; Plain plain; Wide wide; Small small; };
struct [[ringkernel::message]] LevelArray { Level levels[6]; Signed16 grid[2][2]; };

struct [[ringkernel::message]] WithNestedEnum {
  enum class Mode : std::uint16_t { off = 0, on = 1 };
  Mode mode;
  std::uint32_t value;
};

// An enum on char8_t: .rk.cuh spells the underlying type char8_t; the descriptor's underlying is char8.
enum class Octet : char8_t { nul = 0, top = 0xff };
struct [[ringkernel::message]] Octets { Octet one; Octet many[2]; };

struct [[ringkernel::message]] DefaultEnum { Level level = Level::mid; std::int32_t x = -1; };

}  // namespace corpus::enums
