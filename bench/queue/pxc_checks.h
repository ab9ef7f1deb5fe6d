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
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "paired.h"

namespace rkbench {

struct pxc_shape {
  unsigned producers = 1, consumers = 1;
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

/// What the threads of one move share: the start, the end, and what the watchdog reads.
struct pxc_sync {
  explicit pxc_sync(const pxc_shape& s) : shape(s), moved(std::make_unique<count[]>(s.threads())) {}

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
  /// Thread `self` leaves, having sent or taken `n`; the last one wakes the benchmark thread.
  void leave(unsigned self, std::uint64_t n) {
    moved[self].n.store(n, std::memory_order_relaxed);
    if (exited.fetch_add(1, std::memory_order_acq_rel) + 1 == shape.threads()) {
      std::lock_guard lock(m);
      all_left.notify_all();
    }
  }
  std::uint64_t total_moved() const {
    std::uint64_t t = 0;
    for (unsigned i = 0; i < shape.threads(); ++i) t += moved[i].n.load(std::memory_order_relaxed);
    return t;
  }

  struct alignas(128) count {
    std::atomic<std::uint64_t> n{0};
  };
  const pxc_shape shape;
  alignas(128) std::atomic<unsigned> ready{0};
  alignas(128) std::atomic<bool> go{false};
  alignas(128) std::atomic<bool> stop{false};  // the watchdog or a failed start: leave now
  alignas(128) std::atomic<unsigned> producers_done{0};
  alignas(128) std::atomic<unsigned> exited{0};
  alignas(128) std::atomic<std::uint64_t> empty_polls{0}, full_polls{0};
  std::unique_ptr<count[]> moved;  // thread i's messages sent (producer) or taken (consumer)
  std::mutex m;
  std::condition_variable all_left;
  std::string pin_error;  // under m
};

/// The benchmark thread while a move runs: sleeps until every thread has left, looking at the
/// published counts every pxc_watch_interval. When they have not changed for pxc_stall_limit it
/// stops the threads, waits for them and returns what stalled; "" after a move that ended.
inline std::string watch(pxc_sync& sync) {
  const pxc_shape& shape = sync.shape;
  auto all_left = [&] { return sync.exited.load(std::memory_order_acquire) == shape.threads(); };
  std::unique_lock lock(sync.m);
  std::uint64_t last = sync.total_moved();
  auto last_change = std::chrono::steady_clock::now();
  while (!sync.all_left.wait_for(lock, pxc_watch_interval, all_left)) {
    const std::uint64_t now_moved = sync.total_moved();
    const auto now = std::chrono::steady_clock::now();
    if (now_moved != last) {
      last = now_moved;
      last_change = now;
    } else if (now - last_change >= pxc_stall_limit) {
      sync.stop.store(true, std::memory_order_release);
      sync.all_left.wait(lock, all_left);
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
class pxc_threads {
 public:
  explicit pxc_threads(pxc_sync& sync) : sync_(sync) { threads_.reserve(sync.shape.threads()); }
  pxc_threads(const pxc_threads&) = delete;
  pxc_threads& operator=(const pxc_threads&) = delete;
  ~pxc_threads() {
    if (std::none_of(threads_.begin(), threads_.end(), [](const std::thread& t) { return t.joinable(); })) return;
    sync_.stop.store(true, std::memory_order_release);
    sync_.go.store(true, std::memory_order_release);
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
