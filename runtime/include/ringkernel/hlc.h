// Copyright RingKernel authors.
// ringkernel::HybridLogicalClock (DESIGN.md §6, "causal" messages): a hybrid logical clock whose
// whole state is ONE 64-bit word, updated by one compare-and-swap loop, identical on host and device.
//
// Stamp layout (hlc_timestamp::bits, unsigned 64-bit):
//
//     63                                  12 11          0
//    +--------------------------------------+-------------+
//    | physical: microseconds since the     | logical     |
//    | Unix epoch (52 bits, until year 2112)| (12 bits)   |
//    +--------------------------------------+-------------+
//
// 16 logical bits would leave 48 bits of microseconds: 2^48 us is 8.9 years, too few for an epoch
// time (today needs 51 bits). Comparing `bits` as integers compares (physical, logical)
// lexicographically, so a stamp is "later" exactly when its bits are larger.
//
// Rules (wall = wall_clock_us() or the caller's wall time, last = the last stamp issued):
//   now():          wall > max_remote_physical_us -> refused (empty stamp 0, counted, clock unchanged);
//                   otherwise next = max(wall << 12, last + 1)
//   update(remote): wall > max_remote_physical_us -> hlc_status::wall_out_of_range (counted, clock
//                   unchanged; checked first); remote.physical > wall + max_skew_us -> rejected
//                   (status, counted, clock unchanged); otherwise next = max(wall << 12, last + 1, remote + 1)
// which is the HLC algorithm of Kulkarni et al. on the packed word: when the physical parts tie,
// the logical part counts on; when the wall clock is ahead, the logical part restarts at 0.
// "+ 1" on a logical part of 4095 carries into the physical part: the clock then runs one
// microsecond ahead of the wall clock instead of wrapping (counted as a logical overflow); stamps
// stay unique and increasing, and the lead is bounded by 1 us per 4096 stamps issued within one
// microsecond. The word never wraps: remote stamps and wall times beyond max_remote_physical_us
// (from 2112-09-17, where the range's last 2^32 us start) are refused, whatever the skew bound. A
// wall time there is most likely not microseconds since the epoch (nanoseconds, say, from
// system_clock::now().time_since_epoch(), lie far past the range's end): refusing it keeps the
// clock usable, where adopting it would move the clock to the end of its range for good. Only 4096 stamps per microsecond for 71 minutes after a wall time or remote stamp
// at that bound could reach the largest stamp; a clock that has issued it issues no more: now()
// returns the empty stamp 0 and update() hlc_status::exhausted, counted in exhaustions().
//
// Concurrency: each call is one CAS loop on the word, so every stamp is issued exactly once
// (unique) and the stamps one thread receives increase strictly. Relaxed ordering suffices for
// that (all RMWs of one word form one modification order); if a stamp's holder hands it to another
// thread by any synchronising means, that thread's later stamps are larger, because its RMW comes
// later in the word's modification order.
//
// The object is a plain standard-layout struct of 64-bit words, updated with system-scope atomics:
// one clock may live in device memory (kernels of that GPU, or of peers over a link with native
// atomics) or in host memory (host threads). Host threads and kernels may share one clock in mapped
// pinned memory ONLY where the device has host-native atomics (Capability::host_native_atomics,
// e.g. NVLink-C2C): over PCIe a system-scope compare-and-swap on host memory is not atomic against
// the host (the two sides could issue the same stamp) and compute-sanitizer memcheck stops the
// kernel at the first one, so there a clock only kernels stamp belongs in device memory too. Give
// each side its own clock and join them with update() on the stamps they exchange.
// In device code a clock (and a MessageStamper) must live in global or shared memory: a
// `__device__` variable, memory from cudaMalloc, or `__shared__` storage initialised by one thread;
// not a local variable of a kernel, whose atomics would work on local memory, for which PTX leaves
// atomic operations undefined.
#pragma once

#include <cstdint>

#include "ringkernel/config.h"
#include "ringkernel/detail/atomic_word.h"
#include "ringkernel/wall_clock.h"

namespace ringkernel {

struct hlc_timestamp {
  static constexpr unsigned logical_bits = 12;
  static constexpr std::uint64_t logical_mask = (std::uint64_t{1} << logical_bits) - 1;
  static constexpr std::uint64_t max_physical_us = (std::uint64_t{1} << (64 - logical_bits)) - 1;
  /// The largest physical part a remote stamp may carry, and the largest wall time a clock takes:
  /// the range's last 2^32 us stay reserved for local carries, so neither brings a clock near the
  /// end of its word.
  static constexpr std::uint64_t max_remote_physical_us = max_physical_us - (std::uint64_t{1} << 32);

  // 0: "no stamp", never issued whatever the wall time: every stamp is above the clock's previous
  // one, which starts at 0.
  std::uint64_t bits = 0;

  /// The stamp of (physical_us, logical), each taken modulo its field (2^52 us, 4096): a part too
  /// large for its field loses its high bits. Check foreign values against max_physical_us and
  /// logical_mask first.
  RINGKERNEL_HOST_DEVICE static constexpr hlc_timestamp from_parts(std::uint64_t physical_us,
                                                                  std::uint64_t logical) noexcept {
    return {(physical_us << logical_bits) | (logical & logical_mask)};
  }
  RINGKERNEL_HOST_DEVICE constexpr std::uint64_t physical_us() const noexcept { return bits >> logical_bits; }
  RINGKERNEL_HOST_DEVICE constexpr std::uint64_t logical() const noexcept { return bits & logical_mask; }

  friend RINGKERNEL_HOST_DEVICE constexpr bool operator==(hlc_timestamp a, hlc_timestamp b) noexcept { return a.bits == b.bits; }
  friend RINGKERNEL_HOST_DEVICE constexpr bool operator!=(hlc_timestamp a, hlc_timestamp b) noexcept { return a.bits != b.bits; }
  friend RINGKERNEL_HOST_DEVICE constexpr bool operator<(hlc_timestamp a, hlc_timestamp b) noexcept { return a.bits < b.bits; }
  friend RINGKERNEL_HOST_DEVICE constexpr bool operator>(hlc_timestamp a, hlc_timestamp b) noexcept { return a.bits > b.bits; }
  friend RINGKERNEL_HOST_DEVICE constexpr bool operator<=(hlc_timestamp a, hlc_timestamp b) noexcept { return a.bits <= b.bits; }
  friend RINGKERNEL_HOST_DEVICE constexpr bool operator>=(hlc_timestamp a, hlc_timestamp b) noexcept { return a.bits >= b.bits; }
};
static_assert(sizeof(hlc_timestamp) == 8 && alignof(hlc_timestamp) == 8);

enum class hlc_status : std::uint8_t {
  ok = 0,
  skew_rejected = 1,  // the remote stamp's physical part is more than max_skew_us ahead of the wall clock,
                      // or beyond hlc_timestamp::max_remote_physical_us
  exhausted = 2,      // the clock has issued its largest stamp and issues no more (HybridLogicalClock::exhaustions())
  wall_out_of_range = 3,  // the wall time is beyond hlc_timestamp::max_remote_physical_us (past 2112: most likely
                          // not microseconds since the epoch); HybridLogicalClock::wall_rejections()
};

RINGKERNEL_HOST_DEVICE constexpr const char* to_string(hlc_status s) noexcept {
  return s == hlc_status::ok              ? "ok"
         : s == hlc_status::skew_rejected ? "remote clock too far ahead"
         : s == hlc_status::exhausted     ? "clock exhausted (it issued its largest stamp)"
         : s == hlc_status::wall_out_of_range ? "wall time out of range (not microseconds since the epoch?)"
                                              : "unknown";
}

struct hlc_update_result {
  hlc_status status;
  // ok: the new local stamp (> remote and > every earlier stamp of this clock). skew_rejected,
  // exhausted, wall_out_of_range: the clock's last stamp, already issued, for reference only: never
  // put it on a message (after skew_rejected, now() gives a fresh, unique stamp; after exhausted,
  // nothing does; after wall_out_of_range, a call with a wall time in range does).
  hlc_timestamp stamp;
};

class HybridLogicalClock {
 public:
  /// Default bound on how far a remote physical time may lead the local wall clock: 1 second.
  static constexpr std::uint64_t default_max_skew_us = 1'000'000;

  /// constexpr: a `__device__` (or `constinit`) variable is initialised at load time, with no
  /// dynamic initialisation (which CUDA does not support for device variables).
  RINGKERNEL_HOST_DEVICE constexpr explicit HybridLogicalClock(std::uint64_t max_skew_us = default_max_skew_us) noexcept
      : max_skew_us_(max_skew_us) {}
  HybridLogicalClock(const HybridLogicalClock&) = delete;
  HybridLogicalClock& operator=(const HybridLogicalClock&) = delete;

  /// A new stamp for a local or send event.
  [[nodiscard]] RINGKERNEL_HOST_DEVICE hlc_timestamp now() noexcept { return now_at(wall_clock_us()); }
  /// As now(), with the caller's wall time in microseconds since the epoch (tests, batching, a
  /// device wall clock corrected by its measured offset: docs/messaging.md §2). A wall time beyond
  /// hlc_timestamp::max_remote_physical_us (past 2112: nanoseconds, say) is refused: the empty
  /// stamp 0, counted in wall_rejections(), the clock unchanged.
  [[nodiscard]] RINGKERNEL_HOST_DEVICE hlc_timestamp now_at(std::uint64_t wall_us) noexcept {
    if (wall_us > hlc_timestamp::max_remote_physical_us) return reject_wall();
    return advance(wall_us << hlc_timestamp::logical_bits, 0);
  }

  /// Merge a received stamp (a receive event). Checks, in this order: a wall time beyond
  /// hlc_timestamp::max_remote_physical_us is refused (hlc_status::wall_out_of_range, counted in
  /// wall_rejections() only); a stamp whose physical part leads the wall clock by more than
  /// max_skew_us() is rejected (skew_rejected, counted in skew_rejections()); either way the clock
  /// is unchanged. A remote accepted at the bound with a full logical part (4095) carries: the clock
  /// then leads the wall clock by max_skew_us() + 1 us, so a peer with the same bound and wall clock
  /// rejects the next stamp.
  [[nodiscard]] RINGKERNEL_HOST_DEVICE hlc_update_result update(hlc_timestamp remote) noexcept { return update_at(remote, wall_clock_us()); }
  [[nodiscard]] RINGKERNEL_HOST_DEVICE hlc_update_result update_at(hlc_timestamp remote, std::uint64_t wall_us) noexcept {
    if (wall_us > hlc_timestamp::max_remote_physical_us) {
      (void)reject_wall();
      return {hlc_status::wall_out_of_range, last()};
    }
    const std::uint64_t physical = remote.physical_us();
    if ((physical > wall_us && physical - wall_us > max_skew_us_) || physical > hlc_timestamp::max_remote_physical_us) {
      counter(skew_rejections_).fetch_add(1, detail::order::relaxed);
      return {hlc_status::skew_rejected, last()};
    }
    const hlc_timestamp next = advance(wall_us << hlc_timestamp::logical_bits, remote.bits + 1);
    if (next.bits == 0) return {hlc_status::exhausted, last()};
    return {hlc_status::ok, next};
  }

  /// The last stamp issued (0 before the first).
  RINGKERNEL_HOST_DEVICE hlc_timestamp last() const noexcept { return {word(last_).load(detail::order::relaxed)}; }
  RINGKERNEL_HOST_DEVICE std::uint64_t max_skew_us() const noexcept { return max_skew_us_; }
  /// Remote stamps rejected for skew so far.
  RINGKERNEL_HOST_DEVICE std::uint64_t skew_rejections() const noexcept { return word(skew_rejections_).load(detail::order::relaxed); }
  /// Stamps whose logical part carried into the physical part (the clock ran ahead of the wall
  /// clock's microsecond), so far: by this clock's own stamps, or by adopting a remote stamp whose
  /// logical part was full (4095).
  RINGKERNEL_HOST_DEVICE std::uint64_t logical_overflows() const noexcept { return word(logical_overflows_).load(detail::order::relaxed); }
  /// Calls that found the largest stamp issued already: now() returned the empty stamp 0,
  /// update() hlc_status::exhausted.
  RINGKERNEL_HOST_DEVICE std::uint64_t exhaustions() const noexcept { return word(exhaustions_).load(detail::order::relaxed); }
  /// Calls refused for a wall time beyond hlc_timestamp::max_remote_physical_us: now_at() returned
  /// the empty stamp 0, update_at() hlc_status::wall_out_of_range.
  RINGKERNEL_HOST_DEVICE std::uint64_t wall_rejections() const noexcept { return word(wall_rejections_).load(detail::order::relaxed); }

 private:
  using word_ref = detail::atomic_word<atomic_scope::system>;
  RINGKERNEL_HOST_DEVICE static word_ref word(const std::uint64_t& w) noexcept { return word_ref(const_cast<std::uint64_t&>(w)); }
  RINGKERNEL_HOST_DEVICE static word_ref counter(std::uint64_t& w) noexcept { return word_ref(w); }
  RINGKERNEL_HOST_DEVICE hlc_timestamp reject_wall() noexcept {
    counter(wall_rejections_).fetch_add(1, detail::order::relaxed);
    return {};
  }

  // next = max(floor, last + 1, other); one CAS loop.
  RINGKERNEL_HOST_DEVICE hlc_timestamp advance(std::uint64_t floor, std::uint64_t other) noexcept {
    const word_ref w = word(last_);
    std::uint64_t current = w.load(detail::order::relaxed);
    std::uint64_t next = 0;
    do {
      if (current == ~std::uint64_t{0}) {  // no larger stamp exists: issue none rather than wrap
        counter(exhaustions_).fetch_add(1, detail::order::relaxed);
        return {};
      }
      next = current + 1;
      if (other > next) next = other;
      if (floor > next) next = floor;
    } while (!w.compare_exchange_weak(current, next, detail::order::relaxed));
    // A logical part that wrapped to 0 without the wall clock having reached that microsecond.
    if ((next & hlc_timestamp::logical_mask) == 0 && next > floor) {
      counter(logical_overflows_).fetch_add(1, detail::order::relaxed);
    }
    return {next};
  }

  alignas(8) std::uint64_t last_ = 0;
  std::uint64_t skew_rejections_ = 0;
  std::uint64_t logical_overflows_ = 0;
  std::uint64_t exhaustions_ = 0;
  std::uint64_t wall_rejections_ = 0;
  std::uint64_t max_skew_us_;
};

}  // namespace ringkernel
