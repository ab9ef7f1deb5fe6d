// Copyright RingKernel authors.
// Bounded multi-producer multi-consumer ring (Vyukov's design) over caller-provided memory, for
// host threads and CUDA threads alike. A non-owning, trivially copyable view: pass it by value to
// kernels. Memory: [ring_control][slot 0 .. slot capacity-1], slot = {sequence word, T}.
//
// Per-slot sequence protocol (p = a position, C = capacity):
//   slot seq == p          slot is free for the producer of position p
//   slot seq == p + 1      slot holds the message of position p (published)
//   slot seq == p + C      consumed; free for the producer of position p + C
// A producer claims p with a CAS on head only after it saw seq == p (acquire), writes the payload,
// then publishes with a release store of p + 1: a message is never visible before its payload is
// written, and a claim is never rolled back. A consumer claims p with a CAS on tail after it saw
// seq == p + 1 (acquire), copies the payload, then frees the slot with a release store of p + C.
// Batches claim n consecutive positions with ONE CAS (after checking all n slots), write every
// payload, then publish the slots last to first (n release stores, no further read-modify-write).
// The first slot, the one consumers wait on, becomes ready last, and its release store orders the
// others before it: a consumer that sees it ready sees the whole batch ready and claims it with one
// CAS, instead of taking the batch one slot at a time while the producer is still writing it (and
// pulling each line away from the producer mid-batch: 2x slower, measured). Consumers free a batch
// last to first too, for producers waiting on a full ring.
// Ticketed rings (Scope device or block: every party is a thread of one GPU) claim differently,
// because a CAS admits one claimer per round trip to the index: 0.7 M claims/s shared by every warp
// of an H200, 23-400x below a raw hand-off (bench/RESULTS.md). A party first takes credits with
// one fetch_add on a count (free_slots for producers, published for consumers; none: full /
// empty), then takes that many positions with one fetch_add on the index, waits for each slot to
// be ready (a slot taken this way belongs to a party already in flight: the consumer of the
// previous lap, or the producer of this position, because the credits bound every index by what
// the other side has claimed), and after publishing / freeing gives the other side its credits.
// No party ever waits for a future event, only for one already under way, and a GPU thread under
// way is resident and runs (independent thread scheduling). Host threads may use such rings (the
// tests do) but system-scope rings never wait: a host thread can be descheduled mid-operation.
// Ticketed waits need independent thread scheduling (sm_70 and later: a lane may wait for a lane
// of its own warp); device code for older GPUs that instantiates them does not compile.
// One memory, one kind of view: a ticketed and a CAS-claiming (system-scope) view of the same ring
// memory break each other (only ticketed parties keep the credits: a system-scope push is invisible
// to a ticketed pop, and a ticketed push can wait for a consumer that never comes). initialize()
// records the kind in ring_control::kind; the constructor that reads the memory checks it in debug
// host builds (an assert: nothing under NDEBUG). Views that differ in IndexScope only, e.g.
// mpmc_ring<T, system> and mpmc_ring<T, system, device>, are of one kind.
// Thread scope: `Scope` is the narrowest scope that contains every party (device for rings only
// one GPU's kernels touch, all in the same memory synchronization domain; system for mapped host
// memory or peer memory, and for kernels in different domains: atomic_scope in atomic_word.h);
// host-only code ignores it.
// IndexScope (default: Scope) is the scope of every access to head and tail; the slot sequence
// words, the closed flag, the credits (ticketed rings: both sides add to them) and the fences keep
// Scope. mpmc_ring<T, system, device> is for pinned host memory where each index is claimed
// (read-modify-written) only by threads of ONE GPU (or only by host threads): a system-scope RMW on mapped host memory is atomic at system scope only with host
// native atomics (cudaDevAttrHostNativeAtomicSupported, 0 on PCIe machines; compute-sanitizer
// memcheck rejects it there), while a device-scope RMW is atomic among that GPU's threads on any
// memory, and the slot words the other side (host or another GPU) reads stay system scope. Never
// use it when host threads and a GPU, or two GPUs, read-modify-write the same index (an MPMC side
// declared host_and_kernels): that needs system scope and host-native atomics. (P2P direct_p2p
// rings, in GPU memory, keep system scope throughout: claims over a link with native atomics.) A word keeps one scope in device code (libcu++: no two atomic_refs of
// different scopes on one object), hence the split by word, not by operation. Queues hand kernels
// this type through kernel_ring() (message_queue.h) and host_staged P2P rings (p2p_message_queue.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ringkernel/config.h"
#include "ringkernel/detail/atomic_word.h"
#include "ringkernel/detail/to_size.h"
#include "ringkernel/queue/ring_control.h"

#if !defined(__CUDA_ARCH__)
#include <cassert>
#include <thread>
#if defined(RINGKERNEL_TEST_HOOKS)
#include <atomic>
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif
#endif

#if defined(RINGKERNEL_TEST_HOOKS) && !defined(__CUDA_ARCH__)
namespace ringkernel::detail::test_hooks {
/// Tests only (RINGKERNEL_TEST_HOOKS, defined for a whole test binary): called by host ticketed
/// claims between their look at the credits and their take, to widen the window in which others
/// take them (overdraws, given back). Not compiled in otherwise.
inline std::atomic<void (*)()> ticketed_claim_window{nullptr};
}  // namespace ringkernel::detail::test_hooks
#endif

namespace ringkernel {

template <class T>
struct mpmc_slot {
  alignas(alignof(T) > 8 ? alignof(T) : 8) std::uint64_t sequence;
  T value;
};

template <class T, atomic_scope Scope = atomic_scope::system, atomic_scope IndexScope = Scope>
class mpmc_ring {
  static_assert(std::is_trivially_copyable_v<T>, "queue elements are copied as bytes between host and device");
  static_assert(alignof(T) <= detail::queue_line_bytes,
                "queue elements aligned to more than 128 bytes are not supported: a ring's slots start "
                "at a multiple of 128 bytes into storage that is itself 128-byte aligned");
  static_assert(static_cast<int>(IndexScope) <= static_cast<int>(Scope),
                "IndexScope must not be wider than Scope (block < device < system): the index is claimed by a "
                "subset of the parties that read the slot words");

 public:
  using value_type = T;
  using slot_type = mpmc_slot<T>;
  static constexpr atomic_scope scope = Scope;              // slot sequence words, closed flag, fences
  static constexpr atomic_scope index_scope = IndexScope;  // head and tail (claims)
  static constexpr bool multi_producer = true;
  static constexpr bool multi_consumer = true;
  /// Claims with credits and fetch_add (see top): every party is a thread of one GPU. From the
  /// slot Scope only: a ring whose slots are system scope (some party is the host or another GPU)
  /// is never ticketed, whatever its IndexScope.
  static constexpr bool ticketed = Scope != atomic_scope::system;
  /// What initialize() records in ring_control::kind (see top: one memory, one kind of view).
  static constexpr std::uint64_t kind = ticketed ? detail::ring_kind_ticketed : detail::ring_kind_cas;

  /// The most slots whose memory a std::size_t can count (queues refuse more: bytes_for would wrap).
  static constexpr std::uint64_t max_capacity = (SIZE_MAX - sizeof(detail::ring_control)) / sizeof(slot_type);

  /// Bytes of memory a ring of `capacity` slots needs (alignment: queue_line_bytes); capacity at
  /// most max_capacity.
  RINGKERNEL_HOST_DEVICE static constexpr std::size_t bytes_for(std::uint64_t capacity) noexcept {
    return sizeof(detail::ring_control) + detail::to_size(capacity) * sizeof(slot_type);
  }

  /// Whether a ring of this type works with `capacity` slots: a power of two, at least 2 (with
  /// one, a published slot and a free slot of the next lap carry the same sequence word), at most
  /// max_capacity. MpmcQueue and P2PMessageQueue apply the same rule.
  RINGKERNEL_HOST_DEVICE static constexpr bool valid_capacity(std::uint64_t capacity) noexcept {
    return detail::valid_ring_capacity(capacity, multi_consumer, max_capacity);
  }

  /// Writes an empty ring of `capacity` slots into `memory` (bytes_for(capacity) bytes, aligned to
  /// queue_line_bytes) and returns its view; `start`: the position of the first message (tests
  /// start near 2^64). A capacity that is not valid_capacity writes nothing: on the host
  /// Error(invalid_argument, "mpmc_ring::initialize") naming it and the rule; in device code (one
  /// thread initialising a block-scope ring in shared memory, docs/messaging.md §3) a trap. Memory
  /// that host threads cannot reach: initialize_ring (queue_storage.h) writes a host image and
  /// uploads it.
  RINGKERNEL_HOST_DEVICE static mpmc_ring initialize(void* memory, std::uint64_t capacity, std::uint64_t start = 0) {
    if (!valid_capacity(capacity)) {
#if defined(__CUDA_ARCH__)
      __trap();
#else
      detail::check_ring_capacity("mpmc_ring::initialize", capacity, multi_consumer, max_capacity);
#endif
    }
    // memcpy creates the implicit-lifetime control block and slots in raw memory.
    detail::ring_control control{};
    control.head = control.tail = control.cached_head = control.cached_tail = start;
    control.capacity = capacity;
    control.start = start;
    control.free_slots = capacity;
    control.published = 0;
    control.kind = kind;
    control.slot_bytes = sizeof(T);  // not the slot: slots of all T up to 8 bytes are 16 bytes
    std::memcpy(memory, &control, sizeof control);
    auto* slots = static_cast<unsigned char*>(memory) + sizeof(detail::ring_control);
    std::memset(slots, 0, detail::to_size(capacity) * sizeof(slot_type));
    for (std::uint64_t s = 0; s < capacity; ++s) {
      const std::uint64_t first = start + ((s - start) & (capacity - 1));  // first position >= start that maps to s
      std::memcpy(slots + s * sizeof(slot_type) + offsetof(slot_type, sequence), &first, sizeof first);
    }
    return mpmc_ring(memory);
  }

  mpmc_ring() = default;
  /// A view of a ring initialize() wrote at `memory` (any address space the caller can access),
  /// by an mpmc_ring of the same kind and element type. Debug host builds assert both (see top)
  /// and the capacity it read (valid_capacity); nothing under NDEBUG or in device code.
  RINGKERNEL_HOST_DEVICE explicit mpmc_ring(void* memory) noexcept
      : control_(static_cast<detail::ring_control*>(memory)),
        slots_(reinterpret_cast<slot_type*>(static_cast<unsigned char*>(memory) + sizeof(detail::ring_control))),
        mask_(control_->capacity - 1) {
#if !defined(__CUDA_ARCH__)
    assert(control_->kind == kind &&
           "one memory, one kind of view: a ticketed and a CAS-claiming mpmc_ring view of the same memory, or "
           "an mpmc_ring view of an spsc_ring's memory");
    assert(control_->slot_bytes == sizeof(T) &&
           "ring_control::slot_bytes: a view of another element type than the ring was initialised for; "
           "view a queue's memory as its own ring_type (MpmcQueue<T>::ring_type, of the same T)");
    assert(valid_capacity(control_->capacity) &&
           "ring_control::capacity is no valid capacity: not a ring initialize() wrote (mpmc_ring::valid_capacity)");
#endif
  }
  /// A view whose capacity the caller states, without reading the memory (device memory seen
  /// from the host, to be passed to kernels). Debug host builds assert valid_capacity(capacity).
  RINGKERNEL_HOST_DEVICE mpmc_ring(void* memory, std::uint64_t capacity) noexcept
      : control_(static_cast<detail::ring_control*>(memory)),
        slots_(reinterpret_cast<slot_type*>(static_cast<unsigned char*>(memory) + sizeof(detail::ring_control))),
        mask_(capacity - 1) {
#if !defined(__CUDA_ARCH__)
    assert(valid_capacity(capacity) && "a capacity no mpmc_ring works with (mpmc_ring::valid_capacity: a power of two >= 2)");
#endif
  }

  RINGKERNEL_HOST_DEVICE std::uint64_t capacity() const noexcept { return mask_ + 1; }
  RINGKERNEL_HOST_DEVICE detail::ring_control* control() const noexcept { return control_; }

  // Single messages have their own (smaller) paths: as a batch of one, try_push was no longer
  // inlined into a caller's loop once the batch path grew, and halved the single-message rate.
  // try_push / try_pop / the batches on ticketed rings: false / 0 / fewer ("full", "empty") also
  // when other parties hold credits for a moment, or freed / published slots whose credits they
  // have not given back yet; and a call may wait, only for a party already under way: a pop whose
  // position a producer claimed but has not published waits for it (a system ring answers false).
  RINGKERNEL_HOST_DEVICE bool try_push(const T& value) noexcept {
    std::uint64_t pos = 0;
    if (claim_any(head(), pos, 1, 0) == 0) return false;
    slot_type& slot = slots_[pos & mask_];
    slot.value = value;
    seq(slot).store(pos + 1, detail::order::release);
    if constexpr (ticketed) credits(1).fetch_add(1, detail::order::relaxed);
    return true;
  }
  RINGKERNEL_HOST_DEVICE bool try_pop(T& out) noexcept {
    std::uint64_t pos = 0;
    if (claim_any(tail(), pos, 1, 1) == 0) return false;
    slot_type& slot = slots_[pos & mask_];
    out = slot.value;
    seq(slot).store(pos + mask_ + 1, detail::order::release);
    if constexpr (ticketed) credits(0).fetch_add(1, detail::order::relaxed);
    return true;
  }

  /// Enqueues the longest prefix of values[0, n) that fits now; returns its length (0: full).
  RINGKERNEL_HOST_DEVICE std::size_t try_push_batch(const T* values, std::size_t n) noexcept {
    std::uint64_t pos = 0;
    const std::size_t claimed = claim_any(head(), pos, n, 0);
    for (std::size_t i = 0; i < claimed; ++i) slots_[(pos + i) & mask_].value = values[i];
    // Last to first: the first slot, the one consumers wait on, is published last (see top).
    for (std::size_t i = claimed; i-- > 0;) seq(slots_[(pos + i) & mask_]).store(pos + i + 1, detail::order::release);
    if (ticketed && claimed != 0) credits(1).fetch_add(claimed, detail::order::relaxed);
    return claimed;
  }

  /// Dequeues up to n messages in order into out[0, n); returns how many (0: empty).
  RINGKERNEL_HOST_DEVICE std::size_t try_pop_batch(T* out, std::size_t n) noexcept {
    std::uint64_t pos = 0;
    const std::size_t claimed = claim_any(tail(), pos, n, 1);
    for (std::size_t i = 0; i < claimed; ++i) out[i] = slots_[(pos + i) & mask_].value;
    for (std::size_t i = claimed; i-- > 0;) seq(slots_[(pos + i) & mask_]).store(pos + i + mask_ + 1, detail::order::release);
    if (ticketed && claimed != 0) credits(0).fetch_add(claimed, detail::order::relaxed);
    return claimed;
  }

  /// Copies the oldest message without removing it. Only valid while no other consumer runs
  /// (the single consumer of a P2P queue): a concurrent consumer could free and reuse the slot.
  /// Ticketed rings: true, then an immediate try_pop false is possible (the message's producer
  /// has published it but not yet given its credit).
  RINGKERNEL_HOST_DEVICE bool try_peek(T& out) const noexcept {
    const std::uint64_t pos = tail().load(detail::order::relaxed);
    slot_type& slot = slots_[pos & mask_];
    if (seq(slot).load(detail::order::acquire) != pos + 1) return false;
    out = slot.value;
    return true;
  }

  /// Messages claimed by producers and not yet claimed by consumers (a snapshot). With IndexScope
  /// narrower than Scope, a kernel reads the index the host or another GPU writes outside that
  /// writer's scope: it may lag; wait by polling try_pop / try_push (slot words), not these.
  RINGKERNEL_HOST_DEVICE std::uint64_t size() const noexcept {
    const std::uint64_t t = tail().load(detail::order::acquire);
    const std::uint64_t h = head().load(detail::order::acquire);
    return detail::occupancy(h, t, capacity());
  }
  RINGKERNEL_HOST_DEVICE std::uint64_t head_position() const noexcept { return head().load(detail::order::acquire); }
  RINGKERNEL_HOST_DEVICE std::uint64_t tail_position() const noexcept { return tail().load(detail::order::acquire); }

  RINGKERNEL_HOST_DEVICE bool closed() const noexcept { return word(control_->closed).load(detail::order::acquire) != 0; }
  RINGKERNEL_HOST_DEVICE void close() const noexcept { word(control_->closed).store(1, detail::order::release); }

  /// Claims up to n positions at `index` (head: ready offset 0, tail: ready offset 1), each slot
  /// ready (acquire) when this returns: ticketed rings with claim_ticketed, others with claim.
  RINGKERNEL_HOST_DEVICE std::size_t claim_any(detail::atomic_word<IndexScope> index, std::uint64_t& pos, std::size_t n,
                                               std::uint64_t ready) const noexcept {
    if constexpr (ticketed) {
      const std::uint64_t got = claim_ticketed(index, credits(ready), pos, n);
      for (std::uint64_t i = 0; i < got; ++i) await_slot(pos + i, pos + i + ready);
      return detail::to_size(got);
    } else {
      return claim(index, pos, n, ready);
    }
  }

  /// The credits a claim on the index of side `ready` takes (0, head: free_slots; 1, tail:
  /// published); a party gives the other side's after publishing / freeing. Ticketed rings only.
  RINGKERNEL_HOST_DEVICE detail::atomic_word<Scope> credits(std::uint64_t ready) const noexcept {
    return word(ready == 0 ? control_->free_slots : control_->published);
  }

  /// Ticketed rings: takes up to n credits from `credit` (one fetch_add; what it overdrew, because
  /// others took credits between its look and its take, it gives back), then as many positions
  /// with one fetch_add on `index`; returns how many (0: full / empty, or credits others held for
  /// a moment) and the first in `pos`. The slots are not yet ready: see await_slot.
  RINGKERNEL_HOST_DEVICE static std::uint64_t claim_ticketed(detail::atomic_word<IndexScope> index,
                                                             detail::atomic_word<Scope> credit, std::uint64_t& pos,
                                                             std::uint64_t n) noexcept {
    for (;;) {
      const std::uint64_t want = detail::credits_to_take(static_cast<std::int64_t>(credit.load(detail::order::relaxed)), n);
      if (want == 0) return 0;
#if defined(RINGKERNEL_TEST_HOOKS) && !defined(__CUDA_ARCH__)
      if (auto* hook = detail::test_hooks::ticketed_claim_window.load(std::memory_order_relaxed)) hook();
#endif
      const detail::credit_take take =
          detail::credits_taken(static_cast<std::int64_t>(credit.fetch_add(0 - want, detail::order::relaxed)), want);
      if (take.give_back != 0) credit.fetch_add(take.give_back, detail::order::relaxed);
      if (take.got == 0) continue;  // others took them first: look again (ends when the count shows none)
      // Relaxed: the acquire in await_slot orders this party after whoever freed / published the slot.
      pos = index.fetch_add(take.got, detail::order::relaxed);
      return take.got;
    }
  }

  /// Ticketed rings: waits until the slot of `pos` holds `want` (acquire). The party it waits for
  /// is already in flight (see top): spins on a GPU; on the host pauses, then yields.
  /// (`o` relaxed: the caller fences.)
  RINGKERNEL_HOST_DEVICE void await_slot(std::uint64_t pos, std::uint64_t want,
                                         detail::order o = detail::order::acquire) const noexcept {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700
    static_assert(!ticketed, "ticketed mpmc_ring (device / block scope) waits need independent thread scheduling "
                             "(sm_70 and later): a lane may wait for a lane of its own warp. Use atomic_scope::system.");
#endif
    const detail::atomic_word<Scope> s = seq(slots_[pos & mask_]);
    for (unsigned rounds = 0; s.load(o) != want; ++rounds) {
#if !defined(__CUDA_ARCH__)
      if (rounds < 64) {
#if defined(__x86_64__) || defined(__i386__)
        _mm_pause();
#endif
      } else {
        std::this_thread::yield();
      }
#endif
    }
  }

  /// Claims up to n positions at `index` (head: ready offset 0, tail: ready offset 1) with one
  /// CAS; returns how many and the first in `pos`. Public for the warp-aggregated device enqueue.
  /// Rings that are not ticketed only.
  RINGKERNEL_HOST_DEVICE std::size_t claim(detail::atomic_word<IndexScope> index, std::uint64_t& pos, std::size_t n,
                                           std::uint64_t ready) const noexcept {
    pos = index.load(detail::order::relaxed);
    if (n == 0) return 0;  // (would otherwise look again forever: nothing ready, nothing full)
    for (;;) {
      std::size_t ready_count = 0;
      std::int64_t first_diff = 0;
      while (ready_count < n) {
        const std::uint64_t want = pos + ready_count + ready;
        const std::int64_t d =
            detail::position_diff(seq(slots_[(pos + ready_count) & mask_]).load(detail::order::acquire), want);
        if (ready_count == 0) first_diff = d;
        if (d != 0) break;
        ++ready_count;
      }
      if (ready_count == 0) {
        if (first_diff < 0) return 0;  // full (head) / empty (tail)
        pos = index.load(detail::order::relaxed);  // another party took the position: look again
        continue;
      }
      // Relaxed suffices: the acquire loads of the slot words above order this party after the
      // parties that freed or published the slots; the CAS only decides who owns the positions.
      if (index.compare_exchange_weak(pos, pos + ready_count, detail::order::relaxed)) return ready_count;
    }
  }
  RINGKERNEL_HOST_DEVICE detail::atomic_word<IndexScope> head() const noexcept { return index_word(control_->head); }
  RINGKERNEL_HOST_DEVICE detail::atomic_word<IndexScope> tail() const noexcept { return index_word(control_->tail); }
  RINGKERNEL_HOST_DEVICE slot_type& slot_at(std::uint64_t pos) const noexcept { return slots_[pos & mask_]; }
  RINGKERNEL_HOST_DEVICE static detail::atomic_word<Scope> seq(slot_type& slot) noexcept { return word(slot.sequence); }

 private:
  RINGKERNEL_HOST_DEVICE static detail::atomic_word<Scope> word(std::uint64_t& w) noexcept { return detail::atomic_word<Scope>(w); }
  RINGKERNEL_HOST_DEVICE static detail::atomic_word<IndexScope> index_word(std::uint64_t& w) noexcept {
    return detail::atomic_word<IndexScope>(w);
  }

  detail::ring_control* control_ = nullptr;
  slot_type* slots_ = nullptr;
  std::uint64_t mask_ = 0;
};

}  // namespace ringkernel
