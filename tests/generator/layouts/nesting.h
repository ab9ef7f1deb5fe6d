// Layout corpus: nested messages (as fields, nested declarations, deeper namespaces, global scope).
#pragma once
#include <cstdint>

struct [[ringkernel::message]] GlobalPoint { std::int32_t x; std::int32_t y; };

namespace corpus::deep::er {

struct [[ringkernel::message]] Segment { GlobalPoint from; GlobalPoint to; std::uint8_t width; };
struct [[ringkernel::message]] Polyline { Segment segments[3]; std::uint32_t count; };

struct [[ringkernel::message]] Outer {
  struct [[ringkernel::message]] Inner { std::uint16_t a; std::uint8_t b; };
  Inner first;
  Inner pair[2];
  double weight;
};

}  // namespace corpus::deep::er
