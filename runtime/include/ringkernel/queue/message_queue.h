// Copyright RingKernel authors.
// ringkernel::BasicMessageQueue<Ring>: a host-side owner of one lock-free ring (mpmc_ring or
// spsc_ring) with a full-queue policy, blocking calls (timeout + std::stop_token), shutdown and
// statistics. Aliases: MpmcQueue<T> (any number of producers and consumers) and SpscQueue<T> (one
// producer thread and one consumer thread; cheaper). The ring itself can be handed to kernels
// (ring()) when the storage is device-accessible (QueueMemory::pinned or device); MpmcQueue's
// kernel_ring() is the view to hand them on pinned memory (claims at device scope, see below).
//
// Semantics: docs/messaging.md §4 (full-queue policies, blocking calls, shutdown() and draining,
// clear(), QueueUsers, SpscQueue's one-thread-per-side rule and RINGKERNEL_QUEUE_CHECKS, the
// eviction handler, which must not throw). Every send outcome but ok is counted in statistics().
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "ringkernel/detail/stop_token.h"
#include "ringkernel/detail/to_size.h"
#include "ringkernel/error.h"
#include "ringkernel/kernel_message.h"
#include "ringkernel/queue/backoff.h"
#include "ringkernel/queue/latency_histogram.h"
#include "ringkernel/queue/mpmc_ring.h"
#include "ringkernel/queue/queue_checks.h"
#include "ringkernel/queue/queue_counters.h"
#include "ringkernel/queue/queue_options.h"
#include "ringkernel/queue/queue_policy.h"
#include "ringkernel/queue/queue_storage.h"
#include "ringkernel/queue/queue_timeout.h"
#include "ringkernel/queue/queue_types.h"
#include "ringkernel/queue/queue_users.h"
#include "ringkernel/queue/spsc_ring.h"
#include "ringkernel/wall_clock.h"

// try_send / try_receive are inlined into the caller, their slow paths (send_one, receive_one) are not: left to
// themselves, clang inlined neither (0.72-0.79x the bare ring), GCC 12 the slow path into try_receive (0.45-0.55x).
#if defined(__GNUC__) || defined(__clang__)
#define RINGKERNEL_QUEUE_FAST_PATH [[gnu::always_inline]]
#define RINGKERNEL_QUEUE_SLOW_PATH [[gnu::noinline]]
#else
#define RINGKERNEL_QUEUE_FAST_PATH
#define RINGKERNEL_QUEUE_SLOW_PATH
#endif

namespace ringkernel {

template <class Ring>
class BasicMessageQueue {
 public:
  using ring_type = Ring;
  using value_type = typename Ring::value_type;
  using T = value_type;
  using duration = std::chrono::nanoseconds;

  // RINGKERNEL_QUEUE_CHECKS is read only here, as Checks' default: a constructor symbol per setting (queue_checks.h).
  template <bool Checks = (RINGKERNEL_QUEUE_CHECKS != 0)>
  explicit BasicMessageQueue(QueueOptions options = {})
      : options_(validated(options)),
        storage_(host_reachable_storage(options_)),
        plain_send_(plain_side(options_.producers, checked(Checks, Ring::multi_producer))),
        plain_receive_(plain_side(options_.consumers, checked(Checks, Ring::multi_consumer))),
        producer_check_(checked(Checks, Ring::multi_producer)),
        consumer_check_(checked(Checks, Ring::multi_consumer)) {
    ring_ = Ring::initialize(storage_.data(), options_.capacity, options_.start_position);
  }
  BasicMessageQueue(const BasicMessageQueue&) = delete;
  BasicMessageQueue& operator=(const BasicMessageQueue&) = delete;

  /// Called with each message drop_oldest evicts, on the sending thread (set before sending). It
  /// must not throw: one that does ends the process (std::abort, after a line on stderr). Throws
  /// Error(unsupported) where producers are QueueUsers::kernels (no host send, no policy applied).
  void set_eviction_handler(std::function<void(const T&)> handler) {
    host_producer("BasicMessageQueue::set_eviction_handler");
    on_evict_ = std::move(handler);
  }

  // Single sends and receives try the ring first, after one test of a flag that says this side may
  // (plain_send_ / plain_receive_: host threads work the side, no detailed statistics are kept and
  // no SpscQueue concurrent-use check is made);
  // the side's user check, waiting, policies and statistics only when that does not settle the call
  // (bench/RESULTS.md: without the ring first, 0.76x the bare ring; with the user and detailed tests
  // made apart on every call, 0.82-0.90x the rate of this one test).
  RINGKERNEL_QUEUE_FAST_PATH SendResult try_send(const T& value) {
    if (plain_send_ && !ring_.closed() && ring_.try_push(value)) [[likely]] return {};
    host_producer("BasicMessageQueue::try_send");
    return send_one(value, duration::zero(), no_stop(), false);
  }
  template <class Rep = duration::rep, class Period = duration::period>
  SendResult send(const T& value, std::chrono::duration<Rep, Period> timeout = default_queue_timeout,
                  std::stop_token stop = {}) {
    if (plain_send_ && !ring_.closed() && ring_.try_push(value)) [[likely]] return {};
    host_producer("BasicMessageQueue::send");
    return send_one(value, saturating_nanoseconds(timeout), stop, true);
  }

  /// Enqueues values in order, as many per claim as fit (one claim and, for SpscQueue, one publish
  /// per chunk). With block, waits for room until the deadline; other policies act on the rest as
  /// for single sends (drop_newest discards the rest, drop_oldest evicts to make room).
  template <class Rep = duration::rep, class Period = duration::period>
  BatchSendResult send_batch(std::span<const T> values,
                             std::chrono::duration<Rep, Period> timeout = default_queue_timeout,
                             std::stop_token stop = {}) {
    host_producer("BasicMessageQueue::send_batch");
    return send_many(values, saturating_nanoseconds(timeout), stop, true);
  }
  /// Never waits: as send_batch, but where block would wait the rest is refused, `full` (as try_send).
  BatchSendResult try_send_batch(std::span<const T> values) {
    host_producer("BasicMessageQueue::try_send_batch");
    return send_many(values, duration::zero(), no_stop(), false);
  }

  RINGKERNEL_QUEUE_FAST_PATH ReceiveStatus try_receive(T& out) {
    if (plain_receive_ && ring_.try_pop(out)) [[likely]] return ReceiveStatus::ok;
    host_consumer("BasicMessageQueue::try_receive");
    return receive_one(out, duration::zero(), no_stop(), false);
  }
  template <class Rep = duration::rep, class Period = duration::period>
  ReceiveStatus receive(T& out, std::chrono::duration<Rep, Period> timeout = default_queue_timeout,
                        std::stop_token stop = {}) {
    if (plain_receive_ && ring_.try_pop(out)) [[likely]] return ReceiveStatus::ok;
    host_consumer("BasicMessageQueue::receive");
    return receive_one(out, saturating_nanoseconds(timeout), stop, true);
  }

  /// Waits (until the deadline) for at least one message, then takes up to out.size() with one claim.
  template <class Rep = duration::rep, class Period = duration::period>
  BatchReceiveResult receive_batch(std::span<T> out, std::chrono::duration<Rep, Period> timeout = default_queue_timeout,
                                   std::stop_token stop = {}) {
    host_consumer("BasicMessageQueue::receive_batch");
    const side_scope in_use(consumer_check_, "BasicMessageQueue::receive_batch", "consumer");
    return receive_many(out, saturating_nanoseconds(timeout), stop, true);
  }
  /// Never waits: `empty` where receive_batch would wait (a zero timeout there is `timeout`, as for receive).
  BatchReceiveResult try_receive_batch(std::span<T> out) {
    host_consumer("BasicMessageQueue::try_receive_batch");
    const side_scope in_use(consumer_check_, "BasicMessageQueue::try_receive_batch", "consumer");
    return receive_many(out, duration::zero(), no_stop(), false);
  }

  /// The oldest message without removing it; only while no other consumer runs.
  bool try_peek(T& out) const {
    host_consumer("BasicMessageQueue::try_peek");
    const side_scope in_use(consumer_check_, "BasicMessageQueue::try_peek", "consumer");
    return ring_.try_peek(out);
  }

  std::size_t clear() {
    host_consumer("BasicMessageQueue::clear");
    const side_scope in_use(consumer_check_, "BasicMessageQueue::clear", "consumer");
    // At most what was queued at entry (read once): a producer sending meanwhile cannot keep it going.
    std::size_t left = count(), removed = 0;
    T scratch[16];
    // Counted per batch: a statistics() snapshot taken meanwhile is off by at most one batch.
    while (const std::size_t n = left == 0 ? 0 : ring_.try_pop_batch(scratch, left < 16 ? left : 16)) {
      removed += n;
      left -= n;
      stats_.count_cleared(n);  // after the pops: see queue_counters::snapshot
    }
    return removed;
  }

  void shutdown() noexcept { ring_.close(); }
  bool is_shut_down() const noexcept { return ring_.closed(); }

  std::size_t capacity() const noexcept { return options_.capacity; }
  std::size_t count() const noexcept { return detail::to_size(ring_.size()); }
  bool is_empty() const noexcept { return count() == 0; }
  bool is_full() const noexcept { return count() >= capacity(); }
  FullPolicy policy() const noexcept { return options_.policy; }
  const QueueOptions& options() const noexcept { return options_; }
  const QueueStorage& storage() const noexcept { return storage_; }
  /// The ring, for device code or direct lock-free use (same memory, same rules). Its claims are
  /// system scope: for kernels of an MpmcQueue in pinned memory use kernel_ring() instead, unless
  /// a side is host_and_kernels (then the device has host-native atomics: construction checked).
  Ring ring() const noexcept { return ring_; }

  /// MpmcQueue: the ring over the same memory as kernels should use it when each side is worked
  /// by host threads OR kernels (QueueUsers::host / kernels): claims (head / tail read-modify-writes)
  /// at device scope, slot sequence words, the closed flag and fences at system scope
  /// (mpmc_ring.h, top). On pinned memory of a device without host-native atomics (PCIe), a
  /// system-scope claim is not atomic at system scope and compute-sanitizer memcheck rejects it;
  /// a device-scope one is atomic among that GPU's threads, which are the only claimers of a side
  /// declared kernels (the kernels of producer_device_of / consumer_device_of: one GPU per side).
  /// Host threads keep using the queue's calls (the host ignores scope). Throws Error: unsupported
  /// when a side is host_and_kernels (host threads and kernels claim one index: only ring()'s
  /// system scope, with host-native atomics, is right), invalid_argument when no side is declared
  /// for kernels (there is nothing to hand them); before both, invalid_argument on QueueMemory::host
  /// (kernels cannot reach it; with a kernels side construction refuses it already).
  using kernel_ring_type = mpmc_ring<T, atomic_scope::system, atomic_scope::device>;
  kernel_ring_type kernel_ring() const
    requires(Ring::multi_producer && Ring::scope == atomic_scope::system)
  {
    detail::check_kernel_ring("BasicMessageQueue::kernel_ring", options_.producers, options_.consumers,
                              producer_device_of(options_), consumer_device_of(options_), options_.memory);
    return kernel_ring_type(storage_.data(), options_.capacity);
  }

  QueueStatistics statistics() const {
    QueueStatistics s = stats_.snapshot(ring_, options_.start_position, sizeof(T));
    s.detailed = detailed();
    if (s.detailed) {
      s.high_water_mark = stats_.high_water_mark.load(std::memory_order_relaxed);
      s.latency = latency_.summary();
    }
    return s;
  }

  /// Throws Error (invalid_argument / unsupported) for options no queue on this ring type accepts.
  static void validate(const QueueOptions& o) {
    detail::validate_queue_options(o, Ring::multi_producer, Ring::multi_consumer, Ring::max_capacity);
  }

 private:
  static QueueOptions validated(QueueOptions o) {
    validate(o);
    return o;
  }
  // Memory host threads cannot reach (CUDA device memory) is refused before a ring too large is out of memory.
  static QueueStorage host_reachable_storage(const QueueOptions& o) {
    if (!QueueStorage::host_accessible_memory(o.memory, o.device)) {
      throw Error(errc::unsupported, "BasicMessageQueue", o.device,
                  "host threads cannot access CUDA device memory: use QueueMemory::pinned for a queue with "
                  "host-side senders or receivers");
    }
    return detail::ring_storage("BasicMessageQueue", o.memory, o.device, o.capacity, Ring::bytes_for(o.capacity));
  }
  bool plain_side(QueueUsers users, bool side_checked) const noexcept {
    return has_host(users) && !options_.detailed_statistics && !side_checked;
  }

  // A token no one can stop (no shared state: nothing to allocate or release).
  static std::stop_token no_stop() noexcept { return {}; }
  bool detailed() const noexcept { return options_.detailed_statistics; }
  void host_producer(const char* call) const {
    if (!has_host(options_.producers)) [[unlikely]] detail::throw_host_not_a_user(call, "producers", options_, Ring::multi_producer);
  }
  void host_consumer(const char* call) const {
    if (!has_host(options_.consumers)) [[unlikely]] detail::throw_host_not_a_user(call, "consumers", options_, Ring::multi_producer);
  }

  using side_scope = detail::side_use_check::scope;  // holds a side for one call (queue_checks.h)
  // SpscQueue's concurrent-use check (queue_checks.h) is on for this side (MPMC sides need none).
  static constexpr bool checked(bool checks, bool multi) noexcept { return checks && !multi; }

  // The fast paths call the slow ones with what they had (may_wait tells send from try_send, receive
  // from try_receive): RINGKERNEL_QUEUE_CHECKS changes no instruction of the fast paths.
  RINGKERNEL_QUEUE_SLOW_PATH SendResult send_one(const T& value, duration timeout, const std::stop_token& stop, bool may_wait) {
    const char* const call = may_wait ? "BasicMessageQueue::send" : "BasicMessageQueue::try_send";
    const side_scope in_use(producer_check_, call, "producer");
    SendResult result;
    if (ring_.closed()) {
      stats_.rejected_closed.fetch_add(1, std::memory_order_relaxed);
      result.status = SendStatus::closed;
      if (detailed()) note_occupancy(ring_.size());  // refused sends are sampled too
      return result;
    }
    detail::backoff wait(timeout, stop);
    while (!ring_.try_push(value)) {
      const SendStatus s = on_full(result.evicted, wait, may_wait, call);
      if (s == SendStatus::ok) continue;
      if (s == SendStatus::dropped_newest) {
        stats_.dropped_newest.fetch_add(1, std::memory_order_relaxed);
      } else {
        stats_.count_refusal(s, 1);
      }
      result.status = s;
      break;
    }
    // Sampled at sends as well: a queue that fills while nobody receives has its peak seen here.
    if (detailed()) note_occupancy(ring_.size());
    return result;
  }

  // send_batch / try_send_batch (may_wait tells them apart, as for send_one).
  BatchSendResult send_many(std::span<const T> values, duration timeout, const std::stop_token& stop, bool may_wait) {
    const char* const call = may_wait ? "BasicMessageQueue::send_batch" : "BasicMessageQueue::try_send_batch";
    const side_scope in_use(producer_check_, call, "producer");
    BatchSendResult result;
    if (ring_.closed()) {
      stats_.rejected_closed.fetch_add(values.size(), std::memory_order_relaxed);
      result.status = SendStatus::closed;
      if (detailed()) note_occupancy(ring_.size());  // refused sends are sampled too
      return result;
    }
    detail::backoff wait(timeout, stop);
    while (result.accepted < values.size()) {
      const std::size_t n = ring_.try_push_batch(values.data() + result.accepted, values.size() - result.accepted);
      result.accepted += n;
      if (result.accepted == values.size()) break;
      if (n != 0) continue;
      const SendStatus s = on_full(result.evicted, wait, may_wait, call);
      if (s == SendStatus::ok) continue;
      if (s == SendStatus::dropped_newest) {
        stats_.dropped_newest.fetch_add(values.size() - result.accepted, std::memory_order_relaxed);
      } else {
        stats_.count_refusal(s, values.size() - result.accepted);
      }
      result.status = s;
      break;
    }
    if (result.accepted != 0) stats_.send_batches.fetch_add(1, std::memory_order_relaxed);
    if (detailed()) note_occupancy(ring_.size());
    return result;
  }

  // The ring was full: apply the policy (queue_policy.h). ok = try again.
  SendStatus on_full(std::size_t& evicted, detail::backoff& wait, bool may_wait, const char* call) {
    return detail::on_full(ring_, options_.policy, stats_, on_evict_, evicted, wait, may_wait, call);
  }

  RINGKERNEL_QUEUE_SLOW_PATH ReceiveStatus receive_one(T& out, duration timeout, const std::stop_token& stop, bool may_wait) {
    const char* const call = may_wait ? "BasicMessageQueue::receive" : "BasicMessageQueue::try_receive";
    const side_scope in_use(consumer_check_, call, "consumer");
    detail::backoff wait(timeout, stop);
    for (;;) {
      const std::uint64_t before = detailed() ? ring_.size() : 0;
      if (ring_.try_pop(out)) {
        if (detailed()) {
          note_occupancy(before);
          note_latency(out);
        }
        return ReceiveStatus::ok;
      }
      if (const auto s = detail::empty_outcome(ring_, wait, may_wait); s != ReceiveStatus::ok) return s;
    }
  }

  BatchReceiveResult receive_many(std::span<T> out, duration timeout, const std::stop_token& stop, bool may_wait) {
    BatchReceiveResult result;
    if (out.empty()) return result;  // nothing asked for: ok, 0 received, no wait
    detail::backoff wait(timeout, stop);
    for (;;) {
      const std::uint64_t before = detailed() ? ring_.size() : 0;
      result.received = ring_.try_pop_batch(out.data(), out.size());
      if (result.received != 0) {
        stats_.receive_batches.fetch_add(1, std::memory_order_relaxed);
        if (detailed()) {
          note_occupancy(before);
          for (std::size_t i = 0; i < result.received; ++i) note_latency(out[i]);
        }
        return result;
      }
      if (const auto s = detail::empty_outcome(ring_, wait, may_wait); s != ReceiveStatus::ok) {
        result.status = s;
        return result;
      }
    }
  }

  void note_occupancy(std::uint64_t seen) noexcept { stats_.note_occupancy(seen); }
  void note_latency(const T& m) {
    if constexpr (is_kernel_message_v<T>) {
      // 0: never stamped, no latency to report (and no clock to read).
      const auto sent_at = m.header.timestamp_us;
      if (sent_at != 0) latency_.record_stamp(sent_at, static_cast<std::int64_t>(wall_clock_us()));
    } else {
      (void)m;
    }
  }

  QueueOptions options_;
  QueueStorage storage_;
  Ring ring_;
  // The fast paths' one test per call (set from options_, which never change): this side is worked
  // by host threads, no detailed statistics are kept and no concurrent-use check is made (the slow
  // paths make it). Beside ring_, on the line they read anyway.
  const bool plain_send_;
  const bool plain_receive_;
  detail::queue_counters stats_;
  detail::latency_histogram latency_;
  std::function<void(const T&)> on_evict_;
  // Present whatever RINGKERNEL_QUEUE_CHECKS says (one layout); read and written only where on.
  detail::side_use_check producer_check_;
  detail::side_use_check consumer_check_;
};

template <class T>
using MpmcQueue = BasicMessageQueue<mpmc_ring<T, atomic_scope::system>>;
template <class T>
using SpscQueue = BasicMessageQueue<spsc_ring<T, atomic_scope::system>>;

}  // namespace ringkernel
