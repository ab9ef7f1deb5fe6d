// Copyright RingKernel authors.
// The checks of bench_queue's PxC rows (pxc_harness.h), and what the threads of one move share.
//   - Delivery (tally, delivery_error): every message carries its producer's id (words[0]) and that
//     producer's sequence (words[1]). Each consumer checks, per producer, that the sequences it
//     takes increase (every contender is FIFO per producer, so any one consumer sees a producer's
//     messages in order) and keeps their count, sum and sum of squares. After the move, per
//     producer: count == per-producer messages and both sums those of 0..count-1, or the move throws
//     naming the producer and what was lost, duplicated or reordered. One message lost and another
//     duplicated changes the sum; more would have to keep both sums.
//   - Progress (pxc_sync, watch): a watchdog ends a move in which no message moved for
//     pxc_stall_limit, with a message giving each thread's count.
//   - Start-up (pxc_threads): a thread that fails to start calls the move off, no std::terminate.
//   - Failures inside the threads (pxc_sync::fail): a thread body that throws calls the move off;
//     the first exception, naming its thread, ends the row after the join, no std::terminate.
//   - The end (pxc_sync::await_left): after any stop the threads get pxc_stop_grace to leave; one
//     still inside a queue call then (it cannot see the stop) ends the process with
//     pxc_stuck_status and a message on stderr, rather than a join that never returns.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "paired.h"

namespace rkbench {

struct pxc_shape {
  unsigned producers = 1, consumers = 1;
  std::string row;  // the benchmark row, for the message of a process ended by pxc_sync::stuck
  std::uint64_t per_producer() const { return paired_messages / producers; }
  unsigned threads() const { return producers + consumers; }
};

/// What one consumer saw of one producer's messages.
struct from_producer {
  std::uint64_t next = 0;  // the lowest sequence it may see next (the last one + 1)
  std::uint64_t count = 0, sum = 0, sum_sq = 0;
};

/// One consumer's checks (each consumer thread builds its own: nothing shared while it runs).
class tally {
 public:
  tally(unsigned producers, std::uint64_t per_producer, std::string who)
      : seen_(producers), per_(per_producer), who_(std::move(who)) {}
  void see(const Msg64& m) {
    const std::uint64_t p = m.words[0], s = m.words[1];
    if (p >= seen_.size() || s >= per_) [[unlikely]] {
      never_sent(p, s);
      return;
    }
    from_producer& f = seen_[p];
    if (s < f.next) [[unlikely]] out_of_order(p, s, f.next);
    f.next = s + 1;
    ++f.count;
    f.sum += s;
    f.sum_sq += s * s;
  }
  std::uint64_t count() const {
    std::uint64_t n = 0;
    for (const auto& f : seen_) n += f.count;
    return n;
  }
  const std::vector<from_producer>& seen() const { return seen_; }
  const std::string& error() const { return error_; }

 private:
  [[gnu::cold, gnu::noinline]] void never_sent(std::uint64_t p, std::uint64_t s) {
    note("took a message no producer sent (producer " + std::to_string(p) + ", sequence " + std::to_string(s) + ")");
  }
  [[gnu::cold, gnu::noinline]] void out_of_order(std::uint64_t p, std::uint64_t s, std::uint64_t next) {
    note("took producer " + std::to_string(p) + "'s sequence " + std::to_string(s) + " after " +
         std::to_string(next - 1) + " (duplicated or reordered)");
  }
  void note(const std::string& what) {
    if (error_.empty()) error_ = who_ + " " + what;
  }
  std::vector<from_producer> seen_;
  std::uint64_t per_;
  std::string who_;
  std::string error_;
};

/// Empty string when the consumers' tallies account for every message exactly once.
inline std::string delivery_error(const pxc_shape& shape, const std::vector<tally>& tallies) {
  for (const tally& t : tallies) {
    if (!t.error().empty()) return t.error();
  }
  const std::uint64_t n = shape.per_producer();
  std::uint64_t want_sum = 0, want_sq = 0;
  for (std::uint64_t s = 0; s < n; ++s) {
    want_sum += s;
    want_sq += s * s;
  }
  for (unsigned p = 0; p < shape.producers; ++p) {
    std::uint64_t count = 0, sum = 0, sq = 0;
    for (const tally& t : tallies) {
      count += t.seen()[p].count;
      sum += t.seen()[p].sum;
      sq += t.seen()[p].sum_sq;
    }
    const std::string who = "producer " + std::to_string(p) + ": ";
    if (count < n) return who + std::to_string(n - count) + " of " + std::to_string(n) + " messages lost";
    if (count > n) {
      return who + std::to_string(count - n) + " duplicated (" + std::to_string(count) + " taken of " +
             std::to_string(n) + ")";
    }
    if (sum != want_sum || sq != want_sq) {
      return who + "count right, checksum wrong: messages lost and as many duplicated";
    }
  }
  return {};
}

/// A move in which no thread's count changed for this long is ended as stalled. Only change counts,
/// not a move's length: a move of 2^18 messages takes well under a second here, seconds under TSan
/// or oversubscribed (8x8 on 2 cores), and there the counts changed at every look.
inline constexpr std::chrono::seconds pxc_stall_limit{10};
/// How often the benchmark thread looks at the counts while a move runs (it sleeps in between).
inline constexpr std::chrono::milliseconds pxc_watch_interval{500};
/// After a stop (the watchdog's, a thread's failure, a failed start) how long the threads have to
/// leave: each reads the stop at its next 64th wait, far sooner, unless it is inside a queue call
/// that never returns. Then the process ends with pxc_stuck_status (bench/RESULTS.md, PxC section):
/// a join would never return, and a detached thread would go on using the queue once it is freed.
inline constexpr std::chrono::seconds pxc_stop_grace{5};
inline constexpr int pxc_stuck_status = 86;

// Checks of the checks, never in a normal build: built with -DRKBENCH_PXC_FAULT=N, the 1000th call
// of producer 0's push (1, 3) or consumer 0's pop (2) in every move throws (1, 2) or never returns
// (3: it sleeps for ever, blind to the stop, until the watchdog and pxc_stop_grace end the process).
// Set it for a whole target (every source of the binary), never for one file: pxc_fault is an
// inline constexpr from the macro, and two values of it in one binary break the ODR.
#ifndef RKBENCH_PXC_FAULT
#define RKBENCH_PXC_FAULT 0
#endif
inline constexpr int pxc_fault = RKBENCH_PXC_FAULT;
template <int Fault, class Call>
auto with_fault(Call call, [[maybe_unused]] bool here) {
  if constexpr (Fault == 0) {
    return call;
  } else {
    return [call = std::move(call), here, calls = std::uint64_t{0}](auto&&... a) mutable {
      if (here && ++calls == 1000) {
        if constexpr (Fault == 3) {
          for (;;) std::this_thread::sleep_for(std::chrono::milliseconds(100));
        } else {
          throw std::runtime_error("injected fault " + std::to_string(Fault) + " at the 1000th call");
        }
      }
      return call(std::forward<decltype(a)>(a)...);
    };
  }
}

/// What the threads of one move share: the start, the end, and what the watchdog reads.
struct pxc_sync {
  pxc_sync(const pxc_shape& s, std::string contender_name)
      : shape(s), name(std::move(contender_name)), moved(std::make_unique<count[]>(s.threads())) {}

  /// Pins the thread to its CPU (a failure is kept for after the join: it cannot throw here), counts
  /// it ready and waits for the start; false when the move was called off before it started.
  bool arrive_and_wait(unsigned self) {
    if (std::string why = pin_to_cpu(self); !why.empty()) {
      std::lock_guard lock(m);
      if (pin_error.empty()) pin_error = std::move(why);
    }
    ready.fetch_add(1, std::memory_order_acq_rel);
    unsigned waits = 0;
    while (!go.load(std::memory_order_acquire)) spin_pause(waits);
    return !stop.load(std::memory_order_acquire);
  }
  /// One wait of thread `self` (its queue full or empty): spin_pause, and every 64th wait, when
  /// spin_pause yields anyway, publish moved_so_far() for the watchdog and read `stop`. False: the
  /// thread must leave. The only watchdog work the threads do, and only on the waiting path (out of
  /// line, so that it leaves the code of the moving path as it was).
  template <class Moved>
  [[gnu::noinline]] bool keep_waiting(unsigned self, unsigned& waits, Moved moved_so_far) {
    spin_pause(waits);
    if (waits % 64 != 0) return true;
    moved[self].n.store(moved_so_far(), std::memory_order_relaxed);
    return !stop.load(std::memory_order_relaxed);
  }
  /// Thread `self` leaves, having sent or taken `n`, and wakes the benchmark thread.
  void leave(unsigned self, std::uint64_t n) {
    moved[self].n.store(n, std::memory_order_relaxed);
    depart(self);
  }
  /// Thread `self`'s body threw `what`: keeps the move's first such failure, calls the move off and
  /// counts the thread as left (its count stays the last one it published).
  void fail(unsigned self, const char* what) noexcept {
    try {
      std::lock_guard lock(m);
      if (thread_error.empty()) thread_error = who(self) + " threw: " + what;
    } catch (...) {  // keeping the message failed (bad_alloc): the stop below still ends the move
    }
    stop.store(true, std::memory_order_release);
    depart(self);
  }
  /// Waits (pxc_stop_grace at most, `lock` on m held) until `n` threads have left, after a stop
  /// (`why`); returns, or ends the process (stuck) when one has not.
  void await_left(std::unique_lock<std::mutex>& lock, unsigned n, const std::string& why) {
    if (!all_left.wait_for(lock, pxc_stop_grace, [&] { return exited.load(std::memory_order_acquire) == n; })) {
      stuck(n, why);
    }
  }
  std::string who(unsigned self) const {
    return self < shape.producers ? "producer " + std::to_string(self)
                                  : "consumer " + std::to_string(self - shape.producers);
  }
  std::uint64_t total_moved() const {
    std::uint64_t t = 0;
    for (unsigned i = 0; i < shape.threads(); ++i) t += moved[i].n.load(std::memory_order_relaxed);
    return t;
  }

  struct alignas(128) count {
    std::atomic<std::uint64_t> n{0};
    std::atomic<bool> left{false};
  };
  const pxc_shape shape;
  const std::string name;  // the contender's
  alignas(128) std::atomic<unsigned> ready{0};
  alignas(128) std::atomic<bool> go{false};
  alignas(128) std::atomic<bool> stop{false};  // the watchdog or a failed start: leave now
  alignas(128) std::atomic<unsigned> producers_done{0};
  alignas(128) std::atomic<unsigned> exited{0};
  alignas(128) std::atomic<std::uint64_t> empty_polls{0}, full_polls{0};
  std::unique_ptr<count[]> moved;  // thread i's messages sent (producer) or taken (consumer)
  std::mutex m;
  std::condition_variable all_left;
  std::string pin_error;     // under m
  std::string thread_error;  // under m: the first thread body that threw, and what

 private:
  void depart(unsigned self) {
    if (moved[self].left.exchange(true, std::memory_order_acq_rel)) return;  // left already
    std::lock_guard lock(m);
    exited.fetch_add(1, std::memory_order_acq_rel);
    all_left.notify_all();
  }
  /// The end of the process: the `n` threads started (the first n; all but where one failed to
  /// start, pxc_threads' destructor) were to leave after `why`, and some are still inside a call.
  /// Names them on stderr and _Exits: no destructor, no atexit handler may touch the queue.
  [[noreturn]] void stuck(unsigned n, const std::string& why) {
    std::string s = "bench_queue: " + shape.row + ", " + name + ": " + std::to_string(n - exited.load()) + " of " +
                    std::to_string(n) + " threads still inside a queue call " +
                    std::to_string(pxc_stop_grace.count()) + " s after the move was stopped (" + why + "):";
    for (unsigned i = 0; i < shape.threads(); ++i) {
      if (i >= n) {
        s += " " + who(i) + " (not started)";
      } else {
        s += std::string(moved[i].left.load() ? " " : " STUCK ") + who(i) + " (" +
             (i < shape.producers ? "sent " : "took ") + std::to_string(moved[i].n.load()) + ")";
      }
      s += i + 1 < shape.threads() ? "," : ";";
    }
    s += " counts as last published, of " + std::to_string(shape.per_producer()) +
         " per producer. Ending the process, exit status " + std::to_string(pxc_stuck_status) + ".\n";
    std::fflush(stdout);
    std::fputs(s.c_str(), stderr);
    std::fflush(stderr);
    std::_Exit(pxc_stuck_status);
  }
};

/// The benchmark thread while a move runs: sleeps until every thread has left, looking at the
/// published counts every pxc_watch_interval. When they have not changed for pxc_stall_limit it
/// stops the threads, waits for them and returns what stalled; "" after a move that ended, or one
/// that a thread's failure stopped. Either stop waits pxc_stop_grace at most (await_left).
inline std::string watch(pxc_sync& sync) {
  const pxc_shape& shape = sync.shape;
  auto all_left = [&] { return sync.exited.load(std::memory_order_acquire) == shape.threads(); };
  std::unique_lock lock(sync.m);
  std::uint64_t last = sync.total_moved();
  auto last_change = std::chrono::steady_clock::now();
  while (!sync.all_left.wait_for(lock, pxc_watch_interval, all_left)) {
    if (sync.stop.load(std::memory_order_acquire)) {  // a thread failed (pxc_sync::fail)
      sync.await_left(lock, shape.threads(), "a thread threw");
      return {};
    }
    const std::uint64_t now_moved = sync.total_moved();
    const auto now = std::chrono::steady_clock::now();
    if (now_moved != last) {
      last = now_moved;
      last_change = now;
    } else if (now - last_change >= pxc_stall_limit) {
      sync.stop.store(true, std::memory_order_release);
      sync.await_left(lock, shape.threads(), "stalled: the watchdog saw no message move for " +
                                                 std::to_string(pxc_stall_limit.count()) + " s");
      auto list = [&](unsigned from, unsigned n) {
        std::string s;
        for (unsigned i = from; i < from + n; ++i) s += " " + std::to_string(sync.moved[i].n.load());
        return s;
      };
      return "stalled: no message moved for " + std::to_string(pxc_stall_limit.count()) +
             " s, the watchdog ended the move; producers sent" + list(0, shape.producers) + " of " +
             std::to_string(shape.per_producer()) + " each (" + std::to_string(sync.producers_done.load()) +
             " of " + std::to_string(shape.producers) + " finished), consumers took" +
             list(shape.producers, shape.consumers);
    }
  }
  return {};
}

/// The threads of one move. Should starting one throw part way (std::thread's constructor, e.g.
/// EAGAIN; an adapter's copy), or anything before the join, the destructor calls the move off
/// (stop, then go: each started thread leaves before its first message, or at its next 64th wait)
/// and joins them before the exception goes on: a joinable std::thread destroyed calls terminate.
/// A thread that does not leave within pxc_stop_grace ends the process (pxc_sync::await_left).
class pxc_threads {
 public:
  explicit pxc_threads(pxc_sync& sync) : sync_(sync) { threads_.reserve(sync.shape.threads()); }
  pxc_threads(const pxc_threads&) = delete;
  pxc_threads& operator=(const pxc_threads&) = delete;
  ~pxc_threads() {
    if (std::none_of(threads_.begin(), threads_.end(), [](const std::thread& t) { return t.joinable(); })) return;
    sync_.stop.store(true, std::memory_order_release);
    sync_.go.store(true, std::memory_order_release);
    std::unique_lock lock(sync_.m);
    sync_.await_left(lock, static_cast<unsigned>(threads_.size()), "the move was called off before its end");
    lock.unlock();
    join();
  }
  template <class Body>
  void start(Body&& body) {
    threads_.emplace_back(std::forward<Body>(body));
  }
  void join() {
    for (auto& t : threads_) {
      if (t.joinable()) t.join();
    }
  }

 private:
  pxc_sync& sync_;
  std::vector<std::thread> threads_;
};

}  // namespace rkbench
