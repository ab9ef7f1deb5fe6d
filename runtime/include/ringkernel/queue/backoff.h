// Copyright RingKernel authors.
// How blocking queue calls wait: spin briefly (the other side is usually a few hundred
// nanoseconds away), then yield, then sleep in doubling steps from 1 us to 128 us, checking the
// deadline and the stop token at every step. No locks and no notifications on the hot path: a send or
// receive that does not wait costs nothing extra.
#pragma once

#include <chrono>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "ringkernel/detail/stop_token.h"

namespace ringkernel::detail {

class backoff {
 public:
  using clock = std::chrono::steady_clock;

  /// Cheap to construct: the clock is first read when the spinning phase ends, so calls that do
  /// not wait never read it (the deadline then counts from that moment, at most ~64 pauses late).
  backoff(std::chrono::nanoseconds timeout, const std::stop_token& stop) : timeout_(timeout), stop_(stop) {}

  enum class outcome { retry, timeout, stopped };

  /// Waits a little; says whether to try again or give up.
  outcome pause() {
    if (stop_.stop_requested()) return outcome::stopped;
    if (rounds_ <= spin_rounds + yield_rounds) ++rounds_;  // then it stays in the sleeping phase
    if (rounds_ <= spin_rounds) {
#if defined(__x86_64__) || defined(__i386__)
      _mm_pause();
#endif
      return outcome::retry;
    }
    if (rounds_ == spin_rounds + 1) {
      deadline_ = timeout_ >= std::chrono::hours(24 * 365) ? clock::time_point::max() : clock::now() + timeout_;
    }
    if (clock::now() >= deadline_) return outcome::timeout;
    if (rounds_ <= spin_rounds + yield_rounds) {
      std::this_thread::yield();
    } else {
      std::this_thread::sleep_for(sleep_);
      if (sleep_ < std::chrono::microseconds(100)) sleep_ *= 2;
    }
    return outcome::retry;
  }

 private:
  static constexpr int spin_rounds = 64;
  static constexpr int yield_rounds = 64;
  std::chrono::nanoseconds timeout_;
  clock::time_point deadline_{};
  const std::stop_token& stop_;
  int rounds_ = 0;
  std::chrono::microseconds sleep_{1};
};

}  // namespace ringkernel::detail
