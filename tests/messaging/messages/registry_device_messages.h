// Copyright RingKernel authors.
// Payload types for the registry's device test (tests/messaging/device/test_registry_device_{tables,dispatch}.cu),
// registry device_routes with messaging_messages.h: what messaging_messages.h lacks, so that the
// device tables are compared on values that differ from message to message. Every direction,
// priorities 0, 7, 64 and 255, an explicit id, a causal message, a map-format message with a nested
// message and a 2-D array, enum, bool and char fields, tail padding, a kernel that receives nothing
// (Mesh: sends, nullptr receives) and one that sends nothing (Sink), and a kernel with two messages.
#pragma once

#include <cstdint>

namespace registry_device_test {

enum class Mode : std::uint8_t { idle = 0, run = 1, stop = 2 };

/// Into kernel Router, highest priority.
struct [[ringkernel::message(kernel = "Router", direction = input, priority = 255)]] Route {
  std::uint32_t destination;
  Mode mode;
  bool urgent;
  std::int16_t hops;
  std::uint64_t cookie;
};

/// Out of kernel Router, lowest priority, causal.
struct [[ringkernel::message(kernel = "Router", direction = output, priority = 0, causal)]] RouteDone {
  std::int64_t cookie;
  double elapsed;
};

/// Between kernels (kernel Mesh receives nothing), a map with a nested message and a 2-D array.
struct [[ringkernel::message(kernel = "Mesh", direction = kernel_to_kernel, priority = 7, format = map)]] Hop {
  Route route;
  float weights[2][3];
};

/// Into kernel Sink (which sends nothing), an explicit id; 7 bytes of fields and a byte of tail padding.
struct [[ringkernel::message(id = 0x1234, kernel = "Sink", direction = input, priority = 64)]] Drain {
  std::uint16_t count;
  char label[5];
};

}  // namespace registry_device_test
