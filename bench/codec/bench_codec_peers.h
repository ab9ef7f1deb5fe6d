// Copyright RingKernel authors.
// The codec benchmark's messages and peers. Each peer lives in its own translation unit (msgpack-c's
// C headers and msgpack-cxx's headers define clashing macros) and registers its own benchmarks;
// all of them run in one bench_codec process.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "codec_test_support.h"
#if CODEC_TEST_GENERATED_TRAITS
#include "bench_map_messages.rk.h"
#define BENCH_CODEC_MAP_MESSAGES 1
#else
#define BENCH_CODEC_MAP_MESSAGES 0
#endif

namespace bench_codec {

/// Representative messages: 64 bytes (telemetry sample) and 128 bytes (order) of struct.
using Small = codec_test::Telemetry64;
using Large = codec_test::Order128;
static_assert(sizeof(Small) == 64 && sizeof(Large) == 128);

/// Varies one field per iteration so no peer can fold the work into constants.
inline void touch(Small& m, std::uint64_t i) { m.sequence = i; }
inline void touch(Large& m, std::uint64_t i) { m.order_id = i; }

/// The same bytes as another struct of the same members (the map messages, the peers' mirrors).
template <class To, class From>
To same_layout_copy(const From& m) {
  static_assert(sizeof(To) == sizeof(From));
  To out;
  std::memcpy(static_cast<void*>(&out), &m, sizeof out);
  return out;
}

#if BENCH_CODEC_MAP_MESSAGES
/// The same messages in map format (bench_map_messages.h).
using SmallMap = Telemetry64Map;
using LargeMap = Order128Map;
inline void touch(SmallMap& m, std::uint64_t i) { m.sequence = i; }
inline void touch(LargeMap& m, std::uint64_t i) { m.order_id = i; }
#endif

/// The messages every same-message encode benchmark (RingKernel's, memcpy's and the peers') reads
/// (the /varied rows read varied_ring, bench_codec_varied.h): iteration i
/// varies (touch) the message it reads 4 iterations later, so every iteration encodes a different
/// value, and the struct is not read right after the narrow store that changed it. (Touching the
/// message just before reading it made the 16-byte loads of memcpy wait on store-to-load
/// forwarding, ~10 ns for 64 bytes: a benchmark artefact, not a cost of copying.) `touch` is found
/// by argument-dependent lookup or in this namespace, for the peers' mirror structs too.
template <class T>
struct message_ring {
  static constexpr std::uint64_t size = 8;
  static constexpr std::uint64_t lead = 4;
  alignas(64) T messages[size];
  explicit message_ring(const T& sample) {
    for (std::uint64_t k = 0; k < size; ++k) messages[k] = sample;
  }
  T& next(std::uint64_t i) {
    touch(messages[(i + lead) % size], i + lead);
    return messages[i % size];
  }
  T& at(std::uint64_t i) { return messages[i % size]; }  // what next(i) returned (touched after 4 more)
};

}  // namespace bench_codec
