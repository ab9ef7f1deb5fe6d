// Copyright RingKernel authors.
// Reference points for bench_queue, not queues anyone should use: what the hardware charges for
// moving cache lines between the two cores, so that queue figures can be read against it.
//   BM_Floor_LinePingPong: two threads bounce one 64-bit word on its own 128-byte line; time per
//       one-way handoff (the latency of one cache-line transfer, core to core).
//   BM_Floor_LineStream: the data traffic every ring of 64-byte slots pays, without any queue
//       protocol: the producer writes all 1024 slots (each one line, last read by the consumer), then
//       hands over with one flag; the consumer reads all 1024, hands back. Counters: ns per line of
//       the write phase (taking the lines back from the consumer's cache) and of the read phase
//       (moving them to the consumer); items_per_second is the rate of both phases in series. A
//       reference, not a bound: a queue overlaps the two phases and a streaming reader gets help
//       from the prefetchers, and the SPSC ring has moved more 64-byte messages per second than the
//       read phase's lines (bench/RESULTS.md).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include "transfer.h"

namespace rkbench {

inline void BM_Floor_LinePingPong(benchmark::State& state) {
  pinned_scope pin(producer_cpu);
  struct alignas(128) line {
    std::atomic<std::uint64_t> word{0};
  };
  aligned_box<line> shared;
  constexpr std::uint64_t rounds = 1 << 18;
  for (auto _ : state) {
    shared->word.store(0, std::memory_order_relaxed);
    std::string pin_error;
    std::thread other([&] {
      pin_error = pin_to_cpu(consumer_cpu);
      for (std::uint64_t i = 1; i < 2 * rounds; i += 2) {
        while (shared->word.load(std::memory_order_acquire) != i) __builtin_ia32_pause();
        shared->word.store(i + 1, std::memory_order_release);
      }
    });
    for (std::uint64_t i = 0; i < 2 * rounds; i += 2) {
      while (shared->word.load(std::memory_order_acquire) != i) __builtin_ia32_pause();
      shared->word.store(i + 1, std::memory_order_release);
    }
    other.join();
    throw_if(pin_error);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * 2 * rounds));  // one-way handoffs
}

inline void BM_Floor_LineStream(benchmark::State& state) {
  pinned_scope pin(producer_cpu);
  struct alignas(128) control {
    std::atomic<std::uint64_t> turn{0};
  };
  using clock = std::chrono::steady_clock;
  aligned_box<control> ctl;
  auto slots = std::unique_ptr<Msg64[]>(new (std::align_val_t{128}) Msg64[capacity]);
  const std::uint64_t rounds = messages / capacity;
  double write_ns = 0, read_ns = 0;
  for (auto _ : state) {
    ctl->turn.store(0, std::memory_order_relaxed);
    std::string pin_error;
    std::thread consumer([&] {
      pin_error = pin_to_cpu(consumer_cpu);
      std::uint64_t sum = 0;
      for (std::uint64_t r = 0; r < rounds; ++r) {
        while (ctl->turn.load(std::memory_order_acquire) != 2 * r + 1) __builtin_ia32_pause();
        const auto t0 = clock::now();
        for (std::size_t i = 0; i < capacity; ++i) {
          Msg64 m = slots[i];
          benchmark::DoNotOptimize(m);
          sum += m.words[0];
        }
        read_ns += std::chrono::duration<double, std::nano>(clock::now() - t0).count();
        ctl->turn.store(2 * r + 2, std::memory_order_release);
      }
      benchmark::DoNotOptimize(sum);
    });
    for (std::uint64_t r = 0; r < rounds; ++r) {
      while (ctl->turn.load(std::memory_order_acquire) != 2 * r) __builtin_ia32_pause();
      const auto t0 = clock::now();
      for (std::size_t i = 0; i < capacity; ++i) {
        Msg64& slot = slots[i];
        for (std::uint64_t& w : slot.words) w = r;
        benchmark::ClobberMemory();
      }
      write_ns += std::chrono::duration<double, std::nano>(clock::now() - t0).count();
      ctl->turn.store(2 * r + 1, std::memory_order_release);
    }
    consumer.join();
    throw_if(pin_error);
  }
  const auto lines = static_cast<double>(state.iterations() * rounds * capacity);
  state.SetItemsProcessed(static_cast<std::int64_t>(lines));
  state.counters["write_ns_per_line"] = write_ns / lines;
  state.counters["read_ns_per_line"] = read_ns / lines;
}

}  // namespace rkbench
