// Copyright RingKernel authors.
// Wall-clock time in microseconds since the Unix epoch, on host and device. Envelope timestamps
// (kernel_message.h) and the physical part of hybrid logical clock stamps (hlc.h) come from here.
//   host:   std::chrono::system_clock;
//   device: the PTX %globaltimer register (nanoseconds; the driver initialises it from the host's
//           wall clock, so host and device readings are comparable up to the driver's sync error).
#pragma once

#include <cstdint>

#include "ringkernel/config.h"

#if !RINGKERNEL_IS_DEVICE_CODE
#include <chrono>
#endif

namespace ringkernel {

RINGKERNEL_HOST_DEVICE inline std::uint64_t wall_clock_us() noexcept {
#if RINGKERNEL_IS_DEVICE_CODE
  std::uint64_t ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns / 1000u;
#else
  const auto since_epoch = std::chrono::system_clock::now().time_since_epoch();
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(since_epoch).count());
#endif
}

}  // namespace ringkernel
