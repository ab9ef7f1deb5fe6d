// Copyright RingKernel authors.
// The timeouts of blocking queue calls: any std::chrono::duration, taken in nanoseconds with
// saturation. A plain nanoseconds parameter made a coarse "forever" overflow in the caller's own
// conversion (std::chrono::seconds::max() times 10^9 wraps to a negative count: a deadline already
// passed, so the call timed out at once). Durations of a year or more wait until stopped
// (ringkernel/queue/backoff.h).
#pragma once

#include <chrono>
#include <cstdint>
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
    using to_ns = std::ratio_divide<Period, std::nano>;  // nanoseconds per tick, num / den
    if constexpr (std::chrono::treat_as_floating_point_v<Rep>) {
      return ns(static_cast<ns::rep>(v));
    } else if constexpr (to_ns::num == 1 || to_ns::den == 1) {
      return std::chrono::duration_cast<ns>(d);  // one division or one multiplication of an in-range result
    } else if constexpr (to_ns::den <= INTMAX_MAX / to_ns::num) {
      // duration_cast would multiply first (count * num), which overflows for an in-range result
      // (a tick of 1/3 s: 10^9 / 3 ns): whole ticks of den first, then the rest, which stays below num * den.
      using C = std::common_type_t<Rep, std::intmax_t>;
      constexpr C num = to_ns::num;
      constexpr C den = to_ns::den;
      const C count = d.count();
      return ns(count / den * num + count % den * num / den);
    } else {
      return ns(static_cast<ns::rep>(v));  // a tick no product of std::intmax_t can take apart
    }
  }
}

}  // namespace ringkernel
