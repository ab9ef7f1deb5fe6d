// Copyright RingKernel authors.
// The counters behind BasicMessageQueue::statistics() (message_queue.h): what a queue's host-side
// calls count, and the snapshot that turns them and the ring's indices into QueueStatistics.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "ringkernel/queue/queue_types.h"
#include "ringkernel/queue/ring_control.h"

namespace ringkernel::detail {

struct alignas(queue_line_bytes) queue_counters {
  std::atomic<std::uint64_t> dropped_oldest{0}, cleared{0}, dropped_newest{0}, rejected_full{0}, timed_out{0},
      stopped{0}, rejected_closed{0}, high_water_mark{0};
  alignas(queue_line_bytes) std::atomic<std::uint64_t> send_batches{0};
  alignas(queue_line_bytes) std::atomic<std::uint64_t> receive_batches{0};

  /// Messages taken other than by receiving: counted with release, after the pops that took them
  /// (snapshot() relies on it).
  void count_evicted(std::uint64_t n) noexcept { dropped_oldest.fetch_add(n, std::memory_order_release); }
  void count_cleared(std::uint64_t n) noexcept { cleared.fetch_add(n, std::memory_order_release); }

  /// A send the queue refused (the message stays with the caller).
  void count_refusal(SendStatus s, std::size_t n) noexcept {
    switch (s) {
      case SendStatus::full: rejected_full.fetch_add(n, std::memory_order_relaxed); break;
      case SendStatus::timeout: timed_out.fetch_add(n, std::memory_order_relaxed); break;
      case SendStatus::stopped: stopped.fetch_add(n, std::memory_order_relaxed); break;
      case SendStatus::closed: rejected_closed.fetch_add(n, std::memory_order_relaxed); break;
      case SendStatus::ok:
      case SendStatus::dropped_newest: break;  // not refusals (dropped_newest is counted by the caller)
    }
  }

  void note_occupancy(std::uint64_t seen) noexcept {
    std::uint64_t m = high_water_mark.load(std::memory_order_relaxed);
    while (seen > m && !high_water_mark.compare_exchange_weak(m, seen, std::memory_order_relaxed)) {
    }
  }

  /// The counters and the ring's indices as QueueStatistics (without the detailed part). `start`:
  /// the ring's first position; `message_bytes`: sizeof one message.
  template <class Ring>
  QueueStatistics snapshot(const Ring& ring, std::uint64_t start, std::size_t message_bytes) const {
    QueueStatistics s;
    // The two counters of messages taken other than by receiving are read before the tail, with
    // acquire (their increments release, after the pops): every pop they count is in the tail read
    // below, so `received` is never below the true figure (nor wraps), at most above it by pops not
    // yet counted.
    s.dropped_oldest = dropped_oldest.load(std::memory_order_acquire);
    s.cleared = cleared.load(std::memory_order_acquire);
    s.dropped_newest = dropped_newest.load(std::memory_order_relaxed);
    s.rejected_full = rejected_full.load(std::memory_order_relaxed);
    s.timed_out = timed_out.load(std::memory_order_relaxed);
    s.stopped = stopped.load(std::memory_order_relaxed);
    s.rejected_closed = rejected_closed.load(std::memory_order_relaxed);
    s.send_batches = send_batches.load(std::memory_order_relaxed);
    s.receive_batches = receive_batches.load(std::memory_order_relaxed);
    const std::uint64_t tail = ring.tail_position();
    s.sent = ring.head_position() - start;
    const std::uint64_t taken = tail - start;  // received + evicted + cleared
    s.received = taken - s.dropped_oldest - s.cleared;
    s.bytes_sent = s.sent * message_bytes;
    s.bytes_received = s.received * message_bytes;
    return s;
  }
};

}  // namespace ringkernel::detail
