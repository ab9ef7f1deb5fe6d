// Copyright RingKernel authors.
// Host queue throughput, 64-byte messages, one producer thread and one consumer thread (the
// machine's 2 cores), against the peers of DESIGN.md §7 in the same run:
//   SPSC: ringkernel::SpscQueue vs boost::lockfree::spsc_queue vs moodycamel::ReaderWriterQueue
//   MPMC: ringkernel::MpmcQueue vs moodycamel::ConcurrentQueue
// single-message and batch-of-32 forms. Every queue is bounded to 1024 slots (moodycamel:
// try_enqueue, which never allocates). Each iteration moves `messages` messages and the consumer
// checks the sequence, so a queue that loses or reorders fails the run.
#include <benchmark/benchmark.h>

#include <array>
#include <boost/lockfree/spsc_queue.hpp>
#include <concurrentqueue/concurrentqueue.h>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <readerwriterqueue/readerwriterqueue.h>
#include <thread>

#include "ringkernel/queue/message_queue.h"

namespace {

struct Msg64 {
  std::uint64_t words[8];
};
static_assert(sizeof(Msg64) == 64);

constexpr std::size_t capacity = 1024;
constexpr std::uint64_t messages = 1 << 18;
constexpr std::size_t batch = 32;

// Waiting side of every queue alike: a CPU pause; every 64th wait yields, so that a VM that
// briefly runs both threads on one core does not spin away a whole time slice.
inline void spin_pause() {
  thread_local unsigned waits = 0;
  if (++waits % 64 == 0) {
    std::this_thread::yield();
  } else {
#if defined(__x86_64__)
    __builtin_ia32_pause();
#endif
  }
}

[[noreturn]] void lost(std::uint64_t expected, std::uint64_t got) {
  std::fprintf(stderr, "queue delivered %llu, expected %llu\n", static_cast<unsigned long long>(got),
               static_cast<unsigned long long>(expected));
  std::abort();
}

// push(const Msg64&) -> bool and pop(Msg64&) -> bool adapters, one transfer per iteration.
template <class Push, class Pop>
void transfer(benchmark::State& state, Push push, Pop pop) {
  for (auto _ : state) {
    std::thread consumer([&] {
      Msg64 m{};
      for (std::uint64_t i = 0; i < messages; ++i) {
        while (!pop(m)) spin_pause();
        if (m.words[0] != i) lost(i, m.words[0]);
      }
    });
    Msg64 m{};
    for (std::uint64_t i = 0; i < messages; ++i) {
      m.words[0] = i;
      while (!push(m)) spin_pause();
    }
    consumer.join();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * messages));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * messages * sizeof(Msg64)));
}

// push_n(const Msg64*, n) -> accepted and pop_n(Msg64*, n) -> received.
template <class PushN, class PopN>
void transfer_batched(benchmark::State& state, PushN push_n, PopN pop_n) {
  for (auto _ : state) {
    std::thread consumer([&] {
      std::array<Msg64, batch> out{};
      std::uint64_t next = 0;
      while (next < messages) {
        const std::size_t n = pop_n(out.data(), batch);
        if (n == 0) spin_pause();
        for (std::size_t k = 0; k < n; ++k, ++next) {
          if (out[k].words[0] != next) lost(next, out[k].words[0]);
        }
      }
    });
    std::array<Msg64, batch> in{};
    for (std::uint64_t i = 0; i < messages; i += batch) {
      for (std::size_t k = 0; k < batch; ++k) in[k].words[0] = i + k;
      std::size_t done = 0;
      while (done < batch) {
        const std::size_t n = push_n(in.data() + done, batch - done);
        if (n == 0) spin_pause();
        done += n;
      }
    }
    consumer.join();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * messages));
}

// ---- SPSC ------------------------------------------------------------------------------------
void BM_Spsc_RingKernel(benchmark::State& state) {
  ringkernel::SpscQueue<Msg64> q(ringkernel::QueueOptions{.capacity = capacity, .policy = ringkernel::FullPolicy::reject});
  auto ring = q.ring();  // the lock-free fast path; try_send/try_receive add the policy and counters
  transfer(state, [&](const Msg64& m) { return ring.try_push(m); }, [&](Msg64& m) { return ring.try_pop(m); });
}
void BM_Spsc_RingKernelQueueApi(benchmark::State& state) {
  ringkernel::SpscQueue<Msg64> q(ringkernel::QueueOptions{.capacity = capacity, .policy = ringkernel::FullPolicy::reject});
  transfer(state, [&](const Msg64& m) { return q.try_send(m).ok(); },
           [&](Msg64& m) { return q.try_receive(m) == ringkernel::ReceiveStatus::ok; });
}
void BM_Spsc_BoostLockfree(benchmark::State& state) {
  boost::lockfree::spsc_queue<Msg64, boost::lockfree::capacity<capacity>> q;
  transfer(state, [&](const Msg64& m) { return q.push(m); }, [&](Msg64& m) { return q.pop(m); });
}
void BM_Spsc_MoodycamelReaderWriterQueue(benchmark::State& state) {
  moodycamel::ReaderWriterQueue<Msg64> q(capacity);
  transfer(state, [&](const Msg64& m) { return q.try_enqueue(m); }, [&](Msg64& m) { return q.try_dequeue(m); });
}
void BM_SpscBatch32_RingKernel(benchmark::State& state) {
  ringkernel::SpscQueue<Msg64> q(ringkernel::QueueOptions{.capacity = capacity, .policy = ringkernel::FullPolicy::reject});
  auto ring = q.ring();
  transfer_batched(state, [&](const Msg64* p, std::size_t n) { return ring.try_push_batch(p, n); },
                   [&](Msg64* p, std::size_t n) { return ring.try_pop_batch(p, n); });
}
void BM_SpscBatch32_BoostLockfree(benchmark::State& state) {
  boost::lockfree::spsc_queue<Msg64, boost::lockfree::capacity<capacity>> q;
  transfer_batched(state, [&](const Msg64* p, std::size_t n) { return q.push(p, n); },
                   [&](Msg64* p, std::size_t n) { return q.pop(p, n); });
}

// ---- MPMC (used here by one producer and one consumer thread: the machine has 2 cores) ----------
void BM_Mpmc_RingKernel(benchmark::State& state) {
  ringkernel::MpmcQueue<Msg64> q(ringkernel::QueueOptions{.capacity = capacity, .policy = ringkernel::FullPolicy::reject});
  auto ring = q.ring();
  transfer(state, [&](const Msg64& m) { return ring.try_push(m); }, [&](Msg64& m) { return ring.try_pop(m); });
}
void BM_Mpmc_RingKernelQueueApi(benchmark::State& state) {
  ringkernel::MpmcQueue<Msg64> q(ringkernel::QueueOptions{.capacity = capacity, .policy = ringkernel::FullPolicy::reject});
  transfer(state, [&](const Msg64& m) { return q.try_send(m).ok(); },
           [&](Msg64& m) { return q.try_receive(m) == ringkernel::ReceiveStatus::ok; });
}
void BM_Mpmc_MoodycamelConcurrentQueue(benchmark::State& state) {
  moodycamel::ConcurrentQueue<Msg64> q(capacity);
  transfer(state, [&](const Msg64& m) { return q.try_enqueue(m); }, [&](Msg64& m) { return q.try_dequeue(m); });
}
void BM_MpmcBatch32_RingKernel(benchmark::State& state) {
  ringkernel::MpmcQueue<Msg64> q(ringkernel::QueueOptions{.capacity = capacity, .policy = ringkernel::FullPolicy::reject});
  auto ring = q.ring();
  transfer_batched(state, [&](const Msg64* p, std::size_t n) { return ring.try_push_batch(p, n); },
                   [&](Msg64* p, std::size_t n) { return ring.try_pop_batch(p, n); });
}
void BM_MpmcBatch32_MoodycamelConcurrentQueue(benchmark::State& state) {
  moodycamel::ConcurrentQueue<Msg64> q(capacity);
  transfer_batched(state, [&](const Msg64* p, std::size_t n) { return q.try_enqueue_bulk(p, n) ? n : 0; },
                   [&](Msg64* p, std::size_t n) { return q.try_dequeue_bulk(p, n); });
}

}  // namespace

BENCHMARK(BM_Spsc_RingKernel)->UseRealTime()->MinTime(0.5);
BENCHMARK(BM_Spsc_RingKernelQueueApi)->UseRealTime()->MinTime(0.5);
BENCHMARK(BM_Spsc_BoostLockfree)->UseRealTime()->MinTime(0.5);
BENCHMARK(BM_Spsc_MoodycamelReaderWriterQueue)->UseRealTime()->MinTime(0.5);
BENCHMARK(BM_SpscBatch32_RingKernel)->UseRealTime()->MinTime(0.5);
BENCHMARK(BM_SpscBatch32_BoostLockfree)->UseRealTime()->MinTime(0.5);
BENCHMARK(BM_Mpmc_RingKernel)->UseRealTime()->MinTime(0.5);
BENCHMARK(BM_Mpmc_RingKernelQueueApi)->UseRealTime()->MinTime(0.5);
BENCHMARK(BM_Mpmc_MoodycamelConcurrentQueue)->UseRealTime()->MinTime(0.5);
BENCHMARK(BM_MpmcBatch32_RingKernel)->UseRealTime()->MinTime(0.5);
BENCHMARK(BM_MpmcBatch32_MoodycamelConcurrentQueue)->UseRealTime()->MinTime(0.5);
BENCHMARK_MAIN();
