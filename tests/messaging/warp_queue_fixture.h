// Copyright RingKernel authors.
// What the warp queue tests (warp_queue_test.cpp, warp_queue_stress_test.cpp) share: a 64-byte
// message whose every word checks its (producer, seq), an mpmc_ring of them in its own memory.
#pragma once

#include <cstdint>
#include <new>
#include <vector>

#include "ringkernel/queue/mpmc_ring.h"

namespace warp_queue_test {

/// 64 bytes whose every word is derived from (producer, seq): a torn or stale copy shows.
struct Msg {
  std::uint32_t producer;
  std::uint32_t seq;
  std::uint64_t check[7];
};
static_assert(sizeof(Msg) == 64);

inline std::uint64_t mix(std::uint32_t producer, std::uint32_t seq, unsigned word) {
  std::uint64_t x = (std::uint64_t{producer} << 32 | seq) * 0x9e3779b97f4a7c15ull + word;
  x ^= x >> 31;
  return x * 0xbf58476d1ce4e5b9ull;
}
inline Msg make_msg(std::uint32_t producer, std::uint32_t seq) {
  Msg m{producer, seq, {}};
  for (unsigned w = 0; w < 7; ++w) m.check[w] = mix(producer, seq, w);
  return m;
}
inline bool intact(const Msg& m) {
  for (unsigned w = 0; w < 7; ++w) {
    if (m.check[w] != mix(m.producer, m.seq, w)) return false;
  }
  return true;
}

// Built twice: as is (system scope: CAS claims) and with RINGKERNEL_TICKETED_RING (device scope:
// credits and fetch_add claims, mpmc_ring.h), the test names then prefixed messaging.ticketed.
#if defined(RINGKERNEL_TICKETED_RING)
using Ring = ringkernel::mpmc_ring<Msg, ringkernel::atomic_scope::device>;
static_assert(Ring::ticketed);
#else
using Ring = ringkernel::mpmc_ring<Msg, ringkernel::atomic_scope::system>;
static_assert(!Ring::ticketed);
#endif

/// An mpmc_ring in its own line-aligned host memory.
class OwnedRing {
 public:
  explicit OwnedRing(std::uint64_t capacity, std::uint64_t start = 0)
      : memory_(::operator new(Ring::bytes_for(capacity), std::align_val_t{ringkernel::detail::queue_line_bytes})),
        ring_(Ring::initialize(memory_, capacity, start)) {}
  ~OwnedRing() { ::operator delete(memory_, std::align_val_t{ringkernel::detail::queue_line_bytes}); }
  OwnedRing(const OwnedRing&) = delete;
  OwnedRing& operator=(const OwnedRing&) = delete;
  const Ring& ring() const { return ring_; }
  Ring& ring() { return ring_; }

 private:
  void* memory_;
  Ring ring_;
};

inline unsigned lanes_of(unsigned mask) { return static_cast<unsigned>(__builtin_popcount(mask)); }

/// What one consumer received, in the order it received it.
using Stream = std::vector<Msg>;

}  // namespace warp_queue_test
