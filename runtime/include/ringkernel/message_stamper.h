// Copyright RingKernel authors.
// ringkernel::MessageStamper: gives the KernelMessages of one sender their sender id, their
// per-sender sequence number (0, 1, 2, ... in stamping order), their timestamp and, for causal
// payload types, a hybrid logical clock stamp. Host and device; several threads may stamp for one
// sender concurrently (the sequence is one atomic counter, each number is given out once; the
// sequence number, the timestamp and the clock stamp are taken one after the other, so their orders
// agree per thread only: docs/messaging.md §1). As for
// HybridLogicalClock (hlc.h): host threads and kernels share one stamper in mapped pinned memory
// only where the device has host-native atomics; over PCIe a stamper kernels use lives in device
// memory (its system-scope atomics on pinned memory stop under memcheck) and each side needs its own
// sender id.
#pragma once

#include <cstdint>

#include "ringkernel/config.h"
#include "ringkernel/detail/atomic_word.h"
#include "ringkernel/hlc.h"
#include "ringkernel/kernel_message.h"
#include "ringkernel/wall_clock.h"

namespace ringkernel {

namespace detail {
// Not constexpr: a MessageStamper constructed in a constant expression (constinit, constexpr) with
// a negative sender id fails to compile with this call named in the error.
RINGKERNEL_HOST_DEVICE inline void message_stamper_sender_id_is_negative() noexcept {}
}  // namespace detail

class MessageStamper {
 public:
  /// `clock` (may be null when no payload type is causal) must outlive the stamper. constexpr, as
  /// HybridLogicalClock's (`constinit` works). In device code it lives in global or shared memory
  /// (ringkernel/hlc.h): cudaMalloc'd memory or storage it is placement-new'd into (nvcc's host-side
  /// copy of a `__device__` variable needs a default constructor, which a stamper has not).
  /// `sender_id` must be >= 0 (a sender is an identified endpoint; -1, broadcast_receiver, is a
  /// receiver id only): encode_envelope refuses a message of a negative sender and decoders reject
  /// one. A negative id fails to compile in a constant expression (constinit, constexpr); at run time
  /// (constexpr and noexcept, on host and device alike: no exception) every stamp() of the stamper
  /// returns false, so that no message leaves with it.
  RINGKERNEL_HOST_DEVICE constexpr explicit MessageStamper(std::int32_t sender_id, HybridLogicalClock* clock = nullptr) noexcept
      : sender_id_(sender_id), clock_(clock) {
    if (sender_id < 0 && __builtin_is_constant_evaluated()) detail::message_stamper_sender_id_is_negative();
  }
  MessageStamper(const MessageStamper&) = delete;
  MessageStamper& operator=(const MessageStamper&) = delete;

  /// Stamps `m` for sending. Returns false when the stamper's sender id is negative and, for a
  /// causal payload type, when the stamper has no clock or its clock's now() gives the empty stamp
  /// 0, which no causal message may carry: the clock has issued its last stamp
  /// (HybridLogicalClock::exhaustions()) or refused the wall clock's reading as out of range
  /// (HybridLogicalClock::wall_rejections(): past 2112). `m` is then left as it was and no sequence
  /// number is used up (a gap in a sender's sequence would read as a lost message to its receiver).
  /// The clock stamp is taken first for that reason (after the sender id's check, so a refused
  /// sender takes none). Clock stamp and timestamp come from one wall_clock_us() reading: on a
  /// device, its %globaltimer, uncorrected by any measured offset (stamp_at corrects it,
  /// docs/messaging.md §2). Nothing else stamps
  /// (queues and rings do not): a stamped message whose send fails has used up its number, so retry
  /// by sending the same message again, not by stamping it anew. Merge a received causal message's
  /// stamp into this stamper's clock (update(m.header.hlc)) before stamping what depends on it
  /// (docs/messaging.md §2).
  template <class T>
  [[nodiscard]] RINGKERNEL_HOST_DEVICE bool stamp(KernelMessage<T>& m) noexcept {
    return stamp_at(m, wall_clock_us());
  }
  /// As stamp(), with the caller's wall time in microseconds since the epoch for both the clock
  /// stamp (clock->now_at(wall_us)) and header.timestamp_us: on a device, wall_clock_us() corrected
  /// by the offset measure_wall_clock_offset() measured (docs/messaging.md §2). A wall time the
  /// clock refuses (HybridLogicalClock::now_at: beyond hlc_timestamp::max_remote_physical_us)
  /// makes a causal message's stamp fail as above (wrong-unit times, nanoseconds say, are caught
  /// there). A non-causal message has no clock range: its stamp fails (false, `m` and the sequence
  /// untouched) only for a wall time header.timestamp_us (int64) cannot hold, above INT64_MAX,
  /// which would read as negative; any smaller value, nanoseconds included, is written as given.
  template <class T>
  [[nodiscard]] RINGKERNEL_HOST_DEVICE bool stamp_at(KernelMessage<T>& m, std::uint64_t wall_us) noexcept {
    if (sender_id_ < 0) return false;
    if constexpr (KernelMessage<T>::causal) {
      if (clock_ == nullptr) return false;
      const hlc_timestamp clock_stamp = clock_->now_at(wall_us);
      if (clock_stamp == hlc_timestamp{}) return false;
      m.header.hlc = clock_stamp;
    } else if (wall_us > static_cast<std::uint64_t>(INT64_MAX)) {
      return false;  // no negative timestamp: the field could not hold this time
    }
    m.header.sender_id = sender_id_;
    m.header.sequence = detail::atomic_word<atomic_scope::system>(next_sequence_).fetch_add(1, detail::order::relaxed);
    m.header.timestamp_us = static_cast<std::int64_t>(wall_us);
    return true;
  }

  RINGKERNEL_HOST_DEVICE std::int32_t sender_id() const noexcept { return sender_id_; }
  /// Sequence number the next stamp gets.
  RINGKERNEL_HOST_DEVICE std::uint64_t next_sequence() const noexcept {
    return detail::atomic_word<atomic_scope::system>(const_cast<std::uint64_t&>(next_sequence_)).load(detail::order::relaxed);
  }

 private:
  alignas(8) std::uint64_t next_sequence_ = 0;
  std::int32_t sender_id_;
  HybridLogicalClock* clock_;
};

}  // namespace ringkernel
