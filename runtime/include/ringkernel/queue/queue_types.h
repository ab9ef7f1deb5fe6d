// Copyright RingKernel authors.
// Vocabulary of the message queues (docs/messaging.md): full-queue policies, where a queue's
// storage lives, per-call results and statistics. Every message a call does not deliver is named
// by that call's result and counted in the statistics; nothing is dropped silently.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace ringkernel {

/// What send() does when the queue is full. Chosen per queue.
enum class FullPolicy : std::uint8_t {
  block,        // wait for space (bounded by the call's timeout and stop_token)
  reject,       // fail the send (SendStatus::full); the caller keeps the message
  drop_oldest,  // evict the oldest queued message to make room (multi-consumer rings only)
  drop_newest,  // discard the message being sent (SendStatus::dropped_newest)
};
const char* to_string(FullPolicy p) noexcept;

/// Where a queue's slots and indices live.
enum class QueueMemory : std::uint8_t {
  host,    // ordinary host memory (host threads only)
  pinned,  // page-locked host memory of a device's backend, mapped for that backend's devices
  device,  // memory of one device (host threads can use it only on the host backend)
};
const char* to_string(QueueMemory m) noexcept;

enum class SendStatus : std::uint8_t {
  ok,              // enqueued (for drop_oldest, possibly after evicting older messages: see evicted)
  full,            // the queue was full, nothing enqueued: reject policy, or try_send / try_send_batch
                   // where a send would wait (block; drop_oldest with the oldest slot still being read)
  dropped_newest,  // drop_newest policy: the queue was full, this message was discarded
  timeout,         // block policy: no space before the deadline, nothing enqueued
  stopped,         // block policy: stop was requested, nothing enqueued
  closed,          // the queue was shut down, nothing enqueued
};
const char* to_string(SendStatus s) noexcept;

enum class ReceiveStatus : std::uint8_t {
  ok,       // a message was received
  empty,    // try_receive: nothing queued
  timeout,  // receive: nothing arrived before the deadline
  stopped,  // receive: stop was requested
  closed,   // the queue was shut down and holds no more messages
};
const char* to_string(ReceiveStatus s) noexcept;

struct SendResult {
  SendStatus status = SendStatus::ok;
  std::size_t evicted = 0;  // drop_oldest: older messages removed to make room for this one
  bool ok() const noexcept { return status == SendStatus::ok; }
};

/// send_batch, try_send_batch: messages [0, accepted) were enqueued in order; the rest were not
/// (status says why: full / dropped_newest / timeout / stopped / closed). `evicted`: as for
/// SendResult. ok(): status is ok, which is exactly when every message of the batch was enqueued
/// (accepted == the batch's size; drop_oldest possibly after evictions); an empty batch is ok
/// unless the queue is shut down (closed). Any other status means some, possibly none, went in.
struct BatchSendResult {
  SendStatus status = SendStatus::ok;
  std::size_t accepted = 0;
  std::size_t evicted = 0;
  bool ok() const noexcept { return status == SendStatus::ok; }
};

/// receive_batch, try_receive_batch: `received` messages were written to the output; status is ok
/// when at least one was. ok(): status is ok, i.e. received >= 1, or the span was empty (0
/// received, no wait, also after shutdown).
struct BatchReceiveResult {
  ReceiveStatus status = ReceiveStatus::ok;
  std::size_t received = 0;
  bool ok() const noexcept { return status == ReceiveStatus::ok; }
};

/// Latency percentiles come from a histogram of log2 buckets split into 8 linear sub-buckets:
/// p50/p99 are the upper bound of the bucket holding that rank (at most 12.5 % above the true value);
/// the mean is exact (sum / count).
struct LatencyStatistics {
  std::uint64_t samples = 0;
  double mean_us = 0.0;
  std::uint64_t p50_us = 0;
  std::uint64_t p99_us = 0;
  std::uint64_t max_us = 0;
  // Messages whose stamp was later than the receiver's clock at receipt: the sender's clock runs
  // ahead of the receiver's (a device's %globaltimer against the host's system_clock, say) or the
  // receiver's clock stepped back. Not in the figures above, which would otherwise show 0 for them.
  std::uint64_t stamped_ahead = 0;
  // Messages whose header.timestamp_us is negative (before the Unix epoch), which no MessageStamper
  // writes: a sender's bad stamp, or one a peer filled in by hand. Not in the figures either.
  // Timestamp 0 means never stamped: such messages are counted nowhere.
  std::uint64_t stamped_before_epoch = 0;
};

struct QueueStatistics {
  std::uint64_t sent = 0;             // messages enqueued
  std::uint64_t received = 0;         // messages handed to receivers
  // The four refusal counters (rejected_full, timed_out, stopped, rejected_closed) count refused
  // offers, not distinct messages: each refused call adds what it offered and did not enqueue (a
  // single send 1, a batch the rest it did not take), so a message offered again after a refusal
  // is counted once per refusal (a try_send retried on a full queue adds 1 at every try).
  std::uint64_t rejected_full = 0;    // offers refused `full` (reject policy; try_send / try_send_batch that would wait)
  std::uint64_t dropped_newest = 0;   // messages drop_newest discarded
  std::uint64_t dropped_oldest = 0;   // messages drop_oldest evicted
  std::uint64_t cleared = 0;          // messages removed by clear()
  std::uint64_t timed_out = 0;        // offers refused `timeout` (block policy: no room before the deadline)
  std::uint64_t stopped = 0;          // offers refused `stopped` (block policy: stop was requested)
  std::uint64_t rejected_closed = 0;  // offers refused `closed` (sends after shutdown)
  std::uint64_t bytes_sent = 0;
  std::uint64_t bytes_received = 0;
  std::uint64_t send_batches = 0;     // send_batch / try_send_batch calls that enqueued at least one message
  std::uint64_t receive_batches = 0;  // receive_batch calls that received at least one message
  bool detailed = false;              // the two below are tracked (QueueOptions::detailed_statistics)
  std::uint64_t high_water_mark = 0;  // most messages seen queued, after a send or before a receive
  LatencyStatistics latency;          // now - envelope timestamp at receive (KernelMessage payloads)

  /// Messages a policy or clear() discarded: dropped_newest (never enqueued, so not in `sent`) +
  /// dropped_oldest + cleared (enqueued, then removed). Refusals (rejected_full, timed_out,
  /// stopped, rejected_closed) leave the message with the caller and are not counted here. The identity the
  /// tests check is sent = received + dropped_oldest + cleared + messages still queued (count()).
  std::uint64_t dropped() const noexcept { return dropped_newest + dropped_oldest + cleared; }
};

/// Block-policy sends and blocking receives wait this long unless told otherwise.
inline constexpr std::chrono::milliseconds default_queue_timeout{1000};

}  // namespace ringkernel
