// Copyright RingKernel authors.
// The measurement harness of bench_queue, the same for every contender:
//   - the producer (the benchmark thread) runs on the first CPU the process may run on and the
//     consumer on the second (pinned; this VM has 2 cores), so a measurement is one core handing
//     messages to the other; a process allowed fewer than 2 CPUs (taskset, a cpuset) skips the rows
//     with a message (pinned_scope throws; rows run through rkbench::guarded) instead of aborting;
//   - each thread works on its own copy of the push/pop adapter (no harness state shared between
//     the threads except the queue itself); every queue object lives in 128-byte aligned heap
//     storage of its own (`aligned_box`), so no queue shares a cache line with anything else;
//   - `messages` per iteration, the consumer checks the sequence (a queue that loses or reorders
//     aborts the run), and counts how often it found the queue empty (`empty_polls`) and the
//     producer how often it found it full (`full_polls`): the regime the queue ran in.
#pragma once

#include <benchmark/benchmark.h>
#include <pthread.h>
#include <sched.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace rkbench {

/// The message: 64 bytes, words[0] carries the sequence number the consumer checks. Msg64 has the
/// natural alignment of its words (8); Msg64A is the same message aligned to the 64-byte cache
/// line, which places the peers' slots (allocated with alignof(T)) on line boundaries too.
struct Msg64 {
  std::uint64_t words[8];
};
struct alignas(64) Msg64A {
  std::uint64_t words[8];
};
static_assert(sizeof(Msg64) == 64 && sizeof(Msg64A) == 64);

inline constexpr std::size_t capacity = 1024;
inline constexpr std::uint64_t messages = 1 << 20;
inline constexpr std::size_t batch = 32;

/// The CPUs the process may run on: its affinity mask (sched_getaffinity) in CPU order, read once,
/// before main (cpus_read_at_start) and so before any row pins the benchmark thread. producer_cpu and
/// consumer_cpu, and the PxC rows' thread numbers, index this list: under `taskset -c 4,6` the
/// producer runs on CPU 4 and the consumer on CPU 6.
inline const std::vector<int>& allowed_cpus() {
  static const std::vector<int> cpus = [] {
    std::vector<int> v;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
      for (int c = 0; c < CPU_SETSIZE; ++c) {
        if (CPU_ISSET(c, &set)) v.push_back(c);
      }
    }
    return v;
  }();
  return cpus;
}
[[maybe_unused]] inline const bool cpus_read_at_start = !allowed_cpus().empty();

inline constexpr unsigned producer_cpu = 0;  // indices into allowed_cpus()
inline constexpr unsigned consumer_cpu = 1;

/// Why a row that needs `n` CPUs cannot run here ("" when it can). The message starts "needs N CPUs":
/// scripts/gpu-kit-hostq.sh counts such rows as skipped, not failed.
inline std::string too_few_cpus(unsigned n) {
  const std::size_t have = allowed_cpus().size();
  if (have >= n) return {};
  return "needs " + std::to_string(n) + " CPUs, this process may run on " + std::to_string(have) +
         " (its affinity mask)";
}

/// Pins the calling thread to the `index`-th CPU the process may run on; "" or why it could not.
/// Threads other than the benchmark thread cannot throw: they report this after their join.
[[nodiscard]] inline std::string pin_to_cpu(unsigned index) {
  if (std::string why = too_few_cpus(index + 1); !why.empty()) return why;
  const int cpu = allowed_cpus()[index];
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (const int e = pthread_setaffinity_np(pthread_self(), sizeof set, &set); e != 0) {
    // Not left on the one CPU it inherited from the pinned benchmark thread: any the process may use.
    CPU_ZERO(&set);
    for (const int c : allowed_cpus()) CPU_SET(c, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    return "cannot pin a thread to CPU " + std::to_string(cpu) + ": " + std::strerror(e);
  }
  return {};
}

/// Throws `why` unless it is empty (a pin_to_cpu result, after the thread that got it was joined).
inline void throw_if(const std::string& why) {
  if (!why.empty()) throw std::runtime_error(why);
}

/// Pins the benchmark thread to producer_cpu for a row, and restores its mask when the row ends.
/// Every row that uses it also runs a thread on consumer_cpu: with fewer than 2 CPUs it throws
/// "needs 2 CPUs ..." before pinning anything.
class pinned_scope {
 public:
  explicit pinned_scope(unsigned index) {
    throw_if(too_few_cpus(consumer_cpu + 1));
    pthread_getaffinity_np(pthread_self(), sizeof saved_, &saved_);
    if (const std::string why = pin_to_cpu(index); !why.empty()) {
      pthread_setaffinity_np(pthread_self(), sizeof saved_, &saved_);  // no destructor runs for a throwing constructor
      throw std::runtime_error(why);
    }
  }
  pinned_scope(const pinned_scope&) = delete;
  pinned_scope& operator=(const pinned_scope&) = delete;
  ~pinned_scope() { pthread_setaffinity_np(pthread_self(), sizeof saved_, &saved_); }

 private:
  cpu_set_t saved_{};
};

/// One object in heap storage aligned to 128 bytes and padded to a multiple of 128 bytes.
template <class Q>
class aligned_box {
 public:
  template <class... Args>
  explicit aligned_box(Args&&... args) : p_(new(raw()) Q(std::forward<Args>(args)...)) {}
  aligned_box(const aligned_box&) = delete;
  aligned_box& operator=(const aligned_box&) = delete;
  ~aligned_box() {
    p_->~Q();
    ::operator delete(static_cast<void*>(p_), std::align_val_t{128});
  }
  Q& operator*() const noexcept { return *p_; }
  Q* operator->() const noexcept { return p_; }

 private:
  static void* raw() { return ::operator new((sizeof(Q) + 127) / 128 * 128, std::align_val_t{128}); }
  Q* p_;
};

/// Waiting side of every queue alike: a CPU pause; every 64th wait yields, so that a VM that
/// briefly runs both threads on one core does not spin away a whole time slice.
inline void spin_pause(unsigned& waits) {
  if (++waits % 64 == 0) {
    std::this_thread::yield();
  } else {
#if defined(__x86_64__)
    __builtin_ia32_pause();
#endif
  }
}

[[noreturn]] inline void lost(std::uint64_t expected, std::uint64_t got) {
  std::fprintf(stderr, "queue delivered %llu, expected %llu\n", static_cast<unsigned long long>(got),
               static_cast<unsigned long long>(expected));
  std::abort();
}

template <class M = Msg64>
void report(benchmark::State& state, std::uint64_t empty_polls, std::uint64_t full_polls) {
  const auto moved = static_cast<double>(state.iterations() * messages);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * messages));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * messages * sizeof(M)));
  state.counters["empty_polls_per_msg"] = static_cast<double>(empty_polls) / moved;
  state.counters["full_polls_per_msg"] = static_cast<double>(full_polls) / moved;
}

/// Polls per message: how often the consumer found the queue empty and the producer found it full.
struct polls {
  std::uint64_t empty = 0, full = 0;
};

/// Starts the consumer thread (pinned; why it could not be, in `pin_error`, for the caller to throw
/// after the join), waits until it runs, returns the start time.
template <class Body>
std::chrono::steady_clock::time_point start_consumer(std::thread& consumer, std::string& pin_error, Body body) {
  std::atomic<bool> ready{false};
  consumer = std::thread([&ready, &pin_error, body]() mutable {
    pin_error = pin_to_cpu(consumer_cpu);
    ready.store(true, std::memory_order_release);
    body();
  });
  while (!ready.load(std::memory_order_acquire)) std::this_thread::yield();
  return std::chrono::steady_clock::now();
}

/// Messages the producer sends from, numbered `ahead` sends before they go out. Writing the number
/// right before the send made every contender's 16-byte copy of the message wait for that 8-byte
/// store to leave the store buffer (no store-to-load forwarding from a narrower store), i.e. behind
/// the previous message's stores into the queue, which wait for cross-core line transfers: the
/// producer then ran in lockstep with the coherence traffic, and how a contender's code happened to
/// reload the message (inlined or not, from memory or registers) moved its rate by up to 4x.
inline constexpr std::size_t outbox_size = 16, ahead = 8;

/// The producer's outbox: one page-aligned heap block per type, the same for every contender,
/// zeroed for each use. Where the outbox sits moves the queue API's rate against the bare ring's
/// although both run the same instructions: SPSC `Msg64A`, queue API / ring rate 0.83-0.91 with the
/// outbox on each loop's stack frame, 0.80-0.95 in one static block, 0.95-1.04 (mean 0.99, eight
/// runs at four page offsets) in a heap block (bench/RESULTS.md); the peers' rates moved within the
/// noise. A producer's messages usually come from heap memory. Why is not established (this VM has
/// no hardware counters): loads from the outbox held back behind slot stores that wait for cross-core
/// line transfers, and what the compiler can prove about the outbox's address, are the candidates.
template <class Block>
Block& outbox_block() {
  static Block* const block = new (std::align_val_t{4096}) Block;  // lives as long as the process
  *block = Block{};
  return *block;
}

/// The consumer takes every byte it received: the whole message must be in `m` (in memory) here.
/// Without it, a contender whose pop inlines into the loop copied only words[0] - the one word the
/// check reads - while one called out of line (ReaderWriterQueue) copied all 64 bytes: the ring ran
/// 1.55x the best peer on 8 of the 64 bytes, measured before this (bench/RESULTS.md).
template <class V>
inline void take(V& m) {
  benchmark::DoNotOptimize(m);
}

/// Moves `n` messages with push(const M&) -> bool / pop(M&) -> bool, one per call, from the
/// calling thread to a consumer thread on consumer_cpu; returns the seconds it took.
template <class M, class Push, class Pop>
double move_once(Push push, const Pop& pop_shared, std::uint64_t n, polls& p) {
  std::thread consumer;
  std::string pin_error;
  const auto t0 = start_consumer(consumer, pin_error, [pop = pop_shared, n, &p]() mutable {
    unsigned waits = 0;
    M m{};
    for (std::uint64_t i = 0; i < n; ++i) {
      while (!pop(m)) spin_pause(waits);
      take(m);
      if (m.words[0] != i) lost(i, m.words[0]);
    }
    p.empty += waits;
  });
  unsigned waits = 0;
  auto& outbox = outbox_block<std::array<M, outbox_size>>();
  for (std::uint64_t i = 0; i < ahead; ++i) outbox[i].words[0] = i;
  for (std::uint64_t i = 0; i < n; ++i) {
    outbox[(i + ahead) % outbox_size].words[0] = i + ahead;
    while (!push(outbox[i % outbox_size])) spin_pause(waits);
  }
  consumer.join();
  throw_if(pin_error);
  p.full += waits;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// As move_once with push_n(const M*, n) -> accepted and pop_n(M*, n) -> received, up to `batch`
/// per call.
template <class M, class PushN, class PopN>
double move_once_batched(PushN push_n, const PopN& pop_shared, std::uint64_t n, polls& p) {
  std::thread consumer;
  std::string pin_error;
  const auto t0 = start_consumer(consumer, pin_error, [pop_n = pop_shared, n, &p]() mutable {
    unsigned waits = 0;
    std::array<M, batch> out{};
    std::uint64_t next = 0;
    while (next < n) {
      const std::size_t got = pop_n(out.data(), batch);
      if (got == 0) spin_pause(waits);
      take(out);
      for (std::size_t k = 0; k < got; ++k, ++next) {
        if (out[k].words[0] != next) lost(next, out[k].words[0]);
      }
    }
    p.empty += waits;
  });
  unsigned waits = 0;
  auto& outbox = outbox_block<std::array<std::array<M, batch>, 2>>();  // one numbered, one going out
  for (std::size_t k = 0; k < batch; ++k) outbox[0][k].words[0] = k;
  for (std::uint64_t i = 0, b = 0; i < n; i += batch, ++b) {
    auto& in = outbox[b % 2];
    for (std::size_t k = 0; k < batch; ++k) outbox[(b + 1) % 2][k].words[0] = i + batch + k;
    std::size_t done = 0;
    while (done < batch) {
      const std::size_t put = push_n(in.data() + done, batch - done);
      if (put == 0) spin_pause(waits);
      done += put;
    }
  }
  consumer.join();
  throw_if(pin_error);
  p.full += waits;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// One benchmark row: `messages` per iteration, timed by Google Benchmark (real time).
template <class M, class Push, class Pop>
void transfer(benchmark::State& state, const Push& push, const Pop& pop) {
  pinned_scope pin(producer_cpu);
  polls p;
  for (auto _ : state) move_once<M>(push, pop, messages, p);
  report<M>(state, p.empty, p.full);
}

template <class M, class PushN, class PopN>
void transfer_batched(benchmark::State& state, const PushN& push_n, const PopN& pop_n) {
  pinned_scope pin(producer_cpu);
  polls p;
  for (auto _ : state) move_once_batched<M>(push_n, pop_n, messages, p);
  report<M>(state, p.empty, p.full);
}

}  // namespace rkbench
