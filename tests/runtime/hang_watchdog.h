// Copyright RingKernel authors.
// Test helper: a bound on hangs, not a timing assertion. A test that may deadlock (a synchronize
// that never returns cannot be cancelled) makes a HangWatchdog and calls progress() after each step
// that must finish; if no progress is made for `bound` (generous: 30 s by default, many times what
// the step takes under the sanitizers), it prints what hung and ends the process with exit code 1,
// which ctest reports as the test's failure.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

namespace ringkernel::test {

class HangWatchdog {
 public:
  explicit HangWatchdog(std::string what, std::chrono::seconds bound = std::chrono::seconds(30))
      : what_(std::move(what)), bound_(bound), thread_([this] { watch(); }) {}
  HangWatchdog(const HangWatchdog&) = delete;
  HangWatchdog& operator=(const HangWatchdog&) = delete;
  ~HangWatchdog() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    cv_.notify_one();
    thread_.join();
  }

  /// A step finished: the bound starts again. `step` names the next one in the message.
  void progress(std::string step = {}) {
    std::lock_guard lock(mutex_);
    last_ = std::chrono::steady_clock::now();
    step_ = std::move(step);
    ++steps_;
  }

 private:
  void watch() {
    std::unique_lock lock(mutex_);
    while (!stop_) {
      const auto deadline = last_ + bound_;
      if (cv_.wait_until(lock, deadline, [&] { return stop_ || last_ + bound_ != deadline; })) continue;
      std::fprintf(stderr, "HANG: no progress for %lld s after %ld steps%s%s: %s\n",
                   static_cast<long long>(bound_.count()), steps_, step_.empty() ? "" : ", in ", step_.c_str(),
                   what_.c_str());
      std::fflush(stderr);
      std::_Exit(1);  // the hung thread cannot be stopped; a test binary that never ends is worse
    }
  }

  const std::string what_;
  const std::chrono::seconds bound_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
  std::string step_;
  long steps_ = 0;
  bool stop_ = false;
  std::thread thread_;  // last: starts once the members above exist
};

}  // namespace ringkernel::test
