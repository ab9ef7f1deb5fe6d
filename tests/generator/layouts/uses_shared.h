// Layout corpus: a message whose fields are messages declared in another header (nesting.h),
// one of them nested in a message there.
#pragma once
#include <cstdint>

#include "nesting.h"

namespace corpus::shared {

struct [[ringkernel::message]] Route {
  GlobalPoint waypoints[4];
  corpus::deep::er::Segment last;
  corpus::deep::er::Outer::Inner hint;  // nested in a message of another header
  std::uint8_t hops;
};

}  // namespace corpus::shared
