// Copyright RingKernel authors.
// An executable model of what docs/messaging.md §4 says one host thread sees from a message queue
// (BasicMessageQueue / P2PMessageQueue): a std::deque of message numbers and the statistics each
// call must leave. queue_model_run.h drives a real queue and this model with the same random calls
// and compares every result. Written from the docs, not from the code: where they disagree, the
// docs decide (and say what a user may rely on).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "ringkernel/queue/queue_types.h"

namespace queue_model {

using ringkernel::FullPolicy;
using ringkernel::ReceiveStatus;
using ringkernel::SendStatus;

/// How a call may wait when it cannot complete at once. With one thread nothing changes while it
/// waits, so a wait ends by its deadline (a zero or tiny timeout) or at once by the stop token.
enum class Wait : std::uint8_t {
  never,    // try_send / try_send_batch / try_receive / try_receive_batch
  timeout,  // send / receive / *_batch with a timeout that passes: timeout
  stop,     // with a stop token already requested (and a long timeout): stopped
};

/// What a KernelMessage's header.timestamp_us makes of it in the latency statistics.
enum class Stamp : std::uint8_t {
  none,          // 0: never stamped, no latency
  past,          // before the receiver's clock: one latency sample
  ahead,         // after the receiver's clock: counted in latency.stamped_ahead
  before_epoch,  // negative (before the epoch): counted in latency.stamped_before_epoch
};

/// The statistics a single thread can predict exactly (QueueStatistics; latency: its counts only).
struct Stats {
  std::uint64_t sent = 0, received = 0, rejected_full = 0, dropped_newest = 0, dropped_oldest = 0, cleared = 0,
                timed_out = 0, stopped = 0, rejected_closed = 0, send_batches = 0, receive_batches = 0;
  bool detailed = false;
  std::uint64_t high_water_mark = 0, latency_samples = 0, stamped_ahead = 0, stamped_before_epoch = 0;
  friend bool operator==(const Stats&, const Stats&) = default;
  Stats& operator+=(const Stats& o) {
    sent += o.sent, received += o.received, rejected_full += o.rejected_full, dropped_newest += o.dropped_newest;
    dropped_oldest += o.dropped_oldest, cleared += o.cleared, timed_out += o.timed_out, stopped += o.stopped;
    rejected_closed += o.rejected_closed, send_batches += o.send_batches, receive_batches += o.receive_batches;
    latency_samples += o.latency_samples, stamped_ahead += o.stamped_ahead;
    stamped_before_epoch += o.stamped_before_epoch;
    return *this;
  }
};

struct SendOutcome {
  SendStatus status = SendStatus::ok;
  std::size_t accepted = 0;            // send: 1 or 0; send_batch: the prefix enqueued
  std::vector<std::uint64_t> evicted;  // drop_oldest: in eviction order
};

struct ReceiveOutcome {
  ReceiveStatus status = ReceiveStatus::ok;
  std::vector<std::uint64_t> messages;
};

class Model {
 public:
  /// stamp_of: the latency class of a message number (KernelMessage payloads); empty for payloads
  /// the latency statistics do not look at.
  Model(std::size_t capacity, FullPolicy policy, bool detailed, std::function<Stamp(std::uint64_t)> stamp_of = {})
      : capacity_(capacity), policy_(policy), stamp_of_(std::move(stamp_of)) {
    stats_.detailed = detailed;
  }

  /// send / try_send (batch = false, one id) and send_batch (batch = true). Messages are taken in
  /// order; when the queue is full the policy decides for the message at hand: drop_oldest evicts
  /// the oldest queued message (a batch longer than the queue evicts its own first messages) and
  /// goes on; the other policies end the call, and every message not enqueued is counted under
  /// the reason the status names. After shutdown nothing is enqueued and every message offered is
  /// counted in rejected_closed (an empty batch too returns closed).
  SendOutcome send(std::span<const std::uint64_t> ids, Wait wait, bool batch) {
    SendOutcome r;
    if (closed_) {
      r.status = SendStatus::closed;
      stats_.rejected_closed += ids.size();
      return r;
    }
    for (const std::uint64_t id : ids) {
      if (queue_.size() == capacity_) {
        r.status = full_outcome(wait);
        if (r.status == SendStatus::ok) {  // drop_oldest
          r.evicted.push_back(queue_.front());
          queue_.pop_front();
          ++stats_.dropped_oldest;
        } else {
          refused(r.status) += ids.size() - r.accepted;
          break;
        }
      }
      queue_.push_back(id);
      ++r.accepted;
      ++stats_.sent;
      note_occupancy();
    }
    if (batch && r.accepted != 0) ++stats_.send_batches;
    return r;
  }

  /// receive / try_receive (batch = false, max 1) and receive_batch / try_receive_batch: the
  /// oldest messages, up to max (a batch takes what is queued, at least one, with one claim). An
  /// empty request (max 0) returns ok at once whatever the state. Nothing queued: closed once
  /// shut down (before any waiting), else per `wait`: empty / timeout / stopped.
  ReceiveOutcome receive(std::size_t max, Wait wait, bool batch) {
    ReceiveOutcome r;
    if (max == 0) return r;
    if (queue_.empty()) {
      r.status = closed_                ? ReceiveStatus::closed
                 : wait == Wait::never  ? ReceiveStatus::empty
                 : wait == Wait::timeout ? ReceiveStatus::timeout
                                         : ReceiveStatus::stopped;
      return r;
    }
    note_occupancy();  // sampled before the receive
    while (r.messages.size() < max && !queue_.empty()) {
      const std::uint64_t id = queue_.front();
      queue_.pop_front();
      r.messages.push_back(id);
      ++stats_.received;
      if (stats_.detailed && stamp_of_) {
        const Stamp s = stamp_of_(id);
        if (s == Stamp::past) ++stats_.latency_samples;
        if (s == Stamp::ahead) ++stats_.stamped_ahead;
        if (s == Stamp::before_epoch) ++stats_.stamped_before_epoch;
      }
    }
    if (batch) ++stats_.receive_batches;
    return r;
  }

  /// The oldest message, not removed.
  std::optional<std::uint64_t> peek() const {
    if (queue_.empty()) return std::nullopt;
    return queue_.front();
  }

  /// Removes everything queued, counts it as cleared, returns how many (also after shutdown).
  std::size_t clear() {
    const std::size_t n = queue_.size();
    stats_.cleared += n;
    queue_.clear();
    return n;
  }

  void shutdown() { closed_ = true; }

  bool closed() const { return closed_; }
  std::size_t count() const { return queue_.size(); }
  bool full() const { return queue_.size() == capacity_; }
  std::size_t capacity() const { return capacity_; }
  FullPolicy policy() const { return policy_; }
  const std::deque<std::uint64_t>& queued() const { return queue_; }
  const Stats& stats() const { return stats_; }

 private:
  SendStatus full_outcome(Wait wait) const {
    switch (policy_) {
      case FullPolicy::drop_oldest: return SendStatus::ok;
      case FullPolicy::reject: return SendStatus::full;
      case FullPolicy::drop_newest: return SendStatus::dropped_newest;
      case FullPolicy::block: break;
    }
    // block: try_send never waits and is refused as full.
    return wait == Wait::never ? SendStatus::full : wait == Wait::timeout ? SendStatus::timeout : SendStatus::stopped;
  }
  std::uint64_t& refused(SendStatus s) {
    switch (s) {
      case SendStatus::full: return stats_.rejected_full;
      case SendStatus::dropped_newest: return stats_.dropped_newest;
      case SendStatus::timeout: return stats_.timed_out;
      case SendStatus::stopped: return stats_.stopped;
      default: return stats_.rejected_closed;
    }
  }
  // detailed_statistics: the most messages queued at any moment (one thread: every rise is a send,
  // and the queue samples after each).
  void note_occupancy() {
    if (stats_.detailed) stats_.high_water_mark = std::max<std::uint64_t>(stats_.high_water_mark, queue_.size());
  }

  std::size_t capacity_;
  FullPolicy policy_;
  std::function<Stamp(std::uint64_t)> stamp_of_;
  std::deque<std::uint64_t> queue_;
  bool closed_ = false;
  Stats stats_;
};

}  // namespace queue_model
