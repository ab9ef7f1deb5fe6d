// Layout corpus: a message whose field is a message declared in another header (nesting.h).
#pragma once
#include <cstdint>

#include "nesting.h"

namespace corpus::shared {

struct [[ringkernel::message]] Route { GlobalPoint waypoints[4]; corpus::deep::er::Segment last; std::uint8_t hops; };

}  // namespace corpus::shared
