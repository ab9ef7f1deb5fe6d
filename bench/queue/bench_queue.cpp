// Copyright RingKernel authors.
// Host queue throughput, 64-byte messages, one producer thread on the process's first CPU and one
// consumer thread on its second (this VM's 2 cores; harness: transfer.h), against the peers of
// DESIGN.md §7 in the same run, each used through the same API shape:
//   SPSC, one message per call:  ringkernel spsc_ring try_push/try_pop (and SpscQueue try_send/
//       try_receive) vs boost::lockfree::spsc_queue push/pop vs moodycamel::ReaderWriterQueue
//       try_enqueue/try_dequeue;
//   SPSC, up to 32 per call:     spsc_ring try_push_batch/try_pop_batch vs spsc_queue push(ptr, n)/
//       pop(ptr, n) (ReaderWriterQueue has no bulk API, so it has no batch row);
//   MPMC, one per call / bulk:   mpmc_ring vs moodycamel::ConcurrentQueue try_enqueue(_bulk)/
//       try_dequeue(_bulk), driven by one producer and one consumer.
// Message: Msg64 (alignment 8) and Msg64A (aligned to the 64-byte line: the peers allocate their
// slots with alignof(T), so only then do their 64-byte slots not straddle two lines) - rows <Msg64A>
// give the peers their best case. Capacities: spsc_ring, mpmc_ring and spsc_queue<capacity<1024>> hold 1024 messages,
// ReaderWriterQueue(1023) is one block of 1024 slots holding 1023 (its single-block form; 1024
// would allocate four blocks of 512 holding up to 2044); ConcurrentQueue(1024) uses try_enqueue,
// which never allocates. The "capacity" counter of each row is measured (fill until refused).
// BM_Floor_* (line_floor.h) are hardware reference points, not contenders. BM_Paired_* (paired.h)
// alternate the contenders of one comparison within every iteration and report the per-iteration
// ratios: the figures to compare on a VM whose core-to-core latency drifts (the other rows give
// absolute rates, poll counts and capacities, but their ratios mix machine states).
// BM_Paired_SpscConsumerWork/N: the SPSC single-message contenders with a consumer that spends N
// loop iterations (about N cycles) on each message, so that it is the slower side and the queue
// runs full - the usual case in an application, and a different regime for the queue.
#include <boost/lockfree/spsc_queue.hpp>
#include <concurrentqueue/concurrentqueue.h>
#include <readerwriterqueue/readerwriterqueue.h>

#include "bench_guarded.h"
#include "line_floor.h"
#include "paired.h"
#include "ringkernel/queue/message_queue.h"
#include "transfer.h"

namespace {

using rkbench::aligned_box;
using rkbench::batch;
using rkbench::capacity;
using rkbench::Msg64;
using rkbench::Msg64A;
using rkbench::transfer;
using rkbench::transfer_batched;

template <class M>
using BoostSpsc = boost::lockfree::spsc_queue<M, boost::lockfree::capacity<capacity>>;
template <class M>
using MoodyRwq = moodycamel::ReaderWriterQueue<M>;
using MoodyCq = moodycamel::ConcurrentQueue<Msg64>;
template <class M>
using RkSpsc = ringkernel::SpscQueue<M>;
using RkMpmc = ringkernel::MpmcQueue<Msg64>;

constexpr ringkernel::QueueOptions rk_options{.capacity = capacity, .policy = ringkernel::FullPolicy::reject};

// Fills an empty queue until it refuses, empties it again, returns how many it held.
template <class M, class Push, class Pop>
double measured_capacity(Push push, Pop pop) {
  M m{};
  std::size_t held = 0;
  while (held < 4 * capacity && push(m)) ++held;
  for (std::size_t i = 0; i < held; ++i) {
    if (!pop(m)) rkbench::lost(held, i);
  }
  return static_cast<double>(held);
}

template <class M, class Push, class Pop>
void single(benchmark::State& state, Push push, Pop pop) {
  state.counters["capacity"] = measured_capacity<M>(push, pop);
  transfer<M>(state, push, pop);
}

template <class M, class PushN, class PopN, class Push, class Pop>
void batched(benchmark::State& state, PushN push_n, PopN pop_n, Push push, Pop pop) {
  state.counters["capacity"] = measured_capacity<M>(push, pop);
  transfer_batched<M>(state, push_n, pop_n);
}

// ---- SPSC (M: Msg64, or Msg64A aligned to the cache line) -----------------------------------------
template <class M>
void BM_Spsc_RingKernel(benchmark::State& state) {
  aligned_box<RkSpsc<M>> q(rk_options);
  auto ring = q->ring();  // the lock-free fast path, a view each thread copies
  single<M>(state, [ring](const M& m) mutable { return ring.try_push(m); },
            [ring](M& m) mutable { return ring.try_pop(m); });
}
template <class M>
void BM_Spsc_RingKernelQueueApi(benchmark::State& state) {
  aligned_box<RkSpsc<M>> q(rk_options);
  RkSpsc<M>* p = &*q;
  single<M>(state, [p](const M& m) { return p->try_send(m).ok(); },
            [p](M& m) { return p->try_receive(m) == ringkernel::ReceiveStatus::ok; });
}
template <class M>
void BM_Spsc_BoostLockfree(benchmark::State& state) {
  aligned_box<BoostSpsc<M>> q;
  BoostSpsc<M>* p = &*q;
  single<M>(state, [p](const M& m) { return p->push(m); }, [p](M& m) { return p->pop(m); });
}
template <class M>
void BM_Spsc_MoodycamelReaderWriterQueue(benchmark::State& state) {
  aligned_box<MoodyRwq<M>> q(capacity - 1);
  MoodyRwq<M>* p = &*q;
  single<M>(state, [p](const M& m) { return p->try_enqueue(m); }, [p](M& m) { return p->try_dequeue(m); });
}
template <class M>
void BM_SpscBatch32_RingKernel(benchmark::State& state) {
  aligned_box<RkSpsc<M>> q(rk_options);
  auto ring = q->ring();
  batched<M>(state, [ring](const M* v, std::size_t n) mutable { return ring.try_push_batch(v, n); },
             [ring](M* v, std::size_t n) mutable { return ring.try_pop_batch(v, n); },
             [ring](const M& m) mutable { return ring.try_push(m); }, [ring](M& m) mutable { return ring.try_pop(m); });
}
template <class M>
void BM_SpscBatch32_BoostLockfree(benchmark::State& state) {
  aligned_box<BoostSpsc<M>> q;
  BoostSpsc<M>* p = &*q;
  batched<M>(state, [p](const M* v, std::size_t n) { return p->push(v, n); },
             [p](M* v, std::size_t n) { return p->pop(v, n); }, [p](const M& m) { return p->push(m); },
             [p](M& m) { return p->pop(m); });
}

// ---- MPMC (driven by one producer and one consumer thread: the machine has 2 cores) -------------
void BM_Mpmc_RingKernel(benchmark::State& state) {
  aligned_box<RkMpmc> q(rk_options);
  auto ring = q->ring();
  single<Msg64>(state, [ring](const Msg64& m) mutable { return ring.try_push(m); },
                [ring](Msg64& m) mutable { return ring.try_pop(m); });
}
void BM_Mpmc_RingKernelQueueApi(benchmark::State& state) {
  aligned_box<RkMpmc> q(rk_options);
  RkMpmc* p = &*q;
  single<Msg64>(state, [p](const Msg64& m) { return p->try_send(m).ok(); },
                [p](Msg64& m) { return p->try_receive(m) == ringkernel::ReceiveStatus::ok; });
}
void BM_Mpmc_MoodycamelConcurrentQueue(benchmark::State& state) {
  aligned_box<MoodyCq> q(capacity);
  MoodyCq* p = &*q;
  single<Msg64>(state, [p](const Msg64& m) { return p->try_enqueue(m); },
                [p](Msg64& m) { return p->try_dequeue(m); });
}
// With a ProducerToken and a ConsumerToken: moodycamel's fast path for threads known in advance
// (an explicit producer, and a consumer that goes to that producer's sub-queue directly instead of
// scoring every producer on each dequeue), which this harness's two threads are.
void BM_Mpmc_MoodycamelConcurrentQueueTokens(benchmark::State& state) {
  aligned_box<MoodyCq> q(capacity);
  MoodyCq* p = &*q;
  moodycamel::ProducerToken producer(*p);
  moodycamel::ConsumerToken consumer(*p);
  single<Msg64>(state, [p, t = &producer](const Msg64& m) { return p->try_enqueue(*t, m); },
                [p, t = &consumer](Msg64& m) { return p->try_dequeue(*t, m); });
}
void BM_MpmcBatch32_RingKernel(benchmark::State& state) {
  aligned_box<RkMpmc> q(rk_options);
  auto ring = q->ring();
  batched<Msg64>(state, [ring](const Msg64* v, std::size_t n) mutable { return ring.try_push_batch(v, n); },
                 [ring](Msg64* v, std::size_t n) mutable { return ring.try_pop_batch(v, n); },
                 [ring](const Msg64& m) mutable { return ring.try_push(m); },
                 [ring](Msg64& m) mutable { return ring.try_pop(m); });
}
void BM_MpmcBatch32_MoodycamelConcurrentQueue(benchmark::State& state) {
  aligned_box<MoodyCq> q(capacity);
  MoodyCq* p = &*q;
  batched<Msg64>(state, [p](const Msg64* v, std::size_t n) { return p->try_enqueue_bulk(v, n) ? n : std::size_t{0}; },
                 [p](Msg64* v, std::size_t n) { return p->try_dequeue_bulk(v, n); },
                 [p](const Msg64& m) { return p->try_enqueue(m); }, [p](Msg64& m) { return p->try_dequeue(m); });
}

// ---- Paired rows (paired.h): the contenders of one comparison alternate within each iteration ----
// The four SPSC single-message contenders; `consume` wraps each pop (the identity, or working_pop).
template <class M, class Consume>
void paired_spsc(benchmark::State& state, Consume consume) {
  aligned_box<RkSpsc<M>> ours(rk_options), ours_api(rk_options);
  aligned_box<BoostSpsc<M>> boost;
  aligned_box<MoodyRwq<M>> rwq(capacity - 1);
  auto ring = ours->ring();
  RkSpsc<M>* api = &*ours_api;
  BoostSpsc<M>* b = &*boost;
  MoodyRwq<M>* m = &*rwq;
  rkbench::run_paired(state, {
      rkbench::single_contender<M>("ring", true, [ring](const M& x) mutable { return ring.try_push(x); },
                                   consume([ring](M& x) mutable { return ring.try_pop(x); })),
      rkbench::single_contender<M>("queue_api", true, [api](const M& x) { return api->try_send(x).ok(); },
                                   consume([api](M& x) { return api->try_receive(x) == ringkernel::ReceiveStatus::ok; })),
      rkbench::single_contender<M>("boost", false, [b](const M& x) { return b->push(x); },
                                   consume([b](M& x) { return b->pop(x); })),
      rkbench::single_contender<M>("rwq", false, [m](const M& x) { return m->try_enqueue(x); },
                                   consume([m](M& x) { return m->try_dequeue(x); })),
  });
}
template <class M>
void BM_Paired_Spsc(benchmark::State& state) {
  paired_spsc<M>(state, [](auto pop) { return pop; });
}
// The same SPSC contenders with a consumer that works on each message (range(0): loop iterations,
// about one cycle each) - the usual case, where the consumer is the slower side and the queue runs
// full, so the producer finds it full and looks at the consumer's index on every send.
template <class M>
void BM_Paired_SpscConsumerWork(benchmark::State& state) {
  const int work = static_cast<int>(state.range(0));
  paired_spsc<M>(state, [work](auto pop) { return rkbench::working_pop(pop, work); });
}
template <class M>
void BM_Paired_SpscBatch32(benchmark::State& state) {
  aligned_box<RkSpsc<M>> ours(rk_options);
  aligned_box<BoostSpsc<M>> boost;
  auto ring = ours->ring();
  BoostSpsc<M>* b = &*boost;
  rkbench::run_paired(state, {
      rkbench::batch_contender<M>("ring", true, [ring](const M* v, std::size_t n) mutable { return ring.try_push_batch(v, n); },
                                  [ring](M* v, std::size_t n) mutable { return ring.try_pop_batch(v, n); }),
      rkbench::batch_contender<M>("boost", false, [b](const M* v, std::size_t n) { return b->push(v, n); },
                                  [b](M* v, std::size_t n) { return b->pop(v, n); }),
  });
}
void BM_Paired_Mpmc(benchmark::State& state) {
  aligned_box<RkMpmc> ours(rk_options), ours_api(rk_options);
  aligned_box<MoodyCq> cq(capacity), cq_tokens(capacity);
  auto ring = ours->ring();
  RkMpmc* api = &*ours_api;
  MoodyCq* c = &*cq;
  MoodyCq* ct = &*cq_tokens;
  moodycamel::ProducerToken producer(*ct);  // each used by one thread: the producer's, the consumer's
  moodycamel::ConsumerToken consumer(*ct);
  rkbench::run_paired(state, {
      rkbench::single_contender<Msg64>("ring", true, [ring](const Msg64& x) mutable { return ring.try_push(x); },
                                       [ring](Msg64& x) mutable { return ring.try_pop(x); }),
      rkbench::single_contender<Msg64>("queue_api", true, [api](const Msg64& x) { return api->try_send(x).ok(); },
                                       [api](Msg64& x) { return api->try_receive(x) == ringkernel::ReceiveStatus::ok; }),
      rkbench::single_contender<Msg64>("cq", false, [c](const Msg64& x) { return c->try_enqueue(x); },
                                       [c](Msg64& x) { return c->try_dequeue(x); }),
      rkbench::single_contender<Msg64>("cq_tokens", false,
                                       [ct, t = &producer](const Msg64& x) { return ct->try_enqueue(*t, x); },
                                       [ct, t = &consumer](Msg64& x) { return ct->try_dequeue(*t, x); }),
  });
}
void BM_Paired_MpmcBatch32(benchmark::State& state) {
  aligned_box<RkMpmc> ours(rk_options);
  aligned_box<MoodyCq> cq(capacity), cq_tokens(capacity);
  auto ring = ours->ring();
  MoodyCq* c = &*cq;
  MoodyCq* ct = &*cq_tokens;
  moodycamel::ProducerToken producer(*ct);
  moodycamel::ConsumerToken consumer(*ct);
  rkbench::run_paired(state, {
      rkbench::batch_contender<Msg64>("ring", true,
                                      [ring](const Msg64* v, std::size_t n) mutable { return ring.try_push_batch(v, n); },
                                      [ring](Msg64* v, std::size_t n) mutable { return ring.try_pop_batch(v, n); }),
      rkbench::batch_contender<Msg64>("cq", false,
                                      [c](const Msg64* v, std::size_t n) { return c->try_enqueue_bulk(v, n) ? n : std::size_t{0}; },
                                      [c](Msg64* v, std::size_t n) { return c->try_dequeue_bulk(v, n); }),
      rkbench::batch_contender<Msg64>("cq_tokens", false,
                                      [ct, t = &producer](const Msg64* v, std::size_t n) {
                                        return ct->try_enqueue_bulk(*t, v, n) ? n : std::size_t{0};
                                      },
                                      [ct, t = &consumer](Msg64* v, std::size_t n) { return ct->try_dequeue_bulk(*t, v, n); }),
  });
}

}  // namespace

// Every row runs through rkbench::guarded (bench_guarded.h), under its own name: a row that cannot
// pin its threads (a process allowed fewer than 2 CPUs: "needs 2 CPUs ...") ends with that message.
#define RK_GUARDED_BENCH(...) BENCHMARK(rkbench::guarded<__VA_ARGS__>)->Name(#__VA_ARGS__)
#define RK_QUEUE_BENCH(...) RK_GUARDED_BENCH(__VA_ARGS__)->UseRealTime()->MinTime(0.3)
RK_QUEUE_BENCH(rkbench::BM_Floor_LinePingPong);
RK_QUEUE_BENCH(rkbench::BM_Floor_LineStream);
RK_QUEUE_BENCH(BM_Spsc_RingKernel<Msg64>);
RK_QUEUE_BENCH(BM_Spsc_RingKernelQueueApi<Msg64>);
RK_QUEUE_BENCH(BM_Spsc_BoostLockfree<Msg64>);
RK_QUEUE_BENCH(BM_Spsc_MoodycamelReaderWriterQueue<Msg64>);
RK_QUEUE_BENCH(BM_Spsc_RingKernel<Msg64A>);
RK_QUEUE_BENCH(BM_Spsc_RingKernelQueueApi<Msg64A>);
RK_QUEUE_BENCH(BM_Spsc_BoostLockfree<Msg64A>);
RK_QUEUE_BENCH(BM_Spsc_MoodycamelReaderWriterQueue<Msg64A>);
RK_QUEUE_BENCH(BM_SpscBatch32_RingKernel<Msg64>);
RK_QUEUE_BENCH(BM_SpscBatch32_BoostLockfree<Msg64>);
RK_QUEUE_BENCH(BM_SpscBatch32_RingKernel<Msg64A>);
RK_QUEUE_BENCH(BM_SpscBatch32_BoostLockfree<Msg64A>);
RK_QUEUE_BENCH(BM_Mpmc_RingKernel);
RK_QUEUE_BENCH(BM_Mpmc_RingKernelQueueApi);
RK_QUEUE_BENCH(BM_Mpmc_MoodycamelConcurrentQueue);
RK_QUEUE_BENCH(BM_Mpmc_MoodycamelConcurrentQueueTokens);
RK_QUEUE_BENCH(BM_MpmcBatch32_RingKernel);
RK_QUEUE_BENCH(BM_MpmcBatch32_MoodycamelConcurrentQueue);
#define RK_PAIRED_BENCH(...) RK_GUARDED_BENCH(__VA_ARGS__)->UseRealTime()->MinTime(2.0)
RK_PAIRED_BENCH(BM_Paired_Spsc<Msg64>);
RK_PAIRED_BENCH(BM_Paired_Spsc<Msg64A>);
RK_PAIRED_BENCH(BM_Paired_SpscConsumerWork<Msg64>)->Arg(8)->Arg(16)->Arg(32)->Arg(64);
RK_PAIRED_BENCH(BM_Paired_SpscConsumerWork<Msg64A>)->Arg(8)->Arg(16)->Arg(32)->Arg(64);
RK_PAIRED_BENCH(BM_Paired_SpscBatch32<Msg64>);
RK_PAIRED_BENCH(BM_Paired_SpscBatch32<Msg64A>);
RK_PAIRED_BENCH(BM_Paired_Mpmc);
RK_PAIRED_BENCH(BM_Paired_MpmcBatch32);
BENCHMARK_MAIN();
