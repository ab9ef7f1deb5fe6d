// Copyright RingKernel authors.
// The harness of bench_queue's PxC rows (bench_queue_pxc.cpp): one MPMC queue, P producer threads
// and C consumer threads, each pinned to a CPU of its own (transfer.h's allowed_cpus: producers on
// the process's CPUs 0..P-1 in that list, consumers on P..P+C-1; the benchmark thread only starts,
// watches, joins and checks). One move (move_pxc) is one contender's turn in a paired iteration
// (paired.h's run_paired): paired_messages messages, paired_messages / P from each producer.
//   - Delivery is checked per message and per move (pxc_checks.h); a failed check throws, and the
//     row, run through rkbench::guarded, ends with SkipWithError.
//   - A consumer stops when every producer has finished (a shared atomic count, read before the
//     pop) and a pop then finds nothing; a queue that loses a message ends the move short instead
//     of leaving the consumers waiting for it. What a pop missed that way (a queue whose "empty" is
//     not exact while other consumers race on it) is taken by the benchmark thread after the join,
//     alone on the queue, checked the same way and counted (drained_<name>).
//   - No timeout decides delivery. A watchdog only ends a move in which nothing moved for
//     pxc_stall_limit (a queue that refuses every push for good would otherwise hang the row):
//     threads publish their counts only while they wait, never per message (pxc_sync::keep_waiting).
//   - Producers number their messages ahead of the send in a heap outbox, as transfer.h's do.
//   - A thread body that throws calls the move off (guard_thread, pxc_sync::fail); the row ends
//     with its message after the join. A thread that never returns from a queue call after a stop
//     ends the process (pxc_sync::await_left, pxc_stuck_status).
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "paired.h"
#include "pxc_checks.h"
#include "transfer.h"

namespace rkbench {

/// Per contender, over the whole row: the counters run_pxc adds to run_paired's.
struct pxc_stats {
  double capacity = 0;
  std::uint64_t drained = 0, empty_polls = 0, full_polls = 0, moved = 0;
};

template <class Block>
std::unique_ptr<Block> fresh_outbox() {
  return std::make_unique<Block>();  // Block is alignas(4096): a heap block of its own
}
struct alignas(4096) single_outbox {
  std::array<Msg64, outbox_size> m{};
};
struct alignas(4096) batch_outbox {
  std::array<std::array<Msg64, batch>, 2> m{};  // one numbered, one going out
};
inline void number(Msg64& m, unsigned producer, std::uint64_t seq) {
  m.words[0] = producer;
  m.words[1] = seq;
}

/// Producer `id` with push(const Msg64&) -> bool, one message per call.
template <class Push>
void produce_single(pxc_sync& sync, unsigned id, std::uint64_t n, Push push) {
  auto box = fresh_outbox<single_outbox>();
  auto& out = box->m;
  for (std::uint64_t i = 0; i < ahead; ++i) number(out[i], id, i);
  unsigned waits = 0;
  const std::uint64_t sent = [&]() -> std::uint64_t {  // n, or fewer when the move is called off
    if (!sync.arrive_and_wait(id)) return 0;
    for (std::uint64_t i = 0; i < n; ++i) {
      number(out[(i + ahead) % outbox_size], id, i + ahead);
      while (!push(out[i % outbox_size])) {
        if (!sync.keep_waiting(id, waits, [i] { return i; })) return i;
      }
    }
    return n;
  }();
  sync.full_polls.fetch_add(waits, std::memory_order_relaxed);
  if (sent == n) sync.producers_done.fetch_add(1, std::memory_order_acq_rel);
  sync.leave(id, sent);
}

/// Producer `id` with push_n(const Msg64*, n) -> accepted, up to `batch` per call.
template <class PushN>
void produce_batched(pxc_sync& sync, unsigned id, std::uint64_t n, PushN push_n) {
  auto box = fresh_outbox<batch_outbox>();
  auto& out = box->m;
  for (std::size_t k = 0; k < batch; ++k) number(out[0][k], id, k);
  unsigned waits = 0;
  const std::uint64_t sent = [&]() -> std::uint64_t {
    if (!sync.arrive_and_wait(id)) return 0;
    for (std::uint64_t i = 0, b = 0; i < n; i += batch, ++b) {
      auto& in = out[b % 2];
      for (std::size_t k = 0; k < batch; ++k) number(out[(b + 1) % 2][k], id, i + batch + k);
      const std::size_t len = static_cast<std::size_t>(std::min<std::uint64_t>(batch, n - i));
      std::size_t done = 0;
      while (done < len) {
        const std::size_t put = push_n(in.data() + done, len - done);
        if (put == 0 && !sync.keep_waiting(id, waits, [i, done] { return i + done; })) return i + done;
        done += put;
      }
    }
    return n;
  }();
  sync.full_polls.fetch_add(waits, std::memory_order_relaxed);
  if (sent == n) sync.producers_done.fetch_add(1, std::memory_order_acq_rel);
  sync.leave(id, sent);
}

/// Takes single messages with pop(Msg64&) -> bool until every producer is done and a pop after
/// that finds nothing, or the move is called off (`sync` null: the benchmark thread's drain, alone
/// on the queue; `self` is the consumer's thread number, P + its index).
template <class Pop>
void consume_single(pxc_sync* sync, unsigned self, Pop& pop, tally& t, unsigned& waits) {
  Msg64 m{};
  for (;;) {
    if (pop(m)) {
      take(m);
      t.see(m);
      continue;
    }
    if (sync == nullptr || sync->producers_done.load(std::memory_order_acquire) == sync->shape.producers) {
      if (pop(m)) {
        take(m);
        t.see(m);
        continue;
      }
      return;
    }
    if (!sync->keep_waiting(self, waits, [&t] { return t.count(); })) return;
  }
}

/// As consume_single with pop_n(Msg64*, n) -> received, up to `batch` per call.
template <class PopN>
void consume_batched(pxc_sync* sync, unsigned self, PopN& pop_n, tally& t, unsigned& waits) {
  std::array<Msg64, batch> out{};
  for (;;) {
    std::size_t got = pop_n(out.data(), batch);
    if (got == 0) {
      if (sync != nullptr && sync->producers_done.load(std::memory_order_acquire) != sync->shape.producers) {
        if (!sync->keep_waiting(self, waits, [&t] { return t.count(); })) return;
        continue;
      }
      got = pop_n(out.data(), batch);
      if (got == 0) return;
    }
    take(out);
    for (std::size_t k = 0; k < got; ++k) t.see(out[k]);
  }
}

/// Runs thread `self`'s body, keeping what it throws for the benchmark thread (pxc_sync::fail):
/// an exception leaving a std::thread's body would std::terminate the process.
template <class Body>
void guard_thread(pxc_sync& sync, unsigned self, Body& body) noexcept {
  try {
    body();
  } catch (const std::exception& e) {
    sync.fail(self, e.what());
  } catch (...) {
    sync.fail(self, "an exception not derived from std::exception");
  }
}

/// The contenders' adapters: make_push(i) is producer i's push (or push_n), make_pop(j) consumer
/// j's pop (or pop_n); each thread gets its own, and the drain uses make_pop(0) after the join.
template <bool Batched, class MakePush, class MakePop>
double move_pxc(const pxc_shape& shape, const std::string& name, MakePush& make_push, MakePop& make_pop,
                pxc_stats& stats) {
  pxc_sync sync(shape, name);
  std::vector<tally> tallies(shape.consumers + 1, tally(shape.producers, shape.per_producer(), ""));
  pxc_threads threads(sync);  // declared after what its threads use: destroyed (joined) first
  for (unsigned i = 0; i < shape.producers; ++i) {
    constexpr int fault = pxc_fault == 1 || pxc_fault == 3 ? pxc_fault : 0;
    threads.start([&sync, &shape, i, push = with_fault<fault>(make_push(i), i == 0)]() mutable {
      auto body = [&] {
        if constexpr (Batched) {
          produce_batched(sync, i, shape.per_producer(), push);
        } else {
          produce_single(sync, i, shape.per_producer(), push);
        }
      };
      guard_thread(sync, i, body);
    });
  }
  for (unsigned j = 0; j < shape.consumers; ++j) {
    constexpr int fault = pxc_fault == 2 ? pxc_fault : 0;
    threads.start([&sync, &shape, &name, &tallies, j, pop = with_fault<fault>(make_pop(j), j == 0)]() mutable {
      const unsigned self = shape.producers + j;
      auto body = [&] {
        tally t(shape.producers, shape.per_producer(), name + ": consumer " + std::to_string(j));
        unsigned waits = 0;
        if (sync.arrive_and_wait(self)) {
          if constexpr (Batched) {
            consume_batched(&sync, self, pop, t, waits);
          } else {
            consume_single(&sync, self, pop, t, waits);
          }
        }
        sync.empty_polls.fetch_add(waits, std::memory_order_relaxed);
        const std::uint64_t took = t.count();
        tallies[j] = std::move(t);
        sync.leave(self, took);
      };
      guard_thread(sync, self, body);
    });
  }
  unsigned waits = 0;  // a thread that failed before it was ready has set stop
  while (sync.ready.load(std::memory_order_acquire) != shape.threads() && !sync.stop.load(std::memory_order_acquire)) {
    spin_pause(waits);
  }
  const auto t0 = std::chrono::steady_clock::now();
  sync.go.store(true, std::memory_order_release);
  const std::string stalled = watch(sync);
  threads.join();
  if (!sync.thread_error.empty()) throw std::runtime_error(name + ": " + sync.thread_error);
  if (!stalled.empty()) throw std::runtime_error(name + ": " + stalled);
  if (!sync.pin_error.empty()) throw std::runtime_error(name + ": " + sync.pin_error);
  tally& drain = tallies[shape.consumers];
  drain = tally(shape.producers, shape.per_producer(), name + ": the drain after the join");
  auto pop = make_pop(0);
  unsigned drain_waits = 0;
  if constexpr (Batched) {
    consume_batched(nullptr, 0, pop, drain, drain_waits);
  } else {
    consume_single(nullptr, 0, pop, drain, drain_waits);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::string error = delivery_error(shape, tallies);
  if (!error.empty()) throw std::runtime_error(error.find(name) == 0 ? error : name + ": " + error);
  stats.drained += drain.count();
  stats.empty_polls += sync.empty_polls.load();
  stats.full_polls += sync.full_polls.load();
  stats.moved += shape.per_producer() * shape.producers;
  return seconds;
}

/// Fills the queue through every producer's push in turn until each refuses (no consumer running),
/// then empties it through consumer 0's pop; returns how many it held. With one ProducerToken per
/// producer this also gives every producer blocks of ConcurrentQueue's own, which it keeps.
template <class MakePush, class MakePop>
double pxc_capacity(const pxc_shape& shape, MakePush& make_push, MakePop& make_pop) {
  using push_t = decltype(make_push(0u));
  std::vector<push_t> push;
  for (unsigned i = 0; i < shape.producers; ++i) push.push_back(make_push(i));
  std::vector<bool> refused(shape.producers, false);
  const Msg64 m{};
  std::uint64_t held = 0;
  for (unsigned open = shape.producers; open != 0 && held < 64 * capacity;) {
    for (unsigned i = 0; i < shape.producers; ++i) {
      if (refused[i]) continue;
      if (push[i](m)) {
        ++held;
      } else {
        refused[i] = true;
        --open;
      }
    }
  }
  auto pop = make_pop(0u);
  Msg64 out{};
  for (std::uint64_t i = 0; i < held; ++i) {
    if (!pop(out)) {
      throw std::runtime_error("capacity fill: held " + std::to_string(held) + ", gave back " + std::to_string(i));
    }
  }
  return static_cast<double>(held);
}

/// A PxC contender: the paired.h contender plus its row counters.
struct pxc_contender {
  contender c;
  std::shared_ptr<pxc_stats> stats;
};

/// A contender moving single messages: make_push(i) -> push(const Msg64&) -> bool, make_pop(j) ->
/// pop(Msg64&) -> bool. Its capacity is measured here, before the row runs.
template <class MakePush, class MakePop>
pxc_contender pxc_single(std::string name, bool ours, pxc_shape shape, MakePush make_push, MakePop make_pop) {
  auto stats = std::make_shared<pxc_stats>();
  stats->capacity = pxc_capacity(shape, make_push, make_pop);
  return {contender{name, ours,
                    [=](polls&) mutable { return move_pxc<false>(shape, name, make_push, make_pop, *stats); }},
          stats};
}
/// A contender moving batches: make_push_n(i) -> push_n(const Msg64*, n) -> accepted, make_pop_n(j)
/// -> pop_n(Msg64*, n) -> received; make_push / make_pop as for pxc_single, for the capacity.
template <class MakePush, class MakePop, class MakePushN, class MakePopN>
pxc_contender pxc_batched(std::string name, bool ours, pxc_shape shape, MakePush make_push, MakePop make_pop,
                          MakePushN make_push_n, MakePopN make_pop_n) {
  auto stats = std::make_shared<pxc_stats>();
  stats->capacity = pxc_capacity(shape, make_push, make_pop);
  return {contender{name, ours,
                    [=](polls&) mutable { return move_pxc<true>(shape, name, make_push_n, make_pop_n, *stats); }},
          stats};
}

/// run_paired (paired.h) over the contenders, plus per contender: capacity_<name> (measured, see
/// pxc_capacity), drained_<name> (messages the drain took, over the row), and the polls per message.
inline void run_pxc(benchmark::State& state, const std::vector<pxc_contender>& contenders) {
  std::vector<contender> c;
  for (const auto& x : contenders) c.push_back(x.c);
  run_paired(state, c);
  for (const auto& x : contenders) {
    const auto& s = *x.stats;
    const double moved = static_cast<double>(std::max<std::uint64_t>(s.moved, 1));
    state.counters["capacity_" + x.c.name] = s.capacity;
    state.counters["drained_" + x.c.name] = static_cast<double>(s.drained);
    state.counters["empty_polls_per_msg_" + x.c.name] = static_cast<double>(s.empty_polls) / moved;
    state.counters["full_polls_per_msg_" + x.c.name] = static_cast<double>(s.full_polls) / moved;
  }
}

}  // namespace rkbench
