// Copyright RingKernel authors.
// What BasicMessageQueue's calls (message_queue.h) do where the ring does not settle them: a send
// that finds the ring full applies the queue's FullPolicy, a receive that finds it empty reports
// closed / empty or waits (docs/messaging.md §4, the full-queue policy table and "Shutdown").
#pragma once

#include <cstddef>
#include <functional>

#include "ringkernel/queue/backoff.h"
#include "ringkernel/queue/queue_checks.h"
#include "ringkernel/queue/queue_counters.h"
#include "ringkernel/queue/queue_types.h"

namespace ringkernel::detail {

/// A send found no room: wait (ok = try again) unless it may not (full).
inline SendStatus wait_for_room(backoff& wait, bool may_wait) {
  if (!may_wait) return SendStatus::full;
  switch (wait.pause()) {
    case backoff::outcome::retry: return SendStatus::ok;
    case backoff::outcome::timeout: return SendStatus::timeout;
    case backoff::outcome::stopped: return SendStatus::stopped;
  }
  return SendStatus::full;
}

/// The ring was full: apply the policy. ok = try again. drop_oldest evicts one message (counted in
/// `evicted` and `stats`, shown to `on_evict`, which must not throw: call_eviction_handler).
template <class Ring>
SendStatus on_full(Ring& ring, FullPolicy policy, queue_counters& stats,
                   const std::function<void(const typename Ring::value_type&)>& on_evict, std::size_t& evicted,
                   backoff& wait, bool may_wait, const char* call) {
  if (ring.closed()) return SendStatus::closed;
  switch (policy) {
    case FullPolicy::reject: return SendStatus::full;
    case FullPolicy::drop_newest: return SendStatus::dropped_newest;
    case FullPolicy::drop_oldest: {
      // Evict only when the ring is full by its indices: then the oldest queued message is in the
      // slot this push needs. Otherwise a consumer has claimed that slot's message and not yet
      // released the slot (a preempted thread, a kernel): evicting others would not free it, so
      // wait for the consumer as block does.
      if (ring.size() >= ring.capacity()) {
        typename Ring::value_type oldest;
        if (ring.try_pop(oldest)) {
          ++evicted;
          stats.count_evicted(1);  // after the pop: see queue_counters::snapshot
          call_eviction_handler(on_evict, oldest, call);  // noexcept: aborts if it throws
          return SendStatus::ok;
        }
      }
      return wait_for_room(wait, may_wait);
    }
    case FullPolicy::block: return wait_for_room(wait, may_wait);
  }
  return SendStatus::full;
}

/// The ring looked empty: ok = try again.
template <class Ring>
ReceiveStatus empty_outcome(const Ring& ring, backoff& wait, bool may_wait) {
  // Closed first, then empty: anything sent before the close was seen is claimed by now. Closed
  // but not empty: a producer claimed a position and has not published it yet (MpmcQueue), so
  // wait for it as for any message, under the same timeout and stop token.
  if (ring.closed() && ring.size() == 0) return ReceiveStatus::closed;
  if (!may_wait) return ReceiveStatus::empty;
  switch (wait.pause()) {
    case backoff::outcome::retry: return ReceiveStatus::ok;
    case backoff::outcome::timeout: return ReceiveStatus::timeout;
    case backoff::outcome::stopped: return ReceiveStatus::stopped;
  }
  return ReceiveStatus::empty;
}

}  // namespace ringkernel::detail
