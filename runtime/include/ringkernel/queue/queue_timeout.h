// Copyright RingKernel authors.
// The timeouts of blocking queue calls: any std::chrono::duration, taken in nanoseconds with
// saturation. A plain nanoseconds parameter made a coarse "forever" overflow in the caller's own
// conversion (std::chrono::seconds::max() times 10^9 wraps to a negative count: a deadline already
// passed, so the call timed out at once). Durations of a year or more wait until stopped
// (detail/backoff.h).
#pragma once

#include <chrono>
#include <ratio>
#include <type_traits>

namespace ringkernel {

/// `d` in nanoseconds, clamped to the range of std::chrono::nanoseconds (a NaN count: zero).
template <class Rep, class Period>
constexpr std::chrono::nanoseconds saturating_nanoseconds(std::chrono::duration<Rep, Period> d) noexcept {
  using ns = std::chrono::nanoseconds;
  if constexpr (std::is_same_v<std::chrono::duration<Rep, Period>, ns>) {
    return d;
  } else {
    // In long double first (exact for every 64-bit count on x86-64; elsewhere the bounds below are
    // still right, since no multiple of a tick lies between INT64_MAX and 2^63).
    const long double v = std::chrono::duration<long double, std::nano>(d).count();
    if (!(v >= v)) return ns::zero();  // NaN (in a form -Wfloat-equal accepts)
    if (v >= static_cast<long double>(ns::max().count())) return ns::max();
    if (v <= static_cast<long double>(ns::min().count())) return ns::min();
    if constexpr (std::chrono::treat_as_floating_point_v<Rep>) {
      return ns(static_cast<ns::rep>(v));
    } else {
      return std::chrono::duration_cast<ns>(d);  // in range: no overflow
    }
  }
}

}  // namespace ringkernel
