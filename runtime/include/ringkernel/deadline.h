// Copyright RingKernel authors.
// A point on the wall clock (wall_clock.h) that spinning code checks, on host and device: a
// persistent kernel that polls a queue can give up after a bound instead of spinning forever when
// its peer is gone (a host thread that returned early, a producer that failed to launch).
//   const auto give_up = ringkernel::deadline::after_us(20'000'000);
//   while (!ring.try_pop(m)) { if (give_up.passed()) return; }
// On the device the clock is %globaltimer (updated about every microsecond): checking it costs a
// special-register read, no memory traffic. On the host it is std::chrono::system_clock, which can
// be stepped; host-only code that needs a monotonic bound should use std::chrono::steady_clock.
#pragma once

#include <cstdint>

#include "ringkernel/config.h"
#include "ringkernel/wall_clock.h"

namespace ringkernel {

class deadline {
 public:
  /// `us` microseconds from now (a bound past the clock's range: never passes).
  RINGKERNEL_HOST_DEVICE static deadline after_us(std::uint64_t us) noexcept {
    const std::uint64_t now = wall_clock_us();
    return deadline(us > ~std::uint64_t{0} - now ? ~std::uint64_t{0} : now + us);
  }
  RINGKERNEL_HOST_DEVICE bool passed() const noexcept { return wall_clock_us() >= at_us_; }
  RINGKERNEL_HOST_DEVICE std::uint64_t at_us() const noexcept { return at_us_; }

 private:
  RINGKERNEL_HOST_DEVICE explicit deadline(std::uint64_t at_us) noexcept : at_us_(at_us) {}
  std::uint64_t at_us_;
};

}  // namespace ringkernel
