// Copyright RingKernel authors.
// The shared state at the start of every ring's memory: producer index, consumer index, the
// closed flag (with what initialize() recorded: capacity, start, kind, slot size) and the spsc
// ring's two cached indices, each on its own 128-byte line (the GPU's L2
// line; two 64-byte host lines, so no false sharing on either). Indices are 64-bit positions that
// only grow (they wrap modulo 2^64, which a queue moving 10^9 messages per second reaches after 584
// years - and the tests start near 2^64 to prove the arithmetic holds there too);
// slot = position & (capacity - 1).
#pragma once

#include <cstddef>
#include <cstdint>

#include "ringkernel/config.h"

namespace ringkernel::detail {

inline constexpr std::size_t queue_line_bytes = 128;

struct ring_control {
  alignas(queue_line_bytes) std::uint64_t head;    // next position producers write
  alignas(queue_line_bytes) std::uint64_t tail;    // next position consumers read
  alignas(queue_line_bytes) std::uint64_t closed;  // non-zero once the queue is shut down
  std::uint64_t capacity;                          // power of two
  std::uint64_t start;                             // position of the first message ever sent
  std::uint64_t kind;  // ring_kind_cas, ring_kind_ticketed (mpmc_ring) or ring_kind_spsc, written by initialize()
  std::uint64_t slot_bytes;  // sizeof(T) of the ring's element type, written by initialize()
  // spsc: each side's cache of the other side's index, on a line of its own that the other side
  // never touches. Beside the side's own index (as at first) they made the ring 1.5-1.9x slower
  // whenever the consumer was the slower side, i.e. whenever the queue runs full and the producer
  // reads tail on every push (bench/RESULTS.md, "consumer at work"; mechanism not established).
  alignas(queue_line_bytes) std::uint64_t cached_tail;  // the producer's last look at tail
  alignas(queue_line_bytes) std::uint64_t cached_head;  // the consumer's last look at head
  // Ticketed mpmc rings (device or block scope, mpmc_ring.h): credits, signed counts in two's
  // complement. free_slots: positions producers may still claim (capacity at first); published:
  // messages published and not yet claimed by a consumer. A party takes credits before it claims
  // positions with fetch_add and gives the other side's credits after it published or freed them.
  alignas(queue_line_bytes) std::uint64_t free_slots;
  alignas(queue_line_bytes) std::uint64_t published;
};
static_assert(sizeof(ring_control) == 7 * queue_line_bytes);
static_assert(offsetof(ring_control, head) == 0 * queue_line_bytes && offsetof(ring_control, tail) == 1 * queue_line_bytes &&
                  offsetof(ring_control, closed) == 2 * queue_line_bytes &&
                  offsetof(ring_control, capacity) / queue_line_bytes == 2 &&
                  offsetof(ring_control, start) / queue_line_bytes == 2 &&
                  offsetof(ring_control, kind) / queue_line_bytes == 2 &&
                  offsetof(ring_control, cached_tail) == 3 * queue_line_bytes &&
                  offsetof(ring_control, cached_head) == 4 * queue_line_bytes &&
                  offsetof(ring_control, free_slots) == 5 * queue_line_bytes &&
                  offsetof(ring_control, published) == 6 * queue_line_bytes,
              "each side's words on lines of their own; the same layout for every compiler, host and device");
static_assert(offsetof(ring_control, slot_bytes) / queue_line_bytes == 2, "slot_bytes on the closed line, beside capacity");

/// ring_control::kind: the ring design, and for an mpmc_ring how its parties claim. Views of one
/// ring's memory must all be of the kind initialize() recorded (mpmc_ring.h, top: one memory, one
/// kind of view; debug host builds assert it).
inline constexpr std::uint64_t ring_kind_cas = 0;       // Vyukov claims (a CAS on the index): system scope
inline constexpr std::uint64_t ring_kind_ticketed = 1;  // credits and fetch_add claims: device / block scope
inline constexpr std::uint64_t ring_kind_spsc = 2;      // spsc_ring: one producer, one consumer

/// Ticketed claims (mpmc_ring::claim_ticketed): the credits a party that wants up to n positions
/// takes when it sees `seen` in the count (0: none to take, the ring is full / empty to it).
RINGKERNEL_HOST_DEVICE constexpr std::uint64_t credits_to_take(std::int64_t seen, std::uint64_t n) noexcept {
  return seen <= 0 ? 0 : static_cast<std::uint64_t>(seen) < n ? static_cast<std::uint64_t>(seen) : n;
}

/// What a take of `want` credits (one fetch_add of -want) keeps and what it gives back at once.
struct credit_take {
  std::uint64_t got;        // min(want, before), 0 when before <= 0: never more than the count held
  std::uint64_t give_back;  // want - got: what others took between the party's look and its take
};

/// The outcome of a take of `want` credits whose fetch_add found `before` in the count.
RINGKERNEL_HOST_DEVICE constexpr credit_take credits_taken(std::int64_t before, std::uint64_t want) noexcept {
  const std::uint64_t got =
      before <= 0 ? 0 : static_cast<std::uint64_t>(before) < want ? static_cast<std::uint64_t>(before) : want;
  return {got, want - got};
}

RINGKERNEL_HOST_DEVICE constexpr bool is_power_of_two(std::uint64_t v) noexcept { return v != 0 && (v & (v - 1)) == 0; }

/// The capacities a ring works with (Ring::valid_capacity): a power of two, at least 2 for a
/// multi-consumer ring (mpmc_ring: with one slot, a published slot and a free slot of the next lap
/// carry the same sequence word), at most the ring's max_capacity (bytes_for would wrap beyond).
RINGKERNEL_HOST_DEVICE constexpr bool valid_ring_capacity(std::uint64_t capacity, bool multi_consumer,
                                                          std::uint64_t max_capacity) noexcept {
  return is_power_of_two(capacity) && capacity <= max_capacity && (!multi_consumer || capacity >= 2);
}

/// Host only (runtime/src/queue_options.cpp): throws Error(invalid_argument, `call`) naming
/// `capacity` and the rule it breaks, unless valid_ring_capacity; the queues' wording too.
void check_ring_capacity(const char* call, std::uint64_t capacity, bool multi_consumer, std::uint64_t max_capacity);

/// Signed distance a - b of two positions (correct across the 2^64 wrap).
RINGKERNEL_HOST_DEVICE constexpr std::int64_t position_diff(std::uint64_t a, std::uint64_t b) noexcept {
  return static_cast<std::int64_t>(a - b);
}

/// Messages between tail and head, clamped to [0, capacity] (a snapshot of two indices read at
/// different moments may be briefly out of that range).
RINGKERNEL_HOST_DEVICE constexpr std::uint64_t occupancy(std::uint64_t head, std::uint64_t tail,
                                                         std::uint64_t capacity) noexcept {
  const std::int64_t d = position_diff(head, tail);
  return d <= 0 ? 0 : static_cast<std::uint64_t>(d) > capacity ? capacity : static_cast<std::uint64_t>(d);
}

}  // namespace ringkernel::detail
