// Copyright RingKernel authors.
// bench_queue's PxC rows: a host MPMC queue under contention, P producer threads and C consumer
// threads on CPUs of their own (harness: pxc_harness.h), 64-byte messages, paired as the
// BM_Paired_* rows of bench_queue.cpp are (paired.h: each iteration moves paired_messages through
// every contender back to back; counters ratio_<ours>_median etc. are ours / the best peer).
//   BM_Paired_MpmcPxC/P:p/C:c         one message per call: mpmc_ring try_push/try_pop ("ring"),
//       MpmcQueue try_send/try_receive ("queue_api") vs moodycamel::ConcurrentQueue try_enqueue/
//       try_dequeue without tokens ("cq") and with a ProducerToken per producer thread and a
//       ConsumerToken per consumer thread ("cq_tokens");
//   BM_Paired_MpmcPxCBatch32/P:p/C:c  up to 32 per call: try_push_batch/try_pop_batch, MpmcQueue
//       send_batch (zero timeout, reject: never waits)/try_receive_batch, try_enqueue_bulk/
//       try_dequeue_bulk without and with tokens.
// Capacities: mpmc_ring and MpmcQueue hold 1024; ConcurrentQueue(1024) has 32 blocks of 32 slots
// that try_enqueue never adds to, but a block belongs to one producer at a time (for good, with a
// token), so how much of it one producer can fill depends on the others. capacity_<name> is
// measured filling through every producer in turn (pxc_harness.h's pxc_capacity; tokenless, the
// fill runs on one thread, one implicit producer); for cq_tokens that fill also hands every token
// blocks it keeps, without which a token that found all 32 blocks taken by others would never send.
// A row needs P + C CPUs in the process's affinity mask (taskset, cpusets; transfer.h's
// allowed_cpus): with fewer it is skipped with a message saying so (this project's VM has 2 cores:
// only P:1/C:1 runs there).
#include <benchmark/benchmark.h>
#include <concurrentqueue/concurrentqueue.h>

#include <chrono>
#include <cstdio>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "bench_guarded.h"
#include "pxc_harness.h"
#include "ringkernel/queue/message_queue.h"

namespace {

using rkbench::aligned_box;
using rkbench::capacity;
using rkbench::Msg64;
using rkbench::pxc_shape;
using RkMpmc = ringkernel::MpmcQueue<Msg64>;
using MoodyCq = moodycamel::ConcurrentQueue<Msg64>;

constexpr ringkernel::QueueOptions rk_options{.capacity = capacity, .policy = ringkernel::FullPolicy::reject};

// SkipWithMessage where this Google Benchmark has it (1.8 and later), SkipWithError otherwise (1.7.1,
// the Debian package this VM builds with): either way the row shows the reason instead of figures.
template <class State>
void skip_visibly(State& state, const std::string& why) {
  if constexpr (requires { state.SkipWithMessage(why); }) {
    state.SkipWithMessage(why);
  } else {
    state.SkipWithError(why.c_str());
  }
}

// The rows' families and minimum time (their registration, at the end).
constexpr const char* pxc_single_row = "BM_Paired_MpmcPxC";
constexpr const char* pxc_batch_row = "BM_Paired_MpmcPxCBatch32";
constexpr double pxc_min_time = 2.0;

// The row's whole name, as Google Benchmark prints it, for the message of a process ended by a
// stuck thread (pxc_checks.h, pxc_sync::stuck). Built by hand after the registration (args P and C,
// MinTime printed "%0.3f", UseRealTime): the State of Google Benchmark 1.7.1 (this VM's) has no
// name, and the State::name() of later ones gives the family alone.
std::string row_name(const char* family, const benchmark::State& state) {
  char min_time[32];
  std::snprintf(min_time, sizeof min_time, "%0.3f", pxc_min_time);
  return std::string(family) + "/P:" + std::to_string(state.range(0)) + "/C:" + std::to_string(state.range(1)) +
         "/min_time:" + min_time + "/real_time";
}

// The row's shape, or nullopt (the row skipped) when the process may run on too few CPUs for it.
std::optional<pxc_shape> shape_that_fits(benchmark::State& state, const char* family) {
  const pxc_shape shape{static_cast<unsigned>(state.range(0)), static_cast<unsigned>(state.range(1)),
                        row_name(family, state)};
  if (const std::string why = rkbench::too_few_cpus(shape.threads()); !why.empty()) {
    skip_visibly(state, why);
    return std::nullopt;
  }
  if (rkbench::paired_messages % shape.producers != 0) {
    skip_visibly(state, "the producers must divide " + std::to_string(rkbench::paired_messages) + " messages");
    return std::nullopt;
  }
  return shape;
}

// One token per thread, each on cache lines of its own (a ConsumerToken is written on every call).
template <class Token>
std::vector<std::unique_ptr<aligned_box<Token>>> tokens(MoodyCq& q, unsigned n) {
  std::vector<std::unique_ptr<aligned_box<Token>>> v;
  for (unsigned i = 0; i < n; ++i) v.push_back(std::make_unique<aligned_box<Token>>(q));
  return v;
}
using ProducerTokens = std::vector<std::unique_ptr<aligned_box<moodycamel::ProducerToken>>>;
using ConsumerTokens = std::vector<std::unique_ptr<aligned_box<moodycamel::ConsumerToken>>>;

// The single-message adapters of each contender, by thread index (pxc_harness.h).
auto ring_push(RkMpmc& q) {
  return [ring = q.ring()](unsigned) { return [ring](const Msg64& x) mutable { return ring.try_push(x); }; };
}
auto ring_pop(RkMpmc& q) {
  return [ring = q.ring()](unsigned) { return [ring](Msg64& x) mutable { return ring.try_pop(x); }; };
}
auto api_push(RkMpmc& q) {
  return [p = &q](unsigned) { return [p](const Msg64& x) { return p->try_send(x).ok(); }; };
}
auto api_pop(RkMpmc& q) {
  return [p = &q](unsigned) {
    return [p](Msg64& x) { return p->try_receive(x) == ringkernel::ReceiveStatus::ok; };
  };
}
auto cq_push(MoodyCq& q) {
  return [p = &q](unsigned) { return [p](const Msg64& x) { return p->try_enqueue(x); }; };
}
auto cq_pop(MoodyCq& q) {
  return [p = &q](unsigned) { return [p](Msg64& x) { return p->try_dequeue(x); }; };
}
auto cq_token_push(MoodyCq& q, const ProducerTokens& t) {
  return [p = &q, &t](unsigned i) { return [p, k = &**t[i]](const Msg64& x) { return p->try_enqueue(*k, x); }; };
}
auto cq_token_pop(MoodyCq& q, const ConsumerTokens& t) {
  return [p = &q, &t](unsigned j) { return [p, k = &**t[j]](Msg64& x) { return p->try_dequeue(*k, x); }; };
}

// The four queues of a row (each in 128-byte aligned storage of its own) and cq_tokens' tokens:
// one ProducerToken per producer thread, one ConsumerToken per consumer thread.
struct pxc_queues {
  explicit pxc_queues(const pxc_shape& shape)
      : producers(tokens<moodycamel::ProducerToken>(*cq_tokens, shape.producers)),
        consumers(tokens<moodycamel::ConsumerToken>(*cq_tokens, shape.consumers)) {}
  aligned_box<RkMpmc> ours{rk_options}, ours_api{rk_options};
  aligned_box<MoodyCq> cq{capacity}, cq_tokens{capacity};
  ProducerTokens producers;  // declared after cq_tokens: built after it, destroyed before it
  ConsumerTokens consumers;
};

void BM_Paired_MpmcPxC(benchmark::State& state) {
  const auto shape = shape_that_fits(state, pxc_single_row);
  if (!shape) return;
  const pxc_queues q(*shape);
  rkbench::run_pxc(state, {
      rkbench::pxc_single("ring", true, *shape, ring_push(*q.ours), ring_pop(*q.ours)),
      rkbench::pxc_single("queue_api", true, *shape, api_push(*q.ours_api), api_pop(*q.ours_api)),
      rkbench::pxc_single("cq", false, *shape, cq_push(*q.cq), cq_pop(*q.cq)),
      rkbench::pxc_single("cq_tokens", false, *shape, cq_token_push(*q.cq_tokens, q.producers),
                          cq_token_pop(*q.cq_tokens, q.consumers)),
  });
}

void BM_Paired_MpmcPxCBatch32(benchmark::State& state) {
  const auto shape = shape_that_fits(state, pxc_batch_row);
  if (!shape) return;
  const pxc_queues q(*shape);
  MoodyCq* c = &*q.cq;
  MoodyCq* ct = &*q.cq_tokens;
  RkMpmc* api = &*q.ours_api;
  const ProducerTokens& producers = q.producers;
  const ConsumerTokens& consumers = q.consumers;
  constexpr auto now = std::chrono::nanoseconds::zero();
  rkbench::run_pxc(state, {
      rkbench::pxc_batched(
          "ring", true, *shape, ring_push(*q.ours), ring_pop(*q.ours),
          [ring = q.ours->ring()](unsigned) {
            return [ring](const Msg64* v, std::size_t n) mutable { return ring.try_push_batch(v, n); };
          },
          [ring = q.ours->ring()](unsigned) {
            return [ring](Msg64* v, std::size_t n) mutable { return ring.try_pop_batch(v, n); };
          }),
      rkbench::pxc_batched(
          "queue_api", true, *shape, api_push(*api), api_pop(*api),
          [api, now](unsigned) {
            return [api, now](const Msg64* v, std::size_t n) {
              return api->send_batch(std::span<const Msg64>(v, n), now).accepted;
            };
          },
          [api](unsigned) {
            return [api](Msg64* v, std::size_t n) { return api->try_receive_batch(std::span<Msg64>(v, n)).received; };
          }),
      rkbench::pxc_batched(
          "cq", false, *shape, cq_push(*c), cq_pop(*c),
          [c](unsigned) {
            return [c](const Msg64* v, std::size_t n) { return c->try_enqueue_bulk(v, n) ? n : std::size_t{0}; };
          },
          [c](unsigned) { return [c](Msg64* v, std::size_t n) { return c->try_dequeue_bulk(v, n); }; }),
      rkbench::pxc_batched(
          "cq_tokens", false, *shape, cq_token_push(*ct, producers), cq_token_pop(*ct, consumers),
          [ct, &producers](unsigned i) {
            return [ct, k = &**producers[i]](const Msg64* v, std::size_t n) {
              return ct->try_enqueue_bulk(*k, v, n) ? n : std::size_t{0};
            };
          },
          [ct, &consumers](unsigned j) {
            return [ct, k = &**consumers[j]](Msg64* v, std::size_t n) { return ct->try_dequeue_bulk(*k, v, n); };
          }),
  });
}

// (producers, consumers): balanced at 1, 2, 4 and 8 a side, and one side four times the other.
void pxc_args(benchmark::internal::Benchmark* b) {
  b->ArgNames({"P", "C"});
  using pc = std::pair<int, int>;
  for (const auto& [p, c] : std::initializer_list<pc>{{1, 1}, {2, 2}, {4, 4}, {8, 8}, {1, 4}, {4, 1}}) {
    b->Args({p, c});
  }
}

}  // namespace

BENCHMARK(rkbench::guarded<BM_Paired_MpmcPxC>)
    ->Name(pxc_single_row)->Apply(pxc_args)->UseRealTime()->MinTime(pxc_min_time);
BENCHMARK(rkbench::guarded<BM_Paired_MpmcPxCBatch32>)
    ->Name(pxc_batch_row)->Apply(pxc_args)->UseRealTime()->MinTime(pxc_min_time);
