// Copyright RingKernel authors.
// A message of 1 MiB, for the stack each decode path needs (large_message_test.cpp).
#pragma once

#include <cstdint>

namespace large_test {

struct [[ringkernel::message(kernel = "Bulk")]] Bulk {
  std::uint32_t id;
  std::uint8_t data[1 << 20];
};

}  // namespace large_test
