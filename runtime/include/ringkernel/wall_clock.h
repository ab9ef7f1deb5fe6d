// Copyright RingKernel authors.
// Wall-clock time in microseconds since the Unix epoch, on host and device. Envelope timestamps
// (kernel_message.h) and the physical part of hybrid logical clock stamps (hlc.h) come from here.
//   host:   std::chrono::system_clock;
//   device: the PTX %globaltimer register (nanoseconds). Its epoch is not specified by the PTX ISA
//           (a "64-bit global nanosecond timer"); what makes it Unix time is the driver, which
//           initialises it from the host's system clock when the device is attached (libcu++
//           documents this for cuda::std::chrono::system_clock, which reads the same register).
//           Attachment may be long before the program starts (persistence mode), and the timer
//           does not follow later steps or slewing of the host clock: host and device readings
//           agree up to the error at attachment plus the drift since. hlc_device_tests (label
//           gpu) measures it on the machine it runs on and fails beyond 1 s, the default skew
//           bound of HybridLogicalClock; measure_wall_clock_offset (wall_clock_offset.h) and
//           ringkernel-info measure it for a program.
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
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(since_epoch).count();
  return us > 0 ? static_cast<std::uint64_t>(us) : 0;  // a clock set before 1970 reads 0, not 2^64 - n
#endif
}

}  // namespace ringkernel
