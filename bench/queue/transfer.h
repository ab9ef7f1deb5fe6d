// Copyright RingKernel authors.
// The measurement harness of bench_queue, the same for every contender:
//   - the producer (the benchmark thread) runs on CPU 0 and the consumer on CPU 1 (pinned; the
//     machine has 2 cores), so a measurement is one core handing messages to the other;
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
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <thread>
#include <utility>

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

inline constexpr int producer_cpu = 0;
inline constexpr int consumer_cpu = 1;

/// Pins the calling thread to one CPU (no-op where the machine has fewer CPUs).
inline void pin_to_cpu(int cpu) {
  if (static_cast<unsigned>(cpu) >= std::thread::hardware_concurrency()) return;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) != 0) {
    std::fprintf(stderr, "bench_queue: cannot pin to CPU %d\n", cpu);
    std::abort();
  }
}

/// Restores the benchmark thread's affinity mask when a benchmark ends.
class pinned_scope {
 public:
  explicit pinned_scope(int cpu) {
    pthread_getaffinity_np(pthread_self(), sizeof saved_, &saved_);
    pin_to_cpu(cpu);
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

/// push(const M&) -> bool and pop(M&) -> bool adapters, one message per call.
template <class M, class Push, class Pop>
void transfer(benchmark::State& state, const Push& push_shared, const Pop& pop_shared) {
  pinned_scope pin(producer_cpu);
  std::uint64_t empty_polls = 0, full_polls = 0;
  for (auto _ : state) {
    std::thread consumer([pop = pop_shared, &empty_polls]() mutable {
      pin_to_cpu(consumer_cpu);
      unsigned waits = 0;
      M m{};
      for (std::uint64_t i = 0; i < messages; ++i) {
        while (!pop(m)) spin_pause(waits);
        if (m.words[0] != i) lost(i, m.words[0]);
      }
      empty_polls += waits;
    });
    Push push = push_shared;
    unsigned waits = 0;
    M m{};
    for (std::uint64_t i = 0; i < messages; ++i) {
      m.words[0] = i;
      while (!push(m)) spin_pause(waits);
    }
    consumer.join();
    full_polls += waits;
  }
  report<M>(state, empty_polls, full_polls);
}

/// push_n(const M*, n) -> accepted and pop_n(M*, n) -> received, up to `batch` per call.
template <class M, class PushN, class PopN>
void transfer_batched(benchmark::State& state, const PushN& push_shared, const PopN& pop_shared) {
  pinned_scope pin(producer_cpu);
  std::uint64_t empty_polls = 0, full_polls = 0;
  for (auto _ : state) {
    std::thread consumer([pop_n = pop_shared, &empty_polls]() mutable {
      pin_to_cpu(consumer_cpu);
      unsigned waits = 0;
      std::array<M, batch> out{};
      std::uint64_t next = 0;
      while (next < messages) {
        const std::size_t n = pop_n(out.data(), batch);
        if (n == 0) spin_pause(waits);
        for (std::size_t k = 0; k < n; ++k, ++next) {
          if (out[k].words[0] != next) lost(next, out[k].words[0]);
        }
      }
      empty_polls += waits;
    });
    PushN push_n = push_shared;
    unsigned waits = 0;
    std::array<M, batch> in{};
    for (std::uint64_t i = 0; i < messages; i += batch) {
      for (std::size_t k = 0; k < batch; ++k) in[k].words[0] = i + k;
      std::size_t done = 0;
      while (done < batch) {
        const std::size_t n = push_n(in.data() + done, batch - done);
        if (n == 0) spin_pause(waits);
        done += n;
      }
    }
    consumer.join();
    full_polls += waits;
  }
  report<M>(state, empty_polls, full_polls);
}

}  // namespace rkbench
