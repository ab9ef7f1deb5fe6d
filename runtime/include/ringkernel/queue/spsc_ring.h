// Copyright RingKernel authors.
// Bounded single-producer single-consumer ring (the cached-index design of Rigtorp's SPSCQueue)
// over caller-provided memory: cheaper than mpmc_ring, no per-slot words, no read-modify-write.
// Memory: [ring_control][T slot 0 .. capacity-1]. Exactly one producer and one consumer at a time
// (host thread or device thread each).
//   producer: writes slot head, then head.store(head + n, release)   (one store per batch)
//   consumer: reads slot tail, then tail.store(tail + n, release)
// Each side re-reads the other side's index (acquire) only when its cached copy says full/empty,
// so in steady state the two sides touch each other's cache line once per lap, not per message.
// Each cached copy has a line of its own (ring_control.h): beside the side's own index they made
// the ring up to 1.9x slower when the queue runs full (the producer then reads tail on every push).
// The cached copies live in the ring's memory, so a role can move between host threads and kernel
// launches. A side that stays with one thread for a while can hold it as an endpoint instead
// (producer() / consumer()): its own index and its cache of the other side's index then live in
// the endpoint (registers), and an operation reads the ring's memory only for the slot and when the
// cache runs out, and writes it only to publish. That matters across PCIe, where a kernel's every
// load from pinned host memory is a bus round trip: a pop through the ring reads tail, the cache,
// head and the slot; through an endpoint, the slot (and head when the cache is exhausted).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#if !defined(__CUDA_ARCH__)
#include <cassert>
#endif

#include "ringkernel/config.h"
#include "ringkernel/detail/atomic_word.h"
#include "ringkernel/detail/to_size.h"
#include "ringkernel/queue/ring_control.h"

namespace ringkernel {

template <class T, atomic_scope Scope = atomic_scope::system>
class spsc_ring {
  static_assert(std::is_trivially_copyable_v<T>, "queue elements are copied as bytes between host and device");
  static_assert(alignof(T) <= detail::queue_line_bytes,
                "queue elements aligned to more than 128 bytes are not supported: a ring's slots start "
                "at a multiple of 128 bytes into storage that is itself 128-byte aligned");

 public:
  using value_type = T;
  static constexpr atomic_scope scope = Scope;
  static constexpr bool multi_producer = false;
  static constexpr bool multi_consumer = false;

  /// The most slots whose memory a std::size_t can count (queues refuse more: bytes_for would wrap).
  static constexpr std::uint64_t max_capacity = (SIZE_MAX - sizeof(detail::ring_control)) / sizeof(T);

  /// Bytes of memory a ring of `capacity` slots needs; capacity at most max_capacity.
  RINGKERNEL_HOST_DEVICE static constexpr std::size_t bytes_for(std::uint64_t capacity) noexcept {
    return sizeof(detail::ring_control) + detail::to_size(capacity) * sizeof(T);
  }

  /// Whether a ring of this type works with `capacity` slots: a power of two (1 included), at
  /// most max_capacity. SpscQueue applies the same rule.
  RINGKERNEL_HOST_DEVICE static constexpr bool valid_capacity(std::uint64_t capacity) noexcept {
    return detail::valid_ring_capacity(capacity, multi_consumer, max_capacity);
  }

  /// Writes an empty ring of `capacity` slots into `memory` (bytes_for(capacity) bytes, aligned to
  /// queue_line_bytes) and returns its view; `start`: the position of the first message. A
  /// capacity that is not valid_capacity writes nothing: on the host Error(invalid_argument,
  /// "spsc_ring::initialize") naming it and the rule; in device code a trap. As
  /// mpmc_ring::initialize (docs/messaging.md §3).
  RINGKERNEL_HOST_DEVICE static spsc_ring initialize(void* memory, std::uint64_t capacity, std::uint64_t start = 0) {
    if (!valid_capacity(capacity)) {
#if defined(__CUDA_ARCH__)
      __trap();
#else
      detail::check_ring_capacity("spsc_ring::initialize", capacity, multi_consumer, max_capacity);
#endif
    }
    detail::ring_control control{};  // memcpy creates the implicit-lifetime control block in raw memory
    control.head = control.tail = control.cached_head = control.cached_tail = start;
    control.capacity = capacity;
    control.start = start;
    control.kind = detail::ring_kind_spsc;
    control.slot_bytes = sizeof(T);
    std::memcpy(memory, &control, sizeof control);
    return spsc_ring(memory);
  }

  spsc_ring() = default;
  /// A view of a ring initialize() wrote at `memory`, by an spsc_ring of the same element type.
  /// Debug host builds assert the kind (an spsc_ring's memory), the element size and the capacity
  /// it read; nothing under NDEBUG or in device code.
  RINGKERNEL_HOST_DEVICE explicit spsc_ring(void* memory) noexcept
      : control_(static_cast<detail::ring_control*>(memory)),
        slots_(reinterpret_cast<T*>(static_cast<unsigned char*>(memory) + sizeof(detail::ring_control))),
        mask_(control_->capacity - 1) {
#if !defined(__CUDA_ARCH__)
    assert(control_->kind == detail::ring_kind_spsc &&
           "one memory, one kind of view: an spsc_ring view of an mpmc_ring's memory");
    assert(control_->slot_bytes == sizeof(T) &&
           "ring_control::slot_bytes: a view of another element type than the ring was initialised for; "
           "view a queue's memory as its own ring_type (SpscQueue<T>::ring_type, of the same T)");
    assert(valid_capacity(control_->capacity) &&
           "ring_control::capacity is no valid capacity: not a ring initialize() wrote (spsc_ring::valid_capacity)");
#endif
  }
  /// A view whose capacity the caller states, without reading the memory (device memory seen
  /// from the host, to be passed to kernels). Debug host builds assert valid_capacity(capacity).
  RINGKERNEL_HOST_DEVICE spsc_ring(void* memory, std::uint64_t capacity) noexcept
      : control_(static_cast<detail::ring_control*>(memory)),
        slots_(reinterpret_cast<T*>(static_cast<unsigned char*>(memory) + sizeof(detail::ring_control))),
        mask_(capacity - 1) {
#if !defined(__CUDA_ARCH__)
    assert(valid_capacity(capacity) && "a capacity no spsc_ring works with (spsc_ring::valid_capacity: a power of two)");
#endif
  }

  RINGKERNEL_HOST_DEVICE std::uint64_t capacity() const noexcept { return mask_ + 1; }
  RINGKERNEL_HOST_DEVICE detail::ring_control* control() const noexcept { return control_; }

  RINGKERNEL_HOST_DEVICE bool try_push(const T& value) noexcept {
    const std::uint64_t h = word(control_->head).load(detail::order::relaxed);  // only we write head
    bool looked = false;
    if (h - control_->cached_tail > mask_) {
      control_->cached_tail = word(control_->tail).load(detail::order::acquire);
      if (h - control_->cached_tail > mask_) return false;
      looked = true;
    }
    slots_[h & mask_] = value;
    word(control_->head).store(h + 1, detail::order::release);
    prefetch_free_slot(h + 1, control_->cached_tail, looked);
    return true;
  }

  RINGKERNEL_HOST_DEVICE bool try_pop(T& out) noexcept {
    const std::uint64_t t = word(control_->tail).load(detail::order::relaxed);  // only we write tail
    // The cache can be behind tail too (a consumer endpoint moved tail without touching it).
    if (detail::position_diff(control_->cached_head, t) <= 0) {
      control_->cached_head = word(control_->head).load(detail::order::acquire);
      if (control_->cached_head == t) return false;
    }
    out = slots_[t & mask_];
    word(control_->tail).store(t + 1, detail::order::release);
    return true;
  }

  RINGKERNEL_HOST_DEVICE std::size_t try_push_batch(const T* values, std::size_t n) noexcept {
    const std::uint64_t h = word(control_->head).load(detail::order::relaxed);
    // The cache can be a lap or more behind (a producer endpoint moved head without touching it):
    // then h - cached_tail exceeds the capacity and says nothing about the room left.
    std::uint64_t used = h - control_->cached_tail;
    if (used > mask_ || capacity() - used < n) {
      control_->cached_tail = word(control_->tail).load(detail::order::acquire);
      used = h - control_->cached_tail;
    }
    const std::uint64_t space = capacity() - used;
    const std::size_t count = n < space ? n : detail::to_size(space);
    for (std::size_t i = 0; i < count; ++i) slots_[(h + i) & mask_] = values[i];
    if (count != 0) word(control_->head).store(h + count, detail::order::release);
    return count;
  }

  RINGKERNEL_HOST_DEVICE std::size_t try_pop_batch(T* out, std::size_t n) noexcept {
    const std::uint64_t t = word(control_->tail).load(detail::order::relaxed);
    const std::int64_t cached = detail::position_diff(control_->cached_head, t);  // < 0: cache behind tail
    std::uint64_t ready = cached < 0 ? 0 : static_cast<std::uint64_t>(cached);
    if (ready < n) {
      control_->cached_head = word(control_->head).load(detail::order::acquire);
      ready = control_->cached_head - t;
    }
    const std::size_t count = n < ready ? n : detail::to_size(ready);
    for (std::size_t i = 0; i < count; ++i) out[i] = slots_[(t + i) & mask_];
    if (count != 0) word(control_->tail).store(t + count, detail::order::release);
    return count;
  }

  class producer_endpoint;
  class consumer_endpoint;
  /// This thread becomes the producer for a run of pushes (see top); the shared index stays current
  /// after every push, so the role can be handed on at any point by simply dropping the endpoint.
  RINGKERNEL_HOST_DEVICE producer_endpoint producer() const noexcept { return producer_endpoint(*this); }
  RINGKERNEL_HOST_DEVICE consumer_endpoint consumer() const noexcept { return consumer_endpoint(*this); }

  /// The consumer's view of the oldest message, not removed.
  RINGKERNEL_HOST_DEVICE bool try_peek(T& out) const noexcept {
    const std::uint64_t t = word(control_->tail).load(detail::order::relaxed);
    if (t == word(control_->head).load(detail::order::acquire)) return false;
    out = slots_[t & mask_];
    return true;
  }

  RINGKERNEL_HOST_DEVICE std::uint64_t size() const noexcept {
    const std::uint64_t t = word(control_->tail).load(detail::order::acquire);
    const std::uint64_t h = word(control_->head).load(detail::order::acquire);
    // A third thread's snapshot: both indices may move between the two loads.
    return detail::occupancy(h, t, capacity());
  }
  RINGKERNEL_HOST_DEVICE std::uint64_t head_position() const noexcept { return word(control_->head).load(detail::order::acquire); }
  RINGKERNEL_HOST_DEVICE std::uint64_t tail_position() const noexcept { return word(control_->tail).load(detail::order::acquire); }
  RINGKERNEL_HOST_DEVICE bool closed() const noexcept { return word(control_->closed).load(detail::order::acquire) != 0; }
  RINGKERNEL_HOST_DEVICE void close() const noexcept { word(control_->closed).store(1, detail::order::release); }

 private:
  RINGKERNEL_HOST_DEVICE static detail::atomic_word<Scope> word(std::uint64_t& w) noexcept { return detail::atomic_word<Scope>(w); }

  /// Positions ahead of the next push whose slot a host producer asks the cache for, for writing
  /// (about four 64-byte lines), and how far behind the consumer that slot must be.
  static constexpr std::uint64_t prefetch_distance = (4 * 64 + sizeof(T) - 1) / sizeof(T);

  /// After a push on the host, `next` being the next push's position: fetches the slot
  /// prefetch_distance ahead for writing once `tail_seen` (the producer's cache of tail) proves it
  /// free by prefetch_distance more - never a line whose message the consumer has yet to read, or is
  /// about to (with the queue full that cost 5-25%). A cache too old to prove it is refreshed, unless
  /// this push just did (`looked`): with the queue running full it would be on every push. Rings of
  /// at most 4 * prefetch_distance slots never prefetch (nor look at tail for it). Idle-consumer SPSC
  /// on an Intel Xeon VM: 1.4-1.5x the rate without (bench/RESULTS.md). Not in device code.
  RINGKERNEL_HOST_DEVICE void prefetch_free_slot(std::uint64_t next, std::uint64_t& tail_seen, bool looked) const noexcept {
#if !defined(__CUDA_ARCH__)
    if (mask_ < 4 * prefetch_distance) return;
    const std::uint64_t ahead = next + prefetch_distance;
    if (ahead + prefetch_distance - tail_seen > mask_) {
      if (looked) return;
      tail_seen = word(control_->tail).load(detail::order::acquire);
      if (ahead + prefetch_distance - tail_seen > mask_) return;
    }
    __builtin_prefetch(&slots_[ahead & mask_], 1);
#else
    (void)next;
    (void)tail_seen;
    (void)looked;
#endif
  }

  detail::ring_control* control_ = nullptr;
  T* slots_ = nullptr;
  std::uint64_t mask_ = 0;
};

template <class T, atomic_scope Scope>
class spsc_ring<T, Scope>::producer_endpoint {
 public:
  RINGKERNEL_HOST_DEVICE explicit producer_endpoint(const spsc_ring& ring) noexcept
      : ring_(ring),
        head_(word(ring.control_->head).load(detail::order::relaxed)),  // only the producer writes head
        tail_seen_(word(ring.control_->tail).load(detail::order::acquire)) {}
  RINGKERNEL_HOST_DEVICE bool try_push(const T& value) noexcept {
    bool looked = false;
    if (head_ - tail_seen_ > ring_.mask_) {
      tail_seen_ = word(ring_.control_->tail).load(detail::order::acquire);
      if (head_ - tail_seen_ > ring_.mask_) return false;
      looked = true;
    }
    ring_.slots_[head_ & ring_.mask_] = value;
    word(ring_.control_->head).store(++head_, detail::order::release);
    ring_.prefetch_free_slot(head_, tail_seen_, looked);
    return true;
  }
  /// The position the next push takes.
  RINGKERNEL_HOST_DEVICE std::uint64_t position() const noexcept { return head_; }

 private:
  spsc_ring ring_;
  std::uint64_t head_;
  std::uint64_t tail_seen_;
};

template <class T, atomic_scope Scope>
class spsc_ring<T, Scope>::consumer_endpoint {
 public:
  RINGKERNEL_HOST_DEVICE explicit consumer_endpoint(const spsc_ring& ring) noexcept
      : ring_(ring),
        tail_(word(ring.control_->tail).load(detail::order::relaxed)),  // only the consumer writes tail
        head_seen_(tail_) {}
  RINGKERNEL_HOST_DEVICE bool try_pop(T& out) noexcept {
    if (tail_ == head_seen_) {
      head_seen_ = word(ring_.control_->head).load(detail::order::acquire);
      if (tail_ == head_seen_) return false;
    }
    out = ring_.slots_[tail_ & ring_.mask_];
    word(ring_.control_->tail).store(++tail_, detail::order::release);
    return true;
  }
  /// The position the next pop takes.
  RINGKERNEL_HOST_DEVICE std::uint64_t position() const noexcept { return tail_; }

 private:
  spsc_ring ring_;
  std::uint64_t tail_;
  std::uint64_t head_seen_;
};

}  // namespace ringkernel
